#!/bin/bash
# simulate-bench.sh [BUILD_DIR] [N]: simulated requests per second per policy on a synthetic
# `find -exec cat` pair of about N requests (default 2,000,000), each policy alone on one core and
# all in parallel threads, against the issue's goal of 2M requests/s per policy on one core (the
# ratio column); and memory per request next to the model's. Builds bench/simulate-bench.c against
# BUILD_DIR's core library (default build). Run it with nice on a shared machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$build/src/core/libiochart-core.a
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-simulate-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo"
cc -O2 -std=gnu17 -I"$here/../src/core" $(pkg-config --cflags $pkgs) "$here/simulate-bench.c" \
  "$lib" $(pkg-config --libs $pkgs) -lm -o "$tmp/simulate-bench"
export G_MESSAGES_DEBUG=none
"$tmp/simulate-bench" "${2:-2000000}"
