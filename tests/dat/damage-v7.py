#!/usr/bin/env python3
"""damage-v7.py V7.DAT OUTDIR: damaged copies of a zstd-compressed trace-cmd v7 .dat, one fault each.

Each file keeps the layout (every section where it was): a section's text is inflated with the zstd
tool, damaged, deflated again and padded to its old size with a zstd skippable frame. Prints the
names written, one a line. Needs the `zstd` tool."""
import os
import struct
import subprocess
import sys


def sections(d):
    """{id: offset} of the sections the options point to (header info, kallsyms, printk, cmdlines),
    and 'cpu': the offsets of the CPU data (chunk count, then chunks) of every buffer."""
    p = d.index(b'\0', 10) + 1 + 6          # version, endianness, long size, page size
    for _ in range(2):                       # compression name and version
        p = d.index(b'\0', p) + 1
    off, found = struct.unpack_from('<Q', d, p)[0], {'cpu': []}
    while off:
        size = struct.unpack_from('<Q', d, off + 8)[0]
        p, end, nxt = off + 16, off + 16 + size, 0
        while p < end:
            oid, osize = struct.unpack_from('<HI', d, p)
            p += 6
            if oid == 0:
                nxt = struct.unpack_from('<Q', d, p)[0]
                break
            if 16 <= oid <= 21:
                found[oid] = struct.unpack_from('<Q', d, p)[0]
            if oid == 3:                     # buffer: section, name, clock, page size, cpus, (cpu, offset, size)...
                q = d.index(b'\0', d.index(b'\0', p + 8) + 1) + 1
                ncpus = struct.unpack_from('<I', d, q + 4)[0]
                for i in range(ncpus):
                    _, coff, csize = struct.unpack_from('<IQQ', d, q + 8 + 20 * i)
                    if csize:
                        found['cpu'].append(coff)
            p += osize
        off = nxt
    return found


def block(d, off):
    """(flags, csize, usize) of the compressed section at off; its frame starts at off + 24."""
    flags = struct.unpack_from('<H', d, off + 2)[0]
    csize, usize = struct.unpack_from('<II', d, off + 16)
    assert flags & 1, 'section at %d is not compressed' % off
    return flags, csize, usize


def zstd(args, data):
    return subprocess.run(['zstd', '-q', '-c'] + args, input=data, stdout=subprocess.PIPE, check=True).stdout


def inflate(d, off):
    _, csize, _ = block(d, off)
    return zstd(['-d'], d[off + 24:off + 24 + csize])


def replace_text(d, off, text):
    """d with the section at off holding text, deflated into the same number of bytes."""
    _, csize, _ = block(d, off)
    for args in ([f'-{level}'] + check for level in range(19, 0, -1) for check in ([], ['--no-check'])):
        frame = zstd(args, text)
        pad = csize - len(frame)
        if pad == 0 or pad >= 8:
            break
    else:
        raise SystemExit('cannot deflate section at %d into %d bytes' % (off, csize))
    if pad:
        frame += struct.pack('<II', 0x184D2A50, pad - 8) + b'\0' * (pad - 8)
    b = bytearray(d)
    struct.pack_into('<I', b, off + 20, len(text))
    b[off + 24:off + 24 + csize] = frame
    return bytes(b)


def main():
    d = open(sys.argv[1], 'rb').read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    s = sections(d)
    made = {}

    def put(name, data):
        open(os.path.join(out, name), 'wb').write(data)
        made[name] = True
        print(name)

    text = inflate(d, s[16])
    i = text.index(b'timestamp;') + 9           # the ';' after the header page's timestamp field
    put('v7-zstd-header-page', replace_text(d, s[16], text[:i] + b'X' + text[i + 1:]))
    text = inflate(d, s[21])
    if len(text) > 16:
        put('v7-zstd-cmdlines-nul', replace_text(d, s[21], text[:12] + b'\0' + text[13:]))
    text = inflate(d, s[20])
    if len(text) > 16:
        put('v7-zstd-printk-nul', replace_text(d, s[20], text[:12] + b'\0' + text[13:]))

    off = s[16]
    _, csize, usize = block(d, off)
    b = bytearray(d)
    b[off + 24] ^= 0xff                          # the frame's magic
    put('v7-zstd-bad-frame', bytes(b))
    b = bytearray(d)
    b[off + 24 + csize // 2] ^= 0x55             # inside the compressed bytes
    put('v7-zstd-flipped', bytes(b))
    b = bytearray(d)
    struct.pack_into('<I', b, off + 20, 0xffffffff)
    put('v7-zstd-huge-inflated-size', bytes(b))
    b = bytearray(d)
    struct.pack_into('<I', b, off + 20, usize + 100)
    put('v7-zstd-wrong-inflated-size', bytes(b))
    b = bytearray(d)
    struct.pack_into('<I', b, off + 16, 0x7fffffff)
    put('v7-zstd-compressed-size-overruns', bytes(b))
    cpu = s['cpu'][-1]                           # its first chunk: csize, usize, the frame
    csize = struct.unpack_from('<I', d, cpu + 4)[0]
    b = bytearray(d)
    b[cpu + 12] ^= 0xff                          # the frame's magic
    put('v7-zstd-cpu-data-bad-frame', bytes(b))
    b = bytearray(d)
    b[cpu + 12 + csize // 2] ^= 0x55             # may still inflate, to damaged pages
    put('v7-zstd-cpu-data-flipped', bytes(b))
    b = bytearray(d)
    struct.pack_into('<I', b, cpu + 8, 0xfffffff0)
    put('v7-zstd-cpu-data-huge', bytes(b))


if __name__ == '__main__':
    main()
