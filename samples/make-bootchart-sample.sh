#!/bin/bash
# make-bootchart-sample.sh [IOCHART]: records samples/bootchart-ionice.tgz (root, tracefs):
# `iochart record --bootchart` for 2 s at 10 Hz while an idle-class and a best-effort `dd` read
# the same 8 MiB file with direct I/O; then trims it for publication (see samples/README.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
iochart=${1:-$here/../build/src/cli/iochart}
tmp=$(mktemp -d /var/tmp/iochart-sample.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dd if=/dev/urandom of="$tmp/data" bs=1M count=8 status=none; sync
"$iochart" record --bootchart -o "$tmp/raw" --duration 2 --hz 10 &
sleep 0.3
ionice -c3 dd if="$tmp/data" of=/dev/null bs=64k iflag=direct status=none &
ionice -c2 -n0 dd if="$tmp/data" of=/dev/null bs=64k iflag=direct status=none
wait
# keep kernel threads and this script's process subtree (the recorder and the readers); drop the
# rest of a shared build machine's processes, its init's name and its kernel command line
python3 - "$tmp/raw" "$$" <<'PY'
import os, re, sys
d, script = sys.argv[1], int(sys.argv[2])
ps = open(os.path.join(d, "proc_ps.log")).read()
info = {}
for line in ps.splitlines():
    m = re.match(r"(\d+) \((.*)\) \S (\d+)", line)
    if m:
        info.setdefault(int(m[1]), (m[2], int(m[3])))
def in_subtree(pid):
    for _ in range(64):
        if pid == script:
            return True
        if pid not in info:
            return False
        pid = info[pid][1]
    return False
keep = {1, 2} | {pid for pid, (comm, ppid) in info.items() if ppid == 2 or in_subtree(pid)}
out = []
for line in ps.splitlines():
    m = re.match(r"(\d+) ", line)
    if m is None or int(m[1]) in keep:
        if m is not None and int(m[1]) == 1:
            line = re.sub(r"^1 \(.*?\) ", "1 (init) ", line)
        out.append(line)
open(os.path.join(d, "proc_ps.log"), "w").write("\n".join(out) + "\n")
blocks = open(os.path.join(d, "cmdline2.log")).read().split("\n\n")
kept = [b for b in blocks if b.strip() and int(b.split("\n")[0]) in keep - {1}]
open(os.path.join(d, "cmdline2.log"), "w").write("".join(b + "\n\n" for b in kept))
h = open(os.path.join(d, "header")).read()
h = re.sub(r"system.kernel.options = .*", "system.kernel.options = (removed)", h)
open(os.path.join(d, "header"), "w").write(h)
PY
tar -C "$tmp/raw" -czf "$here/bootchart-ionice.tgz" header proc_stat.log proc_diskstats.log \
  proc_meminfo.log proc_ps.log cmdline2.log events.dat
echo "wrote $here/bootchart-ionice.tgz"
