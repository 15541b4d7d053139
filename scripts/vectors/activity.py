"""The oracle for SPEC §8 (DeviceActivity): `activity.schedule` and `activity.monitor` (wire shapes: §5.2).

Written from the text of SPEC.md §8.1–§8.5, §5.2 and assumptions A17–A27 only; nothing here reads the Swift
reference. Moments are whole seconds since 1970-01-01T00:00:00Z (plain integers, so years 0001–9999 need no
`datetime` arithmetic across the epoch); local times are read with `zoneinfo` (fold=0: a local time a gap skips
takes the offset before the gap, so it moves forward by the gap's length, and an overlap's local time is its first
occurrence, SPEC §8.1 Matching).

`bugs` (a set of field-bug numbers, SPEC §7.13–§7.19) switches on the deliberate bugs that the mutants of
`mutants.py` use; the correct oracle runs with no bugs. It may also hold "current-only", the other reading of an
ambiguous sentence (a stop delivers intervalDidEnd only for the current interval, not for an earlier one whose end
is still pending): the generator uses it to keep generated timelines off that ambiguity.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from .oracle import Coded

WEEK = 604_800  # SPEC §8.1: the look-back and intervalTooLong
MIN_INTERVAL = 900  # SPEC §8.1: intervalTooShort
MAX_ACTIVITIES = 20  # SPEC §8.2
EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
DAY = 86_400


def bad():
    return Coded("badInput")


# ---------------------------------------------------------------------------------------------------------------
# Wire values (SPEC §5.2 "activity.* shapes"; A27)

MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})\Z", re.ASCII)
_ZONES: dict[str, ZoneInfo] = {}


def zone(name) -> ZoneInfo:
    """An IANA name, else badInput (A27: an unknown time zone)."""
    if not isinstance(name, str):
        raise bad()
    if name not in _ZONES:
        if not re.fullmatch(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*", name):
            raise bad()
        try:
            _ZONES[name] = ZoneInfo(name)
        except Exception:
            raise bad()
    return _ZONES[name]


def parse_moment(text) -> int:
    """`YYYY-MM-DDTHH:MM:SS` + `Z` or `±HH:MM`, whole seconds, years 0001–9999 (§5.2); else badInput (A27)."""
    if not isinstance(text, str):
        raise bad()
    m = MOMENT.match(text)
    if not m:
        raise bad()
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    if y < 1 or h > 23 or mi > 59 or s > 59:
        raise bad()
    try:
        day = date(y, mo, d)
    except ValueError:
        raise bad()
    off = 0
    if m.group(7) != "Z":
        oh, om = int(m.group(7)[1:3]), int(m.group(7)[4:6])
        if oh > 23 or om > 59:
            raise bad()
        off = (oh * 3600 + om * 60) * (1 if m.group(7)[0] == "+" else -1)
    return (day.toordinal() - EPOCH_ORDINAL) * DAY + h * 3600 + mi * 60 + s - off


def format_moment(t: int) -> str:
    """A moment in UTC with `Z` (§5.2)."""
    d = date.fromordinal(t // DAY + EPOCH_ORDINAL)
    r = t % DAY
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{r // 3600:02d}:{r // 60 % 60:02d}:{r % 60:02d}Z"


def is_int(v) -> bool:
    """An integer by value: `9` and `9.0` (JSON compares numbers by value, SPEC §5.3); not `9.5`, not a boolean
    (A27)."""
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) <= 2 ** 53)


def need(obj, key, kind, optional=False):
    if not isinstance(obj, dict):
        raise bad()
    if key not in obj or (optional and obj[key] is None):  # an optional member that is null is absent (§5.2)
        if optional:
            return None
        raise bad()
    v = obj[key]
    if kind == "int" and is_int(v):
        return int(v)
    ok = {"int": is_int, "bool": lambda x: isinstance(x, bool), "str": lambda x: isinstance(x, str),
          "obj": lambda x: isinstance(x, dict), "arr": lambda x: isinstance(x, list)}[kind](v)
    if not ok:
        raise bad()
    return v


COMPONENT_KEYS = ("year", "month", "day", "hour", "minute", "second", "weekday")
DURATION_KEYS = ("day", "hour", "minute", "second")


def read_components(obj) -> dict:
    """Components (§5.2): optional integers of COMPONENT_KEYS and an optional IANA `timeZone`; unknown members are
    ignored (§5.2). Range checks are not wire errors: they make the components match nothing (§8.1, A17)."""
    if not isinstance(obj, dict):
        raise bad()
    out = {k: need(obj, k, "int", True) for k in COMPONENT_KEYS}
    out = {k: v for k, v in out.items() if v is not None}
    tz = need(obj, "timeZone", "str", True)
    out["timeZone"] = zone(tz) if tz is not None else None
    return out


def read_duration(obj) -> dict:
    """A duration (§5.2): optional integers day, hour, minute, second (the sign is checked by startMonitoring)."""
    if not isinstance(obj, dict):
        raise bad()
    return {k: need(obj, k, "int", True) or 0 for k in DURATION_KEYS}


def read_schedule(obj) -> dict:
    """A schedule (§5.2), members read in the order listed."""
    if not isinstance(obj, dict):
        raise bad()
    start = read_components(need(obj, "intervalStart", "obj"))
    end = read_components(need(obj, "intervalEnd", "obj"))
    repeats = need(obj, "repeats", "bool")
    w = need(obj, "warningTime", "obj", True)
    return {"start": start, "end": end, "repeats": repeats,
            "warning": read_duration(w) if w is not None else {k: 0 for k in DURATION_KEYS}}


# ---------------------------------------------------------------------------------------------------------------
# Local time (SPEC §8.1: gap moves forward by its length, overlap is the first occurrence = fold 0)


def to_utc(y, mo, d, secs, tz: ZoneInfo) -> int:
    local = datetime(y, mo, d, secs // 3600, secs // 60 % 60, secs % 60, tzinfo=tz, fold=0)
    off = local.utcoffset()
    return (date(y, mo, d).toordinal() - EPOCH_ORDINAL) * DAY + secs - int(off.total_seconds())


def to_local(t: int, tz: ZoneInfo) -> datetime:
    u = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=t)
    return u.astimezone(tz)


# ---------------------------------------------------------------------------------------------------------------
# Matching (SPEC §8.1 Components and Matching; A17, A18)

RANGES = {"year": (1, 9999), "month": (1, 12), "day": (1, 31), "hour": (0, 23), "minute": (0, 59),
          "second": (0, 59), "weekday": (1, 7)}
RANK = {"year": 0, "month": 1, "day": 2, "weekday": 2, "hour": 3, "minute": 4, "second": 5}


def plan(comps: dict, hour24_is_midnight=False):
    """The allowed values per unit, or None when the components match no date (§8.1: a component out of range,
    `hour: 24`, or no component at all; A17). A unit not given is free when a smaller unit is given, else at its
    least value (§8.1, A18)."""
    c = {k: comps[k] for k in COMPONENT_KEYS if k in comps}
    if hour24_is_midnight and c.get("hour") == 24:  # field bug 13's model: `hour: 24` taken as a midnight
        c["hour"] = 0
    if not c or any(not (RANGES[k][0] <= v <= RANGES[k][1]) for k, v in c.items()):
        return None
    g = max(RANK[k] for k in c)  # the smallest unit given

    def unit(key, rank, values, least):
        if key in c:
            return [c[key]]
        return list(values) if g > rank else [least]

    hours = unit("hour", 3, range(24), 0)
    minutes = unit("minute", 4, range(60), 0)
    seconds = unit("second", 5, range(60), 0)
    if "day" in c:
        days = [c["day"]]
    elif "weekday" in c or g > 2:
        days = None  # every day of the month
    else:
        days = [1]
    return {
        "year": c.get("year"),
        "months": unit("month", 1, range(1, 13), 1),
        "days": days,
        "weekday": c.get("weekday"),
        "times": sorted(h * 3600 + mi * 60 + s for h in hours for mi in minutes for s in seconds),
    }


def month_len(y, mo):
    return calendar.monthrange(y, mo)[1]


def weekday_of(y, mo, d):
    """Python's Monday=0 … Sunday=6 mapped to 1 = Sunday … 7 = Saturday (§8.1)."""
    return (date(y, mo, d).weekday() + 1) % 7 + 1


def day_matches(p, y, mo, d) -> bool:
    if p["year"] is not None and y != p["year"]:
        return False
    if mo not in p["months"] or d > month_len(y, mo):
        return False  # a day the month lacks is no match in that month (§8.1)
    if p["days"] is not None and d not in p["days"]:
        return False
    return p["weekday"] is None or weekday_of(y, mo, d) == p["weekday"]


def dates_forward(p, first: date):
    """Matching local dates from `first` on, to the end of year 9999, skipping non-matching years and months."""
    years = [p["year"]] if p["year"] is not None else range(first.year, 10000)
    for y in years:
        if y < first.year:
            continue
        for mo in p["months"]:
            if (y, mo) < (first.year, first.month):
                continue
            n = month_len(y, mo)
            days = p["days"] if p["days"] is not None else range(1, n + 1)
            for d in days:
                if d > n or (y, mo, d) < (first.year, first.month, first.day):
                    continue
                if p["weekday"] is None or weekday_of(y, mo, d) == p["weekday"]:
                    yield y, mo, d


def first_match_after(p, tz, now: int):
    """The first match strictly after `now` (§8.1: searched up to the end of year 9999), or None. Candidates are
    local times in calendar order; the earliest UTC moment of the first matching day with one after `now` wins,
    and the next calendar day is looked at too (a gap near midnight can move a candidate past the next day's)."""
    if p is None:
        return None
    local_now = to_local(now, tz).date()
    first = local_now - timedelta(days=1) if local_now > date(1, 1, 1) else local_now
    for y, mo, d in dates_forward(p, first):
        cands = [u for u in (to_utc(y, mo, d, s, tz) for s in p["times"]) if u > now]
        if not cands:
            continue
        best = min(cands)
        nxt = date(y, mo, d) + timedelta(days=1) if (y, mo, d) != (9999, 12, 31) else None
        if nxt is not None and day_matches(p, nxt.year, nxt.month, nxt.day):
            best = min([best] + [u for u in (to_utc(nxt.year, nxt.month, nxt.day, s, tz) for s in p["times"])
                                 if u > now])
        return best
    return None


def latest_match_within_week(p, tz, now: int):
    """The latest match at or before `now` and at most one week before it (§8.1, A19), or None."""
    if p is None:
        return None
    top = to_local(now, tz).date()
    top = top + timedelta(days=1) if top < date.max else top
    low = to_local(now - WEEK, tz).date()
    low = low - timedelta(days=1) if low > date.min else low
    best = None
    d = top
    while True:
        if day_matches(p, d.year, d.month, d.day):
            for s in p["times"]:
                u = to_utc(d.year, d.month, d.day, s, tz)
                if now - WEEK <= u <= now and (best is None or u > best):
                    best = u
        if d <= low:
            return best
        d -= timedelta(days=1)
    return best


def has_date(comps) -> bool:
    """Names a date: has `year`, `month` or `day` (§8.1 Mixed kinds)."""
    return any(k in comps for k in ("year", "month", "day"))


def next_interval(sched, device_tz, now: int, bugs=frozenset()):
    """`nextInterval` at `now` (§8.1): the ongoing interval found at most a week back, else the next one; None when
    a start or end match does not exist. Returns (s, e)."""
    sp = plan(sched["start"])
    ep = plan(sched["end"], hour24_is_midnight=13 in bugs)
    stz = sched["start"]["timeZone"] or device_tz
    etz = sched["end"]["timeZone"] or device_tz

    def end_for(s):
        if bugs & {13, 14, 15} and not has_date(sched["end"]) and not has_date(sched["start"]):
            return buggy_end(sched, sp, ep, stz, etz, s, bugs)
        return first_match_after(ep, etz, s)

    s = latest_match_within_week(sp, stz, now)
    if s is not None:
        e = end_for(s)
        if e is not None and e > now:
            return s, e
    s = first_match_after(sp, stz, now)
    if s is None:
        return None
    e = end_for(s)
    return None if e is None else (s, e)


def buggy_end(sched, sp, ep, stz, etz, s, bugs):
    """The apps' wrong models of the end (SPEC §7.13–§7.15), for time-only schedules."""
    e = first_match_after(ep, etz, s)
    ls = to_local(s, etz)
    day_start = to_utc(ls.year, ls.month, ls.day, 0, etz)
    end_c = sched["end"]
    if 13 in bugs and end_c.get("hour", 0) in (0, 24) and end_c.get("minute", 0) == 0 and end_c.get("second", 0) == 0 \
            and any(k in end_c for k in ("hour", "minute", "second")):
        return day_start  # §7.13: a midnight end read at the start of the start's own day
    if 14 in bugs and ep is not None and e is not None:
        # §7.14: the end's time of day on the start's own day (so an overnight end is before the start)
        le = to_local(e, etz)
        return to_utc(ls.year, ls.month, ls.day, le.hour * 3600 + le.minute * 60 + le.second, etz)
    if 15 in bugs and e is not None and to_local(e, etz).date() > ls.date():
        return to_utc(ls.year, ls.month, ls.day, DAY - 1, etz)  # §7.15: clamped to 23:59:59 of the start's day
    return e


def timer_clamp(sched, s, e, device_tz):
    """§7.15 for schedules with dates (timers built as now…now + d): the end clamped to 23:59:59 of the start's day."""
    tz = sched["end"]["timeZone"] or device_tz
    ls = to_local(s, tz)
    if to_local(e, tz).date() > ls.date():
        return to_utc(ls.year, ls.month, ls.day, DAY - 1, tz)
    return e


def duration_seconds(dur) -> int:
    """`day`, `hour`, `minute`, `second` summed in seconds (§8.1 Durations, A21)."""
    return dur["day"] * DAY + dur["hour"] * 3600 + dur["minute"] * 60 + dur["second"]


def negative(dur) -> bool:
    return any(dur[k] < 0 for k in DURATION_KEYS)


def checked_interval(sched, events, device_tz, now, bugs=frozenset()):
    """startMonitoring's schedule checks in order (§8.2, A22): components and durations (invalidDateComponents,
    including no interval at all), then the length (intervalTooShort, intervalTooLong, §8.1 Limits, A19)."""
    if negative(sched["warning"]) or any(negative(ev["threshold"]) for ev in events.values()):
        raise Coded("invalidDateComponents")
    iv = next_interval(sched, device_tz, now, bugs)
    if iv is None:
        raise Coded("invalidDateComponents")
    s, e = iv
    if 15 in bugs and (has_date(sched["start"]) or has_date(sched["end"])):
        e = timer_clamp(sched, s, e, device_tz)
    if e - s < MIN_INTERVAL:
        raise Coded("intervalTooShort")
    if e - s > WEEK:
        raise Coded("intervalTooLong")
    return s, e


# ---------------------------------------------------------------------------------------------------------------
# activity.schedule (SPEC §5.2 row; §8.1)


def op_activity_schedule(inp, bugs=frozenset()):
    if not isinstance(inp, dict):
        raise bad()
    tz = zone(need(inp, "timeZone", "str"))
    at = parse_moment(need(inp, "at", "str"))
    sched = read_schedule(need(inp, "schedule", "obj"))
    s, e = checked_interval(sched, {}, tz, at, bugs)
    return {"start": format_moment(s), "end": format_moment(e), "seconds": e - s, "ongoing": s <= at}


# ---------------------------------------------------------------------------------------------------------------
# activity.monitor: wire (SPEC §5.2; A27)

STEP_KINDS = ("startMonitoring", "stopMonitoring", "use", "setTimeZone", "revoke", "authorize")


def read_ids(obj, key):
    v = need(obj, key, "arr", True)
    if v is None:
        return []
    if not all(isinstance(x, str) for x in v):
        raise bad()
    return v


def read_event(obj) -> dict:
    if not isinstance(obj, dict):
        raise bad()
    apps, cats, webs = read_ids(obj, "applications"), read_ids(obj, "categories"), read_ids(obj, "webDomains")
    threshold = read_duration(need(obj, "threshold", "obj"))
    past = need(obj, "includesPastActivity", "bool", True)
    return {"applications": set(apps), "categories": set(cats), "webDomains": set(webs), "threshold": threshold,
            "past": bool(past)}


def read_step(obj) -> dict:
    if not isinstance(obj, dict):
        raise bad()
    at = parse_moment(need(obj, "at", "str"))
    kind = need(obj, "do", "str")
    if kind not in STEP_KINDS:
        raise bad()
    step = {"at": at, "do": kind}
    if kind == "startMonitoring":
        step["name"] = need(obj, "name", "str")
        step["schedule"] = read_schedule(need(obj, "schedule", "obj"))
        evs = need(obj, "events", "obj", True) or {}
        step["events"] = {name: read_event(ev) for name, ev in evs.items()}
    elif kind == "stopMonitoring":
        names = need(obj, "names", "arr")
        if not all(isinstance(n, str) for n in names):
            raise bad()
        step["names"] = names
    elif kind == "use":
        step["until"] = parse_moment(need(obj, "until", "str"))
        for k in ("application", "category", "webDomain"):
            step[k] = need(obj, k, "str", True)
    elif kind == "setTimeZone":
        step["timeZone"] = zone(need(obj, "timeZone", "str"))
    return step


def read_monitor(inp):
    """The whole input is read and checked before anything runs: steps in order of `at`, every moment inside
    [start, until], a use's `until` after its `at`, uses not overlapping (§5.2, A27)."""
    if not isinstance(inp, dict):
        raise bad()
    tz = zone(need(inp, "timeZone", "str"))
    start = parse_moment(need(inp, "start", "str"))
    until = parse_moment(need(inp, "until", "str"))
    auth = need(inp, "authorized", "bool", True)
    steps = [read_step(s) for s in need(inp, "steps", "arr")]
    if until < start:
        raise bad()
    prev, use_end = start, None
    for st in steps:
        if st["at"] < prev or st["at"] > until:
            raise bad()
        prev = st["at"]
        if st["do"] == "use":
            if st["until"] <= st["at"] or st["until"] > until:
                raise bad()
            if use_end is not None and st["at"] < use_end:
                raise bad()
            use_end = st["until"]
    return tz, start, until, True if auth is None else auth, steps


# ---------------------------------------------------------------------------------------------------------------
# activity.monitor: the simulator (SPEC §8.2–§8.5)


class Uses:
    """The periods the device is in use, [from, until), with their foreground (§8.3)."""

    def __init__(self, steps):
        self.periods = [(s["at"], s["until"], s) for s in steps if s["do"] == "use"]

    def next_in_use(self, t):
        """The first in-use moment at or after t, or None."""
        for a, b, _ in self.periods:
            if b > t:
                return max(a, t)
        return None

    def reach(self, matches, c, e, amount):
        """When the count of matching in-use seconds in [c, e) reaches `amount` (§8.4): (moment, at_use_end), or
        None. A count of 0 is reached at c."""
        if amount <= 0:
            return c, False
        total = 0
        for a, b, fg in self.periods:
            lo, hi = max(a, c), min(b, e)
            if hi <= lo or not matches(fg):
                continue
            if total + (hi - lo) >= amount:
                t = lo + (amount - total)
                return t, t == b
            total += hi - lo
        return None


def event_matches(ev):
    """An event counts a second whose foreground it lists; with no token at all, every in-use second (§8.4)."""
    if not (ev["applications"] or ev["categories"] or ev["webDomains"]):
        return lambda fg: True
    return lambda fg: (fg["application"] in ev["applications"] or fg["category"] in ev["categories"]
                       or fg["webDomain"] in ev["webDomains"])


# Ranks for one interval at one moment (§8.5, A26).
R_START_WARNING, R_START, R_EVENT, R_END_WARNING, R_END = 1, 2, 3, 4, 5
# Phases at one moment (§8.5): a use ending there (with its thresholds), the calls, the callbacks due.
P_USE_END, P_CALLS, P_DUE = 0, 1, 2


class Activity:
    """One monitored activity (§8.2): its schedule and events, the moment m monitoring began, the current interval
    and the callbacks scheduled and not yet delivered."""

    def __init__(self, name, sched, events, m, tz, interval, uses, bugs):
        self.name, self.sched, self.events, self.m, self.uses, self.bugs = name, sched, events, m, uses, bugs
        # §8.1 Mixed kinds (A20): accepted, never a callback. Field bug 17 trusts them.
        self.mixed = has_date(sched["start"]) != has_date(sched["end"]) and 17 not in bugs
        self.w = duration_seconds(sched["warning"])
        self.seq = 0
        self.pending = []
        self.set_interval(interval, tz, m)

    def set_interval(self, interval, tz, k):
        """Makes [s, e) current (computed at moment k, in zone tz) and schedules its callbacks as §8.3 and §8.4
        say. Since every use period is known in advance, each callback's delivery moment is known now; a later
        call (stop, replace, time-zone change, revoke) drops the ones not yet delivered."""
        self.seq += 1
        self.interval, self.tz, self.k = interval, tz, k
        if interval is None or self.mixed:
            return
        s, e = interval
        uses, w, seq = self.uses, self.w, self.seq
        out = []

        def cb(t, phase, rank, name, ev_name=None, sub=0, started=None):
            rec = {"at": t, "activity": self.name, "callback": name}
            if ev_name is not None:
                rec["event"] = ev_name
            out.append({"key": (t, phase, self.name, seq, rank, ev_name or "", sub), "seq": seq, "rec": rec,
                        "cb": name, "started": started})

        # intervalWillStartWarning (§8.3, A24): due s - w, which must be at or after the moment this interval was
        # computed (m for the first); delivered at the first in-use moment from then, only if that is before s.
        if w >= 1 and s - w >= k:
            d = uses.next_in_use(s - w)
            if d is not None and d < s:
                cb(d, P_DUE, R_START_WARNING, "intervalWillStartWarning")
        # intervalDidStart (§8.3): due max(s, m); the interval starts at the first in-use moment in [max(s, m), e).
        st = uses.next_in_use(max(s, k))
        if st is None or st >= e:
            return  # never in use in the interval: no callback at all (§8.3)
        cb(st, P_DUE, R_START, "intervalDidStart")
        # Events (§8.4, A25): counted from c to e, each level once per interval, a level already reached at the
        # start delivered at the start, one reached at a use's end delivered at that moment.
        for ev_name in sorted(self.events):
            ev = self.events[ev_name]
            if ev["past"]:
                ls = to_local(s, tz)
                c = s - (ls.minute * 60 + ls.second)  # the start of the local hour holding s
            elif 16 in self.bugs:
                c = s  # field bug 16: usage before the call counted
            else:
                c = max(s, k)  # from when the interval became current (the first: m), so no use counts twice
            threshold = duration_seconds(ev["threshold"])
            levels = []
            if w >= 1:  # "A warning needs a warningTime of at least one second" (§8.3)
                levels.append((max(threshold - w, 0), 0, "eventWillReachThresholdWarning"))
            levels.append((threshold, 1, "eventDidReachThreshold"))
            for amount, sub, name in levels:
                r = uses.reach(event_matches(ev), c, e, amount)
                if r is None:
                    continue
                t, at_use_end = r
                if t <= st:
                    cb(st, P_DUE, R_EVENT, name, ev_name, sub)
                else:
                    cb(t, P_USE_END if at_use_end else P_DUE, R_EVENT, name, ev_name, sub)
        # intervalWillEndWarning (§8.3): due max(e - w, s); at the first in-use moment from then and from the start,
        # only if that is before e.
        if w >= 1:
            d = uses.next_in_use(max(e - w, s, st))
            if d is not None and d < e:
                cb(d, P_DUE, R_END_WARNING, "intervalWillEndWarning")
        # intervalDidEnd (§8.3): at the first in-use moment at or after e (or by stopMonitoring).
        d = uses.next_in_use(e)
        cb(d if d is not None else None, P_DUE, R_END, "intervalDidEnd", started=st)
        self.pending += [p for p in out if p["rec"]["at"] is not None]
        if d is None:
            self.pending.append({"key": None, "seq": seq, "rec": None, "cb": "intervalDidEnd", "started": st})

    def due_before(self, limit):
        return [p for p in self.pending if p["key"] is not None and p["key"][:2] < limit]


def simulate(tz, start, until, authorized, steps, bugs=frozenset()):
    """The timeline of §8.2–§8.5. At each moment that has calls: the callbacks due before it are delivered, and the
    thresholds of a use ending at it; then the calls apply in order (a stop's intervalDidEnd during its call); the
    callbacks due at the moment come after, in the next advance (§8.5, A26)."""
    uses = Uses(steps)
    acts: dict[str, Activity] = {}
    leavers: list[Activity] = []  # repeats: false, left at e, an end maybe still pending (§8.2)
    delivered, errors = [], []
    device_tz = tz

    def advance(T, through_T):
        """Delivers, in order, every callback before T (phase USE_END at T too; everything at T when through_T),
        and processes the interval ends on the way (§8.2: a repeating activity's next interval is nextInterval at
        e in the device's zone at e; repeats false leaves at e)."""
        limit = (T, P_DUE + 1) if through_T else (T, P_CALLS)
        while True:
            cands = [(p["key"], a, p) for a in list(acts.values()) + leavers for p in a.due_before(limit)]
            cands += [((a.interval[1], P_DUE, a.name, a.seq, 0, "", 0), a, None) for a in acts.values()
                      if a.interval is not None and (a.interval[1], P_DUE) < limit]
            if not cands:
                return
            key, a, p = min(cands, key=lambda x: x[0])
            if p is not None:
                a.pending.remove(p)
                delivered.append(p["rec"])
            elif a.sched["repeats"]:
                e = a.interval[1]
                a.set_interval(next_interval(a.sched, device_tz, e, bugs), device_tz, e)
            else:
                del acts[a.name]
                a.interval = None
                leavers.append(a)

    def stop(a, T):
        """stopMonitoring of one activity (§8.2, A22): when an interval of it has started (its intervalDidStart was
        delivered) and its end is not delivered, intervalDidEnd now, in use or not; nothing else comes."""
        ended = any(p["cb"] == "intervalDidEnd" and p["started"] < T
                    and ("current-only" not in bugs or p["seq"] == a.seq) for p in a.pending)
        a.pending = []
        if ended:
            delivered.append({"at": T, "activity": a.name, "callback": "intervalDidEnd"})
        del acts[a.name]

    i = 0
    while i < len(steps):
        T = steps[i]["at"]
        advance(T, False)
        while i < len(steps) and steps[i]["at"] == T:
            st, idx = steps[i], i
            i += 1
            try:
                if st["do"] == "startMonitoring":
                    # §8.2 (A22): authorization, components and durations, length, the number of activities.
                    if not authorized:
                        raise Coded("unauthorized")
                    iv = checked_interval(st["schedule"], st["events"], device_tz, T, bugs)
                    if len([n for n in acts if n != st["name"]]) >= MAX_ACTIVITIES and 18 not in bugs:
                        raise Coded("excessiveActivities")
                    if st["name"] in acts:
                        stop(acts[st["name"]], T)  # replacing stops first (A22)
                    acts[st["name"]] = Activity(st["name"], st["schedule"], st["events"], T, device_tz, iv, uses,
                                                bugs)
                elif st["do"] == "stopMonitoring":
                    # §8.2: [] stops every activity (field bug 19: stops nothing); unknown names are ignored.
                    names = st["names"] if st["names"] or 19 in bugs else sorted(acts)
                    for n in names:
                        if n in acts:
                            stop(acts[n], T)
                elif st["do"] == "setTimeZone":
                    # §8.2 (A23): intervals starting after the change get nextInterval at the change, in the new zone.
                    device_tz = st["timeZone"]
                    for a in acts.values():
                        if a.interval is not None and a.interval[0] > T:
                            a.pending = [p for p in a.pending if p["seq"] != a.seq]
                            a.set_interval(next_interval(a.sched, device_tz, T, bugs), device_tz, T)
                elif st["do"] == "revoke":
                    authorized = False  # §8.2 (A23): every activity stops, with no callback
                    acts.clear()
                    leavers.clear()
                elif st["do"] == "authorize":
                    authorized = True
            except Coded as exc:
                errors.append({"step": idx, "error": exc.code})
    advance(until, True)
    callbacks = [dict(r, at=format_moment(r["at"])) for r in delivered]
    return {"callbacks": callbacks, "errors": errors, "activities": sorted(acts)}


def op_activity_monitor(inp, bugs=frozenset()):
    tz, start, until, authorized, steps = read_monitor(inp)
    return simulate(tz, start, until, authorized, steps, frozenset(bugs))


OPERATIONS = {"activity.schedule": op_activity_schedule, "activity.monitor": op_activity_monitor}

from . import oracle as _oracle  # noqa: E402

_oracle.OPERATIONS.update(OPERATIONS)
