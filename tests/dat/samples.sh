#!/bin/sh
# Every samples/*.dat with an .expected file: `iochart info --json` gives the figures `trace-cmd
# report` gave when it was recorded (block_rq_issue per device and class), rt, be and idle all
# occur, and every record of the instance buffer is counted.
set -eu
samples="$IOCHART_SOURCE_ROOT/samples"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for dat in "$samples"/*.dat; do
  name=${dat%.dat}
  [ -f "$name.expected" ] || continue
  "$IOCHART" info --json "$dat" > "$tmp/info.json"
  python3 "$(dirname "$0")/compare-info.py" "$name.expected" "$tmp/info.json" --classes rt,be,idle
  # The records live in a named instance buffer: the report prefixes each with "NAME: ".
  want=$(grep -c '^[A-Za-z0-9_]*: .*\] .*[0-9]: ' "$name.report.txt")
  got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$tmp/info.json")
  [ "$got" = "$want" ] || { echo "$(basename "$dat"): $got events, the report has $want"; exit 1; }
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no .dat sample with an .expected file"; exit 1; }
echo "$n samples equal their expected figures"
