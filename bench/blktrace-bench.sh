#!/bin/bash
# blktrace-bench.sh [SRC_DIR] [MIN_RECORDS]: `iochart info` against `blkparse -i ... -o /dev/null`
# on a real blktrace capture scaled to MIN_RECORDS records (default 5,000,000), best of 5 each,
# in the same run. Prints both times, the ratio (goal: iochart >= 20x faster) and the bytes per
# request of the model. The scaled capture goes to a temporary folder, removed at the end.
# IOCHART: the iochart binary (default build/src/cli/iochart).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../../shared/captures/blktrace-bfq-idle-vs-normal-3s}
want=${2:-5000000}
iochart=${IOCHART:-$here/../build/src/cli/iochart}
[ -x "$iochart" ] || { echo "error: '$iochart': no iochart binary (set IOCHART)" >&2; exit 2; }
command -v blkparse >/dev/null || { echo "error: blkparse not found (Debian package blktrace)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-blktrace-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/blktrace-scale.py" "$src" "$tmp/cap" "$want"
dev=$(ls "$tmp/cap" | sed -n 's/\.blktrace\.[0-9]*$//p' | head -1)
du -sh "$tmp/cap" | awk '{print "capture size: " $1}'

# Best of 5 of "$@": wall seconds and CPU seconds (user + sys), each the minimum over the runs.
# On a shared machine the CPU time is the steadier figure; both are printed.
best() {
  local bw=999999 bc=999999
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>&1
    read -r w u s < "$tmp/time"
    bw=$(echo "$w $bw" | awk '{print ($1<$2)?$1:$2}')
    bc=$(echo "$u $s $bc" | awk '{c=$1+$2; print (c<$3)?c:$3}')
  done
  echo "$bw $bc"
}

cat "$tmp/cap"/* >/dev/null   # both start from a warm page cache
read -r w_iochart c_iochart <<< "$(best "$iochart" info "$tmp/cap")"
read -r w_blkparse c_blkparse <<< "$(best blkparse -i "$dev" -D "$tmp/cap" -o /dev/null)"
"$iochart" info --json "$tmp/cap" > "$tmp/info.json"
python3 - "$tmp/info.json" "$w_iochart" "$w_blkparse" "$c_iochart" "$c_blkparse" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ti, tb, ci, cb = (float(x) for x in sys.argv[2:6])
m = d['memory']
print(f"records (events): {d['events']}")
print(f"wall: iochart info {ti:.2f} s, blkparse -o /dev/null {tb:.2f} s: {tb / ti:.1f}x faster (goal >= 20x)")
print(f"cpu:  iochart info {ci:.2f} s, blkparse -o /dev/null {cb:.2f} s: {cb / max(ci, 0.01):.1f}x less")
print(f"requests stored: {m['requests_stored']}   request store: {m['request_store_bytes']} bytes"
      f" = {m['request_store_bytes'] / max(m['requests_stored'], 1):.1f} bytes/request;"
      f" whole model {m['model_bytes'] / max(m['requests_stored'], 1):.1f} bytes/request")
PY
