#!/usr/bin/env bash
# cp.reduce.async.bulk and mbarrier.pending_count on the GPU at hand (an H100):
# the values tests/kernels/cluster.cu's bulk_reduce, bulk_reduce_dsmem and
# mbar_pending leave (the same launches tests/check_hopper.c runs on the
# interpreter), the SASS they become, and what Nsight Compute counts for them.
# usage: bash gpu/hopper/run_bulk_reduce.sh OUTDIR        (from anywhere)
# OUTDIR gets:
#   log.txt          versions, each step's rc, the buffers' first words, the checks
#   sass.txt         cuobjdump -sass of the three kernels
#   metrics.txt      ncu --query-metrics (gh100): the names matching tma|bulk
#   ncu.csv          ncu --csv --page raw: the TMA unit's store and reduction metrics, each kernel once
# Nothing is changed on the GPU (ncu --clock-control none).
set -u
out=${1:?usage: bash gpu/hopper/run_bulk_reduce.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d /tmp/bulk_reduce.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
nvcc --version | tail -1
ncu --version | tail -1
nvcc -std=c++17 -O2 -o "$W/launch" gpu/outside/launch.cu -ldl || exit 1
nvcc -arch=sm_90a -cubin -o "$W/k.cubin" tests/kernels/cluster.cu || exit 1
nvcc -arch=sm_90a -ptx -o "$W/k.ptx" tests/kernels/cluster.cu || exit 1
cuobjdump -sass "$W/k.cubin" | awk '/Function : /{keep = /bulk_reduce|mbar_pending/} keep' > "$out/sass.txt"
ncu --query-metrics --chip gh100 2>/dev/null | grep -i -E "tma|bulk" | grep -o -E "^[A-Za-z_.0-9]+" | sort -u > "$out/metrics.txt"

runs=("bulk_reduce --grid 5 --block 128 --args g:4K=iota,f:4K,m:4K,h:2K,1000"
      "bulk_reduce_dsmem --grid 4 --block 64 --args out:1K"
      "mbar_pending --grid 1 --block 32 --args out:8")
for spec in "${runs[@]}"; do
    name=${spec%% *}
    mkdir -p "$W/d_$name"
    # shellcheck disable=SC2086  # the spec's words are the launcher's arguments
    timeout 60 "$W/launch" --dump "$W/d_$name" "$W/k.cubin" "$W/k.ptx" --kernel $spec
    echo "== $name rc=$?"
done
python3 - "$W" <<'PY'
import struct, sys, os
d = sys.argv[1]
def words(k, name, fmt, n):
    b = open(os.path.join(d, "d_" + k, name + ".bin"), "rb").read()
    return list(struct.unpack("<%d%s" % (n, fmt), b[: n * struct.calcsize(fmt)]))
def half(h):
    import numpy
    return float(numpy.frombuffer(struct.pack("<H", h), dtype=numpy.float16)[0])
g, f, m = words("bulk_reduce", "g", "I", 1000), words("bulk_reduce", "f", "f", 1000), words("bulk_reduce", "m", "i", 1000)
h = words("bulk_reduce", "h", "H", 1000)
bad = [i for i in range(1000) if g[i] != i + 5 * (i + 1) + 10 or f[i] != 0.5 * (5 * i + 10) or m[i] != (i - 8 if i < 8 else 0)]
print("bulk_reduce g/f/m: %d of 1000 differ from the interpreter's test" % len(bad), bad[:5])
try:
    print("bulk_reduce h (f16 adds): first", [half(x) for x in h[:4]], "all 5.0:", all(half(x) == 5.0 for x in h))
except ImportError:
    print("bulk_reduce h raw:", [hex(x) for x in h[:4]], "all 0x4500 (5.0):", all(x == 0x4500 for x in h))
o = words("bulk_reduce_dsmem", "out", "I", 256)
print("bulk_reduce_dsmem: %d of 256 differ from 1000 + 4i" % sum(o[i] != 1000 + 4 * i for i in range(256)))
print("mbar_pending:", words("mbar_pending", "out", "I", 2), "(the interpreter: [3, 1])")
PY

# the names ncu 2025.3 lists for the TMA unit's reductions (metrics.txt), beside the stores'
M=smsp__inst_executed_op_tma_ld.sum,smsp__inst_executed_op_tma_st.sum,smsp__inst_executed_pipe_tma.sum
M+=,smsp__sass_inst_executed_op_tma_red.sum,smsp__sass_inst_executed_op_tma_st.sum
M+=,smsp__sass_inst_executed_op_dshared_tma_red.sum,smsp__sass_inst_executed_op_dshared_tma_st.sum
M+=,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum
M+=,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_red.sum
M+=,l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex.sum
M+=,dram__bytes_write.sum,dram__bytes_read.sum
for spec in "${runs[@]}"; do
    name=${spec%% *}
    # shellcheck disable=SC2086
    timeout 120 ncu --clock-control none --csv --page raw --metrics "$M" "$W/launch" "$W/k.cubin" "$W/k.ptx" \
        --kernel $spec > "$W/ncu_$name.csv" 2> "$W/ncu_$name.err"
    echo "== ncu $name rc=$? ($(wc -l < "$W/ncu_$name.csv") lines)"
    grep -v '^==' "$W/ncu_$name.csv" >> "$out/ncu.csv"
    tail -3 "$W/ncu_$name.err"
done
