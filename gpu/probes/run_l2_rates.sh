#!/usr/bin/env bash
# L2's rates for data it already holds (l2_rates.cu): reads, writes and copies by footprint, and
# ncu's L2 and DRAM counters for a few single launches of 8 passes (caches not flushed: what a
# pass over a footprint brings from DRAM once it is warm).
# usage: bash gpu/probes/run_l2_rates.sh OUTDIR     (from the repository root)
# OUTDIR gets rates.txt, ncu.txt and log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_rates.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_rates gpu/probes/l2_rates.cu || exit 1
timeout 240 /tmp/l2_rates > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write_lookup_miss.sum
for c in "read 16" "read 24" "read 32" "read 40" "read 48" "own 32" "own 40" "own 48" "copy 16" "copy 20" "copy 24" "write 32" "write 48"; do
    # shellcheck disable=SC2086  # the two words are the arguments
    set -- $c
    echo "# ncu: $1 $2 MB a side, 8 passes, caches not flushed"
    timeout 120 ncu --clock-control none --cache-control none --metrics "$m" /tmp/l2_rates once "$1" "$2" 8 2>&1 |
        grep -E "dram__|lts__|gpu__time|ERROR" | sed 's/^ */  /'
done | tee "$out/ncu.txt"
echo "failed steps: $failed"
exit "$failed"
