#!/usr/bin/env bash
# The DRAM page probe (dram_pages.cu) on the device: timings, then ncu's DRAM
# bytes for a few single launches (does a sparse read fetch what the model
# says?).  usage: bash gpu/probes/run_dram_pages.sh OUTDIR
set -u
out=${1:?usage: run_dram_pages.sh OUTDIR}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -arch=sm_90 -o /tmp/dram_pages gpu/probes/dram_pages.cu || exit 1
/tmp/dram_pages > "$out/dram_pages.txt" || exit 1
cat "$out/dram_pages.txt"
metrics=dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum
for c in "64 64" "512 64" "4096 64" "512 32" "8192 512"; do
    set -- $c
    echo "# ncu: stride $1 run $2, 2097152 fetches"
    timeout 120 ncu --clock-control none --metrics "$metrics" /tmp/dram_pages once "$1" "$2" 2097152 2>&1 |
        grep -E "dram__|lts__|gpu__time" | sed 's/^ */  /'
done | tee "$out/ncu.txt"
