#!/bin/bash
# `iochart check`: exit 0 when limits hold, 1 with one FAIL line each when one does not, 2 on bad
# input; the figures are those of `info --json`.
set -u
S=$IOCHART_SOURCE_ROOT/samples
HDD=$S/hdd-bfq-idle-vs-normal-5s.report.txt.xz
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
run () {   # run EXPECTED-RC ARGS...: output in $tmp/out, $tmp/err
  local want=$1; shift
  "$IOCHART" check "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "not ok - check $*: exit $rc, not $want: $(head -c 300 "$tmp/out" "$tmp/err")"; fail=1; return 1
  fi
}
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }

"$IOCHART" info --json "$HDD" >"$tmp/info.json" || bad "info --json"
pct=$(python3 -c "import json; print(json.load(open('$tmp/info.json'))['idle_steal']['stolen_pct'])")

# 19.4 % stolen on 7,0: a 5 % limit fails and says by how much, 25 % holds.
run 1 --max-stolen-pct 5 "$HDD" && grep -qx 'FAIL stolen-pct on 7,0: 19.4 % > 5 % (over by 14.4 %)' "$tmp/out" \
  && ok "stolen share over the limit: exit 1, one line with the excess" || bad "stolen-pct 5: $(cat "$tmp/out")"
run 0 --max-stolen-pct 25 --max-stolen-ms 1000 "$HDD" && [ "$(grep -c '^ok ' "$tmp/out")" = 2 ] \
  && ok "limits that hold: exit 0, an ok line each" || bad "limits that hold: $(cat "$tmp/out")"
run 1 --max-stolen-pct 25 --max-stolen-ms 500 "$HDD" && grep -q '^FAIL stolen-ms on 7,0: 736.2 ms > 500 ms' "$tmp/out" \
  && grep -q '^ok   stolen-pct' "$tmp/out" && ok "one of two fails: exit 1" || bad "stolen-ms: $(cat "$tmp/out")"

# --json: the same figure as info --json; --junit: a JUnit document with the failure.
run 1 --max-stolen-pct 5 --json --junit "$tmp/junit.xml" "$HDD" && python3 -c "
import json, xml.etree.ElementTree as ET
j = json.load(open('$tmp/out'))
assert j['passed'] is False and len(j['checks']) == 1, j
c = j['checks'][0]
assert (c['name'], c['subject'], c['unit'], c['passed']) == ('stolen-pct', '7,0', '%', False), c
assert abs(c['value'] - $pct) < 1e-9 and abs(c['over_by'] - ($pct - 5)) < 1e-9, c
t = ET.parse('$tmp/junit.xml').getroot().find('testsuite')
assert (t.get('tests'), t.get('failures')) == ('1', '1'), t.attrib
assert '19.4 % > 5 %' in t.find('testcase/failure').get('message')
" 2>"$tmp/py" && ok "--json equals info's stolen_pct ($pct); --junit lists the failure" || bad "--json/--junit: $(tail -1 "$tmp/py")"

# Latency: queue-to-complete p99 per class on 7,0, as info --json gives it (be 31.1 ms, idle 112.4 ms).
run 0 --max-p99-ms 50 "$HDD" && [ "$(cat "$tmp/out")" = 'ok   p99-ms on 7,0, class be: 31.1 ms <= 50 ms' ] \
  && ok "p99 without --class: every class but idle" || bad "p99: $(cat "$tmp/out")"
run 1 --max-p99-ms 50 --class idle --class be --json "$HDD" && python3 -c "
import json
j = json.load(open('$tmp/out')); i = json.load(open('$tmp/info.json'))
d = [d for d in i['devices'] if d['dev'] == '7,0'][0]['classes']
got = {c['subject']: (c['value'], c['passed']) for c in j['checks']}
assert got == {'7,0, class idle': (d['idle']['latency']['q2c']['p99_ns'] / 1e6, False),
               '7,0, class be': (d['be']['latency']['q2c']['p99_ns'] / 1e6, True)}, got
" 2>"$tmp/py" && ok "p99 per --class equals info's q2c p99; idle over the limit fails" || bad "p99 --class: $(tail -1 "$tmp/py")"
run 0 --max-p99-ms 50 --class rt "$HDD" && grep -q '^ok   p99-ms on 7,0, class rt: no request of this class completed' "$tmp/out" \
  && ok "p99 of a class with no request: no figure, no failure" || bad "p99 rt: $(cat "$tmp/out")"

# --device picks the disk under the loop device.
run 0 --device 254,0 --max-stolen-pct 100 "$HDD" && grep -q '^ok   stolen-pct on 254,0' "$tmp/out" \
  && ok "--device 254,0" || bad "--device: $(cat "$tmp/out")"

# A boot that never settles cannot pass a boot-time limit.
run 1 --max-boot-s 30 "$S/bootchart-ionice.tgz" && grep -q '^FAIL boot-s on boot: never idle' "$tmp/out" \
  && ok "boot never done: FAIL" || bad "boot-s: $(cat "$tmp/out")"

# Bad input: exit 2 with one message.
run 2 "$HDD" && grep -q 'nothing to check' "$tmp/err" && ok "no limit: exit 2" || bad "no limit"
run 2 --max-boot-s 10 "$HDD" && grep -q "'--max-boot-s': needs a bootchart capture" "$tmp/err" \
  && ok "boot limit without a boot chart: exit 2" || bad "boot limit without bootchart"
run 2 --max-stolen-pct -1.5 "$HDD" && ok "negative limit: exit 2" || bad "negative limit"
run 2 --max-stolen-pct 5 --class bogus "$HDD" && grep -q "'bogus': bad --class" "$tmp/err" \
  && ok "bad class: exit 2" || bad "bad class"
run 2 --max-stolen-pct 5 --device 9,9 "$HDD" && ok "unknown device: exit 2" || bad "unknown device"
run 2 --max-stolen-pct 5 "$tmp/missing.dat" && grep -q "missing.dat" "$tmp/err" && ok "missing capture: exit 2" || bad "missing capture"
exit $fail
