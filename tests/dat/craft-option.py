#!/usr/bin/env python3
"""craft-option.py FAULT IN.dat OUT.dat: a trace-cmd .dat (v6 or v7, little-endian) with one
option damaged the way libtracecmd would take unchecked:

  text-end ID   the last byte of option ID (a string: uname 5, version 9) made 'X', so that its
                text has no end within the option
  compressed    (v7) the first options section marked compressed, which trace-cmd never writes"""
import struct
import sys


def options_v6(d):
    """(id, offset of the option's bytes, size) of a v6 file's options."""
    p = d.index(b'options  \0') + 10
    while True:
        oid = struct.unpack_from('<H', d, p)[0]
        if oid == 0:
            return
        size = struct.unpack_from('<I', d, p + 2)[0]
        yield oid, p + 6, size
        p += 6 + size


def first_options_v7(d):
    p = d.index(b'\0', 10) + 1 + 6
    for _ in range(2):                       # compression name and version
        p = d.index(b'\0', p) + 1
    return struct.unpack_from('<Q', d, p)[0]


def options_v7(d):
    off = first_options_v7(d)
    while off:
        size = struct.unpack_from('<Q', d, off + 8)[0]
        p, end, off = off + 16, off + 16 + size, 0
        while p < end:
            oid, osize = struct.unpack_from('<HI', d, p)
            if oid == 0:
                off = struct.unpack_from('<Q', d, p + 6)[0]
                break
            yield oid, p + 6, osize
            p += 6 + osize


def main():
    fault, src, dst = sys.argv[1], sys.argv[-2], sys.argv[-1]
    d = bytearray(open(src, 'rb').read())
    v7 = d[10:12] == b'7\0'
    if fault == 'text-end':
        want = int(sys.argv[2])
        for oid, p, size in (options_v7 if v7 else options_v6)(bytes(d)):
            if oid == want:
                d[p + size - 1] = ord('X')
                break
        else:
            sys.exit('no option %d in %s' % (want, src))
    elif fault == 'compressed':
        d[first_options_v7(d) + 2] |= 1
    open(dst, 'wb').write(d)


if __name__ == '__main__':
    main()
