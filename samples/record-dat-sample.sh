#!/bin/bash
# record-dat-sample.sh NAME SCHED: records samples/NAME.dat, NAME.trace.txt, NAME.report.txt and
# NAME.expected on a private loop disk (see README.md, section "trace-cmd .dat samples").
# Needs root, trace-cmd and the tools in ../shared/tools. One tracefs instance is read twice: its
# `trace` file (the kernel's text) and `trace-cmd extract` (the .dat): the same events in both.
set -eu
name=${1:?usage: record-dat-sample.sh NAME SCHED}; sched=${2:?usage: record-dat-sample.sh NAME SCHED}
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../../shared/tools
img=/tmp/iochart-sample-$$.img mnt=/tmp/iochart-sample-$$
T=/sys/kernel/tracing I=$T/instances/iochart$$
events="block/block_rq_issue block/block_rq_complete block/block_rq_insert block/block_bio_queue
block/block_rq_merge block/block_rq_requeue block/block_bio_backmerge block/block_bio_frontmerge
sched/sched_process_fork sched/sched_process_exec sched/sched_process_exit syscalls/sys_enter_ioprio_set"

# Formatted here without lazy init, or ext4lazyinit's zeroing writes would fill the capture.
truncate -s 1G "$img"; mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$img"
loop=$("$tools/loop-disk.sh" up "$img" 1 "$mnt" "$sched")
cleanup() { [ -d $I ] && { echo 0 > $I/tracing_on; rmdir $I; }; "$tools/loop-disk.sh" down "$mnt"; rm -f "$img"; }
trap cleanup EXIT
# Per reader a folder of 24 small files (a `cat` each: fork, exec, exit) and one 1 MiB file read
# with direct I/O in 16 KiB requests; written now and read back with a cold cache.
for c in rt be idle; do
  mkdir "$mnt/$c"
  for i in $(seq 1 24); do head -c $(( (i % 6 + 1) * 16 ))k /dev/urandom > "$mnt/$c/f$i"; done
  head -c 1M /dev/urandom > "$mnt/$c.big"
done
sync; echo 3 > /proc/sys/vm/drop_caches

mountpoint -q $T || mount -t tracefs nodev $T
mkdir $I; echo 0 > $I/tracing_on; echo 4096 > $I/buffer_size_kb
for e in $events; do echo 1 > $I/events/$e/enable; done
# Only the loop disk: the virtual disk below it carries other people's I/O too.
devt=$(( $(stat -c '0x%t' "$loop") << 20 | $(stat -c '0x%T' "$loop") ))
for e in $events; do case $e in block/*) echo "dev == $devt" > $I/events/$e/filter;; esac; done
echo 1 > $I/tracing_on
reader() { find "$mnt/$1" -type f -exec cat {} \; > /dev/null; dd if="$mnt/$1.big" of=/dev/null bs=16k iflag=direct status=none; }
ionice -c 1 -n 2 bash -c "$(declare -f reader); mnt=$mnt; reader rt" &
ionice -c 2 -n 5 bash -c "$(declare -f reader); mnt=$mnt; reader be" &
ionice -c 3 bash -c "$(declare -f reader); mnt=$mnt; reader idle" &
wait
# Some writes too: a synced file gives write, flush and FUA requests.
ionice -c 2 -n 0 sh -c "head -c 256k /dev/zero > '$mnt/w'; sync '$mnt/w'"
echo 0 > $I/tracing_on

cat $I/trace > "$here/$name.trace.txt"
# Without kallsyms (1 MB compressed, nothing of ours in it): hide /proc/kallsyms from the extract.
unshare -m sh -c "mount --bind /dev/null /proc/kallsyms && trace-cmd extract -B iochart$$ -o '$here/$name.dat'" >/dev/null 2>&1
trace-cmd report "$here/$name.dat" > "$here/$name.report.txt" 2>/dev/null
python3 "$here/../tests/dat/issue-totals.py" "$here/$name.report.txt" > "$here/$name.expected"
echo "recorded $name on $loop ($sched): $(grep -c . "$here/$name.report.txt") report lines" >&2
