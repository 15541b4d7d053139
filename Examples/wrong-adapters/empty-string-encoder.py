#!/usr/bin/env python3
"""Wrong adapter (b): field bug 12 (SPEC §7.12), the encoder that answers "" on any error. When the reference
answers an error to `selection.encode`, this answers an empty stored value instead, `{"output": {"base64": ""}}`
or `{"output": {"data": ""}}` (the member of the requested format). "" does not read back (`empty`, §1.1, §5.3),
and it is not the error the vectors expect. Every other answer is the reference's.

    python3 Examples/wrong-adapters/empty-string-encoder.py [REFERENCE COMMAND]
"""
import sys

from _reference_proxy import format_of, member_for, run


def rewrite(op, inp, answer):
    if op != "selection.encode" or "error" not in answer:
        return None
    return {"output": {member_for(format_of(inp)): ""}}


if __name__ == "__main__":
    sys.exit(run(rewrite))
