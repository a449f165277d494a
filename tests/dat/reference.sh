#!/bin/sh
# The reference check of issue 2: on the shared capture, per-device and per-class requests and
# bytes from `iochart info --json` equal what `trace-cmd report` shows for block_rq_issue.
# Skips (77) when trace-cmd or ../shared/captures is absent.
set -eu
capture="$IOCHART_SOURCE_ROOT/../shared/captures/${1:-seed-bfq-idle-vs-normal.dat}"
command -v trace-cmd > /dev/null || { echo "skip: no trace-cmd"; exit 77; }
[ -r "$capture" ] || { echo "skip: no $capture"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace-cmd report "$capture" 2> /dev/null | python3 "$(dirname "$0")/issue-totals.py" > "$tmp/expected"
"$IOCHART" info --json "$capture" > "$tmp/info.json"
python3 "$(dirname "$0")/compare-info.py" "$tmp/expected" "$tmp/info.json"
