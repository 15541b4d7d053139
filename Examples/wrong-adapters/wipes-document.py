#!/usr/bin/env python3
"""Wrong adapter (c): field bug 9 (SPEC §7.9), one bad selection wipes a document. For `selection.decode` with
`format: json-document`, when any entry of the reference's `selections` has an `error`, this answers
`{"output": {"selections": []}}`, as `try? JSONDecoder().decode(...) ?? [:]` does: the good profiles are gone
too (§1.3: one bad selection never hides another). Every other answer is the reference's.

    python3 Examples/wrong-adapters/wipes-document.py [REFERENCE COMMAND]
"""
import sys

from _reference_proxy import run


def rewrite(op, inp, answer):
    if op != "selection.decode" or not isinstance(inp, dict) or inp.get("format") != "json-document":
        return None
    selections = answer.get("output", {}).get("selections") if isinstance(answer.get("output"), dict) else None
    if isinstance(selections, list) and any(isinstance(e, dict) and "error" in e for e in selections):
        return {"output": {"selections": []}}
    return None


if __name__ == "__main__":
    sys.exit(run(rewrite))
