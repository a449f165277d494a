#!/usr/bin/env python3
"""time-split.py REPORT PID...: an independent time split from `trace-cmd report` text.

For each pid: running, runnable, D state and sleep over its life (fork to exit as the report's
sched_process_fork/exit lines show, else the report's first to last event), from sched_switch and
sched_wakeup lines alone. Prints `PID running runnable d sleep life` in ns, one line a pid.
The state before a pid's first change is guessed as iochart does: switched in, it was runnable;
woken, asleep; switched out, running.
"""
import re
import sys

HEAD = re.compile(r'^\s*(?:\S+: )?.*?-(\d+)\s+\[\d+\]\s+(?:\S+\s+)?(\d+\.\d+): (\w+):\s+(.*)$')
SWITCH = re.compile(r'^.*:(\d+) \[\d+\] (\S+) ==> .*:(\d+) \[\d+\]$')
WAKE = re.compile(r'^.*:(\d+) \[\d+\]')
FORK = re.compile(r'child_pid=(\d+)')
EXIT = re.compile(r' pid=(\d+) ')


def state_of(letter):
    return {'R': 'runnable', 'D': 'd', 'X': 'dead', 'Z': 'dead'}.get(letter[0], 'sleep')


def main():
    pids = {int(p) for p in sys.argv[2:]}
    changes = {p: [] for p in pids}
    start, end = {}, {}
    first = last = None
    for line in open(sys.argv[1], errors='replace'):
        m = HEAD.match(line)
        if not m:
            continue
        ts = round(float(m.group(2)) * 1e9)
        first = ts if first is None else first
        last = ts
        event, body = m.group(3), m.group(4)
        if event == 'sched_switch':
            s = SWITCH.match(body)
            prev, st, nxt = int(s.group(1)), s.group(2), int(s.group(3))
            if prev in pids:
                changes[prev].append((ts, state_of(st)))
            if nxt in pids:
                changes[nxt].append((ts, 'running'))
        elif event in ('sched_wakeup', 'sched_wakeup_new'):
            pid = int(WAKE.match(body).group(1))
            if pid in pids:
                changes[pid].append((ts, 'runnable'))
        elif event == 'sched_process_fork':
            pid = int(FORK.search(body).group(1))
            if pid in pids:
                start[pid] = ts
        elif event == 'sched_process_exit':
            pid = int(EXIT.search(body + ' ').group(1))
            if pid in pids:
                end[pid] = ts
    for pid in sorted(pids):
        a, b = start.get(pid, first), end.get(pid, last)
        acc = {'running': 0, 'runnable': 0, 'd': 0, 'sleep': 0}
        ch = changes[pid]
        if ch:
            cur = {'running': 'runnable', 'runnable': 'sleep'}.get(ch[0][1], 'running')
            since = a
            for ts, st in ch:
                if st == 'runnable' and cur in ('running', 'runnable'):
                    continue
                lo, hi = max(since, a), min(ts, b)
                if hi > lo and cur in acc:
                    acc[cur] += hi - lo
                since = max(since, ts)
                cur = st
                if cur == 'dead':
                    since = b
            lo, hi = max(since, a), b
            if hi > lo and cur in acc:
                acc[cur] += hi - lo
        print(pid, acc['running'], acc['runnable'], acc['d'], acc['sleep'], sum(acc.values()))


if __name__ == '__main__':
    main()
