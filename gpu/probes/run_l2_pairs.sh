#!/usr/bin/env bash
# Which SMs see the same L2 (l2_pairs.cu): for every SM Y, the cycles of Y's dependent loads of lines
# that SM X alone read before, X = 0 and then the SM farthest from 0.
# usage: bash gpu/probes/run_l2_pairs.sh OUTDIR     (from the repository root)
# OUTDIR gets pairs.txt and log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_pairs.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_pairs gpu/probes/l2_pairs.cu || exit 1
timeout 240 /tmp/l2_pairs > "$out/pairs.txt" || failed=$((failed + 1))
# a histogram a round: how many SMs Y took each 10 cycles a load
awk '!/^#/ {h[$1 " " int($4 / 10) * 10]++} END {for (k in h) print k, h[k]}' "$out/pairs.txt" | sort -k1,1n -k2,2n
echo "failed steps: $failed"
exit "$failed"
