#!/usr/bin/env bash
# A persistent GEMM's epilogue without the GEMM (epi_store.cu): its time with and without the
# mainloop's stand-in work, and what ncu counts for it.
# usage: bash gpu/probes/run_epi_store.sh OUTDIR     (from the repository root)
# OUTDIR gets rates.txt (EPI lines), ncu.csv (one launch a configuration) and log.txt.  Nothing is
# changed on the GPU.  Expected: about two minutes.
set -u
out=${1:?usage: bash gpu/probes/run_epi_store.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O2 -gencode arch=compute_90a,code=sm_90a -o /tmp/epi_store gpu/probes/epi_store.cu || exit 1
timeout 120 /tmp/epi_store > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_write.sum,\
smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum,lts__t_requests_srcunit_tex_op_write.sum
n=$(grep -c '^EPI ' "$out/rates.txt")
: > "$out/ncu.csv"
for i in $(seq 0 $((n - 1))); do
    timeout 120 ncu --clock-control none --csv --page raw --print-units base --metrics "$m" /tmp/epi_store --once "$i" \
        > "/tmp/ncu_epi_$i.csv" 2>&1 || failed=$((failed + 1))
    if [ "$i" -eq 0 ]; then grep -E '^"(ID|)"' "/tmp/ncu_epi_$i.csv" | head -n 2 >> "$out/ncu.csv"; fi
    grep -E '^"[0-9]' "/tmp/ncu_epi_$i.csv" >> "$out/ncu.csv"
    grep -E '==ERROR==' "/tmp/ncu_epi_$i.csv" | head -n 3
done
cuobjdump -sass /tmp/epi_store > "$out/sass.txt" 2>&1 || true
echo "failed steps: $failed"
exit "$failed"
