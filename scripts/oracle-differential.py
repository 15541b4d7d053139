#!/usr/bin/env python3
"""Differential of the two independent implementations: the Python oracle against the Swift reference (SPEC §5).

    python3 scripts/oracle-differential.py --stc .build/debug/stc [--cases 20000] [--seed 1] [--show 10]

Inputs are the shipped vectors of the storage formats (selection-formats, selection-document, selection-encode)
and byte-level mutations of their stored values (flips, truncations, insertions, deletions, splices, repeats),
so that both readers meet inputs no one wrote by hand. Each input goes to the oracle (scripts/vectors) and, over
the adapter protocol, to `stc adapter`; their answers must be the same (an encode answer is judged by reading it
back, SPEC §5.3). Exit 0 when they agree on every input, 1 with the disagreements listed (smallest first), 2 on a
usage error. Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vectors import formats, oracle  # noqa: E402,F401  (formats registers its operations in oracle)

ROOT = Path(__file__).resolve().parent.parent
SUITES = ["selection-formats", "selection-document", "selection-encode"]


def stored_bytes(inp):
    """The stored bytes of a decode input, and how to put mutated bytes back."""
    fmt = inp.get("format", "base64-json")
    if not isinstance(fmt, str):
        return None
    if fmt in formats.TEXT_FORMATS:
        if not isinstance(inp.get("base64"), str):
            return None
        text = inp["base64"]
        raw = base64.b64decode(text) if oracle.b64_strict(text) is not None else text.encode()

        def put(b: bytes):
            return dict(inp, base64=base64.b64encode(b).decode())
        return raw, put
    if not isinstance(inp.get("data"), str) or oracle.b64_strict(inp["data"]) is None:
        return None

    def put(b: bytes):
        return dict(inp, data=base64.b64encode(b).decode())
    return base64.b64decode(inp["data"]), put


def mutate(raw: bytes, rng: random.Random, pool) -> bytes:
    b = bytearray(raw)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.randrange(7)
        if not b:
            kind = 2
        if kind == 0:  # flip a byte
            i = rng.randrange(len(b))
            b[i] = rng.choice([rng.randrange(256), b[i] ^ (1 << rng.randrange(8)), 0, 0xFF, 0x7F, 0x80])
        elif kind == 1:  # truncate
            del b[rng.randrange(len(b)):]
        elif kind == 2:  # insert interesting bytes
            i = rng.randrange(len(b) + 1)
            b[i:i] = rng.choice([b"<!-- -->", b"&amp;", b"&#13;", b"\r\n", b" ", b"\x00", b"]]>", b"<true/>",
                                 b"</dict>", b"<dict>", b"=", b"\xc3\xa9", b"\xed\xa0\x80", b"\\u0000", b"\"", b","])
        elif kind == 3:  # delete a run
            i = rng.randrange(len(b))
            del b[i:i + rng.randrange(1, 9)]
        elif kind == 4:  # splice from another input
            other = rng.choice(pool)
            if other:
                i, j = rng.randrange(len(b) + 1), rng.randrange(len(other))
                b[i:] = other[j:j + rng.randrange(1, 64)] + b[i:]
        elif kind == 5:  # repeat a run
            i = rng.randrange(len(b))
            run = b[i:i + rng.randrange(1, 16)]
            b[i:i] = run * rng.randrange(1, 4)
        else:  # a byte of a binary trailer or header field
            if len(b) >= 40 and b.startswith(b"bplist"):
                i = rng.choice([6, 7, len(b) - 26, len(b) - 25, len(b) - 9, len(b) - 17, len(b) - 1])
                b[i] = rng.randrange(256)
    return bytes(b)


def oracle_answer(op, inp):
    expect = oracle.expect(op, inp)
    return ("error", expect["error"]) if "error" in expect else ("output", expect["output"])


def same(op, inp, ours, theirs):
    """SPEC §5.3 between the oracle's expectation and the reference's answer."""
    kind, value = ours
    if theirs[0] != kind:
        return False
    if kind == "error":
        return value == theirs[1]
    if op == "selection.encode":
        try:
            return formats.read_back(inp["format"], theirs[1]) == value["canonical"]
        except ValueError:
            return False
    return all(theirs[1].get(k) == v for k, v in value.items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stc", required=True, help="path of the stc binary to serve the reference")
    parser.add_argument("--cases", type=int, default=20000, help="mutated inputs (the shipped ones come first)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="disagreements to print")
    parser.add_argument("--save", metavar="FILE", help="write every disagreement to FILE (JSON lines: op, input)")
    args = parser.parse_args()
    if args.cases < 0:
        parser.error("--cases takes a number from 0 up")

    cases = []
    for name in SUITES:
        cases += json.loads((ROOT / "corpus/conformance" / f"{name}.json").read_text())["cases"]
    requests = [(c["op"], c["input"]) for c in cases]
    seeds = [(op, inp, stored_bytes(inp)) for op, inp in requests if op == "selection.decode"]
    seeds = [(op, inp, s) for op, inp, s in seeds if s is not None]
    pool = [s[0] for _, _, s in seeds]
    rng = random.Random(args.seed)
    for _ in range(args.cases):
        op, inp, (raw, put) = rng.choice(seeds)
        requests.append((op, put(mutate(raw, rng, pool))))

    lines = "".join(json.dumps({"id": str(i), "op": op, "input": inp}) + "\n" for i, (op, inp) in enumerate(requests))
    run = subprocess.run([args.stc, "adapter"], input=lines.encode(), capture_output=True)
    if run.returncode != 0:
        print(f"oracle-differential: `{args.stc} adapter` exited {run.returncode}: {run.stderr.decode()[-500:]}",
              file=sys.stderr)
        return 1
    answers = {}
    for line in run.stdout.decode().splitlines():
        a = json.loads(line)
        answers[a["id"]] = ("error", a["error"]) if "error" in a else ("output", a.get("output"))

    disagreements = []
    for i, (op, inp) in enumerate(requests):
        ours = oracle_answer(op, inp)
        theirs = answers.get(str(i), ("missing", None))
        if not same(op, inp, ours, theirs):
            disagreements.append((len(json.dumps(inp)), op, inp, ours, theirs))
    print(f"oracle-differential: {len(requests)} inputs ({len(cases)} shipped, {args.cases} mutated, seed "
          f"{args.seed}): {len(requests) - len(disagreements)} agree, {len(disagreements)} disagree")
    disagreements.sort(key=lambda d: d[0])
    if args.save:
        with open(args.save, "w") as out:
            for _, op, inp, ours, theirs in disagreements:
                out.write(json.dumps({"op": op, "input": inp, "oracle": ours, "stc": theirs}) + "\n")
    for _, op, inp, ours, theirs in disagreements[: args.show]:
        print(f"  {op} {json.dumps(inp)[:400]}\n    oracle: {json.dumps(ours)[:200]}\n    stc:    {json.dumps(theirs)[:200]}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
