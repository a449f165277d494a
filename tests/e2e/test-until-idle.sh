#!/bin/bash
# `iochart record --bootchart --until-idle` on a busy machine says every 10 s why it still records,
# and Ctrl-C still leaves a bundle. Samples /proc only (--no-events): needs no tracefs.
set -u
tmp=$(mktemp -d); trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
sh -c 'while :; do :; done' & busy=$!
timeout -s INT 13 "$IOCHART" record --bootchart --no-events --until-idle -o "$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
if grep -q "^iochart: --until-idle: still recording after 1[0-9] s: the CPU is [0-9]*% busy" "$tmp/err"; then
  echo "ok - --until-idle says the CPU keeps it recording"
else
  echo "not ok - no reason given (exit $rc): $(cat "$tmp/err")"; fail=1
fi
if [ -f "$tmp/out/header" ] || [ -f "$tmp/out" ]; then echo "ok - Ctrl-C leaves the bundle"; else echo "not ok - no bundle"; fail=1; fi
exit $fail
