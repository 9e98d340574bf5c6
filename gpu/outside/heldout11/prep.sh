#!/usr/bin/env bash
# Held-out round 11 (issue 29): puts the public kernels that this folder's
# wrappers include under the git-ignored .gl/heldout11, from NVIDIA/cuda-samples
# at commit c94ff366 (BSD-3-Clause; their code is not in this repository).
#   usage: bash gpu/outside/heldout11/prep.sh [CUDA_SAMPLES_GIT_DIR]
# The folder is a git directory of github.com/NVIDIA/cuda-samples (a clone's
# .git or a bare mirror) that holds that commit.  What is changed, and only this:
#   - the files are put in one folder (their relative includes still resolve);
#   - #include <helper_cuda.h> / <helper_functions.h> become a quoted include
#     of helper.h, written here: the host helpers getLastCudaError and
#     checkCudaErrors as no-ops (no kernel uses them; the host code around the
#     kernels only has to compile).
set -eu
src=${1:-/work/.mirror/NVIDIA+cuda-samples/repo}
[ -d "$src/.git" ] && src=$src/.git
rev=c94ff366
cd "$(dirname "$0")/../../.."
dst=.gl/heldout11
mkdir -p "$dst"
for f in \
    5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh \
    2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh \
    5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh \
    5_Domain_Specific/dwtHaar1D/dwtHaar1D_kernel.cuh \
    2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh \
    5_Domain_Specific/FDTD3d/inc/FDTD3dGPUKernel.cuh \
    5_Domain_Specific/FDTD3d/inc/FDTD3dGPU.h \
    2_Concepts_and_Techniques/dct8x8/dct8x8_kernel2.cuh \
    2_Concepts_and_Techniques/dct8x8/Common.h \
    2_Concepts_and_Techniques/histogram/histogram64.cu \
    2_Concepts_and_Techniques/histogram/histogram256.cu \
    2_Concepts_and_Techniques/histogram/histogram_common.h \
    2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu \
    2_Concepts_and_Techniques/sortingNetworks/sortingNetworks_common.cuh \
    2_Concepts_and_Techniques/sortingNetworks/sortingNetworks_common.h \
    5_Domain_Specific/quasirandomGenerator/quasirandomGenerator_kernel.cu \
    5_Domain_Specific/quasirandomGenerator/quasirandomGenerator_common.h \
    0_Introduction/vectorAdd/vectorAdd.cu; do
    git --git-dir="$src" show "$rev:Samples/$f" |
        sed -e 's|#include <helper_cuda.h>|#include "helper.h"|' -e 's|#include <helper_functions.h>|#include "helper.h"|' \
        > "$dst/${f##*/}"
done
cat > "$dst/helper.h" <<'H'
/* coalsim's stand-in for cuda-samples' helper_cuda.h and helper_functions.h
 * (gpu/outside/heldout11/prep.sh): the host's error helpers, as no-ops. */
#pragma once
#include <cuda_runtime.h>
#include <stdio.h>
#define getLastCudaError(msg) ((void)0)
#define checkCudaErrors(call) ((void)(call))
H
echo "prep: $(find "$dst" -type f | wc -l) files in $dst"
