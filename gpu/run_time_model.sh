#!/usr/bin/env bash
# Everything the time model needs from one GPU, in one run (no network, no
# clock or GPU setting changed):
#   1. the device profile: `harness profile` (DRAM, L2, L1 and shared rates,
#      latencies, block cost: the memory side) and `harness sm` (the SM clock,
#      each PTX operation's throughput and latency, shared and L1 rates,
#      barriers, atomics, back-to-back launches: the instruction side), and
#      the SASS of the microbenchmarks (what each PTX operation became);
#   2. the outside suite's time launches: cudaEvent times (median of 20
#      back-to-back launches, an event between each two) and Nsight Compute's
#      counters (gpu/outside/run_outside.sh with SETS=time).
# usage: bash gpu/run_time_model.sh OUT        (from anywhere; PARTS="sm profile outside" by default,
#        PARTS=sm for harness sm alone)
# OUT gets seven files:
#   log.txt            this script's log: nvidia-smi, versions, each step's status
#   profile.txt        harness profile's output (a profile file's memory keys)
#   sm.txt             harness sm's output (the instruction keys)
#   extra.tgz          the microbenchmarks' SASS, run_outside.sh's log and outside.tgz
#   outside/times.txt  the launcher's attr/time lines of the time set
#   outside/ncu.csv    ncu's rows for the time set
#   outside/summary.txt  one line a launch
# Back here: python3 gpu/outside/join.py --set time OUT/outside gpu/results/DEV/outside,
# and the profile is profile.txt followed by sm.txt (gpu/profiles/README.md).
# Expected: about 5 minutes on an H100 or H200 (an estimate: dry-run only
# without a GPU); TOTAL (default 540 s) bounds every step's timeout.
set -u
out=${1:?usage: bash gpu/run_time_model.sh OUT}
mkdir -p "$out/outside" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
TOTAL=${TOTAL:-540}
PARTS=${PARTS:-sm profile outside}   # PARTS=sm: only harness sm (and its SASS)
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
T0=$(date +%s)
W=$(mktemp -d /tmp/coalsim-time.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1
el() { echo $(($(date +%s) - T0)); }
left() { echo $((TOTAL - $(el))); }
say() { echo "== $(el) s: $*"; }
cap() { local t=$1 l; l=$(left); echo $((t < l ? t : (l > 1 ? l : 1))); }

say "start in $W"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit \
    --format=csv 2>&1
nvcc --version 2>&1 | tail -n 2
nproc

# ---- 1. the harness (libcoalsim.a and nvcc)
if timeout "$(cap 240)" make -s -j"$(nproc)" gpu > "$W/build.txt" 2>&1; then
    say "harness built"
else
    say "harness build failed:"
    tail -20 "$W/build.txt"
fi
if [ -x build/harness ]; then
    if part sm; then
        timeout "$(cap 150)" build/harness sm > "$out/sm.txt" 2> "$W/sm.err"
        say "harness sm: rc=$? ($(grep -c = "$out/sm.txt") keys)"
        cat "$W/sm.err"
    fi
    if part profile; then
        timeout "$(cap 240)" build/harness profile > "$out/profile.txt" 2> "$W/profile.err"
        say "harness profile: rc=$? ($(grep -c = "$out/profile.txt") keys)"
        cat "$W/profile.err"
    fi
    # the SASS of the microbenchmarks: sm_* (harness sm) and the chases
    if command -v cuobjdump > /dev/null; then
        cuobjdump -sass build/harness | awk '/Function : / {on = /sm_|chase/} on' > "$W/sm_sass.txt"
        say "SASS of $(grep -c 'Function : ' "$W/sm_sass.txt") microbenchmark kernels"
    fi
fi

# ---- 2. the outside suite's time set: times and counters
if ! part outside; then
    say "outside suite not asked for (PARTS=$PARTS)"
elif [ "$(left)" -gt 120 ]; then
    HARD=$(($(left) - 25)) SETS=time bash gpu/outside/run_outside.sh "$W/outside" > "$W/outside.log" 2>&1
    say "run_outside.sh (time set): rc=$?"
    tail -15 "$W/outside.log"
    for f in times.txt ncu.csv summary.txt; do
        [ -e "$W/outside/$f" ] && cp "$W/outside/$f" "$out/outside/$f"
    done
else
    say "no time left for the outside suite"
fi

cat "$out/sm.txt" "$out/profile.txt" 2> /dev/null
tar czf "$out/extra.tgz" -C "$W" --exclude='outside/times.txt' --exclude='outside/ncu.csv' \
    --exclude='outside/summary.txt' . 2> /dev/null
say "done: $(cd "$out" && find . -type f | sort | tr '\n' ' ')"
