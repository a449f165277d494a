#!/bin/sh
# End to end: `iochart --svg/--png/--pdf/--json` headless, on the samples (and on the shared
# captures when they are there). Exit 77 skips.
set -u
: "${IOCHART:?}" "${IOCHART_SOURCE_ROOT:?}"
unset DISPLAY WAYLAND_DISPLAY
samples="$IOCHART_SOURCE_ROOT/samples"
shared="$IOCHART_SOURCE_ROOT/../shared/captures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

json_get() { # file python-expression-on-d
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# several outputs in one run, no display
sample="$samples/hdd-bfq-idle-vs-normal-5s.report.txt.xz"
if "$IOCHART" --device 7,0 --svg "$tmp/a.svg" --png "$tmp/a.png" --pdf "$tmp/a.pdf" --json "$tmp/a.json" \
     "$sample" 2>"$tmp/err"; then ok "render without a display"; else bad "render: $(cat "$tmp/err")"; fi
for f in a.svg a.png a.pdf a.json; do [ -s "$tmp/$f" ] || bad "$f missing or empty"; done
head -c 8 "$tmp/a.png" | od -An -c | grep -q 'P   N   G' && ok "png" || bad "png signature"
head -c 5 "$tmp/a.pdf" | grep -q '%PDF-' && ok "pdf" || bad "pdf signature"

# SVG: valid XML, renders, keeps real text and tooltips
if command -v xmllint >/dev/null; then
  xmllint --noout "$tmp/a.svg" && ok "svg is valid xml" || bad "xmllint"
fi
if command -v rsvg-convert >/dev/null; then
  rsvg-convert "$tmp/a.svg" -o "$tmp/rsvg.png" && [ -s "$tmp/rsvg.png" ] && ok "rsvg renders" || bad "rsvg-convert"
fi
grep -q '>Idle steal on 7,0: ' "$tmp/a.svg" && ok "steal headline is text" || bad "no steal headline text"
[ "$(grep -c '<title>' "$tmp/a.svg")" -ge 3 ] && ok "tooltips" || bad "too few <title>"
grep -q 'data-meta="episode:' "$tmp/a.svg" && ok "episode tooltips" || bad "no episode shading"
grep -q 'data-meta="lane:0"><title>find\[' "$tmp/a.svg" && ok "lane tooltip" || bad "no lane tooltip"

# an SVG alone loads no cairo (its sector map image is written by our PNG encoder straight from
# the pixels): loading cairo and the 17 libraries it pulls in took 5-8 ms of a large --svg
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -qq -e trace=openat -o "$tmp/strace" "$IOCHART" --device 7,0 --svg "$tmp/b.svg" "$sample" 2>/dev/null
  grep -q 'href="data:image/png;base64,iVBOR' "$tmp/b.svg" && ok "svg embeds the sector map's png" || bad "no png image in the svg"
  cmp -s "$tmp/a.svg" "$tmp/b.svg" && ok "svg alone is the same file" || bad "svg alone differs"
  ! grep -q 'libcairo\.so' "$tmp/strace" && ok "svg loads no cairo" || bad "svg loaded cairo"
else
  echo "ok: strace checks skipped: no strace (or no ptrace here)"
fi

# JSON: the summary plus idle_steal on the charted device, idle readers named
[ "$(json_get "$tmp/a.json" "d['idle_steal']['dev']")" = "7,0" ] && ok "json dev" || bad "json dev"
[ "$(json_get "$tmp/a.json" "d['idle_steal']['stolen_ns'] > 0")" = "True" ] && ok "stolen > 0" || bad "stolen == 0"
[ "$(json_get "$tmp/a.json" "all(e['idle_comm'] in ('find','cat') for e in d['idle_steal']['episodes'])")" = "True" ] \
  && ok "episodes name the idle readers" || bad "episodes name someone else"
[ "$(json_get "$tmp/a.json" "'devices' in d and 'processes' in d and len(d['idle_steal']['devices'])")" = "2" ] \
  && ok "json lists every device" || bad "json summary/devices"

# options
"$IOCHART" --from 1s --to 2.5s --width 800 --theme dark --group-by comm --top 3 --title "T <&>" \
  --svg "$tmp/b.svg" "$sample" && xmllint --noout "$tmp/b.svg" && grep -q 'width="800"' "$tmp/b.svg" \
  && grep -q '>T &lt;&amp;&gt;</text>' "$tmp/b.svg" && ok "options" || bad "options"
"$IOCHART" --comm find --svg "$tmp/c.svg" "$samples/ftrace-ionice-loop.trace" && ok "ftrace sample" || bad "ftrace sample"

# errors: exit 2 and a message
expect_2() { # description, args...
  d=$1; shift
  "$IOCHART" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && grep -q '^iochart: ' "$tmp/err"; then ok "$d"; else bad "$d: exit $rc: $(cat "$tmp/err")"; fi
}
expect_2 "no output" "$sample"
expect_2 "no capture" --svg "$tmp/x.svg"
expect_2 "missing capture" --svg "$tmp/x.svg" "$tmp/nope.dat"
expect_2 "bad theme" --theme pink --svg "$tmp/x.svg" "$sample"
expect_2 "bad time" --from 1parsec --svg "$tmp/x.svg" "$sample"
expect_2 "bad group" --group-by mood --svg "$tmp/x.svg" "$sample"
expect_2 "unknown device" --device 9,9 --svg "$tmp/x.svg" "$sample"
expect_2 "unwritable output" --svg "$tmp/no/such/dir/x.svg" "$sample"

# the shared captures, device 7,0: steal > 0 with idle readers named, 0 alone
if [ -d "$shared" ]; then
  for f in "$shared"/*idle-vs-normal*.dat "$shared"/*normal-alone*.dat; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$IOCHART" --device 7,0 --json "$tmp/s.json" --svg "$tmp/s.svg" "$f" 2>/dev/null || { bad "$b: render"; continue; }
    stolen=$(json_get "$tmp/s.json" "d['idle_steal']['stolen_ns']")
    names=$(json_get "$tmp/s.json" "','.join(sorted({p['comm'] for p in d['idle_steal']['idle_processes']}))")
    case "$b" in
      *alone*) [ "$stolen" = 0 ] && ok "$b: no steal" || bad "$b: stolen $stolen";;
      *) [ "$stolen" -gt 0 ] && [ "$names" = "cat,find" ] && ok "$b: stolen $stolen by $names" \
           || bad "$b: stolen $stolen by '$names'";;
    esac
  done
else
  echo "skip: no shared captures"
fi

exit $fail
