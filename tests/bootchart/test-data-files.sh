#!/bin/sh
# The boot-time files in data/ checked statically (these machines cannot boot them):
# shellcheck on the init= wrapper, systemd-analyze verify on the unit (with the built iochart
# in ExecStart, since verify wants the command to exist). Skips (77) without the tools.
set -eu
src=${IOCHART_SOURCE_ROOT:?}
command -v shellcheck >/dev/null && command -v systemd-analyze >/dev/null || { echo "skip: no shellcheck or systemd-analyze"; exit 77; }
shellcheck -s sh "$src/data/iochart-bootchart-init"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/bin/iochart|${IOCHART:?}|" "$src/data/iochart-bootchart.service" > "$tmp/iochart-bootchart.service"
systemd-analyze verify "$tmp/iochart-bootchart.service" 2>"$tmp/err"
if [ -s "$tmp/err" ]; then cat "$tmp/err" >&2; exit 1; fi
grep -q '^ExecStart=/usr/bin/iochart record --bootchart ' "$src/data/iochart-bootchart.service"
grep -q 'iochart record --bootchart -o "$out" --until-idle' "$src/data/iochart-bootchart-init"
echo ok
