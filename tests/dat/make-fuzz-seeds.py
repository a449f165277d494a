#!/usr/bin/env python3
"""make-fuzz-seeds.py V6.DAT OUTDIR: small .dat v6 seeds for fuzz-dat, cut from a big one.

Keeps the header page and event, the formats of the events iochart reads only, a few saved
command lines, the options but the buffer ones, and the first pages of each CPU's data (an
instance's moved to the top level): small files that libtracecmd still reads whole. A v6 file
comes from `trace-cmd convert -i samples/ionice-bfq.dat -o v6.dat --file-version 6`."""
import os
import struct
import sys

# the events iochart reads
KEEP_EVENTS = {b'block_bio_queue', b'block_bio_backmerge', b'block_bio_frontmerge', b'block_rq_merge',
               b'block_rq_insert', b'block_rq_issue', b'block_rq_requeue', b'block_rq_complete',
               b'sched_process_fork', b'sched_process_exec', b'sched_process_exit',
               b'sys_enter_ioprio_set'}


def main():
    d = open(sys.argv[1], 'rb').read()
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    p = d.index(b'\0', 10) + 1
    assert d[10:p] == b'6\0', 'not a v6 .dat'
    page_size = struct.unpack('<I', d[p + 2:p + 6])[0]
    head = d[:p + 6]
    p += 6
    start = p
    for tag in (b'header_page\0', b'header_event\0'):
        assert d[p:p + len(tag)] == tag
        p += len(tag)
        p += 8 + struct.unpack('<Q', d[p:p + 8])[0]
    headers = d[start:p]
    n = struct.unpack('<I', d[p:p + 4])[0]
    p += 4
    for _ in range(n):                       # ftrace formats: dropped
        p += 8 + struct.unpack('<Q', d[p:p + 8])[0]
    n = struct.unpack('<I', d[p:p + 4])[0]
    p += 4
    systems = []
    for _ in range(n):
        e = d.index(b'\0', p)
        name = d[p:e]
        p = e + 1
        m = struct.unpack('<I', d[p:p + 4])[0]
        p += 4
        fmts = []
        for _ in range(m):
            size = struct.unpack('<Q', d[p:p + 8])[0]
            fmt = d[p + 8:p + 8 + size]
            p += 8 + size
            if fmt.split(b'\n', 1)[0][len(b'name: '):] in KEEP_EVENTS:
                fmts.append(fmt)
        if fmts:
            systems.append((name, fmts))
    p += 4 + struct.unpack('<I', d[p:p + 4])[0]        # kallsyms
    p += 4 + struct.unpack('<I', d[p:p + 4])[0]        # printk
    size = struct.unpack('<Q', d[p:p + 8])[0]
    cmdlines = b''.join(l + b'\n' for l in d[p + 8:p + 8 + size].split(b'\n')[:40] if l)
    p += 8 + size
    ncpus = struct.unpack('<I', d[p:p + 4])[0]
    p += 4
    options = b''
    buffers = []
    if d[p:p + 10] == b'options  \0':
        p += 10
        while True:
            oid = struct.unpack('<H', d[p:p + 2])[0]
            if oid == 0:
                p += 2
                break
            size = struct.unpack('<I', d[p + 2:p + 6])[0]
            if oid != 3:
                options += d[p:p + 6 + size]
            else:                             # an instance's data goes to the top level
                q = struct.unpack('<Q', d[p + 6:p + 14])[0] + 10
                buffers.append([struct.unpack('<QQ', d[q + 16 * i:q + 16 * i + 16]) for i in range(ncpus)])
            p += 6 + size
    assert d[p:p + 10] == b'flyrecord\0', d[p:p + 10]
    p += 10
    cpus = [struct.unpack('<QQ', d[p + 16 * i:p + 16 * i + 16]) for i in range(ncpus)]
    if buffers and all(size == 0 for _, size in cpus):
        cpus = buffers[0]

    def build(pages):
        meta = head + headers + struct.pack('<I', 0) + struct.pack('<I', len(systems))
        for name, fmts in systems:
            meta += name + b'\0' + struct.pack('<I', len(fmts))
            for f in fmts:
                meta += struct.pack('<Q', len(f)) + f
        meta += struct.pack('<I', 0) + struct.pack('<I', 0)
        meta += struct.pack('<Q', len(cmdlines)) + cmdlines + struct.pack('<I', ncpus)
        meta += b'options  \0' + options + struct.pack('<H', 0) + b'flyrecord\0'
        table_end = len(meta) + 16 * ncpus
        off = (table_end + page_size - 1) // page_size * page_size
        table, data = b'', b''
        for o, size in cpus:
            keep = min(size, pages * page_size)
            table += struct.pack('<QQ', off + len(data), keep)
            data += d[o:o + keep]
        return meta + table + b'\0' * (off - table_end) + data

    for pages in (0, 1, 2, 3):
        with open(os.path.join(out_dir, f'pages-{pages}.dat'), 'wb') as f:
            f.write(build(pages))


main()
