#!/usr/bin/env python3
"""issue-totals.py [REPORT]: the reference figures of a capture, from text the reference tools print.

Reads `trace-cmd report` output (or the tracefs `trace` file) and sums block_rq_issue per device and
per priority class, as `iochart info --json` counts `requests` and `bytes`. Prints the .expected form:
  requests N bytes N
  device MAJ,MIN requests N bytes N
  class CLASS requests N bytes N
"""
import re
import sys
from collections import defaultdict

# "254,0 WS 1044480 () 48240640 + 2040 0x2,0,4 [dd]": ioprio is 0x2,0,4 (trace-cmd) or be,0,4 (kernel)
ISSUE = re.compile(r' block_rq_issue: +(\d+,\d+) (\S+) (\d+) \(.*\) (\d+) \+ (\d+) (\S+?),\d+,\d+ \[')
CLASSES = {'0x0': 'none', '0x1': 'rt', '0x2': 'be', '0x3': 'idle',
           'none': 'none', 'rt': 'rt', 'be': 'be', 'idle': 'idle'}


def main():
    text = open(sys.argv[1], errors='replace') if len(sys.argv) > 1 else sys.stdin
    total = [0, 0]
    devices = defaultdict(lambda: [0, 0])
    classes = defaultdict(lambda: [0, 0])
    for line in text:
        m = ISSUE.search(line)
        if not m:
            continue
        dev, nbytes, prio = m.group(1), int(m.group(3)), m.group(6)
        klass = CLASSES.get(prio, 'unknown')
        for acc in (total, devices[dev], classes[klass]):
            acc[0] += 1
            acc[1] += nbytes
    print(f'requests {total[0]} bytes {total[1]}')
    for dev in sorted(devices):
        print(f'device {dev} requests {devices[dev][0]} bytes {devices[dev][1]}')
    for klass in sorted(classes):
        print(f'class {klass} requests {classes[klass][0]} bytes {classes[klass][1]}')


if __name__ == '__main__':
    main()
