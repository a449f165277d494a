#!/bin/bash
# The simulator against recorded pairs (samples/sim-*.dat, made by samples/record-sim-pairs.sh:
# `find -exec cat` readers on an HDD-like FUSE disk, each run recorded on its own): predict one
# run from another and check the error against a tolerance the model meets on these recordings
# (the figures are in samples/README.md). The machine they were recorded on was shared: each
# capture's fit error is printed, and the tolerances are what the model reaches, not a goal.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in alone idle-vs-normal normal-vs-normal; do [ -f "$S/sim-none-$f.dat" ] || { echo "not ok - no $S/sim-none-$f.dat"; exit 1; }; done
sim () {   # sim NAME ARGS...: the JSON of `iochart simulate ARGS` in $tmp/NAME.json
  local name=$1; shift
  "$IOCHART" simulate --json "$@" >"$tmp/$name.json" 2>"$tmp/err" || { echo "not ok - simulate $*: $(cat "$tmp/err")"; exit 1; }
}
S_ALONE=$S/sim-none-alone.dat S_IDLE=$S/sim-none-idle-vs-normal.dat
S_NORMAL=$S/sim-none-normal-vs-normal.dat S_DEADLINE=$S/sim-deadline-idle-vs-normal.dat
pid_of () {   # pid_of CAPTURE CLASS INDEX: the head pid of the INDEX-th `find` lane of CLASS, by pid
  "$IOCHART" simulate --json -p noop --device-model observed "$1" | python3 -c "
import json, sys
j = json.load(sys.stdin)
print(sorted(l['head_pid'] for l in j['lanes'] if l['class'] == '$2' and l['label'].startswith('find['))[$3])"
}

for c in alone idle normal deadline; do
  var=S_$(echo $c | tr a-z A-Z) policy=noop
  [ $c = deadline ] && policy=mq-deadline
  sim "$c-observed" -p $policy --device-model observed "${!var}"
  sim "$c-fit" -p noop "${!var}"
done
sim none-to-deadline -p mq-deadline "$S_IDLE"
sim normal-drop -p noop --drop "$(pid_of "$S_NORMAL" be 0)" "$S_NORMAL"
sim idle-drop -p noop --drop "$(pid_of "$S_IDLE" idle 0)" "$S_IDLE"

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(f'{d}/{n}.json'))
fail = 0
def check(name, got, want, tol):
    global fail
    err = got / want - 1
    ok = abs(err) <= tol
    print(('ok - ' if ok else 'not ok - ') + f'{name}: {got:.2f} s for {want:.2f} s ({100 * err:+.1f}%, tolerance {100 * tol:.0f}%)')
    fail |= not ok
def readers(j, run):   # the `find` lanes' ends (s): [(class, head pid, end)]
    return sorted((l['class'], l['head_pid'], r['end_ns'] / 1e9) for l, r in zip(j['lanes'], run['lanes'])
                  if l['label'].startswith('find[') and r['end_ns'] > 0)
def end(j, run, klass, k=0):
    return [e for c, p, e in readers(j, run) if c == klass][k]

for c in ('alone', 'idle', 'normal', 'deadline'):
    f = load(f'{c}-fit')['fit']
    print(f"# fit of {c}: {f['requests_alone']} requests, {f['rate_bytes_per_s'] / 1e6:.0f} MB/s, error {f['error_ms']:.2f} ms = {f['error_pct']:.1f}% of {f['mean_ms']:.2f} ms")
    j = load(f'{c}-observed')
    for (k, p, real), (_, _, sim) in zip(readers(j, j['observed']), readers(j, j['policies'][0])):
        # a one-at-a-time device under noop gives back its run; under mq-deadline the model
        # holds the idle reader back less than the kernel did
        tol = {('deadline', 'be'): 0.02, ('deadline', 'idle'): 0.12}.get((c, k), 0.01)
        check(f"{j['policies'][0]['name']} + observed service reproduces {c}: {k} reader {p}", sim, real, tol)

alone = load('alone-observed')
t_alone = end(alone, alone['observed'], 'be')
dl = load('deadline-observed')
pred = load('none-to-deadline')
for k in ('be', 'idle'):
    check(f'mq-deadline predicted from none: {k} reader', end(pred, pred['policies'][0], k), end(dl, dl['observed'], k),
          {'be': 0.10, 'idle': 0.25}[k])
j = load('normal-drop')
check('alone predicted from two normal readers, --drop of one', end(j, j['policies'][0], 'be'), t_alone, 0.15)
j = load('idle-drop')
check('alone predicted from a normal and an idle reader, --drop of the idle one', end(j, j['policies'][0], 'be'), t_alone, 0.20)
sys.exit(fail)
PY
