#!/usr/bin/env python3
"""median.py [-n RUNS] [--pre SHELL_CMD] [--cwd DIR] -- CMD ARG...: run CMD RUNS times (default 5),
its output thrown away, and print the median wall seconds and the median CPU seconds (user + sys
of CMD and its children) on one line. --pre runs before each run, untimed (e.g. removing a cache
file the reference tool would reuse). Exits 1 naming CMD when a run fails."""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('-n', type=int, default=5)
    ap.add_argument('--pre')
    ap.add_argument('--cwd')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ['--'] else a.cmd
    if not cmd:
        sys.exit(__doc__)
    walls, cpus = [], []
    for _ in range(a.n):
        if a.pre:
            subprocess.run(a.pre, shell=True, check=True, cwd=a.cwd)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        rc = subprocess.run(cmd, cwd=a.cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        t = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if rc != 0:
            sys.exit(f"error: '{' '.join(cmd)}' failed (exit {rc})")
        walls.append(t)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    print(f'{statistics.median(walls):.4f} {statistics.median(cpus):.4f}')


if __name__ == '__main__':
    main()
