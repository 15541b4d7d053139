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
read -r suites cases < <(python3 - corpus/conformance <<'EOF'
import json, pathlib, sys
files = sorted(p for p in pathlib.Path(sys.argv[1]).glob("*.json") if not p.name.startswith("."))
print(len(files), sum(len(json.loads(p.read_bytes())["cases"]) for p in files))
EOF
)

mkdir -p "$scratch/Sources/App"
cat > "$scratch/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "App")]
)
EOF
echo 'public let answer = 42' > "$scratch/Sources/App/App.swift"
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

# Other commands pass through.
run swift package stc check --list
expect "^selection\." "a property in stc check --list"
echo "ok: swift package stc check --list"
echo "check-plugin: OK"
