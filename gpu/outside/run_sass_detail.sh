#!/usr/bin/env bash
# The SASS front end's second device run, on a GPU with the CUDA toolkit and
# Nsight Compute (one call of the device tool):
#   1. ncu's Source page, per SASS instruction, for the count launches where
#      coalsim's SASS counts are not the H100's (SourceCounters section);
#   2. the atomic probes (gpu/probes/atomics.cu) under ncu: how a warp's global
#      atomics and reductions count sectors, and shared ones wavefronts;
#   3. sm_80 listings of every outside unit (nvdisasm -c -g), so the SASS
#      interpreter is checked on Ampere's code too (results against the GPU's);
#   4. coalsim itself, built here: FILE.cu --sass and FILE.cubin --ptx end to
#      end with the toolkit's ptxas and nvdisasm.
# usage: bash gpu/outside/run_sass_detail.sh OUTDIR   (HARD=seconds, default 420)
# OUTDIR gets summary.txt (short) and detail.tgz (everything).
set -u
out=${1:?usage: run_sass_detail.sh OUTDIR}
mkdir -p "$out"
W=${TMPDIR:-/tmp}/coalsim_sass_detail
rm -rf "$W"
mkdir -p "$W"/{build,sm80,src,probe}
START=$(date +%s)
HARD=${HARD:-420}
left() { echo $((HARD - ($(date +%s) - START))); }
say() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$out/summary.txt"; }
exec > >(tee -a "$W/log.txt") 2>&1
JOBS=$(nproc)

say "start: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nvcc --version | tail -1) $(ncu --version | tail -1)"

# ---- the launches to look at per instruction
NAMES="red5_count sgemm5_count sgemm6_count red6np2_count red7_count hist_smem_count hist_gmem_count \
spmv_scalar_count spmv_vector_count jacobi_cub_count saxpy_count"
awk -v names="$NAMES" 'BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
     /^#/ || !NF { next } want[$1]' gpu/outside/launches.list > "$W/list.txt"
timeout 120 nvcc -std=c++17 -O2 -o "$W/launch" gpu/outside/launch.cu -ldl || { say "launcher build failed"; }
"$W/launch" --units gpu/outside/launches.list > "$W/units_all.txt"
"$W/launch" --units "$W/list.txt" > "$W/units.txt"
compile() {  # DIR UNIT FILE KIND ARCH [DEFS...]
    local dir=$1 unit=$2 file=$3 kind=$4 arch=$5
    shift 5
    timeout 300 nvcc -arch="$arch" -O3 -lineinfo -"$kind" "$@" "$file" -o "$dir/$unit.$kind" || echo "COMPILE FAILED $unit $kind $arch"
}
export -f compile
while read -r unit file defs; do
    for kind in ptx cubin; do echo "$W/build $unit $file $kind sm_90${defs:+ $defs}"; done
done < "$W/units.txt" | xargs -P "$JOBS" -L 1 bash -c 'compile "$@"' _
say "compiled $(ls "$W/build" | wc -l) files for $(wc -l < "$W/list.txt") launches"

# ---- 3 (background, CPU only): sm_80 cubins and listings of every unit
(
    while read -r unit file defs; do echo "$W/sm80 $unit $file cubin sm_80${defs:+ $defs}"; done < "$W/units_all.txt" |
        xargs -P 6 -L 1 bash -c 'compile "$@"' _
    for f in "$W"/sm80/*.cubin; do nvdisasm -g "$f" > "${f%.cubin}.nvdisasm" 2>> "$W/sm80/errors.txt"; done
) > "$W/sm80_log.txt" 2>&1 &
bg=$!

# ---- 1. ncu's Source page, per SASS instruction
help=$(ncu --help 2>&1)
SRC=(--page source --csv)
grep -q -- '--print-source' <<< "$help" && SRC+=(--print-source sass)
n=$(wc -l < "$W/list.txt")
for ((k = 0; k < n; k++)); do
    [ "$(left)" -lt 150 ] && { say "out of time for the source pages at launch $k"; break; }
    name=$(awk -v k=$((k + 1)) 'NR == k {print $1}' "$W/list.txt")
    timeout -k 5 60 ncu --clock-control none --section SourceCounters --import-source no -f -o "$W/src/$name" \
        "$W/launch" --list "$W/list.txt" --build "$W/build" --skip "$k" --count 1 > "$W/src/$name.out" 2>&1
    rc=$?
    timeout 60 ncu -i "$W/src/$name.ncu-rep" "${SRC[@]}" > "$W/src/$name.csv" 2> "$W/src/$name.err"
    say "source page $name: profile rc=$rc, $(wc -l < "$W/src/$name.csv") csv lines"
done

# ---- 2. atomic probes
if timeout 120 nvcc -arch=sm_90 -O2 -std=c++17 -diag-suppress 550 -o "$W/probe/atomics" gpu/probes/atomics.cu; then
    cuobjdump -sass "$W/probe/atomics" | grep -E "Function|ATOM|RED|LDG|STG|LDS|STS" > "$W/probe/sass.txt"
    AM=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
    AM=$AM,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
    AM=$AM,smsp__inst_executed_op_global_atom.sum,smsp__inst_executed_op_global_red.sum
    AM=$AM,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_red.sum
    SM=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,smsp__inst_executed_op_shared_atom.sum
    SM=$SM,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
    for metrics in "$AM,$SM" "$AM" "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"; do
        timeout -k 5 150 ncu --clock-control none --csv --page raw --metrics "$metrics" \
            --log-file "$W/probe/ncu.csv" "$W/probe/atomics" > "$W/probe/launches.txt" 2>&1
        rc=$?
        say "atomic probes: rc=$rc, $(grep -c '^LAUNCH' "$W/probe/launches.txt") launches, metrics $metrics"
        [ $rc -eq 0 ] && break
    done
else
    say "atomic probe build failed"
fi

# ---- 4. coalsim here: --sass and a cubin, end to end
if timeout 150 make -s -j8 build/coalsim > "$W/make.txt" 2>&1; then
    S="--kernel saxpy --grid 256 --block 256 --args 65536,2.0,X:256K=random:1,Y:256K=random:2"
    build/coalsim --json gpu/outside/saxpy.cu --sass $S > "$W/coalsim_cu_sass.json" 2> "$W/coalsim_cu_sass.err"
    say "coalsim saxpy.cu --sass: rc=$? $(head -c 300 "$W/coalsim_cu_sass.err")"
    nvcc -arch=sm_90 -O3 -lineinfo -cubin gpu/outside/saxpy.cu -o "$W/saxpy.cubin"
    build/coalsim --json "$W/saxpy.cubin" --ptx gpu/outside/saxpy.cu $S > "$W/coalsim_cubin.json" 2> "$W/coalsim_cubin.err"
    say "coalsim saxpy.cubin --ptx: rc=$? $(head -c 300 "$W/coalsim_cubin.err")"
    for f in "$W"/coalsim_*.json; do
        python3 -c "import json,sys; m=json.load(open('$f'))['metrics']; print('$f', m['smsp__inst_executed.sum'], m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'])" 2>&1 | tee -a "$out/summary.txt"
    done
else
    say "coalsim build failed: $(tail -3 "$W/make.txt")"
fi

# ---- pack
for _ in $(seq 120); do kill -0 $bg 2> /dev/null || break; [ "$(left)" -lt 25 ] && break; sleep 1; done
kill -0 $bg 2> /dev/null && say "sm_80 builds still running; packing what there is"
say "sm_80 listings: $(ls "$W"/sm80/*.nvdisasm 2> /dev/null | wc -l)"
rm -f "$W/launch" "$W/probe/atomics" "$W/saxpy_exe"
tar -C "$W" -czf "$out/detail.tgz" --exclude='*.cubin' --exclude='*.ncu-rep' . 2> /dev/null
say "packed $(du -h "$out/detail.tgz" | cut -f1)"
