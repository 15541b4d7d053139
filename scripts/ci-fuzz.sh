#!/usr/bin/env bash
# CI fuzz step (called by .ci/run): builds the libFuzzer binaries, checks each is instrumented, replays the whole
# corpus with the real binaries, then fuzzes every target briefly. Exits non-zero on any failure and prints the
# command that turns a crash into a regression file.
#
#   FUZZ_SECONDS=30   seconds of fuzzing per target (0 skips fuzzing; the replay still runs)
#   FUZZ_JOBS=N       parallel fuzzing processes per target (default: the number of cores, at most 4; the step is
#                     alone on the machine, so two cores fuzz twice as much in the same 30 s)
#   FUZZ_TARGETS="url template"   only these targets (default: every target `stc fuzz list` names)
#
# Plain output (no colours, no carriage returns), so it reads the same in a CI log as in a terminal.
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
cores=$(nproc 2>/dev/null || echo 1)
FUZZ_JOBS="${FUZZ_JOBS:-$(( cores < 4 ? cores : 4 ))}"
started=$SECONDS
step() { printf '\n==> %s\n' "$*"; }
fail() { printf 'ci-fuzz: %s\n' "$*" >&2; failures+=("$*"); }
failures=()

step "stc"
if ! swift build --product stc > /tmp/ci-fuzz-stc.log 2>&1; then
  tail -n 30 /tmp/ci-fuzz-stc.log
  echo "ci-fuzz: cannot build stc" >&2
  exit 2
fi
STC=.build/debug/stc
targets="${FUZZ_TARGETS:-$($STC fuzz list | cut -f1)}"
echo "targets: $(echo $targets)"

step "build the fuzzers and check they are instrumented"
# The same build as `stc fuzz run` (it prints the command): ASan everywhere, libFuzzer's coverage instrumentation
# on the modules Package.swift's table marks. Each binary must report its coverage counters.
t0=$SECONDS
if ! $STC fuzz build; then
  echo "ci-fuzz: the fuzz build failed, or a binary is not instrumented" >&2
  exit 2
fi
echo "built in $((SECONDS - t0)) s"

step "check each module's objects against the manifest"
# `stc fuzz modules` reads Package.swift's module table through `swift package dump-package`: which modules get
# coverage instrumentation (and never comparison tracing) and which keep ASan's fake stack frames
# (stack-use-after-return detection). Every module this build compiled is checked against it; a module outside
# the fuzz build has no objects here. Only the objects of a module's current sources are read (a build dir may keep
# objects of removed files), and grep -c reads all of nm's output (with -q, nm could die of SIGPIPE, and pipefail
# would call that a miss).
objects=Fuzz/.build/release
symbols() {  # symbols() MODULE PATTERN: how many of the module's symbols match
  find "Sources/$1" -name '*.swift' -printf "$objects/$1.build/%f.o\n" | xargs nm 2>/dev/null | grep -c "$2"
}
stale="stale from a build with other flags, which SwiftPM does not recompile: rm -rf Fuzz/.build/release"
modules=$($STC fuzz modules) || { echo "ci-fuzz: cannot read the module table" >&2; exit 2; }
checked=0
while IFS=$'\t' read -r m coverage frames; do
  compgen -G "$objects/$m.build/*.o" > /dev/null || continue  # SwiftPM makes a directory for every module
  checked=$((checked + 1))
  counters=$(symbols "$m" '__sanitizer_cov_8bit_counters_init')
  if [ "$coverage" = coverage ]; then
    [ "$counters" -gt 0 ] || fail "$m: no coverage instrumentation, though Package.swift gives it ($stale)"
    [ "$(symbols "$m" '__sanitizer_cov_trace_.*cmp')" -eq 0 ] || fail "$m: objects with comparison tracing ($stale)"
  else
    [ "$counters" -eq 0 ] || fail "$m: coverage instrumentation where Package.swift gives none ($stale)"
  fi
  fake=$(symbols "$m" '__asan_stack_malloc_')
  if [ "$frames" = fake-frames ]; then
    [ "$fake" -gt 0 ] || fail "$m: no fake stack frames, though Package.swift keeps them ($stale)"
  else
    [ "$fake" -eq 0 ] || fail "$m: fake stack frames where Package.swift turns them off ($stale)"
  fi
done <<< "$modules"
[ "$checked" -gt 0 ] || fail "no module objects found under $objects"
[ ${#failures[@]} -eq 0 ] && echo "$checked modules: coverage instrumentation and fake stack frames exactly where Package.swift puts them"
[ ${#failures[@]} -eq 0 ] || { printf '\nci-fuzz: FAILED\n'; printf '  %s\n' "${failures[@]}"; exit 1; }

step "replay the corpus with the fuzzer binaries (-runs=0 over corpus/<t>/ and regressions/)"
# shellcheck disable=SC2086
for t in $targets; do
  $STC fuzz replay "$t" --binary --no-build || fail "$t: the corpus replay failed (see above)"
done

# crashes TARGET LOG: one line per crashing input that `stc fuzz run` reported in LOG, with the log's first failure
# message and the input itself in base64, so that the summary at the end of a CI log (often all a reader sees) says everything needed
# to reproduce it: `echo BASE64 | base64 -d > crash; stc fuzz add TARGET crash`.
crashes() {
  local what input
  what=$(grep -m1 -E 'invariant failed|ERROR: AddressSanitizer|Fatal error|ERROR: libFuzzer' "$2" | cut -c1-300)
  grep -oE "^$1: crashing input [^ ]+" "$2" | cut -d' ' -f4 | sort -u | while read -r input; do
    echo "$1: fuzzing found a crash (first failure in the log: ${what:-see above}); input $input ($(wc -c < "$input") bytes), base64" \
      "$(head -c 3000 "$input" | base64 -w0); keep it: stc fuzz add $1 $input --minimize"
  done
}

if [ "$FUZZ_SECONDS" -gt 0 ]; then
  for t in $targets; do
    step "fuzz $t for ${FUZZ_SECONDS} s, $FUZZ_JOBS job(s)"
    log=$(mktemp)
    $STC fuzz run "$t" --no-build --time "$FUZZ_SECONDS" --jobs "$FUZZ_JOBS" 2>&1 | tee "$log"
    case ${PIPESTATUS[0]} in
      0) ;;
      1)
        found=$(crashes "$t" "$log")
        fail "${found:-$t: fuzzing found a crash (the add-regression command is printed above)}"
        ;;
      *) fail "$t: stc fuzz run failed" ;;
    esac
    rm -f "$log"
  done
fi

step "summary ($((SECONDS - started)) s)"
if [ ${#failures[@]} -gt 0 ]; then
  printf '%s\n' "${failures[@]}"
  exit 1
fi
if [ "$FUZZ_SECONDS" -gt 0 ]; then
  echo "ci-fuzz: all targets built, instrumented, replayed and fuzzed without a crash"
else
  echo "ci-fuzz: all targets built, instrumented and replayed (FUZZ_SECONDS=0: no fuzzing)"
fi
