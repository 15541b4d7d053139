#!/usr/bin/env python3
"""Wrong adapters (d): the scheduling field bugs of SPEC §7.13–§7.19, one per run. The first argument names the
bug; the proxy changes what the app would have asked DeviceActivity for (or what it reports back) the way the
buggy code does, and the reference answers the rest:

    python3 Examples/wrong-adapters/activity-field-bugs.py 13 [REFERENCE COMMAND]

| bug | what the app does | how the proxy plants it |
| --- | --- | --- |
| 13 | reads a midnight end (`hour: 0` or `hour: 24`) as the start of the start's own day | `activity.schedule` answers `intervalTooShort`; in `activity.monitor` the end is sent a minute after the start, so that `startMonitoring` throws `intervalTooShort` |
| 14 | computes an overnight interval on one day, so it is negative, and rejects it | an interval whose end falls on a later day answers `intervalTooShort`; in `activity.monitor` a time-only end not after the start is sent a minute after it |
| 15 | clamps an end that crosses midnight to 23:59:59 | the answer's end becomes 23:59:59 of the start's day (`intervalTooShort` under 15 minutes); in `activity.monitor` the end is sent as 23:59:59 |
| 16 | counts usage from before monitoring started | every event gets `includesPastActivity: true` |
| 17 | trusts a schedule of mixed kinds to start | the date components of the side that has them are dropped |
| 18 | swallows `excessiveActivities` | those errors are removed from `activity.monitor`'s answer |
| 19 | believes `stopMonitoring()` stops nothing | a stop of `[]` becomes a stop of a name never monitored |

For 14 and 15, where the reference refuses an interval as `intervalTooLong` (which a same-day end never is), the
proxy cannot see that interval and answers `intervalTooShort`.
"""
import copy
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from _reference_proxy import run

DATE = ("year", "month", "day")


def time_only(c):
    return isinstance(c, dict) and not any(k in c for k in DATE)


def tod(c):
    return c.get("hour", 0) * 3600 + c.get("minute", 0) * 60 + c.get("second", 0)


def is_midnight(c):
    return time_only(c) and c.get("hour") in (0, 24) and c.get("minute", 0) == 0 and c.get("second", 0) == 0


def in_range(c):
    """The time components of `c` are integers in their ranges (so only `hour: 24` of the end can be wrong)."""
    ranges = {"hour": 23, "minute": 59, "second": 59, "weekday": 7}
    return all(isinstance(c.get(k, 0), int) and 0 <= c.get(k, 0) <= top for k, top in ranges.items())


def overnight(schedule):
    """Time-only, and the end's time of day is not after the start's: the interval crosses midnight."""
    start, end = schedule.get("intervalStart"), schedule.get("intervalEnd")
    try:
        return time_only(start) and time_only(end) and tod(end) <= tod(start)
    except TypeError:
        return False


def a_minute_after_start(schedule):
    """An end one minute after the start: what the buggy app's too-short (or negative) interval does to
    startMonitoring, which throws intervalTooShort."""
    start = schedule["intervalStart"]
    t = (tod(start) + 60) % 86_400
    return {**{k: v for k, v in schedule["intervalEnd"].items() if k == "timeZone"},
            "hour": t // 3600, "minute": t % 3600 // 60, "second": t % 60}


def start_steps(inp):
    return [s for s in inp.get("steps", []) if isinstance(s, dict) and s.get("do") == "startMonitoring"
            and isinstance(s.get("schedule"), dict)]


def request_rewriter(bug):
    def rewrite(op, inp):
        if not isinstance(inp, dict) or op != "activity.monitor" or not isinstance(inp.get("steps"), list):
            return None
        inp = copy.deepcopy(inp)
        for step in start_steps(inp):
            schedule = step["schedule"]
            start, end = schedule.get("intervalStart"), schedule.get("intervalEnd")
            if not (isinstance(start, dict) and isinstance(end, dict)):
                continue
            if bug == 13 and time_only(start) and is_midnight(end):
                schedule["intervalEnd"] = a_minute_after_start(schedule)
            elif bug == 14 and overnight(schedule):
                schedule["intervalEnd"] = a_minute_after_start(schedule)
            elif bug == 15 and (overnight(schedule) or (not time_only(start) and not time_only(end)
                                                        and tod(end) <= tod(start))):
                schedule["intervalEnd"] = {**{k: v for k, v in end.items() if k != "timeZone" and k in DATE
                                              and k in start}, **{k: start[k] for k in DATE if k in start},
                                           **{k: v for k, v in end.items() if k == "timeZone"},
                                           "hour": 23, "minute": 59, "second": 59}
            elif bug == 17 and time_only(start) != time_only(end) and all(
                    isinstance(side.get(k, 0), int) and not isinstance(side.get(k, 0), bool)
                    for side in (start, end) for k in DATE):
                for side in (start, end):
                    for k in DATE:
                        side.pop(k, None)
            if bug == 16 and isinstance(step.get("events"), dict):
                for event in step["events"].values():
                    if isinstance(event, dict) and event.get("includesPastActivity") in (None, False):
                        event["includesPastActivity"] = True
        if bug == 19:
            for step in inp["steps"]:
                if isinstance(step, dict) and step.get("do") == "stopMonitoring" and step.get("names") == []:
                    step["names"] = ["\u0000never-monitored"]
        return inp
    return rewrite


def local(moment, zone):
    return datetime.fromisoformat(moment.replace("Z", "+00:00")).astimezone(zone)


def answer_rewriter(bug):
    def rewrite(op, inp, answer):
        if op == "activity.schedule" and isinstance(inp, dict) and isinstance(inp.get("schedule"), dict):
            schedule = inp["schedule"]
            start, end = schedule.get("intervalStart"), schedule.get("intervalEnd")
            if bug == 13 and time_only(start) and is_midnight(end) and (
                    "output" in answer or (answer.get("error") == "invalidDateComponents" and end.get("hour") == 24
                                           and in_range(start) and any(k in start for k in ("hour", "minute", "second", "weekday")))):
                return {"error": "intervalTooShort"}
            out = answer.get("output")
            if bug in (14, 15) and answer.get("error") == "intervalTooLong":
                # The buggy end is on the start's day, so the interval is never too long; the proxy cannot see
                # the interval the reference refused, and answers as if it were negative or cut short.
                return {"error": "intervalTooShort"}
            if bug in (14, 15) and isinstance(out, dict) and isinstance(end, dict):
                zone = ZoneInfo(end.get("timeZone") or inp["timeZone"])
                s, e = local(out["start"], zone), local(out["end"], zone)
                if e.date() <= s.date():
                    return None
                if bug == 14:
                    return {"error": "intervalTooShort"}  # the end on the start's day: before the start
                clamped = s.replace(hour=23, minute=59, second=59)
                seconds = int(clamped.timestamp() - s.timestamp())
                if seconds < 900:
                    return {"error": "intervalTooShort"}
                iso = clamped.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                return {"output": {**out, "end": iso, "seconds": seconds}}
        if bug == 18 and op == "activity.monitor" and isinstance(answer.get("output"), dict):
            out = dict(answer["output"])
            errors = out.get("errors")
            if isinstance(errors, list):
                out["errors"] = [e for e in errors if not (isinstance(e, dict) and e.get("error") == "excessiveActivities")]
                if out["errors"] != errors:
                    return {"output": out}
        return None
    return rewrite


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in {str(n) for n in range(13, 20)}:
        print("usage: activity-field-bugs.py 13…19 [REFERENCE COMMAND]", file=sys.stderr)
        sys.exit(2)
    bug = int(sys.argv.pop(1))
    sys.exit(run(answer_rewriter(bug), request_rewriter(bug)))
