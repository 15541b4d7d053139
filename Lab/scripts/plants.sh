#!/usr/bin/env bash
# The planted bugs of the bug-finding benchmark (docs/BUG-FINDING.md) are one patch, Lab/Plants/planted-bugs.patch,
# over the product's Sources/. The product never holds them; this script is how a person edits them.
#
#   Lab/scripts/plants.sh check      the patch applies to the current Sources/ (exit 1 if not)
#   Lab/scripts/plants.sh checkout   a copy of Sources/ with the patch applied, in .build/plants/Sources, to edit
#   Lab/scripts/plants.sh save       the patch rewritten from that copy (the diff of Sources/ against it)
#
# After `save`, `swift test --package-path Lab --filter Planted` checks the catalog against the patch and that
# every plant still fails the vectors.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
patch="$root/Lab/Plants/planted-bugs.patch"
work="$root/.build/plants"

# The files the patch writes, relative to the package root.
patched_files() { sed -n 's#^+++ b/##p' "$patch"; }

case "${1:-}" in
  check)
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    (cd "$root" && patched_files | while read -r file; do
      if [ -f "$file" ]; then mkdir -p "$scratch/$(dirname "$file")" && cp "$file" "$scratch/$file"; fi
    done)
    (cd "$scratch" && GIT_CEILING_DIRECTORIES="$(dirname "$scratch")" git apply --whitespace=nowarn "$patch") || {
      echo "plants.sh: $patch no longer applies to Sources/: run 'Lab/scripts/plants.sh checkout', fix the" \
        "rejected hunks by hand in .build/plants/Sources, then 'Lab/scripts/plants.sh save'" >&2
      exit 1
    }
    echo "plants.sh: the patch applies ($(patched_files | wc -l | tr -d ' ') files)"
    ;;
  checkout)
    rm -rf "$work"
    mkdir -p "$work"
    cp -R "$root/Sources" "$work/Sources"
    (cd "$work" && GIT_CEILING_DIRECTORIES="$root/.build" git apply --reject --whitespace=nowarn "$patch") || {
      echo "plants.sh: some hunks did not apply: see the .rej files under $work/Sources" >&2
    }
    echo "plants.sh: planted sources in $work/Sources; edit them, then: Lab/scripts/plants.sh save"
    ;;
  save)
    [ -d "$work/Sources" ] || { echo "plants.sh: no $work/Sources: run 'plants.sh checkout' first" >&2; exit 2; }
    if find "$work/Sources" -name '*.rej' | grep -q .; then
      echo "plants.sh: $work/Sources still has .rej files: resolve and delete them first" >&2
      exit 2
    fi
    tmp="$patch.tmp.$$"
    # git diff --no-index exits 1 when the trees differ, which is the point here.
    (cd "$root" && git diff --no-index --no-color --src-prefix=a/ --dst-prefix=b/ -- Sources "$work/Sources" || true) |
      sed -E "s#([ab])$work/#\1/#g; s# $work/# #g" > "$tmp"
    [ -s "$tmp" ] || { rm -f "$tmp"; echo "plants.sh: the copy has no plants; patch left as it was" >&2; exit 1; }
    mv "$tmp" "$patch"
    echo "plants.sh: wrote $patch ($(patched_files | wc -l | tr -d ' ') files)"
    ;;
  *)
    echo "usage: Lab/scripts/plants.sh check | checkout | save" >&2
    exit 2
    ;;
esac
