#!/usr/bin/env python3
"""Writes the synthetic seed corpus of the selection fuzz targets (deterministic; never real device data).

corpus/selection-decode/<name>  stored strings (base64 of the JSON)
corpus/selection-json/<name>    the JSON itself
corpus/selection-plist/<name>   binary and XML property lists as PropertyListEncoder writes them (plistlib writes
                                the same layout), near-valid ones, and one per documented plist deviation; the
                                `ours-*` seeds are our writer's output, written by FuzzTargetTests
                                (PropertyListSeedTests, with STC_WRITE_PLIST_SEEDS=1)

Existing files are never overwritten: a seed whose name exists with other content is reported and skipped.
Run from the repository root: python3 scripts/make-selection-seeds.py
"""
import base64, json, os, random, sys

rng = random.Random(20261130)

def token(n, length=128):
    r = random.Random(n)
    return bytes(12) + bytes(r.randrange(256) for _ in range(length - 12)) if length == 128 else bytes(r.randrange(256) for _ in range(length))

def tok_json(b):
    return '{"data":"%s"}' % base64.b64encode(b).decode().replace("/", "\\/")

def selection(apps=(), cats=(), webs=(), entire=False, shuffle=True, extra=(), omit=()):
    def arr(ts):
        ts = list(ts)
        if shuffle: rng.shuffle(ts)
        return "[" + ",".join(tok_json(t) for t in ts) + "]"
    members = {
        "applicationTokens": arr(apps), "categoryTokens": arr(cats), "webDomainTokens": arr(webs),
        "includeEntireCategory": "true" if entire else "false",
        "untokenizedApplicationIdentifiers": "[]", "untokenizedCategoryIdentifiers": "[]",
        "untokenizedWebDomainIdentifiers": "[]",
    }
    items = [('"%s":%s' % (k, v)) for k, v in members.items() if k not in omit] + list(extra)
    if shuffle: rng.shuffle(items)
    return "{" + ",".join(items) + "}"

json_seeds = {
    "empty-selection": selection(),
    "device-shaped-1-category": selection(cats=[token(1)]),
    "device-shaped-13-categories": selection(cats=[token(i) for i in range(13)]),
    "device-shaped-13-categories-entire": selection(cats=[token(i) for i in range(13)], entire=True),
    "device-shaped-mixed-kinds": selection(apps=[token(20), token(21)], cats=[token(2)], webs=[token(30)]),
    "device-shaped-50-per-kind": selection(apps=[token(100 + i) for i in range(50)], cats=[token(200 + i) for i in range(50)], webs=[token(300 + i) for i in range(50)]),
    "duplicate-tokens": selection(apps=[token(5), token(5), token(6)]),
    "short-and-long-tokens": selection(apps=[token(7, 1), token(8, 16), token(9, 1024)]),
    "missing-include-entire": selection(cats=[token(3)], omit=("includeEntireCategory",)),
    "missing-untokenized": selection(omit=("untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers")),
    "untokenized-identifiers": selection(extra=()).replace('"untokenizedApplicationIdentifiers":[]', '"untokenizedApplicationIdentifiers":["com.example.app","caf\\u00e9\\/x"]'),
    "unknown-keys": selection(extra=('"future":{"a":[1,2.5e3,null,true]}', '"note":"x"')),
    "whitespace": '{ "applicationTokens" : [ ] ,\n "categoryTokens" : [ %s ] , "webDomainTokens":[]\t}' % tok_json(token(4)),
    # near-valid, one mutation away
    "schema-top-level-array": "[]",
    "schema-missing-array": '{"applicationTokens":[],"categoryTokens":[]}',
    "schema-include-entire-null": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"includeEntireCategory":null}',
    "schema-duplicate-key": '{"applicationTokens":[],"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]}',
    "schema-untokenized-number": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"untokenizedCategoryIdentifiers":[1]}',
    "token-not-object": '{"applicationTokens":[1],"categoryTokens":[],"webDomainTokens":[]}',
    "token-no-data": '{"applicationTokens":[{}],"categoryTokens":[],"webDomainTokens":[]}',
    "token-pad-bits": '{"applicationTokens":[{"data":"AB=="}],"categoryTokens":[],"webDomainTokens":[]}',
    "token-url-safe": '{"applicationTokens":[{"data":"-_8="}],"categoryTokens":[],"webDomainTokens":[]}',
    "json-trailing-comma": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],}',
    "json-deep": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"x":' + "[" * 40 + "]" * 40 + "}",
    "json-surrogates": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"x":"\\ud83d\\ude00\\ud800"}',
    "json-numbers": '{"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[],"x":[-0,0.5e-3,1E+9,01]}',
}

raw_decode_seeds = {
    "empty": b"",
    "not-base64": b"!!",
    "missing-padding": base64.b64encode(json_seeds["empty-selection"].encode()).rstrip(b"="),
    "trailing-newline": base64.b64encode(json_seeds["device-shaped-1-category"].encode()) + b"\n",
    "url-safe-alphabet": base64.urlsafe_b64encode(json_seeds["device-shaped-mixed-kinds"].encode()),
    "wrapped-lines": base64.encodebytes(json_seeds["device-shaped-1-category"].encode()).rstrip(b"\n"),
}

e3 = '"applicationTokens":[],"categoryTokens":[],"webDomainTokens":[]'
deviation_seeds = {  # one input per documented deviation of the differential target (Foundation accepts these)
    "deviation-non-canonical-base64": b"e31=",
    "deviation-bom": b"\xef\xbb\xbf{" + e3.encode() + b"}",
    "deviation-invalid-utf8": b'{' + e3.encode() + b',"x":"\xff"}',
    "deviation-lone-surrogate": ('{' + e3 + ',"x":"\\ud800"}').encode(),
    "deviation-control-character": ('{' + e3 + ',"x":"a\x01"}').encode(),
    "deviation-nesting-over-32": ('{' + e3 + ',"x":' + "[" * 40 + "]" * 40 + "}").encode(),
    "deviation-trailing-comma": ('{' + e3 + ',"x":[1,],}').encode(),
    "deviation-number-grammar": ('{' + e3 + ',"x":01}').encode(),
    "deviation-duplicate-key": ('{' + e3 + ',"applicationTokens":[]}').encode(),
    "deviation-null-member": ('{' + e3 + ',"includeEntireCategory":null}').encode(),
    "deviation-token-size": b'{"applicationTokens":[{"data":""}],"categoryTokens":[],"webDomainTokens":[]}',
}

def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() != data:
                print(f"kept existing {path} (differs from the generated seed)", file=sys.stderr)
        return 0
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return 1

written = 0
for name, text in json_seeds.items():
    data = text.encode()
    written += write("corpus/selection-json", name, data)
    written += write("corpus/selection-decode", name, base64.b64encode(data))
for name, data in raw_decode_seeds.items():
    written += write("corpus/selection-decode", name, data)
# The differential target reads stored strings too: the decode seeds, plus one example per deviation.
for name, text in json_seeds.items():
    written += write("corpus/selection-differential", name, base64.b64encode(text.encode()))
for name, data in deviation_seeds.items():
    written += write("corpus/selection-differential", name, data if name == "deviation-non-canonical-base64" else base64.b64encode(data))

# selection-plist: property lists. plistlib writes what PropertyListEncoder writes (bplist00 with 1-byte refs,
# each distinct string once; XML with the Apple DOCTYPE and tab indentation).
import plistlib, struct

def plist_selection(apps=(), cats=(), webs=(), entire=False, untok=(), omit=(), extra=None):
    d = {"applicationTokens": [{"data": t} for t in apps], "categoryTokens": [{"data": t} for t in cats],
         "webDomainTokens": [{"data": t} for t in webs], "includeEntireCategory": entire,
         "untokenizedApplicationIdentifiers": list(untok), "untokenizedCategoryIdentifiers": [],
         "untokenizedWebDomainIdentifiers": []}
    for k in omit: d.pop(k)
    d.update(extra or {})
    return d

plist_values = {
    "empty-selection": plist_selection(),
    "device-shaped-1-category": plist_selection(cats=[token(1)]),
    "device-shaped-13-categories-entire": plist_selection(cats=[token(i) for i in range(13)], entire=True),
    "device-shaped-mixed-kinds": plist_selection(apps=[token(20), token(21)], cats=[token(2)], webs=[token(30)]),
    "duplicate-tokens": plist_selection(apps=[token(5), token(5), token(6)]),
    "short-tokens": plist_selection(apps=[token(7, 1), token(8, 16)]),
    "missing-optional-members": plist_selection(cats=[token(3)], omit=("includeEntireCategory", "untokenizedApplicationIdentifiers", "untokenizedCategoryIdentifiers", "untokenizedWebDomainIdentifiers")),
    "untokenized-identifiers": plist_selection(untok=["com.example.app", "caf\u00e9 & <x>"]),
    "unknown-keys": plist_selection(extra={"future": {"a": [1, 2.5, True, b"x", "s"]}, "n": -7}),
    # near-valid: one schema or token rule away
    "schema-top-level-array": [],
    "schema-missing-array": {"applicationTokens": [], "categoryTokens": []},
    "token-data-as-string": plist_selection(apps=[]) | {"applicationTokens": [{"data": base64.b64encode(token(1)).decode()}]},
    "token-no-data": plist_selection() | {"applicationTokens": [{}]},
}
for name, value in plist_values.items():
    written += write("corpus/selection-plist", "bin-" + name, plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False))
    written += write("corpus/selection-plist", "xml-" + name, plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=False))

def bplist(objects, top=0, offset_size=1, ref_size=1, count=None, fix=None):
    """A bplist00 from encoded objects (references inside them are 1 byte), with the trailer's sizes given."""
    body, offsets = b"bplist00", []
    for o in objects:
        offsets.append(len(body))
        body += o
    if fix: offsets = fix(offsets)
    table = len(body)
    for o in offsets:
        body += o.to_bytes(offset_size, "big")
    return body + bytes(6) + bytes([offset_size, ref_size]) + struct.pack(">QQQ", count or len(objects), top, table)

def ascii_string(s):
    return bytes([0x50 | len(s)]) + s.encode() if len(s) < 15 else bytes([0x5F, 0x10, len(s)]) + s.encode()

empty3 = [bytes([0xD3, 1, 2, 3, 4, 4, 4]), ascii_string("applicationTokens"), ascii_string("categoryTokens"),
          ascii_string("webDomainTokens"), bytes([0xA0])]
def with_member(value):  # the three empty arrays plus "x" -> value (object 6)
    return [bytes([0xD4, 1, 2, 3, 5, 4, 4, 4, 6]), *empty3[1:], ascii_string("x"), value]
xml_head = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n'
def xml(members, head=xml_head):
    return (head + "<dict><key>applicationTokens</key><array/><key>categoryTokens</key><array/><key>webDomainTokens</key><array/>" + members + "</dict>\n</plist>\n").encode()

plist_deviations = {  # one input per documented deviation of selection-plist (PropertyListDeviation)
    "deviation-xml-byte-order-mark": b"\xef\xbb\xbf" + xml(""),
    "deviation-xml-comment": xml("<!-- a comment -->"),
    "deviation-xml-cdata": xml("<key>x</key><string><![CDATA[a<b]]></string>"),
    "deviation-xml-processing-instruction": xml("<?pi x?>"),
    "deviation-xml-doctype-placement": xml("", head=xml_head.replace("<plist", '<!DOCTYPE plist SYSTEM "x">\n<plist')),
    "deviation-xml-tag-spelling": xml('<key>x</key><string id="1">a</string>'),
    "deviation-xml-reference": xml("<key>x</key><string>&#x1;</string>"),
    "deviation-xml-character": xml("<key>x</key><string>a\x01b</string>"),
    "deviation-xml-stray-text": xml("").replace(b"</plist>\n", b"</plist>\nstray"),
    "deviation-xml-scalar-grammar": xml("<key>x</key><integer> 0x10 </integer>"),
    "deviation-xml-declared-encoding": xml("", head=xml_head.replace("UTF-8", "UTF-6")),
    "deviation-xml-line-end": xml("<key>untokenizedApplicationIdentifiers</key><array><string>a\rb</string></array>"),
    "deviation-xml-quoted-bracket": xml("", head=xml_head.replace('version="1.0">', 'version="-->">')),
    "deviation-non-canonical-base64": xml("<key>x</key><data>QR==</data>"),
    "deviation-xml-element-form": xml("<key>x</key><true></true>"),
    "deviation-binary-integer-sizes": bplist(empty3, offset_size=3),
    "deviation-binary-marker": bplist(with_member(bytes([0x00]))),
    "deviation-binary-layout": bplist(empty3 + [b"\x08"], fix=lambda o: o[:-1] + [3]),  # unreferenced, offset in the header
    "deviation-binary-string-content": bplist(with_member(bytes([0x51, 0xE9]))),
    "deviation-binary-integer-form": bplist(with_member(bytes([0x14]) + bytes([0, 0, 0, 0, 0, 0, 0, 1]) + bytes(8))),
    "deviation-duplicate-key": xml("<key>applicationTokens</key><array/>"),
    "deviation-token-size": xml("").replace(b"<key>applicationTokens</key><array/>", b"<key>applicationTokens</key><array><dict><key>data</key><data></data></dict></array>"),
    "deviation-limits": xml("<key>x</key>" + "<array>" * 40 + "</array>" * 40),
}
for name, data in plist_deviations.items():
    written += write("corpus/selection-plist", name, data)

# Every value kind the readers know, in a member the selection does not read: the writers' rewrite of the whole
# tree (PropertyListRewrite) and the date reader need them.
import datetime
values_member = {"when": datetime.datetime(2024, 2, 29, 21, 30, 5), "count": 300, "big": 1 << 40, "neg": -5,
                 "ratio": 0.1, "inf": float("inf"), "flag": False, "blob": b"\x00\xff", "text": "caf\u00e9 \U0001F600"}
for name, value in {"all-value-kinds": plist_selection(extra=values_member)}.items():
    written += write("corpus/selection-plist", "bin-" + name, plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=True))
    written += write("corpus/selection-plist", "xml-" + name, plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True))
written += write("corpus/selection-plist", "bin-uid-member", plistlib.dumps(
    plist_selection(extra={"ref": plistlib.UID(7)}), fmt=plistlib.FMT_BINARY))

# selection-json also reads its input as a JSON document (SPEC §1.3): documents holding selections.
one = json_seeds["device-shaped-mixed"] if "device-shaped-mixed" in json_seeds else next(iter(json_seeds.values()))
document_seeds = {
    "document-profiles": '{"3F2A":{"name":"Focus","selectedActivity":' + one + '},"8B1E":{"selectedActivity":' + one + '}}',
    "document-list": '[' + one + ',{"nested":{"s":' + one + '}},[],{}]',
    "document-pointer-escapes": '{"a/b":{"c~d":' + one + '}}',
    "document-bad-among-good": '{"a":' + one + ',"b":{"applicationTokens":[{"data":"AB=="}],"categoryTokens":[],"webDomainTokens":[]}}',
    "document-no-selection": '{"settings":{"theme":"dark","n":[1,2,3]}}',
}
for name, text in document_seeds.items():
    written += write("corpus/selection-json", name, text.encode())
print(f"{written} seed files written")
