#!/usr/bin/env python3
"""Writes the conformance suites, corpus/conformance/*.json, deterministically (SPEC §5).

    python3 scripts/make-vectors.py            # regenerate every suite file (atomic writes)
    python3 scripts/make-vectors.py --check    # regenerate in memory; exit 1 if any file differs
    python3 scripts/make-vectors.py --stats    # case counts per suite and per tag
    python3 scripts/make-vectors.py --mutants  # check that each field-bug-N tag catches a mutant with bug N
    python3 scripts/make-vectors.py --self-check  # the oracle's writers round-trip; plistlib agrees on valid plists

Every expected result is computed by the independent oracle in scripts/vectors/oracle.py, written from the text of
SPEC.md, never by asking the Swift reference: the reference passing these vectors is a cross-check of two
implementations. Cases whose expectation rests on an assumption or a reference decision not stated in SPEC carry
the tag `assumption`. Standard library only (Python 3.11).

The suite files are generated: edit the generator (scripts/vectors/*_suites.py), not the JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vectors import activity_suites, auth_suites, encoding_suites, format_suites, formats, mutants, selection_suites, settings_suites, shield_suites  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "corpus" / "conformance"
BUILDERS = (selection_suites.SUITES + shield_suites.SUITES + auth_suites.SUITES + encoding_suites.SUITES
            + format_suites.SUITES + activity_suites.SUITES + settings_suites.SUITES)

OPERATIONS = [
    "selection.decode", "selection.equal", "selection.order", "selection.combine", "shield.evaluate",
    "auth.tokens", "auth.policy", "url.encode", "url.decode", "template.render", "selection.encode",
    "activity.schedule", "activity.monitor", "settings.evaluate",
]
ERROR_CODES = [
    "empty", "tooLarge", "base64", "json", "schema", "token", "limitExceeded", "invalidPercentEncoding",
    "invalidUTF8", "unencodable", "badInput", "plist", "invalidDateComponents", "intervalTooShort", "intervalTooLong",
    "excessiveActivities", "unauthorized", "invalidURL", "invalidWebDomain",
]


def dump(value) -> str:
    """Compact JSON, UTF-8 as is (no \\u escapes for non-ASCII), keys in the order built."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def render(suite) -> bytes:
    """One suite file: the header members, then one case per line (diffs stay readable)."""
    lines = [
        "{",
        f'"suite":{dump(suite.name)},',
        '"schema":1,',
        f'"description":{dump(suite.description)},',
        '"cases":[',
    ]
    for i, case in enumerate(suite.cases):
        lines.append(dump(case) + ("," if i + 1 < len(suite.cases) else ""))
    lines.append("]}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def build_all():
    suites = [b() for b in BUILDERS]
    ids = Counter(c["id"] for s in suites for c in s.cases)
    repeated = [i for i, n in ids.items() if n > 1]
    if repeated:
        raise SystemExit(f"duplicate case ids: {repeated}")
    for s in suites:
        for c in s.cases:
            assert c["id"].startswith(s.name + "/"), c["id"]
            assert c["op"] in OPERATIONS, c["op"]
    # Coverage the suites promise (README): every op, every error code, every field bug.
    cases = [c for s in suites for c in s.cases]
    ops = {c["op"] for c in cases}
    codes = {c["expect"].get("error") for c in cases} | set(step_errors(cases))
    tags = {t for c in cases for t in c["tags"]}
    missing = ([f"op {o}" for o in OPERATIONS if o not in ops] + [f"error {e}" for e in ERROR_CODES if e not in codes]
               + [f"tag field-bug-{n}" for n in range(1, 23) if f"field-bug-{n}" not in tags])
    if missing:
        raise SystemExit("coverage gaps: " + ", ".join(missing))
    return suites


def step_errors(cases):
    """The codes in activity.monitor outputs' `errors` (§5.2): the errors thrown by steps, not by the operation."""
    return [e["error"] for c in cases for e in c["expect"].get("output", {}).get("errors", [])
            if isinstance(e, dict) and "error" in e]


def write_atomically(path: Path, data: bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; suite files are ordinary repository files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def stats(suites):
    cases = [c for s in suites for c in s.cases]
    print(f"{len(cases)} cases in {len(suites)} suites")
    for s in suites:
        print(f"  {s.name:20} {len(s.cases):4}")
    tag_counts = Counter(t for c in cases for t in c["tags"])
    print("tags:")
    for tag in sorted(tag_counts):
        print(f"  {tag:20} {tag_counts[tag]:4}")
    code_counts = Counter(c["expect"]["error"] for c in cases if "error" in c["expect"])
    code_counts.update(step_errors(cases))  # activity.monitor: errors thrown by its steps
    print("error codes:")
    for code in ERROR_CODES:
        print(f"  {code:24} {code_counts[code]:4}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the files on disk; exit 1 on drift")
    parser.add_argument("--stats", action="store_true", help="print counts per suite, tag and error code")
    parser.add_argument("--mutants", action="store_true",
                        help="run each field bug's mutant over its tagged cases; exit 1 if one fails too few")
    parser.add_argument("--self-check", action="store_true",
                        help="writers round-trip through the readers; plistlib reads valid plist inputs alike")
    parser.add_argument("--out", type=Path, default=OUT, help="output directory (default: corpus/conformance)")
    args = parser.parse_args()
    suites = build_all()
    if args.stats:
        stats(suites)
        return 0
    if args.mutants:
        weak = mutants.run(suites)
        if weak:
            print("tags that catch too little: " + ", ".join(weak), file=sys.stderr)
            return 1
        return 0
    if args.self_check or args.check:  # cheap (a second or two), so --check runs it too
        problems = formats.self_check(suites, verbose=args.self_check)
        if problems:
            print("self-check failed:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
        if args.self_check:
            return 0
    drift = []
    for s in suites:
        path = args.out / f"{s.name}.json"
        data = render(s)
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                drift.append(str(path))
        elif not path.exists() or path.read_bytes() != data:
            write_atomically(path, data)
    if args.check:
        generated = {f"{s.name}.json" for s in suites}
        stray = sorted(p.name for p in args.out.glob("*.json") if p.name not in generated) if args.out.exists() else []
        for name in stray:
            print(f"note: {name} is not generated by this script (left alone)", file=sys.stderr)
        if drift:
            print("out of date (run python3 scripts/make-vectors.py):\n  " + "\n  ".join(drift), file=sys.stderr)
            return 1
        print(f"ok: {len(suites)} suite files match the generator")
        return 0
    print(f"wrote {sum(len(s.cases) for s in suites)} cases in {len(suites)} suites to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
