#!/bin/sh
# Runs the GUI test under a virtual display with the cairo renderer (and a session bus, which GTK
# warns without); skips (77) without a display or xvfb-run.
set -u
test_bin=$1
shift   # the rest goes to the test binary (e.g. -p /app/dat)
# the test's recent files and settings stay out of the user's
XDG_DATA_HOME=$(mktemp -d)
XDG_CONFIG_HOME=$XDG_DATA_HOME
export XDG_DATA_HOME XDG_CONFIG_HOME
# no accessibility bus: its socket under ~/.cache is shared by every GUI test run on the machine,
# and one run's leaving makes another's GTK critical
GTK_A11Y=none
export GTK_A11Y
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
bus=""
command -v dbus-run-session >/dev/null && bus="dbus-run-session --"
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "1..0 # SKIP no xvfb-run"; exit 77; }
  $bus xvfb-run -a -s "-screen 0 2600x1000x24" env GSK_RENDERER=cairo NO_AT_BRIDGE=1 "$test_bin" "$@"
  exit $?
fi
GSK_RENDERER=cairo NO_AT_BRIDGE=1 $bus "$test_bin" "$@"
