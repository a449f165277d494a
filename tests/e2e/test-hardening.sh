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

# 2. the same inside zstd-compressed v7 sections (the sample's own form): each text section is
# inflated and checked, each CPU data chunk inflated; a fault gives one clear message and exit 2,
# where libtracecmd printed "mmap: …", dropped a whole buffer or faulted
if command -v zstd >/dev/null; then
  python3 "$IOCHART_SOURCE_ROOT/tests/dat/damage-v7.py" "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat" "$tmp/z" >/dev/null
  while read -r name pattern; do
    expect "zstd v7 .dat: $name" 2 "^iochart: '$tmp/z/$name': $pattern" info "$tmp/z/$name"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "zstd v7 .dat: $name: more than our one line"
  done <<'LIST'
v7-zstd-header-page damaged: header page: not a field line at offset 20 of the zstd section 'header info' at offset 37 \(inflated\)$
v7-zstd-printk-nul damaged: NUL byte inside the printk formats at offset 12 of the zstd section 'printk formats' at offset [0-9]+ \(inflated\)$
v7-zstd-cmdlines-nul damaged: NUL byte inside the saved command lines at offset 12 of the zstd section
v7-zstd-bad-frame damaged: section 'header info' does not inflate \(zstd: Unknown frame descriptor\) at offset 61$
v7-zstd-flipped damaged: section 'header info' does not inflate \(zstd: .*\) at offset 61$
v7-zstd-huge-inflated-size damaged: compressed section 'header info' claims 4294967295 bytes inflated \(at most [0-9]+\) at offset 57$
v7-zstd-wrong-inflated-size damaged: section 'header info' inflates to 451 bytes, not the 551 it claims at offset 57$
v7-zstd-compressed-size-overruns damaged: compressed section 'header info': 2147483647 compressed bytes in a 261-byte section
v7-zstd-cpu-data-bad-frame damaged: chunk 0 of cpu 1 data of buffer 'iochart15289' does not inflate \(zstd: Unknown frame descriptor\) at offset [0-9]+$
v7-zstd-cpu-data-huge damaged: chunk 0 of cpu 1 data of buffer 'iochart15289' claims 4294967280 bytes inflated
LIST
  # a flip that still inflates, to damaged pages: read as far as it goes, only our messages
  run --svg "$tmp/x.svg" "$tmp/z/v7-zstd-cpu-data-flipped"
  if { [ $rc -eq 0 ] || [ $rc -eq 2 ]; } && ! grep -qv '^iochart' "$tmp/err"; then ok "zstd v7 .dat: damaged pages, only our messages"
  else bad "zstd v7 .dat: damaged pages"; fi
else
  echo "ok - # SKIP zstd .dat checks: the zstd tool is not installed"
fi

# 4. bombs: a gzip text that inflates 1000 times (format detection streams, the load stops at a
# bound), a sparse .tgz whose members claim 1 GiB each; and a cut .gz loads its valid part
{ head -n 40 "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.trace.txt"; head -c 100000000 /dev/zero; } | gzip -1 >"$tmp/bomb.txt.gz"
expect "gzip bomb" 2 "bomb.txt.gz': inflates past 64.0.MiB" info "$tmp/bomb.txt.gz"
mkdir "$tmp/sparse"
( cd "$tmp/sparse" && printf 'version = 0.8\n' >header && truncate -s 1G proc_ps.log proc_stat.log proc_diskstats.log &&
  tar --sparse -czf ../sparse.tgz header proc_ps.log proc_stat.log proc_diskstats.log )
rm -rf "$tmp/sparse"
expect "sparse tgz bomb" 2 "sparse.tgz': member 'proc_ps.log' is too large" --svg "$tmp/x.svg" "$tmp/sparse.tgz"
gzip -c "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.trace.txt" | head -c 8000 >"$tmp/cut.txt.gz"
expect "cut .gz loads its valid part" 0 "cut.txt.gz': compressed data cut or damaged after [0-9]+ bytes of text" info "$tmp/cut.txt.gz"
xz -c "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.trace.txt" | head -c 2000 >"$tmp/cut.txt.xz"
expect "cut .xz: our message, not liblzma's" 2 "cut.txt.xz': cut or damaged compressed data, nothing readable" info "$tmp/cut.txt.xz"

# A bootchart folder from the fuzz seed (members after "==> NAME <==" lines).
mkboot () {   # mkboot DIR
  python3 - "$IOCHART_SOURCE_ROOT/tests/bootchart/seeds/small.seed" "$1" <<'PY'
import os, re, sys
os.makedirs(sys.argv[2], exist_ok=True)
parts = re.split(rb'^==> (.*) <==\n', open(sys.argv[1], 'rb').read(), flags=re.M)
for name, body in zip(parts[1::2], parts[2::2]):
    open(os.path.join(sys.argv[2], name.decode()), 'wb').write(body)
PY
}

# A cut bootchart .tgz: the boot chart from the members before the cut, its events.dat left out,
# said in our words (not libarchive's "Truncated input file (needed …)")
head -c 30000 "$IOCHART_SOURCE_ROOT/samples/bootchart-ionice.tgz" >"$tmp/cut.tgz"
expect "cut bootchart .tgz: drawn, the cut said" 0 "cut.tgz': archive cut or damaged after [0-9]+ members: the rest is lost" \
  --svg "$tmp/cut.svg" "$tmp/cut.tgz"
if grep -q "its 'events.dat' is cut or damaged: its block I/O is left out" "$tmp/err" && ! grep -qi "truncated input" "$tmp/err" &&
   grep -q '</svg>' "$tmp/cut.svg"; then ok "cut bootchart .tgz: events.dat left out, no raw libarchive text"; else bad "cut bootchart .tgz"; fi

# 6. a cmdline2 record without an args line (UBSan: zero offset to a null pointer)
mkboot "$tmp/boot"
printf '41\n:/bin/a\n\n' >"$tmp/boot/cmdline2.log"
expect "bootchart: cmdline2 without args" 0 "" --json "$tmp/boot.json" "$tmp/boot"

# 7. invalid UTF-8 in process names: every JSON output parses (a strict UTF-8 decoder)
printf 'cpus=2\n              c\377at-15444 [001]  1784.916653: block_rq_insert:      7,1 RA 16384 () 266528 + 32 0x2,0,2 [c\377at]\n              c\377at-15444 [001]  1784.916663: block_rq_issue:       7,1 RA 16384 () 266528 + 32 0x2,0,2 [c\377at]\n           <idle>-0     [001]  1784.916926: block_rq_complete:    7,1 RA () 266528 + 32 0x2,0,2 [0]\n' >"$tmp/utf.txt"
run info --json "$tmp/utf.txt"; cp "$tmp/out" "$tmp/info-utf.json"
run --json "$tmp/render-utf.json" "$tmp/utf.txt"
mkboot "$tmp/boot-utf"
sed -i 's/(kthreadd)/(kth\xffreadd)/' "$tmp/boot-utf/proc_ps.log"
run --json "$tmp/boot-utf.json" "$tmp/boot-utf"
if python3 -c '
import json, sys
for f in sys.argv[1:]:
    json.loads(open(f, "rb").read().decode("utf-8", "strict"))
' "$tmp/info-utf.json" "$tmp/render-utf.json" "$tmp/boot-utf.json"; then ok "invalid UTF-8 names: valid JSON"; else bad "invalid UTF-8 JSON"; fi

# 8. a bootchart member symlinked out of its folder is not followed, nor quoted
mkboot "$tmp/boot-link"
printf 'root:x:0:0:SECRET-LINE:/root:/bin/bash\n' >"$tmp/passwd"
ln -sf "$tmp/passwd" "$tmp/boot-link/proc_ps.log"
run --json "$tmp/link.json" "$tmp/boot-link"
if grep -q "symlink out of the capture folder" "$tmp/err" && ! grep -q SECRET "$tmp/err" "$tmp/out" "$tmp/link.json" 2>/dev/null; then
  ok "bootchart: symlink out of the folder not followed"; else bad "bootchart symlink"; fi

# Outputs: written through a temporary file (a failed write leaves the old file whole), keeping an
# existing file's mode and a symlink's target; never over an input; checked before the load.
text="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.trace.txt"
mkdir "$tmp/outdir"
for kind in png pdf svg json; do
  printf 'old\n' >"$tmp/outdir/old.$kind"
  ( trap '' XFSZ; ulimit -f 4; "$IOCHART" --$kind "$tmp/outdir/old.$kind" "$text" >/dev/null 2>"$tmp/err" ); rc=$?
  if [ $rc -eq 2 ] && grep -q "old.$kind': cannot write" "$tmp/err" && [ "$(cat "$tmp/outdir/old.$kind")" = old ] &&
     [ "$(ls -A "$tmp/outdir" | grep -c '^\.')" -eq 0 ]; then ok "$kind: a failed write keeps the old file"; else bad "$kind: failed write"; fi
done
printf 'old\n' >"$tmp/outdir/real.png"; chmod 640 "$tmp/outdir/real.png"; ln -s real.png "$tmp/outdir/link.png"
run --png "$tmp/outdir/link.png" "$text"
if [ $rc -eq 0 ] && [ -L "$tmp/outdir/link.png" ] && [ "$(stat -c %a "$tmp/outdir/real.png")" = 640 ] &&
   [ "$(head -c 4 "$tmp/outdir/real.png" | tail -c 3)" = PNG ]; then ok "png: symlink target replaced, mode kept"; else bad "png: symlink and mode"; fi
cp "$text" "$tmp/in.txt"
expect "an output that is an input" 2 "in.txt': refusing to write over the capture" --svg "$tmp/in.txt" "$tmp/in.txt"
cmp -s "$text" "$tmp/in.txt" && ok "the input is untouched" || bad "the input was overwritten"
expect "output checked before the load" 2 "nofolder/x.svg': cannot write: no such folder" --svg "$tmp/nofolder/x.svg" "$tmp/garbage.blktrace.0"

# A pipe or a device is written in place, not replaced by a temporary file renamed over it (as
# root that turned /dev/full into a regular file); /dev/stdout works
mkfifo "$tmp/fifo"
( timeout 60 cat "$tmp/fifo" >"$tmp/from-fifo" ) &
reader=$!
run --svg "$tmp/fifo" "$text"
wait $reader
if [ $rc -eq 0 ] && [ -p "$tmp/fifo" ] && grep -q '</svg>' "$tmp/from-fifo"; then ok "a fifo output is written through, still a fifo"
else bad "fifo output"; fi
run --svg /dev/stdout "$text"
if [ $rc -eq 0 ] && grep -q '</svg>' "$tmp/out"; then ok "--svg /dev/stdout"; else bad "--svg /dev/stdout"; fi
run --png /dev/stdout "$text"
if [ $rc -eq 0 ] && [ "$(head -c 4 "$tmp/out" | tail -c 3)" = PNG ]; then ok "--png /dev/stdout"; else bad "--png /dev/stdout"; fi

# Messages a new user met
dat="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
expect "unknown command" 2 "'frobnicate': unknown command" frobnicate "$dat"
expect "record: which value and why (--hz)" 2 "'0': bad --hz: give 1 to 1000" record --bootchart --hz 0 -o "$tmp/r"
expect "record: which value and why (--duration)" 2 "'-5': bad --duration" record --duration -5 -o "$tmp/r.dat"
expect "record: --until-idle without --bootchart" 2 "until-idle goes with --bootchart" record --until-idle -o "$tmp/r.dat"
expect "GLib option message said our way (integer)" 2 "^iochart: 'abc': bad --width: give a whole number$" --width abc --svg "$tmp/x.svg" "$dat"
expect "GLib option message said our way (unknown)" 2 "^iochart: '--frob': unknown option \(see 'iochart info --help'\)$" info --frob "$dat"
expect "GLib option message said our way (missing)" 2 "^iochart: --svg needs a value" --svg
expect "--pid matching nothing warns" 0 "warning: --pid 99999: no process" --svg "$tmp/x.svg" --pid 99999 "$dat"
expect "--comm matching nothing warns" 0 "warning: --comm 'nosuch': no process" --svg "$tmp/x.svg" --comm nosuch "$dat"

# Annotations a chart cannot show are named, with the span they missed, not dropped in silence
boot="$IOCHART_SOURCE_ROOT/samples/bootchart-ionice.tgz"
expect "annotation past the boot's end warns" 0 \
  "^iochart: warning: annotation 'late' at 5000.00 s is past the end of the boot chart, which spans 1968.87 s to 1970.88 s after boot: not drawn$" \
  --svg "$tmp/b.svg" --annotate 5000s=late --annotate 1969.5=shown "$boot"
grep -q "'shown'" "$tmp/err" && bad "a drawn annotation warned" || ok "a drawn annotation does not warn"
expect "annotation before the boot chart's first sample warns" 0 "annotation 'early' at 1.00 s is before the start of the boot chart" \
  --svg "$tmp/b.svg" --annotate 1=early "$boot"
expect "annotation outside --from/--to warns" 0 "annotation 'cut' at 1969.10 s is outside the range drawn, 1969.20 s to 1970.88 s after boot" \
  --svg "$tmp/b.svg" --from 1969.2 --annotate 1969.1=cut "$boot"
expect "annotated process started before the boot chart warns" 0 "annotation 'kthreadd' at 0.20 s is before the start of the boot chart" \
  --svg "$tmp/b.svg" --annotate kthreadd "$boot"
expect "report: annotation past the boot's end warns" 0 "annotation 'late' at 5000.00 s is past the end of the boot chart" \
  report -o "$tmp/b.html" --annotate 5000s=late "$boot"
expect "report: annotation past the capture's span warns" 0 \
  "^iochart: warning: annotation 'late' at 50.00 s is past the end of the capture, which spans 0.00 s to 1.84 s from its start: not drawn$" \
  report -o "$tmp/r.html" --annotate 50=late --annotate 0.5=shown "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
grep -q "'shown'" "$tmp/err" && bad "report: a drawn annotation warned" || ok "report: a drawn annotation does not warn"
expect "--annotate on an I/O chart warns it is not drawn" 0 "warning: --annotate: a boot chart option, not drawn on this I/O chart" \
  --svg "$tmp/x.svg" --annotate 1=x "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"

# A boot chart too tall for a PNG (3,000 busy processes): scaled to fit, said our way with the
# path given (not the temporary file's), the image inside cairo's 32767 px
python3 - "$tmp/tall" <<'PY'
import os, sys
d = sys.argv[1]; os.makedirs(d)
open(d + '/header', 'w').write('version = 0.8\ntitle = tall\nsystem.cpu = model name : X (2)\n')
ps, st, ds = [], [], []
for k, t in enumerate((100, 120, 140, 160)):
    ps.append('%d\n1 (init) S 0 0 0 0 -1 0 0 0 0 0 %d %d 0 0 20 0 1 0 2 1000 10\n' % (t, k, k))
    ps += ['%d (w%d) R 1 0 0 0 -1 0 0 0 0 0 %d 0 0 0 20 0 1 0 50 1000 10\n' % (p, p, 2 * k) for p in range(100, 3100)]
    ps.append('\n')
    st.append('%d\ncpu  %d 0 10 80 0 0 0\ncpu0 5 0 5 40 0 0 0\n\n' % (t, 10 + 10 * k))
    ds.append('%d\n 8 0 sda %d 0 100 5 0 0 0 0 0 10 10\n\n' % (t, 10 + k))
for name, parts in (('proc_ps.log', ps), ('proc_stat.log', st), ('proc_diskstats.log', ds)):
    open(os.path.join(d, name), 'w').write(''.join(parts))
PY
expect "boot chart PNG scaled down: the warning's wording" 0 \
  "^iochart: warning: '$tmp/tall.png': the chart is 1600.[0-9]+ px, over PNG's limit here: scaled by 0\.[0-9]+ \(SVG and PDF keep it whole\)$" \
  --png "$tmp/tall.png" "$tmp/tall"
if python3 -c '
import struct, sys
w, h = struct.unpack(">II", open(sys.argv[1], "rb").read()[16:24])
assert w <= 32767 and 30000 < h <= 32767, (w, h)
' "$tmp/tall.png" && [ "$(grep -c . "$tmp/err")" -eq 1 ]; then ok "boot chart PNG scaled inside 32767 px, one warning"; else bad "tall PNG size"; fi

# Pipes: '-' and <(...) are read like files
run info - <"$dat"; [ $rc -eq 0 ] && ok "info - (a regular stdin)" || bad "info - <file"
run info - < <(cat "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.report.txt")
[ $rc -eq 0 ] && grep -q "requests: 269" "$tmp/out" && ok "cat x | iochart info -" || bad "info - from a pipe"
run info <(cat "$dat")
[ $rc -eq 0 ] && grep -q "requests: 269" "$tmp/out" && ok "iochart info <(cat x)" || bad "info <(...)"
run --json "$tmp/pipe.json" <(gzip -c "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.trace.txt")
[ $rc -eq 0 ] && [ -s "$tmp/pipe.json" ] && ok "a gzip text through a pipe" || bad "gzip through a pipe"
expect "a bootchart through a pipe: said so, not 'holds no block requests'" 2 \
  "a bootchart capture is read from its file or folder, not from a pipe" info <(cat "$IOCHART_SOURCE_ROOT/samples/bootchart-ionice.tgz")
expect "info --from past the capture's end" 2 "^iochart: '5': --from is past the capture's end \(it spans 1.8 s\)$" \
  info --from 5 "$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
expect "a damaged pipe names what the user gave" 2 "^iochart: 'stdin': not a capture" info - < <(head -c 100 /dev/urandom)

# Plurals: a lane of one request says "1 request", not "1 requests"
head -n 4 "$tmp/class7.txt" | sed 's/0x7,0,2/0x2,0,2/' >"$tmp/one.txt"
run --svg "$tmp/one.svg" "$tmp/one.txt"
if [ $rc -eq 0 ] && grep -q 'in 1 request, 1 process' "$tmp/one.svg" && ! grep -q '1 requests' "$tmp/one.svg"; then
  ok "plurals: 1 request"; else bad "plurals"; fi

# A blktrace folder with the blkparse text of the same run is the same run
if command -v blkparse >/dev/null; then
  bt="$IOCHART_SOURCE_ROOT/samples/blktrace/bfq-idle-vs-be-dd"
  blkparse -i "$bt/loop2" -o "$tmp/same.blkparse.txt" >/dev/null 2>&1
  run info "$bt" "$tmp/same.blkparse.txt"
  if [ $rc -eq 0 ] && ! grep -q "not the same run" "$tmp/err"; then ok "blktrace + its blkparse text: the same run"; else bad "same run"; fi
  expect "a capture of another run still warned" 0 "not the same run" info "$bt" "$IOCHART_SOURCE_ROOT/samples/hdd-blktrace-5s.blkparse.txt"
else
  echo "ok - # SKIP same-run check: blkparse is not installed"
fi

exit $fail
