#!/bin/bash
# The what-if simulator against real runs (../shared/captures/hdd-*: two `find -exec cat` readers
# on an HDD-like disk under none and bfq): from the `none` capture predict the `bfq` one, and the
# best-effort reader alone with --drop of the idle one. Prints the errors; skips without ../shared.
set -u
C=$IOCHART_SOURCE_ROOT/../shared/captures
[ -f "$C/hdd-none-idle-vs-normal.dat" ] && [ -f "$C/hdd-bfq-idle-vs-normal.dat" ] &&
  [ -f "$C/hdd-bfq-normal-alone.dat" ] || { echo "skip: no ../shared/captures"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sim () { "$IOCHART" simulate -d 7,0 --json "$@" 2>"$tmp/err" || { echo "not ok - simulate $*: $(cat "$tmp/err")"; exit 1; }; }

sim -p noop --device-model observed "$C/hdd-bfq-normal-alone.dat" >"$tmp/alone-observed.json"
sim -p noop "$C/hdd-bfq-idle-vs-normal.dat" --device-model observed >"$tmp/bfq.json"
sim -p bfq -p cfq -p mq-deadline -p idle-gate+bfq "$C/hdd-none-idle-vs-normal.dat" >"$tmp/none.json"
idle=$(python3 -c "import json; print([l['head_pid'] for l in json.load(open('$tmp/none.json'))['lanes'] if l['class'] == 'idle'][0])")
sim -p bfq --drop "$idle" "$C/hdd-none-idle-vs-normal.dat" >"$tmp/drop.json"

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(f'{d}/{n}.json'))
def ends(j, run):   # lane end (s) by class, for the two readers
    return {l['class']: r['end_ns'] / 1e9 for l, r in zip(j['lanes'], run['lanes']) if l['class'] in ('be', 'idle') and r['end_ns'] > 0}
fail = 0
def check(name, ok, text):
    global fail
    print(('ok - ' if ok else 'not ok - ') + name + ': ' + text)
    fail |= not ok

a = load('alone-observed')
o, s = ends(a, a['observed'])['be'], ends(a, a['policies'][0])['be']
check('noop + observed service reproduces the alone run', abs(s / o - 1) < 0.01, f'{s:.2f} s for {o:.2f} s ({100 * (s / o - 1):+.2f}%)')

real = ends(load('bfq'), load('bfq')['observed'])
n = load('none')
fit = n['fit']
check('fit of the none capture', fit['error_pct'] < 10, f"error {fit['error_ms']:.2f} ms = {fit['error_pct']:.1f}% of the mean, rate {fit['rate_bytes_per_s'] / 1e6:.0f} MB/s")
pred = ends(n, n['policies'][0])
for k in ('be', 'idle'):
    err = pred[k] / real[k] - 1
    check(f'bfq predicted from none: {k} reader', abs(err) < 0.06, f'{pred[k]:.2f} s for {real[k]:.2f} s ({100 * err:+.1f}%)')
for p in n['policies'][1:]:
    e = ends(n, p)
    print(f"# {p['name']}: be {e.get('be', 0):.2f} s, idle {e.get('idle', 0):.2f} s, idle steal {p['idle_steal']['stolen_pct']:.1f}%")

drop = ends(load('drop'), load('drop')['policies'][0])['be']
alone = ends(a, a['observed'])['be']
err = drop / alone - 1
check('--drop of the idle reader predicts the alone run', abs(err) < 0.06, f'{drop:.2f} s for {alone:.2f} s ({100 * err:+.1f}%)')
sys.exit(fail)
PY
