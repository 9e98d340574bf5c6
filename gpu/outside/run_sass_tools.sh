#!/usr/bin/env bash
# coalsim's SASS inputs with the CUDA toolkit at hand (one device call, no
# profiler): builds coalsim, runs a .cu with --sass, a cubin with --ptx, an
# executable through cuobjdump, and keeps full nvdisasm listings (without -c:
# the constant sections too) of a few units for sm_90 and sm_80 as test data.
# usage: bash gpu/outside/run_sass_tools.sh OUTDIR   (OUTDIR gets summary.txt, listings/)
set -u
out=${1:?usage: run_sass_tools.sh OUTDIR}
mkdir -p "$out/listings"
W=${TMPDIR:-/tmp}/coalsim_sass_tools
rm -rf "$W"
mkdir -p "$W"
START=$(date +%s)
say() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$out/summary.txt"; }
say "start: $(nvidia-smi --query-gpu=name --format=csv,noheader) $(nvcc --version | tail -1) $(cc --version | head -1)"
if ! make -s -j8 build/coalsim > "$W/make.txt" 2>&1; then
    say "coalsim build failed:"
    tail -20 "$W/make.txt" | tee -a "$out/summary.txt"
    exit 1
fi
say "coalsim built"
metrics() {  # JSON-FILE: instructions, global load sectors
    python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['metrics']; print(m['smsp__inst_executed.sum'], m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'])" "$1" 2>&1
}
S=(--kernel saxpy --grid 256 --block 256 --args 65536,2.0,X:256K=random:1,Y:256K=random:2)
build/coalsim --json gpu/outside/saxpy.cu --sass "${S[@]}" > "$W/cu_sass.json" 2> "$W/cu_sass.err"
say "saxpy.cu --sass: rc=$? $(metrics "$W/cu_sass.json") $(head -c 300 "$W/cu_sass.err")"
nvcc -arch=sm_90 -O3 -lineinfo -cubin gpu/outside/saxpy.cu -o "$W/saxpy.cubin"
build/coalsim --json "$W/saxpy.cubin" --ptx gpu/outside/saxpy.cu "${S[@]}" > "$W/cubin.json" 2> "$W/cubin.err"
say "saxpy.cubin --ptx saxpy.cu: rc=$? $(metrics "$W/cubin.json") $(head -c 300 "$W/cubin.err")"
build/coalsim --json "$W/saxpy.cubin" "${S[@]}" > "$W/cubin_alone.json" 2> "$W/cubin_alone.err"
say "saxpy.cubin alone: rc=$? $(metrics "$W/cubin_alone.json") $(head -c 300 "$W/cubin_alone.err")"
nvcc -arch=sm_90 -O3 -lineinfo -c gpu/outside/saxpy.cu -o "$W/saxpy.o"
build/coalsim --json "$W/saxpy.o" "${S[@]}" > "$W/object.json" 2> "$W/object.err"
say "saxpy.o (cuobjdump): rc=$? $(metrics "$W/object.json") $(head -c 300 "$W/object.err")"
# full listings: constant banks (sm_80 bank 2 literals; __constant__ data) and shared sizes
for spec in "babelstream sm_80" "jacobi sm_80" "convolution sm_90" "convolution sm_80" "transpose sm_90"; do
    set -- $spec
    nvcc -arch="$2" -O3 -lineinfo -cubin "gpu/outside/$1.cu" -o "$W/$1_$2.cubin" &&
        nvdisasm -g "$W/$1_$2.cubin" > "$out/listings/$1_$2.sass" 2> "$W/$1_$2.err"
    say "nvdisasm -g $1 $2: rc=$? $(wc -l < "$out/listings/$1_$2.sass") lines, sections: $(grep -c '^//-------' "$out/listings/$1_$2.sass")"
done
C=(--kernel convolutionRowsKernel --grid 2,64 --block 16,4 --args D:256K=zero,S:256K=random:1,256,256,256)
build/coalsim --json "$out/listings/convolution_sm_90.sass" "${C[@]}" > "$W/conv_alone.json" 2> "$W/conv_alone.err"
say "convolution listing alone (bank 3 from its section): rc=$? $(metrics "$W/conv_alone.json") $(head -c 300 "$W/conv_alone.err")"
B=(--kernel mul_kernel --grid 32 --block 1024 --args B:256K=zero,C:256K=random:3)
build/coalsim --json "$out/listings/babelstream_sm_80.sass" --ptx gpu/outside/babelstream.cu "${B[@]}" > "$W/bs80.json" 2> "$W/bs80.err"
say "babelstream mul sm_80 (bank 2 from its section): rc=$? $(metrics "$W/bs80.json") $(head -c 300 "$W/bs80.err")"
cp "$W"/*.err "$out/" 2> /dev/null
say "done"
