#!/bin/bash
# `iochart info` for latency and counts end to end: every count adds up, the btt-grade breakdown,
# --btt, --group-by, the unknown verdict, per-device steal figures and the chart's --latency.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }
check () {   # check NAME PYTHON-ASSERTIONS-ON-j (the JSON in $tmp/out.json)
  if python3 -c "import json; j = json.load(open('$tmp/out.json')); $2" 2>"$tmp/py"; then ok "$1"; else bad "$1: $(tail -1 "$tmp/py")"; fi
}

for f in ionice-bfq.dat ionice-mq-deadline.dat ionice-bfq.trace.txt blk-ionice-loop.txt hdd-blktrace-5s.blkparse.txt \
         blktrace/bfq-idle-vs-be-dd; do
  "$IOCHART" info --json --all "$S/$f" >"$tmp/out.json" 2>/dev/null || { bad "$f: info failed"; continue; }
  check "$f: devices, ops, classes and lanes add up to the issued requests" "
n = j['counts']['requests']
assert n > 0
assert sum(d['requests'] for d in j['devices']) == n
assert sum(j['counts'][op]['requests'] for op in ('read', 'write', 'discard', 'flush', 'other')) == n
assert sum(c['requests'] for c in j['classes'].values()) == n
assert sum(l['requests'] for l in j['lanes']) == n
for d in j['devices']:
    assert sum(c['requests'] for c in d['classes'].values()) == d['requests']
    lat = d['latency']
    assert lat['d2c']['n'] <= d['requests']
    for k in ('q2i', 'i2d', 'd2c', 'q2c'):
        s = lat[k]
        if s['n']:
            assert s['min_ns'] <= s['p50_ns'] <= s['p95_ns'] <= s['p99_ns'] <= s['max_ns'], (k, s)
            assert s['min_ns'] <= s['avg_ns'] <= s['max_ns']
    if lat['q2c']['n'] and lat['d2c']['n']:
        assert lat['q2c']['p50_ns'] >= lat['d2c']['p50_ns'] or lat['q2c']['n'] < lat['d2c']['n'] / 2"
done

# The breakdown by class on the sample with rt, be and idle readers, and the one line about them.
"$IOCHART" info --json "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat: Q2I + I2D + D2C and Q2C by class" "
for k in ('rt', 'be', 'idle'):
    lat = j['classes'][k]['latency']
    assert lat['i2d']['n'] > 0 and lat['d2c']['n'] > 0 and lat['q2c']['n'] > 0, k
    assert lat['q2c']['avg_ns'] >= lat['d2c']['avg_ns'], k"
"$IOCHART" info "$S/ionice-bfq.dat" >"$tmp/out.txt" 2>/dev/null
if grep -q "^waited on 7,[0-9]* (p50 / p99): .*be .* in the scheduler, .* on the device; idle .* in the scheduler, .* on the device" "$tmp/out.txt"; then
  ok "the class line says how long be and idle waited in the scheduler and on the device"
else bad "no class line: $(grep waited "$tmp/out.txt")"; fi
if grep -q "^lanes (.*grouped by tree" "$tmp/out.txt" && grep -q "Q2I" "$tmp/out.txt"; then ok "lanes grouped by tree and the latency table by default"; else bad "default info text"; fi
"$IOCHART" info --group-by pid "$S/ionice-bfq.dat" >"$tmp/out.txt" 2>/dev/null
if grep -q "^processes (" "$tmp/out.txt" && ! grep -q "^lanes (" "$tmp/out.txt"; then ok "--group-by pid prints one row per process"; else bad "--group-by pid"; fi
"$IOCHART" info --json --group-by comm "$S/ionice-bfq.dat" >"$tmp/out.json"
check "--group-by comm: lanes per name, processes per pid" "
assert j['group_by'] == 'comm'
assert len(j['lanes']) < len(j['processes'])"

# btt's own figures
"$IOCHART" info --btt "$S/ionice-bfq.dat" >"$tmp/out.txt" 2>/dev/null
if grep -q "Per Device" "$tmp/out.txt" && grep -q "^(  7,  " "$tmp/out.txt"; then ok "--btt prints btt's tables"; else bad "--btt text"; fi
"$IOCHART" info --btt --json "$S/ionice-bfq.dat" >"$tmp/out.json"
check "--btt --json: devices and processes with q2c and d2c" "
b = j['btt']
assert b['devices'] and b['processes']
for r in b['devices'] + b['processes']:
    for k in ('q2c', 'd2c'):
        assert r[k]['n'] > 0 and r[k]['min_ns'] <= r[k]['avg_ns'] <= r[k]['max_ns']
assert sum(p['q2c']['n'] for p in b['processes']) == sum(d['q2c']['n'] for d in b['devices'])"

# BFQ's level-7 notes cannot tell idle from best-effort 7: the verdict is unknown, not 0
"$IOCHART" info --json "$S/blktrace/bfq-idle-vs-be-dd" >"$tmp/out.json" 2>/dev/null
check "unknown classes: steal figures are null with a reason" "
s = j['idle_steal']
assert s['verdict'] == 'unknown' and s['stolen_ns'] is None and s['stolen_pct'] is None
assert 'no class' in s['reason'] and s['unknown_requests'] > 0"
"$IOCHART" info "$S/blktrace/bfq-idle-vs-be-dd" >"$tmp/out.txt" 2>/dev/null
if grep -q "^idle steal on .*: unknown: .* requests have no class" "$tmp/out.txt"; then ok "text verdict says unknown"; else bad "text verdict: $(grep 'idle steal' "$tmp/out.txt")"; fi

# each device carries its own steal figures and episodes
"$IOCHART" info --json "$S/ionice-bfq.dat" >"$tmp/out.json"
check "idle_steal: each device its own episodes; the top level is the headline device's" "
s = j['idle_steal']
for d in s['devices']:
    assert d['n_episodes'] == len(d['episodes'])
    assert all(e['dev'] == d['dev'] for e in d['episodes'])
assert s['n_episodes'] == len(s['episodes'])"

# --from/--to count the requests issued inside the range
"$IOCHART" info --json --from 0 --to 1 "$S/ionice-bfq.dat" >"$tmp/a.json"
"$IOCHART" info --json --from 1 "$S/ionice-bfq.dat" >"$tmp/b.json"
"$IOCHART" info --json "$S/ionice-bfq.dat" >"$tmp/out.json"
check "--from/--to split the requests without loss" "
a = json.load(open('$tmp/a.json')); b = json.load(open('$tmp/b.json'))
assert a['counts']['requests'] + b['counts']['requests'] == j['counts']['requests']"

# the chart's latency strip kind
"$IOCHART" --svg "$tmp/i2d.svg" --latency i2d "$S/ionice-bfq.dat" 2>/dev/null
if grep -q "I2D: in the scheduler" "$tmp/i2d.svg"; then ok "--latency i2d labels the strip"; else bad "--latency i2d"; fi
"$IOCHART" --svg "$tmp/x.svg" --latency p95 "$S/ionice-bfq.dat" 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "bad --latency" "$tmp/err"; then ok "a bad --latency is bad input"; else bad "--latency p95: exit $rc"; fi
# the legend counts as info does
"$IOCHART" --svg "$tmp/c.svg" --device 7,1 "$S/ionice-bfq.dat" 2>/dev/null
"$IOCHART" info --json --device 7,1 "$S/ionice-bfq.dat" >"$tmp/out.json"
check "the chart's legend gives info's class counts" "
import re
svg = open('$tmp/c.svg').read()
for k in ('rt', 'be', 'idle'):
    m = re.search(k + r': [^<]* in ([0-9,]+) requests?', svg)
    assert m and int(m.group(1).replace(',', '')) == j['classes'][k]['requests'], (k, m and m.group(0))"
# --pid and --comm keep the lanes holding those processes, as the chart's and the app's filters:
# every figure is then that of the kept lanes, the rows the unfiltered info gives them.
"$IOCHART" info --json --all "$S/ionice-bfq.dat" >"$tmp/all.json"
"$IOCHART" info --json --all --pid 15443 --pid 15448 "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat --pid 15443 --pid 15448: the two lanes' requests, bytes and latency, nothing else" "
a = json.load(open('$tmp/all.json'))
want = {l['head_pid']: l for l in a['lanes'] if l['head_pid'] in (15443, 15448)}
assert len(want) == 2 and [l['head_pid'] for l in j['lanes']] == [l['head_pid'] for l in a['lanes'] if l['head_pid'] in want]
for l in j['lanes']:
    assert (l['requests'], l['bytes'], l['latency']) == (want[l['head_pid']]['requests'], want[l['head_pid']]['bytes'], want[l['head_pid']]['latency'])
assert j['counts']['requests'] == sum(l['requests'] for l in want.values())
assert j['classes']['idle']['requests'] == want[15443]['requests'] and j['classes']['be']['requests'] == want[15448]['requests']
assert j['classes']['rt']['requests'] == 0
assert 0 < j['idle_steal']['foreground_active_ns'] < a['idle_steal']['foreground_active_ns']"
"$IOCHART" info --json --all --comm find "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat --comm find: the three find lanes" "
assert sorted(l['label'].split('[')[0] for l in j['lanes']) == ['find', 'find', 'find']
assert j['counts']['requests'] == 72
assert j['idle_steal']['stolen_ns'] == 290 * 1000 or abs(j['idle_steal']['stolen_ns'] - 290000) < 500"
# Over a range, a lane's requests are those issued in it, as the classes count them: the idle
# request in flight at 299.451 ms (issued before) counts in neither.
"$IOCHART" info --json --all --from 299451us --to 300020us "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat --from --to: the lanes add up to the requests issued in the range" "
assert j['counts']['requests'] == 1 and sum(l['requests'] for l in j['lanes']) == 1
assert sum(l['bytes'] for l in j['lanes']) == j['counts']['bytes'] and j['lanes'][0]['class'] == 'rt'"
"$IOCHART" info --json --pid 15304 --from 299451us --to 300020us "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat --pid 15304 over a range where its lane has no request: no steal either (not the device's)" "
assert j['counts']['requests'] == 0 and j['idle_steal']['stolen_ns'] == 0 and j['idle_steal']['foreground_active_ns'] == 0"
"$IOCHART" info --json --pid 1 "$S/ionice-bfq.dat" >"$tmp/out.json"
check "ionice-bfq.dat --pid 1 (no I/O): nothing counts" "assert j['counts']['requests'] == 0 and j['lanes'] == []"

exit $fail
