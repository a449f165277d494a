#!/bin/bash
# The locale of the environment: C.UTF-8 alone (in LANG or LC_ALL) sets only LC_CTYPE, which is
# all of it that differs from C (src/cli/iochart.c); any other, or one category set on its own,
# is set in full as before. Both ways draw the same chart.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sample=$IOCHART_SOURCE_ROOT/samples/bootchart-ionice.tgz
fail=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

if ! locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
  echo "ok - skipped: no C.UTF-8 locale here"
  exit 0
fi
# LeakSanitizer cannot run under ptrace (strace below): off in a sanitized build
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
run () { env -u LC_ALL -u LC_CTYPE -u LC_NUMERIC -u LC_TIME -u LC_COLLATE -u LC_MESSAGES -u LANGUAGE "$@"; }
run LANG=C.UTF-8 "$IOCHART" --svg "$tmp/fast.svg" --title 'Bööt — ✓' "$sample"
check "C.UTF-8: renders with exit 0" "[ $? -eq 0 ]"
run LANG=C.UTF-8 LC_NUMERIC=C.UTF-8 "$IOCHART" --svg "$tmp/full.svg" --title 'Bööt — ✓' "$sample"
check "C.UTF-8 and LC_NUMERIC: renders with exit 0" "[ $? -eq 0 ]"
check "the same chart either way" "cmp -s '$tmp/fast.svg' '$tmp/full.svg' && grep -q 'Bööt — ✓' '$tmp/fast.svg'"
run LANG=C.UTF-8 "$IOCHART" --svg "$tmp/x.svg" "$tmp/no-such-capture" 2>"$tmp/err"
check "an error names the capture" "grep -q 'no-such-capture' '$tmp/err'"
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  run LANG=C.UTF-8 strace -f -qq -e trace=openat -o "$tmp/fast" "$IOCHART" --version >/dev/null
  check "C.UTF-8 alone: only its LC_CTYPE is read" \
    "grep -q '/LC_CTYPE' '$tmp/fast' && ! grep -qE '/LC_(NUMERIC|TIME|COLLATE|MESSAGES|MONETARY|PAPER)' '$tmp/fast'"
  run LC_ALL=C.UTF-8 LANG=C strace -f -qq -e trace=openat -o "$tmp/all" "$IOCHART" --version >/dev/null
  check "LC_ALL=C.UTF-8: only its LC_CTYPE is read" \
    "grep -q '/LC_CTYPE' '$tmp/all' && ! grep -qE '/LC_(NUMERIC|TIME|COLLATE|MESSAGES)' '$tmp/all'"
  run LANG=C.UTF-8 LC_TIME=C.UTF-8 strace -f -qq -e trace=openat -o "$tmp/full" "$IOCHART" --version >/dev/null
  check "a category set on its own: every category is set" "grep -q '/LC_TIME' '$tmp/full' && grep -q '/LC_NUMERIC' '$tmp/full'"
fi
exit $fail
