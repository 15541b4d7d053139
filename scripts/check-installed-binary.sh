#!/usr/bin/env bash
# Checks that a release stc runs its main job alone (called by .ci/run): the binary is copied by itself into an
# empty temporary directory, as an installer would put it, and run there with a bare environment, with no package,
# corpus/ or .build/ around it. `stc conformance` must run every shipped vector (built into the binary) and pass
# them all. Exits non-zero on failure; removes the directory either way.
#
#   scripts/check-installed-binary.sh [STC]   STC: a release stc to check (default: builds .build/release/stc)
#
# The copy still loads the Swift runtime and Foundation from the toolchain it was built with (its RUNPATH); a
# binary for machines without a toolchain needs `swift build -c release --static-swift-stdlib`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
  stc=$1
else
  swift build -c release --product stc 2>&1 | tail -n 1
  stc=.build/release/stc
fi
[ -x "$stc" ] || { echo "check-installed-binary: no executable at $stc" >&2; exit 2; }

# The shipped vectors as files: what the copy must report.
read -r suites cases < <(python3 - corpus/conformance <<'EOF'
import json, pathlib, sys
files = sorted(p for p in pathlib.Path(sys.argv[1]).glob("*.json") if not p.name.startswith("."))
print(len(files), sum(len(json.loads(p.read_bytes())["cases"]) for p in files))
EOF
)

dir=$(mktemp -d "${TMPDIR:-/tmp}/stc-installed.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cp "$stc" "$dir/stc"
cd "$dir"
echo "copied $stc alone to $dir: $(ls -A | tr '\n' ' ')"
fail() { printf '%s\ncheck-installed-binary: FAILED: %s\n' "$out" "$*" >&2; exit 1; }
set +e
out=$(env -i PATH=/usr/bin:/bin HOME="$dir" ./stc conformance 2>&1)
status=$?
set -e
[ "$status" -eq 0 ] || fail "stc conformance exited $status"
grep -q "^stc conformance: $suites suite(s), $cases case(s)" <<< "$out" || fail "not $suites suites and $cases cases"
grep -q "^vectors: shipped ($suites suite files built into stc" <<< "$out" || fail "no vectors: shipped line"
grep -Eq "^  all +$cases +0 +0 +0 +0 +0 +0 +$cases$" <<< "$out" || fail "not all $cases cases passed"
grep -q "^OK: every case passed" <<< "$out" || fail "no OK verdict"
grep -E "^(stc conformance:|vectors:|== reference|  all )" <<< "$out"
echo "check-installed-binary: OK: the copy alone ran all $cases shipped cases ($suites suites), exit 0"
