#!/bin/bash
# render-scale.sh [BUILD_DIR] [N]: the chart of a synthetic N-request capture (default 5,000,000):
# view, drawing and backend times and the SVG size. Builds bench/render-scale.c against
# BUILD_DIR's core library (default build).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$build/src/core/libiochart-core.a
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-render-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo libpng zlib"
cc -O2 -std=gnu17 -I"$here/../src/core" $(pkg-config --cflags $pkgs) "$here/render-scale.c" \
  "$lib" $(pkg-config --libs $pkgs) -lm -o "$tmp/render-scale"
"$tmp/render-scale" "${2:-5000000}"
