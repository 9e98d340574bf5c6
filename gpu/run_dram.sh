#!/usr/bin/env bash
# DRAM and L2 traffic of the harness's GPU-filling launches, for the memory
# hierarchy model.  usage: gpu/run_dram.sh OUTDIR
# OUTDIR gets ncu_dram.csv (one row per launch; caches flushed before each,
# ncu's default), launches.txt and log.txt.  Then, on any machine:
#   python3 gpu/join_dram.py OUTDIR > gpu/results/h100/dram.txt
set -u
out=${1:?usage: run_dram.sh OUTDIR}
mkdir -p "$out"
exec > >(tee -a "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s gpu WERROR= BUILD=/tmp/coalsim-build || exit 1
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum
t0=$(date +%s)
timeout 500 ncu --clock-control none --csv --page raw --metrics "$metrics" --log-file "$out/ncu_dram.csv" \
    /tmp/coalsim-build/harness big > "$out/launches.txt"
echo "ncu: rc=$? $(( $(date +%s) - t0 )) s"
