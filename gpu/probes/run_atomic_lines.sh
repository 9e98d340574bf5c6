#!/usr/bin/env bash
# atomic_lines.cu on the device: which lines' atomics the L2 serves one after another (two hot words
# D bytes apart, N hot lines S apart) and where cudaMalloc puts small buffers.
# usage: bash gpu/probes/run_atomic_lines.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_lines.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run atomic_lines
echo "failed steps: $failed"
exit "$failed"
