#!/bin/bash
# `iochart --svg F bootchart.tgz`: the boot chart with the bundle's own block I/O, through the CLI.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sample=$IOCHART_SOURCE_ROOT/samples/bootchart-ionice.tgz
fail=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

env -u DISPLAY -u WAYLAND_DISPLAY "$IOCHART" --svg "$tmp/b.svg" --png "$tmp/b.png" --pdf "$tmp/b.pdf" \
  --json "$tmp/b.json" --annotate "1969.2s=marker" "$sample"
check "renders with exit 0" "[ $? -eq 0 ]"
check "svg is valid XML" "xmllint --noout '$tmp/b.svg'"
check "svg keeps labels as text" "grep -q '>marker</text>' '$tmp/b.svg' && grep -q '>Boot chart for vm' '$tmp/b.svg'"
check "png is a PNG" "head -c 8 '$tmp/b.png' | grep -q PNG"
check "pdf is a PDF" "head -c 5 '$tmp/b.pdf' | grep -q '%PDF'"
check "json has the boot and its block I/O by class" "python3 - '$tmp/b.json' <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j['bootchart']['n_samples'] > 10, j['bootchart']['n_samples']
assert j['classes']['idle']['requests'] > 0 and j['classes']['be']['requests'] > 0, j['classes']
assert 'stolen_ns' in j['idle_steal']
PY"
"$IOCHART" --svg "$tmp/x.svg" --annotate "no-such-process" "$sample" 2>"$tmp/err"
check "unknown annotated process: exit 2" "[ $? -eq 2 ] && grep -q 'no-such-process' '$tmp/err'"
# an SVG draws nothing with cairo: with the pinned faces installed its text is measured from
# their table (src/core/render/iochart-font-metrics.c), and cairo, fontconfig and freetype are
# not loaded (they were half of a boot chart SVG's page faults)
if [ "$(fc-match -f '%{file}' 'DejaVu Sans' 2>/dev/null)" = /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
   && [ -z "$(find /usr/local/share/fonts ~/.fonts "${XDG_DATA_HOME:-$HOME/.local/share}/fonts" -mindepth 1 2>/dev/null)" ]; then
  LD_DEBUG=files "$IOCHART" --svg "$tmp/c.svg" --annotate "1969.2s=marker" "$sample" 2>"$tmp/ld"
  check "svg alone loads no cairo" "cmp -s '$tmp/b.svg' '$tmp/c.svg' && grep -q 'file=libarchive' '$tmp/ld' && ! grep -q 'file=libcairo' '$tmp/ld'"
fi
# system calls of a PNG run (strace, where installed): libdeflate, which the PNG's checksums
# need, is loaded with cairo on the thread that loads cairo while the logs are read (the same
# thread opens both), and no output is synced to disk before its rename (a chart is made again
# from its capture: src/core/iochart-output.c)
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  # LeakSanitizer cannot run under ptrace: off for the traced run of a sanitized build
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -qq -e trace=openat,fsync,fdatasync,sync_file_range -o "$tmp/strace" \
    "$IOCHART" --png "$tmp/s.png" --svg "$tmp/s.svg" --json "$tmp/s.json" "$sample" 2>/dev/null
  check "strace: renders with exit 0" "[ $? -eq 0 ]"
  cairo_tid=$(awk '/libcairo\.so/ { print $1; exit }' "$tmp/strace")
  deflate_tid=$(awk '/libdeflate\.so/ { print $1; exit }' "$tmp/strace")
  check "libdeflate is loaded by the thread that loads cairo" \
    "[ -n '$cairo_tid' ] && [ '$cairo_tid' = '$deflate_tid' ]"
  check "no output is synced before its rename" "! grep -qE 'fsync|fdatasync|sync_file_range' '$tmp/strace'"
else
  echo "ok - strace checks skipped: no strace (or no ptrace here)"
fi
"$IOCHART" info "$sample" >"$tmp/info"
check "info summarises the boot" "grep -q 'bootchart capture' '$tmp/info'"
exit $fail
