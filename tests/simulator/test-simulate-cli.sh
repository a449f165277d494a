#!/bin/bash
# `iochart simulate` end to end on a shipped sample: the table, JSON keys, sameness run to run,
# the stacked chart, and bad input.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }
check () {   # check NAME PYTHON-ASSERTIONS-ON-j (the JSON in $tmp/out.json)
  if python3 -c "import json; j = json.load(open('$tmp/out.json')); $2" 2>"$tmp/py"; then ok "$1"
  else bad "$1: $(tail -1 "$tmp/py")"; fi
}
sim () { "$IOCHART" simulate "$@" 2>"$tmp/err"; }

if sim -p noop -p cfq -p idle-gate+cfq --device-model observed "$S/ionice-bfq.dat" >"$tmp/out.txt"; then
  grep -q '^lane ' "$tmp/out.txt" && grep -q 'observed' "$tmp/out.txt" && grep -q '^idle steal:' "$tmp/out.txt" \
    && grep -q '^policy cfq:quantum=8,' "$tmp/out.txt" && ok "table" || bad "table: $(head -20 "$tmp/out.txt")"
else bad "table: $(cat "$tmp/err")"; fi
# the kernel's flush worker issued flushes only: the simulator replays no flush, it did not drop it
if grep -A1 '^kworker/1:1H\[44\] (none)' "$tmp/out.txt" | grep -q ' not simulated ' \
   && grep -q '^note: flushes are not simulated .*kworker/1:1H\[44\] issued only flushes' "$tmp/out.txt" \
   && ! grep -q dropped "$tmp/out.txt"; then ok "flush-only lane: not simulated"
else bad "flush-only lane: $(grep -A3 '^kworker' "$tmp/out.txt")"; fi

sim --json -p noop -p cfq -p idle-gate+cfq --device-model observed "$S/ionice-bfq.dat" >"$tmp/out.json" || bad "json: $(cat "$tmp/err")"
check "json: the keys the issue names" "
assert j['dev'] == '7,1' and j['device_model'] == 'observed:depth=1', (j['dev'], j['device_model'])
assert [p['name'] for p in j['policies']] == ['noop', 'cfq', 'idle-gate+cfq'], [p['name'] for p in j['policies']]
assert j['policies'][2]['settings'].startswith('idle-gate:gap=100ms,k=1,starve=0ms+cfq:quantum=8,'), j['policies'][2]['settings']
for p in j['policies']:
    assert set(p['idle_steal']) == {'stolen_ns', 'stolen_pct'}
    assert len(p['processes']) > 20
    for q in p['processes']:
        assert set(q) >= {'pid', 'comm', 'class', 'observed_end_ns', 'simulated_end_ns', 'bytes'}, q
        assert q['simulated_end_ns'] > 0 and q['bytes'] > 0
assert {l['class'] for l in j['lanes']} >= {'rt', 'be', 'idle'}, j['lanes']
flush = [i for i, l in enumerate(j['lanes']) if l['label'].startswith('kworker/1:1H')]
assert len(flush) == 1 and j['observed']['lanes'][flush[0]]['flushes'] == j['observed']['lanes'][flush[0]]['requests'] > 0
assert all(p['lanes'][flush[0]]['requests'] == 0 for p in j['policies'])"
check "json: the idle gate leaves no idle steal" "
assert j['observed']['idle_steal']['stolen_ns'] > 0
assert j['policies'][2]['idle_steal']['stolen_ns'] == 0, j['policies'][2]['idle_steal']"
check "json: noop on the observed service keeps every process's end within 5%" "
t = [(q['observed_end_ns'], q['simulated_end_ns']) for q in j['policies'][0]['processes']]
worst = max(abs(b - a) / a for a, b in t)
assert worst < 0.05, worst"

sim --json -p cfq -p bfq -p mq-deadline "$S/ionice-bfq.dat" --device-model hdd >"$tmp/a.json" &&
  sim --json -p cfq -p bfq -p mq-deadline "$S/ionice-bfq.dat" --device-model hdd >"$tmp/b.json" &&
  cmp -s "$tmp/a.json" "$tmp/b.json" && ok "same output every run" || bad "same output every run"

if sim -p cfq --device-model hdd --svg "$tmp/c.svg" --png "$tmp/c.png" "$S/ionice-bfq.dat" >/dev/null; then
  n=$(grep -c 'observed: \|simulated: ' "$tmp/c.svg")
  [ "$n" -ge 2 ] && [ -s "$tmp/c.png" ] && ok "stacked chart" || bad "stacked chart: $n titles"
  if command -v xmllint >/dev/null; then
    xmllint --noout "$tmp/c.svg" 2>"$tmp/x" && ok "svg is well-formed" || bad "svg: $(head -2 "$tmp/x")"
  fi
else bad "stacked chart: $(cat "$tmp/err")"; fi

sim --drop 15443 --set-class 15442=be -p noop --json --device-model observed "$S/ionice-bfq.dat" >"$tmp/out.json" ||
  bad "drop: $(cat "$tmp/err")"
check "--drop takes the descendants, --set-class gives its class" "
p = j['policies'][0]
kept = [q for q in p['processes'] if q['simulated_end_ns'] is not None and q['comm'] in ('find', 'cat')]
assert kept and all(q['class'] == 'be' for q in kept), 'a class left'
assert any(q['simulated_end_ns'] is None for q in p['processes']), 'nothing dropped'
assert all(q['class'] == 'idle' for q in p['processes'] if q['simulated_end_ns'] is None), 'dropped too much'"

# cgroups (their effect is in the unit tests: this sample's readers are CPU-bound): the groups
# change the simulated run, and the toggles are read
if sim --json -p cfq -p cfq:iops_mode=1,group_idle=8ms --device-model hdd "$S/ionice-bfq.dat" >"$tmp/root.json" &&
   sim --json -p cfq -p cfq:iops_mode=1,group_idle=8ms --device-model hdd --set-group 15448=fg:1000 \
     --set-group 15442=bg:100 --set-group 15443=bg "$S/ionice-bfq.dat" >"$tmp/out.json"; then
  check "--set-group changes the run; iops_mode and group_idle read" "
r = json.load(open('$tmp/root.json'))
ends = lambda j: [p['end_ns'] for p in j['policies'][0]['lanes']]
assert ends(j) != ends(r)
assert 'iops_mode=on' in j['policies'][1]['settings'] and 'group_idle=8ms' in j['policies'][1]['settings'], j['policies'][1]['settings']"
else bad "--set-group: $(cat "$tmp/err")"; fi

sim --group-by pid --top 0 -p cfq --device-model observed "$S/ionice-bfq.dat" >"$tmp/out.txt" &&
  grep -q '^dd\[15540\] (rt) ' "$tmp/out.txt" && ok "--group-by pid: a row per process" || bad "--group-by pid: $(head -8 "$tmp/out.txt")"

for args in "--group-by nope" "-p nope" "-p cfq:bogus=1" "--device-model tape" "--drop nosuchprocess" "--set-class x=purple" "--set-group 15442=fg:5" "--set-group nosuch=fg" "--device 9,9"; do
  # shellcheck disable=SC2086
  sim $args "$S/ionice-bfq.dat" >/dev/null; rc=$?
  [ $rc -eq 2 ] && grep -q "^iochart: " "$tmp/err" && ok "bad input $args: exit 2" || bad "bad input $args: exit $rc, $(cat "$tmp/err")"
done
sim "$tmp/missing.dat" >/dev/null; [ $? -eq 2 ] && ok "missing capture: exit 2" || bad "missing capture"
exit $fail
