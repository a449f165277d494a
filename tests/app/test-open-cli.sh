#!/bin/sh
# `iochart CAPTURE...` with no output option and a display starts the desktop app with the
# captures, in their order (the app here a stand-in that writes its arguments down), and so does
# `iochart` alone, with none.
set -u
: "${IOCHART:?}" "${IOCHART_SOURCE_ROOT:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/app" <<'STUB'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$IOCHART_TEST_ARGS"
STUB
chmod +x "$tmp/app"
fail=0
dat="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
blk="$IOCHART_SOURCE_ROOT/samples/blktrace/bfq-idle-vs-be-dd"
for display in X11 WAYLAND; do
  rm -f "$tmp/args"
  if [ $display = X11 ]; then env="DISPLAY=:97"; else env="WAYLAND_DISPLAY=wayland-97"; fi
  env -u DISPLAY -u WAYLAND_DISPLAY $env IOCHART_APP="$tmp/app" IOCHART_TEST_ARGS="$tmp/args" \
    "$IOCHART" "$blk" "$dat"; rc=$?
  printf '%s\n%s\n' "$blk" "$dat" > "$tmp/want"
  [ $rc = 0 ] && cmp -s "$tmp/args" "$tmp/want" ||
    { echo "FAIL: $display: 'iochart BLKTRACE DAT' exited $rc, app given: $(cat "$tmp/args" 2>/dev/null)"; fail=1; }
done
rm -f "$tmp/args"
env -u WAYLAND_DISPLAY DISPLAY=:97 IOCHART_APP="$tmp/app" IOCHART_TEST_ARGS="$tmp/args" "$IOCHART"; rc=$?
[ $rc = 0 ] && [ -f "$tmp/args" ] && [ ! -s "$tmp/args" ] ||
  { echo "FAIL: 'iochart' alone exited $rc, app given: $(cat "$tmp/args" 2>/dev/null)"; fail=1; }
[ $fail = 0 ] && echo "ok: the captures on the command line go to the desktop app"
exit $fail
