#!/bin/bash
# The app's live view recording a private loop device (ext4, direct I/O, bfq when the kernel has
# it) while an idle-class and a best-effort reader run, under Xvfb (test-live.c drives it); then
# the saved .dat read back by `iochart info`: both readers with their classes. Needs root,
# tracefs, losetup, mkfs.ext4, ionice, python3 and a display or xvfb-run: skips (77) without them.
set -eu
skip () { echo "1..0 # SKIP $*"; exit 77; }
test_bin=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /var/tmp/iochart-live-test.XXXXXX)
. "$here/../record/loop-disk.sh"
trap loop_disk_cleanup EXIT
fail () { echo "FAIL: $*" >&2; exit 1; }
need_root_tracefs ionice python3
[ -n "${DISPLAY:-}" ] || command -v xvfb-run >/dev/null || skip "no display and no xvfb-run"
loop_disk 128M
for f in idle be; do dd if=/dev/urandom of="$mnt/$f" bs=1M count=16 status=none; done
sync

# each reader a shell reading its file over and over until the test makes DIR/stop (60 s at
# most), its pid in DIR/NAME.pid
cat > "$tmp/reader.sh" <<SH
echo \$\$ > "$tmp/\$1.pid"
end=\$(( \$(date +%s) + 60 ))
while [ ! -e "$tmp/stop" ] && [ \$(date +%s) -lt \$end ]; do
  dd if="$mnt/\$1" of=/dev/null bs=16k iflag=direct status=none
done
SH
cat > "$tmp/readers.sh" <<SH
ionice -c3 sh "$tmp/reader.sh" idle &
ionice -c2 -n0 sh "$tmp/reader.sh" be &
wait
SH
export LIVE_COMMAND=$tmp/readers.sh LIVE_DEVICE=$majmin LIVE_OUT=$tmp/live.dat LIVE_PIDS=$tmp
export LIVE_BTT=$tmp/live-btt.json
export IOCHART_APP_SHOTS=${IOCHART_APP_SHOTS:-$tmp/shots}
sh "$here/test-app.sh" "$test_bin" || exit $?

[ -s "$LIVE_OUT" ] || fail "the live view wrote no '$LIVE_OUT'"
# btt's figures the live page showed at the end are the saved file's
"${IOCHART:?}" info --btt --json "$LIVE_OUT" > "$tmp/btt.json"
python3 - "$LIVE_BTT" "$tmp/btt.json" <<'PY'
import json, sys
live, saved = (json.load(open(p))['btt'] for p in sys.argv[1:])
assert live == saved, f'live page {live} != info --btt {saved}'
d = saved['devices'][0]
print(f"btt: the live page's figures equal info --btt's on the saved file: {len(saved['devices'])} device, "
      f"{len(saved['processes'])} process names, {d['q2c']['n']} bios, Q2C avg {d['q2c']['avg_ns'] / 1e6:.3f} ms, D2C avg {d['d2c']['avg_ns'] / 1e6:.3f} ms")
PY
# the status line's rates by class are the saved file's requests issued in the same last second
to_ns=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"]["to_ns"])' "$LIVE_BTT")
"${IOCHART:?}" info --json --from "$((to_ns - 1000000000))ns" --to "${to_ns}ns" "$LIVE_OUT" > "$tmp/last-second.json"
python3 - "$LIVE_BTT" "$tmp/last-second.json" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))['status']
info = json.load(open(sys.argv[2]))['classes']
for k, v in status.items():
    if k == 'to_ns':
        continue
    got = {f: info.get(k, {}).get(f, 0) for f in ('requests', 'bytes')}
    assert v == got, f'status {k} {v} != info --from --to {got}'
print('status line: the last second by class equals info --from --to on the saved file:',
      {k: v['requests'] for k, v in status.items() if k != 'to_ns' and v['requests']})
PY
# --all: the top 20 processes alone may leave out the starved idle reader's dd processes
"${IOCHART:?}" info --json --all "$LIVE_OUT" > "$tmp/info.json"
python3 - "$tmp/info.json" "$(cat "$tmp/idle.pid")" "$(cat "$tmp/be.pid")" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
idle, be = int(sys.argv[2]), int(sys.argv[3])
classes = {}
for p in info['processes']:
    if p.get('ppid') in (idle, be) or p['pid'] in (idle, be):
        owner = idle if p['pid'] == idle or p.get('ppid') == idle else be
        classes.setdefault(owner, set()).add(p['class'].split()[0])
assert classes.get(idle) == {'idle'}, f'idle reader: {classes.get(idle)}'
assert classes.get(be, set()) <= {'be'} and classes.get(be), f'be reader: {classes.get(be)}'
assert info['classes']['idle']['requests'] > 0 and info['classes']['be']['requests'] > 0
print(f"saved file: idle {info['classes']['idle']['requests']} and be {info['classes']['be']['requests']} requests")
PY
