#!/bin/sh
# dat-ingest.sh [IOCHART] [CAPTURE.dat]: .dat ingest (`iochart info --json`: the full model built
# and summarised) against a bare libtracecmd iteration of the same file (dat-ingest-bare.c, as
# tracecmd_open (path, 0) and also without plugins, as iochart opens it). Best of 5 each, wall
# and CPU (user + sys) seconds; events/s and the ratio. Goal (issue 14): ratio <= 1.1.
# On a shared machine trust the CPU figures: wall times swing with other people's load.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
iochart=${1:-$here/../build/src/cli/iochart}
capture=${2:-$here/../../shared/captures/seed-bfq-idle-vs-normal.dat}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
flags=$(pkg-config --cflags --libs libtracecmd)
cc -O2 -o "$tmp/bare" "$here/dat-ingest-bare.c" $flags
cc -O2 -DBARE_NO_PLUGINS -o "$tmp/bare-np" "$here/dat-ingest-bare.c" $flags

python3 - "$capture" "$tmp/bare" "$tmp/bare-np" "$iochart" <<'PY'
import os, resource, subprocess, sys, time
capture, bare, bare_np, iochart = sys.argv[1:]

def best(cmd):
    wall = cpu = None
    for _ in range(5):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        t = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        c = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        wall = t if wall is None else min(wall, t)
        cpu = c if cpu is None else min(cpu, c)
    return wall, cpu

n = int(subprocess.run([bare, capture], check=True, capture_output=True, text=True).stdout.split()[0])
rows = [('bare libtracecmd, tracecmd_open (f, 0)', best([bare, capture])),
        ('bare libtracecmd, no plugins', best([bare_np, capture])),
        ('iochart info --json', best([iochart, 'info', '--json', capture]))]
print(f'{os.path.basename(capture)}: {n} events, best of 5')
for name, (wall, cpu) in rows:
    print(f'{name:40s} wall {wall:.3f} s  cpu {cpu:.3f} s  ({n / cpu:,.0f} events/cpu-s)')
full = rows[2][1]
for name, (wall, cpu) in rows[:2]:
    print(f'ratio to {name}: wall {full[0] / wall:.2f}, cpu {full[1] / cpu:.2f} (goal <= 1.1)')
PY
