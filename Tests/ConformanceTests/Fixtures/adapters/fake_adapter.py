#!/usr/bin/env python3
"""A fake adapter for the runner's own tests (the protocol of SPEC.md §5), with switchable misbehaviour.

Ops: test.echo {value} -> output {value, extra}; test.error {code} -> error code; anything else -> unsupported.
Flags turn on misbehaviour for cases whose id ends with a marker:
  --crash      ".../crash"    exit with status 3 (after writing to stderr) instead of answering
  --segv       ".../crash"    kill itself with SIGSEGV instead of answering
  --survive    ".../crash"    answer {"id": ..., "crash": "killed by signal 4 (SIGILL)"}, as a fork server does
  --bad-crash  ".../crash"    answer {"id": ..., "crash": 4}: a crash member that is not a string
  --hang       ".../hang"     sleep forever instead of answering
  --garbage    ".../garbage"  print a line that is not JSON instead of the answer
  --wrong-id   ".../wrongid"  answer with an id that names no request
  --missing    ".../missing"  answer with only an id
  --exit-at-start             exit with status 1 before reading anything
  --hang-at-start             sleep forever before reading anything
  --unsupported               answer every request with unsupported
  --stderr-flood              write 1 MiB to stderr before the first answer (must not block)
  --slow                      sleep 0.2 s before every answer (well under a 3 s timeout)
  --reverse                   answer pipelined requests in reverse order of arrival, in pairs
"""
import json
import os
import signal
import sys
import time

flags = set(sys.argv[1:])

if "--exit-at-start" in flags:
    sys.stderr.write("fake adapter: cannot start (on purpose)\n")
    sys.exit(1)
if "--hang-at-start" in flags:
    time.sleep(1000)

flooded = False
pending = []


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def answer(request):
    rid = request.get("id")
    op = request.get("op")
    inp = request.get("input")
    if "--unsupported" in flags:
        return {"id": rid, "unsupported": True}
    if op == "test.echo" and isinstance(inp, dict) and "value" in inp:
        return {"id": rid, "output": {"value": inp["value"], "extra": "ignored"}}
    if op == "test.error" and isinstance(inp, dict) and isinstance(inp.get("code"), str):
        return {"id": rid, "error": inp["code"]}
    return {"id": rid, "unsupported": True}


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        emit({"id": None, "error": "protocol"})
        continue
    if not isinstance(request, dict):
        emit({"id": None, "error": "protocol"})
        continue
    rid = str(request.get("id"))
    if "--stderr-flood" in flags and not flooded:
        flooded = True
        sys.stderr.write(("x" * 1023 + "\n") * 1024)
        sys.stderr.write("flood done\n")
        sys.stderr.flush()
    if "--slow" in flags:
        time.sleep(0.2)
    if rid.endswith("/crash") and "--crash" in flags:
        sys.stderr.write("fake adapter: crashing on %s\n" % rid)
        sys.stderr.flush()
        os._exit(3)
    if rid.endswith("/crash") and "--survive" in flags:
        emit({"id": rid, "crash": "killed by signal 4 (SIGILL)"})
        continue
    if rid.endswith("/crash") and "--bad-crash" in flags:
        emit({"id": rid, "crash": 4})
        continue
    if rid.endswith("/crash") and "--segv" in flags:
        os.kill(os.getpid(), signal.SIGSEGV)
    if rid.endswith("/hang") and "--hang" in flags:
        time.sleep(1000)
    if rid.endswith("/garbage") and "--garbage" in flags:
        sys.stdout.write("this is not json {\n")
        sys.stdout.flush()
        continue
    if rid.endswith("/wrongid") and "--wrong-id" in flags:
        emit({"id": "no-such-id", "output": {}})
        continue
    if rid.endswith("/missing") and "--missing" in flags:
        emit({"id": rid})
        continue
    if "--reverse" in flags:
        pending.append(answer(request))
        if len(pending) == 2:
            emit(pending.pop())
            emit(pending.pop())
        elif rid.endswith("/last"):
            emit(pending.pop())
        continue
    emit(answer(request))
if pending:
    emit(pending.pop())
