#!/usr/bin/env bash
# shared_cas.cu on the device: the time of every case (events), ncu's counts of one launch a case
# (shared atomic and load instructions, all instructions, shared wavefronts, the kernel's time),
# and the SASS of the float, double and int kernels.
# usage: bash gpu/probes/run_shared_cas.sh OUTDIR     (from the repository root; about 4 minutes)
set -u
out=${1:?usage: bash gpu/probes/run_shared_cas.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run shared_cas
cuobjdump -sass /tmp/shared_cas > "$out/shared_cas.sass" 2>&1 || failed=$((failed + 1))
grep -E "Function|ATOMS|LDS|BRA|DADD|FADD|ISETP" "$out/shared_cas.sass" | sed 's/^ *//; s/ *;.*$//; s/\/\*[0-9a-f]*\*\/ *//' | head -80
m=smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
m=$m,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
timeout 420 ncu --csv --metrics "$m" /tmp/shared_cas once > "$out/shared_cas_ncu.csv" 2> "$out/shared_cas_ncu.err" || failed=$((failed + 1))
grep -c '"cas' "$out/shared_cas_ncu.csv"
# which targets ptxas makes the loop for: the shared adds' SASS for each sm
for sm in 60 70 75 80 86 89 90; do
    nvcc -O3 -arch=sm_$sm -cubin -o /tmp/shared_cas_$sm.cubin gpu/probes/shared_cas.cu 2>/dev/null &&
        cuobjdump -sass /tmp/shared_cas_$sm.cubin | grep -oE "ATOMS[.A-Z0-9]*" | sort | uniq -c | sed "s/^/sm_$sm /"
done | tee "$out/shared_cas_targets.txt"
tail -3 "$out/shared_cas_ncu.err"
echo "failed steps: $failed"
exit "$failed"
