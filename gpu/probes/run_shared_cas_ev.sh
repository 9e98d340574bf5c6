#!/usr/bin/env bash
# shared_cas_ev.cu on the device: events, then ncu's passes and time a variant.
# usage: bash gpu/probes/run_shared_cas_ev.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_shared_cas_ev.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run shared_cas_ev
m=smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,gpu__time_duration.sum
timeout 300 ncu --csv --metrics "$m" /tmp/shared_cas_ev once > "$out/shared_cas_ev_ncu.csv" 2> "$out/shared_cas_ev_ncu.err" || failed=$((failed + 1))
grep -E '"(smsp__inst_executed_op_shared_atom|gpu__time_duration).sum"' "$out/shared_cas_ev_ncu.csv" | awk -F'","' '{print $1, $5, $13, $15}'
echo "failed steps: $failed"
exit "$failed"
