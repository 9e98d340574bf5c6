#!/usr/bin/env bash
# The two sides l2_pairs.cu finds, each alone reading a footprint in turn (l2_sides.cu's sets A and
# B), against all SMs: ncu's DRAM bytes over 8 passes at 24, 36, 44 and 48 MiB.
# usage: bash gpu/probes/run_l2_sides_ab.sh OUTDIR     (from the repository root)
# OUTDIR gets pairs.txt, ncu.txt and log.txt.  Nothing is changed on the GPU.  Expected: about a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_sides_ab.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_pairs gpu/probes/l2_pairs.cu || exit 1
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_sides gpu/probes/l2_sides.cu || exit 1
timeout 240 /tmp/l2_pairs > "$out/pairs.txt" || failed=$((failed + 1))
export PAIRS="$out/pairs.txt"
m=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum
for set in A B all; do
    for mb in 24 36 44 48; do
        echo "# ncu: set $set, $mb MiB, 8 passes, caches not flushed"
        timeout 120 ncu --clock-control none --cache-control none --metrics "$m" /tmp/l2_sides once "$set" "$mb" 8 2>&1 |
            grep -E "dram__|lts__|gpu__time|ERROR" | sed 's/^ */  /'
    done
done | tee "$out/ncu.txt"
echo "failed steps: $failed"
exit "$failed"
