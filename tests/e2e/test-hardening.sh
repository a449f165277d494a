#!/bin/bash
# Inputs that once crashed, hung or exhausted memory, and what a user met on the way: each check
# makes its bad input here, small, and says what it guards against.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
here=$(dirname "$0")
mkbt () { python3 "$here/make-blktrace.py" "$@"; }

ok () { echo "ok - $1"; }
bad () { echo "not ok - $1: exit $rc, stderr: $(head -c 400 "$tmp/err")"; fail=1; }

run () {   # run ARGS...: $rc, $tmp/out, $tmp/err; a hang is a failure
  timeout 60 "$IOCHART" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

expect () {   # expect NAME RC PATTERN ARGS...: exit code RC and PATTERN (ERE) in stderr
  local name=$1 want=$2 pattern=$3; shift 3
  run "$@"
  if [ "$rc" -eq "$want" ] && grep -qE -- "$pattern" "$tmp/err"; then ok "$name"; else bad "$name"; fi
}

expect_out () {   # expect_out NAME PATTERN ARGS...: exit 0 and PATTERN (ERE) in stdout
  local name=$1 pattern=$2; shift 2
  run "$@"
  if [ "$rc" -eq 0 ] && grep -qE -- "$pattern" "$tmp/out"; then ok "$name"; else bad "$name"; fi
}

# 1. events but no block request: an honest empty chart, in every format
printf '# tracer: nop\n#\n            bash-1234  [000] .....   100.000000: sched_process_fork: comm=bash pid=1234 child_comm=bash child_pid=1235\n' >"$tmp/sched.txt"
run --svg "$tmp/e.svg" --png "$tmp/e.png" --pdf "$tmp/e.pdf" --json "$tmp/e.json" "$tmp/sched.txt"
if [ $rc -eq 0 ] && grep -q 'no block requests in this capture' "$tmp/e.svg" && [ -s "$tmp/e.png" ] && [ -s "$tmp/e.pdf" ]; then
  ok "empty chart of a capture without block requests"; else bad "empty chart"; fi

# 3. a time past 2^63 ns: dropped with a warning, no endless axis, no negative span
mkbt "$tmp/t.blktrace.0" 1000000 $((2**63 + 5)) 2000000
expect "time past 2^63: warned" 0 "3 events with a time no clock gives" --svg "$tmp/t.svg" "$tmp/t.blktrace.0"
expect_out "time past 2^63: sane span" "span: 1.0 ms +requests: 2" info "$tmp/t.blktrace.0"

# 9. the blktrace magic followed by garbage is bad input, not "requests: 0"
mkbt "$tmp/g.blktrace.0" 1000
head -c 48 "$tmp/g.blktrace.0" >"$tmp/garbage.blktrace.0"
head -c 70000 /dev/urandom >>"$tmp/garbage.blktrace.0"
expect "mostly garbage blktrace" 2 "garbage.blktrace.0': damaged: no blktrace record at offset [0-9]+ and after" \
  info "$tmp/garbage.blktrace.0"
# ... but a cut one still loads its valid part
mkbt "$tmp/c.blktrace.0" 1000 2000000 3000000
head -c -20 "$tmp/c.blktrace.0" >"$tmp/cut.blktrace.0"
expect "cut blktrace loads" 0 "cut mid-record" info "$tmp/cut.blktrace.0"

# 5. an ioprio class of 5-7 (report text 0x7,0,2): counted, read as no class, still in the totals
cat >"$tmp/class7.txt" <<'TXT'
cpus=2
              cat-15444 [001]  1784.916653: block_rq_insert:      7,1 RA 16384 () 266528 + 32 0x7,0,2 [cat]
              cat-15444 [001]  1784.916663: block_rq_issue:       7,1 RA 16384 () 266528 + 32 0x7,0,2 [cat]
           <idle>-0     [001]  1784.916926: block_rq_complete:    7,1 RA () 266528 + 32 0x7,0,2 [0]
              cat-15445 [001]  1784.959275: block_rq_insert:      7,1 RA 98304 () 264040 + 192 0x2,0,4 [cat]
              cat-15445 [001]  1784.959286: block_rq_issue:       7,1 RA 98304 () 264040 + 192 0x2,0,4 [cat]
           <idle>-0     [001]  1784.969286: block_rq_complete:    7,1 RA () 264040 + 192 0x2,0,4 [0]
TXT
expect "ioprio class 7: counted" 0 "3 events with an ioprio class of 4-7" info --json "$tmp/class7.txt"
if python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
c = j["classes"]
assert sum(v["requests"] for v in c.values()) == 2, c
assert c["unknown"]["requests"] == 1 and c["be"]["requests"] == 1, c
' "$tmp/out"; then ok "ioprio class 7: in the totals as unknown"; else bad "ioprio class 7 totals"; fi

# 2. .dat sections libtraceevent parses unchecked: a damaged header page (libtracecmd segfaulted
# later), a NUL inside the printk formats (read past a heap buffer); both uncompressed forms.
# 10. a valid uncompressed v6 .dat under LeakSanitizer (tracecmd_parse_trace_clock's leak).
if command -v trace-cmd >/dev/null; then
  sample="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
  trace-cmd convert -i "$sample" -o "$tmp/v6.dat" --file-version 6 >/dev/null 2>&1
  trace-cmd convert -i "$sample" -o "$tmp/v7.dat" --compression none >/dev/null 2>&1
  for v in v6 v7; do
    expect_out "uncompressed $v .dat reads" "requests: 269" info "$tmp/$v.dat"
    python3 - "$tmp/$v.dat" "$tmp/$v-page.dat" "$tmp/$v-printk.dat" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'timestamp;')             # the ';' after the header page's timestamp field
open(sys.argv[2], 'wb').write(d[:i + 9] + b'X' + d[i + 10:])
i = d.index(b' : "', d.index(b'\n0x', d.index(b'header_event')))  # inside the printk formats
open(sys.argv[3], 'wb').write(d[:i + 5] + b'\0' + d[i + 6:])
PY
    expect "$v .dat: damaged header page" 2 "$v-page.dat': damaged: header page: not a field line at offset [0-9]+" info "$tmp/$v-page.dat"
    expect "$v .dat: NUL in printk formats" 2 "$v-printk.dat': damaged: NUL byte inside the printk formats at offset [0-9]+" info "$tmp/$v-printk.dat"
    run --svg "$tmp/x.svg" "$tmp/$v-page.dat"
    if grep -qv '^iochart' "$tmp/err"; then bad "$v .dat: a library's own message reached stderr"; else ok "$v .dat: only our messages"; fi
  done
else
  echo "ok - # SKIP .dat section checks: trace-cmd is not installed"
fi

exit $fail
