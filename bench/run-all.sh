#!/bin/bash
# run-all.sh [BLKTRACE_DIR [DAT]]: every row of issue 14's speed table from one run, iochart and
# the reference tool side by side, medians of 5 (bench/median.py), wall and CPU seconds and both
# ratios. On a shared machine the CPU ratio is the steadier one; a parallel reader spends more CPU
# than wall, so both count.
#   blktrace ingest   `iochart info` vs `blkparse -o /dev/null`, on BLKTRACE_DIR repeated to 2.04M
#                     records (blktrace-scale.py), to 145k (the size of issue 14's 20 s capture,
#                     which ../shared does not hold) and unrepeated
#   --svg             of the 2.04M-record capture vs `iowatcher -o x.svg` (its blkparse dump removed
#                     before each run: it parses the capture too)
#   boot chart        `iochart --png/--svg` vs pybootchartgui (../shared/tools/pybootchartgui, needs
#                     python3-cairo, run by /usr/bin/python3) on ../shared/bootchart/xrmx-examples-1 (1.5 MB of logs)
#   .dat ingest       `iochart info --json` vs a bare libtracecmd iteration (dat-ingest-bare.c,
#                     opened without plugins as iochart does), CPU time
# Defaults: BLKTRACE_DIR ../shared/captures/blktrace-bfq-idle-vs-normal-3s, DAT
# ../shared/captures/seed-bfq-idle-vs-normal.dat. A row whose capture or tool is absent says so.
# IOCHART: the iochart binary (default build/src/cli/iochart).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shared=$here/../../shared
blk_src=${1:-$shared/captures/blktrace-bfq-idle-vs-normal-3s}
dat=${2:-$shared/captures/seed-bfq-idle-vs-normal.dat}
bootchart=$shared/bootchart/xrmx-examples-1
pybootchartgui=$shared/tools/pybootchartgui/pybootchartgui.py
iochart=${IOCHART:-$here/../build/src/cli/iochart}
iochart=$(cd "$(dirname "$iochart")" && pwd)/$(basename "$iochart")
[ -x "$iochart" ] || { echo "error: '$iochart': no iochart binary (set IOCHART)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/iochart-run-all.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
median() { nice -n 0 python3 "$here/median.py" "$@"; }

# row WORK GOAL OURS_WALL OURS_CPU REF_NAME REF_WALL REF_CPU: one line of the table. GOAL is
# ">=N" (iochart at least N times faster) or "<=N" (iochart's time at most N times the reference's).
row() {
  awk -v work="$1" -v goal="$2" -v ow="$3" -v oc="$4" -v ref="$5" -v rw="$6" -v rc="$7" 'BEGIN {
    if (substr(goal, 1, 2) == "<=") { wr = ow / rw; cr = oc / rc; u = "x ref" }
    else { wr = rw / ow; cr = rc / (oc > 0 ? oc : 0.0001); u = "x faster" }
    printf "| %s | %.0f ms (cpu %.0f) | %s %.0f ms (cpu %.0f) | %.1f%s (cpu %.1f) | %s |\n",
      work, ow * 1000, oc * 1000, ref, rw * 1000, rc * 1000, wr, u, cr, goal }'
}
absent() { echo "| $1 | - | - | - | absent: $2 |"; }

echo "iochart $(git -C "$here/.." describe --always --dirty 2>/dev/null || echo '?'), $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg), medians of 5"
echo "| work | iochart | reference | ratio | goal |"
echo "|---|---|---|---|---|"

# the fixed cost every run pays: loading 48 shared libraries and setting up GLib
row "start-up: an empty run (--version)" "-" $(median -n 21 -- "$iochart" --version) \
  "blkparse --version" $(median -n 21 -- blkparse --version)

if [ -d "$blk_src" ] && command -v blkparse >/dev/null; then
  big=$tmp/blk-big mid=$tmp/blk-mid
  python3 "$here/blktrace-scale.py" "$blk_src" "$big" 2040000 >/dev/null
  python3 "$here/blktrace-scale.py" "$blk_src" "$mid" 145000 >/dev/null
  dev=$(ls "$blk_src" | sed -n 's/\.blktrace\.[0-9]*$//p' | head -1)
  n_big=$("$iochart" info --json "$big" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
  n_mid=$("$iochart" info --json "$mid" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
  n_small=$("$iochart" info --json "$blk_src" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
  mb=$(du -sm "$big" | cut -f1)
  cat "$big"/* "$mid"/* "$blk_src"/* >/dev/null   # both tools start from a warm page cache
  row "blktrace ingest, $(basename "$blk_src") repeated to $n_big records ($mb MB)" ">=25" \
    $(median -- "$iochart" info "$big") "blkparse" $(median -- blkparse -i "$dev" -D "$big" -o /dev/null)
  row "the same, repeated to $n_mid records" ">=15" \
    $(median -- "$iochart" info "$mid") "blkparse" $(median -- blkparse -i "$dev" -D "$mid" -o /dev/null)
  row "the same, unrepeated ($n_small records)" "-" \
    $(median -- "$iochart" info "$blk_src") "blkparse" $(median -- blkparse -i "$dev" -D "$blk_src" -o /dev/null)
  if command -v iowatcher >/dev/null; then
    row "--svg of the $n_big-record capture" ">=20" \
      $(median -- "$iochart" --svg "$tmp/iochart.svg" "$big") \
      "iowatcher" $(median --cwd "$big" --pre "rm -f $dev.dump" -- iowatcher -t "$dev" -o "$tmp/iowatcher.svg")
  else
    absent "--svg of the $n_big-record capture" "iowatcher (Debian package blktrace)"
  fi
  rm -rf "$big" "$mid"
else
  absent "blktrace ingest and --svg" "'$blk_src' or blkparse (Debian package blktrace)"
fi

if [ -d "$bootchart" ] && [ -f "$pybootchartgui" ] && /usr/bin/python3 -c 'import cairo' 2>/dev/null; then
  for fmt in png svg; do
    row "boot chart ${fmt^^}, $(basename "$bootchart") ($(du -sh "$bootchart" | cut -f1))" ">=10" \
      $(median -- "$iochart" --$fmt "$tmp/iochart.$fmt" "$bootchart") \
      "pybootchartgui" $(median -- /usr/bin/python3 "$pybootchartgui" -f $fmt -o "$tmp/py.$fmt" "$bootchart")
  done
else
  absent "boot chart PNG and SVG" "'$bootchart', '$pybootchartgui' or python3-cairo"
fi

if [ -f "$dat" ]; then
  flags=$(pkg-config --cflags --libs libtracecmd)
  cc -O2 -DBARE_NO_PLUGINS -o "$tmp/bare" "$here/dat-ingest-bare.c" $flags
  n=$("$tmp/bare" "$dat" | cut -d' ' -f1)
  row ".dat ingest, $(basename "$dat") ($n records, model built)" "<=1.1" \
    $(median -- "$iochart" info --json "$dat") "bare libtracecmd" $(median -- "$tmp/bare" "$dat")
else
  absent ".dat ingest" "'$dat'"
fi
