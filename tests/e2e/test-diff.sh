#!/bin/bash
# `iochart diff`: a capture against itself shows no change; against a copy with every timestamp
# moved by 2.5 s, the shift and nothing else; the SVG is valid and marks what changed.
set -u
S=$IOCHART_SOURCE_ROOT/samples
A=$S/hdd-bfq-idle-vs-normal-5s.report.txt.xz
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }
py () { if python3 -c "import json; j = json.load(open('$tmp/out.json'))
$2" 2>"$tmp/py"; then ok "$1"; else bad "$1: $(tail -1 "$tmp/py")"; fi; }
diff_json () { "$IOCHART" diff --json "$@" >"$tmp/out.json" 2>"$tmp/err" || bad "diff $*: $(cat "$tmp/err")"; }

# The same run 2.5 s later: every event's timestamp moved, nothing else.
xz -dc "$A" | python3 -c "
import re, sys
sys.stdout.write(re.sub(r'(?<=\s)(\d+)\.(\d{6}):', lambda m: '%d.%06d:' % divmod(int(m[1]) * 1000000 + int(m[2]) + 2500000, 1000000), sys.stdin.read()))" >"$tmp/shifted.txt"

"$IOCHART" info --json "$A" >"$tmp/info.json" 2>/dev/null
diff_json "$A" "$A"
py "itself: no row changed" "
assert j['changed'] == 0 and j['shift_ns'] == 0, j['changed']
assert all(r['changes'] == [] and r['a'] == r['b'] for r in j['rows'])
lanes = {r['name'] for r in j['rows'] if r['kind'] == 'lane'}
assert {'find (be)', 'find (idle)'} <= lanes, lanes"

diff_json "$A" "$tmp/shifted.txt"
py "shifted copy, aligned on the start: the shift (2.5 s) and no change" "
assert j['shift_ns'] == 2500000000 and j['changed'] == 0, (j['shift_ns'], j['changed'])"

diff_json --align clock "$A" "$tmp/shifted.txt"
py "shifted copy on its own clock: every row starts and ends 2.5 s later, the rest is equal" "
rows = [r for r in j['rows'] if r['a'] and r['a']['requests'] > 0]
assert len(rows) >= 5 and j['changed'] == len(rows), (len(rows), j['changed'])
for r in rows:
    a, b = r['a'], r['b']
    assert r['changes'] == ['start', 'end'], r
    assert b['start_ns'] - a['start_ns'] == b['end_ns'] - a['end_ns'] == 2500000000, r
    assert (a['requests'], a['bytes'], a['stolen_ns'], a['q2c_p99_ns']) == (b['requests'], b['bytes'], b['stolen_ns'], b['q2c_p99_ns']), r
dev = j['rows'][0]
assert dev['kind'] == 'device' and dev['name'] == '7,0' and dev['a']['stolen_ns'] > 700000000, dev
i = json.load(open('$tmp/info.json'))
idle = [r for r in j['rows'] if r['kind'] == 'class' and r['name'] == 'idle'][0]
d = [d for d in i['devices'] if d['dev'] == '7,0'][0]['classes']['idle']['latency']['q2c']
assert idle['a']['q2c_p99_ns'] == d['p99_ns'] and idle['a']['q2c_p50_ns'] == d['p50_ns'], (idle, d)"

diff_json --align find "$A" "$tmp/shifted.txt"
py "aligned on a process (find): no change" "assert j['changed'] == 0 and j['shift_ns'] == 2500000000, j['shift_ns']"

# Text output: one line per row, changed rows starred.
"$IOCHART" diff --align clock "$A" "$tmp/shifted.txt" >"$tmp/out.txt"
grep -q '^\* lane   find (idle) .* +2.5 s .* +2.5 s .*start,end$' "$tmp/out.txt" && ok "text: the moved lane starred with +2.5 s" \
  || bad "text: $(head -5 "$tmp/out.txt")"

# The chart: valid SVG through the shared renderer, changed rows marked, renders.
"$IOCHART" diff --align clock --svg "$tmp/d.svg" "$A" "$tmp/shifted.txt" >/dev/null || bad "diff --svg"
if command -v xmllint >/dev/null; then
  xmllint --noout "$tmp/d.svg" && ok "diff SVG is well-formed" || bad "diff SVG not well-formed"
fi
grep -q '>changed: start,end<' "$tmp/d.svg" && grep -q '>lane find (idle)<' "$tmp/d.svg" \
  && ok "diff SVG names the rows and what changed" || bad "diff SVG lacks row labels"
if command -v rsvg-convert >/dev/null; then
  rsvg-convert -o "$tmp/d.png" "$tmp/d.svg" && [ -s "$tmp/d.png" ] && ok "diff SVG renders" || bad "rsvg-convert fails"
fi
"$IOCHART" diff --svg "$tmp/same.svg" "$A" "$A" >/dev/null && ! grep -q 'changed: ' "$tmp/same.svg" \
  && ok "itself: nothing marked in the SVG" || bad "itself: a change is marked"

# Bad input: exit 2.
"$IOCHART" diff "$A" 2>"$tmp/err"; [ $? = 2 ] && grep -q 'two captures' "$tmp/err" && ok "one capture: exit 2" || bad "one capture"
"$IOCHART" diff --align nosuchprocess "$A" "$A" 2>"$tmp/err"; [ $? = 2 ] && grep -q "nothing to align on ('nosuchprocess')" "$tmp/err" \
  && ok "unknown alignment process: exit 2" || bad "unknown align: $(cat "$tmp/err")"
"$IOCHART" diff "$A" "$tmp/missing" 2>"$tmp/err"; [ $? = 2 ] && ok "missing capture: exit 2" || bad "missing capture"
exit $fail
