"""The independent oracle: every expected result of the suites is computed here, from the text of SPEC.md
(§1–§4) and the reference decisions documented in the Swift doc comments and Guides (those are marked
`ASSUMPTION` below, and the cases that depend on them carry the tag `assumption`).

Nothing here calls or reads the Swift reference. Where it disagrees with the reference, one of the two is wrong,
and SPEC.md decides which.
"""

from __future__ import annotations

import base64
import codecs
import re

from . import strictjson

MAX_BASE64 = 1 << 20  # SPEC §1: over 1 MiB of base64 is `tooLarge`
MAX_TOKEN_BYTES = 1024  # SPEC §1
SHIELD_LIMIT = 50  # SPEC §2 (Apple doc, ShieldSettings)

TOKEN_KEYS = ("applicationTokens", "categoryTokens", "webDomainTokens")
UNTOKENIZED_KEYS = (
    "untokenizedApplicationIdentifiers",
    "untokenizedCategoryIdentifiers",
    "untokenizedWebDomainIdentifiers",
)
KIND_KEY = {"application": "applicationTokens", "category": "categoryTokens", "webDomain": "webDomainTokens"}


class Coded(Exception):
    """An error with a code of the vector format."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


# ---------------------------------------------------------------------------------------------------------------
# Base64 (RFC 4648 §4 alphabet; §3.5 canonical encoding: zero pad bits, exact padding; no whitespace)

_B64_TEXT = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def b64_strict(text: str) -> bytes | None:
    """The bytes of canonical standard padded base64 `text`, else None."""
    if not _B64_TEXT.fullmatch(text) or len(text) % 4 != 0:
        return None
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    # Canonical iff re-encoding gives the text back (this rejects non-zero pad bits and odd padding).
    return raw if base64.b64encode(raw).decode("ascii") == text else None


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# ---------------------------------------------------------------------------------------------------------------
# Selections (SPEC §1)


class Selection:
    """Sets of token `data` strings per kind, includeEntireCategory, untokenized identifier sets."""

    def __init__(self, apps=(), cats=(), webs=(), iec=False, ua=(), uc=(), uw=()):
        self.tokens = {
            "applicationTokens": frozenset(apps),
            "categoryTokens": frozenset(cats),
            "webDomainTokens": frozenset(webs),
        }
        self.iec = bool(iec)
        self.untokenized = {
            "untokenizedApplicationIdentifiers": frozenset(ua),
            "untokenizedCategoryIdentifiers": frozenset(uc),
            "untokenizedWebDomainIdentifiers": frozenset(uw),
        }

    def canonical_json(self) -> str:
        """Keys by code point, no whitespace, `/` as `\\/`, token arrays by `data` (ASCII), untokenized sorted."""
        members = {}
        for key in TOKEN_KEYS:
            members[key] = "[" + ",".join('{"data":' + json_string(d) + "}" for d in sorted(self.tokens[key])) + "]"
        members["includeEntireCategory"] = "true" if self.iec else "false"
        for key in UNTOKENIZED_KEYS:
            members[key] = "[" + ",".join(json_string(s) for s in sorted(self.untokenized[key])) + "]"
        return "{" + ",".join(json_string(k) + ":" + members[k] for k in sorted(members)) + "}"

    def canonical(self) -> str:
        return b64(self.canonical_json().encode("utf-8"))

    def output(self) -> dict:
        """The output of `selection.decode` / `selection.combine` (SPEC §5)."""
        return {
            "applications": len(self.tokens["applicationTokens"]),
            "categories": len(self.tokens["categoryTokens"]),
            "webDomains": len(self.tokens["webDomainTokens"]),
            "includeEntireCategory": self.iec,
            "canonical": self.canonical(),
        }


def json_string(s: str) -> str:
    """A JSON string as the canonical encoding writes it: `"` `\\` `/` escaped, short escapes for
    \\b \\f \\n \\r \\t, other controls as \\u00xx (lower-case hex: ASSUMPTION, SPEC is silent), the rest raw UTF-8."""
    out = ['"']
    short = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    for ch in s:
        if ch in short:
            out.append(short[ch])
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def is_array(value) -> bool:
    return isinstance(value, list) and not isinstance(value, strictjson.JObject)


def decode_selection(text: str) -> Selection:
    """SPEC §1 decoding. Raises Coded(empty|tooLarge|base64|json|schema|token); precedence in that order."""
    raw_text = text.encode("utf-8")
    if len(raw_text) == 0:
        raise Coded("empty")
    if len(raw_text) > MAX_BASE64:
        raise Coded("tooLarge")
    data = b64_strict(text)
    if data is None:
        raise Coded("base64")
    return selection_from_json_bytes(data)


def selection_from_json_bytes(data: bytes) -> Selection:
    """SPEC §1's `json`, `schema` and `token` rules over JSON bytes (the `json` format of §1.1 is exactly this)."""
    try:
        doc, repeated_key = strictjson.parse(data)
    except strictjson.JSONError:
        raise Coded("json")
    return selection_from_json(doc, repeated_key)


def selection_from_json(doc, repeated_key: bool) -> Selection:
    """SPEC §1's `schema` and `token` rules over a parsed value; `repeated_key`: a key repeats in some object
    of it (SPEC §1.3 reads each selection of a document this way, on its own)."""
    # schema: the shape of the document (beats every token problem, wherever each is)
    if not isinstance(doc, strictjson.JObject) or repeated_key:
        raise Coded("schema")
    for key in TOKEN_KEYS:
        if not is_array(doc.get(key)):
            raise Coded("schema")
    keys = doc.keys()
    if "includeEntireCategory" in keys and not isinstance(doc.get("includeEntireCategory"), bool):
        raise Coded("schema")
    for key in UNTOKENIZED_KEYS:
        if key in keys:
            value = doc.get(key)
            if not is_array(value) or not all(isinstance(s, str) for s in value):
                raise Coded("schema")

    # token: each element an object with a string `data` holding canonical base64 of 1…1024 bytes
    sets = {}
    for key in TOKEN_KEYS:
        found = []
        for element in doc.get(key):
            if not isinstance(element, strictjson.JObject):
                raise Coded("token")
            d = element.get("data")
            if "data" not in element.keys() or not isinstance(d, str):
                raise Coded("token")
            raw = b64_strict(d)
            if raw is None or not 1 <= len(raw) <= MAX_TOKEN_BYTES:
                raise Coded("token")
            found.append(d)
        sets[key] = found
    return Selection(
        apps=sets["applicationTokens"],
        cats=sets["categoryTokens"],
        webs=sets["webDomainTokens"],
        iec=doc.get("includeEntireCategory", False),  # missing -> false
        ua=doc.get(UNTOKENIZED_KEYS[0], []),  # missing -> empty (ASSUMPTION, SPEC §1)
        uc=doc.get(UNTOKENIZED_KEYS[1], []),
        uw=doc.get(UNTOKENIZED_KEYS[2], []),
    )


def op_selection_decode(inp):
    return decode_selection(inp["base64"]).output()


def op_selection_equal(inp):
    a = decode_selection(inp["a"])
    b = decode_selection(inp["b"])
    return {"equal": a.canonical_json() == b.canonical_json()}


def op_selection_order(inp):
    sel = decode_selection(inp["base64"])
    return {"tokens": sorted(sel.tokens[KIND_KEY[inp["kind"]]])}  # ASCII order of the data strings


def combine(a: Selection, b: Selection, op: str) -> Selection:
    fn = {
        "union": lambda x, y: x | y,
        "intersection": lambda x, y: x & y,
        "difference": lambda x, y: x - y,
        "symmetricDifference": lambda x, y: x ^ y,
    }[op]
    iec = (a.iec or not a.tokens["categoryTokens"]) and (b.iec or not b.tokens["categoryTokens"])
    return Selection(
        apps=fn(a.tokens["applicationTokens"], b.tokens["applicationTokens"]),
        cats=fn(a.tokens["categoryTokens"], b.tokens["categoryTokens"]),
        webs=fn(a.tokens["webDomainTokens"], b.tokens["webDomainTokens"]),
        iec=iec,
    )


def op_selection_combine(inp):
    a = decode_selection(inp["a"])
    b = decode_selection(inp["b"])
    return combine(a, b, inp["op"]).output()


# ---------------------------------------------------------------------------------------------------------------
# Shields (SPEC §2)


def _ids(value):
    return set(value or [])


def _policy_sets(policy):
    """(category set, except set) of a wire policy; a `none`/absent policy has neither."""
    if policy is None or policy.get("policy") == "none":
        return set(), set()
    exc = _ids(policy.get("except"))  # absent/null except = [] (ASSUMPTION: iOS default argument)
    if policy["policy"] == "all":
        return set(), exc
    return _ids(policy["categories"]), exc


def _policy_shields(policy, token, category) -> bool:
    if policy is None or policy["policy"] == "none":
        return False
    exc = _ids(policy.get("except"))
    if policy["policy"] == "all":
        return token not in exc
    return category in _ids(policy["categories"]) and token not in exc


def op_shield_evaluate(inp):
    stores = inp["stores"]
    act = inp["activity"]
    # Limits first, for every store and every limited set, whatever the activity (ASSUMPTION, SPEC §2).
    for store in stores:
        for key in ("applications", "webDomains"):
            if len(_ids(store.get(key))) > SHIELD_LIMIT:
                raise Coded("limitExceeded")
        for key in ("applicationCategories", "webDomainCategories"):
            cats, exc = _policy_sets(store.get(key))
            if len(cats) > SHIELD_LIMIT or len(exc) > SHIELD_LIMIT:
                raise Coded("limitExceeded")
    if act["kind"] == "application":
        listed_key, policy_key, token_reason, cat_reason = "applications", "applicationCategories", "application", "applicationCategory"
    else:
        listed_key, policy_key, token_reason, cat_reason = "webDomains", "webDomainCategories", "webDomain", "webDomainCategory"
    by_category = any(_policy_shields(s.get(policy_key), act["token"], act["category"]) for s in stores)
    by_token = any(act["token"] in _ids(s.get(listed_key)) for s in stores)
    if by_category:  # category over application, across stores too
        return {"verdict": "shielded", "reason": cat_reason, "category": act["category"]}
    if by_token:  # `except` never un-lists an explicitly listed token (ASSUMPTION, SPEC §2)
        return {"verdict": "shielded", "reason": token_reason}
    return {"verdict": "allowed"}


# ---------------------------------------------------------------------------------------------------------------
# Authorization (SPEC §3)


def op_auth_tokens(inp):
    running = None  # number of the running grant
    started = 0
    minted = {}  # name -> grant number of its latest token
    for ev in inp["events"]:
        if ev["kind"] == "authorize":
            if running is None:
                started += 1
                running = started
        elif ev["kind"] == "revoke":
            running = None
        elif ev["kind"] == "pick":
            if running is not None:
                minted[ev["name"]] = running
    return {"valid": {n: running is not None and minted.get(n) == running for n in inp["query"]}}


def op_auth_policy(inp):
    approved = True
    shields = True
    actions = []
    for obs in inp["observations"]:
        if obs == "notDetermined":
            continue
        if obs == "denied":
            if approved:
                approved = False
                if shields:
                    shields = False
                    actions += ["clearShields", "notifyRevoked"]
        elif obs in ("approved", "approvedWithDataAccess"):
            if not approved:
                approved = True
                actions.append("requirePick")
        elif obs == "pick":
            if approved:
                shields = True
    return {"actions": actions, "shieldsActive": shields}


# ---------------------------------------------------------------------------------------------------------------
# URL components (SPEC §4, RFC 3986)

UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# ASSUMPTION (reference decision, Guides/URLComponentEncoding.md): besides escapes, only characters RFC 3986
# allows raw in a query component are accepted: unreserved, sub-delims, ":" "@" "/" "?".
RAW_OK = UNRESERVED | frozenset(b"!$&'()*+,;=:@/?")
HEX = "0123456789abcdefABCDEF"


def op_url_encode(inp):
    return {"encoded": "".join(chr(b) if b in UNRESERVED else "%%%02X" % b for b in inp["text"].encode("utf-8"))}


def op_url_decode(inp):
    """Strict decoding. When both error kinds occur, the one met first reading left to right wins
    (ASSUMPTION: SPEC names the two codes, not their precedence; a UTF-8 error counts as met at the byte that
    makes the sequence impossible)."""
    text = inp["encoded"]
    raw = text.encode("utf-8")
    out = bytearray()
    syntax_error = False
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x25:  # %
            pair = raw[i + 1 : i + 3]
            if len(pair) == 2 and all(chr(h) in HEX for h in pair):
                out.append(int(pair.decode("ascii"), 16))
                i += 3
                continue
            syntax_error = True
            break
        if c not in RAW_OK:
            syntax_error = True
            break
        out.append(c)
        i += 1
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        result = decoder.decode(bytes(out), final=not syntax_error)
    except UnicodeDecodeError:
        raise Coded("invalidUTF8")
    if syntax_error:
        raise Coded("invalidPercentEncoding")
    return {"text": result}


# ---------------------------------------------------------------------------------------------------------------
# Shield-text templates (SPEC §4, Guides/ShieldTextTemplates.md)

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.\-]+)(?:\|([^{}]*))?\}")


def op_template_render(inp):
    template, values = inp["template"], inp["values"]
    out = []
    missing = []
    i = 0
    while i < len(template):
        m = PLACEHOLDER.match(template, i) if template[i] == "{" else None
        if m is None:
            out.append(template[i])  # everything that is not a placeholder is literal
            i += 1
            continue
        key, fallback = m.group(1), m.group(2)
        value = values.get(key)
        if value:  # a string with at least one character
            out.append(value)  # copied, never scanned again
        else:
            if key not in missing:
                missing.append(key)
            out.append(fallback or "")
        i = m.end()
    return {"text": "".join(out), "missing": missing}


OPERATIONS = {
    "selection.decode": op_selection_decode,
    "selection.equal": op_selection_equal,
    "selection.order": op_selection_order,
    "selection.combine": op_selection_combine,
    "shield.evaluate": op_shield_evaluate,
    "auth.tokens": op_auth_tokens,
    "auth.policy": op_auth_policy,
    "url.encode": op_url_encode,
    "url.decode": op_url_decode,
    "template.render": op_template_render,
}


def expect(op: str, inp) -> dict:
    """The `expect` member for a well-typed input: {"output": …} or {"error": CODE}."""
    try:
        return {"output": OPERATIONS[op](inp)}
    except Coded as exc:
        return {"error": exc.code}


# Storage formats (SPEC §1.1–§1.3, §5.2): selection.decode's `format` member and selection.encode live in
# formats.py, which builds on everything above and puts its two operations into OPERATIONS when it loads.
from . import formats  # noqa: E402,F401

# DeviceActivity (SPEC §8, §5.2): activity.schedule and activity.monitor live in activity.py, which puts them into
# OPERATIONS when it loads.
from . import activity  # noqa: E402,F401

# ManagedSettings beyond shields (SPEC §9, §5.2): settings.evaluate lives in settings.py, which puts it into
# OPERATIONS when it loads.
from . import settings  # noqa: E402,F401
