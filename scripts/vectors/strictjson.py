"""A strict RFC 8259 parser for the vector oracle, written from the grammar (not from the Swift reference).

Why not `json.loads`: it accepts NaN/Infinity, lone surrogate escapes and repeated keys, and it cannot report
nesting depth. The oracle needs all of these decided the way SPEC §1 decides them.

Values come back as:
    dict-like objects -> JObject (a list of (key, value) pairs, order kept, repeats kept)
    arrays            -> list
    strings           -> str
    numbers           -> JNumber (the literal text; the selection schema never needs its value)
    true/false/null   -> True/False/None
"""

from __future__ import annotations

import re

MAX_DEPTH = 32  # SPEC §1: nesting depth over 32 is a `json` error; the top-level container is depth 1.

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WS = " \t\n\r"


class JSONError(Exception):
    """The text is not one well-formed JSON value (RFC 8259), or nests deeper than MAX_DEPTH."""


class JObject(list):
    """An object as its members in written order; repeated keys are kept so the schema can reject them."""

    def get(self, key, default=None):
        for k, v in self:
            if k == key:
                return v
        return default

    def keys(self):
        return [k for k, _ in self]


class JNumber:
    """A number, kept as its literal text (deliberately not a `str` subclass, so it never passes as a string)."""

    def __init__(self, text: str):
        self.text = text


class _Parser:
    def __init__(self, text: str):
        self.s = text
        self.i = 0
        self.depth = 0
        self.repeated_key = False

    def ws(self):
        s, i = self.s, self.i
        while i < len(s) and s[i] in _WS:
            i += 1
        self.i = i

    def peek(self):
        if self.i >= len(self.s):
            raise JSONError("unexpected end")
        return self.s[self.i]

    def value(self):
        self.ws()
        c = self.peek()
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.s.startswith(word, self.i):
                self.i += len(word)
                return val
        m = _NUMBER.match(self.s, self.i)
        if m and m.end() > self.i:
            self.i = m.end()
            return JNumber(m.group(0))
        raise JSONError(f"unexpected character at {self.i}")

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise JSONError("too deep")

    def obj(self):
        self.enter()
        self.i += 1
        out = JObject()
        seen = set()
        self.ws()
        if self.peek() == "}":
            self.i += 1
            self.depth -= 1
            return out
        while True:
            self.ws()
            if self.peek() != '"':
                raise JSONError("object key is not a string")
            key = self.string()
            if key in seen:
                self.repeated_key = True
            seen.add(key)
            self.ws()
            if self.peek() != ":":
                raise JSONError("missing ':'")
            self.i += 1
            out.append((key, self.value()))
            self.ws()
            c = self.peek()
            self.i += 1
            if c == ",":
                continue
            if c == "}":
                break
            raise JSONError("expected ',' or '}'")
        self.depth -= 1
        return out

    def arr(self):
        self.enter()
        self.i += 1
        out = []
        self.ws()
        if self.peek() == "]":
            self.i += 1
            self.depth -= 1
            return out
        while True:
            out.append(self.value())
            self.ws()
            c = self.peek()
            self.i += 1
            if c == ",":
                continue
            if c == "]":
                break
            raise JSONError("expected ',' or ']'")
        self.depth -= 1
        return out

    def hex4(self):
        h = self.s[self.i : self.i + 4]
        if len(h) != 4 or any(ch not in "0123456789abcdefABCDEF" for ch in h):
            raise JSONError("bad \\u escape")
        self.i += 4
        return int(h, 16)

    def string(self):
        self.i += 1
        out = []
        s = self.s
        simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
        while True:
            if self.i >= len(s):
                raise JSONError("unterminated string")
            c = s[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if ord(c) < 0x20:
                raise JSONError("raw control character in a string")
            if c != "\\":
                out.append(c)
                self.i += 1
                continue
            self.i += 1
            if self.i >= len(s):
                raise JSONError("unterminated escape")
            e = s[self.i]
            self.i += 1
            if e in simple:
                out.append(simple[e])
                continue
            if e != "u":
                raise JSONError("unknown escape")
            u = self.hex4()
            if 0xD800 <= u <= 0xDBFF:
                # A high surrogate must be followed by an escaped low surrogate: together one scalar.
                if s[self.i : self.i + 2] != "\\u":
                    raise JSONError("lone high surrogate")
                self.i += 2
                lo = self.hex4()
                if not 0xDC00 <= lo <= 0xDFFF:
                    raise JSONError("high surrogate without low surrogate")
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
            elif 0xDC00 <= u <= 0xDFFF:
                raise JSONError("lone low surrogate")
            out.append(chr(u))


def parse(data: bytes):
    """Parses UTF-8 JSON bytes. Returns (value, repeated_key). Raises JSONError.

    Invalid UTF-8 anywhere is an error (outside strings any non-ASCII byte is an error anyway). A byte order mark
    is not JSON whitespace, so it is an error (RFC 8259 §8.1 lets a parser ignore it; SPEC/reference reject it).
    """
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise JSONError("not UTF-8") from exc
    p = _Parser(text)
    p.ws()
    if p.i == len(text):
        raise JSONError("empty document")
    value = p.value()
    p.ws()
    if p.i != len(text):
        raise JSONError("trailing data")
    return value, p.repeated_key
