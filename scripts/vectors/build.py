"""Builders for vector inputs: synthetic tokens, selection JSON texts written the many ways a stored string can
look, a deterministic pseudo-random source, and the suite/case collector with its checks.

Synthetic only: device-shaped tokens are 128 bytes with the first 12 zero, like iOS's, but their bytes come from
SHA-256 of a label, never from a capture.
"""

from __future__ import annotations

import base64
import hashlib
import re

from . import oracle

# ---------------------------------------------------------------------------------------------------------------
# Deterministic bytes and shuffles (no `random`: its algorithms are not promised stable across Python versions)


def prng_bytes(label: str, n: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"{label}#{counter}".encode()).digest()
        counter += 1
    return bytes(out[:n])


def prng_ints(label: str):
    counter = 0
    while True:
        yield int.from_bytes(hashlib.sha256(f"{label}@{counter}".encode()).digest()[:8], "big")
        counter += 1


def shuffled(items, label: str):
    items = list(items)
    ints = prng_ints(label)
    for i in range(len(items) - 1, 0, -1):
        j = next(ints) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def choice(items, label: str, k: int):
    ints = prng_ints(label)
    return [items[next(ints) % len(items)] for _ in range(k)]


# ---------------------------------------------------------------------------------------------------------------
# Tokens

B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def dev_token(label: str, lead: str | None = None) -> str:
    """A device-shaped token's `data`: 128 bytes, the first 12 zero. `lead` forces character 16 of the base64
    (the first character after the 16 `A`s), which decides the token's place in ASCII order."""
    body = bytearray(prng_bytes("token:" + label, 116))
    if lead is not None:
        body[0] = (B64_ALPHABET.index(lead) << 2) | (body[0] & 0x03)
    return b64(bytes(12) + bytes(body))


def dev_tokens(label: str, n: int) -> list[str]:
    return [dev_token(f"{label}-{i}") for i in range(n)]


# ---------------------------------------------------------------------------------------------------------------
# Selection JSON texts


def jstr(s: str, slash: bool = True, escape_all: bool = False) -> str:
    """A JSON string literal. `slash`: write `/` as `\\/` (JSONEncoder). `escape_all`: every character as \\uXXXX."""
    if escape_all:
        return '"' + "".join("\\u%04x" % ord(c) if ord(c) < 0x10000 else c for c in s) + '"'
    text = oracle.json_string(s)
    return text if slash else text.replace("\\/", "/")


ALL_KEYS = (
    "applicationTokens",
    "categoryTokens",
    "webDomainTokens",
    "includeEntireCategory",
    "untokenizedApplicationIdentifiers",
    "untokenizedCategoryIdentifiers",
    "untokenizedWebDomainIdentifiers",
)


def sel_json(
    apps=(),
    cats=(),
    webs=(),
    iec=False,
    ua=(),
    uc=(),
    uw=(),
    *,
    order=None,
    shuffle: str | None = None,
    slash=True,
    pretty=False,
    omit=(),
    extra=(),
    raw=None,
) -> str:
    """A selection as JSON text, written as given (tokens in the given order, duplicates kept).

    order: key order (default: the order of ALL_KEYS, which is not code-point order); shuffle: a label to shuffle
    the key order with; omit: keys to leave out; extra: (key, raw JSON text) members to add; raw: {key: raw JSON
    text} to replace a member's value.
    """
    raw = dict(raw or {})

    def tokens(ts):
        return "[" + ("," if not pretty else ", ").join('{"data":' + jstr(t, slash) + "}" for t in ts) + "]"

    def strings(ss):
        return "[" + ",".join(jstr(s, slash) for s in ss) + "]"

    values = {
        "applicationTokens": tokens(apps),
        "categoryTokens": tokens(cats),
        "webDomainTokens": tokens(webs),
        "includeEntireCategory": "true" if iec else "false",
        "untokenizedApplicationIdentifiers": strings(ua),
        "untokenizedCategoryIdentifiers": strings(uc),
        "untokenizedWebDomainIdentifiers": strings(uw),
    }
    values.update(raw)
    keys = list(order or ALL_KEYS)
    if shuffle:
        keys = shuffled(keys, shuffle)
    members = [(jstr(k), values[k]) for k in keys if k not in omit]
    members += [(jstr(k), v) for k, v in extra]
    if pretty:
        return "{\n" + ",\n".join(f"  {k} : {v}" for k, v in members) + "\n}"
    return "{" + ",".join(f"{k}:{v}" for k, v in members) + "}"


def enc(text: str | bytes) -> str:
    """Standard padded base64 of the text's UTF-8 (or of raw bytes)."""
    return b64(text.encode("utf-8") if isinstance(text, str) else text)


def sel(*args, **kwargs) -> str:
    """A stored selection string: base64 of sel_json(...)."""
    return enc(sel_json(*args, **kwargs))


def canonical(apps=(), cats=(), webs=(), iec=False, ua=(), uc=(), uw=()) -> str:
    return oracle.Selection(apps, cats, webs, iec, ua, uc, uw).canonical()


# ---------------------------------------------------------------------------------------------------------------
# Suites and cases

_KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
KNOWN_TAGS = {f"field-bug-{n}" for n in range(1, 23)} | {
    "malformed",
    "hostile",
    "device-shaped",
    "unicode",
    "assumption",
    "precedence",
    "boundary",
    "bad-input",
    "set-semantics",
    "canonical",
    "stores",
    "limits",
    "roundtrip",
    "generated",
}


class SuiteBuilder:
    def __init__(self, name: str, op_default: str, description: str):
        self.name = name
        self.op_default = op_default
        self.description = description
        self.cases: list[dict] = []
        self._names: set[str] = set()

    def add(self, name, inp, tags=(), source="", *, op=None, error=None, hand=None):
        """Adds a case. The expectation comes from the oracle, except:
        error: a hand-set error code for inputs the oracle cannot type (badInput);
        hand: a hand-computed expectation ({"output": …} or {"error": …}) that the oracle must agree with
              (members of hand["output"] must equal the oracle's)."""
        op = op or self.op_default
        if not _KEBAB.fullmatch(name):
            raise ValueError(f"{self.name}: case name {name!r} is not kebab-case")
        if name in self._names:
            raise ValueError(f"{self.name}: duplicate case name {name!r}")
        unknown = set(tags) - KNOWN_TAGS
        if unknown:
            raise ValueError(f"{self.name}/{name}: unknown tags {sorted(unknown)}")
        if not source:
            raise ValueError(f"{self.name}/{name}: no source")
        self._names.add(name)
        if error is not None:
            exp = {"error": error}
        else:
            exp = oracle.expect(op, inp)
            if hand is not None:
                if "error" in hand:
                    ok = exp == hand
                else:
                    ok = "output" in exp and all(exp["output"].get(k) == v for k, v in hand["output"].items())
                if not ok:
                    raise AssertionError(f"{self.name}/{name}: hand-computed {hand} but the oracle says {exp}")
                exp = hand if "error" in hand else {"output": {k: exp["output"][k] for k in exp["output"]}}
        tag_list = sorted(set(tags))
        self.cases.append(
            {
                "id": f"{self.name}/{name}",
                "op": op,
                "input": inp,
                "expect": exp,
                "tags": tag_list,
                "source": source,
            }
        )
