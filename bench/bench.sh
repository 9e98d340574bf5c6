#!/bin/sh
# coalsim benchmark (make bench): every measure is the median of RUNS runs of
# one command (wall seconds, /usr/bin/time), printed with its rate and its
# ratio to a reference run in the same session.  Run on an idle machine.
#   usage: bench/bench.sh [RECORDS] [RUNS]
#   BENCH_PARTS="text binary add full kernel tensor" picks parts (default: all six)
#   COALSIM=PATH times another coalsim (an older build, for a comparison)
#   1. text:   a generated mixed trace of RECORDS records, coalsim beside wc -l
#   2. binary: the same trace converted with coalsim convert; the reader alone
#   3. add:    examples/sketches/add.sketch at 65536 x 256 (50 M accesses) on
#              one thread and on every core, beside bench/addloop.c, a C loop
#              that only makes the same addresses and counts their sectors
#   4. full:   every sketch of examples/sketches and gpu/sketches at the size
#              gpu/README.md's validation ran it, with --hier --profile
#   5. kernel: siboehm's naive SGEMM at 512^3 (gpu/outside/sgemm.cu, its PTX
#              and the H100's SASS listing as committed) on the PTX and the
#              SASS interpreter, one thread and every core: warp-instructions
#              a second (the report's own count); then siboehm's shared-memory
#              SGEMM (kernel 3) at 512^3 on the PTX, where most instructions
#              are shared loads
#   6. tensor: a 2048^3 HGEMM through cp.async, ldmatrix and mma.sync
#              (tests/kernels/tensor.cu's mma_ldmatrix<0,1>, 64x64 tiles) on
#              the PTX interpreter, every core, plain and --hier --profile
set -e
cd "$(dirname "$0")/.."
records=${1:-10000000}
runs=${2:-5}
parts=${BENCH_PARTS:-text binary add full kernel tensor}
make -s build/coalsim build/libcoalsim.a
coalsim=${COALSIM:-build/coalsim}
mkdir -p build
cc -O2 -o build/gentrace bench/gentrace.c
cc -O2 -o build/addloop bench/addloop.c
cc -O2 -Iinclude -o build/readspeed bench/readspeed.c build/libcoalsim.a -lm -lpthread
cores=$(nproc)
echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r)"
echo "date: $(date -u +%Y-%m-%d), $runs runs each, medians; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# measure LABEL UNITS UNIT COMMAND...: median wall seconds of RUNS runs (the
# clock around /usr/bin/time, for milliseconds), UNITS (records, accesses) a
# second, median CPU seconds (user + system: the load of other processes
# shows in wall time more than in it), peak RSS; the median wall goes to
# build/bench.LABEL
measure() {
    label=$1 units=$2 unit=$3
    shift 3
    : > build/bench.times
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(date +%s%N)
        /usr/bin/time -f "%U %S %M" -o build/bench.one "$@" > /dev/null
        t1=$(date +%s%N)
        echo "$(( (t1 - t0) / 1000 )) $(cat build/bench.one)" >> build/bench.times
        i=$((i + 1))
    done
    t=$(awk '{print $1 / 1e6}' build/bench.times | median)
    c=$(awk '{print $2 + $3}' build/bench.times | median)
    m=$(cut -d' ' -f4 build/bench.times | sort -n | tail -1)
    awk -v l="$label" -v t="$t" -v c="$c" -v m="$m" -v r="$units" -v u="$unit" 'BEGIN {
        printf "%-28s %8.3f s %9.1f M %s/s   CPU %7.2f s   peak RSS %7.1f MB\n", l, t, (t > 0 ? r / t / 1e6 : 0), u, c, m / 1024 }'
    echo "$t" > "build/bench.$(echo "$label" | tr ' /()' '____')"
}
ratio() {   # TEXT A B: A / B of two medians
    awk -v t="$1" -v a="$(cat "build/bench.$2")" -v b="$(cat "build/bench.$3")" 'BEGIN { printf "%s: %.2fx\n", t, a / b }'
}

trace=${BENCH_TRACE:-build/bench.trace}
case " $parts " in *" text "*|*" binary "*)
    [ -f "$trace" ] && [ "$(cat "$trace.records" 2>/dev/null)" = "$records" ] || {
        build/gentrace "$records" > "$trace"
        echo "$records" > "$trace.records"
    }
    bytes=$(wc -c < "$trace")
    echo "trace: $trace, $records records, $bytes bytes"
    cat "$trace" > /dev/null ;;     # warm the page cache
esac

case " $parts " in *" text "*)
    echo "== text trace"
    measure "wc -l" "$records" records wc -l "$trace"
    measure "coalsim --threads 1" "$records" records "$coalsim" --threads 1 "$trace"
    measure "coalsim --threads $cores" "$records" records "$coalsim" --threads "$cores" "$trace"
    ratio "coalsim --threads 1 / wc -l" "coalsim_--threads_1" "wc_-l"
    build/readspeed "$trace" "$runs" ;;
esac

case " $parts " in *" binary "*)
    echo "== binary trace"
    build/coalsim convert "$trace" "$trace.bin"
    echo "binary: $(wc -c < "$trace.bin") bytes ($(awk -v a="$(wc -c < "$trace")" -v b="$(wc -c < "$trace.bin")" 'BEGIN { printf "%.1f", a / b }')x smaller)"
    cat "$trace.bin" > /dev/null
    measure "coalsim (binary)" "$records" records "$coalsim" "$trace.bin"
    measure "coalsim --threads 1 (binary)" "$records" records "$coalsim" --threads 1 "$trace.bin"
    build/readspeed "$trace.bin" "$runs" ;;
esac

case " $parts " in *" add "*)
    echo "== add sketch, 65536 blocks x 256 threads"
    add="--set blocks=65536 --set threads=256 examples/sketches/add.sketch"
    accesses=$(build/addloop 65536 256 | cut -d' ' -f1)
    build/addloop 65536 256
    measure "C loop (bench/addloop.c)" "$accesses" accesses build/addloop 65536 256
    # shellcheck disable=SC2086
    measure "coalsim add --threads 1" "$accesses" accesses "$coalsim" --threads 1 $add
    # shellcheck disable=SC2086
    measure "coalsim add --threads $cores" "$accesses" accesses "$coalsim" --threads "$cores" $add
    ratio "add --threads 1 / C loop" "coalsim_add_--threads_1" "C_loop__bench_addloop.c_"
    ratio "add --threads $cores / C loop" "coalsim_add_--threads_$cores" "C_loop__bench_addloop.c_" ;;
esac

case " $parts " in *" full "*)
    echo "== full-size sketches, --hier --profile gpu/profiles/h100.txt, every core (gpu/join_dram.py's sizes)"
    while read -r name file sets; do
        case "$name" in ''|'#'*) continue ;; esac
        args=""
        for s in $sets; do args="$args --set $s"; done
        # shellcheck disable=SC2086
        accesses=$(build/coalsim --json $args "$file" | python3 -c 'import json,sys; print(sum(a["active_threads"] for a in json.load(sys.stdin)["accesses"]))')
        # shellcheck disable=SC2086
        measure "$name" "$accesses" accesses "$coalsim" --hier --profile gpu/profiles/h100.txt $args "$file"
    done < bench/fullsize.list ;;
esac

case " $parts " in *" kernel "*)
    echo "== kernel: sgemm_naive 512^3 (grid 16x16 of 32x32), the PTX and the H100's SASS"
    ptx=gpu/results/h100/outside/ptx/sgemm.ptx
    sass=gpu/results/h100/outside/sass/sgemm.nvdisasm
    launch="--kernel sgemm_naive --grid 16,16 --block 32,32 --args 512,512,512,0.5,A:1M=random:1,B:1M=random:2,3.0,C:1M=random:3"
    for isa in PTX SASS; do
        if [ $isa = PTX ]; then files="$ptx"; else files="--ptx $ptx $sass"; fi
        # shellcheck disable=SC2086
        inst=$(build/coalsim --json $launch $files | python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["smsp__inst_executed.sum"])')
        echo "$isa: $inst warp-instructions"
        # shellcheck disable=SC2086
        measure "sgemm_naive $isa --threads 1" "$inst" inst "$coalsim" --threads 1 $launch $files
        # shellcheck disable=SC2086
        measure "sgemm_naive $isa --threads $cores" "$inst" inst "$coalsim" --threads "$cores" $launch $files
    done
    launch="--kernel sgemm_shared_mem_block --grid 16,16 --block 1024 --args 512,512,512,0.5,A:1M=random:1,B:1M=random:2,3.0,C:1M=random:3"
    # shellcheck disable=SC2086
    inst=$(build/coalsim --json $launch $ptx | python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["smsp__inst_executed.sum"])')
    echo "sgemm_shared_mem_block PTX: $inst warp-instructions"
    # shellcheck disable=SC2086
    measure "sgemm_shared_mem_block PTX --threads 1" "$inst" inst "$coalsim" --threads 1 $launch $ptx
    # shellcheck disable=SC2086
    measure "sgemm_shared_mem_block PTX --threads $cores" "$inst" inst "$coalsim" --threads "$cores" $launch $ptx ;;
esac

case " $parts " in *" tensor "*)
    echo "== tensor: HGEMM 2048^3 through cp.async, ldmatrix and mma.sync (mma_ldmatrix<0,1>, grid 32x32 of 128)"
    launch="--kernel mma_ldmatrix<0,1> --grid 32,32 --block 128 --args A:8M=randomh:1,B:8M=randomh:2,C:16M,2048,2048,2048"
    # shellcheck disable=SC2086
    inst=$(build/coalsim --json $launch tests/kernels/tensor.ptx | python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["smsp__inst_executed.sum"])')
    echo "PTX: $inst warp-instructions"
    # shellcheck disable=SC2086
    measure "hgemm2048 PTX --threads $cores" "$inst" inst "$coalsim" --threads "$cores" $launch tests/kernels/tensor.ptx
    # shellcheck disable=SC2086
    measure "hgemm2048 PTX --threads $cores --hier --profile" "$inst" inst "$coalsim" --threads "$cores" --hier \
        --profile gpu/profiles/h100.txt $launch tests/kernels/tensor.ptx ;;
esac
