#!/usr/bin/env bash
# Round 11's FDTD3d miss (gpu/results/h100/heldout11/README.md): the model
# serves its left/right halo loads from L1, while L2's read sectors say the
# H100's L1 served next to none.  This asks the GPU: the SASS of the loads,
# the L1/shared split the launch got, and L1's hits and misses for global
# loads, for the kernel as built (default caching), with -dlcm=ca (cache in
# L1) and with -dlcm=cg (L2 only).
#   usage: bash gpu/outside/heldout11/probe_fdtd_l1.sh OUT     (a GPU machine, after prep.sh; no network)
# OUT gets fdtd_l1.txt (a short table and the LDG lines) and fdtd_l1.tgz (everything).
set -u
out=${1:?usage: bash gpu/outside/heldout11/probe_fdtd_l1.sh OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
W=$(mktemp -d /tmp/coalsim-fdtd.XXXXXX)
nvcc -std=c++17 -O2 -o "$W/launch" gpu/outside/launch.cu -ldl || exit 1
ARGS=(--kernel FiniteDifferencesKernel --grid "8,16" --block "32,16" --args "O:73599088=zero,I:73599088=random:1,256,256,256")
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,launch__shared_mem_config_size,gpu__time_duration.sum
{
    nvidia-smi --query-gpu=name --format=csv,noheader
    for v in default ca cg; do
        x=()
        [ "$v" != default ] && x=(-Xptxas "-dlcm=$v")
        if ! nvcc -arch=sm_90 -O3 -lineinfo -cubin "${x[@]}" gpu/outside/heldout11/fdtd3d.cu -o "$W/fdtd_$v.cubin" ||
            ! nvcc -arch=sm_90 -O3 -lineinfo -ptx gpu/outside/heldout11/fdtd3d.cu -o "$W/fdtd_$v.ptx"; then
            echo "== $v: build failed"
            continue
        fi
        cuobjdump -sass "$W/fdtd_$v.cubin" > "$W/fdtd_$v.sass"
        echo "== $v: LDG opcodes in the SASS"
        grep -o 'LDG[A-Z0-9._]*' "$W/fdtd_$v.sass" | sort | uniq -c
        "$W/launch" --repeat 20 "$W/fdtd_$v.cubin" "$W/fdtd_$v.ptx" "${ARGS[@]}" | grep '^time'
        ncu --clock-control none --csv --page raw --metrics "$M" "$W/launch" "$W/fdtd_$v.cubin" "$W/fdtd_$v.ptx" "${ARGS[@]}" \
            > "$W/ncu_$v.csv" 2> "$W/ncu_$v.err"
        python3 - "$W/ncu_$v.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
names, vals = rows[head], rows[head + 2]
for n, v in zip(names, vals):
    if n.startswith(("l1tex", "lts", "launch__shared", "gpu__time")):
        print("   %-70s %s" % (n, v))
PY
    done
} > "$out/fdtd_l1.txt" 2>&1
cp "$out/fdtd_l1.txt" "$W/"
tar czf "$out/fdtd_l1.tgz" -C "$W" . 2>/dev/null
cat "$out/fdtd_l1.txt"
