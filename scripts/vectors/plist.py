"""Property lists for the oracle, written from SPEC §1.2 (not from Foundation, CoreFoundation or the Swift reader).

Readers (strict, every rule of §1.2; a broken rule raises PlistError with the byte offset where it was met):
    read_binary(data)  -> value      `bplist00`
    read_xml(data)     -> value      the XML subset
Values:
    dictionary -> PDict (a list of (key, value) pairs in stored order; repeated keys kept, so the schema can
                  reject them, and the depth-first walk of SPEC §1.1 is simply the list order)
    array      -> list;  string -> str;  data -> PData (bytes);  true/false -> bool;  integer -> PInt (int);
    real -> PReal (float);  date -> PDate;  UID -> PUid
Writers (for building inputs; any layout valid by §1.2):
    write_binary(value) -> bytes     the layout §1.1 gives for `binary-plist` (keys as given, strings/data uniqued)
    write_xml(value)    -> bytes     the layout §1.1 gives for `xml-plist`
    assemble(...)                    a bplist from raw object bytes, for hostile inputs (bad trailers, refs, …)

`plistlib` is never used here: it is only the second opinion of the self-check (formats.self_check).
"""

from __future__ import annotations

import base64
import re
import struct

from .oracle import b64_strict
from .strictjson import JObject

MAX_DEPTH = 32  # §1.2: the top object (binary) / the value inside <plist> (XML) is depth 1
MAX_VALUES = 1 << 20  # §1.2: at most 1 048 576 values visited
MAX_OBJECTS = 1 << 20  # §1.2: object count at most 1 048 576


class PlistError(Exception):
    def __init__(self, why: str, offset: int = 0):
        super().__init__(f"{why} at byte {offset}")
        self.offset = offset


class PDict(JObject):
    """A dictionary as its members in stored order, repeated keys kept (the JSON reader's shape)."""


class PData(bytes):
    pass


class PInt(int):
    pass


class PReal(float):
    pass


class PDate(float):
    pass


class PUid(int):
    pass


def _is_container(v):
    return isinstance(v, list)


# ---------------------------------------------------------------------------------------------------------------
# Binary reader


def read_binary(data: bytes):
    n = len(data)
    if n < 40:
        raise PlistError("shorter than 40 bytes", 0)
    if data[:8] != b"bplist00":
        raise PlistError("no bplist00 header", 0)
    t = n - 32
    offset_size, ref_size = data[t + 6], data[t + 7]
    count, top, table = struct.unpack(">QQQ", data[t + 8 : t + 32])
    if offset_size not in (1, 2, 4, 8):
        raise PlistError("offset size not 1, 2, 4 or 8", t + 6)
    if ref_size not in (1, 2, 4, 8):
        raise PlistError("reference size not 1, 2, 4 or 8", t + 7)
    if not 1 <= count <= MAX_OBJECTS:
        raise PlistError("object count not in 1 … 1048576", t + 8)
    if top >= count:
        raise PlistError("top object not below the count", t + 16)
    # SPEC §1.2: the table ends where the trailer starts, and its own offset fits in the offset size.
    if table < 8 or table + count * offset_size != t:
        raise PlistError("offset table does not end where the trailer starts", t + 24)
    if table >= 1 << (8 * offset_size):
        raise PlistError("the offset table's offset does not fit in the offset size", t + 24)
    offsets = []
    for i in range(count):
        p = table + i * offset_size
        off = int.from_bytes(data[p : p + offset_size], "big")
        if not 8 <= off < table:
            raise PlistError("object offset outside the objects", p)
        offsets.append(off)

    def uint(p, size, what):
        if p + size > table:
            raise PlistError(what + " runs into the offset table", p)
        return int.from_bytes(data[p : p + size], "big")

    def length(p, nibble):
        """(length, position after it) for a marker whose low nibble is `nibble`, the marker at p - 1."""
        if nibble != 0xF:
            return nibble, p
        if p >= table:
            raise PlistError("length marker runs into the offset table", p)
        m = data[p]
        if m >> 4 != 0x1 or (m & 0xF) > 3:
            raise PlistError("length is not an integer object", p)
        size = 1 << (m & 0xF)
        value = uint(p + 1, size, "length")
        if size == 8 and value >> 63:
            raise PlistError("negative length", p)
        return value, p + 1 + size

    def refs(p, k):
        if p + k * ref_size > table:
            raise PlistError("references run into the offset table", p)
        out = []
        for j in range(k):
            r = int.from_bytes(data[p + j * ref_size : p + (j + 1) * ref_size], "big")
            if r >= count:
                raise PlistError("reference not below the object count", p + j * ref_size)
            out.append(r)
        return out

    # Each object is parsed once (its header); the tree is then built by walking references from the top, one
    # visit per place, with the stack for cycles, the depth limit and the value budget.
    parsed = {}

    def parse(i):
        if i in parsed:
            return parsed[i]
        p = offsets[i]
        m = data[p]
        hi, lo = m >> 4, m & 0xF
        body = p + 1
        if m in (0x08, 0x09):
            res = ("scalar", m == 0x09)
        elif hi == 0x1:
            if lo > 4:
                raise PlistError("bad integer marker", p)
            size = 1 << lo
            raw = uint(body, size, "integer")
            if size == 8 and raw >> 63:
                raw -= 1 << 64
            if size == 16:
                if raw >> 64:
                    raise PlistError("16-byte integer with non-zero high bytes", p)
            res = ("scalar", PInt(raw))
        elif hi == 0x2:
            if lo not in (2, 3):
                raise PlistError("bad real marker", p)
            size = 1 << lo
            uint(body, size, "real")
            res = ("scalar", PReal(struct.unpack(">f" if size == 4 else ">d", data[body : body + size])[0]))
        elif m == 0x33:
            uint(body, 8, "date")
            res = ("scalar", PDate(struct.unpack(">d", data[body : body + 8])[0]))
        elif hi in (0x4, 0x5, 0x6):
            k, q = length(body, lo)
            size = k * 2 if hi == 0x6 else k
            if q + size > table:
                raise PlistError("object runs into the offset table", p)
            raw = data[q : q + size]
            if hi == 0x4:
                res = ("scalar", PData(raw))
            elif hi == 0x5:
                if any(b >= 0x80 for b in raw):
                    raise PlistError("ASCII string with a byte above 0x7F", p)
                res = ("string", raw.decode("ascii"))
            else:
                try:
                    res = ("string", raw.decode("utf-16-be", errors="strict"))
                except UnicodeDecodeError:
                    raise PlistError("UTF-16 string with a lone surrogate", p)
        elif hi == 0x8:
            value = uint(body, lo + 1, "UID")
            if value >= 1 << 64:  # SPEC §1.2: a UID is a 64-bit number; longer forms need zero high bytes
                raise PlistError("a UID that does not fit in 64 bits", p)
            res = ("scalar", PUid(value))
        elif hi == 0xA:
            k, q = length(body, lo)
            res = ("array", refs(q, k))
        elif hi == 0xD:
            k, q = length(body, lo)
            res = ("dict", refs(q, k), refs(q + k * ref_size, k))
        else:
            raise PlistError("marker %#04x is not allowed" % m, p)
        parsed[i] = res
        return res

    # Subtree sizes (memoized, cycles refused) so that the value budget is checked before anything is built.
    sizes = {}

    def size_of(i, stack, depth):
        res = parse(i)
        if res[0] in ("scalar", "string"):
            return 1
        if i in stack:
            raise PlistError("a container contains itself", offsets[i])
        if depth > MAX_DEPTH:
            raise PlistError("nesting deeper than 32", offsets[i])
        if i in sizes and sizes[i][1] >= depth:
            return sizes[i][0]  # passed at a place at least this deep: it passes here too
        stack.add(i)
        total = 1
        if res[0] == "array":
            children = res[1]
        else:
            for kref in res[1]:
                if parse(kref)[0] != "string":
                    raise PlistError("dictionary key is not a string", offsets[kref])
            children = res[2]  # keys are checked, not counted as values (as in XML, where a key is no value)
        for c in children:
            total += size_of(c, stack, depth + 1)
            if total > MAX_VALUES:
                raise PlistError("more than 1048576 values", offsets[i])
        stack.discard(i)
        # Memo keyed by the deepest depth seen: a subtree that passed at depth d passes at any depth <= d.
        prev = sizes.get(i)
        sizes[i] = (total, max(depth, prev[1]) if prev else depth)
        return total

    size_of(top, set(), 1)

    def build(i):
        res = parse(i)
        if res[0] in ("scalar", "string"):
            return res[1]
        if res[0] == "array":
            return [build(c) for c in res[1]]
        return PDict((parse(k)[1], build(v)) for k, v in zip(res[1], res[2]))

    return build(top)


# ---------------------------------------------------------------------------------------------------------------
# XML reader

_XML_CHAR_OK = re.compile("[\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]*")
_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
_REAL = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|nan|inf|\+inf|-inf")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_ATTR = re.compile(r"[ \t\n\r]+[A-Za-z_:][A-Za-z0-9._:-]*[ \t\n\r]*=[ \t\n\r]*(?:\"[^\"<&]*\"|'[^'<&]*')")


def _date_fields_ok(raw: str) -> bool:
    """SPEC §1.2: a real calendar date and time (proleptic Gregorian, years 0000-9999, no leap second)."""
    year, month, day = int(raw[0:4]), int(raw[5:7]), int(raw[8:10])
    hour, minute, second = int(raw[11:13]), int(raw[14:16]), int(raw[17:19])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1 <= month <= 12 and 1 <= day <= days[month - 1] and hour <= 23 and minute <= 59 and second <= 59
_WS = " \t\n\r"
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _scalar_ok(c: int) -> bool:
    return c in (0x9, 0xA, 0xD) or 0x20 <= c <= 0xD7FF or 0xE000 <= c <= 0xFFFD or 0x10000 <= c <= 0x10FFFF


def read_xml(data: bytes):
    if data.startswith(b"\xef\xbb\xbf"):
        raise PlistError("byte order mark", 0)
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise PlistError("not UTF-8", exc.start)
    m = _XML_CHAR_OK.match(text)
    if m.end() != len(text):
        raise PlistError("character XML does not allow", m.end())
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # XML 1.0 §2.11 (offsets below are after this)
    return _XMLReader(text).document()


class _XMLReader:
    def __init__(self, s):
        self.s = s
        self.i = 0
        self.values = 0

    def fail(self, why):
        raise PlistError(why, self.i)

    def ws(self):
        s, i = self.s, self.i
        while i < len(s) and s[i] in _WS:
            i += 1
        self.i = i

    def take(self, lit):
        if self.s.startswith(lit, self.i):
            self.i += len(lit)
            return True
        return False

    def document(self):
        s = self.s
        # SPEC §1.2: the declaration is `<?xml` and whitespace (XML 1.0 §2.8); `<?xml-stylesheet` and the like
        # are processing instructions, which the subset refuses.
        if s.startswith("<?xml", 0) and s[5:6] in (" ", "\t", "\n", "\r"):
            end = s.find("?>", 5)
            if end < 0:
                self.fail("unterminated XML declaration")
            self.i = end + 2
        self.ws()
        if self.take("<!DOCTYPE"):
            end = s.find(">", self.i)
            if end < 0:
                self.fail("unterminated DOCTYPE")
            if "[" in s[self.i : end]:
                self.fail("DOCTYPE with an internal subset")
            self.i = end + 1
            self.ws()
        if not self.take("<plist"):
            self.fail("no <plist> root")
        while True:
            m = _ATTR.match(s, self.i)
            if not m:
                break
            self.i = m.end()
        self.ws()
        if not self.take(">"):
            self.fail("bad <plist> tag")
        self.ws()
        value = self.value(1)
        self.ws()
        if not self.take("</plist>"):
            self.fail("no </plist> after the one value")
        self.ws()
        if self.i != len(s):
            self.fail("content after </plist>")
        return value

    def count(self):
        self.values += 1
        if self.values > MAX_VALUES:
            self.fail("more than 1048576 values")

    def value(self, depth):
        self.count()
        start = self.i
        for tag, empty in (("<dict/>", PDict()), ("<array/>", None), ("<string/>", ""), ("<data/>", PData(b"")),
                           ("<true/>", True), ("<false/>", False)):
            if self.take(tag):
                if tag in ("<dict/>", "<array/>") and depth > MAX_DEPTH:
                    self.i = start
                    self.fail("nesting deeper than 32")
                return [] if tag == "<array/>" else (PDict() if tag == "<dict/>" else empty)
        if self.take("<dict>"):
            if depth > MAX_DEPTH:
                self.i = start
                self.fail("nesting deeper than 32")
            out = PDict()
            while True:
                self.ws()
                if self.take("</dict>"):
                    return out
                if self.take("<key/>"):
                    key = ""
                elif self.take("<key>"):
                    key = self.text("</key>")
                else:
                    self.fail("expected <key> or </dict>")
                self.ws()
                out.append((key, self.value(depth + 1)))
        if self.take("<array>"):
            if depth > MAX_DEPTH:
                self.i = start
                self.fail("nesting deeper than 32")
            items = []
            while True:
                self.ws()
                if self.take("</array>"):
                    return items
                items.append(self.value(depth + 1))
        if self.take("<string>"):
            return self.text("</string>")
        if self.take("<data>"):
            raw = self.raw("</data>")
            compact = "".join(c for c in raw if c not in _WS)
            decoded = b64_strict(compact)
            if decoded is None:
                self.fail("data is not canonical base64")
            return PData(decoded)
        if self.take("<integer>"):
            raw = self.raw("</integer>")
            if not _INTEGER.fullmatch(raw) or not -(1 << 63) <= int(raw) < (1 << 63):
                self.fail("bad integer")
            return PInt(int(raw))
        if self.take("<real>"):
            raw = self.raw("</real>")
            if not _REAL.fullmatch(raw):
                self.fail("bad real")
            return PReal(float(raw))
        if self.take("<date>"):
            raw = self.raw("</date>")
            if not _DATE.fullmatch(raw) or not _date_fields_ok(raw):
                self.fail("bad date")
            return PDate(0.0)
        self.fail("expected a value")

    def raw(self, close):
        """Content with no markup and no references, up to `close`."""
        end = self.s.find("<", self.i)
        if end < 0:
            self.fail("unterminated element")
        content = self.s[self.i : end]
        if "&" in content:
            self.fail("reference where none is allowed")
        self.i = end
        if not self.take(close):
            self.fail("expected " + close)
        return content

    def text(self, close):
        out = []
        s = self.s
        while True:
            if self.i >= len(s):
                self.fail("unterminated text")
            c = s[self.i]
            if c == "<":
                if not self.take(close):
                    self.fail("markup inside text")
                return "".join(out)
            if c != "&":
                out.append(c)
                self.i += 1
                continue
            end = s.find(";", self.i)
            if end < 0:
                self.fail("unterminated reference")
            name = s[self.i + 1 : end]
            if name in _ENTITIES:
                out.append(_ENTITIES[name])
            elif re.fullmatch(r"#[0-9]+", name) or re.fullmatch(r"#x[0-9A-Fa-f]+", name):
                code = int(name[2:], 16) if name[1] == "x" else int(name[1:])
                if not _scalar_ok(code):
                    self.fail("character reference to a scalar XML does not allow")
                out.append(chr(code))
            else:
                self.fail("unknown entity reference")
            self.i = end + 1


# ---------------------------------------------------------------------------------------------------------------
# Binary writer


def marker(hi: int, n: int) -> bytes:
    """A marker with length n: in the low nibble when it fits, else 0xF and an integer object."""
    if n < 15:
        return bytes([(hi << 4) | n])
    return bytes([(hi << 4) | 0xF]) + int_obj(n)


def int_obj(v: int) -> bytes:
    if 0 <= v < 1 << 8:
        return b"\x10" + v.to_bytes(1, "big")
    if 0 <= v < 1 << 16:
        return b"\x11" + v.to_bytes(2, "big")
    if 0 <= v < 1 << 32:
        return b"\x12" + v.to_bytes(4, "big")
    return b"\x13" + v.to_bytes(8, "big", signed=True)


def string_obj(s: str) -> bytes:
    if all(ord(c) < 0x80 for c in s):
        return marker(0x5, len(s)) + s.encode("ascii")
    raw = s.encode("utf-16-be")
    return marker(0x6, len(raw) // 2) + raw


def assemble(objects, top=0, *, ref_size=None, offset_size=None, count=None, table_offset=None, offsets=None,
             header=b"bplist00", unused=bytes(6), table_bytes=None):
    """A bplist from raw object bytes (references already encoded by the caller with `ref_size`). Every
    override is for hostile inputs; left alone, the result is valid by §1.2."""
    body = bytearray(header)
    real_offsets = []
    for o in objects:
        real_offsets.append(len(body))
        body += o
    offsets = real_offsets if offsets is None else offsets
    table_at = len(body)
    if offset_size is None:
        offset_size = next(k for k in (1, 2, 4, 8) if max(offsets + [table_at]) < 1 << (8 * k))
    if table_bytes is None:
        table_bytes = b"".join(o.to_bytes(offset_size, "big") for o in offsets)
    body += table_bytes
    ref_size = ref_size or 1
    body += unused + bytes([offset_size, ref_size])
    body += struct.pack(">QQQ", len(objects) if count is None else count, top,
                        table_at if table_offset is None else table_offset)
    return bytes(body)


def write_binary(value) -> bytes:
    """Objects in depth-first order (containers before their children), strings and data written once."""
    objs = []  # (kind, payload)
    unique = {}

    def add(v):
        if isinstance(v, (str, PData, bytes)) and not isinstance(v, PDict):
            key = ("s", v) if isinstance(v, str) else ("d", bytes(v))
            if key in unique:
                return unique[key]
            unique[key] = len(objs)
            objs.append(key)
            return unique[key]
        idx = len(objs)
        objs.append(None)
        if isinstance(v, PDict) or isinstance(v, dict):
            items = list(v.items()) if isinstance(v, dict) else list(v)
            krefs = [add(k) for k, _ in items]
            vrefs = [add(x) for _, x in items]
            objs[idx] = ("D", krefs, vrefs)
        elif isinstance(v, list):
            objs[idx] = ("A", [add(x) for x in v])
        elif isinstance(v, bool):
            objs[idx] = ("raw", b"\x09" if v else b"\x08")
        elif isinstance(v, int):
            objs[idx] = ("raw", int_obj(v))
        elif isinstance(v, float):
            objs[idx] = ("raw", b"\x23" + struct.pack(">d", v))
        else:
            raise TypeError(type(v))
        return idx

    add(value)
    ref_size = next(k for k in (1, 2, 4, 8) if len(objs) <= 1 << (8 * k))

    def r(i):
        return i.to_bytes(ref_size, "big")

    encoded = []
    for o in objs:
        if o[0] == "s":
            encoded.append(string_obj(o[1]))
        elif o[0] == "d":
            encoded.append(marker(0x4, len(o[1])) + o[1])
        elif o[0] == "D":
            encoded.append(marker(0xD, len(o[1])) + b"".join(map(r, o[1])) + b"".join(map(r, o[2])))
        elif o[0] == "A":
            encoded.append(marker(0xA, len(o[1])) + b"".join(map(r, o[1])))
        else:
            encoded.append(o[1])
    return assemble(encoded, 0, ref_size=ref_size)


# ---------------------------------------------------------------------------------------------------------------
# XML writer

XML_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            '<plist version="1.0">\n')


def xml_text(s: str) -> str:
    out = []
    for c in s:
        if c == "&":
            out.append("&amp;")
        elif c == "<":
            out.append("&lt;")
        elif c == ">":
            out.append("&gt;")
        elif c == "\r":
            out.append("&#13;")
        elif not _scalar_ok(ord(c)):
            raise ValueError(f"U+{ord(c):04X} cannot be written in XML")
        else:
            out.append(c)
    return "".join(out)


def write_xml(value) -> bytes:
    lines = []

    def emit(v, level, prefix=""):
        ind = "\t" * level
        if isinstance(v, (PDict, dict)):
            items = list(v.items()) if isinstance(v, dict) else list(v)
            if not items:
                lines.append(ind + "<dict/>")
                return
            lines.append(ind + "<dict>")
            for k, x in items:
                lines.append(ind + "\t<key>" + xml_text(k) + "</key>")
                emit(x, level + 1)
            lines.append(ind + "</dict>")
        elif isinstance(v, list):
            if not v:
                lines.append(ind + "<array/>")
                return
            lines.append(ind + "<array>")
            for x in v:
                emit(x, level + 1)
            lines.append(ind + "</array>")
        elif isinstance(v, str):
            lines.append(ind + ("<string>" + xml_text(v) + "</string>" if v else "<string/>"))
        elif isinstance(v, (PData, bytes)):
            lines.append(ind + "<data>")
            lines.append(ind + base64.b64encode(bytes(v)).decode("ascii"))
            lines.append(ind + "</data>")
        elif isinstance(v, bool):
            lines.append(ind + ("<true/>" if v else "<false/>"))
        elif isinstance(v, int):
            lines.append(ind + f"<integer>{int(v)}</integer>")
        elif isinstance(v, float):
            lines.append(ind + f"<real>{float(v)!r}</real>")
        else:
            raise TypeError(type(v))

    emit(value, 0)
    return (XML_HEAD + "\n".join(lines) + "\n</plist>\n").encode("utf-8")
