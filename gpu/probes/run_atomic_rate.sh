#!/usr/bin/env bash
# atomic_rate.cu on the device: ns a lane-atomic by op, lanes a request, words and their spacing,
# and the SASS of its kernels (did ptxas aggregate a warp's uniform adds?).
# usage: bash gpu/probes/run_atomic_rate.sh OUTDIR     (from the repository root; about a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_rate.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/atomic_rate gpu/probes/atomic_rate.cu || exit 1
timeout 300 /tmp/atomic_rate > "$out/atomic_rate.txt" || failed=$((failed + 1))
cat "$out/atomic_rate.txt"
cuobjdump -sass /tmp/atomic_rate > "$out/atomic_rate.sass" 2>&1 || failed=$((failed + 1))
grep -E "Function|ATOM|RED|VOTE|POPC|REDUX|MATCH" "$out/atomic_rate.sass" | head -80
echo "failed steps: $failed"
exit "$failed"
