#!/usr/bin/env bash
# Checks `swift package stc …` the way a user of this package meets it (called by .ci/run): a scratch package in a
# temporary directory, outside this repository, depends on this one by path and has no copy of it. The command
# plugin builds stc from the dependency and runs it in the scratch package, so it must run every shipped vector
# (built into stc), run an adapter given by a path relative to the scratch package, write a report there, pass
# other commands through, and fail when stc fails. The scratch package has its own .build, so nothing here waits
# on this package's build lock. Exits non-zero on the first failure; removes the scratch package either way.
#
#   KEEP_SCRATCH=1   keep the scratch package (its path is printed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/stc-plugin-check.XXXXXX")
cleanup() {
  if [ "${KEEP_SCRATCH:-0}" = 1 ]; then echo "check-plugin: kept $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
fail() { printf 'check-plugin: FAILED: %s\n' "$*" >&2; exit 1; }
# run COMMAND…: its output (`swift package` prints stc's standard output and error both on its standard output)
# goes to $log; a non-zero exit fails the check.
run() {
  local status=0
  "$@" > "$log" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { cat "$log"; fail "$* exited $status"; }
}
expect() {  # expect REGEX WHAT: $log has a line matching REGEX, or the check fails saying WHAT is missing
  grep -Eq "$1" "$log" || { cat "$log"; fail "$2"; }
}

# The shipped vectors as files: what a plain `stc conformance` must report.
# kit_cases: those of the two operations the scratch package's kit test has closures for.
read -r suites cases kit_cases < <(python3 - corpus/conformance <<'EOF'
import json, pathlib, sys
files = sorted(p for p in pathlib.Path(sys.argv[1]).glob("*.json") if not p.name.startswith("."))
cases = [c for p in files for c in json.loads(p.read_bytes())["cases"]]
print(len(files), len(cases), sum(c["op"] in ("selection.equal", "url.encode") for c in cases))
EOF
)

mkdir -p "$scratch/Sources/App" "$scratch/Tests/AppTests"
cat > "$scratch/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "$root")],
    targets: [
        .target(name: "App"),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", .product(name: "ScreenTimeTesting", package: "$(basename "$root")")]),
    ]
)
EOF
cat > "$scratch/Sources/App/App.swift" <<'EOF'
/// A deep-link component encoder with a form-encoding habit: a space becomes `+`, not `%20` (SPEC §4).
public func encodeComponent(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: " "): out += "+"
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
    }
    return out
}
EOF
# The user's whole test file (the issue's bar: at most 30 lines).
cat > "$scratch/Tests/AppTests/AppTests.swift" <<'EOF'
import App
import ScreenTimeTesting
import Testing
import XCTest

let app = ScreenTimeImplementation(
    name: "ScratchApp",
    selectionsEqual: { a, b in a == b },  // field bug 3: the stored strings compared, not the selections
    encodeURLComponent: { encodeComponent($0) })

@Test func shippedVectors() { ConformanceCheck().verify(app) }

@Test func generatedCases() { ExplorationCheck(cases: 2_000, seed: 1).verify(app) }

// The same verb in XCTest records XCTFail.
final class AppXCTests: XCTestCase {
    func testURLEncoding() { ConformanceCheck(operations: [.urlEncode]).verify(app) }
}
EOF
cp Examples/python-adapter/adapter.py "$scratch/adapter.py"
cp Examples/python-adapter/expected-failures.txt "$scratch/expected-failures.txt"
cd "$scratch"
log=$scratch/log.txt

echo "scratch package: $scratch (depends on $root)"
t0=$SECONDS
run swift package stc conformance
expect "^stc conformance: $suites suite\(s\), $cases case\(s\)" "$suites suites and $cases cases"
expect "^vectors: shipped \($suites suite files built into stc" "the vectors: shipped line"
expect "^  all +$cases +0 +0 +0 +0 +0 +0 +$cases\$" "all $cases cases passing"
expect "^OK: every case passed" "the OK verdict"
echo "ok: swift package stc conformance: $suites suites, $cases cases, all pass (stc built and run in $((SECONDS - t0)) s)"

# An adapter with its deviations listed, and a report in the scratch package (the permission the sandbox needs on
# macOS; SwiftPM has no plugin sandbox on Linux).
run swift package --allow-writing-to-package-directory stc conformance --no-reference \
  --adapter 'python3 adapter.py' --name python --expect-failures expected-failures.txt --json report.json
expect "^== python \(python3 adapter.py\): OK" "the adapter's OK"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["implementations"][0]["name"] == "python"' \
  report.json || fail "no report.json from the adapter run in the scratch package"
echo "ok: swift package stc conformance --adapter 'python3 adapter.py' --expect-failures …: OK, report.json written"

# Without its expected failures the same adapter fails, and so does the command.
if swift package stc conformance --no-reference --adapter 'python3 adapter.py' --name python --quiet > "$log" 2>&1; then
  cat "$log"; fail "a failing conformance run exited 0"
fi
expect "^python: FAILED" "the adapter's failures"
echo "ok: a failing run fails swift package (the adapter's deviations, unlisted)"

# The kit in the scratch package's own swift test: every shipped vector of the operations it has closures for and
# a generated check; the run fails and reports each deviation with its case id and difference, through Swift
# Testing and through XCTest alike, and nothing in the user's code warns (no deprecated spelling).
lines=$(wc -l < "$scratch/Tests/AppTests/AppTests.swift")
[ "$lines" -le 30 ] || fail "the kit's test file has $lines lines (at most 30)"
if swift test > "$log" 2>&1; then cat "$log"; fail "the scratch package's swift test passed with two deviations"; fi
expect "ScratchApp, shipped vectors in process: FAILED" "the kit's summary"
expect "^ +all +[0-9]+ +[0-9]+ .* $kit_cases\$" "all $kit_cases shipped cases of its two operations in the kit's summary"
expect "FAIL url-encode/[^ ]+ +\[url\.encode\]" "a url-encode case id"
expect "FAIL selection-equal/[^ ]+ +\[selection\.equal\]" "a selection-equal case id"
expect 'expected "[^"]*%20[^"]*", got "[^"]*\+' "the url-encode difference (%20 expected, + answered)"
expect "ScratchApp, generated cases in process: FOUND — 2000 cases \(seed 1\), [1-9][0-9]* finding" "the generated check's findings"
expect "AppXCTests.testURLEncoding.*failed - ScratchApp, shipped vectors in process: FAILED" "the XCTest failure"
expect "AppXCTests.testURLEncoding.*failed - FAIL url-encode/[^ ]+ +\[url\.encode\]" "a url-encode case id in XCTest"
if grep -E "AppTests\.swift:[0-9]+:[0-9]+: warning" "$log"; then fail "the kit's test file warns"; fi
echo "ok: swift test in the scratch package: the kit ($lines-line test file) reports both deviations by case id"

# Other commands pass through.
run swift package stc check --list
expect "^selection\." "a property in stc check --list"
echo "ok: swift package stc check --list"
echo "check-plugin: OK"
