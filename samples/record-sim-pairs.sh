#!/bin/bash
# record-sim-pairs.sh IOCHART OUTDIR: the simulator's recorded pairs (samples/sim-*.dat), root only.
#
# A 1 GiB ext4 image (inode tables written at mkfs, so no ext4lazyinit I/O) holding two trees
# (tdir1, tdir2) of 20 folders of 25 files (16-160 KiB, random, seed 10) is served through ../shared/tools/slowdisk.c (one request at a time, delayed
# like a 7200 rpm disk: seek 1.5 + 7·√(distance/capacity) ms, half a turn 4.17 ms, 120 MB/s)
# with a direct-I/O loop device on top. Each run remounts the file system (noatime: no journal
# writes; a cold page cache),
# sets the loop device's scheduler and records it with `iochart record --device 7,N --no-sched`
# while the readers run at nice -5 (the machine is shared): each reader is
# `ionice -c CLASS find DIR -type f -exec cat {} \;`, a `cat` process per file as in the classic
# report.
#
#   sim-none-alone.dat          none         best-effort reader on tdir1 alone
#   sim-none-idle-vs-normal.dat none         idle reader on tdir2 + best-effort reader on tdir1
#   sim-deadline-idle-vs-normal.dat mq-deadline  the same pair
#   sim-none-normal-vs-normal.dat   none     best-effort readers on tdir2 and tdir1
#
# Then each file is converted to trace-cmd v7 with zstd-compressed sections (`trace-cmd convert`),
# a sixth of its size. The events of other processes on the machine (fork, exec, exit) stay.
set -eu
iochart=$(realpath "${1:?usage: record-sim-pairs.sh IOCHART OUTDIR}")
out=$(realpath "${2:?usage: record-sim-pairs.sh IOCHART OUTDIR}")
tools=$(cd "$(dirname "$0")/../../shared/tools" && pwd)
work=$(mktemp -d /tmp/iochart-sim-pairs.XXXXXX)
fuse=$work/fuse data=$work/data dev=
cleanup () {
  mountpoint -q "$data" && umount "$data"
  [ -n "$dev" ] && losetup -d "$dev"
  mountpoint -q "$fuse" && fusermount3 -u "$fuse"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$fuse" "$data"

gcc -O2 -o "$work/slowdisk" "$tools/slowdisk.c" $(pkg-config --cflags --libs fuse3) -lm
truncate -s 1G "$work/img" && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$work/img"
mount -o loop "$work/img" "$data"
python3 - "$data" <<'PY'
import os, random, sys
random.seed(10)
for t in ('tdir1', 'tdir2'):
    for d in range(20):
        p = f'{sys.argv[1]}/{t}/d{d}'
        os.makedirs(p)
        for f in range(25):
            with open(f'{p}/f{f}', 'wb') as fh:
                fh.write(random.randbytes(random.randint(16, 160) * 1024))
PY
umount "$data"

"$work/slowdisk" "$work/img" "$fuse" -s
dev=$(losetup --direct-io=on -f --show "$fuse/disk.img")
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ' | tr : ,)
reader () { echo "ionice $1 find $data/$2 -type f -exec cat {} \\; >/dev/null"; }

run () {   # run NAME SCHED READER...
  local name=$1 sched=$2; shift 2
  mount -o noatime "$dev" "$data"
  echo "$sched" >"/sys/block/$(basename "$dev")/queue/scheduler"
  local cmd="" r
  for r in "$@"; do cmd+="$r & "; done
  nice -n -5 "$iochart" record -o "$work/$name.dat" --device "$majmin" --no-sched -- bash -c "${cmd}wait"
  umount "$data"
  trace-cmd convert -i "$work/$name.dat" -o "$out/$name.dat" --file-version 7 --compression zstd >/dev/null
}
run sim-none-alone none "$(reader "-c 2 -n 4" tdir1)"
run sim-none-idle-vs-normal none "$(reader "-c 3" tdir2)" "$(reader "-c 2 -n 4" tdir1)"
run sim-deadline-idle-vs-normal mq-deadline "$(reader "-c 3" tdir2)" "$(reader "-c 2 -n 4" tdir1)"
run sim-none-normal-vs-normal none "$(reader "-c 2 -n 4" tdir2)" "$(reader "-c 2 -n 4" tdir1)"
ls -la "$out"/sim-*.dat
