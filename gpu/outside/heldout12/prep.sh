#!/usr/bin/env bash
# Held-out round 12 (issue 29): puts the public kernels that this folder's
# wrappers include under the git-ignored .gl/heldout12, from NVIDIA/cuda-samples
# at commit c94ff366 (BSD-3-Clause; their code is not in this repository).
#   usage: bash gpu/outside/heldout12/prep.sh [CUDA_SAMPLES_GIT_DIR]
# The folder is a git directory of github.com/NVIDIA/cuda-samples (a clone's
# .git or a bare mirror) that holds that commit.  What is changed, and only this:
#   - the files are put in one folder (their relative includes still resolve);
#   - #include <helper_cuda.h> / <helper_functions.h> become a quoted include
#     of helper.h, written here: the host helpers the samples' host code calls
#     (error checks, timers, device choice, image loading) as no-ops or
#     stand-ins (no kernel uses them; the host code around the kernels only has
#     to compile);
#   - #include <helper_math.h> becomes a quoted include of the samples' own
#     Common/helper_math.h (the float3/float4 operators), copied unchanged.
set -eu
src=${1:-/work/.mirror/NVIDIA+cuda-samples/repo}
[ -d "$src/.git" ] && src=$src/.git
rev=c94ff366
cd "$(dirname "$0")/../../.."
dst=.gl/heldout12
mkdir -p "$dst"
for f in \
    Samples/0_Introduction/mergeSort/mergeSort.cu \
    Samples/0_Introduction/mergeSort/mergeSort_common.h \
    Samples/6_Performance/alignedTypes/alignedTypes.cu \
    Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu \
    Samples/2_Concepts_and_Techniques/shfl_scan/shfl_integral_image.cuh \
    Samples/2_Concepts_and_Techniques/scan/scan.cu \
    Samples/2_Concepts_and_Techniques/scan/scan_common.h \
    Samples/5_Domain_Specific/recursiveGaussian/recursiveGaussian_kernel.cuh \
    Samples/5_Domain_Specific/dxtc/dxtc.cu \
    Samples/5_Domain_Specific/dxtc/CudaMath.h \
    Samples/5_Domain_Specific/dxtc/dds.h \
    Samples/5_Domain_Specific/dxtc/permutations.h \
    Samples/0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh \
    Samples/3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu \
    Samples/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu \
    Samples/5_Domain_Specific/SobolQRNG/sobol_gpu.cu \
    Samples/5_Domain_Specific/SobolQRNG/sobol_gpu.h \
    Samples/5_Domain_Specific/SobolQRNG/sobol.h \
    Samples/3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu \
    Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu \
    Common/helper_math.h; do
    git --git-dir="$src" show "$rev:$f" |
        sed -e 's|#include <helper_cuda.h>|#include "helper.h"|' -e 's|#include <helper_functions.h>|#include "helper.h"|' \
            -e 's|#include <helper_math.h>|#include "helper_math.h"|' \
        > "$dst/${f##*/}"
done
cat > "$dst/helper.h" <<'H'
/* coalsim's stand-in for cuda-samples' helper_cuda.h and helper_functions.h
 * (gpu/outside/heldout12/prep.sh): the host helpers that the samples' host
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
inline char *sdkFindFilePath(const char *, const char *) { return NULL; }
inline bool sdkLoadPPM4ub(const char *, unsigned char **, unsigned int *, unsigned int *) { return false; }
H
echo "prep: $(find "$dst" -type f | wc -l) files in $dst"
