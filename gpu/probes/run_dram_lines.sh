#!/usr/bin/env bash
# Whole lines whose neighbours in memory come much later (dram_lines.cu): copy, read and write
# rates by how far apart consecutive lines are, and ncu's DRAM bytes for a few single launches.
# usage: bash gpu/probes/run_dram_lines.sh OUTDIR     (from the repository root)
# OUTDIR gets rates.txt, ncu.txt and log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_dram_lines.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/dram_lines gpu/probes/dram_lines.cu || exit 1
timeout 240 /tmp/dram_lines > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
for c in "copy 1 1" "copy 1 512" "copy 512 512" "write 1 512" "read 512 1"; do
    # shellcheck disable=SC2086  # the three words are the arguments
    set -- $c
    echo "# ncu: $1 rc $2 wc $3"
    timeout 120 ncu --clock-control none --metrics "$m" /tmp/dram_lines once "$1" "$2" "$3" 2>&1 |
        grep -E "dram__|lts__|gpu__time|ERROR" | sed 's/^ */  /'
done | tee "$out/ncu.txt"
echo "failed steps: $failed"
exit "$failed"
