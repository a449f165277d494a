#!/bin/sh
# po/POTFILES.in lists every file with strings marked for translation, and only files that exist.
set -u
: "${IOCHART_SOURCE_ROOT:?}"
cd "$IOCHART_SOURCE_ROOT" || exit 1
fail=0
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d')
marked=$( { grep -rlE '(^|[^A-Za-z0-9_])(N_|C_|NC_|_)\("' src --include='*.c';
            grep -rl 'translatable="yes"' ui --include='*.ui';
            ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml 2>/dev/null; } | sort -u)
for f in $marked; do
  echo "$listed" | grep -qxF "$f" || { echo "FAIL: $f has marked strings but is not in po/POTFILES.in"; fail=1; }
done
for f in $listed; do
  [ -f "$f" ] || { echo "FAIL: po/POTFILES.in lists $f, which does not exist"; fail=1; }
done
# xgettext reads every listed file
if command -v xgettext >/dev/null; then
  xgettext --from-code=UTF-8 -f po/POTFILES.in -k_ -kN_ -o /dev/null 2>"${TMPDIR:-/tmp}/xgettext.$$" \
    || { echo "FAIL: xgettext: $(cat "${TMPDIR:-/tmp}/xgettext.$$")"; fail=1; }
  rm -f "${TMPDIR:-/tmp}/xgettext.$$"
fi
[ $fail = 0 ] && echo "ok: $(echo "$marked" | wc -l) files with marked strings, all listed"
exit $fail
