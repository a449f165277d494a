#!/usr/bin/env python3
"""blktrace-swap.py IN_FILE OUT_FILE: the same blktrace records in the other byte order.

Header fields are swapped; so are the pdus written in host order (TIMESTAMP's two u32, the
cgroup id before a note's text). Remap, unplug and split pdus are big-endian in every file and
stay as they are; comm and message text are bytes.
"""
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = open(sys.argv[1], 'rb').read()
    magic, = struct.unpack_from('<I', data, 0)
    src, dst = ('<', '>') if (magic & 0xffffff00) == 0x65617400 else ('>', '<')
    out = bytearray()
    off = 0
    fmt = 'IIQQIIIIIHH'
    while off + 48 <= len(data):
        fields = struct.unpack_from(src + fmt, data, off)
        action, pdu_len = fields[5], fields[10]
        pdu = bytearray(data[off + 48:off + 48 + pdu_len])
        p = 0
        if action & 0x100 and len(pdu) >= 8:
            struct.pack_into(dst + 'Q', pdu, 0, struct.unpack_from(src + 'Q', pdu, 0)[0])
            p = 8
        if (action >> 16) & 0x400 and action & 0xff == 1 and len(pdu) >= p + 8:
            struct.pack_into(dst + 'II', pdu, p, *struct.unpack_from(src + 'II', pdu, p))
        out += struct.pack(dst + fmt, *fields) + pdu
        off += 48 + pdu_len
    open(sys.argv[2], 'wb').write(out)


if __name__ == '__main__':
    main()
