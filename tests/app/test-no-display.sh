#!/bin/sh
# `iochart CAPTURE` with no output option and no display says how to render headless (exit 2),
# and `iochart` alone does the same, instead of a usage error or a GTK crash.
set -u
: "${IOCHART:?}" "${IOCHART_SOURCE_ROOT:?}"
unset DISPLAY WAYLAND_DISPLAY
fail=0
sample="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
for args in "$sample" ""; do
  out=$("$IOCHART" $args 2>&1); rc=$?
  [ $rc = 2 ] || { echo "FAIL: 'iochart $args' exited $rc"; fail=1; }
  echo "$out" | grep -q -- "--png chart.png" || { echo "FAIL: 'iochart $args' does not say how to render: $out"; fail=1; }
done
# `iochart live` checks its --class rules before it looks for a display
out=$("$IOCHART" live --class cat=sometimes 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "cat=sometimes" || { echo "FAIL: 'iochart live --class cat=sometimes' exited $rc: $out"; fail=1; }
out=$("$IOCHART" live --class cat=idle 2>&1); rc=$?
echo "$out" | grep -q "record --live" || { echo "FAIL: 'iochart live --class cat=idle' without a display: $out"; fail=1; }
[ $fail = 0 ] && echo "ok: no display, told how to render headless"
exit $fail
