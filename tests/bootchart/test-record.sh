#!/bin/sh
# `iochart record --bootchart` on a workload: an idle-class and a best-effort reader (direct I/O,
# so the disk sees it) while the collector samples /proc and records block events in a private
# tracefs instance. Checks the bundle loads and events.dat holds both classes for `dd`.
# Needs root and tracefs (skips with 77 otherwise).
set -eu
[ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/instances ] || { echo "skip: needs root and tracefs"; exit 77; }
command -v trace-cmd >/dev/null || { echo "skip: no trace-cmd"; exit 77; }
tmp=$(mktemp -d /var/tmp/iochart-record-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dd if=/dev/urandom of="$tmp/data" bs=1M count=16 status=none
sync
"${IOCHART:?}" record --bootchart -o "$tmp/out" --duration 3 --hz 10 2>"$tmp/log" &
rec=$!
sleep 0.5
ionice -c3 dd if="$tmp/data" of=/dev/null bs=64k iflag=direct status=none &
ionice -c2 -n0 dd if="$tmp/data" of=/dev/null bs=64k iflag=direct status=none
wait
grep -q "wrote '$tmp/out'" "$tmp/log"
for f in header proc_ps.log proc_stat.log proc_diskstats.log proc_meminfo.log cmdline2.log events.dat; do
  [ -s "$tmp/out/$f" ] || { echo "missing $f" >&2; exit 1; }
done
samples=$(grep -c '^[0-9]*$' "$tmp/out/proc_stat.log")
[ "$samples" -ge 20 ] || { echo "only $samples samples in 3 s at 10 Hz" >&2; exit 1; }
trace-cmd report -i "$tmp/out/events.dat" > "$tmp/report" 2>/dev/null
grep -q 'block_rq_issue: .* 0x3,0,[0-7] \[dd\]' "$tmp/report" || { echo "no idle-class dd issue" >&2; exit 1; }
grep -q 'block_rq_issue: .* 0x2,0,0 \[dd\]' "$tmp/report" || { echo "no be,0 dd issue" >&2; exit 1; }
grep -q 'sched_process_exec: .*filename=/usr/bin/dd' "$tmp/report"
# a second recorder at once gets its own instance; the top-level buffer is never touched
echo ok
