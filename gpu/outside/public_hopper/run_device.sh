#!/usr/bin/env bash
# pranjalssh/fast.cu's Hopper GEMM ladder on the GPU at hand (an H100), through
# our harness (gpu/outside/public_hopper/harness.cu): build, checks and
# cudaEvent times at the check and big sizes, ncu counters of every kernel once
# at the check size, SASS.  Needs .gl/public_hopper (prep.sh; on the device
# machine it arrives through the run tool's carry).  One process a kernel, each
# under a timeout, so a kernel that hangs or faults costs only itself.
# usage: bash gpu/outside/public_hopper/run_device.sh OUTDIR      (from anywhere)
#        SIZES=LIST bash gpu/outside/public_hopper/run_device.sh OUTDIR: the launches of LIST only
#        (its stage 2s below: sizes.txt, ncu_sizes.csv, counters.txt, log.txt, ptxas.txt, full.tar.gz)
# OUTDIR gets 8 files (the device tool brings back no more):
#   log.txt          versions, each step's rc and duration
#   check.txt        harness --size check --time (full checks; times: 5 x 10 launches), then
#                    --size big (8192^3 or 8192 x 8064 x 8192, 16388 sampled entries; 5 x 4 launches)
#   ptxas.txt        nvcc -Xptxas -v: registers, shared memory, spills a kernel
#   metrics.txt      the metrics asked of ncu, after those this ncu does not know were dropped
#   ncu.csv          ncu --csv --page raw, one row a kernel (check size, one launch each), the
#                    per-kernel runs' rows under one header (columns: their union)
#   counters.txt     ncu.csv as a table: a line a metric, a column a kernel
#   sass_counts.txt  per kernel, each SASS opcode (with modifiers) and how many times it appears
#   full.tar.gz      the rest: sass.txt (cuobjdump -sass), each ncu run's own log, the query
# Nothing is changed on the GPU (ncu --clock-control none).  TOTAL (default 400 s) bounds
# the whole run.  Exit status: the number of failed steps.
# shellcheck disable=SC2016  # the sh -c scripts take their arguments as $1, $2
set -u
out=${1:?usage: bash gpu/outside/public_hopper/run_device.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d /tmp/public_hopper.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1

TOTAL=${TOTAL:-400}
KERNELS=${KERNELS:-"1 2 3 4 5 6 7 8 9 10 11 12 pp"}
T0=$(date +%s)
failed=0
say() { echo "== $(($(date +%s) - T0)) s: $*"; }
left() { echo $((TOTAL - ($(date +%s) - T0))); }
# step NAME TIMEOUT CMD...: run under min(TIMEOUT, time left), log rc and duration
step() {
    local name=$1 limit=$2 t rc l
    shift 2
    t=$(date +%s)
    l=$(left)
    [ "$limit" -le "$l" ] || limit=$((l > 1 ? l : 1))
    say "$name: start (limit $limit s)"
    timeout "$limit" "$@"
    rc=$?
    say "$name: rc=$rc ($(($(date +%s) - t)) s)"
    [ "$rc" -eq 0 ] || failed=$((failed + 1))
    return "$rc"
}

# the end of a run: the text files and everything else in one archive, the exit status
finish() {
    cp "$out"/*.txt "$W/" 2>/dev/null
    tar -C "$W" --exclude='harness' -czf "$out/full.tar.gz" . 2>/dev/null
    ls -la "$out"
    say "done: $failed failed step(s)"
    exit "$failed"
}

say "start: $(pwd), work $W"
test -d .gl/public_hopper/fast.cu || { say "no .gl/public_hopper/fast.cu: run gpu/outside/public_hopper/prep.sh first"; exit 1; }
cat .gl/public_hopper/fast.cu/COMMIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv 2>&1
nvcc --version 2>&1 | tail -n 2
ncu --version 2>&1 | tail -n 1
command -v nvcc ncu cuobjdump python3

# ---- 1. build: the source's own nvcc flags that matter (sm_90a PTX + SASS, C++17, -DNDEBUG,
# relaxed constexpr, -lcuda), -O3 -lineinfo; -Xptxas -v for the registers
BIN=$W/harness
step build 240 sh -c 'nvcc -gencode "arch=compute_90a,code=[compute_90a,sm_90a]" -O3 -lineinfo -std=c++17 -DNDEBUG \
    --expt-relaxed-constexpr -w -Xptxas -v -I.gl/public_hopper/fast.cu -o "$1" gpu/outside/public_hopper/harness.cu \
    -lcuda 2> "$2/ptxas.txt"' sh "$BIN" "$out"
grep -E 'error' "$out/ptxas.txt" | head -n 20

# ---- 2s. SIZES=LIST (e.g. gpu/outside/public_hopper/heldout7.list: lines "KERNEL M,N,K"): only
# those launches, each in its own process: spot check (16388 entries) and cudaEvent time (5 trials x
# 10 back-to-back launches) in sizes.txt, then ncu's cold time and a few counters of its first
# launch (ncu -c 1) in ncu_sizes.csv; the check-size and big stages are skipped
if [ -n "${SIZES:-}" ]; then
    sm="gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.sum,smsp__inst_executed.sum,\
sm__inst_executed_pipe_tensor_op_gmma.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"
    : > "$out/sizes.txt"
    grep -E '^[0-9a-z]+ [0-9]+,[0-9]+,[0-9]+' "$SIZES" > "$W/sizes.list"
    while read -r k mnk; do
        step "time k$k $mnk" 60 sh -c '"$1" --size big --mnk "$2" --only "$3" --launches 10 >> "$4/sizes.txt" 2>&1' \
            sh "$BIN" "$mnk" "$k" "$out" || echo "k$k $mnk: run ended with status $?" >> "$out/sizes.txt"
    done < "$W/sizes.list"
    grep -E 'FAIL|time|status' "$out/sizes.txt"
    n=0
    while read -r k mnk; do
        n=$((n + 1))
        [ "$(left)" -gt 30 ] || { say "ncu k$k $mnk: no time left"; failed=$((failed + 1)); continue; }
        step "ncu k$k $mnk" 60 sh -c 'ncu --clock-control none -c 1 --csv --page raw --print-units base --metrics "$1" \
            --log-file "$2/ncu_s$3.csv" "$4" --size big --mnk "$5" --only "$6" --trials 1 --launches 1 \
            > "$2/ncu_s$3_stdout.txt" 2>&1' sh "$sm" "$W" "$n" "$BIN" "$mnk" "$k"
    done < "$W/sizes.list"
    python3 - "$W" "$out/ncu_sizes.csv" > "$out/counters.txt" <<'EOF'
import sys
sys.path.insert(0, "gpu/outside/public_hopper")
import ncu_join
w, dest = sys.argv[1], sys.argv[2]
items = [("%s/ncu_s%d.csv" % (w, i), dict(zip(("harness_kernel", "mnk"), line.split())))
         for i, line in enumerate(open(w + "/sizes.list"), 1)]
rows, head = ncu_join.join(items, dest, units=True)
print("%-4s %-16s %14s %16s %14s" % ("k", "M,N,K", "ncu ns", "dram read bytes", "gmma insts"))
for d in rows:
    print("%-4s %-16s %14s %16s %14s" % (d["harness_kernel"], d["mnk"], d.get("gpu__time_duration.sum", ""),
                                         d.get("dram__bytes_read.sum", ""), d.get("sm__inst_executed_pipe_tensor_op_gmma.sum", "")))
EOF
    cat "$out/counters.txt"
    finish
fi

# ---- 2. checks and times, a process a kernel: check size (full check, 5 x 10 launches), then big
if [ -x "$BIN" ]; then
    : > "$out/check.txt"
    for k in $KERNELS; do
        step "check k$k" 60 sh -c '"$1" --size check --only "$2" --time >> "$3/check.txt" 2>&1' sh "$BIN" "$k" "$out" ||
            echo "k$k: check run ended with status $? (timeout 124)" >> "$out/check.txt"
    done
    for k in $KERNELS; do
        step "big k$k" 60 sh -c '"$1" --size big --only "$2" >> "$3/check.txt" 2>&1' sh "$BIN" "$k" "$out" ||
            echo "k$k: big run ended with status $? (timeout 124)" >> "$out/check.txt"
    done
    grep -E 'PASS|FAIL|time|status' "$out/check.txt"
else
    say "no binary: checks skipped"
    failed=$((failed + 1))
fi

# ---- 3. SASS: the dump, and per kernel each opcode with its modifiers and how often it appears
if [ -x "$BIN" ]; then
    step sass 60 sh -c 'cuobjdump -sass "$1" > "$2/sass.txt"' sh "$BIN" "$W"
    awk '/Function : / { f = $3; next }
         /\/\*[0-9a-f]+\*\// {
             line = $0; sub(/^[^\/]*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
             split(line, w, /[ ;]/); if (w[1] != "") n[f " " w[1]]++
         }
         END { for (k in n) print k, n[k] }' "$W/sass.txt" | sort > "$out/sass_counts.txt"
    grep -E 'GMMA|UTMA|UBLKCP|SYNCS|ELECT|SETMAXREG|STSM|MAPA|UCGABAR|BAR' "$out/sass_counts.txt" | head -n 60
fi

# ---- 4. the metrics: coalsim's own (every one it reports), gpu/hopper/run_hopper.sh's list, the
# multicast ones; those this ncu does not know (ncu --query-metrics --chip gh100) are dropped
wanted="smsp__inst_executed.sum smsp__thread_inst_executed.sum smsp__warps_launched.sum sm__ctas_launched.sum
smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum smsp__inst_executed_op_global_atom.sum
smsp__inst_executed_op_global_red.sum smsp__inst_executed_op_local_ld.sum smsp__inst_executed_op_local_st.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum smsp__inst_executed_op_shared_atom.sum
smsp__inst_executed_op_generic_ld.sum smsp__inst_executed_op_generic_st.sum
smsp__inst_executed_op_ldsm.sum smsp__inst_executed_op_ldgsts.sum
smsp__inst_executed_op_tma_ld.sum smsp__inst_executed_op_tma_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
l1tex__t_requests_pipe_lsu_mem_global_op_red.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_local_op_st.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_dshared_op_st.sum l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum
l1tex__t_requests_pipe_lsu_mem_dshared_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_dshared_op_atom.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
sm__inst_executed_pipe_tensor_op_gmma.sum sm__sass_data_bytes_mem_shared_op_gmma.sum
sm__inst_executed_pipe_tensor_op_hmma.sum sm__inst_executed_pipe_tensor_op_imma.sum
sm__inst_executed_pipe_tensor_op_dmma.sum sm__inst_executed_pipe_tensor.sum smsp__inst_executed_pipe_tensor.sum
l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum
l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum
l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum
l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum
l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum
gpu__time_duration.sum sm__cycles_elapsed.max smsp__cycles_active.sum
dram__bytes_read.sum dram__bytes_write.sum lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum
lts__t_sectors_srcunit_tex.sum lts__t_requests_srcunit_tex.sum
launch__cluster_dim_x launch__grid_size launch__block_size launch__shared_mem_per_block launch__registers_per_thread"
step query 90 sh -c 'ncu --query-metrics --chip gh100 > "$1/query_base.txt" 2>&1' sh "$W"
awk '{ print $1 }' "$W/query_base.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_]+$' | sort -u > "$W/known_base.txt"
kept=""
for m in $wanted; do
    if [ ! -s "$W/known_base.txt" ] || grep -qxF -e "${m%.*}" "$W/known_base.txt" || [ "${m#launch__}" != "$m" ]; then
        kept="$kept${kept:+,}$m"
    else
        say "metric $m: not in the query, dropped"
    fi
done
echo "$kept" | tr ',' '\n' > "$out/metrics.txt"
say "metrics: $(wc -l < "$out/metrics.txt") asked"

# ---- 5. Nsight Compute, a process a kernel, check size, its one launch; a metric ncu refuses is
# dropped and the kernel's run repeated (twice at most)
if [ -x "$BIN" ]; then
    for k in $KERNELS; do
        [ "$(left)" -gt 40 ] || { say "ncu k$k: no time left"; failed=$((failed + 1)); continue; }
        for try in 1 2 3; do
            step "ncu k$k try $try" 60 sh -c 'ncu --clock-control none --csv --page raw --metrics "$1" \
                --log-file "$2/ncu_$3.csv" "$4" --size check --only "$3" > "$2/ncu_$3_stdout.txt" 2>&1' \
                sh "$kept" "$W" "$k" "$BIN"
            rows=$(grep -c '^"[0-9]' "$W/ncu_$k.csv" 2>/dev/null)
            say "ncu k$k: ${rows:-0} kernel rows"
            [ "${rows:-0}" -gt 0 ] && break
            bad=$(grep -h -E '==ERROR==' "$W/ncu_$k.csv" "$W/ncu_${k}_stdout.txt" 2>/dev/null |
                grep -o -E '[a-z0-9_]+__[a-z0-9_.]+' | sort -u)
            [ -n "$bad" ] || break
            for b in $bad; do
                say "ncu refused $b: dropped"
                kept=$(echo "$kept" | tr ',' '\n' | grep -vxF "$b" | paste -sd, -)
            done
            echo "$kept" | tr ',' '\n' > "$out/metrics.txt"
        done
        tail -n 3 "$W/ncu_${k}_stdout.txt"
    done
fi

# ---- 6. one CSV (the union of the runs' columns) and a table
python3 - "$W" "$out/ncu.csv" "$KERNELS" > "$out/counters.txt" 2> "$W/tables_err.txt" <<'EOF'
import sys
sys.path.insert(0, "gpu/outside/public_hopper")
import ncu_join
w, dest, kernels = sys.argv[1], sys.argv[2], sys.argv[3].split()
rows, head = ncu_join.join([("%s/ncu_%s.csv" % (w, k), {"harness_kernel": k}) for k in kernels], dest)
shown = [h for h in head if "__" in h and not h.startswith("device__") and not h.endswith((".avg", ".max", ".min")) or h == "sm__cycles_elapsed.max"]
print("# ncu --csv --page raw, harness --size check --only K (one launch each), --clock-control none")
for j, d in enumerate(rows):
    print("#   %2d k%s %s (grid %s, block %s)" % (j, d["harness_kernel"], d.get("Kernel Name", "?").split("(")[0],
                                             d.get("Grid Size", "?"), d.get("Block Size", "?")))
print("%-72s %s" % ("metric", " ".join("%12d" % j for j in range(len(rows)))))
for h in shown:
    print("%-72s %s" % (h, " ".join("%12s" % d.get(h, "") for d in rows)))
EOF
say "counters.txt: $(wc -l < "$out/counters.txt") lines; $(grep -c . "$out/ncu.csv") CSV lines"
cat "$W/tables_err.txt"

# ---- 7. everything else in one archive
finish
