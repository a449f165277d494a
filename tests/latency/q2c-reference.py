#!/usr/bin/env python3
"""q2c-reference.py: iochart's queue-to-complete times equal a count made from `trace-cmd report`.

For each shared .dat capture and each device, q2c-hand-count.py counts every request's Q2C from
the report text by sector ranges (a request claims the queued bios it overlaps, the oldest gives
its queue time); `iochart info --json --all --group-by pid --device D` gives, for every pid that
names one process, the number of Q2C samples and p50 and p99. They must agree within the report's
microsecond rounding for the issue's example (idle `cat` 9817 on seed-bfq: 92 requests, 6.6 / 33
ms) and for at least 99 % of the processes of every capture. The two counts differ by design
only where a request spans two queued bios: the hand count takes the oldest, iochart the one that
holds the request's first sector. Skips (77) without ../shared or trace-cmd.
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
HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ['seed-bfq-idle-vs-normal.dat', 'seed-none-idle-vs-normal.dat', 'hdd-bfq-idle-vs-normal.dat',
         'hdd-none-idle-vs-normal.dat', 'hdd-bfq-idle-vs-normal-5s.dat']


def main():
    if not os.path.isdir(CAPTURES) or not shutil.which('trace-cmd'):
        print('no ../shared/captures or trace-cmd: skipped')
        return 77
    failures = 0
    example_seen = False
    with tempfile.TemporaryDirectory(prefix='iochart-q2c-') as tmp:
        for name in NAMES:
            dat = os.path.join(CAPTURES, name)
            if not os.path.exists(dat):
                continue
            report = os.path.join(tmp, name + '.txt')
            with open(report, 'wb') as f:
                subprocess.run(['trace-cmd', 'report', dat], check=True, stdout=f, stderr=subprocess.DEVNULL)
            for dev in ('7,0', '254,0'):
                hand = {}
                out = subprocess.run([sys.executable, os.path.join(HERE, 'q2c-hand-count.py'), report, dev],
                                     check=True, stdout=subprocess.PIPE, text=True).stdout
                for line in out.splitlines():
                    pid, n, p50, p99 = map(int, line.split())
                    hand[pid] = (n, p50, p99)
                j = json.loads(subprocess.run([IOCHART, 'info', '--json', '--all', '--group-by', 'pid', '--device', dev,
                                               dat], check=True, stdout=subprocess.PIPE,
                                              stderr=subprocess.DEVNULL).stdout)
                pids = [p['pid'] for p in j['processes']]
                compared = differ = 0
                for p in j['processes']:
                    if pids.count(p['pid']) != 1 or p['pid'] not in hand:
                        continue
                    q = p['latency']['q2c']
                    n, p50, p99 = hand[p['pid']]
                    if q['n'] != n or abs(q['p50_ns'] - p50) > 1000 or abs(q['p99_ns'] - p99) > 1000:
                        print('differ: %s %s pid %d: iochart n=%d p50=%s p99=%s, hand count n=%d p50=%d p99=%d'
                              % (name, dev, p['pid'], q['n'], q['p50_ns'], q['p99_ns'], n, p50, p99))
                        differ += 1
                        if name == 'seed-bfq-idle-vs-normal.dat' and p['pid'] == 9817:
                            failures += 1
                    example_seen |= name == 'seed-bfq-idle-vs-normal.dat' and p['pid'] == 9817 and dev == '7,0'
                    compared += 1
                print('%s %s: %d processes compared, %d differ' % (name, dev, compared, differ))
                if (compared == 0 and hand) or differ > compared * 0.01:
                    print('FAIL %s %s: %d of %d processes differ' % (name, dev, differ, compared))
                    failures += 1
    if os.path.exists(os.path.join(CAPTURES, NAMES[0])) and not example_seen:
        print('FAIL the example pid 9817 was not compared')
        failures += 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
