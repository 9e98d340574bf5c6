#!/usr/bin/env bash
# Run every probe pattern under Nsight Compute on the GPU at hand.
#   usage: gpu/probes/run_probes.sh OUTDIR
# Writes OUTDIR/ncu_<space>_<op>.csv (one row per kernel launch, raw metrics),
# OUTDIR/launches.txt (which pattern each launch was), OUTDIR/sass.txt (proof that
# each probe kernel holds exactly one LSU instruction) and OUTDIR/log.txt.
# CHUNKS (e.g. "shared:ld shared:st") and FILTER (a substring of pattern names)
# select a subset.  Clocks are left alone (--clock-control none).  Then, on any machine:
#   python3 gpu/probes/join.py OUTDIR > gpu/probes/h100-sm90.txt
set -u
out=${1:?usage: run_probes.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
log="$out/log.txt"
exec > >(tee -a "$log") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
ncu --version | tail -1
nvcc --version | tail -1
bin=/tmp/coalsim_probe
nvcc -O2 -arch=${CUDA_ARCH:-sm_90} -std=c++17 -diag-suppress 550 -o "$bin" "$here/probe.cu" || exit 1
cuobjdump --dump-sass "$bin" | grep -E "Function|LDG|STG|LDS|STS|LD\.|ST\." > "$out/sass.txt"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
: > "$out/launches.txt"
for so in ${CHUNKS:-global:ld global:st shared:ld shared:st}; do
    set -- ${so%:*} ${so#*:}
    t0=$(date +%s)
    echo "== $1 $2"
    timeout ${CHUNK_TIMEOUT:-150} ncu --clock-control none --csv --page raw --metrics "$metrics" \
        -k regex:'^k_(ld|st)_' --log-file "$out/ncu_$1_$2.csv" \
        "$bin" "$here/patterns.txt" "$1" "$2" ${FILTER:+"$FILTER"} > "$out/launches_tmp.txt"
    echo "rc=$? seconds=$(( $(date +%s) - t0 ))"
    sed "s/^/$1 $2 /" "$out/launches_tmp.txt" >> "$out/launches.txt"
    rm -f "$out/launches_tmp.txt"
done
