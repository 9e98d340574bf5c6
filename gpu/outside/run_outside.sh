#!/usr/bin/env bash
# All the GPU ground truth for the outside suite in one run, on a machine with
# a GPU, nvcc, ncu, cuobjdump, nvdisasm (compute-sanitizer optional).
#   usage: bash gpu/outside/run_outside.sh OUT        (from anywhere; no network)
# OUT gets at most five files:
#   summary.txt  one line a launch: set, median us, registers, key counters
#   times.txt    the launcher's attr/time lines (times: count set --repeat 5,
#                time set --repeat 20) and FAILED lines
#   ncu.csv      every Nsight Compute row (raw page), chunk by chunk, each chunk
#                after a line "# chunk SET FIRST: NAME=MANGLED ..." naming its launches
#   log.txt      this script's log (also in outside.tgz)
#   outside.tgz  the rest: PTX, SASS (cuobjdump), nvdisasm with line info,
#                resource usage, sm_80 cubins, the count launches' output
#                buffers, the launcher's and ncu's own output
# Then, on any machine: python3 gpu/outside/join.py OUT
# SETS=time runs only the time launches (times and ncu counters; no output
# dumps, opcode mix or sanitizer), as gpu/run_time_model.sh does.
# Expected: 5 to 6 minutes on an H100 (an estimate: this script was only dry-run
# without a GPU).  Nothing runs past HARD seconds (default 420; each step's
# timeout is cut to what is left), so it ends within about 7.5 minutes even
# when a step hangs; what did not run is named in the log.  Clocks are left as
# they are (ncu --clock-control none).
set -u
out=${1:?usage: bash gpu/outside/run_outside.sh OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
HARD=${HARD:-420}          # seconds after which no step starts
CHUNK=${CHUNK:-24}         # launches a ncu process
JOBS=${JOBS:-$(nproc)}
W=$(mktemp -d /tmp/coalsim-outside.XXXXXX)
mkdir -p "$W/build" "$W/sm80" "$W/sass" "$W/ncu" "$W/dumps"
touch "$W/run_count.txt" "$W/run_time.txt"
exec > >(tee -a "$W/log.txt") 2>&1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
left() { echo $((HARD - $(el))); }
say() { echo "== $(el) s: $*"; }
LIST=${LIST:-gpu/outside/launches.list}  # another list: a quick partial run
SETS=${SETS:-count time}                 # SETS=time: only the time launches (no dumps, no sanitizer)
has_set() { case " $SETS " in *" $1 "*) return 0 ;; esac; return 1; }
FIRST_SET=${SETS%% *}

say "start in $W"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
nvcc --version | tail -n 2
ncu --version | tail -n 1

# ---- 1. the launcher and every compile unit (ptx + sm_90 cubin in parallel)
timeout 120 nvcc -std=c++17 -O2 -o "$W/launch" gpu/outside/launch.cu -ldl || { say "launcher build failed"; exit 1; }
"$W/launch" --units "$LIST" > "$W/units.txt" || exit 1
while read -r unit file defs; do
    # no trailing blank: xargs -L would join the line with the next
    for kind in ptx cubin; do echo "$W/build $unit $file $kind sm_90${defs:+ $defs}"; done
done < "$W/units.txt" > "$W/jobs.txt"
compile() {  # DIR UNIT FILE KIND ARCH [DEFS...]
    local dir=$1 unit=$2 file=$3 kind=$4 arch=$5
    shift 5
    timeout 300 nvcc -arch="$arch" -O3 -lineinfo -"$kind" "$@" "$file" -o "$dir/$unit.$kind" ||
        echo "COMPILE FAILED $unit $kind"
}
export -f compile
xargs -P "$JOBS" -L 1 bash -c 'compile "$@"' _ < "$W/jobs.txt"
say "compiled $(ls "$W/build" | wc -l) of $(wc -l < "$W/jobs.txt") ptx/cubin files"

# ---- 2. in the background, on the CPU only: disassembly and sm_80 cubins
(
    for f in "$W"/build/*.cubin; do
        u=$(basename "$f" .cubin)
        echo "cuobjdump -sass $f > $W/sass/$u.sass"
        echo "nvdisasm -g $f > $W/sass/$u.nvdisasm"
        echo "cuobjdump -res-usage $f > $W/sass/$u.res"
    done | nice -n 19 xargs -P "$JOBS" -I{} timeout 120 bash -c '{}'
    while read -r unit file defs; do echo "$W/sm80 $unit $file cubin sm_80${defs:+ $defs}"; done < "$W/units.txt" |
        nice -n 19 xargs -P 4 -L 1 bash -c 'compile "$@"' _
) > "$W/background.txt" 2>&1 &
bg=$!

# ---- 3. one run each set without a profiler: dumps (count set) and times
run_set() {  # SET TIMEOUT LAUNCHER-OPTIONS...: resumes after a crash or a hang
    local set=$1 to=$2 skip=0 n rc
    shift 2
    n=$(awk -v s="$set" '!/^#/ && NF && $2 == s' "$LIST" | wc -l)
    while [ "$skip" -lt "$n" ] && [ "$(left)" -gt 20 ]; do
        timeout -k 10 "$(( to < $(left) ? to : $(left) ))" "$W/launch" --keep-going "$@" --list "$LIST" \
            --build "$W/build" --set "$set" --skip "$skip" >> "$W/run_$set.txt"
        rc=$?
        [ $rc -le 1 ] && break
        # killed or crashed: go on after the launch it was in (the last BEGIN)
        skip=$(grep -c '^BEGIN ' "$W/run_$set.txt")
        say "run $set: rc=$rc, resuming at launch $skip"
    done
}
if has_set count; then
    run_set count 120 --repeat 5 --dump "$W/dumps" --dump-max 1M --dump-changed
    say "count set run: $(grep -c '^time ' "$W/run_count.txt") timed, $(grep -c '^FAILED ' "$W/run_count.txt") failed"
fi
if has_set time; then
    run_set time 200 --repeat 20
    say "time set run: $(grep -c '^time ' "$W/run_time.txt") timed, $(grep -c '^FAILED ' "$W/run_time.txt") failed"
fi
grep -h '^attr \|^time \|^FAILED \|^device ' "$W/run_count.txt" "$W/run_time.txt" > "$out/times.txt"

# ---- 4. Nsight Compute: the metrics this ncu knows, probed on one launch
# gpu/outside/metrics.txt: the metrics, "count-only" ones apart
M=$(awk '!/^#/ && NF && $2 != "count-only" {print $1}' gpu/outside/metrics.txt | paste -sd,)
OPCODES=$(awk '!/^#/ && $2 == "count-only" {print $1}' gpu/outside/metrics.txt | paste -sd,)
NCU=(ncu --clock-control none --csv --page raw)
help=$(ncu --help 2>&1)
for opt in "--print-units base" "--print-kernel-base mangled"; do
    read -ra words <<< "$opt"
    if grep -q -- "${words[0]}" <<< "$help"; then NCU+=("${words[@]}"); else say "this ncu has no ${words[0]}"; fi
done
ncu_run() {  # CSV-BASE METRICS TIMEOUT LAUNCHER-OPTIONS...
    local base=$1 metrics=$2 to=$3
    shift 3
    timeout -k 10 "$to" "${NCU[@]}" --metrics "$metrics" --log-file "$base.csv" \
        "$W/launch" --keep-going --list "$LIST" --build "$W/build" "$@" > "$base.out" 2>&1
}
probe() {  # METRICS [NCU-OPTIONS...]: 0 if this ncu profiles the first launch of the first set with them
    local m=$1
    shift
    local save=("${NCU[@]}")
    NCU+=(${@+"$@"})
    ncu_run "$W/ncu/probe" "$m" 90 --set "$FIRST_SET" --count 1
    local rc=$?
    NCU=("${save[@]}")
    [ $rc -eq 0 ] && grep -q '^"ID"' "$W/ncu/probe.csv"
}
if probe "$M"; then
    say "ncu takes all $(tr ',' '\n' <<< "$M" | wc -l) metrics"
else
    # keep the metrics ncu --query-metrics lists, and launch__*, sass__* and
    # device__* (other providers: the query does not list them), then try
    # again; else the harness's known eight
    known=$(timeout 60 ncu --query-metrics 2>/dev/null | awk '{print $1}')
    kept=
    for m in ${M//,/ }; do
        if [[ $m == launch__* || $m == sass__* || $m == device__* ]] || grep -qx "${m%%.*}" <<< "$known"; then kept=$kept${kept:+,}$m; else say "dropping $m"; fi
    done
    M=$kept
    if ! probe "$M"; then
        say "ncu rejects the filtered list too; falling back to the harness's metrics"
        M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
        M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
        M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
        M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,gpu__time_duration.sum
    fi
fi
# the instruction mix by SASS opcode (an instanced metric), count set only
MC=$M
INST=()
grep -q -- --print-metric-instances <<< "$help" && INST=(--print-metric-instances values)
if has_set count && probe "$M,$OPCODES" ${INST[@]+"${INST[@]}"}; then
    MC=$M,$OPCODES
    NCU_COUNT=(${INST[@]+"${INST[@]}"})
    say "ncu takes $OPCODES ${INST[*]}"
else
    NCU_COUNT=()
    say "ncu rejects $OPCODES; count set without it"
fi
echo "$MC" > "$W/ncu/metrics_count.txt"
echo "$M" > "$W/ncu/metrics_time.txt"

ncu_set() {  # SET METRICS CHUNK-TIMEOUT NCU-OPTIONS...
    local set=$1 metrics=$2 to=$3 k=0 n t rc begun base
    shift 3
    n=$(awk -v s="$set" '!/^#/ && NF && $2 == s' "$LIST" | wc -l)
    while [ $k -lt "$n" ]; do
        t=$(left)
        if [ "$t" -lt 30 ]; then say "out of time: ncu $set skips launches $k.. of $n"; break; fi
        base=$W/ncu/${set}_$(printf %03d $k)
        local save=("${NCU[@]}")
        NCU+=(${@+"$@"})
        ncu_run "$base" "$metrics" $((to < t ? to : t)) --set "$set" --skip $k --count "$CHUNK"
        rc=$?
        NCU=("${save[@]}")
        begun=$(grep -c '^BEGIN ' "$base.out")
        say "ncu $set $k: rc=$rc, $begun launches begun"
        # a crash or a hang ends the chunk early: the next one starts after it
        if [ $rc -le 1 ] || [ "$begun" -eq 0 ]; then k=$((k + CHUNK)); else k=$((k + begun)); fi
    done
}
has_set count && ncu_set count "$MC" 150 ${NCU_COUNT[@]+"${NCU_COUNT[@]}"}
has_set time && ncu_set time "$M" 200
for f in "$W"/ncu/count_*.csv "$W"/ncu/time_*.csv; do
    [ -e "$f" ] || continue
    b=${f%.csv}
    printf '# chunk %s %s:' "$(basename "$b" | cut -d_ -f1)" "$((10#$(basename "$b" | cut -d_ -f2)))"
    awk '/^LAUNCH /{sub("kernel=", "", $3); printf " %s=%s", $2, $3}' "$b.out"
    echo
    grep -v '^==' "$f"
done > "$out/ncu.csv"
say "ncu: $(grep -c '^"[0-9]' "$out/ncu.csv") rows"

# ---- 5. if time is left: compute-sanitizer memcheck on the count set
if has_set count && command -v compute-sanitizer > /dev/null && [ "$(left)" -gt 90 ]; then
    timeout -k 10 $(($(left) - 20)) compute-sanitizer --tool memcheck --print-limit 50 \
        "$W/launch" --keep-going --list "$LIST" --build "$W/build" --set count > "$W/sanitizer.txt" 2>&1
    say "compute-sanitizer: rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$W/sanitizer.txt") clean summaries," \
        "$(grep -m1 'ERROR SUMMARY' "$W/sanitizer.txt")"
else
    say "compute-sanitizer skipped (missing, out of time, or no count set)"
fi

# ---- 6. the outputs
for _ in $(seq 60); do kill -0 $bg 2> /dev/null || break; sleep 1; done
kill -0 $bg 2> /dev/null && say "disassembly or sm_80 builds still running; packing what there is"
say "sass files: $(ls "$W/sass" | wc -l), sm_80 cubins: $(ls "$W/sm80" | wc -l)"
if command -v python3 > /dev/null; then
    COALSIM_LAUNCHES=${LIST:-} python3 gpu/outside/join.py --summary "$out" > "$out/summary.txt" ||
        say "join.py --summary failed"
else
    echo "no python3 here: make it with python3 gpu/outside/join.py --summary OUT" > "$out/summary.txt"
fi
cp gpu/outside/launches.list "$W/launches.list"
# outside.tgz under 16 MiB: the output dumps go in up to a size that fits
(cd "$W" && find . -path ./dumps -prune -o -type f ! -name 'probe.*' -print) > "$W/files.txt"
for maxdump in 1048577 262145 65537 1; do
    (cat "$W/files.txt"; cd "$W" && find ./dumps -type f -size -"${maxdump}"c) > "$W/tar.txt"
    tar czf "$out/outside.tgz" -C "$W" -T "$W/tar.txt"
    [ "$(stat -c %s "$out/outside.tgz")" -lt $((16 << 20)) ] && break
    say "outside.tgz over 16 MiB with dumps under $maxdump bytes"
done
say "done: $(ls "$out" | tr '\n' ' ')(outside.tgz $(du -h "$out/outside.tgz" | cut -f1))"
cp "$W/log.txt" "$out/log.txt"
