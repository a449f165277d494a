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

for args in "" "-o $tmp/x.dat --scenario busy" "-o $tmp/x.dat --files 0" "-o $tmp/x.dat extra"; do
  # shellcheck disable=SC2086
  "$IOCHART" synth $args >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc = 2 ] && grep -q '^iochart: ' "$tmp/err" && ok "synth $args: exit 2, $(cat "$tmp/err")" \
    || bad "synth $args: exit $rc, $(cat "$tmp/err")"
done
exit $fail
