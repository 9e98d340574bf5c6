#!/usr/bin/env bash
# A copy's time back to back against after L2 is flushed, after another copy left its dirty lines,
# with its input warm, with its output dirty (l2_dirty.cu).
# usage: bash gpu/probes/run_l2_dirty.sh OUTDIR     (from the repository root)
# OUTDIR gets times.txt and log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_dirty.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_dirty gpu/probes/l2_dirty.cu || exit 1
timeout 240 /tmp/l2_dirty > "$out/times.txt" || failed=$((failed + 1))
cat "$out/times.txt"
echo "failed steps: $failed"
exit "$failed"
