#!/usr/bin/env python3
"""make-builder-seeds.py OUTDIR: seeds for fuzz-builder, each a run of 16-byte events (see
tests/core/fuzz-builder.c for the layout): requests queued, merged, inserted, issued and completed
by a few processes on two devices, with forks, names, classes and scheduler notes among them."""
import os
import random
import struct
import sys

Q, M, F, G, S, R, I, D, C, RQM, P, U, X = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
FORK, EXEC, EXIT, COMM, IOPRIO_SET, SWITCH, WAKEUP, HINT, MESSAGE = range(16, 25)


def ev(kind, dev=0, sector=0, blocks=1, op=0, pid=0, klass=2, level=4, step=50, comm=0, name=0, other=1, a=0, b=0):
    ioprio = klass << 5 | level
    return struct.pack('<BBHBBBBHBBBBBB', kind, dev, sector, blocks, op, pid, ioprio, step,
                       0, comm << 1 | 1 if comm else 0, other, a, b, name)


def life(r, pid, klass, sector, dev):
    out = [ev(Q, dev, sector, 8, 0, pid, klass, comm=len('find'), name=1)]
    if r.random() < 0.3:
        out.append(ev(M, dev, sector + 8, 8, 0, pid, klass))
    out += [ev(I, dev, sector, 16, 0, pid, klass), ev(D, dev, sector, 16, 0, pid, klass)]
    return out


def seed(r, n):
    out = [ev(FORK, pid=0, other=1, name=1), ev(COMM, pid=1, name=2), ev(HINT, pid=1, a=3, b=7)]
    open_ = []
    for i in range(n):
        pid, dev = r.randrange(4), r.randrange(2)
        sector = r.randrange(200) * 2
        out += life(r, pid, r.choice([1, 2, 3]), sector, dev)
        open_.append((dev, sector))
        if r.random() < 0.2:
            out.append(ev(MESSAGE, dev, pid=pid, a=r.randrange(6)))
        if r.random() < 0.5 and open_:
            d, s = open_.pop(0)
            out.append(ev(C, d, s, 16, 0, 0, 2))
    for d, s in open_:
        out.append(ev(C, d, s, 16, 0, 0, 2))
    return b''.join(out)


def main():
    os.makedirs(sys.argv[1], exist_ok=True)
    for i, n in enumerate([4, 20, 60]):
        with open(os.path.join(sys.argv[1], 'seed-%d' % i), 'wb') as f:
            f.write(seed(random.Random(i), n))


if __name__ == '__main__':
    main()
