#!/bin/bash
# app-frames.sh [BUILD_DIR] [N...]: the app timeline's frame times (p50/p99 against the 16 ms goal)
# and its background layout latency on synthetic captures of 100k, 1M and 10M requests (or the N
# given). Builds bench/app-frames.c against BUILD_DIR's core library (default build). Run it niced:
# 10M requests take about 1 GB and a few minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
shift || true
sizes=${*:-100000 1000000 10000000}
lib=$build/src/core/libiochart-core.a
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-app-frames.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo libpng zlib"
cc -O2 -std=gnu17 -I"$here/../src/core" $(pkg-config --cflags $pkgs) "$here/app-frames.c" \
  "$lib" $(pkg-config --libs $pkgs) -lm -o "$tmp/app-frames"
for n in $sizes; do
  # fewer exact layouts on the biggest capture: each one scans every request
  every=10
  [ "$n" -ge 5000000 ] && every=100
  echo "== $n requests"
  "$tmp/app-frames" "$n" "$every"
done
