#!/usr/bin/env python3
"""An independent count of queue-to-complete times from `trace-cmd report` text.

Sector ranges, not requests: every queued bio leaves its sectors pending with its queue time and
pid; the first time a request shows (insert, else issue) it claims every pending sector range it
overlaps, and its queue time is the oldest of them. That is what a split does, counted without the
builder's first-sector rule. Prints, per pid: requests, q2c p50 and p99 in ns (nearest rank).

usage: q2c-hand-count.py REPORT.txt [DEV]    (DEV like 7,0; default every device)
"""
import collections
import math
import re
import sys

LINE = re.compile(r'\s(\d+\.\d+): (block_\w+):\s+(\d+,\d+) (\S+) (?:(\d+) )?(?:\(.*?\) )?(\d+) \+ (\d+)')
TASK = re.compile(r'-(\d+)\s+\[')


def ns(stamp):
    sec, frac = stamp.split('.')
    return int(sec) * 10**9 + int(frac.ljust(9, '0'))


def percentile(values, pct):
    values = sorted(values)
    return values[math.ceil(len(values) * pct / 100) - 1]


def main():
    only = sys.argv[2] if len(sys.argv) > 2 else None
    pending = collections.defaultdict(list)     # dev -> [start, end, queue_ns, pid]
    waiting = collections.defaultdict(collections.deque)   # (dev, sector, nr) -> [queue_ns, pid]
    inflight = collections.defaultdict(collections.deque)
    samples = collections.defaultdict(list)
    for line in open(sys.argv[1], errors='replace'):
        m = LINE.search(line)
        if not m:
            continue
        ts, event, dev, _rwbs, _bytes, sector, nr = m.groups()
        if only and dev != only:
            continue
        ts, sector, nr = ns(ts), int(sector), int(nr)
        pid = int(TASK.search(line).group(1)) if TASK.search(line) else -1
        key = (dev, sector, nr)
        if event == 'block_bio_queue':
            pending[dev].append([sector, sector + nr, ts, pid])
        elif event in ('block_rq_insert', 'block_rq_issue'):
            if event == 'block_rq_issue' and waiting[key]:
                inflight[key].append(waiting[key].popleft())
                continue
            if nr == 0:
                continue
            claimed = None
            keep = []
            for bio in pending[dev]:
                lo, hi = max(bio[0], sector), min(bio[1], sector + nr)
                if lo >= hi:
                    keep.append(bio)
                    continue
                if claimed is None or bio[2] < claimed[0]:
                    claimed = (bio[2], bio[3])
                if bio[0] < lo:
                    keep.append([bio[0], lo, bio[2], bio[3]])
                if hi < bio[1]:
                    keep.append([hi, bio[1], bio[2], bio[3]])
            pending[dev] = keep
            if claimed is None:
                continue
            (waiting if event == 'block_rq_insert' else inflight)[key].append(claimed)
        elif event == 'block_rq_complete' and inflight[key]:
            queue_ns, owner = inflight[key].popleft()
            samples[owner].append(ts - queue_ns)
    for pid in sorted(samples):
        v = samples[pid]
        print(pid, len(v), percentile(v, 50), percentile(v, 99))


main()
