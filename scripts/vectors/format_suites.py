"""Suites for the storage formats (SPEC §1.1–§1.3, §5.2, §5.3): selection-formats, selection-document,
selection-encode. Every expectation comes from the oracle (formats.py, plist.py); many are also hand-set."""

from __future__ import annotations

import struct

from . import formats, plist
from .build import SuiteBuilder, b64, canonical, dev_tokens, enc, jstr, sel, sel_json
from .plist import PData, PDict, assemble, marker, string_obj, write_binary, write_xml
from .selection_suites import APPS, CATS, GEN, SHORT, WEBS, lead_tokens

S11, S12, S13, S52, S53 = "SPEC §1.1", "SPEC §1.2", "SPEC §1.3", "SPEC §5.2", "SPEC §5.3"
EMPTY = canonical()
ALL_KEYS = ("applicationTokens", "categoryTokens", "webDomainTokens", "includeEntireCategory",
            "untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers")


def _bytes(t: str) -> bytes:
    return formats.b64_strict(t)


def psel(apps=(), cats=(), webs=(), iec=False, ua=(), uc=(), uw=(), *, omit=(), extra=(), raw=None, order=None):
    """A selection as a plist value, written as given (tokens as data objects, key order of ALL_KEYS)."""
    tok = lambda ts: [PDict([("data", PData(_bytes(t)))]) for t in ts]
    values = {"applicationTokens": tok(apps), "categoryTokens": tok(cats), "webDomainTokens": tok(webs),
              "includeEntireCategory": iec, ALL_KEYS[4]: list(ua), ALL_KEYS[5]: list(uc), ALL_KEYS[6]: list(uw)}
    values.update(raw or {})
    out = PDict((k, values[k]) for k in (order or ALL_KEYS) if k not in omit)
    out.extend(extra)
    return out


def bp(v) -> bytes:
    return write_binary(v)


def xp(v) -> bytes:
    return write_xml(v)


def X(v) -> str:
    return xp(v).decode("utf-8")


def ref1(*rs) -> bytes:
    return bytes(rs)


# The minimal binary selection: {applicationTokens, categoryTokens, webDomainTokens} -> one shared empty array.
MINI_OBJS = [b"\xd3" + ref1(1, 2, 3) + ref1(4, 4, 4), string_obj("applicationTokens"), string_obj("categoryTokens"),
             string_obj("webDomainTokens"), b"\xa0"]


MINI_OFFSETS = [8 + sum(map(len, MINI_OBJS[:i])) for i in range(len(MINI_OBJS))]


def mini(replace=None, extra=(), **kw) -> bytes:
    objs = list(MINI_OBJS)
    for i, o in (replace or {}).items():
        objs[i] = o
    return assemble(objs + list(extra), 0, **kw)


def mini_with(value_objs, key="x") -> bytes:
    """MINI with a fourth member `key` -> object 6 (value_objs: objects 6, 7, …)."""
    objs = list(MINI_OBJS)
    objs[0] = b"\xd4" + ref1(1, 2, 3, 5) + ref1(4, 4, 4, 6)
    return assemble(objs + [string_obj(key)] + list(value_objs), 0)


def chain(depth_arrays: int, fan: int = 1) -> bytes:
    """MINI with member `deep`: `depth_arrays` nested arrays (each holding `fan` references to the next)."""
    objs = list(MINI_OBJS)
    objs[0] = b"\xd4" + ref1(1, 2, 3, 5) + ref1(4, 4, 4, 6)
    objs.append(string_obj("deep"))
    n0 = len(objs)
    count = n0 + depth_arrays
    rs = 1 if count < 256 else 2
    if rs == 2:  # re-encode the top dict with 2-byte references
        objs[0] = b"\xd4" + b"".join(i.to_bytes(2, "big") for i in (1, 2, 3, 5, 4, 4, 4, 6))
    for k in range(depth_arrays):
        if k + 1 < depth_arrays:
            objs.append(marker(0xA, fan) + (n0 + k + 1).to_bytes(rs, "big") * fan)
        else:
            objs.append(b"\xa0")
    return assemble(objs, 0, ref_size=rs)


def dd(raw: bytes) -> str:
    """The `data` member for stored bytes."""
    return b64(raw)


def formats_suite() -> SuiteBuilder:
    s = SuiteBuilder(
        "selection-formats", "selection.decode",
        GEN + "selection.decode in the storage formats of SPEC §1.1 (json, binary-plist, xml-plist, base64-plist, "
        "and base64-json named explicitly): every shape of valid selection, every property-list rule of §1.2 broken "
        "once on a minimal input, the schema and token rules with plist types, precedence, field bugs 10 and 11, "
        "and badInput for the format and data members (SPEC §5.2).")
    a = s.add

    def case(name, fmt, raw, tags=(), src=S12, hand=None):
        inp = {"format": fmt, formats.member_for(fmt): raw if isinstance(raw, str) else dd(raw)}
        a(name, inp, tags, src, hand=hand)

    def err(code):
        return {"error": code}

    M = ["malformed"]
    # --- valid selections in every format, every shape --------------------------------------------------------
    shapes = [
        ("empty", dict(), []),
        ("device-shaped", dict(apps=APPS[:3], cats=CATS[:2], webs=WEBS[:2]), ["device-shaped"]),
        ("entire-category", dict(cats=CATS[:4], iec=True), []),
        ("untokenized", dict(apps=APPS[:1], ua=["com.example.b", "com.example.a"], uw=["example.org/x"]), []),
        ("unicode-untokenized", dict(ua=["café", "日本語", "😀", "z"]), ["unicode"]),
        ("fifty-per-kind", dict(apps=dev_tokens("fa", 50), cats=dev_tokens("fc", 50), webs=dev_tokens("fw", 50)),
         ["hostile"]),
        ("short-tokens", dict(apps=SHORT, webs=lead_tokens("fl")), []),
    ]
    for label, kw, tags in shapes:
        want = {"output": {"canonical": canonical(**kw)}}
        case(f"json-{label}", "json", sel_json(**kw, shuffle="fj" + label).encode(), tags, f"{S11} (the JSON formats)", want)
        case(f"binary-{label}", "binary-plist", bp(psel(**kw)), tags + ["roundtrip"], S12, want)
        case(f"xml-{label}", "xml-plist", xp(psel(**kw)), tags + ["roundtrip"], S12, want)
        case(f"base64-plist-binary-{label}", "base64-plist", b64(bp(psel(**kw))), tags, S11, want)
        case(f"base64-plist-xml-{label}", "base64-plist", b64(xp(psel(**kw))), tags, S11, want)
    case("base64-json-named-explicitly", "base64-json", sel(APPS[:2], CATS[:1]), [], S11,
         {"output": {"canonical": canonical(APPS[:2], CATS[:1]), "applications": 2}})
    # same selection, shuffled keys and duplicated tokens, in binary and XML: same canonical (set semantics)
    messy = psel([APPS[1], APPS[0], APPS[1]], [CATS[0]] * 2, order=list(reversed(ALL_KEYS)))
    for fmt, raw in (("binary-plist", bp(messy)), ("xml-plist", xp(messy))):
        case(f"{fmt.split('-')[0]}-duplicates-and-key-order", fmt, raw, ["set-semantics", "roundtrip"], S11,
             {"output": {"applications": 2, "categories": 1, "canonical": canonical(APPS[:2], CATS[:1])}})
    case("missing-optional-members-binary", "binary-plist", bp(psel(APPS[:1], omit=ALL_KEYS[3:])), ["assumption"],
         f"{S11}; Assumption A1", {"output": {"includeEntireCategory": False, "canonical": canonical(APPS[:1])}})
    case("missing-optional-members-xml", "xml-plist", xp(psel(APPS[:1], omit=ALL_KEYS[3:])), ["assumption"],
         f"{S11}; Assumption A1", {"output": {"canonical": canonical(APPS[:1])}})
    case("binary-unknown-members-ignored", "binary-plist",
         bp(psel(APPS[:1], extra=[("version", 2), ("meta", PDict([("a", [1.5, "x", PData(b"")])]))])), [], S11,
         {"output": {"canonical": canonical(APPS[:1])}})
    case("binary-unknown-member-in-token-ignored", "binary-plist",
         bp(psel(raw={"applicationTokens": [PDict([("kind", "app"), ("data", PData(_bytes(APPS[0])))])]})), [], S11,
         {"output": {"applications": 1}})
    case("binary-token-of-1024-bytes", "binary-plist",
         bp(psel(raw={"webDomainTokens": [PDict([("data", PData(bytes(range(256)) * 4))])]})), ["boundary"], S11,
         {"output": {"webDomains": 1}})
    case("xml-token-of-1024-bytes", "xml-plist",
         xp(psel(raw={"applicationTokens": [PDict([("data", PData(bytes(range(256)) * 4))])]})), ["boundary"], S11,
         {"output": {"applications": 1}})
    case("binary-token-of-one-byte", "binary-plist",
         bp(psel(raw={"categoryTokens": [PDict([("data", PData(b"\x00"))])]})), ["boundary"], S11,
         {"output": {"categories": 1}})

    # --- field bugs 10 and 11 -------------------------------------------------------------------------------
    for name, raw in (("json-empty-array-is-schema", b"[]"), ("json-empty-array-with-spaces-is-schema", b" [ ] "),
                      ("json-empty-array-newline-is-schema", b"[]\n")):
        case(name, "json", raw, M + ["field-bug-10"], f"{S11} (the JSON formats); SPEC §7.10", err("schema"))
    for fmt in ("json", "json-document", "binary-plist", "xml-plist", "base64-plist"):
        case(f"empty-{fmt}-is-empty", fmt, "", M + ["field-bug-11"], f"{S11} (common rules); SPEC §7.11", err("empty"))
    case("empty-base64-json-named-explicitly", "base64-json", "", M + ["field-bug-2"], S11, err("empty"))

    # --- json format errors -----------------------------------------------------------------------------------
    V = '"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]'
    for name, raw, code in [
        ("json-stored-string-is-not-json", sel(APPS[:1]).encode(), "json"),
        ("json-byte-order-mark", b"\xef\xbb\xbf{" + V.encode() + b"}", "json"),
        ("json-invalid-utf8", b'{' + V.encode() + b',"x":"\xff"}', "json"),
        ("json-depth-33", ("{" + V + ',"d":' + "[" * 32 + "]" * 32 + "}").encode(), "json"),
        ("json-empty-object", b"{}", "schema"),
        ("json-token-data-empty", b'{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[]}',
         "token"),
        ("json-repeated-key", ("{" + V + ',"categoryTokens":[]}').encode(), "schema"),
        ("json-syntax-beats-schema", b'[1,]', "json"),
    ]:
        case(name, "json", raw, M + (["boundary", "hostile"] if "depth" in name else [])
             + (["precedence"] if "beats" in name else []) + (["assumption"] if "order-mark" in name else []),
             f"{S11} (the JSON formats); SPEC §1" + ("; Assumption A4" if "order-mark" in name else ""), err(code))
    case("json-depth-32-accepted", "json", ("{" + V + ',"d":' + "[" * 31 + "]" * 31 + "}").encode(),
         ["boundary", "hostile"], f"{S11}; SPEC §1", {"output": {"canonical": EMPTY}})
    case("one-mib-plus-one-beats-plist", "binary-plist", bytes(1 << 20) + b"\x00",
         M + ["boundary", "hostile", "precedence"], f"{S11} (common rules)", err("tooLarge"))

    # --- binary: every rule of §1.2 broken once on the minimal input --------------------------------------
    case("binary-minimal-shared-array-is-valid", "binary-plist", mini(), [], S12, {"output": {"canonical": EMPTY}})
    P = err("plist")
    good = mini()
    t = len(good) - 32
    broken = [
        ("binary-header-bplist01", b"bplist01" + good[8:]),
        ("binary-no-header", good[8:] + b"\x00" * 8),
        ("binary-shorter-than-40-bytes", good[:8] + good[-31:]),
        ("binary-offset-size-zero", good[:t + 6] + b"\x00" + good[t + 7:]),
        ("binary-offset-size-three", good[:t + 6] + b"\x03" + good[t + 7:]),
        ("binary-ref-size-zero", good[:t + 7] + b"\x00" + good[t + 8:]),
        ("binary-ref-size-three", good[:t + 7] + b"\x03" + good[t + 8:]),
        ("binary-object-count-zero", mini(count=0)),
        ("binary-object-count-over-limit", mini(count=(1 << 20) + 1)),
        ("binary-top-object-not-below-count", good[:t + 16] + struct.pack(">Q", 5) + good[t + 24:]),
        ("binary-offset-table-before-header-end", mini(table_offset=4)),
        ("binary-offset-table-into-trailer", mini(table_offset=t - 4)),
        ("binary-offset-below-8", mini(offsets=[0] + MINI_OFFSETS[1:])),
        ("binary-offset-at-table", mini(offsets=MINI_OFFSETS[:4] + [t - 5])),
        ("binary-offset-past-table", mini(offsets=MINI_OFFSETS[:4] + [t + 3])),
        ("binary-reference-not-below-count", mini({0: b"\xd3" + ref1(1, 2, 3) + ref1(4, 4, 5)})),
        ("binary-marker-null", mini({4: b"\x00"})),
        ("binary-marker-fill", mini({4: b"\x0f"})),
        ("binary-marker-0x70", mini({4: b"\x70"})),
        ("binary-marker-set", mini({4: b"\xc0"})),
        ("binary-marker-0xe0", mini({4: b"\xe0"})),
        ("binary-integer-marker-0x15", mini({4: b"\x15" + bytes(32)})),
        ("binary-real-of-two-bytes", mini({4: b"\x21\x00\x00"})),
        ("binary-date-marker-0x32", mini({4: b"\x32" + bytes(4)})),
        ("binary-array-length-runs-into-table", mini({4: b"\xa9"})),
        ("binary-data-length-runs-into-table", mini({4: b"\x4f\x10\xff"})),
        ("binary-length-not-an-integer", mini({4: b"\xaf\x22\x00\x00\x00\x00"})),
        ("binary-length-16-byte-integer", mini({4: b"\xaf\x14" + bytes(16)})),
        ("binary-length-negative", mini({4: b"\x4f\x13" + b"\xff" * 8})),
        ("binary-integer-truncated-at-table", mini({4: b"\x13\x00"})),
        ("binary-16-byte-integer-high-bytes-set", mini_with([b"\x14" + b"\x00" * 7 + b"\x01" + bytes(8)])),
        ("binary-ascii-byte-above-7f", mini({3: b"\x5f\x10\x0f" + b"webDomainToken\xe9"})),
        ("binary-utf16-lone-surrogate", mini({3: b"\x6f\x10\x0f" + "webDomainToken".encode("utf-16-be") + b"\xd8\x00"})),
        ("binary-dictionary-key-not-a-string", mini({3: b"\x10\x01"})),
        ("binary-dictionary-key-is-data", mini({3: b"\x4f\x10\x0f" + b"webDomainTokens"})),
        ("binary-array-contains-itself", mini({4: b"\xa1" + ref1(4)})),
        ("binary-two-arrays-contain-each-other", mini({4: b"\xa1" + ref1(5)}, [b"\xa1" + ref1(4)])),
        ("binary-dictionary-contains-itself", mini({0: b"\xd3" + ref1(1, 2, 3) + ref1(4, 4, 0)})),
        ("binary-trailer-only", b"bplist00" + bytes(32)),
    ]
    for name, raw in broken:
        tags = M + (["unicode"] if "ascii" in name or "utf16" in name else []) \
                 + (["hostile"] if "contain" in name or "limit" in name else [])
        case(name, "binary-plist", raw, tags, S12, P)
    case("binary-depth-32-accepted", "binary-plist", chain(31), ["boundary", "hostile"], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-depth-33-refused", "binary-plist", chain(32), M + ["boundary", "hostile"], S12, P)
    # Found by fuzzing selection-plist against Foundation (CoreFoundation refuses both): the table ends at the trailer,
    # and its own offset fits in the offset size.
    gap = bytearray(mini())
    gap[-32:-32] = b"\x00"  # one byte between the table and the trailer; the trailer's fields still point right
    case("binary-gap-between-table-and-trailer", "binary-plist", bytes(gap), M, S12, P)
    big = assemble(MINI_OBJS[:4] + [MINI_OBJS[4], b"\x4f\x11\x01\x2c" + bytes(300)], 0, offset_size=1)
    case("binary-table-offset-over-the-offset-size", "binary-plist", big, M + ["boundary"], S12, P)
    case("binary-uid-over-64-bits", "binary-plist", mini_with([b"\x88\x01" + bytes(8)]), M, S12, P)
    case("binary-uid-of-nine-bytes-that-fits", "binary-plist", mini_with([b"\x88" + bytes(8) + b"\x07"]), [], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-shared-references-within-budget", "binary-plist", chain(5, 16), ["hostile"], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-shared-references-blow-up", "binary-plist", chain(6, 16), M + ["hostile"], S12, P)
    # valid layouts the rules allow
    case("binary-reference-size-two", "binary-plist", assemble(
        [b"\xd3" + b"".join(i.to_bytes(2, "big") for i in (1, 2, 3, 4, 4, 4))] + MINI_OBJS[1:], 0, ref_size=2),
        [], S12, {"output": {"canonical": EMPTY}})
    case("binary-offset-size-eight", "binary-plist", mini(offset_size=8), [], S12, {"output": {"canonical": EMPTY}})
    case("binary-trailer-unused-bytes-set", "binary-plist", mini(unused=b"\xff" * 6), [], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-unreferenced-object-allowed", "binary-plist", mini(extra=[string_obj("unused")]), [], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-top-object-last", "binary-plist", assemble(
        [MINI_OBJS[4], MINI_OBJS[1], MINI_OBJS[2], MINI_OBJS[3], b"\xd3" + ref1(1, 2, 3) + ref1(0, 0, 0)], 4),
        [], S12, {"output": {"canonical": EMPTY}})
    for name, obj in [("uid", b"\x81\x01\x02"), ("16-byte-integer", b"\x14" + bytes(15) + b"\x07"),
                      ("negative-8-byte-integer", b"\x13" + b"\xff" * 8), ("real-4-byte", b"\x22" + bytes(4)),
                      ("date", b"\x33" + bytes(8)), ("utf16-string", string_obj("é"))]:
        case(f"binary-{name}-in-unknown-member", "binary-plist", mini_with([obj]), [], S12,
             {"output": {"canonical": EMPTY}})
    case("binary-utf16-key-names-the-member", "binary-plist",
         mini({3: b"\x6f\x10\x0f" + "webDomainTokens".encode("utf-16-be")}), ["unicode"], S12,
         {"output": {"canonical": EMPTY}})
    case("binary-bad-marker-in-unknown-member", "binary-plist", mini_with([b"\x00"]), M + ["precedence"],
         f"{S12}; {S11} (plist before schema)", P)
    case("binary-plist-error-beats-schema", "binary-plist", mini({0: b"\xa2" + ref1(4, 5)}, [b"\x0f"]),
         M + ["precedence"], f"{S11} (plist before schema)", P)
    case("xml-plist-error-after-schema-problem", "xml-plist",
         X([psel()]).replace("</array>\n</plist>", "\t<integer>1.5</integer>\n</array>\n</plist>").encode(),
         M + ["precedence"], f"{S11} (plist before schema, wherever each is)", P)
    case("xml-bytes-as-binary-plist", "binary-plist", xp(psel()), M, S11, P)
    case("binary-bytes-as-xml-plist", "xml-plist", bp(psel()), M, S11, P)

    # --- schema and token with plist types -------------------------------------------------------------------
    T = lambda d: [PDict([("data", d)])]
    st = [
        ("top-level-array", [psel()], "schema"),
        ("top-level-string", "selection", "schema"),
        ("missing-category-tokens", psel(omit=["categoryTokens"]), "schema"),
        ("token-array-is-dictionary", psel(raw={"applicationTokens": PDict([("data", PData(b"\x01"))])}), "schema"),
        ("include-entire-category-integer", psel(raw={"includeEntireCategory": 1}), "schema"),
        ("include-entire-category-string", psel(raw={"includeEntireCategory": "true"}), "schema"),
        ("untokenized-holds-integer", psel(raw={ALL_KEYS[4]: ["a", 1]}), "schema"),
        ("untokenized-holds-data", psel(raw={ALL_KEYS[6]: [PData(b"x")]}), "schema"),
        ("repeated-top-level-key", psel(APPS[:1], extra=[("applicationTokens", [])]), "schema"),
        ("repeated-key-in-token", psel(raw={"applicationTokens": [PDict([("data", PData(b"\x01")),
                                                                        ("data", PData(b"\x01"))])]}), "schema"),
        ("repeated-key-in-unknown-member", psel(extra=[("meta", PDict([("a", 1), ("a", 2)]))]), "schema"),
        ("token-data-as-base64-string", psel(raw={"applicationTokens": T(APPS[0])}), "token"),
        ("token-data-empty", psel(raw={"categoryTokens": T(PData(b""))}), "token"),
        ("token-data-1025-bytes", psel(raw={"webDomainTokens": T(PData(bytes(1025)))}), "token"),
        ("token-not-a-dictionary", psel(raw={"applicationTokens": [PData(b"\x01")]}), "token"),
        ("token-without-data", psel(raw={"applicationTokens": [PDict([("Data", PData(b"\x01"))])]}), "token"),
        ("token-data-integer", psel(raw={"applicationTokens": T(7)}), "token"),
        ("schema-beats-earlier-token", psel(raw={"applicationTokens": T(PData(b"")), "webDomainTokens": "x"}),
         "schema"),
    ]
    for name, value, code in st:
        tags = M + (["boundary"] if "1025" in name else []) + (["precedence"] if "beats" in name else [])
        case(f"binary-{name}", "binary-plist", bp(value), tags, S11, err(code))
        case(f"xml-{name}", "xml-plist", xp(value), tags, S11, err(code))
    # a repeated key that only differs by its string encoding (ASCII and UTF-16 objects) is still repeated
    case("binary-repeated-key-ascii-and-utf16", "binary-plist", mini(
        {0: b"\xd4" + ref1(1, 2, 3, 5) + ref1(4, 4, 4, 4)}, [b"\x6f\x10\x0f" + "webDomainTokens".encode("utf-16-be")]),
        M + ["unicode"], S11, err("schema"))

    # --- XML: every rule of the subset broken once --------------------------------------------------------
    base = X(psel(APPS[:1]))
    one = {"output": {"canonical": canonical(APPS[:1])}}
    body = base[base.index("<plist"):]
    xml_bad = [  # (name, text, rests on A14)
        ("xml-byte-order-mark", "\ufeff" + base, True),
        ("xml-comment", base.replace("<dict>", "<dict><!-- picked -->", 1), True),
        ("xml-comment-after-plist", base + "<!-- end -->\n", True),
        ("xml-cdata", base.replace("<key>categoryTokens</key>", "<key><![CDATA[categoryTokens]]></key>"), True),
        ("xml-processing-instruction", base.replace("<plist", "<?php x ?>\n<plist"), True),
        ("xml-doctype-internal-subset", base.replace('PropertyList-1.0.dtd">', 'PropertyList-1.0.dtd" [ <!ENTITY a "b"> ]>'), True),
        ("xml-attribute-on-value-tag", base.replace("<dict>", '<dict id="1">', 1), True),
        ("xml-space-inside-tag", base.replace("<true/>", "<true />").replace("<false/>", "<false />"), True),
        ("xml-unknown-entity", base.replace("<string>", "<string>&nbsp;", 1) if "<string>" in base
         else base.replace("<key>webDomainTokens</key>", "<key>web&nbsp;</key>"), True),
        ("xml-char-ref-to-nul", base.replace("<key>webDomainTokens</key>", "<key>webDomainTokens&#0;</key>"), False),
        ("xml-char-ref-to-surrogate", base.replace("<key>webDomainTokens</key>", "<key>&#xD800;</key>"), False),
        ("xml-char-ref-to-fffe", base.replace("<key>webDomainTokens</key>", "<key>&#xFFFE;</key>"), False),
        ("xml-raw-control-character", base.replace("<key>webDomainTokens</key>", "<key>web\u0001</key>"), False),
        ("xml-no-plist-root", base.replace("<plist version=\"1.0\">", "<plists>").replace("</plist>", "</plists>"), False),
        ("xml-two-values", base.replace("</plist>", "<true/>\n</plist>"), False),
        ("xml-text-after-plist", base + "x", False),
        ("xml-text-between-elements", base.replace("<key>categoryTokens</key>", "junk<key>categoryTokens</key>"), False),
        ("xml-key-outside-dict", base.replace("<dict>", "<key>a</key><dict>", 1), False),
        ("xml-key-without-value", base.replace("</dict>\n</plist>", "<key>x</key></dict>\n</plist>"), False),
        ("xml-unknown-element", base.replace("<true/>", "<null/>").replace("<false/>", "<null/>"), False),
        ("xml-unclosed-dict", base.replace("</dict>\n</plist>", "</plist>"), False),
        ("xml-data-non-canonical-base64", base.replace(APPS[0], APPS[0][:-2] + "=A"), False),
        ("xml-data-url-safe", base.replace(APPS[0], APPS[0].replace("/", "_").replace("+", "-")) if ("/" in APPS[0] or "+" in APPS[0]) else base.replace(APPS[0], "-" + APPS[0][1:]), False),
        ("xml-data-pad-bits", base.replace("<key>webDomainTokens</key>\n\t<array/>",
                                           "<key>webDomainTokens</key>\n\t<array/>\n\t<key>x</key><data>AB==</data>"), False),
        ("xml-data-entity", base.replace("<key>webDomainTokens</key>\n\t<array/>",
                                         "<key>webDomainTokens</key>\n\t<array/>\n\t<key>x</key><data>AA&#61;=</data>"), False),
        ("xml-invalid-utf8", None, False),
        ("xml-declaration-unterminated", '<?xml version="1.0"' + body, False),
    ]
    for name, text, a14 in xml_bad:
        raw = text.encode("utf-8") if text is not None else base.replace("<key>webDomainTokens</key>",
                                                                          "<key>web\udcff</key>").encode("utf-8", "surrogateescape")
        tags = M + (["assumption"] if a14 else []) + (["unicode"] if "utf8" in name or "char-ref" in name or "order-mark" in name else [])
        case(name, "xml-plist", raw, tags, f"{S12}" + ("; Assumption A14" if a14 else ""), P)
    extra_member = lambda s: base.replace("<key>webDomainTokens</key>\n\t<array/>",
                                          "<key>webDomainTokens</key>\n\t<array/>\n\t<key>x</key>" + s)
    grammar = [
        ("integer-plus-sign", "<integer>+5</integer>", True), ("integer-negative-min", "<integer>-9223372036854775808</integer>", True),
        ("integer-19-digits", "<integer>0000000000000000001</integer>", True),
        ("integer-20-digits", "<integer>00000000000000000001</integer>", False),
        ("integer-over-range", "<integer>9223372036854775808</integer>", False),
        ("integer-fraction", "<integer>1.0</integer>", False), ("integer-empty", "<integer></integer>", False),
        ("integer-space", "<integer> 1</integer>", False), ("integer-hex", "<integer>0x10</integer>", False),
        ("real-exponent", "<real>-1.5E+10</real>", True), ("real-nan", "<real>nan</real>", True),
        ("real-plus-inf", "<real>+inf</real>", True), ("real-capital-nan", "<real>NaN</real>", False),
        ("real-trailing-dot", "<real>1.</real>", False), ("real-leading-dot", "<real>.5</real>", False),
        ("date-valid", "<date>2024-02-29T12:00:00Z</date>", True),
        ("date-space-for-t", "<date>2024-02-29 12:00:00Z</date>", False),
        ("date-without-z", "<date>2024-02-29T12:00:00</date>", False),
        ("empty-forms", "<array><dict/><array/><string/><data/><true/><false/></array>", True),
        ("key-empty-form", "<dict><key/><string>v</string></dict>", True),
        ("data-with-whitespace", "<data>\n\tAA\r\n BB C\tC\nDD </data>", True),
        ("entities-in-string", "<string>&amp;&lt;&gt;&quot;&apos;&#65;&#x1F600;</string>", True),
    ]
    for name, snippet, ok in grammar:
        case(f"xml-{name}", "xml-plist", extra_member(snippet).encode(), ([] if ok else M) + (["boundary"] if "19" in name or "20" in name or "range" in name or "min" in name else []),
             S12, one if ok else P)
    case("xml-no-declaration-no-doctype", "xml-plist", body.encode(), [], S12, one)
    case("xml-plist-attributes-single-quotes", "xml-plist", body.replace('version="1.0"', "version='1.0' x=\"y\"").encode(),
         [], S12, one)
    case("xml-crlf-line-ends", "xml-plist", base.replace("\n", "\r\n").encode(), [], S12, one)
    for name, text, want in [
        ("xml-raw-cr-reads-as-line-feed", "a\rb", "a\nb"), ("xml-raw-crlf-reads-as-line-feed", "a\r\nb", "a\nb"),
        ("xml-char-ref-13-is-carriage-return", "a&#13;b", "a\rb")]:
        case(name, "xml-plist", X(psel(ua=["@@"])).replace("@@", text).encode(), ["unicode"],
             f"{S12}; Standard: XML 1.0 §2.11", {"output": {"canonical": canonical(ua=[want])}})
    deep = lambda n: X(psel(extra=[("deep", "@@")])).replace("<string>@@</string>", "<array>" * n + "</array>" * n)
    case("xml-depth-32-accepted", "xml-plist", deep(31).encode(), ["boundary", "hostile"], S12,
         {"output": {"canonical": EMPTY}})
    case("xml-depth-33-refused", "xml-plist", deep(32).encode(), M + ["boundary", "hostile"], S12, P)
    # Found by scripts/oracle-differential.py, where the two readers first read §1.2 differently: a scalar adds
    # no depth, `<?xml` needs whitespace after it, dates are real ones, attribute values hold no `&`.
    scalar_deep = X(psel(extra=[("deep", "@@")])).replace("<string>@@</string>", "<array>" * 31 + "<true/>" + "</array>" * 31)
    case("xml-scalar-in-deepest-array-accepted", "xml-plist", scalar_deep.encode(), ["boundary"], S12,
         {"output": {"canonical": EMPTY}})
    case("xml-declaration-without-space-is-a-processing-instruction", "xml-plist",
         base.replace("<?xml version", "<?xmlversion", 1).encode(), M + ["assumption"], S12, P)
    for name, date in [("xml-date-february-29-of-a-common-year", "2001-02-29T00:00:00Z"),
                       ("xml-date-month-13", "2001-13-01T00:00:00Z"), ("xml-date-leap-second", "2016-12-31T23:59:60Z")]:
        case(name, "xml-plist", X(psel(extra=[("when", "@@")])).replace("<string>@@</string>", f"<date>{date}</date>").encode(),
             M, S12, P)
    case("xml-date-february-29-of-a-leap-year", "xml-plist",
         X(psel(extra=[("when", "@@")])).replace("<string>@@</string>", "<date>2000-02-29T12:00:00Z</date>").encode(),
         [], S12, {"output": {"canonical": EMPTY}})
    case("xml-plist-attribute-with-ampersand", "xml-plist", body.replace('version="1.0"', 'version="1&amp;0"').encode(),
         M + ["assumption"], S12, P)

    # --- base64-plist -----------------------------------------------------------------------------------------
    good_b = b64(bp(psel(APPS[:1])))
    case("base64-plist-whitespace-is-base64", "base64-plist", good_b[:8] + "\n" + good_b[8:], M, S11, err("base64"))
    case("base64-plist-url-safe-is-base64", "base64-plist", b64(bp(psel(lead_tokens("up")))).replace("/", "_").replace("+", "-"),
         M, S11, err("base64"))
    case("base64-plist-bplist-header-then-garbage", "base64-plist", b64(b"bplist00" + bytes(40)), M, S11, P)
    case("base64-plist-holding-json-is-plist", "base64-plist", sel(APPS[:1]), M, S11, P)
    case("base64-plist-base64-beats-plist", "base64-plist", b64(b"bplist00") + "!", M + ["precedence"], S11,
         err("base64"))
    case("base64-plist-bplist-schema", "base64-plist", b64(bp([psel()])), M, S11, err("schema"))
    case("base64-plist-xml-token", "base64-plist", b64(xp(psel(raw={"applicationTokens": [PDict([("data", PData(b""))])]}))),
         M, S11, err("token"))

    # --- badInput (SPEC §5.2) -------------------------------------------------------------------------------
    BI = ["bad-input"]
    ok_data = dd(bp(psel()))
    for name, inp, a16 in [
        ("bad-input-unknown-format", {"format": "plist", "data": ok_data}, True),
        ("bad-input-format-wrong-case", {"format": "JSON", "data": enc("{}")}, True),
        ("bad-input-format-number", {"format": 1, "base64": EMPTY}, False),
        ("bad-input-format-null", {"format": None, "base64": EMPTY}, False),
        ("bad-input-data-missing", {"format": "binary-plist", "base64": ok_data}, False),
        ("bad-input-base64-missing", {"format": "base64-plist", "data": ok_data}, False),
        ("bad-input-data-not-base64", {"format": "json", "data": "{}"}, False),
        ("bad-input-data-whitespace", {"format": "binary-plist", "data": ok_data[:8] + "\n" + ok_data[8:]}, False),
        ("bad-input-data-length-not-multiple-of-4", {"format": "xml-plist", "data": dd(xp(psel()))[:-1]}, False),
        ("bad-input-data-number", {"format": "json-document", "data": 0}, False),
        ("bad-input-unknown-format-beats-empty", {"format": "yaml", "data": ""}, True),
    ]:
        a(name, inp, BI + (["assumption"] if a16 else []) + (["precedence"] if "beats" in name else []),
          f"{S52} (Formats on the wire)" + ("; Assumption A16" if a16 else ""), hand=err("badInput"))
    return s


def _doc(text: str) -> dict:
    return {"format": "json-document", "data": enc(text)}


def document_suite() -> SuiteBuilder:
    s = SuiteBuilder(
        "selection-document", "selection.decode",
        GEN + "selection.decode in the json-document format (SPEC §1.3): selections found depth first in a JSON "
        "document of any shape, each named by its JSON Pointer (RFC 6901) and decoded on its own, so one bad "
        "selection never hides another (field bug 9); document-level errors are the whole answer.")
    a = s.add
    A15 = ["assumption"]
    src = f"{S13}; RFC 6901"
    ok = lambda path, **kw: {"path": path, "applications": len(set(kw.get("apps", ()))),
                             "categories": len(set(kw.get("cats", ()))), "webDomains": len(set(kw.get("webs", ()))),
                             "includeEntireCategory": kw.get("iec", False), "canonical": canonical(**kw)}
    bad = lambda path, code: {"path": path, "error": code}
    out = lambda *entries: {"output": {"selections": list(entries)}}
    S = lambda **kw: sel_json(**kw)
    BAD_TOKEN = S(apps=APPS[:1], raw={"applicationTokens": '[{"data":""}]'})
    BAD_SCHEMA = S(raw={"categoryTokens": '"none"'})
    # --- no selections ----------------------------------------------------------------------------------------
    for name, text in [("empty-object", "{}"), ("empty-array", "[]"), ("scalar-document", '"text"'),
                       ("null-document", "null"), ("settings-without-selections", '{"theme":"dark","limits":[1,2,{"x":null}]}')]:
        a(f"no-selections-{name}", _doc(text), A15, src, hand=out())
    # --- one selection ---------------------------------------------------------------------------------------
    a("top-level-selection-path-is-empty", _doc(S(apps=APPS[:2])), A15, src, hand=out(ok("", apps=APPS[:2])))
    a("app-model-one-selection", _doc('{"selection":' + S(cats=CATS[:3], iec=True) + ',"version":3}'), A15, src,
      hand=out(ok("/selection", cats=CATS[:3], iec=True)))
    a("only-one-token-array-counts-as-selection", _doc('{"s":{"categoryTokens":[]}}'), A15 + ["malformed"], src,
      hand=out(bad("/s", "schema")))
    a("object-with-untokenized-only-is-not-a-selection", _doc('{"s":{"untokenizedApplicationIdentifiers":["a"]}}'),
      A15, src, hand=out())
    # --- several ----------------------------------------------------------------------------------------------
    four = {"3F2A": dict(apps=APPS[:1]), "work": dict(cats=CATS[:2]), "night": dict(webs=WEBS[:3], iec=True),
            "kids": dict(apps=APPS[2:5], ua=["com.example.x"])}
    doc4 = '{"profiles":{' + ",".join(jstr(k) + ':{"name":' + jstr(k) + ',"selectedActivity":' + S(**kw) + "}"
                                      for k, kw in four.items()) + "}}"
    a("four-profiles", _doc(doc4), A15 + ["device-shaped"], src,
      hand=out(*[ok(f"/profiles/{k}/selectedActivity", **kw) for k, kw in four.items()]))
    for i, (name, badsel, code) in enumerate([("bad-token", BAD_TOKEN, "token"), ("bad-schema", BAD_SCHEMA, "schema"),
                                               ("repeated-key-inside", S(extra=[("webDomainTokens", "[]")]), "schema"),
                                               ("token-not-object", S(raw={"webDomainTokens": "[1]"}), "token")]):
        keys = list(four)
        bad_key = keys[i % 4]
        text = '{"profiles":{' + ",".join(
            jstr(k) + ':{"selectedActivity":' + (badsel if k == bad_key else S(**four[k])) + "}" for k in keys) + "}}"
        a(f"one-{name}-among-four-others-still-decode", _doc(text), A15 + ["malformed", "field-bug-9"],
          f"{S13}; SPEC §7.9",
          hand=out(*[bad(f"/profiles/{k}/selectedActivity", code) if k == bad_key
                     else ok(f"/profiles/{k}/selectedActivity", **four[k]) for k in keys]))
    a("all-selections-bad-each-answers", _doc('[' + BAD_TOKEN + "," + BAD_SCHEMA + "]"),
      A15 + ["malformed", "field-bug-9"], f"{S13}; SPEC §7.9", hand=out(bad("/0", "token"), bad("/1", "schema")))
    a("bad-selection-first-good-after", _doc('{"a":' + BAD_TOKEN + ',"b":' + S(apps=APPS[:1]) + "}"),
      A15 + ["malformed", "field-bug-9"], f"{S13}; SPEC §7.9", hand=out(bad("/a", "token"), ok("/b", apps=APPS[:1])))
    # --- nesting and paths ---------------------------------------------------------------------------------------
    a("selections-in-arrays-and-dicts", _doc('{"groups":[{"items":[' + S(apps=APPS[:1]) + ',{"x":' + S(webs=WEBS[:1])
                                             + '}]},[[' + S() + ']]]}'), A15, src,
      hand=out(ok("/groups/0/items/0", apps=APPS[:1]), ok("/groups/0/items/1/x", webs=WEBS[:1]), ok("/groups/1/0/0")))
    a("pointer-escapes-tilde-and-slash", _doc('{"a/b":{"m~n":' + S() + '},"~1":' + S() + '}'), A15, src,
      hand=out(ok("/a~1b/m~0n"), ok("/~01")))
    a("pointer-empty-key", _doc('{"":' + S() + "}"), A15, src, hand=out(ok("/")))
    a("pointer-unicode-key", _doc('{"profil\u00e9 \\ud83d\\ude00":' + S() + "}"), A15 + ["unicode"], src,
      hand=out(ok("/profil\u00e9 \U0001F600")))
    a("pointer-escaped-key-is-decoded", _doc('{"a\\u002fb\\u007e":' + S() + "}"), A15 + ["unicode"], src,
      hand=out(ok("/a~1b~0")))
    a("selection-inside-selection-not-searched", _doc('{"outer":' + S(apps=APPS[:1], extra=[
        ("nested", BAD_TOKEN), ("more", '[' + S() + ']')]) + "}"), A15, src, hand=out(ok("/outer", apps=APPS[:1])))
    a("document-order-depth-first", _doc('{"z":{"deep":' + S(cats=CATS[:1]) + '},"a":' + S() + "}"), A15, src,
      hand=out(ok("/z/deep", cats=CATS[:1]), ok("/a")))
    # --- document-level errors ---------------------------------------------------------------------------------
    a("repeated-key-outside-selections-is-schema", _doc('{"p":' + S() + ',"v":1,"v":2}'), A15 + ["malformed"], src,
      hand={"error": "schema"})
    a("repeated-key-deep-outside-is-schema", _doc('[{"meta":{"k":1,"k":1}},' + S() + "]"), A15 + ["malformed"], src,
      hand={"error": "schema"})
    a("repeated-profile-name-is-schema", _doc('{"profiles":{"a":' + S() + ',"a":' + S() + "}}"),
      A15 + ["malformed"], src, hand={"error": "schema"})
    a("json-error-beats-bad-selection", _doc('{"a":' + BAD_TOKEN + ',"b":tru}'), ["malformed", "precedence"], S13,
      hand={"error": "json"})
    a("json-error-beats-repeated-key", _doc('{"v":1,"v":2,"s":' + S() + ',}'), ["malformed", "precedence"], S13,
      hand={"error": "json"})
    a("not-utf8-is-json", {"format": "json-document", "data": b64(b'{"n":"\xff","s":' + S().encode() + b"}")},
      ["malformed", "unicode"], S13, hand={"error": "json"})
    a("byte-order-mark-is-json", {"format": "json-document", "data": b64(b"\xef\xbb\xbf" + S().encode())},
      ["malformed", "assumption"], f"{S13}; Assumption A4", hand={"error": "json"})
    a("trailing-data-is-json", _doc(S() + " []"), ["malformed"], S13, hand={"error": "json"})
    # depth from the document root: 29 wrapping objects put the selection at depth 30 and its token objects at 32
    wrap = lambda n, inner: '{"a":' * n + inner + "}" * n
    tok_sel = S(apps=APPS[:1])  # selection (d), token array (d+1), token object (d+2)
    a("depth-32-counted-from-document-root", _doc(wrap(29, tok_sel)), ["boundary", "hostile"] + A15, src,
      hand=out(ok("/a" * 29, apps=APPS[:1])))
    a("depth-33-counted-from-document-root", _doc(wrap(30, tok_sel)), ["boundary", "hostile", "malformed"], S13,
      hand={"error": "json"})
    # found by scripts/oracle-differential.py: empty siblings on the way down once kept their depth in the reference
    siblings = "".join(f'"e{i}":[],"o{i}":{{}},' for i in range(20))
    a("empty-siblings-add-no-depth", _doc(wrap(28, "{" + siblings + '"s":' + tok_sel + "}")),
      ["boundary", "hostile"] + A15, src, hand=out(ok("/a" * 28 + "/s", apps=APPS[:1])))
    a("empty-document-is-empty", {"format": "json-document", "data": ""}, ["malformed", "field-bug-11"],
      f"{S13}; SPEC §7.11", hand={"error": "empty"})
    a("whitespace-document-is-json", _doc(" \n"), ["malformed"], S13, hand={"error": "json"})
    for c in s.cases:  # every A15 case names the assumption in its source
        if "assumption" in c["tags"] and "Assumption" not in c["source"]:
            c["source"] += "; Assumption A15"
    return s


def encode_suite() -> SuiteBuilder:
    s = SuiteBuilder(
        "selection-encode", "selection.encode",
        GEN + "selection.encode (SPEC §5.2): the input stored string written in each format; an answer is judged by "
        "reading its base64/data member back in that format and comparing the canonical string (SPEC §5.3). "
        "A selection that does not decode answers its error, never \"\" (field bug 12).")
    a = s.add
    src = f"{S52}; {S53}; {S11}"
    sels = [
        ("empty", dict()),
        ("device-shaped", dict(apps=APPS[:3], cats=CATS[:2], webs=WEBS[:1])),
        ("entire-category", dict(cats=CATS[:5], iec=True)),
        ("untokenized", dict(apps=APPS[:1], ua=["com.example.b", "com.example.a"], uc=["games"], uw=["example.org/x"])),
        ("unicode-untokenized", dict(ua=["café", "😀", "日本語"])),
        ("fifty-tokens", dict(apps=dev_tokens("ea", 50))),
    ]
    for fmt in ("base64-json", "json", "binary-plist", "xml-plist", "base64-plist"):
        for label, kw in sels:
            a(f"{fmt}-{label}", {"selection": sel(**kw, shuffle="e" + label), "format": fmt},
              ["roundtrip"] + (["hostile"] if "fifty" in label else []) + (["unicode"] if "unicode" in label else []),
              src, hand={"output": {"canonical": canonical(**kw)}})
    a("binary-plist-duplicates-collapse", {"selection": sel([APPS[0], APPS[0], APPS[1]]), "format": "binary-plist"},
      ["roundtrip", "set-semantics"], src, hand={"output": {"canonical": canonical(APPS[:2])}})
    a("xml-plist-markup-characters-and-carriage-return", {"selection": sel(uw=["a/b&c<d>"], ua=["x\ry"]), "format": "xml-plist"},
      ["roundtrip"], src, hand={"output": {"canonical": canonical(uw=["a/b&c<d>"], ua=["x\ry"])}})
    # what XML cannot hold: `unencodable`, never "" (field bug 12); the other formats hold it
    for label, text in [("control-character", "a\u0001b"), ("nul", "\u0000"), ("fffe", "x\ufffe")]:
        a(f"xml-plist-unencodable-{label}", {"selection": sel(ua=[text]), "format": "xml-plist"},
          ["malformed", "field-bug-12", "unicode"], f"{S11}; Standard: XML 1.0 §2.2; SPEC §7.12",
          hand={"error": "unencodable"})
        for fmt in ("binary-plist", "json"):
            a(f"{fmt}-holds-what-xml-cannot-{label}", {"selection": sel(ua=[text]), "format": fmt},
              ["roundtrip", "unicode"], src, hand={"output": {"canonical": canonical(ua=[text])}})
    a("xml-plist-tab-and-line-feed-are-held", {"selection": sel(ua=["a\tb\nc"]), "format": "xml-plist"},
      ["roundtrip", "unicode", "boundary"], src, hand={"output": {"canonical": canonical(ua=["a\tb\nc"])}})
    # malformed inputs: the decoding error is the answer, never "" (field bug 12)
    bad = [("empty", "", "empty"), ("base64", "not base64!", "base64"), ("json", enc("{,}"), "json"),
           ("schema", enc("[]"), "schema"), ("token", enc(sel_json(raw={"applicationTokens": '[{"data":""}]'})), "token")]
    for fmt in ("base64-json", "json", "binary-plist", "xml-plist", "base64-plist"):
        for label, text, code in bad:
            a(f"{fmt}-malformed-{label}", {"selection": text, "format": fmt}, ["malformed", "field-bug-12"],
              f"{S52}; SPEC §7.12", hand={"error": code})
    BI = ["bad-input"]
    for name, inp, a16 in [
        ("bad-input-json-document", {"selection": EMPTY, "format": "json-document"}, True),
        ("bad-input-unknown-format", {"selection": EMPTY, "format": "plist"}, True),
        ("bad-input-format-missing", {"selection": EMPTY}, False),
        ("bad-input-format-number", {"selection": EMPTY, "format": 2}, False),
        ("bad-input-selection-missing", {"format": "json"}, False),
        ("bad-input-selection-number", {"selection": 5, "format": "json"}, False),
        ("bad-input-selection-null", {"selection": None, "format": "binary-plist"}, False),
    ]:
        a(name, inp, BI + (["assumption"] if a16 else []), f"{S52}" + ("; Assumption A16" if a16 else ""),
          hand={"error": "badInput"})
    return s


SUITES = [formats_suite, document_suite, encode_suite]
