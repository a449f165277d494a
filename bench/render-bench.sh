#!/bin/bash
# render-bench.sh [SRC_DIR] [MIN_RECORDS...]: `iochart --svg` against `iowatcher -t ... -o x.svg`
# (Debian package blktrace) on the same blktrace capture, scaled to each MIN_RECORDS (default
# 1,500,000 records, about 300k requests, and 5,000,000) with bench/blktrace-scale.py. Best of 3
# wall-clock runs each, in the same run; iowatcher's blkparse dump is removed before each of its
# runs, as it has to parse the capture too. Prints times, the ratio (goal: iochart >= 10x faster),
# both SVG sizes, and iochart's own split (load, view/analysis, draw, write) from its debug line.
# IOCHART: the iochart binary (default build/src/cli/iochart).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../../shared/captures/hdd-blktrace-bfq-idle-vs-normal-5s}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1500000 5000000)
iochart=${IOCHART:-$here/../build/src/cli/iochart}
iochart=$(cd "$(dirname "$iochart")" && pwd)/$(basename "$iochart")
[ -x "$iochart" ] || { echo "error: '$iochart': no iochart binary (set IOCHART)" >&2; exit 2; }
command -v iowatcher >/dev/null || { echo "error: iowatcher not found (Debian package blktrace)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-render-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

best() {  # best of 3 wall-clock seconds of "$@"; a "pre" function runs before each
  local b=999999
  for i in 1 2 3; do
    pre
    local s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "error: '$*' failed" >&2; exit 1; }
    local e=$(date +%s.%N)
    b=$(echo "$s $e $b" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  echo "$b"
}

for want in "${sizes[@]}"; do
  cap="$tmp/cap-$want"
  python3 "$here/blktrace-scale.py" "$src" "$cap" "$want" >/dev/null
  dev=$(ls "$cap" | sed -n 's/\.blktrace\.[0-9]*$//p' | head -1)
  cat "$cap"/* >/dev/null   # both start from a warm page cache
  cd "$cap"
  pre() { :; }
  t_iochart=$(best "$iochart" --svg "$tmp/iochart.svg" "$cap")
  pre() { rm -f "$cap/$dev.dump"; }
  t_iowatcher=$(best iowatcher -t "$dev" -o "$tmp/iowatcher.svg")
  cd "$tmp"
  split=$(G_MESSAGES_DEBUG=iochart "$iochart" --svg "$tmp/iochart.svg" "$cap" 2>&1 | sed -n 's/.*timing: //p')
  echo "== $(du -sh "$cap" | cut -f1) blktrace capture, >= $want records"
  echo "iochart:   $split"
  awk -v a="$t_iochart" -v b="$t_iowatcher" -v sa="$(stat -c %s "$tmp/iochart.svg")" \
      -v sb="$(stat -c %s "$tmp/iowatcher.svg")" 'BEGIN {
    printf "iochart --svg:  %.3f s, SVG %.0f KB\n", a, sa / 1024
    printf "iowatcher:      %.3f s, SVG %.0f KB\n", b, sb / 1024
    printf "ratio:          %.1fx faster (goal >= 10x)\n", b / a }'
  rm -rf "$cap"
done
