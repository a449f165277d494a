#!/bin/bash
# `iochart synth` end to end: the three scenarios as .dat files that `iochart info` and
# `trace-cmd report` (when installed) read, and `iochart simulate` on them giving the classic
# report's slowdowns of the best-effort reader (pid 1000) on the hdd model: under cfq 1.5-2.0x next
# to an idle reader and 1.9-2.4x next to a normal one; under an idle gate at most 1.05x.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }

for s in alone idle normal; do
  "$IOCHART" synth -o "$tmp/$s.dat" --scenario "$s" 2>"$tmp/err" || bad "synth $s: $(cat "$tmp/err")"
done
n=$("$IOCHART" info --json "$tmp/alone.dat" | python3 -c "import json, sys; print(json.load(sys.stdin)['devices'][0]['requests'])" 2>"$tmp/err")
# 600 files, a directory block every 40 files, an inode block every 16
[ "$n" = $((600 + 15 + 38)) ] && ok "info reads the alone capture: $n requests" || bad "info: '$n' requests: $(cat "$tmp/err")"
if command -v trace-cmd >/dev/null; then
  trace-cmd report -i "$tmp/normal.dat" >"$tmp/report" 2>"$tmp/err" || bad "trace-cmd report: $(cat "$tmp/err")"
  issues=$(grep -c 'block_rq_issue:' "$tmp/report")
  be=$(grep 'block_rq_issue:' "$tmp/report" | grep -c ' 0x2,0,4 ')
  [ "$issues" = $((3 * 600 + 15 + 38 + 30 + 75)) ] && [ "$be" = "$issues" ] \
    && ok "trace-cmd report reads the normal capture: $issues issues, all best-effort 4" \
    || bad "trace-cmd report: $issues issues, $be best-effort"
else
  echo "# skip: no trace-cmd"
fi

sim () {   # sim SCENARIO: the reader's end (s) under cfq, idle-gate+cfq, idle-gate
  "$IOCHART" simulate --json -p cfq -p idle-gate+cfq -p idle-gate --device-model hdd:capacity=4 "$tmp/$1.dat" \
    2>"$tmp/err" | python3 -c "
import json, sys
j = json.load(sys.stdin)
print(' '.join('%.3f' % ([q for q in p['processes'] if q['pid'] == 1000][0]['simulated_end_ns'] / 1e9) for p in j['policies']))" \
    || { bad "simulate $1: $(cat "$tmp/err")"; echo "0 0 0"; }
}
read -r a_cfq a_gcfq a_gate <<<"$(sim alone)"
read -r i_cfq i_gcfq i_gate <<<"$(sim idle)"
read -r n_cfq n_gcfq n_gate <<<"$(sim normal)"
range () {   # range NAME VALUE BASE LOW HIGH
  if python3 -c "import sys; r = $2 / $3; sys.exit(not ($4 <= r <= $5))" 2>/dev/null; then
    ok "$1: $2 s for $3 s alone ($(python3 -c "print('%.2f' % ($2 / $3))")x, goal $4-$5x)"
  else bad "$1: $2 s for $3 s alone, goal $4-$5x"; fi
}
range "cfq next to an idle reader" "$i_cfq" "$a_cfq" 1.5 2.0
range "cfq next to a normal reader" "$n_cfq" "$a_cfq" 1.9 2.4
range "idle-gate+cfq next to an idle reader" "$i_gcfq" "$a_gcfq" 0 1.05
range "idle-gate next to an idle reader" "$i_gate" "$a_gate" 0 1.05

# fit's residual table: the bands hold every request the fit learnt from, their observed means
# make the overall mean, and on the alone reader (the generator's own disk) no band with 20
# requests or more is off by 2%
"$IOCHART" simulate --json -p noop "$tmp/alone.dat" >"$tmp/fit.json" 2>"$tmp/err" || bad "simulate fit: $(cat "$tmp/err")"
if python3 - "$tmp/fit.json" <<'PY' 2>"$tmp/py"; then ok "fit residuals: $(cat "$tmp/py")"; else bad "fit residuals: $(tail -1 "$tmp/py")"; fi
import json, sys
f = json.load(open(sys.argv[1]))['fit']
for key, unit in (('by_distance', 'sectors'), ('by_size', 'bytes')):
    bands = f[key]
    assert sum(b['requests'] for b in bands) == f['requests_alone'], key
    assert all(a['hi_' + unit] == b['lo_' + unit] for a, b in zip(bands, bands[1:])), key
    mean = sum(b['requests'] * b['observed_ms'] for b in bands if b['requests']) / f['requests_alone']
    assert abs(mean - f['mean_ms']) < 1e-6, (mean, f['mean_ms'])
    for b in bands:
        if b['requests'] >= 20:
            assert abs(b['residual_ms'] - (b['fitted_ms'] - b['observed_ms'])) < 1e-9
            assert abs(b['residual_ms']) < 0.02 * b['observed_ms'], b
        if b['requests'] == 0:
            assert b['observed_ms'] is None and b['residual_ms'] is None
worst = max(abs(b['residual_ms'] / b['observed_ms']) for b in f['by_distance'] if b['requests'] >= 20)
print(f"{f['requests_alone']} requests, worst band of 20+ off by {100 * worst:.2f}%", file=sys.stderr)
PY
"$IOCHART" simulate -p noop "$tmp/alone.dat" >"$tmp/fit.txt" 2>&1
grep -q '^  seek distance  *requests  *observed  *fitted  *residual$' "$tmp/fit.txt" \
  && grep -q '^  under 1.0 MiB  *557  *6.56 ms  *6.56 ms' "$tmp/fit.txt" && grep -q '^  request size ' "$tmp/fit.txt" \
  && ok "fit residuals in the table" || bad "fit residuals in the table: $(head -12 "$tmp/fit.txt")"

for args in "" "-o $tmp/x.dat --scenario busy" "-o $tmp/x.dat --files 0" "-o $tmp/x.dat extra"; do
  # shellcheck disable=SC2086
  "$IOCHART" synth $args >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc = 2 ] && grep -q '^iochart: ' "$tmp/err" && ok "synth $args: exit 2, $(cat "$tmp/err")" \
    || bad "synth $args: exit $rc, $(cat "$tmp/err")"
done
exit $fail
