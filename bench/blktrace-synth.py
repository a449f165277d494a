#!/usr/bin/env python3
"""blktrace-synth.py N OUT_DIR: a blktrace capture of N requests shaped like synthetic-capture.h.

The benchmarks' synthetic capture as a blktrace file a reader opens (OUT_DIR/synth.blktrace.0):
400 processes (odd pids idle-class, even best-effort, told by a CFQ "set_active wl_class" note
each), a request queued and inserted every 10 us, issued 5 steps later, completed 20 steps later.
Four 48-byte records a request: 10M requests write about 1.9 GB. Never commit the output.
"""
import os
import struct
import sys

STEP_NS = 10000
MAGIC = 0x65617407
DEV = (7 << 20) | 0
TC_READ, TC_WRITE, TC_QUEUE, TC_ISSUE, TC_COMPLETE, TC_FS, TC_NOTIFY = \
    1 << 0, 1 << 1, 1 << 4, 1 << 6, 1 << 7, 1 << 8, 1 << 10
TA_QUEUE, TA_ISSUE, TA_COMPLETE, TA_INSERT = 1, 7, 8, 12
TN_PROCESS, TN_MESSAGE = 0, 2
REC = struct.Struct('<IIQQIIIIIHH')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seq = 0
    buf = []
    with open(os.path.join(out, 'synth.blktrace.0'), 'wb') as f:
        def rec(ts, sector, nbytes, action, pid, pdu=b''):
            nonlocal seq
            seq += 1
            buf.append(REC.pack(MAGIC, seq, ts, sector, nbytes, action, pid, DEV, 0, 0, len(pdu)) + pdu)

        for p in range(400):
            pid = 1000 + p
            comm = (b'idle-reader' if pid % 2 else b'reader') + b'\0'
            rec(0, 0, 0, TC_NOTIFY << 16 | TN_PROCESS, pid, comm.ljust(16, b'\0'))
            note = b'cfq%dS set_active wl_class:%d wl_type:1\0' % (pid, 2 if pid % 2 else 0)
            rec(0, 0, 0, TC_NOTIFY << 16 | TN_MESSAGE, pid, note)
        for k in range(n + 20):
            ts = k * STEP_NS
            for j, action, cat in ((k, TA_QUEUE, TC_QUEUE), (k, TA_INSERT, TC_QUEUE),
                                   (k - 5, TA_ISSUE, TC_ISSUE), (k - 20, TA_COMPLETE, TC_COMPLETE)):
                if j < 0 or j >= n:
                    continue
                rw = TC_WRITE if j % 10 == 0 else TC_READ
                sector = (j * 2654435761) % 8000000 * 8
                nbytes = (8 + (j % 7) * 8) * 512
                pid = 1000 + j % 400 if action in (TA_QUEUE, TA_INSERT) else 0
                rec(ts, sector, nbytes, (cat | rw | TC_FS) << 16 | action, pid)
            if len(buf) >= 65536:
                f.write(b''.join(buf))
                buf.clear()
        f.write(b''.join(buf))


if __name__ == '__main__':
    main()
