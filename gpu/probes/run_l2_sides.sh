#!/usr/bin/env bash
# Which SMs share what L2 keeps (l2_sides.cu): times, then ncu's DRAM bytes for a 36 MiB footprint
# read 8 times by the SMs of each set (caches not flushed: what the passes after the first bring in).
# usage: bash gpu/probes/run_l2_sides.sh OUTDIR     (from the repository root)
# OUTDIR gets rates.txt, ncu.txt and log.txt.  Nothing is changed on the GPU.  Expected: about a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_sides.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_sides gpu/probes/l2_sides.cu || exit 1
timeout 240 /tmp/l2_sides > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
m=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_miss.sum
for set in all half 0 1 2 3 4 5 6; do
    for mb in 24 36; do
        echo "# ncu: set $set, $mb MiB, 8 passes, caches not flushed"
        timeout 120 ncu --clock-control none --cache-control none --metrics "$m" /tmp/l2_sides once "$set" "$mb" 8 2>&1 |
            grep -E "dram__|lts__|gpu__time|ERROR" | sed 's/^ */  /'
    done
done | tee "$out/ncu.txt"
echo "failed steps: $failed"
exit "$failed"
