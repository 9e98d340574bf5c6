#!/bin/sh
# On the GPU: the shuffle-from-an-inactive-lane probe (shfl_inactive.cu),
# compiled for sm_90 and as compute_75 PTX only (JIT), and NVIDIA's reduction
# sample (its code under .gl/samples, not in this repository) built as its
# Makefile does (compute_75 PTX only here: the path coalsim run takes), with
# its reduce7 at small sizes and its default run.  Output: $OUT/shfl_inactive.txt
set -u
out=${OUT:-/tmp}/shfl_inactive.txt
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -1
    nvcc -arch=sm_90 -o /tmp/si90 gpu/probes/shfl_inactive.cu && echo "== sm_90 SASS" && /tmp/si90
    nvcc -gencode arch=compute_75,code=compute_75 -o /tmp/si75 gpu/probes/shfl_inactive.cu && echo "== compute_75 PTX (JIT)" && /tmp/si75
    if [ -d .gl/samples/reduction ]; then
        nvcc -O2 -std=c++17 -I.gl/samples/Common -gencode arch=compute_75,code=compute_75 -o /tmp/red75 \
            .gl/samples/reduction/*.cu .gl/samples/reduction/*.cpp
        for args in "--kernel=7 --n=32 --threads=32" "--kernel=7 --n=65536" ""; do
            echo "== reduction (compute_75 PTX) $args"; /tmp/red75 $args 2>&1 | grep -E "GPU result|CPU result|Test"
        done
    fi
} >"$out" 2>&1
cat "$out"
