#!/usr/bin/env python3
"""paired.py [-n ROUNDS] [--pre-a SH] [--pre-b SH] [--cwd-a DIR] [--cwd-b DIR] -- A ARG... --vs B ARG...:
run commands A (ours) and B (the reference) in turns, ROUNDS times each (default 11), their output
thrown away; each round runs both, A first in even rounds and B first in odd ones, so that both
see the same load and neither always follows the other. Prints one line of seconds and ratios:

  A_WALL A_WALL_MIN A_WALL_MAX A_CPU B_WALL B_WALL_MIN B_WALL_MAX B_CPU
  RATIO_WALL RATIO_WALL_MIN RATIO_WALL_MAX RATIO_CPU RATIO_CPU_MIN RATIO_CPU_MAX

times are medians over the rounds (and their least and greatest), CPU is user + sys of the
command and its children, and a ratio is B / A taken within each round (the two runs of a round
share its load), its median and its least and greatest over the rounds. --pre-a/--pre-b run
before each run of A/B, untimed (e.g. removing a cache file the reference tool would reuse).
Exits 1 naming the command when a run fails."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def run(cmd, cwd, pre):
    """Wall and CPU seconds of one run: posix_spawn and wait4, which cost far less than
    subprocess's set-up (3-10 ms, which would be counted in a 2 ms run)."""
    if pre:
        subprocess.run(pre, shell=True, check=True, cwd=cwd)
    null = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    path = shutil.which(cmd[0]) or cmd[0]
    here = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)   # posix_spawn has no cwd of its own before Python 3.13
        t = time.perf_counter()
        pid = os.posix_spawn(path, cmd, os.environ, file_actions=actions)
        _, status, ru = os.wait4(pid, 0)
        t = time.perf_counter() - t
    finally:
        os.chdir(here)
        os.close(null)
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit(f"error: '{' '.join(cmd)}' failed (exit {rc})")
    return t, ru.ru_utime + ru.ru_stime


def spread(values):
    return [statistics.median(values), min(values), max(values)]


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('-n', type=int, default=11)
    for side in ('a', 'b'):
        ap.add_argument(f'--pre-{side}')
        ap.add_argument(f'--cwd-{side}')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    o = ap.parse_args()
    cmd = o.cmd[1:] if o.cmd[:1] == ['--'] else o.cmd
    if '--vs' not in cmd or cmd.index('--vs') in (0, len(cmd) - 1):
        sys.exit(__doc__)
    a, b = cmd[:cmd.index('--vs')], cmd[cmd.index('--vs') + 1:]
    wa, ca, wb, cb = [], [], [], []
    for i in range(o.n):
        order = ((a, o.cwd_a, o.pre_a, wa, ca), (b, o.cwd_b, o.pre_b, wb, cb))
        for c, cwd, pre, walls, cpus in (order if i % 2 == 0 else order[::-1]):
            t, u = run(c, cwd, pre)
            walls.append(t)
            cpus.append(u)
    ratio_wall = [y / x for x, y in zip(wa, wb)]
    ratio_cpu = [y / max(x, 1e-4) for x, y in zip(ca, cb)]
    out = spread(wa) + [statistics.median(ca)] + spread(wb) + [statistics.median(cb)] + \
        spread(ratio_wall) + spread(ratio_cpu)
    print(' '.join(f'{v:.4f}' for v in out))


if __name__ == '__main__':
    main()
