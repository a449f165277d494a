#!/bin/bash
# make-text-samples.sh OUTDIR: records the small text samples of samples/README.md ("Text samples")
# on a private loop disk (bfq), while three ionice'd readers (rt 2, be 5, idle) walk their own
# copy of a small tree, each file read by a new `cat` (fork, exec, exit, ioprio inherited).
#   ftrace-ionice-loop.trace   the `trace` file of a private tracefs instance (block events of
#                              the loop device, sched and sys_enter_ioprio_set events of all)
#   blk-ionice-loop.txt        the top-level `blk` tracer's text for the loop device alone
# Needs root; uses ../shared/tools/loop-disk.sh. Leaves current_tracer at nop.
set -eu
out=$(realpath "${1:?usage: make-text-samples.sh OUTDIR}")
tools=$(dirname "$(realpath "$0")")/../../shared/tools
T=/sys/kernel/tracing
img=/tmp/iochart-text-samples.img mnt=/tmp/iochart-text-samples
mountpoint -q $T || mount -t tracefs nodev $T

dev=$("$tools/loop-disk.sh" up $img 1 $mnt bfq)
cleanup () {
  2>/dev/null echo 0 > $T/instances/itext$$/tracing_on || true
  rmdir $T/instances/itext$$ 2>/dev/null || true
  2>/dev/null echo 0 > /sys/block/$(basename $dev)/trace/enable || true
  [ "$(cat $T/current_tracer)" = blk ] && echo nop > $T/current_tracer
  "$tools/loop-disk.sh" down $mnt
  rm -f $img
}
trap cleanup EXIT

for d in a b c; do
  mkdir -p $mnt/$d
  for i in $(seq 1 24); do head -c $((16384 * i)) /dev/urandom > $mnt/$d/f$i; done
done
sync

readers () {
  echo 3 > /proc/sys/vm/drop_caches
  ionice -c 1 -n 2 find $mnt/a -type f -exec cat {} \; > /dev/null &
  ionice -c 2 -n 5 find $mnt/b -type f -exec cat {} \; > /dev/null &
  ionice -c 3 find $mnt/c -type f -exec cat {} \; > /dev/null &
  wait
  sync
}

# 1. raw ftrace text from a private instance
I=$T/instances/itext$$
mkdir $I
echo 0 > $I/tracing_on
echo 4096 > $I/buffer_size_kb
for e in block/block_rq_issue block/block_rq_complete block/block_rq_insert block/block_bio_queue \
         block/block_rq_merge block/block_rq_requeue block/block_bio_backmerge \
         sched/sched_process_fork sched/sched_process_exec sched/sched_process_exit \
         syscalls/sys_enter_ioprio_set; do
  echo 1 > $I/events/$e/enable
done
# Block events of the loop disk only: the disk below it carries other people's I/O.
devnum=$(( $(stat -c '0x%t' $dev) << 20 | $(stat -c '0x%T' $dev) ))
for e in $I/events/block/block_{rq,bio}_*/format; do
  grep -q 'field:dev_t dev;' $e && echo "dev == $devnum" > ${e%/format}/filter
done
echo 1 > $I/tracing_on
readers
echo 0 > $I/tracing_on
cat $I/trace > "$out/ftrace-ionice-loop.trace"
rmdir $I

# 2. the blk tracer (top level only), for the loop device alone
[ "$(cat $T/current_tracer)" = nop ] || { echo "current_tracer is busy" >&2; exit 1; }
echo 1 > /sys/block/$(basename $dev)/trace/enable
echo blk > $T/current_tracer
echo > $T/trace
readers
echo 0 > /sys/block/$(basename $dev)/trace/enable
cat $T/trace > "$out/blk-ionice-loop.txt"
echo nop > $T/current_tracer
ls -l "$out/ftrace-ionice-loop.trace" "$out/blk-ionice-loop.txt"
