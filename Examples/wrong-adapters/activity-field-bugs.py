#!/usr/bin/env python3
"""Wrong adapters (d): the scheduling field bugs of SPEC §7.13–§7.19, one per run. The first argument names the
bug; the proxy changes what the app would have asked DeviceActivity for (or what it reports back) the way the
buggy code does, and the reference answers the rest:

    python3 Examples/wrong-adapters/activity-field-bugs.py 13 [REFERENCE COMMAND]

| bug | what the app does | how the proxy plants it |
| --- | --- | --- |
| 13 | writes a midnight end as `hour: 24` | an end of exactly 00:00(:00) becomes `hour: 24` |
| 14 | computes an overnight interval on one day, so it is negative, and rejects it | a time-only end earlier in the day than the start (midnight included) answers `intervalTooShort` (`activity.schedule`) or is sent as `hour: 24` so that the start fails (`activity.monitor`) |
| 15 | clamps an end that crosses midnight to 23:59:59 | such an end becomes 23:59:59 |
| 16 | counts usage from before monitoring started | every event gets `includesPastActivity: true` |
| 17 | trusts a schedule of mixed kinds to start | the date components of the side that has them are dropped |
| 18 | swallows `excessiveActivities` | those errors are removed from `activity.monitor`'s answer |
| 19 | believes `stopMonitoring()` stops nothing | a stop of `[]` becomes a stop of a name never monitored |
"""
import copy
import sys

from _reference_proxy import run

DATE = ("year", "month", "day")


def time_only(c):
    return isinstance(c, dict) and not any(k in c for k in DATE)


def seconds_of_day(c):
    return c.get("hour", 0) * 3600 + c.get("minute", 0) * 60 + c.get("second", 0)


def is_midnight(c):
    return time_only(c) and c.get("hour") == 0 and c.get("minute", 0) == 0 and c.get("second", 0) == 0 \
        and "weekday" not in c


def crosses_midnight(schedule):
    start, end = schedule.get("intervalStart"), schedule.get("intervalEnd")
    if not (time_only(start) and time_only(end)) or "weekday" in start or "weekday" in end:
        return False
    try:
        return seconds_of_day(end) < seconds_of_day(start)
    except TypeError:
        return False


def schedules(op, inp):
    """The schedule objects of a request, to change in place."""
    if op == "activity.schedule" and isinstance(inp.get("schedule"), dict):
        return [inp["schedule"]]
    if op == "activity.monitor" and isinstance(inp.get("steps"), list):
        return [s["schedule"] for s in inp["steps"] if isinstance(s, dict) and s.get("do") == "startMonitoring"
                and isinstance(s.get("schedule"), dict)]
    return []


def request_rewriter(bug):
    def rewrite(op, inp):
        if not isinstance(inp, dict) or not op.startswith("activity."):
            return None
        inp = copy.deepcopy(inp)
        for schedule in schedules(op, inp):
            end = schedule.get("intervalEnd")
            if bug == 13 and is_midnight(end):
                end["hour"] = 24
            if bug == 14 and op == "activity.monitor" and crosses_midnight(schedule):
                end["hour"] = 24
            if bug == 15 and crosses_midnight(schedule):
                schedule["intervalEnd"] = {**{k: v for k, v in end.items() if k == "timeZone"},
                                           "hour": 23, "minute": 59, "second": 59}
            if bug == 17:
                start = schedule.get("intervalStart")
                if isinstance(start, dict) and isinstance(end, dict) and (time_only(start) != time_only(end)):
                    for side in (start, end):
                        for k in DATE:
                            side.pop(k, None)
        if op == "activity.monitor" and isinstance(inp.get("steps"), list):
            for step in inp["steps"]:
                if not isinstance(step, dict):
                    continue
                if bug == 16 and step.get("do") == "startMonitoring" and isinstance(step.get("events"), dict):
                    for event in step["events"].values():
                        if isinstance(event, dict):
                            event["includesPastActivity"] = True
                if bug == 19 and step.get("do") == "stopMonitoring" and step.get("names") == []:
                    step["names"] = ["\u0000never-monitored"]
        return inp
    return rewrite


def answer_rewriter(bug):
    def rewrite(op, inp, answer):
        if bug == 14 and op == "activity.schedule" and isinstance(inp, dict) and isinstance(inp.get("schedule"), dict) \
                and crosses_midnight(inp["schedule"]) and "output" in answer:
            return {"error": "intervalTooShort"}
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
