#!/usr/bin/env bash
# l1_store.cu on the device: times, ncu's L1 hits and L2 reads per kernel, and the SASS load forms.
# usage: bash gpu/probes/run_l1_store.sh OUTDIR     (from the repository root; about a minute)
# OUTDIR gets l1_store.txt, l1_store_ncu.csv, l1_store_sass.txt and log.txt.  Nothing is changed
# on the GPU.
set -u
out=${1:?usage: bash gpu/probes/run_l1_store.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run l1_store
cuobjdump -sass /tmp/l1_store | grep -E "Function|LDG|STG|LD\.|ST\." > "$out/l1_store_sass.txt" || failed=$((failed + 1))
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum
timeout 300 ncu --csv --metrics "$m" /tmp/l1_store once > "$out/l1_store_ncu.csv" 2> "$out/l1_store_ncu.err" || failed=$((failed + 1))
python3 gpu/probes/l1_store_table.py "$out/l1_store_ncu.csv" || failed=$((failed + 1))
echo "failed steps: $failed"
exit "$failed"
