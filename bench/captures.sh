# shellcheck shell=bash disable=SC2034
# captures.sh: sourced by same-results.sh and same-charts.sh. Sets `here`, `old`, `new`, `tmp`
# (removed at exit) and `captures`: every capture in samples/ and ../shared/captures and
# ../shared/bootchart (those present), for comparing two iochart binaries on the same inputs.
# $1: the script's own usage line, shown when OLD_IOCHART is missing.
here=$(cd "$(dirname "$0")" && pwd)
old=${2:?usage: $1}
new=${3:-$here/../build/src/cli/iochart}
tmp=$(mktemp -d /tmp/iochart-same.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
captures=()
for c in "$here"/../samples/* "$here"/../samples/blktrace/* "$here"/../../shared/captures/* \
         "$here"/../../shared/bootchart/*; do
  case $c in *README*|*.sh|*.expected|*.report.txt*|*/blktrace) continue ;; esac
  [ -e "$c" ] && captures+=("$c")
done
