#!/bin/bash
# `iochart report`: the HTML parses, its anchors resolve, it loads nothing from outside, its
# inline SVG renders, and its figures are those of `info --json`; the PDF has its pages and its
# text; a boot chart bundle adds the boot chart; bad input exits 2.
set -u
S=$IOCHART_SOURCE_ROOT/samples
HDD=$S/hdd-bfq-idle-vs-normal-5s.report.txt.xz
HERE=$(dirname "$0")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok () { echo "ok - $1"; }
bad () { echo "not ok - $1"; fail=1; }
py () { if python3 -c "import json; j = json.load(open('$tmp/h.json')); t = j['text']
$2" 2>"$tmp/py"; then ok "$1"; else bad "$1: $(tail -1 "$tmp/py")"; fi; }

"$IOCHART" info --json "$HDD" >"$tmp/info.json" 2>/dev/null || bad "info --json"
printf '# a file of annotations\n2.5s=from a file\n' >"$tmp/notes"
if ! "$IOCHART" report -o "$tmp/r.html" --title "hdd idle vs normal" --annotate 1.5=hello --annotate find=finder \
     --annotations "$tmp/notes" "$HDD" 2>"$tmp/err"; then
  bad "report -o r.html: $(cat "$tmp/err")"; exit 1
fi
mkdir "$tmp/svg"
python3 "$HERE/check-html.py" "$tmp/r.html" "$tmp/svg" >"$tmp/h.json" 2>"$tmp/py" \
  && ok "HTML: balanced, every anchor resolves, no external resource" || bad "HTML: $(tail -1 "$tmp/py")"
py "HTML: sections, the verdict and figures of info --json" "
i = json.load(open('$tmp/info.json'))
for s in ('summary', 'charts', 'episodes', 'episode-1', 'episode-2', 'episode-3', 'lanes', 'annotations', 'reproduce'):
    assert s in j['ids'], s
assert j['anchors'] >= 6 and j['charts'] == 4, (j['anchors'], j['charts'])
pct = '%.1f%%' % i['idle_steal']['stolen_pct']
assert 'Idle-class I/O took ' + pct + ' of the time other I/O was waiting for 7,0' in t, pct
assert 'did not keep out of the way' in t
rows = j['rows']
assert ['be', '213', '11 MiB'] in rows and ['idle', '196', '10 MiB'] in rows, [r for r in rows if r and r[0] in ('be', 'idle')]
eps = [r for r in rows if len(r) == 6 and r[0].isdigit()]
assert len(eps) == 20 and '%d episodes' % i['idle_steal']['n_episodes'] in t, len(eps)
worst = max(e['stolen_ns'] for e in i['idle_steal']['episodes'])
assert eps[0][3] == '%.1f ms' % (worst / 1e6), (eps[0], worst)
assert any(r[0].startswith('find[17120] + 170') and r[1] == 'idle' for r in rows)"
py "HTML: the latency breakdown per class and per lane is the summary's (info --json)" "
def dur(ns):   # iochart_format_duration
    a = abs(ns)
    if a < 1e3: return '%.0f ns' % ns
    if a < 1e6: return ('%.1f µs' if a < 1e4 else '%.0f µs') % (ns / 1e3)
    if a < 1e9: return ('%.1f ms' if a < 1e7 else '%.0f ms') % (ns / 1e6)
    return ('%.1f s' if a < 1e11 else '%.0f s') % (ns / 1e9)
i = json.load(open('$tmp/info.json'))
d = [d for d in i['devices'] if d['dev'] == '7,0'][0]['classes']
rows = {(r[0], r[1]): r[2:] for r in j['rows'] if len(r) == 8 and r[1] in ('Q2I', 'I2D', 'D2C', 'Q2C')}
assert len(rows) == 8, rows.keys()
for (k, span), cells in rows.items():
    L = d[k]['latency'][span.lower()]
    assert cells == [str(L['n']), dur(L['avg_ns']), dur(L['p50_ns']), dur(L['p95_ns']), dur(L['p99_ns']), dur(L['max_ns'])], (k, span, cells, L)
lanes = [r for r in j['rows'] if len(r) == 11 and r[0] != 'lane']
assert [r[1] for r in lanes] == ['idle', 'be'] and lanes[0][9] == dur(d['idle']['latency']['q2c']['p99_ns']), lanes
assert 'latency' in j['ids'] and 'lanes-latency' in j['ids']"
py "HTML: user and automatic annotations listed; command line, version and checksum" "
import hashlib, subprocess
rows = j['rows']
notes = {r[1]: (r[0], r[2]) for r in rows if len(r) == 4}
assert notes['hello'] == ('1.500 s', 'user') and notes['from a file'] == ('2.500 s', 'user'), notes
assert notes['finder'][1] == 'user' and notes['first idle I/O'][1] == notes['last idle I/O'][1] == 'automatic', notes
assert any(k.startswith('longest steal episode') for k in notes), notes
assert 'iochart report -o' in t and \"--title 'hdd idle vs normal'\" in t, 'command line'
assert 'iochart 0.' in t
sha = hashlib.sha256(open('$HDD', 'rb').read()).hexdigest()
assert sha + ' $HDD' in t, 'checksum'   # the text's spaces are collapsed"
grep -q '>hello</text>' "$tmp/svg/chart-1.svg" && grep -q '>longest steal episode (' "$tmp/svg/chart-1.svg" \
  && ok "annotations drawn on the I/O chart" || bad "annotations not on the chart"
if command -v rsvg-convert >/dev/null; then
  n=0
  for s in "$tmp"/svg/chart-*.svg; do rsvg-convert -o "${s%.svg}.png" "$s" && [ -s "${s%.svg}.png" ] && n=$((n + 1)); done
  [ $n = 4 ] && ok "every inline SVG renders with rsvg-convert ($n)" || bad "rsvg-convert rendered $n of 4"
else
  echo "ok - # skip: no rsvg-convert"
fi

# PDF: pages, text that stays text, pages that render.
if "$IOCHART" report -o "$tmp/r.pdf" --annotate 1.5=hello "$HDD" 2>"$tmp/err"; then
  if command -v pdfinfo >/dev/null && command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null; then
    pages=$(pdfinfo "$tmp/r.pdf" | awk '/^Pages:/ {print $2}')
    [ "$pages" -ge 6 ] && ok "PDF: $pages pages" || bad "PDF: $pages pages"
    pdftotext "$tmp/r.pdf" "$tmp/r.txt"
    grep -q 'Idle-class I/O took 19.4%' "$tmp/r.txt" && grep -q 'Idle-steal episodes' "$tmp/r.txt" \
      && grep -q 'How to reproduce this report' "$tmp/r.txt" && ok "PDF: verdict and sections as text" \
      || bad "PDF text: $(head -c 300 "$tmp/r.txt")"
    pdftoppm -r 30 -png "$tmp/r.pdf" "$tmp/page" && [ "$(ls "$tmp"/page*.png | wc -l)" = "$pages" ] \
      && ok "PDF: every page renders" || bad "pdftoppm"
  else
    echo "ok - # skip: no poppler-utils"
  fi
else
  bad "report -o r.pdf: $(cat "$tmp/err")"
fi

# What if: the simulator's replay under idle-gate, the same figures as `iochart simulate --json`.
if "$IOCHART" report -o "$tmp/w.html" --simulate idle-gate "$HDD" 2>"$tmp/err" &&
   "$IOCHART" simulate --json --policy idle-gate "$HDD" >"$tmp/sim.json" 2>/dev/null; then
  mkdir "$tmp/wsvg"
  python3 "$HERE/check-html.py" "$tmp/w.html" "$tmp/wsvg" >"$tmp/h.json" 2>"$tmp/py" || bad "what-if HTML: $(tail -1 "$tmp/py")"
  py "what if: the sentence, the lane table and the simulated chart agree with iochart simulate" "
sim = json.load(open('$tmp/sim.json'))
obs, pol = sim['observed'], sim['policies'][0]
be = [i for i, l in enumerate(sim['lanes']) if l['class'] == 'be'][0]
early = obs['lanes'][be]['end_ns'] - pol['lanes'][be]['end_ns']
assert early > 2e9, early
assert 'what-if' in j['ids'] and 'what-if-idle-gate' in j['ids'] and j['charts'] == 5, (j['ids'], j['charts'])
s = 'Under idle-gate, find[17119] + 187 × cat (be) would end %.1f s earlier; idle steal 0 s instead of 736 ms.' % (early / 1e9)
assert s in t, s
row = [r for r in j['rows'] if len(r) == 7 and r[0].startswith('find[17119]')][0]
assert row[2:5] == ['%.3f s' % (obs['lanes'][be]['end_ns'] / 1e9), '%.3f s' % (pol['lanes'][be]['end_ns'] / 1e9), '%.1f s earlier' % (early / 1e9)], row"
else
  bad "report --simulate idle-gate: $(cat "$tmp/err")"
fi
"$IOCHART" report -o "$tmp/x.html" --simulate nosuchpolicy "$HDD" 2>"$tmp/err"; [ $? = 2 ] && ok "unknown policy: exit 2 ($(head -1 "$tmp/err"))" \
  || bad "unknown policy: $(cat "$tmp/err")"

# A bootchart bundle: the boot chart too, with its block I/O (its times count from boot: 1968.9 s to 1970.9 s).
if "$IOCHART" report -o "$tmp/b.html" --annotate dd=readers --annotate 1969.5=one-second "$S/bootchart-ionice.tgz" 2>"$tmp/err"; then
  mkdir "$tmp/bsvg"
  python3 "$HERE/check-html.py" "$tmp/b.html" "$tmp/bsvg" >"$tmp/h.json" 2>"$tmp/py" || bad "bootchart HTML: $(tail -1 "$tmp/py")"
  py "bootchart bundle: I/O chart and boot chart, boot summary, annotation on both" "
assert j['charts'] >= 2, j['charts']
assert 'Boot chart: ' in t and 'samples over' in t
notes = [r for r in j['rows'] if len(r) == 4 and r[1] == 'readers']
assert {r[3] for r in notes} == {'I/O chart', 'boot chart'}, notes"
  grep -q '>one-second</text>' "$tmp/bsvg/chart-2.svg" && ok "annotation drawn on the boot chart" || bad "annotation not on the boot chart"
else
  bad "report of the bootchart bundle: $(cat "$tmp/err")"
fi

# Bad input.
"$IOCHART" report -o "$tmp/r.txt" "$HDD" 2>"$tmp/err"; [ $? = 2 ] && grep -q 'FILE.html or -o FILE.pdf' "$tmp/err" \
  && ok "unknown output type: exit 2" || bad "output type"
"$IOCHART" report -o "$tmp/x.html" --annotate nosuchprocess=x "$HDD" 2>"$tmp/err"; [ $? = 2 ] \
  && grep -q "'nosuchprocess': annotation names no process" "$tmp/err" && ok "annotation of no process: exit 2" \
  || bad "annotation of no process: $(cat "$tmp/err")"
"$IOCHART" report -o "$tmp/x.html" "$tmp/missing" 2>"$tmp/err"; [ $? = 2 ] && ok "missing capture: exit 2" || bad "missing capture"
[ ! -e "$tmp/x.html" ] && ok "nothing written on bad input" || bad "a file written on bad input"
exit $fail
