#!/usr/bin/env python3
"""Writes the named seeds of corpus/activity-calendar/ and corpus/activity-timeline/ (SPEC §6, §8).

The byte layouts are the decoders' in Sources/_ActivityFuzzTargets (CalendarDifferential.decode,
ActivityTimelineHarness.decode); each seed is a case worth keeping, named for it. Run from the repository:
    scripts/make-activity-seeds.py            # writes (overwrites) the named seeds only
Seeds merged in by `stc fuzz merge --write` are named by content hash and left alone.
"""
import os

ZONES = ["UTC", "America/New_York", "Europe/London", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago",
         "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "Australia/Sydney", "America/Havana", "Asia/Tehran",
         "Africa/Casablanca", "Pacific/Kiritimati", "America/Sao_Paulo", "Asia/Gaza"]
Z = {name: i for i, name in enumerate(ZONES)}
# Anchors per zone: its 2026 transitions in order, then the local midnights of 1 Jan, 1 Mar, 1 May, 1 Jul, 31 Dec,
# 28 Feb. TRANSITIONS gives how many transitions each zone has in 2026 (checked by ActivityFuzzTests).
TRANSITIONS = {"UTC": 0, "America/New_York": 2, "Europe/London": 2, "Europe/Berlin": 2, "Australia/Lord_Howe": 2,
               "America/Santiago": 2, "Australia/Sydney": 2, "America/Havana": 2, "America/St_Johns": 2,
               "Pacific/Chatham": 2, "Africa/Casablanca": 2, "Asia/Gaza": 2}
MIDNIGHT = {"jan1": 0, "mar1": 1, "may1": 2, "jul1": 3, "dec31": 4, "feb28": 5}


def moment(zone, anchor, seconds=0):
    """zone name; anchor: a transition index (int) or a midnight name; seconds: offset (a multiple of 5)."""
    index = anchor if isinstance(anchor, int) else TRANSITIONS.get(zone, 0) + MIDNIGHT[anchor]
    units = 32768 + seconds // 5
    return bytes([Z[zone], index, units >> 8, units & 0xFF])


YEARS = {2025: 0, 2026: 1, 2027: 2, 2028: 3, 2029: 4, 0: 5, 10000: 6, -1: 7}


def calendar(zone, anchor, seconds=0, **c):
    flags = 0
    for bit, key in enumerate(["year", "month", "day", "weekday", "hour", "minute", "second"]):
        if key in c:
            flags |= 1 << bit
    values = [YEARS[c.get("year", 2026)], c.get("month", 0) % 15, c.get("day", 0) % 34, c.get("weekday", 0) % 10,
              c.get("hour", 0) % 27, c.get("minute", 0) % 62, c.get("second", 0) % 62]
    return moment(zone, anchor, seconds) + bytes([flags] + values)


CAL = {
    "deviation-gap-moves-forward": calendar("America/New_York", 0, -7200, hour=2, minute=30),
    "gap-new-york-0200": calendar("America/New_York", 0, -7200, hour=2),
    "deviation-gap-moves-forward-lord-howe": calendar("Australia/Lord_Howe", 1, -18000, hour=2, minute=15),
    "gap-santiago-midnight-day": calendar("America/Santiago", 1, -36000, day=6),
    "deviation-gap-moves-forward-havana-midnight": calendar("America/Havana", 0, -36000, hour=0, minute=20),
    "overlap-new-york-0130": calendar("America/New_York", 1, -10800, hour=1, minute=30),
    "overlap-lord-howe-0145": calendar("Australia/Lord_Howe", 0, -7200, hour=1, minute=45),
    "deviation-missing-day": calendar("America/New_York", "may1", -144000, day=31, hour=9),
    "deviation-missing-day-feb-30": calendar("UTC", "jan1", 3600, month=2, day=30),
    "deviation-missing-day-31-sunday": calendar("UTC", "jan1", 100000, day=31, weekday=1, hour=3),
    "deviation-missing-day-feb-29-2027": calendar("Europe/Berlin", "feb28", -3600, year=2027, month=2, day=29),
    "deviation-missing-day-feb-29-from-2026": calendar("UTC", "feb28", 0, month=2, day=29, hour=12),
    "hour-nine": calendar("Europe/London", "jan1", 0, hour=9),
    "minute-thirty": calendar("Asia/Kolkata", "jul1", 1234 * 5, minute=30),
    "second-thirty": calendar("Pacific/Chatham", "jul1", 0, second=30),
    "weekday-monday-2100": calendar("America/St_Johns", "mar1", 0, weekday=2, hour=21),
    "day-first": calendar("Australia/Sydney", "dec31", 0, day=1),
    "month-march": calendar("Asia/Tehran", "jan1", 0, month=3),
    "year-month-day-time": calendar("Pacific/Kiritimati", "dec31", 0, year=2027, month=1, day=1, hour=0, minute=1,
                                    second=1),
    "deviation-weekday-with-date": calendar("America/Santiago", 0, -25000, day=6, weekday=6, hour=12),
    "deviation-free-unit-between-given-weekday-2029": calendar("America/Santiago", "may1", 0, year=2029, day=6, weekday=6, hour=12),
    "deviation-free-unit-between-given": calendar("UTC", "jan1", 2590, hour=0, second=0),
    "deviation-free-unit-between-given-day-minute": calendar("Europe/London", "jan1", 30000, day=1, minute=7),
    "deviation-weekday-with-date-january-sundays": calendar("Europe/London", "jan1", 30195, month=1, weekday=1, hour=0,
                                                            minute=7, second=0),
    "deviation-overlap-first-occurrence": calendar("America/New_York", 1, -1160, hour=1, minute=30),
    "deviation-free-unit-between-given-nil": calendar("Asia/Tehran", "jan1", -6840, year=2025, second=0),
    "deviation-first-of-next-month-is-no-match": calendar("Australia/Sydney", 0, -160000, year=2026, month=4, day=2,
                                                          hour=0),
    "deviation-gap-end-is-no-match": calendar("America/Havana", 0, -66960, weekday=7, hour=0),
    "friday-13th": calendar("America/Sao_Paulo", "jan1", 0, day=13, weekday=6),
    "out-of-range-hour-24": calendar("UTC", "jan1", 0, hour=24),
    "out-of-range-day-0": calendar("UTC", "jan1", 0, day=0),
    "out-of-range-month-13": calendar("UTC", "jan1", 0, month=13),
    "out-of-range-weekday-8": calendar("UTC", "jan1", 0, weekday=8),
    "out-of-range-minute-60": calendar("UTC", "jan1", 0, minute=60),
    "out-of-range-year-0": calendar("UTC", "jan1", 0, year=0, month=1),
    "deviation-out-of-range-matches-nothing": calendar("UTC", "jan1", 0, year=10000),
    "no-component": calendar("UTC", "jan1", 0),
    "past-year": calendar("UTC", "jan1", 0, year=2025, month=6),
    "year-only": calendar("UTC", "jul1", 0, year=2027),
    "casablanca-ramadan": calendar("Africa/Casablanca", 0, -3600, hour=2, minute=30),
    "deviation-gap-moves-forward-gaza": calendar("Asia/Gaza", 0, -7200, hour=2, minute=30),
    # Chatham's gap ends inside an hour (02:45 -> 03:45): Foundation answers 04:00, the first hour after it.
    "deviation-gap-moves-forward-chatham": calendar("Pacific/Chatham", 1, -7200, hour=3, minute=3, second=0),
    "deviation-gap-moves-forward-chatham-0250": calendar("Pacific/Chatham", 1, -7200, hour=2, minute=50, second=0),
}

# Timelines.
OPS = {"start": 0, "stop": 3, "use": 4, "tz": 6, "revoke": 7, "authorize": 8}
FG = {"device": 0, "mail": 1, "game": 2, "news": 3, "other": 4, "news-social": 5}


def delay(seconds):
    """A delay as (kind, n): exact for 0, < 256 s, whole minutes < 256, quarter hours."""
    if seconds == 0:
        return bytes([0, 0])
    if seconds < 256:
        return bytes([1, seconds])
    if seconds % 60 == 0 and seconds // 60 < 256:
        return bytes([2, seconds // 60])
    assert seconds % 900 == 0 and seconds // 900 < 256, seconds
    return bytes([3, seconds // 900])


MINUTES = {0: 0, 15: 2, 30: 3, 45: 4, 59: 5, 60: 6, 1: 7}
SECONDS = {0: 0, 30: 1, 59: 2, 1: 3}
DATES = {(): 0, ("day",): 1, ("day", "month"): 3, ("weekday",): 7, ("year",): 6}


def comps(hour=None, minute=None, second=None, zone=None, day=None, month=None, weekday=None, year=None):
    dates = tuple(k for k, v in [("day", day), ("month", month), ("weekday", weekday), ("year", year)]
                  if v is not None)
    flags = DATES[dates] << 5
    out = []
    if day is not None: out.append(day)
    if month is not None: out.append(month)
    if weekday is not None: out.append(weekday)
    if year is not None: out.append(year - 2025)
    if hour is not None: flags |= 1; out.append(hour)
    if minute is not None: flags |= 2; out.append(MINUTES[minute])
    if second is not None: flags |= 4; out.append(SECONDS[second])
    if zone is not None: flags |= 8; out.append(Z[zone])
    return bytes([flags] + out)


def dur(minutes=None, seconds=None, negative=False):
    if negative: return bytes([7])
    if seconds is not None: return bytes([seconds << 3])
    if minutes > 31: return bytes([(minutes // 5) << 3 | 5])
    return bytes([(minutes << 3) | 1])


EVENT_NAMES = {"limit": 0, "warn": 1, "Z": 2, "é": 3}


def event(name, threshold, mail=False, game=False, social=False, games=False, news=False, past=False):
    tokens = mail | game << 1 | social << 2 | games << 3 | news << 4 | past << 5
    return bytes([EVENT_NAMES[name], tokens]) + threshold


def start(at, name, s, e, repeats=True, warning=None, events=()):
    flags = (0 if repeats else 1) | (2 if warning is not None else 0) | (len(events) << 2)
    return delay(at) + bytes([OPS["start"], name, ]) + s + e + bytes([flags]) + (warning or b"") + b"".join(events)


def stop(at, *names):
    return delay(at) + bytes([OPS["stop"], len(names)] + list(names))


def use(at, length, fg="device"):
    return delay(at) + bytes([OPS["use"]]) + delay(length) + bytes([FG[fg]])


def simple(at, op, *extra):
    return delay(at) + bytes([OPS[op]] + list(extra))


def timeline(zone, anchor, seconds, steps, tail=3600, authorized=True):
    header = (0 if authorized else 0x80) | len(steps)
    return moment(zone, anchor, seconds) + bytes([header]) + b"".join(steps) + delay(tail)


NIGHT = (comps(hour=21), comps(hour=7))
TL = {
    "night-with-use": timeline("America/New_York", "jan1", 72000 - 18000 + 18000, [
        start(0, 0, *NIGHT), use(3600, 1800), use(36000, 900, "mail")], tail=3600),
    "midnight-end": timeline("Europe/Berlin", "mar1", -7200, [
        start(0, 1, comps(hour=22), comps(hour=0), warning=dur(minutes=10)), use(60, 900 * 20)]),
    "events-and-thresholds": timeline("UTC", "jan1", 0, [
        start(0, 2, comps(hour=1), comps(hour=3), warning=dur(minutes=5),
              events=[event("limit", dur(minutes=10), mail=True), event("warn", dur(minutes=20)),
                      event("Z", dur(minutes=30), social=True, past=True)]),
        use(3000, 900, "mail"), use(900, 900 * 4, "news-social"), use(6300, 900, "game")]),
    "past-activity": timeline("Asia/Kolkata", "jul1", 3600, [
        use(0, 1800, "game"), start(1800, 3, comps(hour=6, minute=0), comps(hour=8),
                                    events=[event("limit", dur(minutes=20), games=True, past=True),
                                            event("warn", dur(minutes=20), game=True)]),
        use(60, 3600, "game")]),
    "stop-all-and-restart": timeline("Europe/London", "jan1", 0, [
        start(0, 4, comps(minute=0), comps(minute=30)), start(0, 5, comps(hour=0, minute=15), comps(hour=2)),
        use(1200, 3600), stop(60), start(60, 4, comps(minute=45), comps(minute=15)), stop(0, 4)]),
    "replace-while-started": timeline("Australia/Sydney", "jan1", 0, [
        start(0, 6, comps(hour=0, minute=30), comps(hour=4)), use(3600, 3600),
        start(600, 6, comps(hour=2), comps(hour=5), repeats=False), use(3600, 900 * 12)]),
    "dst-spring-forward": timeline("America/New_York", 0, -14400, [
        start(0, 7, comps(hour=2, minute=30), comps(hour=3, minute=30), warning=dur(minutes=15)),
        use(3600, 900 * 16)]),
    "dst-fall-back": timeline("Europe/Berlin", 1, -14400, [
        start(0, 8, comps(hour=2, minute=30), comps(hour=4)), use(900, 900 * 20)]),
    "time-zone-change": timeline("America/New_York", "jan1", 0, [
        start(0, 9, comps(hour=9), comps(hour=17)), start(0, 10, comps(hour=3, zone="Asia/Kolkata"), comps(hour=6)),
        simple(1800, "tz", Z["Australia/Lord_Howe"]), use(900 * 4, 900 * 40)]),
    "revoke-and-authorize": timeline("UTC", "jan1", 0, [
        start(0, 11, comps(hour=0, minute=15), comps(hour=1)), use(1800, 900), simple(60, "revoke"),
        start(0, 11, comps(hour=0, minute=45), comps(hour=2)), simple(60, "authorize"),
        start(0, 11, comps(hour=0, minute=45), comps(hour=2)), use(600, 900)]),
    "unauthorized-start": timeline("UTC", "jan1", 0, [start(0, 0, *NIGHT), use(0, 60)], authorized=False),
    "mixed-kinds": timeline("UTC", "jan1", 0, [
        start(0, 12, comps(hour=1), comps(day=2, hour=3)), use(3600, 900 * 10)]),
    "errors": timeline("UTC", "jan1", 0, [
        start(0, 13, comps(hour=1), comps(hour=1, minute=1)), start(0, 13, comps(day=1), comps(day=15)),
        start(0, 13, comps(hour=24), comps(hour=1)), start(0, 13, comps(hour=1), comps(hour=2), warning=dur(negative=True)),
        start(0, 13, comps(hour=1), comps(hour=2), events=[event("limit", dur(negative=True))]),
        start(0, 13, comps(day=0), comps(day=1))]),
    "weekday-and-month": timeline("America/Santiago", "mar1", 0, [
        start(0, 14, comps(weekday=2, hour=8), comps(weekday=6, hour=18)),
        start(0, 15, comps(day=1, month=3, hour=1), comps(day=2, month=3)),
        start(0, 16, comps(year=2026, hour=0), comps(year=2026, hour=0, minute=30)), use(900 * 4, 900 * 200)]),
    "overlapping-schedules-one-use": timeline("Pacific/Chatham", "jul1", 0, [
        start(0, 17, comps(minute=0, second=0), comps(minute=45)), start(0, 18, comps(minute=15), comps(minute=59),
        warning=dur(seconds=30), events=[event("limit", dur(seconds=31)), event("é", dur(minutes=0))]),
        use(0, 900 * 12, "other")], tail=0),
}

# Twenty-two activities: batches (a name byte of 0xF0 or more starts eight names) of a00–a07, a16–a23 and
# a20–ζ, then a08 and a09: the 21st and 22nd starts throw excessiveActivities.
HOURLY = (comps(hour=1, minute=0), comps(hour=2))
TL["excessive-activities"] = timeline("UTC", "jan1", 0, [
    start(0, 252, *HOURLY), start(0, 240, *HOURLY), start(0, 244, *HOURLY), start(0, 8, *HOURLY),
    start(0, 9, *HOURLY), stop(60, 0), start(0, 9, *HOURLY), use(3600, 900)], tail=0)


def write(target, seeds):
    directory = os.path.join("corpus", target)
    os.makedirs(directory, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seeds)} named seeds")


if __name__ == "__main__":
    write("activity-calendar", CAL)
    write("activity-timeline", TL)
