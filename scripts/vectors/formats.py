"""Storage formats for the oracle (SPEC §1.1–§1.3, §5.2 "Formats on the wire", §5.3 encode judging).

    selection.decode with `format` (absent = base64-json, today's behaviour), selection.encode,
    the plist selection schema, json-document search, and the writers an encoder's answer is built with.

Written from SPEC.md only; `plistlib` appears only in self_check, as a second opinion.
"""

from __future__ import annotations

from . import oracle, plist, strictjson
from .oracle import Coded, MAX_TOKEN_BYTES, TOKEN_KEYS, UNTOKENIZED_KEYS, Selection, b64, b64_strict

MAX_STORED = 1 << 20  # SPEC §1.1: more than 1 MiB of stored bytes or text is tooLarge

FORMATS = ("base64-json", "json", "json-document", "binary-plist", "xml-plist", "base64-plist")
TEXT_FORMATS = ("base64-json", "base64-plist")  # carried in `base64`; the others in `data` (SPEC §5.2)


def member_for(fmt: str) -> str:
    return "base64" if fmt in TEXT_FORMATS else "data"


# ---------------------------------------------------------------------------------------------------------------
# The wire (SPEC §5.2): format first, then the payload member


def read_format(inp, *, encode=False) -> str:
    if "format" not in inp:
        if encode:
            raise Coded("badInput")  # a required member of selection.encode
        return "base64-json"
    fmt = inp["format"]
    if not isinstance(fmt, str) or fmt not in FORMATS or (encode and fmt == "json-document"):
        raise Coded("badInput")  # ASSUMPTION A16
    return fmt


def read_payload(inp, fmt):
    """The stored value: text (base64 formats) or bytes (the `data` member, canonical base64 or badInput)."""
    value = inp.get(member_for(fmt))
    if not isinstance(value, str):
        raise Coded("badInput")
    if fmt in TEXT_FORMATS:
        return value
    raw = b64_strict(value)
    if raw is None:
        raise Coded("badInput")  # the wire's carrier, never the format's decoding error (SPEC §5.2)
    return raw


# ---------------------------------------------------------------------------------------------------------------
# Decoding each format (SPEC §1.1)


def _common(size: int):
    if size == 0:
        raise Coded("empty")
    if size > MAX_STORED:
        raise Coded("tooLarge")


def read_plist(raw: bytes, binary: bool):
    try:
        return plist.read_binary(raw) if binary else plist.read_xml(raw)
    except plist.PlistError:
        raise Coded("plist")


def _has_repeat(v) -> bool:
    """A key repeated in any object or dictionary of a JSON or plist tree (a PDict is a JObject)."""
    if isinstance(v, strictjson.JObject):
        keys = v.keys()
        return len(set(keys)) != len(keys) or any(_has_repeat(x) for _, x in v)
    if isinstance(v, list):
        return any(_has_repeat(x) for x in v)
    return False


def _plist_array(v) -> bool:
    return type(v) is list


def selection_from_plist(doc) -> Selection:
    """§1.1's schema and token rules with plist types (schema over the whole tree before any token problem)."""
    if not isinstance(doc, plist.PDict) or _has_repeat(doc):
        raise Coded("schema")
    for key in TOKEN_KEYS:
        if not _plist_array(doc.get(key)):
            raise Coded("schema")
    keys = doc.keys()
    if "includeEntireCategory" in keys and type(doc.get("includeEntireCategory")) is not bool:
        raise Coded("schema")
    for key in UNTOKENIZED_KEYS:
        if key in keys:
            v = doc.get(key)
            if not _plist_array(v) or not all(type(s) is str for s in v):
                raise Coded("schema")
    sets = {}
    for key in TOKEN_KEYS:
        found = []
        for element in doc.get(key):
            if not isinstance(element, plist.PDict) or "data" not in element.keys():
                raise Coded("token")
            d = element.get("data")
            if not isinstance(d, plist.PData) or not 1 <= len(d) <= MAX_TOKEN_BYTES:
                raise Coded("token")
            found.append(b64(bytes(d)))
        sets[key] = found
    return Selection(sets["applicationTokens"], sets["categoryTokens"], sets["webDomainTokens"],
                     doc.get("includeEntireCategory", False), doc.get(UNTOKENIZED_KEYS[0], []),
                     doc.get(UNTOKENIZED_KEYS[1], []), doc.get(UNTOKENIZED_KEYS[2], []))


def pointer(tokens) -> str:
    """RFC 6901: `~` as `~0`, `/` as `~1`; the root is ""."""
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def decode_document(raw: bytes) -> dict:
    """SPEC §1.3. Document-level errors (empty, tooLarge, json, a key repeated outside the selections) raise;
    each selection answers its selection or its own error."""
    _common(len(raw))
    try:
        doc, _ = strictjson.parse(raw)  # depth counted from the document's root
    except strictjson.JSONError:
        raise Coded("json")
    found = []

    def walk(v, path):
        if isinstance(v, strictjson.JObject):
            keys = v.keys()
            if any(k in TOKEN_KEYS for k in keys):
                found.append((pointer(path), v))  # a selection: not searched inside (ASSUMPTION A15)
                return
            if len(set(keys)) != len(keys):
                raise Coded("schema")  # ASSUMPTION A15: the whole document's schema
            for k, x in v:
                walk(x, path + [k])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [str(i)])

    walk(doc, [])
    out = []
    for path, v in found:
        try:
            out.append({"path": path, **oracle.selection_from_json(v, _has_repeat(v)).output()})
        except Coded as exc:
            out.append({"path": path, "error": exc.code})
    return {"selections": out}


def decode_stored(fmt: str, value):
    """A Selection (or, for json-document, the output object) from a stored value of the format."""
    if fmt == "base64-json":
        return oracle.decode_selection(value)  # looked up at call time, so decoder mutants apply here too
    if fmt == "base64-plist":
        raw_text = value.encode("utf-8")
        _common(len(raw_text))
        raw = b64_strict(value)
        if raw is None:
            raise Coded("base64")
        return selection_from_plist(read_plist(raw, raw.startswith(b"bplist00")))
    _common(len(value))
    if fmt == "json":
        return oracle.selection_from_json_bytes(value)
    if fmt == "json-document":
        return decode_document(value)
    return selection_from_plist(read_plist(value, fmt == "binary-plist"))


def op_selection_decode(inp):
    if "format" not in inp:
        return oracle.decode_selection(inp["base64"]).output()  # SPEC §5.2 before formats: unchanged
    fmt = read_format(inp)
    result = decode_stored(fmt, read_payload(inp, fmt))
    return result if fmt == "json-document" else result.output()


# ---------------------------------------------------------------------------------------------------------------
# Encoding (SPEC §1.1 "Canonical output per format", §5.2 selection.encode)


def plist_value(sel: Selection):
    """The dictionary §1.1 writes: seven keys by code point, tokens in stable order, untokenized sorted."""
    members = {}
    for key in TOKEN_KEYS:
        members[key] = [plist.PDict([("data", plist.PData(b64_strict(d)))]) for d in sorted(sel.tokens[key])]
    members["includeEntireCategory"] = sel.iec
    for key in UNTOKENIZED_KEYS:
        members[key] = sorted(sel.untokenized[key], key=lambda s: s.encode("utf-8"))
    return plist.PDict((k, members[k]) for k in sorted(members))


def write(sel: Selection, fmt: str) -> str:
    """The wire value (`base64` text or `data`) of the selection written in the format."""
    if fmt == "base64-json":
        return sel.canonical()
    if fmt == "json":
        return b64(sel.canonical_json().encode("utf-8"))
    if fmt == "xml-plist":
        return b64(plist.write_xml(plist_value(sel)))
    return b64(plist.write_binary(plist_value(sel)))  # binary-plist; base64-plist is the same text


def read_inputs(inp):
    """selection.encode's members: the selection decoded first, then the format (SPEC §5.2 "Formats on the wire")."""
    text = inp.get("selection")
    if not isinstance(text, str):
        raise Coded("badInput")
    sel = oracle.decode_selection(text)
    return read_format(inp, encode=True), sel


def xml_forbids(c: str) -> bool:
    """XML 1.0 §2.2 Char: what an XML list cannot hold (SPEC §1.1, `unencodable`)."""
    v = ord(c)
    return not (v in (0x9, 0xA, 0xD) or 0x20 <= v <= 0xD7FF or 0xE000 <= v <= 0xFFFD or 0x10000 <= v <= 0x10FFFF)


def op_selection_encode(inp):
    """The expectation: {"canonical": C}; an encoder's answer is judged by reading it back (SPEC §5.3). Only
    xml-plist can refuse, with `unencodable`, for an identifier holding a character XML forbids (SPEC §1.1)."""
    fmt, sel = read_inputs(inp)
    if fmt == "xml-plist" and any(xml_forbids(c) for ids in sel.untokenized.values() for s in ids for c in s):
        raise Coded("unencodable")
    return {"canonical": sel.canonical()}


def op_selection_encode_wire(inp):
    """What a correct encoder answers on the wire."""
    op_selection_encode(inp)  # its errors, `unencodable` included
    fmt, sel = read_inputs(inp)
    return {member_for(fmt): write(sel, fmt)}


def read_back(fmt: str, output) -> str:
    """SPEC §5.3: the canonical string an encoder's answer reads back as, or raises ValueError saying why."""
    value = output.get(member_for(fmt)) if isinstance(output, dict) else None
    if not isinstance(value, str):
        raise ValueError(f"no string member {member_for(fmt)}")
    try:
        result = decode_stored(fmt, read_payload({member_for(fmt): value}, fmt))
    except Coded as exc:
        raise ValueError(f"the answer does not read back as {fmt}: {exc.code}")
    return result.canonical()


def judge_encode(case, output) -> bool:
    fmt = case["input"]["format"]
    try:
        return read_back(fmt, output) == case["expect"]["output"]["canonical"]
    except ValueError:
        return False


oracle.OPERATIONS["selection.decode"] = op_selection_decode  # absent `format`: the old path, unchanged
oracle.OPERATIONS["selection.encode"] = op_selection_encode


# ---------------------------------------------------------------------------------------------------------------
# Self-checks (make-vectors.py --check / --self-check)

# Where plistlib and §1.2 differ on the invalid inputs of the suites, observed by self_check and expected (our
# reader is the strict one; plistlib is only a second opinion on valid inputs):
# DEVIATIONS-BEGIN
# plistlib (CPython 3.11) reads these selection-formats inputs, which §1.2 refuses (44 at the time of writing;
# `make-vectors.py --self-check` prints the current list):
#   binary: offset-table-into-trailer, offset-below-8, offset-at-table, offset-past-table (it checks no offset
#     bounds); marker-null, marker-fill, bad-marker-in-unknown-member, plist-error-beats-schema (0x00 is None,
#     0x0F fill is skipped); integer-marker-0x15, length-not-an-integer, length-16-byte-integer (it reads any
#     integer size); integer-truncated-at-table; 16-byte-integer-high-bytes-set; dictionary-key-not-a-string,
#     dictionary-key-is-data (keys of any hashable type); array-contains-itself, two-arrays-contain-each-other,
#     dictionary-contains-itself (it builds self-referencing containers); depth-33-refused,
#     shared-references-blow-up (no depth or value limits: shared objects are read once);
#     binary-bytes-as-xml-plist, xml-bytes-as-binary-plist (plistlib.loads detects the format itself);
#   XML (expat underneath): byte-order-mark, comment, comment-after-plist, cdata, processing-instruction,
#     attribute-on-value-tag, space-inside-tag, unknown-entity (undeclared entities pass with an external DTD),
#     no-plist-root, two-values, text-between-elements (it ignores the root's name, extra values and stray text),
#     data-url-safe, data-pad-bits, data-entity (lenient base64), integer-20-digits, integer-over-range,
#     integer-space, integer-hex (int() of the text, 0x allowed), real-capital-nan, real-trailing-dot,
#     real-leading-dot (float() of the text), depth-33-refused.
# It agrees with §1.2 on every valid input of the suites (checked), and refuses the other invalid ones.
# DEVIATIONS-END


def _from_plistlib(v):
    """plistlib's value as ours, for the selection schema (plistlib drops repeated keys; fine for valid input)."""
    import datetime
    import plistlib

    if isinstance(v, dict):
        return plist.PDict((k, _from_plistlib(x)) for k, x in v.items())
    if isinstance(v, list):
        return [_from_plistlib(x) for x in v]
    if isinstance(v, bytes):
        return plist.PData(v)
    if isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, int):
        return plist.PInt(v)
    if isinstance(v, float):
        return plist.PReal(v)
    if isinstance(v, (datetime.datetime, plistlib.UID)):
        return plist.PDate(0.0)
    raise TypeError(type(v))


def _plist_bytes(case):
    """(bytes, binary?) of a decode case's plist input, when it is one and the carrier is readable."""
    inp = case["input"]
    if case["op"] != "selection.decode" or not isinstance(inp, dict):
        return None
    fmt = inp.get("format")
    if fmt not in ("binary-plist", "xml-plist", "base64-plist"):
        return None
    raw = b64_strict(inp.get(member_for(fmt)) or "") if isinstance(inp.get(member_for(fmt)), str) else None
    if not raw:
        return None
    return raw, (fmt == "binary-plist" or (fmt == "base64-plist" and raw.startswith(b"bplist00")))


def self_check(suites, verbose=True) -> list[str]:
    """Returns problems (empty when all is well); prints the plistlib deviations on invalid inputs."""
    import plistlib

    problems = []
    cases = [c for s in suites for c in s.cases]
    # 1. Our writers round-trip through our readers, for every selection the suites hold, in every format.
    seen = set()
    for c in cases:
        out = c["expect"].get("output", {})
        canon = out.get("canonical")
        for entry in out.get("selections", []):
            if "canonical" in entry:
                seen.add(entry["canonical"])
        if canon:
            seen.add(canon)
    for canon in sorted(seen):
        sel = oracle.decode_selection(canon)
        for fmt in FORMATS:
            if fmt == "json-document":
                continue
            try:
                value = write(sel, fmt)
            except ValueError:
                continue  # a string XML cannot hold (control characters): no XML for that one
            try:
                back = read_back(fmt, {member_for(fmt): value})
            except ValueError as exc:
                problems.append(f"writer {fmt} does not read back: {exc}")
                continue
            if back != canon:
                problems.append(f"writer {fmt} changes a selection")
    # 1b. …and for plist values beyond selections (every type the writers know, sizes across the length escapes).
    P = plist
    deep = []
    for _ in range(31):
        deep = [deep]
    samples = [
        P.PDict([("a", [1, -1, 255, 256, 65536, 1 << 40, -(1 << 63), (1 << 63) - 1]), ("é😀", "ü" * 20),
                 ("d", P.PData(bytes(range(256)))), ("t", True), ("f", False), ("r", 1.5), ("e", P.PDict()),
                 ("x" * 300, ["s" * 15, "s" * 14, "", P.PData(b"")])]),
        [P.PDict([("k%d" % i, i) for i in range(40)])] * 3,
        deep,
        "top-level string <&>\r\n\t",
    ]
    for v in samples:
        for name, w, r in (("binary", plist.write_binary, plist.read_binary), ("xml", plist.write_xml, plist.read_xml)):
            try:
                if r(w(v)) != v:
                    problems.append(f"{name} writer changes {str(v)[:40]}")
            except plist.PlistError as exc:
                problems.append(f"{name} writer output unreadable: {exc}")
    # 2. plistlib reads every valid plist input into the same selection; list where it accepts invalid ones.
    deviations = []
    for c in cases:
        got = _plist_bytes(c)
        if got is None:
            continue
        raw, _binary = got
        if "output" in c["expect"]:
            try:
                theirs = selection_from_plist(_from_plistlib(plistlib.loads(raw))).canonical()
            except Coded as exc:
                theirs = "error " + exc.code
            except Exception as exc:  # plistlib refuses it
                theirs = "refused " + type(exc).__name__
            if theirs != c["expect"]["output"]["canonical"]:
                problems.append(f"plistlib disagrees on valid {c['id']}: {theirs[:40]}")
        elif c["expect"]["error"] == "plist":
            try:
                plistlib.loads(raw)  # only whether it reads at all: its values are not compared on invalid input
                deviations.append(c["id"])
            except Exception:
                pass
    # 2b. The other direction: our readers read what plistlib writes (binary and XML) as the same selection.
    for canon in sorted(seen):
        sel = oracle.decode_selection(canon)

        def plain(v):
            if isinstance(v, plist.PDict):
                return {k: plain(x) for k, x in v}
            if isinstance(v, list):
                return [plain(x) for x in v]
            return bytes(v) if isinstance(v, plist.PData) else v

        value = plain(plist_value(sel))
        # plistlib writes a carriage return raw (XML reads it back as a line feed, §1.2) and refuses other
        # controls, so selections holding those are compared in binary only.
        raw_cr = any(ch == "\r" or xml_forbids(ch)
                     for ids in sel.untokenized.values() for x in ids for ch in x)
        for fmt, pl in (("binary-plist", plistlib.FMT_BINARY), ("xml-plist", plistlib.FMT_XML)):
            if raw_cr and fmt == "xml-plist":
                continue
            try:
                ours = read_back(fmt, {"data": b64(plistlib.dumps(value, fmt=pl))})
            except ValueError as exc:
                problems.append(f"plistlib's {fmt} output unreadable: {exc}")
                continue
            if ours != canon:
                problems.append(f"plistlib's {fmt} output reads as another selection")
    # 3. plistlib reads our encoder's plist answers as the same selection too.
    for c in cases:
        if c["op"] == "selection.encode" and "output" in c["expect"] and "plist" in c["input"]["format"]:
            raw = b64_strict(op_selection_encode_wire(c["input"])[member_for(c["input"]["format"])])
            sel = selection_from_plist(_from_plistlib(plistlib.loads(raw)))
            if sel.canonical() != c["expect"]["output"]["canonical"]:
                problems.append(f"plistlib reads {c['id']}'s answer differently")
    print(f"self-check: {len(seen)} selections round-trip through every writer and through plistlib; plistlib accepts "
          f"{len(deviations)} inputs that §1.2 refuses (expected deviations" + ("):" if verbose else ")"))
    for d in deviations if verbose else ():
        print("  " + d)
    return problems
