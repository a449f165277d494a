#!/usr/bin/env python3
"""make-blktrace.py OUT [TIME...]: a little-endian blktrace CPU file with one read request (Q, D, C
records) at each TIME (ns, taken modulo 2^64), for tests that need a small hand-made capture."""
import struct
import sys

TC_READ, TC_QUEUE, TC_ISSUE, TC_COMPLETE = 1, 1 << 4, 1 << 6, 1 << 7


def rec(t, code, cat, sector, pid=100, dev=(7 << 20)):
    return struct.pack('<IIQQIIIIIHH', 0x65617407, 0, t % 2**64, sector, 4096, (cat << 16) | code,
                       pid, dev, 0, 0, 0)


out = b''
for i, t in enumerate(int(x) for x in sys.argv[2:]):
    sector = 2048 + 8 * i
    out += (rec(t, 1, TC_READ | TC_QUEUE, sector) + rec(t + 1000, 7, TC_READ | TC_ISSUE, sector) +
            rec(t + 5000, 8, TC_READ | TC_COMPLETE, sector))
with open(sys.argv[1], 'wb') as f:
    f.write(out)
