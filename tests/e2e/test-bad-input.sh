#!/bin/bash
# Bad captures: a clear error that names the file, exit code 2, never a crash.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

expect () {   # expect NAME PATTERN -- ARGS...
  local name=$1 pattern=$2; shift 3
  "$IOCHART" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -qE -- "$pattern" "$tmp/err"; then
    echo "not ok - $name: exit $rc, stderr: $(head -c 300 "$tmp/err")"
    fail=1
  else
    echo "ok - $name: $(head -n1 "$tmp/err")"
  fi
}

: >"$tmp/empty.dat"
head -c 4096 /dev/urandom >"$tmp/random.bin"
printf '\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0' >"$tmp/foreign.elf"
printf 'hello\nthis is not a trace\n' >"$tmp/prose.txt"
printf 'hello\nthis is not a trace\n' | gzip >"$tmp/prose.txt.gz"
mkdir "$tmp/folder"
printf '\x17\x08\x44tracing6\0' >"$tmp/cut.dat"   # a .dat cut right after its magic

expect "missing file" "'$tmp/nope.dat': No such file" -- info "$tmp/nope.dat"
expect "empty file" "'$tmp/empty.dat': empty" -- info "$tmp/empty.dat"
expect "random bytes" "'$tmp/random.bin': not a capture" -- info "$tmp/random.bin"
expect "foreign binary" "'$tmp/foreign.elf': not a capture" -- info "$tmp/foreign.elf"
expect "prose" "'$tmp/prose.txt': not a capture" -- info "$tmp/prose.txt"
expect "compressed prose" "'$tmp/prose.txt.gz': not a capture" -- info "$tmp/prose.txt.gz"
expect "empty folder" "'$tmp/folder': folder holds neither" -- info "$tmp/folder"
expect "cut .dat" "'$tmp/cut.dat'" -- info "$tmp/cut.dat"
expect "no capture" "needs a capture" -- info
expect "bad device" "'7:0': a device is MAJ,MIN" -- info --device 7:0 "$tmp/cut.dat"
expect "bad class rule" "'find=slow': unknown class" -- info --class find=slow "$tmp/cut.dat"
expect "unknown option" "'--frobnicate': unknown option" -- info --frobnicate "$tmp/cut.dat"
exit $fail
