#!/bin/bash
# `iochart info --json` end to end on the shipped samples: figures, filters, rules and formats.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check () {   # check NAME PYTHON-ASSERTIONS-ON-j (the JSON in $tmp/out.json)
  if python3 -c "import json
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != 'latency'}
    return [strip(v) for v in x] if isinstance(x, list) else x
j = json.load(open('$tmp/out.json')); $2" 2>"$tmp/py"; then
    echo "ok - $1"
  else
    echo "not ok - $1: $(tail -1 "$tmp/py")"; fail=1
  fi
}
info () { "$IOCHART" info --json "$@" >"$tmp/out.json" 2>"$tmp/err" || { echo "not ok - info $*: $(cat "$tmp/err")"; fail=1; }; }

# The .dat sample against the figures trace-cmd report gave when it was recorded.
info "$S/ionice-bfq.dat"
check "ionice-bfq.dat: per class as recorded" "
c = j['classes']
assert (c['rt']['requests'], c['rt']['bytes']) == (88, 2424832), c['rt']
assert (c['be']['requests'], c['be']['bytes']) == (91, 2740224), c['be']
assert (c['idle']['requests'], c['idle']['bytes']) == (88, 2424832), c['idle']
assert (c['none']['requests'], c['unknown']['requests']) == (2, 0), c
assert [(d['dev'], d['requests'], d['bytes']) for d in j['devices']] == [('7,1', 269, 7589888)], j['devices']"
check "ionice-bfq.dat: top 20 processes, each with its class from the ioprio field" "
assert len(j['processes']) == 20 and j['processes_with_io'] > 20
dd = {p['class']: p for p in j['processes'] if p['comm'] == 'dd'}
assert set(dd) == {'rt', 'be', 'idle'}, dd.keys()
assert all(p['class_source'] == 'ioprio-field' for p in dd.values())
assert dd['rt']['level'] == 2 and dd['idle']['level'] == 7
assert all(p['d2c_p50_ns'] <= p['d2c_p99_ns'] <= p['q2c_p99_ns'] for p in dd.values())
assert j['unmatched'] == {'issued_without_completion': 0, 'completed_without_issue': 0, 'requeues': 0}, j['unmatched']"

info --all "$S/ionice-bfq.dat"
check "--all lists every process with I/O" "assert len(j['processes']) == j['processes_with_io']"

info --device 7,1 "$S/ionice-bfq.dat"
check "--device keeps that device" "assert [d['dev'] for d in j['devices']] == ['7,1']"

# The raw ftrace text of the same recording gives the same figures.
info "$S/ionice-bfq.dat"; cp "$tmp/out.json" "$tmp/dat.json"
info "$S/ionice-bfq.trace.txt"
# The text prints microseconds: latencies may differ, counts may not.
check "the trace text of the same run: same devices and classes" "
d = json.load(open('$tmp/dat.json'))
assert strip(j['devices']) == strip(d['devices']) and strip(j['classes']) == strip(d['classes'])"

# Compressed text is read as it is.
xz -c "$S/ionice-bfq.report.txt" >"$tmp/report.txt.xz"
info "$tmp/report.txt.xz"
check "xz-compressed report text: same classes" "
d = json.load(open('$tmp/dat.json'))
assert strip(j['classes']) == strip(d['classes'])"

# gzip and zstd as well as xz.
gzip -c "$S/ionice-bfq.trace.txt" >"$tmp/trace.txt.gz"
info "$tmp/trace.txt.gz"
check "gzip-compressed trace text: same classes" "
d = json.load(open('$tmp/dat.json'))
assert strip(j['classes']) == strip(d['classes'])"
if command -v zstd >/dev/null; then
  zstd -q -c "$S/ionice-bfq.trace.txt" >"$tmp/trace.txt.zst"
  info "$tmp/trace.txt.zst"
  check "zstd-compressed trace text: same classes" "
d = json.load(open('$tmp/dat.json'))
assert strip(j['classes']) == strip(d['classes'])"
fi

# A progress bar on a terminal, none when stderr is a file.
if command -v script >/dev/null; then
  if ! script -qec "'$IOCHART' info '$S/ionice-bfq.dat' >/dev/null" /dev/null >"$tmp/tty" 2>&1; then
    echo "ok - # skip: no pseudo-terminal here ($(head -c 100 "$tmp/tty"))"
  elif grep -q '\[[#.]*\] *[0-9]*%' "$tmp/tty"; then echo "ok - progress bar on a terminal"; else echo "not ok - no progress bar on a terminal"; fail=1; fi
fi
"$IOCHART" info "$S/ionice-bfq.dat" >/dev/null 2>"$tmp/notty"
if grep -q '%' "$tmp/notty"; then echo "not ok - progress drawn into a file"; fail=1; else echo "ok - no progress bar in a file"; fi

# blktrace has no ioprio: BFQ's notes tell the best-effort reader, a rule the idle one.
info "$S/blktrace/bfq-idle-vs-be-dd"
check "blktrace: BFQ notes give best effort, level 7 stays unknown" "
p = {x['pid']: x for x in j['processes']}
assert (p[15078]['class'], p[15078]['class_source']) == ('be', 'scheduler-note'), p[15078]
assert p[15077]['class'] == 'unknown'"
grep -q "BFQ level 7" "$tmp/err" && echo "ok - the ambiguity is said" || { echo "not ok - no warning of BFQ level 7"; fail=1; }
info --class 15077=idle "$S/blktrace/bfq-idle-vs-be-dd"
check "--class PID=idle decides what the notes could not" "
p = {x['pid']: x for x in j['processes']}
assert (p[15077]['class'], p[15077]['level'], p[15077]['class_source']) == ('idle', 7, 'rule'), p[15077]
assert (p[15078]['class'], p[15078]['class_source']) == ('be', 'scheduler-note')"
exit $fail
