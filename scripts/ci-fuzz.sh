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

step "build the fuzzers"
# ASan everywhere; libFuzzer's coverage instrumentation on the code under test (SCREENTIME_FUZZ_COVERAGE=1, read by
# the root Package.swift); ASan checks through runtime calls: an inline check would also be a coverage counter
# (Fuzz/README.md). The same command as `stc fuzz run` prints.
build=(swift build -c release --sanitize=address
  -Xswiftc -Xllvm -Xswiftc -asan-instrumentation-with-call-threshold=0 --package-path Fuzz)
echo "\$ SCREENTIME_FUZZ_COVERAGE=1 ${build[*]}"
t0=$SECONDS
if ! SCREENTIME_FUZZ_COVERAGE=1 "${build[@]}" > /tmp/ci-fuzz-build.log 2>&1; then
  tail -n 40 /tmp/ci-fuzz-build.log
  echo "ci-fuzz: the fuzz build failed" >&2
  exit 2
fi
echo "built in $((SECONDS - t0)) s"

step "check instrumentation"
empty=$(mktemp -d)
for t in $targets; do
  bin="Fuzz/.build/release/$t"
  if [ ! -x "$bin" ]; then fail "$t: no binary $bin (no shim in Fuzz/Sources/$t?)"; continue; fi
  banner=$("$bin" -runs=0 "$empty" 2>&1 | grep -m1 'INFO: Loaded [0-9]* modules *([0-9]* inline 8-bit counters)')
  counters=$(printf '%s' "$banner" | sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p')
  if [ -n "$counters" ] && [ "$counters" -gt 0 ]; then
    echo "$t: $counters inline 8-bit counters"
  else
    fail "$t: not an instrumented libFuzzer binary (no 'INFO: Loaded 1 modules (N inline 8-bit counters)')"
  fi
done
rmdir "$empty"
# Coverage instrumentation where the root Package.swift puts it (SCREENTIME_FUZZ_COVERAGE=1): the reference's four
# modules and the selection and differential harnesses set up libFuzzer's counters, without comparison tracing
# (Fuzz/README.md, "Coverage of the code under test"); generators, properties and the other harnesses do not.
# Only the objects of the module's current sources are read (a build dir may keep objects of removed files), and
# grep -c reads all of nm's output (with -q, nm could die of SIGPIPE, and pipefail would call that a miss).
objects=Fuzz/.build/release
symbols() {  # symbols() MODULE PATTERN: how many of the module's symbols match
  find "Sources/$1" -name '*.swift' -printf "$objects/$1.build/%f.o\n" | xargs nm 2>/dev/null | grep -c "$2"
}
instrumented() { symbols "$1" '__sanitizer_cov_8bit_counters_init'; }
for m in StrictJSON ScreenTimeSelection ScreenTimeEncoding ScreenTimeReference SelectionFuzzTargets DifferentialFuzzTargets; do
  [ "$(instrumented "$m")" -gt 0 ] || fail "$m: no coverage instrumentation"
  [ "$(symbols "$m" '__sanitizer_cov_trace_.*cmp')" -eq 0 ] \
    || fail "$m: objects with comparison tracing (stale from a build with other flags, which SwiftPM does not recompile: rm -rf Fuzz/.build/release; or the root Package.swift's fuzz flags changed)"
done
for m in FuzzCore EncodingFuzzTargets PropertyTesting ShieldProperties AuthorizationProperties StructuredFuzzTargets; do
  [ "$(instrumented "$m")" -eq 0 ] \
    || fail "$m: test code carries coverage instrumentation (built without SCREENTIME_FUZZ_COVERAGE=1?)"
done
[ ${#failures[@]} -eq 0 ] && echo "coverage instrumentation: the reference and the selection and differential harnesses only, no comparison tracing"
# ASan's fake stack frames (stack-use-after-return detection) only in the modules that hand out stack addresses, the
# root Package.swift's fakeStackFrameModules; every other module is compiled with -asan-use-after-return=never.
# Every module this build compiled is checked (a module outside the fuzz build has no objects here).
fake_frames() { symbols "$1" '__asan_stack_malloc_'; }
kept=" $(sed -n 's/^let fakeStackFrameModules: Set<String> = \[\(.*\)\]$/\1/p' Package.swift | tr -d '",') "
[ "$kept" != "  " ] || fail "Package.swift: no fakeStackFrameModules list found"
for m in $(ls Sources); do
  compgen -G "$objects/$m.build/*.o" > /dev/null || continue  # SwiftPM makes a directory for every module
  if [[ "$kept" == *" $m "* ]]; then
    [ "$(fake_frames "$m")" -gt 0 ] || fail "$m: no fake stack frames, though it is in Package.swift's fakeStackFrameModules (stale objects? rm -rf Fuzz/.build/release)"
  else
    [ "$(fake_frames "$m")" -eq 0 ] \
      || fail "$m: objects with fake stack frames (stale from a build with other flags, which SwiftPM does not recompile: rm -rf Fuzz/.build/release)"
  fi
done
[ ${#failures[@]} -eq 0 ] && echo "stack-use-after-return detection: only in the modules that hand out stack addresses"
[ ${#failures[@]} -eq 0 ] || { printf '\nci-fuzz: FAILED\n'; printf '  %s\n' "${failures[@]}"; exit 1; }

step "replay the corpus with the fuzzer binaries (-runs=0 over corpus/<t>/ and regressions/)"
# shellcheck disable=SC2086
for t in $targets; do
  $STC fuzz replay "$t" --binary --no-build || fail "$t: the corpus replay failed (see above)"
done

if [ "$FUZZ_SECONDS" -gt 0 ]; then
  for t in $targets; do
    step "fuzz $t for ${FUZZ_SECONDS} s, $FUZZ_JOBS job(s)"
    $STC fuzz run "$t" --no-build --time "$FUZZ_SECONDS" --jobs "$FUZZ_JOBS"
    case $? in
      0) ;;
      1) fail "$t: fuzzing found a crash (the add-regression command is printed above)" ;;
      *) fail "$t: stc fuzz run failed" ;;
    esac
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
