#!/usr/bin/env bash
# Demonstrates the fuzz workflow end to end on a planted bug, in a throw-away copy of the repository (the
# checkout itself is never modified):
#   1. plants a force unwrap in the copy's base64 decoder, on the path for non-zero pad bits ("QR==");
#   2. `stc fuzz run selection-decode` from an EMPTY corpus (no seeds, no dictionary) finds the trap;
#   3. `stc fuzz add selection-decode <crash> --minimize` turns it into corpus/selection-decode/regressions/<hash>
#      and says it fails now;
#   4. `swift test --filter CorpusReplay` fails on it;
#   5. with the bug removed, `swift test --filter CorpusReplay` passes and the file stays as a regression guard.
# Prints the time of each step. Needs ~2 GB of disk and a few minutes (two debug builds and one fuzz build).
#   KEEP=1 keeps the copy; DEMO_DIR=/path chooses where it goes.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="${DEMO_DIR:-$(mktemp -d /tmp/stc-planted-bug.XXXXXX)}"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
export SWIFT_BACKTRACE=enable=no
t() { date +%s; }
begin=$(t)
step() { printf '\n==> [%4ds] %s\n' "$(( $(t) - begin ))" "$*"; }

step "copy the repository to $work/repo"
mkdir -p "$work/repo"
tar -C "$src" --exclude=./.build --exclude=./Fuzz/.build --exclude=./.git -cf - . | tar -C "$work/repo" -xf -
cd "$work/repo"
decoder=Sources/ScreenTimeSelection/Base64.swift
cp "$decoder" "$work/Base64.swift.orig"

step "plant the bug: a force unwrap when the pad bits are not zero"
python3 - "$decoder" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
old = "return DecodingFailure(reason: .padBits, offset: padStart - 1)"
new = ("let lastGood: Int? = nil  // PLANTED BUG (demo only)\n"
       "        return DecodingFailure(reason: .padBits, offset: lastGood!)")
assert s.count(old) == 1, "the decoder changed: update the demo's plant"
open(path, "w").write(s.replace(old, new))
PY
diff -u "$work/Base64.swift.orig" "$decoder" || true

step "build stc and the tests in the copy (debug)"
s=$(t); swift build --build-tests 2>&1 | tail -n 2; echo "  ($(( $(t) - s )) s)"
STC="$work/repo/.build/debug/stc"

step "fuzz selection-decode from an empty corpus (no seeds, no dictionary) until it crashes"
mkdir -p "$work/empty-corpus"
s=$(t)
set +e
"$STC" fuzz run selection-decode --corpus "$work/empty-corpus" --time 300 > "$work/run.out" 2> "$work/run.err"
status=$?
set -e
grep -E '^\$ |built in|instrumented|INITED|Fatal error|deadly signal|Test unit written' "$work/run.err" | sed 's/^/  /' | head -n 20
cat "$work/run.out"
built=$(grep -oE 'built in [0-9]+' "$work/run.err" | grep -oE '[0-9]+' || echo 0)
execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$work/run.err" | grep -oE '[0-9]+$' || echo '?')
echo "  exit $status; build ${built} s, then the crash after ${execs} executions, ~$(( $(t) - s - built )) s of fuzzing"
[ "$status" = 1 ] || { echo "demo: expected the fuzzer to find the planted crash" >&2; exit 1; }
add=$(grep -m1 'stc fuzz add selection-decode' "$work/run.out" | sed 's/^ *//')
artifact=$(printf '%s' "$add" | awk '{print $5}')
grep -E '^#[0-9]+' "$work/run.err" | tail -n 1 | sed 's/^/  last progress line: /'

step "turn it into a regression: $add"
s=$(t)
"$STC" fuzz add selection-decode "$artifact" --minimize --no-build 2>&1 | grep -vE '^\s*CRASH_MIN' | sed 's/^/  /'
echo "  ($(( $(t) - s )) s)"
for f in corpus/selection-decode/regressions/*; do echo "  regression file: $f ($(wc -c < "$f") bytes: $(head -c 60 "$f"))"; done

step "minimization on a bigger crasher: base64 of 299 bytes with non-zero pad bits (400 bytes)"
python3 -c "
import base64, random
r = random.Random(7)
text = base64.b64encode(bytes(r.randrange(256) for _ in range(299))).decode()   # 400 chars, ends in one '='
last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.index(text[-2])
text = text[:-2] + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[last | 1] + '='
open('$work/big-crash', 'w').write(text)
"
s=$(t)
"$STC" fuzz add selection-decode "$work/big-crash" --minimize --no-build 2>&1 | grep -E 'minimized|added|already|now fails|passes' | sed 's/^/  /'
echo "  ($(( $(t) - s )) s)"

step "swift test --filter CorpusReplay (with the bug): must fail"
s=$(t)
set +e
swift test --filter CorpusReplay > "$work/test-bug.out" 2>&1
status=$?
set -e
grep -E 'Fatal error|trapped|✘|error:|Test run|CorpusReplay' "$work/test-bug.out" | head -n 8 | sed 's/^/  /'
echo "  exit $status ($(( $(t) - s )) s)"
[ "$status" != 0 ] || { echo "demo: expected swift test to fail" >&2; exit 1; }

step "remove the planted bug; swift test --filter CorpusReplay must pass"
cp "$work/Base64.swift.orig" "$decoder"
s=$(t)
swift test --filter CorpusReplay > "$work/test-fixed.out" 2>&1 || { tail -n 30 "$work/test-fixed.out"; echo "demo: swift test failed without the bug" >&2; exit 1; }
grep -E '✔ Test run|passed|Executed' "$work/test-fixed.out" | tail -n 2 | sed 's/^/  /'
echo "  ($(( $(t) - s )) s)"
"$STC" fuzz replay selection-decode | sed 's/^/  /'

step "done: total $(( $(t) - begin )) s"
