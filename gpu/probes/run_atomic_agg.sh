#!/usr/bin/env bash
# atomic_agg.cu on the device: the SASS atomics of each agg_* kernel (which warp-uniform atomics
# ptxas sends as one lane's request) and the time of the mix_* kernels (simpleAtomicIntrinsics'
# sequence and its parts).
# usage: bash gpu/probes/run_atomic_agg.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_agg.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run atomic_agg
cuobjdump -sass /tmp/atomic_agg > "$out/atomic_agg.sass" 2>&1 || failed=$((failed + 1))
grep -E "Function|ATOM|RED|VOTE|POPC|REDUX|MATCH" "$out/atomic_agg.sass" | sed 's/^ *//; s/ *;.*$//; s/\/\*[0-9a-f]*\*\/ *//' | head -150
echo "failed steps: $failed"
exit "$failed"
