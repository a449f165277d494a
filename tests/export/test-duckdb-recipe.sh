#!/bin/bash
# The README's DuckDB recipe: CSV exports of several captures in one DuckDB table give the figures
# of `info --json` per class, per process and per lane, and go to Parquet and back. Needs node and npm's
# @duckdb/node-api, installed into a scratch folder: skips (77) when either cannot be had.
set -u
S=$IOCHART_SOURCE_ROOT/samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v node >/dev/null && command -v npm >/dev/null || { echo "1..0 # skip: no node or npm"; exit 77; }
cp "$(dirname "$0")/duckdb-recipe.mjs" "$tmp/" && cd "$tmp" || exit 1
if ! timeout 180 npm install --silent --no-audit --no-fund --no-save @duckdb/node-api >npm.log 2>&1; then
  echo "1..0 # skip: cannot install @duckdb/node-api: $(tail -1 npm.log)"; exit 77
fi
fail=0
mkdir csv
captures=(ionice-bfq.dat ionice-mq-deadline.dat hdd-bfq-idle-vs-normal-5s.report.txt.xz)
for f in "${captures[@]}"; do
  "$IOCHART" export --format csv -o "csv/$f.csv" "$S/$f" || fail=1
  "$IOCHART" info --json --all "$S/$f" >"$f.info.json" 2>/dev/null || fail=1
done
if ! node duckdb-recipe.mjs "$tmp/csv/*.csv" "$tmp/all.parquet" >duck.json 2>duck.err; then
  echo "not ok - the recipe fails: $(tail -3 duck.err)"; exit 1
fi
if python3 - "$S" "${captures[@]}" <<'PY' 2>py.err; then echo "ok - DuckDB over ${#captures[@]} CSV exports equals info --json per class, process and lane; Parquet round trip"; else echo "not ok - $(tail -1 py.err)"; fail=1; fi
import json, sys, collections
S, caps = sys.argv[1], sys.argv[2:]
d = json.load(open('duck.json'))
assert {r['capture'] for r in d['perClass']} == {f'{S}/{c}' for c in caps}, d['perClass']
for c in caps:
    info = json.load(open(f'{c}.info.json'))
    cls = {r['class']: (int(r['requests']), int(r['bytes'])) for r in d['perClass'] if r['capture'] == f'{S}/{c}'}
    for k, v in info['classes'].items():
        assert cls.get(k, (0, 0)) == (v['requests'], v['bytes']), (c, k, cls.get(k), v)
    proc = {(int(r['pid']), r['comm']): (int(r['requests']), int(r['bytes']))
            for r in d['perProcess'] if r['capture'] == f'{S}/{c}' and r['pid'] is not None and int(r['requests']) > 0}
    assert proc == {(p['pid'], p['comm']): (p['requests'], p['bytes']) for p in info['processes']}, c
    lanes = {r['lane']: (int(r['requests']), int(r['bytes']))
             for r in d['perLane'] if r['capture'] == f'{S}/{c}' and r['lane'] and int(r['requests']) > 0}
    assert lanes == {l['label']: (l['requests'], l['bytes']) for l in info['lanes']}, c
    assert any(' × cat' in l for l in lanes), c
assert int(d['parquet']['n']) == int(d['csv']['n']) > 1000 and d['parquet']['bytes'] == d['csv']['bytes'], d
PY
exit $fail
