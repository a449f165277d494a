#!/usr/bin/env python3
"""btt-reference.py: `iochart info --btt --json` equals btt's own Q2C and D2C figures.

For each shared blktrace capture: blkparse -d makes btt's input, `btt -A` prints per-device and
per-process Q2C and D2C min/avg/max/N in seconds; iochart must give the same N and the same
times to the microsecond. Skips (77) without ../shared, blkparse or btt.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

IOCHART = os.environ.get('IOCHART', 'iochart')
ROOT = os.environ.get('IOCHART_SOURCE_ROOT', '.')
CAPTURES = os.path.join(ROOT, '..', 'shared', 'captures')
FOLDERS = ['blktrace-bfq-idle-vs-normal-3s', 'hdd-blktrace-bfq-idle-vs-normal-5s']


def btt_tables(avg_file):
    """{('Per Process'|'Per Device', 'Q2C'|'D2C'): {label: (min, avg, max, n)}}"""
    tables, section, metric = {}, None, None
    for line in open(avg_file):
        m = re.match(r'=+ (.+?) =+', line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r'\s+(Q2C|D2C)\s+MIN\s+AVG', line)
        if m:
            metric = m.group(1)
            continue
        if not line.strip() or line.startswith('---'):
            if not line.strip():
                metric = None
            continue
        m = re.match(r'(.+?)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+)\s*$', line)
        if m and metric and section in ('Per Process', 'Per Device'):
            label = m.group(1).strip()
            tables.setdefault((section, metric), {})[label] = tuple(float(x) for x in m.groups()[1:4]) + (int(m.group(5)),)
    return tables


def close(ours, theirs):
    if ours['n'] != theirs[3]:
        return False
    return all(abs(ours[k] / 1e9 - v) <= 1e-6 for k, v in zip(('min_ns', 'avg_ns', 'max_ns'), theirs[:3]))


def main():
    if not os.path.isdir(CAPTURES) or not shutil.which('btt') or not shutil.which('blkparse'):
        print('no ../shared/captures, blkparse or btt: skipped')
        return 77
    failures = 0
    with tempfile.TemporaryDirectory(prefix='iochart-btt-') as tmp:
        for folder in FOLDERS:
            path = os.path.join(CAPTURES, folder)
            binary = os.path.join(tmp, folder + '.bin')
            subprocess.run(['blkparse', '-q', '-i', 'loop0', '-D', path, '-d', binary, '-o', '/dev/null'],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run(['btt', '-A', '-i', binary, '-o', os.path.join(tmp, folder)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
            tables = btt_tables(os.path.join(tmp, folder + '.avg'))
            ours = json.loads(subprocess.run([IOCHART, 'info', '--btt', '--json', path], check=True,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)['btt']
            compared = 0
            for metric in ('Q2C', 'D2C'):
                for d in ours['devices']:
                    major, minor = d['dev'].split(',')
                    label = '(%3s,%3s)' % (major, minor)
                    theirs = tables.get(('Per Device', metric), {}).get(label)
                    if theirs is None or not close(d[metric.lower()], theirs):
                        print('FAIL %s %s %s: iochart %s, btt %s' % (folder, metric, label, d[metric.lower()], theirs))
                        failures += 1
                    compared += 1
                theirs_procs = tables.get(('Per Process', metric), {})
                ours_procs = {p['comm']: p[metric.lower()] for p in ours['processes']}
                if sorted(theirs_procs) != sorted(ours_procs):
                    print('FAIL %s %s: process names differ: %s vs %s' % (folder, metric, sorted(ours_procs), sorted(theirs_procs)))
                    failures += 1
                for comm, theirs in theirs_procs.items():
                    if comm in ours_procs and not close(ours_procs[comm], theirs):
                        print('FAIL %s %s %s: iochart %s, btt %s' % (folder, metric, comm, ours_procs[comm], theirs))
                        failures += 1
                    compared += 1
            print('%s: %d btt figures compared' % (folder, compared))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
