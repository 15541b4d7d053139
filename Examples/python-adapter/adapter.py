#!/usr/bin/env python3
"""Example adapter: a Screen Time implementation written with the usual Python standard-library tools,
answering the conformance runner's stdin/stdout JSON-lines protocol (SPEC §5).

Written in good faith (urllib.parse.quote/unquote, base64.b64decode(validate=True), json.loads, plistlib, a
regex template renderer); not sabotaged. Its known deviations from the reference are listed in README.md: they are
what the conformance reports should show.

Standard library only. Run: python3 Examples/python-adapter/adapter.py
"""

import base64
import binascii
import json
import plistlib
import re
import sys
import traceback
import urllib.parse


class CodedError(Exception):
    """An error with a code of the vector format (`empty`, `base64`, `invalidUTF8`, `badInput`, ...)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


# --- input accessors: a missing or mistyped member is badInput ---------------------------------------------

def _object(value):
    if not isinstance(value, dict):
        raise CodedError("badInput")
    return value


def _string(inp, key):
    value = _object(inp).get(key)
    if not isinstance(value, str):
        raise CodedError("badInput")
    return value


def _one_of(inp, key, allowed):
    value = _string(inp, key)
    if value not in allowed:
        raise CodedError("badInput")
    return value


# --- selections (SPEC §1) ----------------------------------------------------------------------------------

MAX_BASE64_LENGTH = 1024 * 1024  # "over 1 MiB of base64" is tooLarge
MAX_TOKEN_BYTES = 1024
TOKEN_KEYS = ("applicationTokens", "categoryTokens", "webDomainTokens")
UNTOKENIZED_KEYS = (
    "untokenizedApplicationIdentifiers",
    "untokenizedCategoryIdentifiers",
    "untokenizedWebDomainIdentifiers",
)
KIND_KEY = {"application": "applicationTokens", "category": "categoryTokens", "webDomain": "webDomainTokens"}


def check_size(stored):
    """`empty` and `tooLarge`, the first checks of every format (`len` of a str counts code points)."""
    if len(stored) == 0:
        raise CodedError("empty")
    if len(stored) > MAX_BASE64_LENGTH:
        raise CodedError("tooLarge")


def unbase64(s, code="base64"):
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        raise CodedError(code)


def parse_json(raw):
    try:
        return json.loads(raw)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        raise CodedError("json")


def decode_selection(s):
    """Stored string -> dict of token sets (of `data` strings), includeEntireCategory and untokenized lists.

    Raises CodedError; the checks run in the spec's precedence order.
    """
    check_size(s)
    return selection_from_json(parse_json(unbase64(s)))


def selection_from_json(root):
    """A parsed JSON value -> a selection, by the schema and token rules (schema first)."""

    def token(element):
        if not isinstance(element, dict) or not isinstance(element.get("data"), str):
            raise CodedError("token")
        try:
            token_bytes = base64.b64decode(element["data"], validate=True)
        except (binascii.Error, ValueError):
            raise CodedError("token")
        return element["data"], token_bytes

    return selection_from_tree(root, token)


def selection_from_plist(root):
    """A loaded property list -> a selection: the same rules, with tokens as {"data": bytes} dictionaries."""

    def token(element):
        if not isinstance(element, dict) or not isinstance(element.get("data"), bytes):
            raise CodedError("token")
        return base64.b64encode(element["data"]).decode("ascii"), element["data"]

    return selection_from_tree(root, token)


def selection_from_tree(root, token):
    """The schema rules (all before any token rule), then each token through `token` (its data text and bytes)."""
    if not isinstance(root, dict):
        raise CodedError("schema")
    for key in TOKEN_KEYS:
        if not isinstance(root.get(key), list):
            raise CodedError("schema")
    include_entire = root.get("includeEntireCategory", False)
    if not isinstance(include_entire, bool):
        raise CodedError("schema")
    for key in UNTOKENIZED_KEYS:
        value = root.get(key, [])
        if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
            raise CodedError("schema")
    selection = {"includeEntireCategory": include_entire}
    for key in TOKEN_KEYS:
        tokens = set()
        for element in root[key]:
            data, token_bytes = token(element)
            if not 1 <= len(token_bytes) <= MAX_TOKEN_BYTES:
                raise CodedError("token")
            tokens.add(data)
        selection[key] = tokens
    for key in UNTOKENIZED_KEYS:
        selection[key] = list(root.get(key, []))
    return selection


def load_plist(raw, fmt):
    """plistlib.loads, any failure as `plist` (it raises InvalidFileException, ExpatError, ValueError, ...)."""
    try:
        return plistlib.loads(raw, fmt=fmt)
    except Exception:  # noqa: BLE001 - plistlib has no single error type
        raise CodedError("plist")


def is_selection_object(value):
    return isinstance(value, dict) and any(key in value for key in TOKEN_KEYS)


def pointer_token(name):
    return name.replace("~", "~0").replace("/", "~1")


def document_selections(root):
    """Walks a JSON document depth first: each object holding a token array key is one selection, read on its own."""
    found = []

    def walk(value, path):
        if is_selection_object(value):
            try:
                found.append({"path": path, **describe(selection_from_json(value))})
            except CodedError as error:
                found.append({"path": path, "error": error.code})
        elif isinstance(value, dict):
            for key, member in value.items():
                walk(member, path + "/" + pointer_token(key))
        elif isinstance(value, list):
            for index, element in enumerate(value):
                walk(element, path + "/" + str(index))

    walk(root, "")
    return found


def decode_stored(fmt, stored):
    """A stored value of `fmt` (str for the base64 formats, bytes otherwise) -> the selection.decode output."""
    check_size(stored)
    if fmt == "base64-json":
        return describe(selection_from_json(parse_json(unbase64(stored))))
    if fmt == "json":
        return describe(selection_from_json(parse_json(stored)))
    if fmt == "json-document":
        return {"selections": document_selections(parse_json(stored))}
    if fmt == "binary-plist":
        return describe(selection_from_plist(load_plist(stored, plistlib.FMT_BINARY)))
    if fmt == "xml-plist":
        return describe(selection_from_plist(load_plist(stored, plistlib.FMT_XML)))
    # base64-plist: plistlib detects binary (the bplist00 header) or XML by itself.
    return describe(selection_from_plist(load_plist(unbase64(stored), None)))


def plain_selection(selection, tokens_as):
    """The selection as a dict for json.dumps / plistlib.dumps, tokens as {"data": tokens_as(data string)}."""
    obj = {key: [{"data": tokens_as(d)} for d in sorted(selection[key])] for key in TOKEN_KEYS}
    obj["includeEntireCategory"] = selection["includeEntireCategory"]
    for key in UNTOKENIZED_KEYS:
        obj[key] = list(selection[key])
    return obj


def encode_selection(selection, fmt):
    """The selection.encode output: the selection written the way this app stores it in `fmt`."""
    if fmt in ("base64-json", "json"):
        text = json.dumps(plain_selection(selection, lambda d: d))
        if fmt == "json":
            return {"data": base64.b64encode(text.encode("utf-8")).decode("ascii")}
        return {"base64": base64.b64encode(text.encode("utf-8")).decode("ascii")}
    obj = plain_selection(selection, base64.b64decode)
    if fmt == "xml-plist":
        return {"data": base64.b64encode(plistlib.dumps(obj, fmt=plistlib.FMT_XML)).decode("ascii")}
    binary = plistlib.dumps(obj, fmt=plistlib.FMT_BINARY)
    if fmt == "base64-plist":
        return {"base64": base64.b64encode(binary).decode("ascii")}
    return {"data": base64.b64encode(binary).decode("ascii")}


def canonical(selection):
    """Sorted keys, no whitespace, `/` as `\\/`, sorted tokens, sorted unique untokenized; then base64."""
    obj = {key: [{"data": d} for d in sorted(selection[key])] for key in TOKEN_KEYS}
    obj["includeEntireCategory"] = selection["includeEntireCategory"]
    for key in UNTOKENIZED_KEYS:
        obj[key] = sorted(set(selection[key]))
    text = json.dumps(obj, sort_keys=True, separators=(",", ":")).replace("/", "\\/")
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def describe(selection):
    return {
        "applications": len(selection["applicationTokens"]),
        "categories": len(selection["categoryTokens"]),
        "webDomains": len(selection["webDomainTokens"]),
        "includeEntireCategory": selection["includeEntireCategory"],
        "canonical": canonical(selection),
    }


SET_OPS = {
    "union": lambda a, b: a | b,
    "intersection": lambda a, b: a & b,
    "difference": lambda a, b: a - b,
    "symmetricDifference": lambda a, b: a ^ b,
}


def combine(op, a, b):
    f = SET_OPS[op]

    def entire(s):
        return s["includeEntireCategory"] or not s["categoryTokens"]

    result = {key: f(a[key], b[key]) for key in TOKEN_KEYS}
    result["includeEntireCategory"] = entire(a) and entire(b)
    for key in UNTOKENIZED_KEYS:
        result[key] = []
    return result


# --- URL components and shield text (SPEC §4) --------------------------------------------------------------

def url_decode(encoded):
    try:
        return urllib.parse.unquote(encoded, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise CodedError("invalidUTF8")


PLACEHOLDER = re.compile(r"\{(\w+)(?:\|([^{}]*))?\}")


def render_template(template, values):
    missing = []

    def replace(match):
        key, fallback = match.group(1), match.group(2)
        value = values.get(key)
        if value is None or value == "":
            if key not in missing:
                missing.append(key)
            return fallback or ""
        return value

    return {"text": PLACEHOLDER.sub(replace, template), "missing": missing}


# --- operations --------------------------------------------------------------------------------------------

FORMATS = ("base64-json", "json", "json-document", "binary-plist", "xml-plist", "base64-plist")
BASE64_TEXT_FORMATS = ("base64-json", "base64-plist")


def op_selection_decode(inp):
    fmt = _one_of(inp, "format", FORMATS) if "format" in _object(inp) else "base64-json"
    if fmt in BASE64_TEXT_FORMATS:
        return decode_stored(fmt, _string(inp, "base64"))
    return decode_stored(fmt, unbase64(_string(inp, "data"), code="badInput"))


def op_selection_encode(inp):
    selection = decode_selection(_string(inp, "selection"))
    fmt = _one_of(inp, "format", [f for f in FORMATS if f != "json-document"])
    return encode_selection(selection, fmt)


def op_selection_equal(inp):
    a, b = _string(inp, "a"), _string(inp, "b")
    return {"equal": canonical(decode_selection(a)) == canonical(decode_selection(b))}


def op_selection_order(inp):
    base64_text = _string(inp, "base64")
    kind = _one_of(inp, "kind", KIND_KEY)
    return {"tokens": sorted(decode_selection(base64_text)[KIND_KEY[kind]])}


def op_selection_combine(inp):
    op = _one_of(inp, "op", SET_OPS)
    a, b = _string(inp, "a"), _string(inp, "b")
    return describe(combine(op, decode_selection(a), decode_selection(b)))


def op_url_encode(inp):
    return {"encoded": urllib.parse.quote(_string(inp, "text"), safe="")}


def op_url_decode(inp):
    return {"text": url_decode(_string(inp, "encoded"))}


def op_template_render(inp):
    template = _string(inp, "template")
    values = _object(inp).get("values")
    if not isinstance(values, dict) or not all(v is None or isinstance(v, str) for v in values.values()):
        raise CodedError("badInput")
    return render_template(template, values)


# shield.evaluate, auth.tokens and auth.policy are not implemented here: they answer `unsupported`.
OPERATIONS = {
    "selection.decode": op_selection_decode,
    "selection.encode": op_selection_encode,
    "selection.equal": op_selection_equal,
    "selection.order": op_selection_order,
    "selection.combine": op_selection_combine,
    "url.encode": op_url_encode,
    "url.decode": op_url_decode,
    "template.render": op_template_render,
}


def respond(line):
    """One request line -> one response dict. Never raises."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):
        return {"id": None, "error": "protocol"}
    if not isinstance(request, dict):
        return {"id": None, "error": "protocol"}
    request_id = request.get("id")
    op = request.get("op")
    if not isinstance(op, str):
        return {"id": request_id, "error": "protocol"}
    perform = OPERATIONS.get(op)
    if perform is None:
        return {"id": request_id, "unsupported": True}
    try:
        return {"id": request_id, "output": perform(request.get("input"))}
    except CodedError as error:
        return {"id": request_id, "error": error.code}
    except Exception:  # noqa: BLE001 - a bug here must not end the session
        # Not a code of the vector format: the runner records a failure, which is what it is.
        traceback.print_exc(file=sys.stderr)
        return {"id": request_id, "error": "internal"}


def main():
    stdin = sys.stdin.buffer
    stdout = sys.stdout
    while True:
        line = stdin.readline()
        if not line:
            break
        try:
            text = json.dumps(respond(line.decode("utf-8")), allow_nan=False, separators=(",", ":"))
        except Exception:  # noqa: BLE001 - undecodable line, or an id json.dumps cannot write
            text = json.dumps({"id": None, "error": "protocol"})
        try:
            stdout.write(text + "\n")
            stdout.flush()
        except BrokenPipeError:
            break  # the runner went away
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
