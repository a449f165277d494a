#!/usr/bin/env python3
"""blktrace-scale.py SRC_DIR OUT_DIR [MIN_RECORDS]: a big blktrace capture from a real one.

Repeats every CPU file of SRC_DIR (NAME.blktrace.N, version 7, either byte order) until the
copies hold at least MIN_RECORDS records (default 5,000,000), notes included. Copy k is shifted
in time by k times the capture's span (plus 1 ms) and in sector by k times the highest sector
seen (rounded up), so the requests of different copies never meet; sequences are renumbered per
file. Writes OUT_DIR/NAME.blktrace.N. Never commit the output: it is hundreds of MB.
"""
import os
import re
import struct
import sys

HDR = 48


def read_records(path):
    data = open(path, 'rb').read()
    if not data:
        return '<', data, []
    magic_le = struct.unpack_from('<I', data, 0)[0]
    order = '<' if (magic_le & 0xffffff00) == 0x65617400 else '>'
    recs, off = [], 0
    while off + HDR <= len(data):
        pdu_len = struct.unpack_from(order + 'H', data, off + 46)[0]
        end = off + HDR + pdu_len
        if end > len(data):
            break
        recs.append((off, end))
        off = end
    return order, data, recs


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    want = int(sys.argv[3]) if len(sys.argv) > 3 else 5_000_000
    names = sorted(n for n in os.listdir(src) if re.search(r'\.blktrace\.\d+$', n))
    files = {n: read_records(os.path.join(src, n)) for n in names}
    n_records = sum(len(f[2]) for f in files.values())
    if n_records == 0:
        sys.exit('no records in ' + src)
    t_min, t_max, s_max = None, 0, 0
    for order, data, recs in files.values():
        for off, _ in recs:
            t, sector = struct.unpack_from(order + 'QQ', data, off + 8)
            t_min = t if t_min is None else min(t_min, t)
            t_max = max(t_max, t)
            action = struct.unpack_from(order + 'I', data, off + 28)[0]
            if not (action >> 16) & 0x400 and sector < 1 << 40:
                s_max = max(s_max, sector)
    span = t_max - t_min + 1_000_000
    sector_step = (s_max // (1 << 20) + 1) << 20
    copies = -(-want // n_records)
    os.makedirs(out, exist_ok=True)
    for name, (order, data, recs) in files.items():
        seq = 0
        with open(os.path.join(out, name), 'wb', buffering=1 << 22) as f:
            for k in range(copies):
                buf = bytearray()
                for off, end in recs:
                    rec = bytearray(data[off:end])
                    t, sector = struct.unpack_from(order + 'QQ', rec, 8)
                    action = struct.unpack_from(order + 'I', rec, 28)[0]
                    seq += 1
                    struct.pack_into(order + 'IQ', rec, 4, seq, t + k * span)
                    # Notes keep sector 0; flushes keep theirs (0 / all ones).
                    if not (action >> 16) & 0x400 and 0 < sector < 1 << 40:
                        struct.pack_into(order + 'Q', rec, 16, sector + k * sector_step)
                    buf += rec
                f.write(buf)
    print(f'{copies} copies of {n_records} records: {copies * n_records} records in {out}')


if __name__ == '__main__':
    main()
