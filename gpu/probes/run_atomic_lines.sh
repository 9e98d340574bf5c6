#!/usr/bin/env bash
# atomic_lines.cu on the device: which lines' atomics the L2 serves one after another (two hot words
# D bytes apart, N hot lines S apart) and where cudaMalloc puts small buffers.
# usage: bash gpu/probes/run_atomic_lines.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_lines.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/atomic_lines gpu/probes/atomic_lines.cu || exit 1
timeout 300 /tmp/atomic_lines > "$out/atomic_lines.txt" || failed=$((failed + 1))
cat "$out/atomic_lines.txt"
echo "failed steps: $failed"
exit "$failed"
