"""Shared by the wrong adapters: runs the reference (`stc adapter`) as a child process and forwards every request
line to it, one at a time, letting the caller rewrite chosen answers (SPEC §5.4).

The reference command is, in this order: the program's arguments (`python3 X.py .build/debug/stc adapter`), the
environment variable STC (a shell command, `STC='.build/release/stc adapter'`), or `stc adapter` from this
checkout's .build/debug, then .build/release, then the PATH.

Protocol: each answer line is written and flushed before the next request is read; a line the proxy cannot parse
is forwarded untouched, so the reference answers it (`protocol`); a rewritten answer keeps the reference's `id`.
At end of input the child's stdin is closed, it is waited for, and the proxy exits 0.
"""
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def reference_command():
    if len(sys.argv) > 1:
        return " ".join(shlex.quote(a) for a in sys.argv[1:])
    if os.environ.get("STC"):
        return os.environ["STC"]
    for configuration in ("debug", "release"):
        candidate = os.path.join(ROOT, ".build", configuration, "stc")
        if os.access(candidate, os.X_OK):
            return shlex.quote(candidate) + " adapter"
    return "stc adapter"


def run(rewrite, rewrite_request=None):
    """rewrite(op, input, answer) -> a new answer dict, or None to forward the reference's answer as it is;
    rewrite_request(op, input) -> the input to send the reference instead, or None to send it as it is."""
    child = subprocess.Popen(["/bin/sh", "-c", reference_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        if not line.endswith(b"\n"):
            line += b"\n"
        sent = line
        if rewrite_request is not None:
            try:
                request = json.loads(line)
                changed = rewrite_request(request["op"], request.get("input")) if isinstance(request, dict) \
                    and isinstance(request.get("op"), str) else None
            except Exception:  # noqa: BLE001 - a line the proxy cannot read goes to the reference as it is
                changed = None
            if changed is not None:
                sent = (json.dumps({**request, "input": changed}, separators=(",", ":")) + "\n").encode()
        child.stdin.write(sent)
        child.stdin.flush()
        answer_line = child.stdout.readline()
        if not answer_line:
            print("wrong adapter: the reference ended early", file=sys.stderr)
            return 1
        out = answer_line
        try:
            request, answer = json.loads(line), json.loads(answer_line)
        except ValueError:  # not a request the reference could read: its `protocol` answer goes out as is
            request = answer = None
        if isinstance(request, dict) and isinstance(answer, dict) and isinstance(request.get("op"), str):
            try:
                changed = rewrite(request["op"], request.get("input"), answer)
            except Exception as error:  # noqa: BLE001 - never lose an answer over a rewrite
                print(f"wrong adapter: forwarding as is: {error!r}", file=sys.stderr)
                changed = None
            if changed is not None:
                out = (json.dumps({"id": answer.get("id"), **changed}, separators=(",", ":")) + "\n").encode()
        try:
            stdout.write(out)
            stdout.flush()
        except BrokenPipeError:
            break
    child.stdin.close()
    child.wait()
    return 0


def format_of(inp, default="base64-json"):
    if isinstance(inp, dict) and isinstance(inp.get("format"), str):
        return inp["format"]
    return default


def member_for(fmt):
    """The output / input member carrying a stored value of `fmt` (SPEC §5.2)."""
    return "base64" if fmt in ("base64-json", "base64-plist") else "data"
