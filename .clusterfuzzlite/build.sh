#!/bin/bash -eu
# Builds every fuzz target into $OUT for ClusterFuzzLite and OSS-Fuzz: for each target T of `stc fuzz list`, the
# libFuzzer binary T, T_seed_corpus.zip (corpus/T/ and corpus/T/regressions/), T.dict (corpus/T.dict) and
# T.options (`[libfuzzer]` with `max_len`, the target's FuzzTarget.maxLength, as `stc fuzz run` uses it, and
# `[asan]` with leak detection off, for the reason given below).
#
# The image's `compile` runs it in the repository (the Dockerfile's WORKDIR) with SRC, OUT, WORK, SANITIZER
# (address or coverage), FUZZING_ENGINE (libfuzzer), ARCHITECTURE and CFLAGS set; scripts/check-fuzz-build.sh
# runs it the same way without Docker. The binaries are this package's own fuzz build, made by stc:
#   address   stc fuzz build --out "$OUT": ASan in every module, libFuzzer's coverage instrumentation only on the
#             modules Package.swift's table marks, libFuzzer linked by Fuzz/Package.swift (as stc fuzz run fuzzes)
#   coverage  stc fuzz build --coverage --out "$OUT": LLVM's profile instrumentation, libFuzzer linked by SwiftPM
# both linked with the Swift runtime and Foundation inside, since the runner image has no Swift toolchain.
# precompile_swift is sourced for what it copies into $OUT (the Swift-aware llvm-symbolizer); its $SWIFTFLAGS are
# not used, and there is no C code for $CFLAGS (docs/FUZZING-AT-SCALE.md, "How build.sh builds").

if [ ! -f Fuzz/Package.swift ]; then
  echo "build.sh: run me in the repository (no Fuzz/Package.swift in $PWD)" >&2
  exit 1
fi
if [ "${FUZZING_ENGINE:-libfuzzer}" != libfuzzer ]; then
  echo "build.sh: the targets are libFuzzer targets, not $FUZZING_ENGINE ones" >&2
  exit 1
fi
case "$SANITIZER" in
  address) variant= ;;
  coverage) variant=--coverage ;;
  *)
    echo "build.sh: SANITIZER=$SANITIZER: the targets are built for address and coverage only" >&2
    exit 1
    ;;
esac
if command -v precompile_swift > /dev/null 2>&1; then
  # shellcheck disable=SC1091
  . precompile_swift
fi
# Set, it breaks the build of stc (Fuzz/README.md, Troubleshooting); stc sets it for its fuzz builds.
unset SCREENTIME_FUZZ_COVERAGE
out=$(cd "$OUT" && pwd)

# stc, for the host: it lists the targets and builds them.
swift build --product stc
stc="$(swift build --show-bin-path)/stc"

# shellcheck disable=SC2086
"$stc" fuzz build $variant --out "$out" --corpus corpus --package .

"$stc" fuzz list --long > "$WORK/targets.tsv"
while IFS=$'\t' read -r target max_len _; do
  [ -x "$out/$target" ] || { echo "build.sh: stc fuzz build left no $out/$target" >&2; exit 1; }
  # Leak detection on. With the Swift runtime linked in, LeakSanitizer would report the runtime's cache of type
  # names as leaked (Foundation's decoders fill it on every keyed error); every binary suppresses exactly that,
  # leak:swift_getTypeName, through __lsan_default_suppressions (Sources/_FuzzCore/FuzzTarget.swift).
  printf '[libfuzzer]\nmax_len = %s\n\n[asan]\ndetect_leaks = 1\n' "$max_len" > "$out/$target.options"
  if [ -f "corpus/$target.dict" ]; then cp "corpus/$target.dict" "$out/$target.dict"; fi
  # One flat directory of seeds and regressions. Names are kept; a regression named like a seed with other bytes
  # (never, with content-hash names) is kept under regression-NAME.
  stage="$WORK/seed-corpus/$target"
  rm -rf "$stage"
  mkdir -p "$stage"
  for file in "corpus/$target"/* "corpus/$target/regressions"/*; do
    [ -f "$file" ] || continue
    name=$(basename "$file")
    if [ -e "$stage/$name" ] && ! cmp -s "$file" "$stage/$name"; then name="regression-$name"; fi
    cp "$file" "$stage/$name"
  done
  rm -f "$out/${target}_seed_corpus.zip"
  (cd "$stage" && zip -q -X -r "$out/${target}_seed_corpus.zip" .)
  echo "build.sh: $target: $(ls "$stage" | wc -l) seed inputs, max_len $max_len"
done < "$WORK/targets.tsv"
