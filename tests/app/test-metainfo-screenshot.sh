#!/bin/sh
# The metainfo's screenshot URL is pinned to the newest release's tag (a URL that does not change
# under the stores that cache it) and names a file kept in data/screenshots/.
set -u
: "${IOCHART_SOURCE_ROOT:?}"
mi="$IOCHART_SOURCE_ROOT/data/org.iochart.Iochart.metainfo.xml.in"
version=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$mi" | head -1)
fail=0
urls=$(sed -n 's/.*<image>\(.*\)<\/image>.*/\1/p' "$mi")
[ -n "$urls" ] || { echo "FAIL: no screenshot image in $mi"; exit 1; }
for url in $urls; do
  case "$url" in
    https://raw.githubusercontent.com/iochart/iochart/v"$version"/data/screenshots/*.png) ;;
    *) echo "FAIL: '$url' is not pinned to the tag v$version"; fail=1; continue ;;
  esac
  file="$IOCHART_SOURCE_ROOT/${url#*/v"$version"/}"
  [ -s "$file" ] || { echo "FAIL: '$url' names $file, which is not in the tree"; fail=1; continue; }
  head -c 8 "$file" | od -An -tx1 | grep -q '89 50 4e 47' || { echo "FAIL: $file is not a PNG"; fail=1; }
done
[ $fail = 0 ] && echo "ok: screenshot pinned to v$version and in the tree"
exit $fail
