#!/usr/bin/env python3
"""craft-clock.py MODE IN OUT: a v6 .dat of iochart's writer (IN, with the TRACECLOCK option and
the clock after the CPU table) made into one libtracecmd would malloc a huge clock size from.

  size        the clock's size field says 0x114cd3cb097d0000 bytes
  no-name     the clock's text is '[]' and spaces (libtracecmd's parse gives sscanf () NULL)
  old-writer  as iochart record wrote files before the clock was saved there: no clock after the
              table, and the saved cmdlines grown so that the table ends 2 bytes before a page
              boundary: libtracecmd reads the first page's timestamp << 16 as the size (the ASan
              abort of tests/record/test-record.sh step 5)
"""
import struct
import sys


def walk(d):
    """Offsets of the saved cmdlines, the CPU table and the clock record of a little-endian v6 file."""
    p = d.index(b'\0', 10) + 1
    assert d[10:p] == b'6\0', 'not a v6 .dat'
    page = struct.unpack_from('<I', d, p + 2)[0]
    p += 6
    for tag in (b'header_page\0', b'header_event\0'):
        assert d[p:p + len(tag)] == tag
        p += len(tag)
        p += 8 + struct.unpack_from('<Q', d, p)[0]
    n = struct.unpack_from('<I', d, p)[0]
    p += 4
    for _ in range(n):                                    # ftrace formats
        p += 8 + struct.unpack_from('<Q', d, p)[0]
    n = struct.unpack_from('<I', d, p)[0]
    p += 4
    for _ in range(n):                                    # systems
        p = d.index(b'\0', p) + 1
        m = struct.unpack_from('<I', d, p)[0]
        p += 4
        for _ in range(m):
            p += 8 + struct.unpack_from('<Q', d, p)[0]
    p += 4 + struct.unpack_from('<I', d, p)[0]            # kallsyms
    p += 4 + struct.unpack_from('<I', d, p)[0]            # printk formats
    cmdlines = p
    p += 8 + struct.unpack_from('<Q', d, p)[0]
    ncpus = struct.unpack_from('<I', d, p)[0]
    p += 4
    assert d[p:p + 10] == b'options  \0', 'no options'
    p += 10
    clock_option = False
    while True:
        option = struct.unpack_from('<H', d, p)[0]
        p += 2
        if option == 0:
            break
        clock_option |= option == 4
        p += 4 + struct.unpack_from('<I', d, p)[0]
    assert clock_option, 'no TRACECLOCK option'
    assert d[p:p + 10] == b'flyrecord\0'
    table = p + 10
    return page, cmdlines, ncpus, table, table + 16 * ncpus


def main():
    mode, src, dst = sys.argv[1:4]
    d = bytearray(open(src, 'rb').read())
    page, cmdlines, ncpus, table, clock = walk(d)
    if mode == 'size':
        struct.pack_into('<Q', d, clock, 0x114cd3cb097d0000)
        open(dst, 'wb').write(d)
        return
    if mode == 'no-name':
        n = struct.unpack_from('<Q', d, clock)[0]
        d[clock + 8:clock + 8 + n] = b'[]'.ljust(n, b' ')
        open(dst, 'wb').write(d)
        return
    assert mode == 'old-writer'
    cpus = [struct.unpack_from('<QQ', d, table + 16 * i) for i in range(ncpus)]
    n = struct.unpack_from('<Q', d, cmdlines)[0]
    grow = (page - clock % page - 2) % page   # the table then ends 2 bytes before a boundary
    text = bytes(d[cmdlines + 8:cmdlines + 8 + n]) + b'x' * grow
    head = bytearray(d[:cmdlines] + struct.pack('<Q', len(text)) + text + d[cmdlines + 8 + n:table])
    offset = len(head) + 16 * ncpus
    assert offset % page == page - 2
    for off, size in cpus:
        offset = -(-offset // page) * page
        head += struct.pack('<QQ', offset if size else 0, size)
        offset += size
    for off, size in cpus:
        head += bytes(-len(head) % page) + d[off:off + size]
    open(dst, 'wb').write(head)


main()
