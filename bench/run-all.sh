#!/bin/bash
# run-all.sh [BLKTRACE_DIR [DAT]]: every row of issue 14's speed table from one run, iochart and
# the reference tool side by side. The two run in turns, round by round (bench/paired.py: ROUNDS
# rounds, default 11, each running both, in alternating order), so that both see the same load;
# a ratio is taken within each round and the table gives its median with its least and greatest
# over the rounds, wall and CPU (user + sys): the reference tools' own times swing by half
# between quiet runs (blkparse 1.2-2.2 s), which a median of a few separate runs hid. A parallel
# reader spends more CPU than wall, so both ratios count; on a busy machine the CPU ratio is the
# steadier one.
#   blktrace ingest   `iochart info` vs `blkparse -o /dev/null`, on BLKTRACE_DIR repeated to 2.04M
#                     records (blktrace-scale.py), to 145k (the size of issue 14's 20 s capture,
#                     which ../shared does not hold) and unrepeated
#   --svg             of the 2.04M-record capture vs `iowatcher -o x.svg` (its blkparse dump removed
#                     before each run: it parses the capture too)
#   boot chart        `iochart --png/--svg` vs pybootchartgui (../shared/tools/pybootchartgui, needs
#                     python3-cairo, run by /usr/bin/python3) on ../shared/bootchart/xrmx-examples-1 (1.5 MB of logs)
#   .dat ingest       `iochart info --json` vs a bare libtracecmd iteration (dat-ingest-bare.c,
#                     opened without plugins as iochart does)
# Defaults: BLKTRACE_DIR ../shared/captures/blktrace-bfq-idle-vs-normal-3s, DAT
# ../shared/captures/seed-bfq-idle-vs-normal.dat. A row whose capture or tool is absent says so.
# IOCHART: the iochart binary (default build/src/cli/iochart). About 2 minutes at 11 rounds.
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
rounds=${ROUNDS:-11}
paired() { python3 "$here/paired.py" -n "$rounds" "$@"; }

# row WORK GOAL REF_NAME FIGURES...: one line of the table from paired.py's figures. GOAL is ">=N"
# (iochart at least N times faster) or "<=N" (iochart's time at most N times the reference's).
# Times: median wall [least-greatest] (cpu median); ratio: median of the rounds' ratios
# [least-greatest], wall then CPU.
row() {
  local work=$1 goal=$2 ref=$3
  shift 3
  awk -v work="$work" -v goal="$goal" -v ref="$ref" -v f="$*" 'BEGIN {
    split(f, v, " ")
    inv = substr(goal, 1, 2) == "<="
    u = inv ? "x ref" : "x"
    # paired.py gives reference / iochart: a "<=" goal wants its inverse
    wr = inv ? 1 / v[9] : v[9];  wlo = inv ? 1 / v[11] : v[10];  whi = inv ? 1 / v[10] : v[11]
    cr = inv ? 1 / v[12] : v[12]; clo = inv ? 1 / v[14] : v[13]; chi = inv ? 1 / v[13] : v[14]
    printf "| %s | %.0f ms [%.0f-%.0f] (cpu %.0f) | %s %.0f ms [%.0f-%.0f] (cpu %.0f) | **%.1f%s** [%.1f-%.1f] (cpu %.1f%s [%.1f-%.1f]) | %s |\n",
      work, v[1] * 1000, v[2] * 1000, v[3] * 1000, v[4] * 1000, ref, v[5] * 1000, v[6] * 1000, v[7] * 1000, v[8] * 1000,
      wr, u, wlo, whi, cr, u, clo, chi, goal }'
}
absent() { echo "| $1 | - | - | - | absent: $2 |"; }

echo "iochart $(git -C "$here/.." describe --always --dirty 2>/dev/null || echo '?'), $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M) UTC; $rounds rounds, each running both in turns;" \
  "medians [least-greatest over the rounds]; a ratio is taken within each round"
echo "| work | iochart wall (cpu) | reference wall (cpu) | ratio wall (cpu) | goal |"
echo "|---|---|---|---|---|"

# the fixed cost every run pays: loading 48 shared libraries and setting up GLib
row "start-up: an empty run (--version)" "-" "blkparse --version" \
  $(paired -- "$iochart" --version --vs blkparse --version)

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
  row "blktrace ingest, $(basename "$blk_src") repeated to $n_big records ($mb MB)" ">=25" "blkparse" \
    $(paired -- "$iochart" info "$big" --vs blkparse -i "$dev" -D "$big" -o /dev/null)
  row "the same, repeated to $n_mid records" ">=15" "blkparse" \
    $(paired -- "$iochart" info "$mid" --vs blkparse -i "$dev" -D "$mid" -o /dev/null)
  row "the same, unrepeated ($n_small records)" "-" "blkparse" \
    $(paired -- "$iochart" info "$blk_src" --vs blkparse -i "$dev" -D "$blk_src" -o /dev/null)
  if command -v iowatcher >/dev/null; then
    row "--svg of the $n_big-record capture" ">=20" "iowatcher" \
      $(paired --cwd-b "$big" --pre-b "rm -f $dev.dump" -- "$iochart" --svg "$tmp/iochart.svg" "$big" \
        --vs iowatcher -t "$dev" -o "$tmp/iowatcher.svg")
  else
    absent "--svg of the $n_big-record capture" "iowatcher (Debian package blktrace)"
  fi
  rm -rf "$big" "$mid"
else
  absent "blktrace ingest and --svg" "'$blk_src' or blkparse (Debian package blktrace)"
fi

if [ -d "$bootchart" ] && [ -f "$pybootchartgui" ] && /usr/bin/python3 -c 'import cairo' 2>/dev/null; then
  for fmt in png svg; do
    row "boot chart ${fmt^^}, $(basename "$bootchart") ($(du -sh "$bootchart" | cut -f1))" ">=10" "pybootchartgui" \
      $(paired -- "$iochart" --$fmt "$tmp/iochart.$fmt" "$bootchart" \
        --vs /usr/bin/python3 "$pybootchartgui" -f $fmt -o "$tmp/py.$fmt" "$bootchart")
  done
else
  absent "boot chart PNG and SVG" "'$bootchart', '$pybootchartgui' or python3-cairo"
fi

if [ -f "$dat" ]; then
  flags=$(pkg-config --cflags --libs libtracecmd)
  cc -O2 -DBARE_NO_PLUGINS -o "$tmp/bare" "$here/dat-ingest-bare.c" $flags
  n=$("$tmp/bare" "$dat" | cut -d' ' -f1)
  row ".dat ingest, $(basename "$dat") ($n records, model built)" "<=1.1" "bare libtracecmd" \
    $(paired -- "$iochart" info --json "$dat" --vs "$tmp/bare" "$dat")
else
  absent ".dat ingest" "'$dat'"
fi
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(date -u +%H:%M) UTC"
