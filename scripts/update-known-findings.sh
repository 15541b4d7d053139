#!/usr/bin/env bash
# Rewrites Examples/*/known-findings.txt: what `stc explore` finds in each example adapter with the fixed seed and
# case count that .ci/run uses. Run it after changing a generator or an adapter, and read the diff: a line that
# goes is a deviation that is no longer found (or was fixed), a line that comes is a new one.
#
#   scripts/update-known-findings.sh        (builds stc in release mode first)
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=30000
SEED=1
swift build -c release --product stc > /dev/null
STC=.build/release/stc
for adapter in node python; do
  case $adapter in
    node) command='node Examples/node-adapter/adapter.mjs' ;;
    python) command='python3 Examples/python-adapter/adapter.py' ;;
  esac
  file="Examples/$adapter-adapter/known-findings.txt"
  json=$(mktemp)
  # Exit 1 means findings: that is what this records.
  "$STC" explore --adapter "$command" --name "$adapter" --cases "$CASES" --seed "$SEED" --quiet --json "$json" > /dev/null || true
  {
    echo "# What stc explore finds in the $adapter example adapter: --cases $CASES --seed $SEED (.ci/run checks that"
    echo "# exactly these are found). One finding a line: OPERATION: what differs, under a comment naming its group"
    echo "# (its root cause; a group's name on a line of its own would list all of its findings). Rewritten by"
    echo "# scripts/update-known-findings.sh; the deviations behind them are described in README.md beside this file."
    python3 -c '
import json, sys
for implementation in json.load(open(sys.argv[1]))["implementations"]:
    for group in implementation["groups"]:
        print("# group: " + group["key"])
        for key in group["findings"]:
            print(key)' "$json"
  } > "$file.tmp"
  mv "$file.tmp" "$file"
  rm -f "$json"
  echo "$file: $(grep -vc '^#' "$file") findings"
done
