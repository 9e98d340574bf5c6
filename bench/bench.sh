#!/bin/sh
# coalsim benchmark: generate a large mixed trace, time coalsim on it several
# times next to `wc -l` on the same file, print medians.
#   usage: bench/bench.sh [RECORDS] [RUNS]      (make bench)
# Prints the machine, then per tool: median wall seconds, records/s, MB/s,
# peak resident memory, and coalsim's ratio to wc -l.  Run on an idle machine.
set -e
cd "$(dirname "$0")/.."
records=${1:-10000000}
runs=${2:-5}
make -s build/coalsim
mkdir -p build
cc -O2 -o build/gentrace bench/gentrace.c
trace=${BENCH_TRACE:-build/bench.trace}
[ -f "$trace" ] && [ "$(cat "$trace.records" 2>/dev/null)" = "$records" ] || {
    build/gentrace "$records" > "$trace"
    echo "$records" > "$trace.records"
}
bytes=$(wc -c < "$trace")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r)"
echo "trace: $trace, $records records, $bytes bytes"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {   # label, command...: prints median seconds and max RSS (KB)
    label=$1; shift
    : > build/bench.times
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%e %M" -o build/bench.one "$@" > /dev/null
        cat build/bench.one >> build/bench.times
        i=$((i + 1))
    done
    t=$(cut -d' ' -f1 build/bench.times | median)
    m=$(cut -d' ' -f2 build/bench.times | sort -n | tail -1)
    awk -v l="$label" -v t="$t" -v m="$m" -v r="$records" -v b="$bytes" 'BEGIN {
        printf "%-22s median %7.3f s  %8.1f M records/s  %7.1f MB/s  peak RSS %6.1f MB\n",
               l, t, r / t / 1e6, b / t / 1e6, m / 1024 }'
    echo "$t" > "build/bench.$label"
}
cat "$trace" > /dev/null     # warm the page cache
measure "wc -l" wc -l "$trace"
measure "coalsim" build/coalsim --threads 1 "$trace"
measure "coalsim --threads $(nproc)" build/coalsim --threads "$(nproc)" "$trace"
awk -v a="$(cat build/bench.coalsim)" -v b="$(cat 'build/bench.wc -l')" \
    'BEGIN { printf "coalsim / wc -l: %.2fx the time\n", a / b }'

# the same trace in the binary format: size, coalsim on it, the reader alone
build/coalsim convert "$trace" "$trace.bin"
echo "binary: $(wc -c < "$trace.bin") bytes ($(awk -v a="$bytes" -v b="$(wc -c < "$trace.bin")" 'BEGIN { printf "%.1f", a / b }')x smaller)"
cat "$trace.bin" > /dev/null
measure "coalsim (binary)" build/coalsim "$trace.bin"
cc -O2 -Iinclude -o build/readspeed bench/readspeed.c build/libcoalsim.a
build/readspeed "$trace" "$runs"
build/readspeed "$trace.bin" "$runs"
