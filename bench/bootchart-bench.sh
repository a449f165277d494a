#!/bin/bash
# bootchart-bench.sh [BUILD_DIR]: reading a bootchart capture with a ~1.5 MB proc_ps.log, best of 5
# (goal with the SVG written: under 80 ms). Captures: a synthetic one made here (always) and
# ../shared/bootchart/xrmx-examples-1 (1.4 MB proc_ps.log, when present).
# Builds bench/bootchart-bench.c against BUILD_DIR's core library (default build).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$build/src/core/libiochart-core.a
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-bootchart-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo"
cc -O2 -std=gnu17 -I"$here/../src/core" $(pkg-config --cflags $pkgs) "$here/bootchart-bench.c" \
  "$lib" $(pkg-config --libs $pkgs) -lm -o "$tmp/bench"

# 175 samples 0.1 s apart, 60 long-lived processes and a short-lived one per sample
mkdir "$tmp/synthetic"
python3 - "$tmp/synthetic" <<'PY'
import sys, os
d = sys.argv[1]
open(os.path.join(d, "header"), "w").write("version = bench\ntitle = synthetic\nsystem.cpu = model name : X (4)\n")
with open(os.path.join(d, "proc_ps.log"), "w") as f:
    for i in range(175):
        t = 100 + 10 * i
        f.write(f"{t}\n")
        for pid in range(1, 61):
            f.write(f"{pid} (daemon {pid % 7}) {'RSD'[(i + pid) % 3]} {1 if pid > 1 else 0} {pid} {pid} 0 -1 4194560 "
                    f"{i * 3} 0 {i} 0 {i * pid % 97} {i % 13} 0 0 20 0 1 0 {50 + pid} 12345678 321 "
                    f"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n")
        p = 1000 + i
        f.write(f"{p} (cat) R {1 + i % 60} {p} {p} 0 -1 4194560 1 0 0 0 1 1 0 0 20 0 1 0 {t - 5} 1234 12 "
                f"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n")
        f.write("\n")
with open(os.path.join(d, "proc_stat.log"), "w") as f:
    for i in range(175):
        f.write(f"{100 + 10 * i}\ncpu  {i * 5} 0 {i * 3} {i * 30} {i} 0 0\ncpu0 0 0 0 0 0 0 0\n\n")
with open(os.path.join(d, "proc_diskstats.log"), "w") as f:
    for i in range(175):
        f.write(f"{100 + 10 * i}\n 8 0 sda {i} 0 {i * 64} 0 {i} 0 {i * 8} 0 0 {i * 5} 0\n\n")
PY
ls -l "$tmp/synthetic/proc_ps.log" | awk '{printf "synthetic proc_ps.log: %.2f MB\n", $5 / 1e6}'
cat "$tmp/synthetic"/* > /dev/null
"$tmp/bench" "$tmp/synthetic" 5
xrmx=$here/../../shared/bootchart/xrmx-examples-1
if [ -d "$xrmx" ]; then
  echo "xrmx-examples-1 (proc_ps.log $(du -h "$xrmx/proc_ps.log" | cut -f1)):"
  "$tmp/bench" "$xrmx" 5
fi
