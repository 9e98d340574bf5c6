#!/usr/bin/env bash
# fence.cu on the device: what a block's __threadfence() costs, with and without an atomic on one word.
# usage: bash gpu/probes/run_fence.sh OUTDIR     (from the repository root; under a minute)
# OUTDIR gets fence.txt, fence_sass.txt and log.txt.  Nothing is changed on the GPU.
set -u
out=${1:?usage: bash gpu/probes/run_fence.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run fence
cuobjdump -sass /tmp/fence | grep -E "Function|MEMBAR|FENCE|ATOM|RED|CCTL|ERRBAR" > "$out/fence_sass.txt" || failed=$((failed + 1))
echo "failed steps: $failed"
exit "$failed"
