#!/usr/bin/env bash
# Held-out round 13 (issue 29): puts the public kernels that this folder's
# wrappers include under the git-ignored .gl/heldout13, from two public
# repositories (their code is not in this repository):
#   - NVIDIA/cuda-samples at commit c94ff366 (BSD-3-Clause), into .gl/heldout13;
#   - zjin-lcf/HeCBench at commit f27000a5 (BSD-3-Clause; atomicReduction's
#     code is AMD's, MIT, bincount's PyTorch's, BSD-style, and merge's Georgia
#     Tech's GPU MergePath, BSD-3-Clause, as the files and the folders' LICENSE
#     and COPYRIGHT say), into .gl/heldout13/hecbench/<benchmark>.
#   usage: bash gpu/outside/heldout13/prep.sh [CUDA_SAMPLES_GIT_DIR [HECBENCH_GIT_DIR]]
# Each folder is a git directory (a clone's .git or a bare mirror) that holds
# that commit.  What is changed, and only this:
#   - cuda-samples' files are put in one folder, HeCBench's in one folder a
#     benchmark (their relative includes still resolve);
#   - #include <helper_cuda.h> / <helper_functions.h> become a quoted include
#     of helper.h, written here: the host helpers the samples' host code calls
#     (error checks, timers, device choice, command-line flags) as no-ops or
#     stand-ins (no kernel uses them; the host code around the kernels only has
#     to compile);
#   - #include <helper_math.h> becomes a quoted include of the samples' own
#     Common/helper_math.h (the float3/float4 operators), copied unchanged.
set -eu
src=${1:-/work/.mirror/NVIDIA+cuda-samples/repo}
hec=${2:-/work/.mirror/zjin-lcf+HeCBench/repo}
[ -d "$src/.git" ] && src=$src/.git
[ -d "$hec/.git" ] && hec=$hec/.git
rev=c94ff366
hrev=f27000a5
cd "$(dirname "$0")/../../.."
dst=.gl/heldout13
mkdir -p "$dst"
for f in \
    Samples/2_Concepts_and_Techniques/boxFilter/boxFilter_kernel.cu \
    Samples/4_CUDA_Libraries/oceanFFT/oceanFFT_kernel.cu \
    Samples/0_Introduction/fp16ScalarProduct/fp16ScalarProduct.cu \
    Samples/0_Introduction/asyncAPI/asyncAPI.cu \
    Samples/0_Introduction/simpleMultiCopy/simpleMultiCopy.cu \
    Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu \
    Samples/3_CUDA_Features/jacobiCudaGraphs/jacobi.cu \
    Samples/3_CUDA_Features/jacobiCudaGraphs/jacobi.h \
    Common/helper_math.h; do
    git --git-dir="$src" show "$rev:$f" |
        sed -e 's|#include <helper_cuda.h>|#include "helper.h"|' -e 's|#include <helper_functions.h>|#include "helper.h"|' \
            -e 's|#include "helper_cuda.h"|#include "helper.h"|' -e 's|#include <helper_math.h>|#include "helper_math.h"|' \
        > "$dst/${f##*/}"
done
for f in \
    src/atomicPerf-cuda/main.cu \
    src/atomicPerf-cuda/reference.h \
    src/atomicReduction-cuda/reduction.cu \
    src/atomicReduction-cuda/kernels.h \
    src/atomicCost-cuda/main.cu \
    src/bincount-cuda/main.cu \
    src/bincount-cuda/reference.h \
    src/bincount-cuda/LICENSE \
    src/merge-cuda/main.cu \
    src/merge-cuda/kernels.h \
    src/merge-cuda/COPYRIGHT; do
    d=$dst/hecbench/$(basename "$(dirname "$f")")
    mkdir -p "$d"
    git --git-dir="$hec" show "$hrev:$f" > "$d/${f##*/}"
done
cat > "$dst/helper.h" <<'H'
/* coalsim's stand-in for cuda-samples' helper_cuda.h and helper_functions.h
 * (gpu/outside/heldout13/prep.sh): the host helpers that the samples' host
 * code calls, as no-ops or stand-ins.  No kernel uses them. */
#pragma once
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define getLastCudaError(msg) ((void)0)
#define checkCudaErrors(call) ((void)(call))
#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif
#ifndef MAX
#define MAX(a, b) (a > b ? a : b)
#endif
#ifndef MIN
#define MIN(a, b) (a < b ? a : b)
#endif
struct StopWatchInterface {
    float ms;
};
inline bool sdkCreateTimer(StopWatchInterface **t) { static StopWatchInterface w; *t = &w; return true; }
inline bool sdkDeleteTimer(StopWatchInterface **t) { *t = NULL; return true; }
inline bool sdkStartTimer(StopWatchInterface **) { return true; }
inline bool sdkStopTimer(StopWatchInterface **) { return true; }
inline bool sdkResetTimer(StopWatchInterface **) { return true; }
inline float sdkGetTimerValue(StopWatchInterface **t) { return (*t)->ms; }
inline int findCudaDevice(int, const char **) { return 0; }
inline int _ConvertSMVer2Cores(int, int) { return 128; }
inline int gpuDeviceInit(int dev) { return dev; }
inline int gpuGetMaxGflopsDeviceId() { return 0; }
inline bool checkCmdLineFlag(int, const char **, const char *) { return false; }
inline int getCmdLineArgumentInt(int, const char **, const char *) { return 0; }
inline float getCmdLineArgumentFloat(int, const char **, const char *) { return 0.f; }
inline bool getCmdLineArgumentString(int, const char **, const char *, char **) { return false; }
H
echo "prep: $(find "$dst" -type f | wc -l) files in $dst"
