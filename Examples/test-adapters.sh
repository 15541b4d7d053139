#!/usr/bin/env bash
# Smoke test of the example adapters against the adapter protocol (SPEC §5), without the Swift runner.
#
# Pipes hand-written requests into each adapter and checks that it answers every line, in order, with the
# request's id and a well-formed response; that it survives garbage; that it exits 0 at end of input; and that
# a few answers every implementation must agree on are right. Then pipes a few thousand requests (some of them
# over 1 MiB) through a slow reader, so that stdout backs up, and checks that every answer still arrives.
#
# Usage: Examples/test-adapters.sh            (from the repository root or anywhere)
# Needs: node, python3. Exits non-zero on any mismatch.
set -u

here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

adapters=(
  "node|node $here/node-adapter/adapter.mjs"
  "python|python3 $here/python-adapter/adapter.py"
)

# --- the requests, and what each answer must be --------------------------------------------------------------
# checks.jsonl holds one line per request: {"id": …, "expect": …} where expect is
#   {"kind": "output"|"error"|"unsupported"}            the response's shape only, or
#   {"error": CODE} / {"output": {member: value, …}}     also the values (output members not named are not compared), or
#   {"encoded": {"format": F, "sets": {…}}}              a selection.encode output that reads back as those sets, or
#   {"per_adapter": {NAME: expect, …}}                   one of the above for each adapter (plists: python only).
python3 - "$work" <<'EOF'
import base64, json, os, sys
work = sys.argv[1]

def token(seed):
    # Synthetic device-like token: 128 bytes, the first 12 zero. Byte 0xFF/0xFE runs make '/' appear in the base64.
    body = bytes([0xFF, 0xFE, 0xFF]) * 2 + bytes((seed * 31 + i * 17) % 256 for i in range(110))
    return {"data": base64.b64encode(bytes(12) + body).decode()}

def encode_like_ios(obj):
    # JSONEncoder: no whitespace, '/' written '\/'; keys in whatever order (here: not sorted, on purpose).
    return base64.b64encode(json.dumps(obj, separators=(",", ":")).replace("/", "\\/").encode()).decode()

a1, a2, c1, w1 = token(1), token(2), token(3), token(4)
assert all("/" in t["data"] for t in (a1, a2, c1, w1))
selection = {  # keys out of order, a duplicate application token
    "webDomainTokens": [w1], "includeEntireCategory": False, "applicationTokens": [a2, a1, a2],
    "untokenizedWebDomainIdentifiers": [], "categoryTokens": [c1],
    "untokenizedApplicationIdentifiers": [], "untokenizedCategoryIdentifiers": [],
}
stored = encode_like_ios(selection)

def canonical_of(apps, cats, webs, entire):
    keys = {
        "applicationTokens": [{"data": d} for d in sorted(apps)],
        "categoryTokens": [{"data": d} for d in sorted(cats)],
        "includeEntireCategory": entire,
        "untokenizedApplicationIdentifiers": [], "untokenizedCategoryIdentifiers": [],
        "untokenizedWebDomainIdentifiers": [],
        "webDomainTokens": [{"data": d} for d in sorted(webs)],
    }
    text = json.dumps(keys, separators=(",", ":"), sort_keys=True).replace("/", "\\/")
    return base64.b64encode(text.encode()).decode()

canonical = canonical_of([a1["data"], a2["data"]], [c1["data"]], [w1["data"]], False)
reordered = encode_like_ios({**selection, "applicationTokens": [a1, a2]})
only_a1 = encode_like_ios({**selection, "applicationTokens": [a1], "categoryTokens": [], "webDomainTokens": []})

requests, checks = [], []
def add(line, id, expect):
    requests.append(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False))
    checks.append({"id": id, "expect": expect})
def req(id, op, input, expect, **extra):
    r = {"id": id, "op": op, **extra}
    if input is not None:
        r["input"] = input
    add(r, id, expect)

add("this is not json", None, {"error": "protocol"})
req(1, "selection.decode", {"base64": stored}, {"output": {
    "applications": 2, "categories": 1, "webDomains": 1, "includeEntireCategory": False, "canonical": canonical}})
add("[1, 2, 3]", None, {"error": "protocol"})
req("two", "no.such.op", {}, {"kind": "unsupported"})
req(3, "selection.decode", None, {"error": "badInput"})                     # input missing
req(4, "url.encode", {"text": 42}, {"error": "badInput"})                   # member mistyped
req(5, "url.encode", {"text": "Café & Co"}, {"output": {"encoded": "Caf%C3%A9%20%26%20Co"}})
add("{\"id\": 6, \"op\": \"url.encode\", \"input\": {\"text\": ", None, {"error": "protocol"})  # truncated line
req(7, "url.decode", {"encoded": "Caf%C3%A9%20%26%20Co"}, {"output": {"text": "Café & Co"}})
req(8, "url.decode", {"encoded": "%C3%28"}, {"error": "invalidUTF8"})
req(9, "selection.decode", {"base64": ""}, {"error": "empty"})
req(10, "selection.decode", {"base64": "not base64!"}, {"error": "base64"})
req(11, "selection.decode", {"base64": base64.b64encode(b"[]").decode()}, {"error": "schema"})
req(12, "selection.equal", {"a": stored, "b": reordered}, {"output": {"equal": True}})
req(13, "selection.equal", {"a": stored, "b": only_a1}, {"output": {"equal": False}})
req(14, "selection.order", {"base64": stored, "kind": "application"},
    {"output": {"tokens": sorted([a1["data"], a2["data"]])}})
req(15, "selection.order", {"base64": stored, "kind": "everything"}, {"error": "badInput"})
req(16, "selection.combine", {"op": "difference", "a": stored, "b": only_a1}, {"output": {
    "applications": 1, "categories": 1, "webDomains": 1,
    "canonical": canonical_of([a2["data"]], [c1["data"]], [w1["data"]], False)}})
req(17, "template.render", {"template": "{appName|This app} is blocked", "values": {"appName": None}},
    {"output": {"text": "This app is blocked", "missing": ["appName"]}})
req(18, "shield.evaluate", {"stores": [], "activity": {}}, {"kind": "unsupported"})
req(19, "auth.policy", {"observations": []}, {"kind": "unsupported"})
add("", None, {"error": "protocol"})                                          # empty line
add("\u0000\u00ff garbage \u2603", None, {"error": "protocol"})
req(None, "url.encode", {"text": "x"}, {"output": {"encoded": "x"}})         # null id echoed as null
req({"nested": [1]}, "url.encode", {"text": "y"}, {"output": {"encoded": "y"}})  # any JSON id echoed
add(json.dumps({"op": "url.encode", "input": {"text": "z"}}), None, {"output": {"encoded": "z"}})  # no id: null
req(20, "selection.decode", {"base64": "A" * (1024 * 1024 + 4)}, {"error": "tooLarge"})
req(21, "url.encode", {"text": "still alive"}, {"output": {"encoded": "still%20alive"}})

# Storage formats (SPEC §1.1-§1.3, §5.2): selection.decode with `format`, selection.encode. The property lists
# are python's only (node answers unsupported: no plist library in Node's standard library).
import plistlib
def b64(raw):
    return base64.b64encode(raw).decode()
selection_json = base64.b64decode(stored)
as_plist = {**selection, "applicationTokens": [{"data": base64.b64decode(t["data"])} for t in (a2, a1)],
            "categoryTokens": [{"data": base64.b64decode(c1["data"])}],
            "webDomainTokens": [{"data": base64.b64decode(w1["data"])}]}
decoded = {"applications": 2, "categories": 1, "webDomains": 1, "includeEntireCategory": False, "canonical": canonical}
plist_only = lambda expect: {"per_adapter": {"node": {"kind": "unsupported"}, "python": expect}}
req(30, "selection.decode", {"format": "base64-json", "base64": stored}, {"output": decoded})
req(31, "selection.decode", {"format": "json", "data": b64(selection_json)}, {"output": decoded})
req(32, "selection.decode", {"format": "json", "data": b64(b"[]")}, {"error": "schema"})  # field bug 10's "[]"
req(33, "selection.decode", {"format": "json", "data": ""}, {"error": "empty"})
req(34, "selection.decode", {"format": "yaml", "data": ""}, {"error": "badInput"})
bad_profile = {"applicationTokens": [{"data": 7}], "categoryTokens": [], "webDomainTokens": []}
document = {"version": 2, "profiles": {"a/b~c": {"selection": selection}, "home": {"selection": bad_profile}}}
req(35, "selection.decode", {"format": "json-document", "data": b64(json.dumps(document).encode())},
    {"output": {"selections": [{"path": "/profiles/a~1b~0c/selection", **decoded},
                               {"path": "/profiles/home/selection", "error": "token"}]}})
req(36, "selection.decode", {"format": "json-document", "data": b64(b'{"none": [1, {"here": true}]}')},
    {"output": {"selections": []}})
req(37, "selection.decode", {"format": "binary-plist", "data": b64(plistlib.dumps(as_plist, fmt=plistlib.FMT_BINARY))},
    plist_only({"output": decoded}))
req(38, "selection.decode", {"format": "xml-plist", "data": b64(plistlib.dumps(as_plist, fmt=plistlib.FMT_XML))},
    plist_only({"output": decoded}))
req(39, "selection.decode", {"format": "base64-plist", "base64": b64(plistlib.dumps(as_plist))},
    plist_only({"output": decoded}))
req(40, "selection.decode", {"format": "binary-plist", "data": b64(b"bplist00")}, plist_only({"error": "plist"}))
sets = {"applicationTokens": sorted([a1["data"], a2["data"]]), "categoryTokens": [c1["data"]],
        "webDomainTokens": [w1["data"]], "includeEntireCategory": False}
for n, fmt in enumerate(["base64-json", "json", "binary-plist", "xml-plist", "base64-plist"]):
    expect = {"encoded": {"format": fmt, "sets": sets}}
    req(41 + n, "selection.encode", {"selection": stored, "format": fmt}, expect if "plist" not in fmt else plist_only(expect))
req(46, "selection.encode", {"selection": "", "format": "json"}, {"error": "empty"})
req(47, "selection.encode", {"selection": stored, "format": "json-document"}, {"error": "badInput"})
req(48, "selection.encode", {"selection": stored}, {"error": "badInput"})  # format is required

with open(os.path.join(work, "requests.jsonl"), "w", encoding="utf-8") as f:
    f.write("\n".join(requests) + "\n")
with open(os.path.join(work, "checks.jsonl"), "w", encoding="utf-8") as f:
    f.write("\n".join(json.dumps(c) for c in checks) + "\n")

# Volume: 3000 requests, every 500th a >1 MiB string, answered through a reader that starts late.
with open(os.path.join(work, "volume.jsonl"), "w", encoding="utf-8") as f:
    for i in range(3000):
        if i % 500 == 0:
            f.write(json.dumps({"id": i, "op": "selection.decode", "input": {"base64": "A" * (1024 * 1024 + 4)}}) + "\n")
        else:
            f.write(json.dumps({"id": i, "op": "selection.decode", "input": {"base64": stored}}) + "\n")
EOF
[ -s "$work/requests.jsonl" ] || { echo "FAIL: could not build the requests"; exit 1; }

# --- the checker --------------------------------------------------------------------------------------------
cat > "$work/check.py" <<'EOF'
import base64, json, plistlib, sys
checks_path, responses_path, name = sys.argv[1], sys.argv[2], sys.argv[3]

def read_back(fmt, out):
    """The sets of a selection.encode output, read with json / plistlib (a smoke test, not the strict reader)."""
    raw = base64.b64decode(out["base64"] if fmt in ("base64-json", "base64-plist") else out["data"], validate=True)
    root = json.loads(raw) if fmt in ("base64-json", "json") else plistlib.loads(raw)
    as_text = lambda d: d if isinstance(d, str) else base64.b64encode(d).decode()
    sets = {k: sorted({as_text(t["data"]) for t in root[k]})
            for k in ("applicationTokens", "categoryTokens", "webDomainTokens")}
    sets["includeEntireCategory"] = root.get("includeEntireCategory", False)
    return sets
checks = [json.loads(l) for l in open(checks_path, encoding="utf-8")]
lines = open(responses_path, encoding="utf-8", errors="replace").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
problems = []
if len(lines) != len(checks):
    problems.append(f"{len(checks)} requests but {len(lines)} response lines")
for n, (check, line) in enumerate(zip(checks, lines), 1):
    where = f"line {n}"
    try:
        r = json.loads(line)
    except ValueError:
        problems.append(f"{where}: not JSON: {line[:120]!r}")
        continue
    if not isinstance(r, dict) or "id" not in r:
        problems.append(f"{where}: not an object with an id: {line[:120]!r}")
        continue
    if r["id"] != check["id"]:
        problems.append(f"{where}: id {r['id']!r}, expected {check['id']!r}")
    shapes = [k for k in ("output", "error", "unsupported") if k in r]
    if len(shapes) != 1 or set(r) != {"id", shapes[0]}:
        problems.append(f"{where}: malformed response {line[:120]!r}")
        continue
    kind = shapes[0]
    if kind == "unsupported" and r["unsupported"] is not True:
        problems.append(f"{where}: unsupported must be true")
    if kind == "error" and not isinstance(r["error"], str):
        problems.append(f"{where}: error must be a string")
    if kind == "output" and not isinstance(r["output"], dict):
        problems.append(f"{where}: output must be an object")
    expect = check["expect"]
    expect = expect.get("per_adapter", {}).get(name, expect) if "per_adapter" in expect else expect
    if "encoded" in expect:
        try:
            sets = read_back(expect["encoded"]["format"], r["output"])
        except Exception as error:  # noqa: BLE001
            problems.append(f"{where}: the encode answer does not read back: {error!r}: {line[:160]}")
        else:
            if sets != expect["encoded"]["sets"]:
                problems.append(f"{where}: the encode answer reads back as {sets}")
    if "kind" in expect and expect["kind"] != kind:
        problems.append(f"{where}: {kind}, expected {expect['kind']}: {line[:120]}")
    if "error" in expect and r.get("error") != expect["error"]:
        problems.append(f"{where}: expected error {expect['error']!r}, got {line[:160]}")
    if "output" in expect:
        out = r.get("output")
        if not isinstance(out, dict):
            problems.append(f"{where}: expected an output, got {line[:160]}")
        else:
            for k, v in expect["output"].items():
                if k not in out or out[k] != v or type(out[k]) is not type(v):
                    problems.append(f"{where}: output.{k} = {out.get(k)!r}, expected {v!r}")
for p in problems:
    print(f"  {name}: {p}")
sys.exit(1 if problems else 0)
EOF

cat > "$work/check_volume.py" <<'EOF'
import json, sys, time
time.sleep(2)  # let the adapter's stdout pipe fill up first
count = 0
for line in sys.stdin:
    try:
        r = json.loads(line)
    except ValueError:
        print(f"  volume: answer {count} is not JSON", file=sys.stderr)
        sys.exit(1)
    if r.get("id") != count:
        print(f"  volume: answer {count} has id {r.get('id')!r}", file=sys.stderr)
        sys.exit(1)
    expected = "tooLarge" if count % 500 == 0 else None
    if r.get("error") != expected:
        print(f"  volume: answer {count} is {line[:100]}", file=sys.stderr)
        sys.exit(1)
    count += 1
print(count)
EOF

# --- run ----------------------------------------------------------------------------------------------------
failures=0
summary=()
for entry in "${adapters[@]}"; do
  name="${entry%%|*}"
  command="${entry#*|}"
  ok=1

  timeout 60 $command < "$work/requests.jsonl" > "$work/$name.out" 2> "$work/$name.err"
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "  $name: exit status $status at end of input (expected 0)"
    sed 's/^/    stderr: /' "$work/$name.err" | head -20
    ok=0
  fi
  python3 "$work/check.py" "$work/checks.jsonl" "$work/$name.out" "$name" || ok=0

  expected_count=$(wc -l < "$work/volume.jsonl")
  got_count=$(timeout 120 $command < "$work/volume.jsonl" 2> "$work/$name.volume.err" | python3 "$work/check_volume.py")
  volume_status=("${PIPESTATUS[@]}")
  if [ "${volume_status[0]}" -ne 0 ] || [ "$got_count" != "$expected_count" ]; then
    echo "  $name: volume test: $got_count of $expected_count answers, exit status ${volume_status[0]}"
    ok=0
  fi

  if [ "$ok" -eq 1 ]; then
    summary+=("$name ok")
  else
    summary+=("$name FAILED")
    failures=$((failures + 1))
  fi
done

requests=$(wc -l < "$work/requests.jsonl")
if [ "$failures" -eq 0 ]; then
  echo "PASS: ${#adapters[@]} adapters answered $requests protocol requests each (and $(wc -l < "$work/volume.jsonl") under backpressure): ${summary[*]}"
  exit 0
else
  echo "FAIL: $failures of ${#adapters[@]} adapters: ${summary[*]}"
  exit 1
fi
