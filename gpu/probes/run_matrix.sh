#!/usr/bin/env bash
# The matrix and async-copy probes (matrix.cu) on the GPU at hand.
#   usage: gpu/probes/run_matrix.sh OUTDIR
# Writes OUTDIR/log.txt (versions, the metrics ncu knows, each step's rc),
# OUTDIR/launches.txt (which pattern each launch was), OUTDIR/ncu.csv (one
# row a launch), OUTDIR/sass.txt (each probe kernel's instructions) and
# OUTDIR/rates.txt (the tensor pipe's rates, cudaEvent times, no ncu).
# Clocks are left alone (--clock-control none).  Then, on any machine:
#   python3 gpu/probes/join_matrix.py OUTDIR > gpu/probes/h100-matrix.txt
set -u
out=${1:?usage: run_matrix.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
ncu --version | tail -1
nvcc --version | tail -1
bin=/tmp/coalsim_matrix
nvcc -O2 -arch=${CUDA_ARCH:-sm_90} -std=c++17 -o "$bin" "$here/matrix.cu"; echo "build rc=$?"
cuobjdump --dump-sass "$bin" | grep -E "Function|LDSM|STSM|LDGSTS|DEPBAR|HMMA|IMMA|DMMA|LDS|STS|LDG|STG|BAR" > "$out/sass.txt"
echo "cuobjdump rc=$?"
chip=$(ncu --list-chips 2>/dev/null | tr ', ' '\n\n' | grep -m1 -E '^gh100$' || echo gh100)
ncu --query-metrics --chip "$chip" > "$out/query.txt" 2>&1; echo "query rc=$?"
want="smsp__inst_executed smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm smsp__inst_executed_op_ldgsts
smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st
smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_ldgsts smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss
l1tex__t_requests_pipe_lsu_mem_global_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
l1tex__data_bank_conflicts_pipe_lsu_mem_shared l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts
l1tex__data_bank_reads l1tex__data_bank_writes l1tex__data_pipe_lsu_wavefronts
l1tex__data_bank_writes_pipe_lsu_mem_shared_op_ldgsts l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_ldgsts l1tex__m_xbar2l1tex_read_sectors
lts__t_sectors_srcunit_tex_op_read lts__t_requests_srcunit_tex_op_read
sm__inst_executed_pipe_tensor_op_hmma sm__inst_executed_pipe_tensor_op_imma sm__inst_executed_pipe_tensor_op_dmma
smsp__inst_executed_pipe_tensor_op_hmma smsp__inst_executed_pipe_tensor_op_imma smsp__inst_executed_pipe_tensor_op_dmma
sm__inst_executed_pipe_tensor smsp__inst_executed_pipe_tensor sm__pipe_tensor_cycles_active sm__pipe_tensor_op_hmma_cycles_active
sm__pipe_tensor_op_imma_cycles_active sm__pipe_tensor_op_dmma_cycles_active sm__pipe_shared_cycles_active
smsp__inst_executed_pipe_lsu smsp__inst_executed_pipe_uniform smsp__inst_executed_pipe_alu smsp__inst_executed_pipe_fma smsp__inst_executed_pipe_fp64
smsp__warps_launched"
metrics=""
for m in $want; do
    if grep -qE "(^|[[:space:]])$m([[:space:]]|$)" "$out/query.txt"; then
        case $m in *cycles_active) s=.max ;; *) s=.sum ;; esac
        metrics="$metrics${metrics:+,}$m$s"
    else
        echo "not known to ncu: $m"
    fi
done
echo "metrics: $metrics"
"$bin" --rates > "$out/rates.txt" 2>&1; echo "rates rc=$?"
cat "$out/rates.txt"
t0=$(date +%s)
timeout ${NCU_TIMEOUT:-400} ncu --clock-control none --csv --page raw --metrics "$metrics" \
    -k regex:'^k_' --log-file "$out/ncu.csv" "$bin" > "$out/launches.txt"
echo "ncu rc=$? seconds=$(( $(date +%s) - t0 )) launches=$(wc -l < "$out/launches.txt")"
