#!/bin/bash
# `iochart export`: the CSV adds up to `info --json`, zstd and JSON rows hold the same, and the
# Perfetto trace has a track group per lane, slices that nest, and counters that integrate to the
# stolen time info reports.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }
py () {   # py NAME CODE: CODE runs with json, csv and collections imported
  if python3 -c "import json, csv, collections, math
$2" 2>"$tmp/py"; then ok "$1"; else bad "$1: $(tail -1 "$tmp/py")"; fi
}

for f in ionice-bfq.dat hdd-bfq-idle-vs-normal-5s.report.txt.xz blktrace/bfq-idle-vs-be-dd; do
  n=$(basename "$f")
  "$IOCHART" export --format csv -o "$tmp/$n.csv" "$S/$f" 2>"$tmp/err" || bad "export csv $f: $(cat "$tmp/err")"
  "$IOCHART" info --json --all "$S/$f" >"$tmp/$n.info.json" 2>/dev/null || bad "info $f"
  py "$n: CSV per device, class, process and lane equals info --json --all" "
rows = list(csv.DictReader(open('$tmp/$n.csv', newline='')))
info = json.load(open('$tmp/$n.info.json'))
def sums(key):
    d = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        k = key(r)
        d[k][0] += int(r['issues']); d[k][1] += int(r['issues']) * int(r['bytes'])
    return d
dev = sums(lambda r: r['device'])
assert {k: tuple(v) for k, v in dev.items()} == {d['dev']: (d['requests'], d['bytes']) for d in info['devices']}, dev
cls = sums(lambda r: r['class'])
for k, v in info['classes'].items():
    assert tuple(cls.get(k, [0, 0])) == (v['requests'], v['bytes']), (k, cls.get(k), v)
proc = sums(lambda r: (int(r['pid']), r['comm']) if r['pid'] else None)
want = {(p['pid'], p['comm']): (p['requests'], p['bytes']) for p in info['processes']}
got = {k: tuple(v) for k, v in proc.items() if k is not None and v[0] > 0}
assert got == want, set(got.items()) ^ set(want.items())
lane = sums(lambda r: r['lane'] or None)
got = {k: tuple(v) for k, v in lane.items() if k is not None and v[0] > 0}
assert got == {l['label']: (l['requests'], l['bytes']) for l in info['lanes']}, 'lanes'
assert list(rows[0].keys()) == 'capture,device,sector,bytes,op,class,level,class_source,pid,comm,lane,issues,queue_ns,insert_ns,issue_ns,complete_ns'.split(',')
assert all(r['lane'] for r in rows if r['pid'])
t = [(r['queue_ns'], r['insert_ns'], r['issue_ns'], r['complete_ns']) for r in rows]
assert all(int(i) <= int(c) for _, _, i, c in t if i and c)"
done

# zstd through libarchive: the same bytes once decompressed; JSON rows: the same values.
H=hdd-bfq-idle-vs-normal-5s.report.txt.xz
"$IOCHART" export --format csv -o "$tmp/h.csv.zst" "$S/$H" && zstd -q -dc "$tmp/h.csv.zst" | cmp -s - "$tmp/$H.csv" \
  && ok "csv.zst decompresses to the same CSV" || bad "csv.zst differs"
"$IOCHART" export --format json -o "$tmp/h.json" "$S/$H" || bad "export json"
py "JSON rows equal the CSV rows" "
rows = list(csv.DictReader(open('$tmp/$H.csv', newline='')))
js = json.load(open('$tmp/h.json'))
assert len(js) == len(rows) > 900
for r, j in zip(rows, js):
    assert {k: ('' if v is None else str(v)) for k, v in j.items()} == r, (r, j)"

# Perfetto: Chrome trace events.
"$IOCHART" export --format perfetto -o "$tmp/h.trace.json" "$S/$H" || bad "export perfetto"
py "perfetto: a process per lane, slices per class that nest per thread, counters per device" "
ev = json.load(open('$tmp/h.trace.json'))['traceEvents']
rows = list(csv.DictReader(open('$tmp/$H.csv', newline='')))
names = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
lanes = {r['lane'] for r in rows if r['lane']}
assert lanes | {'device 7,0', 'device 254,0'} == set(names.values()), set(names.values()) ^ lanes
assert 'find[17119] + 187 × cat' in lanes and 'find[17120] + 170 × cat' in lanes, lanes
x = [e for e in ev if e['ph'] == 'X']
done = collections.Counter(r['class'] for r in rows if r['complete_ns'] and (r['queue_ns'] or r['insert_ns'] or r['issue_ns']) and r['lane'])
assert collections.Counter(e['cat'] for e in x) == done, (collections.Counter(e['cat'] for e in x), done)
assert {e['name'].split()[0] for e in x} == {'be', 'idle'} and all(e['cname'] in ('good', 'grey') for e in x)
by = collections.defaultdict(list)
for e in x:
    assert e['dur'] >= 0 and e['pid'] in names
    by[(e['pid'], e['tid'])].append((e['ts'], e['ts'] + e['dur']))
for v in by.values():
    v.sort()
    assert all(b[0] >= a[1] - 1e-6 for a, b in zip(v, v[1:])), 'overlapping slices on one thread'
assert all({'device', 'sector', 'bytes', 'pid', 'comm', 'class_source', 'complete_ns'} <= set(e['args']) for e in x)
info = json.load(open('$tmp/$H.info.json'))
for dev in info['idle_steal']['devices']:
    pid = [p for p, n in names.items() if n == 'device ' + dev['dev']][0]
    c = sorted((e['ts'], e['args']['stolen']) for e in ev if e['ph'] == 'C' and e['pid'] == pid and e['name'] == 'idle steal %')
    tp = [e for e in ev if e['ph'] == 'C' and e['pid'] == pid and e['name'] == 'throughput MiB/s']
    assert len(c) == len(tp) > 100 and set(tp[0]['args']) >= {'rt', 'be', 'idle'}
    end = info['span_ns'] / 1e3
    stolen_ns = sum(s / 100 * ((c[i + 1][0] if i + 1 < len(c) else end) - t) * 1e3 for i, (t, s) in enumerate(c))
    assert math.isclose(stolen_ns, dev['stolen_ns'], rel_tol=1e-3, abs_tol=1000), (dev['dev'], stolen_ns, dev['stolen_ns'])"

# Bad input: exit 2 and one message.
"$IOCHART" export --format xml -o "$tmp/x" "$S/ionice-bfq.dat" 2>"$tmp/err"; [ $? = 2 ] && grep -q "'xml': bad --format" "$tmp/err" \
  && ok "bad format: exit 2" || bad "bad format: $(cat "$tmp/err")"
"$IOCHART" export --format csv "$S/ionice-bfq.dat" 2>"$tmp/err"; [ $? = 2 ] && grep -q "needs -o" "$tmp/err" \
  && ok "no output: exit 2" || bad "no output"
"$IOCHART" export --format csv -o "$tmp/nodir/x.csv" "$S/ionice-bfq.dat" 2>"$tmp/err"; [ $? = 2 ] && grep -q "cannot write" "$tmp/err" \
  && ok "unwritable output: exit 2" || bad "unwritable output: $(cat "$tmp/err")"
exit $fail
