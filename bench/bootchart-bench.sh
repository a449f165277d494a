#!/bin/bash
# bootchart-bench.sh [BUILD_DIR]: reading a bootchart capture with a ~1.5 MB proc_ps.log, then
# reading it and writing its chart as SVG (goal: under 80 ms), best of 5; PNG apart (drawing and
# encoding, the model loaded). Captures: a synthetic one made here (always),
# ../shared/bootchart/xrmx-examples-1 (1.4 MB proc_ps.log, when present) and the sample bundle
# samples/bootchart-ionice.tgz (with its events.dat as block I/O). pybootchartgui is timed on the
# same captures when installed (Debian 12 has no package for it: bootchart2 left Debian).
# Builds bench/bootchart-bench.c against BUILD_DIR's core library (default build).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$build/src/core/libiochart-core.a
[ -f "$lib" ] || { echo "error: '$lib': build the project first (ninja -C $build)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-bootchart-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pkgs="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libarchive libtracecmd libtracefs libtraceevent cairo libpng zlib"
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

# best of 5 wall times of pybootchartgui writing FORMAT, in ms
py_best () {
  local best=""
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s%N)
    pybootchartgui -f "$2" -o "$tmp/py.$2" "$1" >/dev/null 2>&1 || { echo "failed"; return; }
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

run () {   # NAME CAPTURE
  echo "$1:"
  out=$("$tmp/bench" "$2" 5)
  echo "$out" | sed 's/^/  iochart /'
  if command -v pybootchartgui >/dev/null; then
    ours_svg=$(echo "$out" | sed -n 's/^read+svg: \([0-9.]*\) ms.*/\1/p')
    ours_png=$(echo "$out" | sed -n 's/^png.*: \([0-9.]*\) ms.*/\1/p')
    for fmt in svg png; do
      py=$(py_best "$2" $fmt)
      ours=$ours_svg; [ $fmt = png ] && ours=$ours_png
      if [ "$py" = failed ]; then
        echo "  pybootchartgui $fmt: failed on this capture"
      else
        awk -v py="$py" -v ours="$ours" -v f=$fmt \
          'BEGIN { printf "  pybootchartgui %s: %d ms best of 5 (iochart %.1f ms: %.1fx faster)\n", f, py, ours, py / ours }'
      fi
    done
  fi
}

if ! command -v pybootchartgui >/dev/null; then
  if apt-cache policy pybootchartgui bootchart2 2>/dev/null | grep Candidate | grep -qv '(none)'; then
    why="installable: apt-get install bootchart2"
  else
    why="no Debian 12 package"
  fi
  echo "pybootchartgui: not installed ($why): no comparison; issue 5 quotes ~0.8 s PNG, ~0.2 s SVG for it"
fi
run "synthetic (proc_ps.log $(du -h "$tmp/synthetic/proc_ps.log" | cut -f1))" "$tmp/synthetic"
xrmx=$here/../../shared/bootchart/xrmx-examples-1
if [ -d "$xrmx" ]; then
  run "xrmx-examples-1 (proc_ps.log $(du -h "$xrmx/proc_ps.log" | cut -f1))" "$xrmx"
fi
run "samples/bootchart-ionice.tgz (with events.dat)" "$here/../samples/bootchart-ionice.tgz"
