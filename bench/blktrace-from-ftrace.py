#!/usr/bin/env python3
"""blktrace-from-ftrace.py RAW SAVED_CMDLINES OUT_DIR NAME [MAX_RECORDS]

Turns what the ftrace `blk` tracer prints with options/bin on and options/context-info off
(a stream of struct blk_io_trace records, version 7, host byte order, sequence 0) into the
per-CPU files blktrace writes: OUT_DIR/NAME.blktrace.CPU, split by the record's cpu field,
sequence renumbered per file, and a BLK_TN_PROCESS note (pid -> comm, from the tracer's
saved_cmdlines) before each pid's first record, as blktrace itself does. Keeps the first
MAX_RECORDS records when given.
"""
import os
import struct
import sys

NOTIFY = 0x400 << 16


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    raw, cmdlines, out, name = sys.argv[1:5]
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else None
    comms = {}
    for line in open(cmdlines, errors='replace'):
        pid, _, comm = line.rstrip('\n').partition(' ')
        if pid.isdigit():
            comms[int(pid)] = comm.encode()[:15]
    data = open(raw, 'rb').read()
    files, seqs, seen = {}, {}, set()
    off = n = 0
    while off + 48 <= len(data) and (limit is None or n < limit):
        magic, = struct.unpack_from('<I', data, off)
        if magic != 0x65617407:
            sys.exit(f"'{raw}': bad magic at offset {off}")
        t, = struct.unpack_from('<Q', data, off + 8)
        action, pid, dev, cpu = struct.unpack_from('<IIII', data, off + 28)
        pdu_len, = struct.unpack_from('<H', data, off + 46)
        rec = bytearray(data[off:off + 48 + pdu_len])
        off += 48 + pdu_len
        f = files.setdefault(cpu, bytearray())
        if pid not in seen and pid in comms and not (action & NOTIFY and action & 0xff == 0):
            seen.add(pid)
            seqs[cpu] = seqs.get(cpu, 0) + 1
            note = struct.pack('<IIQQIIIIIHH', 0x65617407, seqs[cpu], t, 0, 0, NOTIFY, pid, dev, cpu, 0, 16)
            f += note + comms[pid].ljust(16, b'\0')
        seqs[cpu] = seqs.get(cpu, 0) + 1
        struct.pack_into('<I', rec, 4, seqs[cpu])
        f += rec
        n += 1
    os.makedirs(out, exist_ok=True)
    for cpu, f in sorted(files.items()):
        open(os.path.join(out, f'{name}.blktrace.{cpu}'), 'wb').write(f)
    print(f'{n} records from {raw} into {len(files)} CPU files in {out}')


if __name__ == '__main__':
    main()
