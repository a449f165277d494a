#!/bin/bash
# record-bench.sh [SECONDS] [READERS]: how many events a second `iochart record --live` handles.
#
# A loop device backed by tmpfs (direct I/O, no scheduler) is read 512 bytes at a time by READERS
# `dd` processes (half idle-class, half best-effort) for SECONDS, while `iochart record --live`
# records, decodes every ring-buffer page and builds the live model from it (requests matched,
# status a second from its snapshot). Prints the events iochart built live a second, the events
# the kernel lost (ring buffer full), and, as the reference, the events `trace-cmd report` reads
# back from the same file (the ratio is 1 when iochart lost none), and the requests of the live
# model against those `iochart info` reads back from the file. Needs root.
set -eu
secs=${1:-5} readers=${2:-2}
IOCHART=${IOCHART:-$(dirname "$0")/../build/src/cli/iochart}
[ "$(id -u)" = 0 ] || { echo "record-bench: needs root" >&2; exit 77; }
command -v trace-cmd >/dev/null || { echo "record-bench: needs trace-cmd" >&2; exit 77; }
tmp=$(mktemp -d /dev/shm/iochart-record-bench.XXXXXX)
dev=
trap '[ -n "$dev" ] && losetup -d "$dev"; rm -rf "$tmp"' EXIT
truncate -s 256M "$tmp/disk.img"
dev=$(losetup --direct-io=on -f --show "$tmp/disk.img")
echo none > /sys/block/$(basename "$dev")/queue/scheduler
dd if=/dev/zero of="$dev" bs=1M count=256 oflag=direct status=none

(sleep 0.3
 for i in $(seq 1 "$readers"); do
   class=$((i % 2 ? 3 : 2))
   timeout "$secs" ionice -c$class dd if="$dev" of=/dev/null bs=512 iflag=direct skip=$((i * 50000)) status=none &
 done
 wait) &
/usr/bin/time -f "%M %U %S" -o "$tmp/time" \
  "$IOCHART" record -o "$tmp/b.dat" --no-sched --live --duration "$((secs + 1))" 2> "$tmp/log"
wait
decoded=$(sed -n 's/.*built live \([0-9]*\) events into \([0-9]*\) requests.*/\1 \2/p' "$tmp/log")
lost=$(grep 'events/s · lost' "$tmp/log" | tail -1 | sed 's/.*lost \([0-9]*\).*/\1/')
peak=$(grep -o '[0-9,]* events/s' "$tmp/log" | tr -d , | sort -n | tail -1)
start=$(date +%s.%N)
reference=$(trace-cmd report "$tmp/b.dat" 2>/dev/null | grep -vc '^cpus=')
ref_secs=$(echo "$(date +%s.%N) - $start" | bc)
read -r rss user sys < "$tmp/time"
read -r all requests <<< "$decoded"
block=$(trace-cmd report "$tmp/b.dat" 2>/dev/null | grep -c ' block_')
stored=$("$IOCHART" info --json "$tmp/b.dat" | python3 -c 'import json, sys; print(json.load(sys.stdin)["memory"]["requests_stored"])')
echo "iochart record --live: $all events built live ($block block events in the file), $((all / secs)) events/s" \
     "over ${secs} s of load (busiest second $peak); $requests requests in the live model, $stored read back" \
     "from the file; kernel lost ${lost:-0}; max RSS $((rss / 1024)) MiB; CPU ${user}+${sys} s"
echo "trace-cmd report (reference): $reference events read back from the same file in ${ref_secs} s"
echo "ratio built live / reference: $(echo "scale=4; $all / $reference" | bc)"
