#!/bin/bash
# ab.sh [-n RUNS] OLD_IOCHART NEW_IOCHART ARG...: CPU time (user + sys) of `IOCHART ARG...` for two
# builds, run in turns (old, new, old, new, ...) so that both see the same load, and the medians,
# in ms, with the ratio. On a shared machine a before/after figure from two separate runs of
# run-all.sh mostly measures the load; interleaved runs do not. Output goes to /dev/null; an
# ARG that is a path to write (--png x.png) is written by both.
# Example: bench/ab.sh /tmp/old/iochart build/src/cli/iochart info ../shared/captures/x.dat
set -eu
runs=9
if [ "${1:-}" = -n ]; then runs=$2; shift 2; fi
old=${1:?usage: ab.sh [-n RUNS] OLD_IOCHART NEW_IOCHART ARG...}
new=${2:?usage: ab.sh [-n RUNS] OLD_IOCHART NEW_IOCHART ARG...}
shift 2
cpu_ms() {   # the CPU ms of one run of "$@" (children included)
  python3 -c '
import resource, subprocess, sys
# before and after: a python3 started through a wrapper (pyenv) already has children counted
u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode not in (0, 1):
    sys.exit(f"error: {sys.argv[1]} failed (exit {r.returncode})")
print(f"{(u.ru_utime - u0.ru_utime + u.ru_stime - u0.ru_stime) * 1000:.2f}")' "$@"
}
a=() b=()
for _ in $(seq "$runs"); do
  a+=("$(cpu_ms "$old" "$@")")
  b+=("$(cpu_ms "$new" "$@")")
done
python3 - "${a[*]}" "${b[*]}" "$runs" <<'EOF'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"old {ma:.1f} ms  new {mb:.1f} ms CPU (medians of {sys.argv[3]}, interleaved): new/old {mb / ma:.2f}")
EOF
