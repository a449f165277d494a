#!/bin/sh
# Damaged and foreign input through the CLI: exit code 2 and a message that names the file (and,
# for a damaged .dat, the offset), never a crash. Then bytes flipped at fixed seeds: 0 or 2.
set -u
sample="$IOCHART_SOURCE_ROOT/samples/ionice-bfq.dat"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
size=$(wc -c < "$sample")
# libtracecmd mallocs whatever size a damaged header claims: under ASan that must not abort.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1; export ASAN_OPTIONS

# expect FILE PATTERN: exit code 2, stderr names FILE and matches PATTERN
expect() {
  "$IOCHART" info "$1" > /dev/null 2> "$tmp/err"; rc=$?
  if [ $rc -ne 2 ] || ! grep -q "'$1'" "$tmp/err" || ! grep -Eq "$2" "$tmp/err"; then
    echo "FAIL $(basename "$1"): exit $rc, wanted 2 and /$2/: $(cat "$tmp/err")"; fail=1
  else
    echo "ok $(basename "$1"): $(cat "$tmp/err")"
  fi
}

: > "$tmp/empty.dat"; expect "$tmp/empty.dat" "empty"
printf 'not a trace at all\n' > "$tmp/foreign.dat"; expect "$tmp/foreign.dat" "not a capture"
head -c 4096 /bin/sh > "$tmp/elf.dat"; expect "$tmp/elf.dat" "not a capture"
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[10]=ord("9"); open(sys.argv[2],"wb").write(b)' \
  "$sample" "$tmp/version.dat"
expect "$tmp/version.dat" "unsupported trace-cmd file version '9'.* at offset 10"
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[18:22]=b"\xff\xff\xff\xff"; open(sys.argv[2],"wb").write(b)' \
  "$sample" "$tmp/header.dat"
"$IOCHART" info "$tmp/header.dat" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || [ $rc -eq 0 ] || { echo "FAIL header.dat: exit $rc"; fail=1; }
for cut in 10 12 20 37 100 4096 40000 $((size / 2)) $((size - 4096)) $((size - 200)) $((size - 1)); do
  head -c $cut "$sample" > "$tmp/cut-$cut.dat"
  expect "$tmp/cut-$cut.dat" "truncated: .* at offset [0-9]+ (runs )?past end of file \\($cut bytes\\)"
done

# libtracecmd's open walks every v7 section header by its size, as a signed seek: a size of -16
# brings it back to the same header for ever. Refused by the layout check, naming the size's offset.
python3 -c 'import sys, struct; b=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(b+struct.pack("<HHIq",99,0,0,-16))' \
  "$sample" "$tmp/walk-back.dat"
expect "$tmp/walk-back.dat" "damaged: section 99 has a size of 18446744073709551600 bytes, which points back into the file at offset $((size + 8))$"

# Options libtracecmd takes as C strings without looking for their end (strdup of the uname and
# the version): under ASan a read past the option's buffer. v7 (the sample) and v6 (a fuzz seed
# cut from a recording); and a v7 options section marked compressed, which would skip the check.
v6="$IOCHART_SOURCE_ROOT/tests/dat/fuzz-corpus/dat/pages-1.dat"
for opt in 5 9; do
  python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-option.py" text-end $opt "$sample" "$tmp/text-end-$opt.dat"
  expect "$tmp/text-end-$opt.dat" "damaged: option $opt: its text has no end within its [0-9]+ bytes at offset [0-9]+$"
  python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-option.py" text-end $opt "$v6" "$tmp/text-end-v6-$opt.dat"
  expect "$tmp/text-end-v6-$opt.dat" "damaged: option $opt: its text has no end within its [0-9]+ bytes at offset [0-9]+$"
done
# A record whose length field runs past its page (a fuzz-dat finding: its fields were read past
# the page's buffer): skipped as damaged, the rest read.
past="$IOCHART_SOURCE_ROOT/tests/dat/fuzz-corpus/dat/v6-record-past-page"
"$IOCHART" info "$past" > /dev/null 2> "$tmp/err"; rc=$?
if [ $rc -ne 0 ] || ! grep -q "'$past': 1 damaged records skipped" "$tmp/err"; then
  echo "FAIL v6-record-past-page: exit $rc: $(cat "$tmp/err")"; fail=1
else
  echo "ok v6-record-past-page: $(cat "$tmp/err")"
fi
python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-option.py" compressed "$sample" "$tmp/options-compressed.dat"
expect "$tmp/options-compressed.dat" "damaged: options section marked compressed \\(trace-cmd writes them plain\\) at offset [0-9]+$"

# The trace clock libtracecmd reads after a v6 file's CPU table, its size unchecked: a garbage size
# is refused by the layout check before libtracecmd mallocs it, so here a huge allocation fails the
# ASan build. From our writer's output: the size field set to 0x114cd3cb097d0000, the shape iochart
# record wrote before it saved the clock there (no clock, the table ending 2 bytes before a page
# boundary: the first page's timestamp << 16 as the size; the abort of tests/record/test-record.sh
# step 5), and a clock of brackets alone (libtracecmd's parse would give sscanf () NULL).
"$IOCHART" synth -o "$tmp/synth.dat" --files 20 2> /dev/null || { echo "FAIL synth"; fail=1; }
python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-clock.py" size "$tmp/synth.dat" "$tmp/clock-size.dat"
python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-clock.py" old-writer "$tmp/synth.dat" "$tmp/clock-old.dat"
python3 "$IOCHART_SOURCE_ROOT/tests/dat/craft-clock.py" no-name "$tmp/synth.dat" "$tmp/clock-no-name.dat"
lenient=$ASAN_OPTIONS; ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=0
"$IOCHART" info "$tmp/synth.dat" > /dev/null 2> "$tmp/err" || { echo "FAIL synth.dat: $(cat "$tmp/err")"; fail=1; }
expect "$tmp/clock-size.dat" "damaged: trace clock of 1246604065865793536 bytes \\(the cpu 0 data starts [0-9]+ bytes on\\) at offset [0-9]+$"
expect "$tmp/clock-old.dat" "damaged: trace clock of [0-9]+ bytes \\(the cpu 0 data starts 2 bytes on\\) at offset [0-9]+$"
expect "$tmp/clock-no-name.dat" "damaged: trace clock '\\[\\]' names no clock at offset [0-9]+$"
ASAN_OPTIONS=$lenient

# A fault inside libtraceevent's format parser is caught and reported (exit 2), but the handle it
# was building cannot be freed: leaks are expected after such a fault, so LeakSanitizer is off here.
ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
# libtraceevent's format parser divides by zero on "%(" in a print fmt: SIGFPE, caught as a fault
python3 -c 'import sys; b=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(b.replace(b"__get_str(cmd)",b"__get_st%(cmd)",1))' \
  "$v6" "$tmp/format-modulo.dat"
expect "$tmp/format-modulo.dat" "damaged: libtracecmd fails on its headers or event formats \\(offset [0-9]+ and after\\)$"

crashes=0
for seed in $(seq 1 ${FLIPS:-30}); do
  python3 - "$sample" "$tmp/flip.dat" "$seed" <<'PY'
import random, sys
src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = random.Random(seed)
b = bytearray(open(src, 'rb').read())
for _ in range(r.choice([1, 1, 2, 8])):
    # half in the headers, half anywhere
    i = r.randrange(len(b)) if r.random() < 0.5 else r.randrange(min(len(b), 8192))
    b[i] ^= (1 << r.randrange(8)) if r.random() < 0.7 else r.randrange(256)
open(dst, 'wb').write(b)
PY
  "$IOCHART" info "$tmp/flip.dat" > /dev/null 2> "$tmp/err"; rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
    echo "FAIL flipped bytes, seed $seed: exit $rc: $(head -c 300 "$tmp/err")"; crashes=$((crashes + 1))
  fi
done
[ $crashes -eq 0 ] || fail=1
exit $fail
