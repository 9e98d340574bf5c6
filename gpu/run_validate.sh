#!/usr/bin/env bash
# Validate the model against the GPU at hand.  usage: gpu/run_validate.sh OUTDIR
# OUTDIR gets: capture.txt (model on the captured seed-sized launches),
# traces.tgz (those traces, format v1), ncu_counters.csv + launches.txt (Nsight
# Compute's counters for the same launches without capture), time.txt and
# time.json (large launches: measured vs predicted), sass.txt (the kernels'
# memory instructions), log.txt.
# Then, on any machine: python3 gpu/join_counters.py OUTDIR
set -u
out=${1:?usage: run_validate.sh OUTDIR}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
make -s gpu BUILD=/tmp/coalsim-build || exit 1
h=/tmp/coalsim-build/harness
cuobjdump --dump-sass "$h" | grep -E "Function|LDS|STS|LDG|STG|@" | grep -E "Function|LDS|STS|LDG|STG" > "$out/sass.txt"
mkdir -p /tmp/coalsim-traces
t0=$(date +%s)
$h capture /tmp/coalsim-traces > "$out/capture.txt" || exit 1
tar czf "$out/traces.tgz" -C /tmp coalsim-traces
echo "capture: $(( $(date +%s) - t0 )) s"; t0=$(date +%s)
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
timeout 300 ncu --clock-control none --csv --page raw --metrics "$metrics" --log-file "$out/ncu_counters.csv" \
    $h counters > "$out/launches.txt"
echo "ncu: rc=$? $(( $(date +%s) - t0 )) s"; t0=$(date +%s)
$h time | tee "$out/time.txt"
$h time --json > "$out/time.json"
echo "time: $(( $(date +%s) - t0 )) s"
