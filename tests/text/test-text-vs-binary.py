#!/usr/bin/env python3
"""test-text-vs-binary.py: a text capture and the binary capture it was printed from give the same model.

- trace-cmd .dat and its `trace-cmd report -t` text (nanosecond times): identical `iochart info
  --json --all`, except `events` and `memory`.
- the 3 s and 5 s `blk` tracer texts and the blktrace binary files of the same runs, and blkparse's
  text of those files: the same devices, classes, processes (pid, comm, class, requests, bytes)
  and unmatched counts. Times may differ: the blk tracer prints microseconds, blkparse counts from
  the first event.
Uses ../shared/captures: exits 77 (skip) when it, trace-cmd or blkparse is missing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

IOCHART = os.environ.get('IOCHART', 'iochart')
ROOT = os.environ.get('IOCHART_SOURCE_ROOT', '.')
CAPTURES = os.path.join(ROOT, '..', 'shared', 'captures')
failures = []


def info(path):
    out = subprocess.run([IOCHART, 'info', '--json', '--all', path], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def strip_latency(x):
    """Latencies from microsecond text cannot equal nanosecond ones: leave them out."""
    if isinstance(x, dict):
        return {k: strip_latency(v) for k, v in x.items() if k != 'latency'}
    if isinstance(x, list):
        return [strip_latency(v) for v in x]
    return x


def compare(what, a, b, keys, process_keys=None, exact_times=True, classes=True):
    for k in keys:
        x, y = a.get(k), b.get(k)
        if not exact_times:
            x, y = strip_latency(x), strip_latency(y)
        if k == 'devices':
            drop = ('name',) if classes else ('name', 'classes')
            x = [{kk: vv for kk, vv in d.items() if kk not in drop} for d in x]
            y = [{kk: vv for kk, vv in d.items() if kk not in drop} for d in y]
        if k == 'lanes':
            # text lines name every task: a lane's head may have a name there that the .dat lacks
            x = [{kk: vv for kk, vv in d.items() if kk != 'label'} for d in x]
            y = [{kk: vv for kk, vv in d.items() if kk != 'label'} for d in y]
        if k == 'processes' and process_keys is not None:
            x = [{kk: p.get(kk) for kk in process_keys} for p in x]
            y = [{kk: p.get(kk) for kk in process_keys} for p in y]
        if x != y:
            failures.append('%s: %s differ:\n  %.300s\n  %.300s' % (what, k, x, y))
    print('%s: %d devices, %d processes compared' % (what, len(a['devices']), len(a['processes'])))


def main():
    if not os.path.isdir(CAPTURES):
        print('no ../shared/captures: skipped')
        return 77
    ran = False
    tmp = tempfile.mkdtemp(prefix='iochart-text-')
    try:
        if shutil.which('trace-cmd'):
            for name in ('seed-bfq-idle-vs-normal.dat', 'hdd-bfq-idle-vs-normal-5s.dat'):
                dat = os.path.join(CAPTURES, name)
                txt = os.path.join(tmp, name + '.txt')
                with open(txt, 'wb') as f:
                    subprocess.run(['trace-cmd', 'report', '-t', dat], check=True, stdout=f)
                a, b = info(dat), info(txt)
                compare(name + ' vs its report text', a, b,
                        [k for k in a if k not in ('events', 'memory')] + ['processes'])
                ran = True
        pairs = [('ftrace-blk-bfq-idle-vs-normal-3s.txt', 'blktrace-bfq-idle-vs-normal-3s'),
                 ('hdd-blk-bfq-idle-vs-normal-5s.txt', 'hdd-blktrace-bfq-idle-vs-normal-5s')]
        pkeys = ['pid', 'comm', 'class', 'level', 'class_source', 'requests', 'bytes']
        keys = ['devices', 'classes', 'processes_with_io', 'processes', 'unmatched']
        for text, folder in pairs:
            binary = info(os.path.join(CAPTURES, folder))
            compare(text + ' vs ' + folder, binary, info(os.path.join(CAPTURES, text)), keys, pkeys,
                    exact_times=False)
            if shutil.which('blkparse'):
                parsed = os.path.join(tmp, folder + '.blkparse.txt')
                subprocess.run(['blkparse', '-i', 'loop0', '-D', os.path.join(CAPTURES, folder),
                                '-o', parsed], check=True, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
                # blkparse 1.2 drops the scheduler notes that carry a cgroup id, and with them
                # the only class evidence: compare everything but the classes.
                compare('blkparse text of ' + folder, binary, info(parsed),
                        [k for k in keys if k != 'classes'],
                        [k for k in pkeys if k not in ('class', 'level', 'class_source')],
                        exact_times=False, classes=False)
            ran = True
    finally:
        shutil.rmtree(tmp)
    for f in failures:
        print('FAIL ' + f)
    if not ran:
        return 77
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
