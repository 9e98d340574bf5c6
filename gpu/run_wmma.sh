#!/usr/bin/env bash
# The WMMA fragment kernels (tests/kernels/wmma.cu) on the GPU at hand: the
# fragment layouts each shape and type has, tiles against a CPU reference,
# SASS and Nsight Compute's counters.
# usage: bash gpu/run_wmma.sh OUTDIR        (from anywhere)
# OUTDIR gets:
#   log.txt            this script's log: versions, each step's rc and duration
#   layout.txt         wmma_check's output: LOAD, STORE and TILE lines
#   wmma_sass.txt      cuobjdump --dump-sass of the binary
#   sass_counts.txt    per kernel, how many HMMA/IMMA/DMMA/LDSM/LDGSTS/LDG/STS/LDS/... it has
#   metrics.txt        the metrics asked of ncu (the candidates gh100 knows)
#   ncu_query.txt      ncu --query-metrics --chip gh100, the list they were checked against
#   wmma_once.txt      wmma_check --once's output under ncu
#   wmma_ncu.csv       ncu's raw page, one row per kernel launch (186 launches)
# Nothing is changed on the GPU (no clock control).  TOTAL (default 560 s)
# bounds the whole run.  Expected: two to four minutes on an H100 (an estimate:
# dry-run only, without a GPU).  Exit status: 0 when every step succeeded,
# else the number of failed steps.
# shellcheck disable=SC2016  # the sh -c scripts take their arguments as $1, $2
set -u
out=${1:?usage: bash gpu/run_wmma.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
exec > >(tee -a "$out/log.txt") 2>&1

BIN=${BIN:-/tmp/wmma_check}
TOTAL=${TOTAL:-560}   # seconds for the whole script: every step's timeout is capped by what is left
T0=$(date +%s)
failed=0
say() { echo "== $(($(date +%s) - T0)) s: $*"; }
# step NAME TIMEOUT CMD...: run, log its rc and duration, count failures.
step() {
    local name=$1 limit=$2 t rc left
    shift 2
    t=$(date +%s)
    left=$((TOTAL - (t - T0)))
    [ "$limit" -le "$left" ] || limit=$((left > 1 ? left : 1))
    say "$name: start"
    timeout "$limit" "$@"
    rc=$?
    say "$name: rc=$rc ($(($(date +%s) - t)) s)"
    [ "$rc" -eq 0 ] || failed=$((failed + 1))
    return "$rc"
}

say "start: $(pwd), binary $BIN"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv 2>&1
nvidia-smi 2>&1 | head -n 4
ncu --version 2>&1 | tail -n 2
nvcc --version 2>&1 | tail -n 2
command -v cuobjdump ncu nvcc

# ---- 1. build (no stale binary survives a failed build)
rm -f "$BIN"
step build 300 nvcc -O3 -arch=sm_90 -std=c++17 -o "$BIN" gpu/wmma_check.cu

# ---- 2. checks and times
if [ -x "$BIN" ]; then
    step wmma_check 300 sh -c '"$1" > "$2/layout.txt" 2>&1' sh "$BIN" "$out"
    grep -v '^LOAD\|^STORE' "$out/layout.txt"
    say "layout.txt: $(grep -c '^LOAD' "$out/layout.txt") LOAD, $(grep -c '^STORE' "$out/layout.txt") STORE lines"
else
    say "wmma_check: no binary, skipped"
    failed=$((failed + 1))
fi

# ---- 3. SASS
if [ -x "$BIN" ]; then
    step sass 120 sh -c 'cuobjdump --dump-sass "$1" > "$2/wmma_sass.txt"' sh "$BIN" "$out"
    # per kernel, the count of each interesting opcode
    awk '/Function : / { f = $3; next }
         /\/\*[0-9a-f]+\*\// {
             line = $0; sub(/^[^\/]*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
             split(line, w, /[ .;]/); op = w[1]
             if (op ~ /^(HMMA|IMMA|DMMA|LDSM|STSM|LDGSTS|LDGDEPBAR|DEPBAR|LDG|STG|LDS|STS|BAR|MOVM|LD|ST)$/) n[f " " op]++
         }
         END { for (k in n) print k, n[k] }' "$out/wmma_sass.txt" | sort > "$out/sass_counts.txt"
    say "sass_counts.txt: $(wc -l < "$out/sass_counts.txt") lines"
fi

# ---- 4. the metrics gh100 knows, of the candidates
candidates="smsp__inst_executed.sum smsp__inst_executed_op_ldsm.sum smsp__inst_executed_op_ldgsts.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum
smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
sm__inst_executed_pipe_tensor_op_hmma.sum sm__inst_executed_pipe_tensor_op_imma.sum
sm__inst_executed_pipe_tensor_op_dmma.sum smsp__inst_executed_pipe_tensor.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__warps_launched.sum gpu__time_duration.sum"
# base names (the default listing) and, where this ncu has it, the names with suffixes
step query 120 sh -c 'ncu --query-metrics --chip gh100 > "$1/ncu_query.txt" 2>&1' sh "$out"
timeout 60 ncu --query-metrics --chip gh100 --query-metrics-mode all >> "$out/ncu_query.txt" 2>&1 ||
    say "query-metrics-mode all not available (base names only)"
known=$(awk '{ print $1 }' "$out/ncu_query.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_.]+$' | sort -u)
kept=""
for m in $candidates; do
    base=${m%.*}
    if printf '%s\n' "$known" | grep -qxF -e "$m" -e "$base"; then
        kept="$kept${kept:+,}$m"
    else
        say "metric $m: not known to gh100, dropped"
    fi
done
if [ -z "$kept" ]; then
    say "no candidate metric found in the query (did it fail?): asking for all of them"
    kept=$(printf '%s' "$candidates" | tr -s ' \n' ',')
fi
echo "$kept" | tr ',' '\n' > "$out/metrics.txt"
say "metrics ($(wc -l < "$out/metrics.txt")): $kept"

# ---- 5. Nsight Compute: every kernel once, small sizes
if [ -x "$BIN" ]; then
    step ncu 400 ncu --clock-control none --csv --page raw --metrics "$kept" \
        -k regex:'^(ld_|st_|tile_)' --launch-count 400 \
        --log-file "$out/wmma_ncu.csv" "$BIN" --once > "$out/wmma_once.txt" 2>&1
    tail -n 3 "$out/wmma_once.txt"
    say "wmma_ncu.csv: $(grep -c '^"[0-9]' "$out/wmma_ncu.csv" 2>/dev/null || echo 0) launch rows"
    grep -m 3 -E '==(ERROR|WARNING)==' "$out/wmma_ncu.csv" "$out/wmma_once.txt" 2>/dev/null
fi

say "done: $failed failed step(s)"
exit "$failed"
