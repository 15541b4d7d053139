#!/usr/bin/env python3
"""Wrong adapter (a): the encoder drops `includeEntireCategory`. The reference's `selection.encode` answer is
written again with `includeEntireCategory` forced to false, so a selection that had it true reads back as another
selection (SPEC §1.1 "Canonical output per format", §5.3; the encode side of §7.10-§7.12: what is stored is not
the selection). Every other answer is the reference's.

    python3 Examples/wrong-adapters/loses-include-entire-category.py [REFERENCE COMMAND]
"""
import base64
import json
import plistlib
import sys

from _reference_proxy import member_for, run


def without_entire_category(fmt, stored):
    """The stored value (str for base64 formats, bytes otherwise) with includeEntireCategory false."""
    if fmt in ("base64-json", "json"):
        raw = base64.b64decode(stored) if fmt == "base64-json" else stored
        selection = json.loads(raw)
        selection["includeEntireCategory"] = False
        text = json.dumps(selection, separators=(",", ":")).encode()
        return base64.b64encode(text).decode() if fmt == "base64-json" else text
    raw = base64.b64decode(stored) if fmt == "base64-plist" else stored
    selection = plistlib.loads(raw)
    selection["includeEntireCategory"] = False
    out = plistlib.dumps(selection, fmt=plistlib.FMT_XML if fmt == "xml-plist" else plistlib.FMT_BINARY)
    return base64.b64encode(out).decode() if fmt == "base64-plist" else out


def rewrite(op, inp, answer):
    if op != "selection.encode" or not isinstance(answer.get("output"), dict) or not isinstance(inp, dict):
        return None
    fmt = inp.get("format")
    member = member_for(fmt)
    carried = answer["output"].get(member)
    if not isinstance(carried, str):
        return None
    stored = carried if member == "base64" else base64.b64decode(carried)
    try:
        changed = without_entire_category(fmt, stored)
    except Exception as error:  # noqa: BLE001 - e.g. a property list that does not load: forward as is
        print(f"loses-include-entire-category: cannot rewrite {fmt}: {error!r}", file=sys.stderr)
        return None
    if member == "data":
        changed = base64.b64encode(changed).decode()
    return {"output": {**answer["output"], member: changed}}


if __name__ == "__main__":
    sys.exit(run(rewrite))
