#!/bin/bash
# blktrace-record-sample.sh OUT_DIR [MAX_RECORDS]: a small real blktrace capture, made here.
# blktrace itself fails on these machines (lockdown), so: the ftrace `blk` tracer in binary mode
# (top-level instance only: it is set back to nop at the end) on a private loop disk under BFQ,
# an idle-class and a best-effort direct-I/O reader at once, then blktrace-from-ftrace.py.
# Needs root. Touches nothing but its own loop disk and image under a temporary folder.
set -eu
out=${1:?usage: blktrace-record-sample.sh OUT_DIR [MAX_RECORDS]}; max=${2:-400}
here=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
tmp=$(mktemp -d /tmp/iochart-blk-sample.XXXXXX)
[ "$(cat $T/current_tracer)" = nop ] || { echo "error: the top-level tracer is busy ($(cat $T/current_tracer))" >&2; exit 1; }
dev=$(/work/shared/tools/loop-disk.sh up "$tmp/disk.img" 1 "$tmp/mnt" bfq)
name=$(basename "$dev")
bin0=$(cat $T/options/bin); ctx0=$(cat $T/options/context-info)
reader=
cleanup() {
  # The tracer cannot change while trace_pipe is open (EBUSY): stop our reader first.
  [ -n "$reader" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
  echo nop > $T/current_tracer 2>/dev/null || true
  echo 0 > /sys/block/$name/trace/enable 2>/dev/null || true
  echo $bin0 > $T/options/bin; echo $ctx0 > $T/options/context-info
  /work/shared/tools/loop-disk.sh down "$tmp/mnt" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
for f in a b; do dd if=/dev/urandom of="$tmp/mnt/$f" bs=1M count=8 status=none; done
sync
echo 1 > /sys/block/$name/trace/enable
echo 1 > $T/options/bin; echo 0 > $T/options/context-info
echo blk > $T/current_tracer
timeout 4 cat $T/trace_pipe > "$tmp/raw.bin" &
reader=$!
sleep 0.5
ionice -c3 dd if="$tmp/mnt/a" of=/dev/null bs=64k iflag=direct status=none &
ionice -c2 -n4 dd if="$tmp/mnt/b" of=/dev/null bs=64k iflag=direct status=none
wait %2 2>/dev/null || true
wait $reader || true   # timeout ends it; only then may the tracer change
reader=
echo nop > $T/current_tracer
cp $T/saved_cmdlines "$tmp/cmdlines"
python3 "$here/blktrace-from-ftrace.py" "$tmp/raw.bin" "$tmp/cmdlines" "$out" "$name" "$max"
