#!/bin/bash
# same-charts.sh OLD_IOCHART [NEW_IOCHART]: a speed change to the chart must not change a byte of
# it. Draws `iochart --svg` (and --json) with both binaries on every capture in samples/ and
# ../shared/captures and ../shared/bootchart (those present), at the default settings and with
# other widths, themes, groupings, ranges and latency kinds, and prints each that differs.
# SAME_CHARTS_PNG=1 draws `--png` too (the cairo raster backend: the app's paint). Exit 0 when
# all agree, 1 otherwise. NEW_IOCHART: build/src/cli/iochart.
set -u
# shellcheck source=captures.sh
source "$(dirname "$0")/captures.sh" "same-charts.sh OLD_IOCHART [NEW_IOCHART]" "$@"
settings=("" "--width 700 --theme dark" "--group-by pid --top 3" "--from 1s --to 2.5s --latency d2c"
          "--width 2500 --group-by class --top 0" "--latency i2d --steal-gap 1")
differ=0 n=0
png=()
[ -n "${SAME_CHARTS_PNG:-}" ] && png=(--png "$tmp/VERSION.png")
for c in "${captures[@]}"; do
  for s in "${settings[@]}"; do
    # shellcheck disable=SC2086
    "$old" --svg "$tmp/old.svg" --json "$tmp/old.json" "${png[@]/VERSION/old}" $s "$c" > "$tmp/old.txt" 2>&1
    echo "exit $?" >> "$tmp/old.txt"
    # shellcheck disable=SC2086
    "$new" --svg "$tmp/new.svg" --json "$tmp/new.json" "${png[@]/VERSION/new}" $s "$c" > "$tmp/new.txt" 2>&1
    echo "exit $?" >> "$tmp/new.txt"
    n=$((n + 1))
    for f in svg json png txt; do
      [ -e "$tmp/old.$f" ] || [ -e "$tmp/new.$f" ] || continue
      if ! cmp -s "$tmp/old.$f" "$tmp/new.$f"; then
        echo "== differs: $c $s ($f)"
        differ=1
      fi
    done
    rm -f "$tmp"/old.* "$tmp"/new.*
  done
done
echo "$n charts of ${#captures[@]} captures compared: $([ $differ = 0 ] && echo all the same || echo some differ)"
exit $differ
