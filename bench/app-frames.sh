#!/bin/bash
# app-frames.sh [BUILD_DIR] [N...]: the app timeline on synthetic captures of 100k, 1M and 10M
# requests (or the N given): the exact frame (chart laid out from the bin index, then drawn)
# p50/p99 against the 16 ms goal, the bin index's build time and bytes, and the app before the
# index (exact layout walking every request, warped last chart). Then the app's open time in CPU
# seconds (load + the charted device's bin index + the whole capture's steal from it, as the load
# worker does, + the first frame) against `iochart info`'s (goal: at most 1.5x info), on
# blktrace captures of OPEN_REQUESTS requests written by bench/blktrace-synth.py (default
# "1000000 10000000": 184 MB and 1.8 GB), and on real blktrace captures scaled with
# bench/blktrace-scale.py to OPEN_RECORDS records each (default none; "500000 5000000" were the
# earlier rows). Builds bench/app-frames.c against BUILD_DIR's core library (default build). Run
# it niced: 10M requests take about 1.3 GB and several minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
shift || true
sizes=${*:-100000 1000000 10000000}
open_requests=${OPEN_REQUESTS-1000000 10000000}
open_records=${OPEN_RECORDS-}
lib=$build/src/core/libiochart-core.a
iochart=$build/src/cli/iochart
src=$here/../../shared/captures/blktrace-bfq-idle-vs-normal-3s
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-app-frames.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo libpng zlib libzstd fontconfig libdeflate"
cc -O2 -std=gnu17 -I"$here/../src/core" $(pkg-config --cflags $pkgs) "$here/app-frames.c" \
  "$lib" $(pkg-config --libs $pkgs) -lm -o "$tmp/app-frames"
for n in $sizes; do
  # fewer layouts walking every request on the biggest capture: each one takes seconds
  every=20
  [ "$n" -ge 5000000 ] && every=50
  echo "== $n requests"
  "$tmp/app-frames" "$n" "$every"
done

# app open against `iochart info` on the capture in $tmp/cap
open_row () {
  cat "$tmp/cap"/* >/dev/null   # both start from a warm page cache
  best=999999
  for i in 1 2 3; do
    # CPU time (user + system): the machine is shared, wall time measures the neighbours
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$iochart" info "$tmp/cap" >/dev/null 2>&1
    best=$(echo "$(tail -1 "$tmp/time") $best" | awk '{t=$1+$2; print (t<$3)?t:$3}')
  done
  read -r load index steal first all wall <<< "$("$tmp/app-frames" --open "$tmp/cap")"
  echo "app open, CPU: load $load s + bin index $index s + steal $steal s + first frame $first s = $all s" \
       "(wall $wall s); iochart info $best s: $(echo "$all $best" | awk '{printf "%.2f", $1/$2}')x info (goal <= 1.5x)"
}

for want in $open_requests; do
  rm -rf "$tmp/cap"
  python3 "$here/blktrace-synth.py" "$want" "$tmp/cap"
  echo "== open: synthetic blktrace capture of $want requests ($(du -sh "$tmp/cap" | cut -f1))"
  open_row
done
[ -z "$open_records" ] || [ -d "$src" ] || { echo "open time of real captures: skipped ('$src' missing)"; exit 0; }
for want in $open_records; do
  rm -rf "$tmp/cap"
  python3 "$here/blktrace-scale.py" "$src" "$tmp/cap" "$want" >/dev/null
  echo "== open: blktrace capture of $want records ($(du -sh "$tmp/cap" | cut -f1))"
  open_row
done
