#!/usr/bin/env bash
# The ClusterFuzzLite / OSS-Fuzz build, checked here without Docker (called by .ci/run).
#
# For SANITIZER=address and then coverage, runs .clusterfuzzlite/build.sh with the environment the builder image
# gives it (SRC, OUT, WORK, SANITIZER, FUZZING_ENGINE, ARCHITECTURE, CFLAGS, CXXFLAGS, and a stand-in for the
# image's precompile_swift), moves its $OUT elsewhere (a binary that finds its runtime, or anything else, at a
# path of the build fails from there), and checks each target there as the runner image's bad-build check does:
#   - started with -seed=1337 -runs=4, it is instrumented (counters reported; a warning under 100);
#   - it is an x86-64 binary;
#   - its calls into the sanitizer runtimes, counted with objdump: an address build makes at least 1000 calls
#     to __asan and at most 200 to __ubsan, 3 to __msan, 0 to __dfsan; a coverage build none to __asan;
#   - started as run_fuzzer starts it with SKIP_SEED_CORPUS=1 (its .options and .dict), it reports "Done 4 runs";
# and, beyond that check:
#   - it needs no Swift runtime library (the runner image has no Swift toolchain);
#   - its .options give the max_len `stc fuzz list --long` gives (and, for ASan, leak detection on, with the one
#     suppression build.sh names), its .dict is corpus/T.dict, and its seed corpus zip holds every file of corpus/T/ and
#     corpus/T/regressions/;
#   - that zip, unzipped, replays clean through it (-runs=0, as run_fuzzer runs it).
# For the coverage build, the unzipped corpora then go through the coverage binaries, and
# `stc fuzz coverage --binaries` prints the lines reached of the code under test (the selection, encoding, JSON
# and reference modules) and writes the HTML report; the lines reached of all of them must be COVERAGE_MIN %.
#
#   scripts/check-fuzz-build.sh [DIR]      everything under DIR (default .build/check-fuzz-build)
#   SANITIZERS="address"                   only these builds (default "address coverage")
#   COVERAGE_MIN=95                        the least line coverage, in %, of the code under test (default 95)
#
# Exit 0 when every check passed, 1 when one failed (each is listed at the end), 2 when a build failed.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export SWIFT_BACKTRACE=enable=no
started=$SECONDS
# Where a coverage binary run by a check (not by stc fuzz coverage) writes its profile.
export LLVM_PROFILE_FILE="${TMPDIR:-/tmp}/check-fuzz-build.profraw"
root="${1:-.build/check-fuzz-build}"
mkdir -p "$root" && root=$(cd "$root" && pwd)
failures=()
step() { printf '\n==> %s\n' "$*"; }
fail() { printf 'check-fuzz-build: %s\n' "$*" >&2; failures+=("$*"); }
warn() { printf 'check-fuzz-build: warning: %s\n' "$*" >&2; }

# The builder image's flags (base-clang's CFLAGS, then compile adds the sanitizer's and coverage flags). build.sh
# compiles no C, but it gets them as it would there.
base_cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
cflags_address="$base_cflags -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
cflags_coverage="$base_cflags -fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl \
-Wl,-lm -Wno-unused-command-line-argument"

# The image's precompile_swift copies its Swift-aware llvm-symbolizer into $OUT and exports SWIFTFLAGS; this one
# copies the toolchain's, and exports what the image's would (build.sh does not use them).
mkdir -p "$root/bin"
cat > "$root/bin/precompile_swift" << 'EOF'
# Stand-in for the builder image's precompile_swift (scripts/check-fuzz-build.sh).
symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
if [ -x "$symbolizer" ]; then cp "$symbolizer" "$OUT/llvm-symbolizer"; fi
export SWIFTFLAGS="-Xswiftc -parse-as-library -Xswiftc -static-stdlib --static-swift-stdlib"
if [ "$SANITIZER" = coverage ]; then
  export SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -sanitize=fuzzer"
else
  export SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -sanitize=fuzzer,$SANITIZER --sanitize=$SANITIZER"
fi
EOF
chmod +x "$root/bin/precompile_swift"

# build SANITIZER: runs build.sh into $root/SANITIZER/out; 1 when it failed.
build() {
  local sanitizer=$1 cflags_var="cflags_$1" dir="$root/$1"
  rm -rf "$dir/out" "$dir/moved"
  mkdir -p "$dir/out" "$dir/work"
  local t0=$SECONDS
  if ! env SRC="$(dirname "$repo")" OUT="$dir/out" WORK="$dir/work" SANITIZER="$sanitizer" \
    FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=swift ARCHITECTURE="$(uname -m)" CFLAGS="${!cflags_var}" \
    CXXFLAGS="${!cflags_var} -stdlib=libc++" PATH="$root/bin:$PATH" \
    bash -eu .clusterfuzzlite/build.sh > "$dir/build.log" 2>&1; then
    tail -n 40 "$dir/build.log"
    echo "check-fuzz-build: build.sh failed for SANITIZER=$sanitizer (log: $dir/build.log)" >&2
    return 1
  fi
  grep -E '^build.sh: |built in|copied ' "$dir/build.log"
  echo "build.sh for $sanitizer: $((SECONDS - t0)) s"
}

# The first stc on the way: build.sh has built it.
STC="$repo/.build/debug/stc"

# Calls into the sanitizer runtimes: "ASAN UBSAN MSAN DFSAN", as bad_build_check counts them.
sanitizer_calls() {
  objdump -dC "$1" | awk '
    /call[q]?[ \t]+[0-9a-f]+[ \t]+</ {
      if ($0 ~ /<__asan/) a++; else if ($0 ~ /<__ubsan/) u++; else if ($0 ~ /<__msan/) m++; else if ($0 ~ /<__dfsan/) d++
    }
    END { print a + 0, u + 0, m + 0, d + 0 }'
}

# The KEY=VALUE lines of one [SECTION] of an .options file, as parse_options.py reads them.
options_of() {  # options_of SECTION FILE
  [ -f "$2" ] || return 0
  awk -v want="[$1]" '
    /^[ \t]*\[/ { section = $0; gsub(/[ \t]/, "", section); next }
    section == want && /=/ { split($0, kv, "="); gsub(/[ \t]/, "", kv[1]); gsub(/[ \t]/, "", kv[2]);
      print kv[1] "=" kv[2] }' "$2"
}

# How run_fuzzer starts a target in $OUT: ASAN_OPTIONS with the [asan] options of T.options, then the runner's
# FUZZER_ARGS, the arguments, the corpus unless SKIP_SEED_CORPUS, the [libfuzzer] options, and T.dict.
run_fuzzer() {  # run_fuzzer OUT TARGET CORPUS ARGS…
  local out=$1 target=$2 corpus=$3
  shift 3
  local options=() asan
  while IFS= read -r line; do options+=("-$line"); done < <(options_of libfuzzer "$out/$target.options")
  asan=$(options_of asan "$out/$target.options" | paste -sd: -)
  local dict=()
  [ -f "$out/$target.dict" ] && dict=("-dict=$out/$target.dict")
  local corpus_args=()
  [ -n "$corpus" ] && corpus_args=("$corpus")
  (cd "$out" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$asan" "./$target" -rss_limit_mb=2560 -timeout=25 "$@" \
    "${corpus_args[@]}" "${options[@]}" "${dict[@]}" < /dev/null)
}

# check SANITIZER OUT TARGET MAX_LEN CORPUS_ROOT: every check of one binary; prints its row.
check() {
  local sanitizer=$1 out=$2 target=$3 max_len=$4 corpora=$5
  local bin="$out/$target" log="$root/$sanitizer/logs/$target"
  mkdir -p "$root/$sanitizer/logs" "$root/empty"
  if [ ! -x "$bin" ]; then
    fail "$sanitizer/$target: no binary in \$OUT"
    return
  fi
  # Instrumented: libFuzzer reports its counters, and finds an interesting input.
  (cd "$root/empty" && "$bin" -seed=1337 -runs=4 > "$log.engine" 2>&1)
  local counters
  counters=$(grep -Po 'INFO: Loaded [[:digit:]]+ module.*\(.*(counters|guards)\):[[:space:]]+\K[[:digit:]]+' \
    "$log.engine" | head -n 1)
  if grep -q 'ERROR: no interesting inputs were found. Is the code instrumented' "$log.engine" \
    || [ -z "$counters" ]; then
    fail "$sanitizer/$target: not an instrumented libFuzzer binary (see $log.engine)"
    counters=0
  elif [ "$counters" -lt 100 ]; then
    warn "$sanitizer/$target: only $counters counters: partial coverage instrumentation?"
  fi
  # x86-64.
  if [ "$(uname -m)" = x86_64 ]; then
    local kind
    kind=$( (file -L "$bin" 2> /dev/null || readelf -h "$bin") | tr '\n' ' ')
    [[ "$kind" == *x86-64* || "$kind" == *X86-64* ]] || fail "$sanitizer/$target: not an x86-64 binary: $kind"
  fi
  # Sanitizer runtime calls.
  local asan ubsan msan dfsan
  read -r asan ubsan msan dfsan < <(sanitizer_calls "$bin")
  if [ "$sanitizer" = address ]; then
    [ "$asan" -ge 1000 ] || fail "$sanitizer/$target: $asan calls to __asan (an ASan build makes at least 1000)"
  else
    [ "$asan" -eq 0 ] || fail "$sanitizer/$target: $asan calls to __asan in a $sanitizer build"
  fi
  [ "$ubsan" -le 200 ] || fail "$sanitizer/$target: $ubsan calls to __ubsan (at most 200 outside a UBSan build)"
  [ "$msan" -le 3 ] || fail "$sanitizer/$target: $msan calls to __msan (at most 3 outside an MSan build)"
  [ "$dfsan" -eq 0 ] || fail "$sanitizer/$target: $dfsan calls to __dfsan"
  # Starts as run_fuzzer starts it, without the seed corpus.
  if ! SKIP_SEED_CORPUS=1 run_fuzzer "$out" "$target" "" -seed=1337 -runs=4 > "$log.startup" 2>&1 \
    || ! grep -q 'Done 4 runs' "$log.startup"; then
    fail "$sanitizer/$target: no 'Done 4 runs' when started as run_fuzzer does (see $log.startup)"
  fi
  # No Swift runtime library to find.
  local needed
  needed=$(readelf -d "$bin" | grep NEEDED | grep -Eo '\[(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime)[^]]*\]' | tr '\n' ' ')
  [ -z "$needed" ] || fail "$sanitizer/$target: needs Swift runtime libraries the runner image lacks: $needed"
  # .options, .dict, seed corpus.
  [ "$(options_of libfuzzer "$out/$target.options")" = "max_len=$max_len" ] \
    || fail "$sanitizer/$target: $target.options does not give [libfuzzer] max_len = $max_len (and nothing else)"
  [ "$sanitizer" != address ] || [ "$(options_of asan "$out/$target.options")" = "detect_leaks=1" ] \
    || fail "$sanitizer/$target: $target.options does not give [asan] detect_leaks = 1"
  if [ -f "corpus/$target.dict" ] && ! cmp -s "corpus/$target.dict" "$out/$target.dict"; then
    fail "$sanitizer/$target: $target.dict is not corpus/$target.dict"
  fi
  local corpus="$corpora/$target" zip="$out/${target}_seed_corpus.zip" seeds=0
  rm -rf "$corpus"
  mkdir -p "$corpus"
  if ! unzip -q -o -d "$corpus" "$zip" 2> /dev/null; then
    fail "$sanitizer/$target: no readable ${target}_seed_corpus.zip"
  else
    seeds=$(find "$corpus" -type f | wc -l)
    for file in "corpus/$target"/* "corpus/$target/regressions"/*; do
      [ -f "$file" ] || continue
      local name
      name=$(basename "$file")
      cmp -s "$file" "$corpus/$name" || cmp -s "$file" "$corpus/regression-$name" \
        || fail "$sanitizer/$target: $file is not in ${target}_seed_corpus.zip"
    done
    run_fuzzer "$out" "$target" "$corpus" -runs=0 > "$log.replay" 2>&1 \
      || fail "$sanitizer/$target: its seed corpus does not replay clean (see $log.replay)"
  fi
  printf '  %-24s %8s %8s %7s %6s %6s %6s\n' "$target" "$counters" "$asan" "$ubsan" "$msan" "$dfsan" "$seeds"
}

targets=()
for sanitizer in ${SANITIZERS:-address coverage}; do
  step "build.sh with SANITIZER=$sanitizer"
  build "$sanitizer" || exit 2
  dir="$root/$sanitizer"
  mv "$dir/out" "$dir/moved"
  out="$dir/moved"
  echo "\$OUT moved to $out"
  step "check every $sanitizer binary in the moved \$OUT"
  t0=$SECONDS
  corpora="$dir/corpora"
  rm -rf "$corpora"
  mkdir -p "$corpora"
  listed=$("$STC" fuzz list --long) || { echo "check-fuzz-build: stc fuzz list --long failed" >&2; exit 2; }
  printf '  %-24s %8s %8s %7s %6s %6s %6s\n' target counters __asan __ubsan __msan __dfsan seeds
  targets=()
  while IFS=$'\t' read -r target max_len _; do
    targets+=("$target")
    check "$sanitizer" "$out" "$target" "$max_len" "$corpora"
  done <<< "$listed"
  for file in "$out"/*; do
    name=$(basename "$file")
    [ -f "$file" ] && [ -x "$file" ] && [ "$name" != llvm-symbolizer ] || continue
    printf '%s\n' "${targets[@]}" | grep -qx -- "$name" || fail "$sanitizer: $name in \$OUT is no target of stc fuzz list"
  done
  echo "checked ${#targets[@]} binaries in $((SECONDS - t0)) s"
  if [ "$sanitizer" = coverage ]; then
    step "the seed corpora through the coverage binaries: what they reach of the code under test"
    "$STC" fuzz coverage --binaries "$out" --corpus "$corpora" --html "$root/coverage/html" --package "$repo" \
      2> "$dir/logs/coverage.log" | tee "$dir/logs/coverage.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail "coverage: stc fuzz coverage failed (see $dir/logs/coverage.log)"
    # The "all" row: "  all   83.20%  3243/3898  …" (lines first).
    lines=$(awk '$1 == "all" { sub(/%/, "", $2); print $2; exit }' "$dir/logs/coverage.txt")
    if [ -z "$lines" ]; then
      fail "coverage: no line coverage in stc fuzz coverage's summary"
    elif ! awk -v got="$lines" -v min="${COVERAGE_MIN:-95}" 'BEGIN { exit !(got + 0 >= min + 0) }'; then
      fail "coverage: the corpus reaches $lines % of the lines of the code under test, under ${COVERAGE_MIN:-95} %"
    else
      echo "line coverage $lines % (at least ${COVERAGE_MIN:-95} %)"
    fi
  fi
done

step "summary ($((SECONDS - started)) s)"
if [ ${#failures[@]} -gt 0 ]; then
  printf 'check-fuzz-build: FAILED\n'
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
echo "check-fuzz-build: build.sh built every target for ${SANITIZERS:-address coverage}; every check passed"
