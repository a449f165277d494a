#!/bin/bash
# same-results.sh OLD_IOCHART [NEW_IOCHART]: a speed change must not change a figure. Runs
# `iochart info --json --all` (stdout and stderr) with both binaries on every capture in samples/
# and ../shared/captures and ../shared/bootchart (those present), and prints each that differs
# with a unified diff. Exit 0 when all agree, 1 otherwise. NEW_IOCHART: build/src/cli/iochart.
set -u
# shellcheck source=captures.sh
source "$(dirname "$0")/captures.sh" "same-results.sh OLD_IOCHART [NEW_IOCHART]" "$@"
differ=0
for c in "${captures[@]}"; do
  "$old" info --json --all "$c" > "$tmp/old" 2>&1; echo "exit $?" >> "$tmp/old"
  "$new" info --json --all "$c" > "$tmp/new" 2>&1; echo "exit $?" >> "$tmp/new"
  if ! cmp -s "$tmp/old" "$tmp/new"; then
    echo "== differs: $c"
    diff -u "$tmp/old" "$tmp/new" | head -20
    differ=1
  fi
done
echo "${#captures[@]} captures compared: $([ $differ = 0 ] && echo all the same || echo some differ)"
exit $differ
