#!/usr/bin/env bash
# Where the time goes in the launches the time model misses (and a few it
# gets right, to set beside them): Nsight Compute's warp-state (stall
# reasons), scheduler, occupancy and memory sections on the time launches
# named in NAMES, on a machine with a GPU, nvcc and ncu.  No clock or GPU
# setting is changed (ncu --clock-control none).
#   usage: bash gpu/outside/run_stalls.sh OUT      (from anywhere; no network)
# OUT gets: stalls.csv (ncu's raw page, one row a launch), list.txt (the
# launch lines profiled), log.txt.  Back here:
#   python3 gpu/outside/stalls.py OUT/stalls.csv > gpu/results/DEV/outside/stalls.txt
# Expected: about 3 minutes on an H100 (compiles the units the launches need,
# then one ncu pass set per launch).
set -u
out=${1:?usage: bash gpu/outside/run_stalls.sh OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
HARD=${HARD:-500}
NAMES=${NAMES:-"sgemm4_time sgemm6_time tr_copy_time tr_naive_time tr_coalesced_time tr_noBankConflicts_time
 red1_time red3_time prescan_time prescan_cf16_time scan_naive_time s3d_hybrid_time s3d_naive_time
 spmv_scalar_time spmv_vector_time nbody_time mm16_time seed_col_sum_time seed_row_sum_time
 seed_transpose1_time seed_transpose2_time seed_transposeSmem_time seed_reduceGmem_time
 seed_strided_read_s64_time seed_strided_read_s128_time conv_cols_time"}
W=$(mktemp -d /tmp/coalsim-stalls.XXXXXX)
mkdir -p "$W/build"
exec > >(tee -a "$out/log.txt") 2>&1
T0=$(date +%s)
say() { echo "== $(($(date +%s) - T0)) s: $*"; }
left() { echo $((HARD - $(date +%s) + T0)); }
for n in $NAMES; do awk -v n="$n" '$1 == n' gpu/outside/launches.list; done > "$out/list.txt"
say "$(wc -l < "$out/list.txt") launches"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
timeout 120 nvcc -std=c++17 -O2 -o "$W/launch" gpu/outside/launch.cu -ldl || { say "launcher build failed"; exit 1; }
"$W/launch" --units "$out/list.txt" > "$W/units.txt" || exit 1
while read -r unit file defs; do
    for kind in ptx cubin; do echo "$W/build $unit $file $kind sm_90${defs:+ $defs}"; done
done < "$W/units.txt" > "$W/jobs.txt"
compile() {
    local dir=$1 unit=$2 file=$3 kind=$4 arch=$5
    shift 5
    timeout 300 nvcc -arch="$arch" -O3 -lineinfo -"$kind" "$@" "$file" -o "$dir/$unit.$kind" || echo "COMPILE FAILED $unit $kind"
}
export -f compile
xargs -P "$(nproc)" -L 1 bash -c 'compile "$@"' _ < "$W/jobs.txt"
say "compiled"
M=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__m_xbar2l1tex_read_sectors.sum
M=$M,l1tex__m_l1tex2xbar_write_sectors.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
M=$M,l1tex__t_requests.sum,l1tex__t_sectors.sum,l1tex__lsu_writeback_active.sum,l1tex__cycles_active.avg
M=$M,sm__cycles_active.avg,sm__cycles_elapsed.avg,smsp__cycles_active.avg,smsp__issue_active.avg.per_cycle_active
M=$M,smsp__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,smsp__warps_eligible.avg.per_cycle_active
M=$M,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,lts__cycles_active.avg
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
timeout -k 10 "$(left)" ncu --clock-control none --csv --page raw --print-units base \
    --section WarpStateStats --section SchedulerStats --section Occupancy --metrics "$M" \
    --log-file "$W/stalls.csv" "$W/launch" --keep-going --list "$out/list.txt" --build "$W/build" --set time \
    > "$W/ncu.out" 2>&1
say "ncu rc=$? $(grep -c '^"[0-9]' "$W/stalls.csv") rows"
awk '/^LAUNCH /{print}' "$W/ncu.out" > "$out/launches.txt"
grep -v '^==' "$W/stalls.csv" > "$out/stalls.csv"
tail -n 20 "$W/ncu.out"
