#!/bin/sh
# Puts the public tensor-core kernels of gpu/outside/public_tc.list under
# .gl/ (git-ignored: fetched code is never committed) and makes each file
# compile on its own.  Usage, from the repository root:
#
#   sh gpu/outside/public_tc/prep.sh CUDA_HGEMM_GIT LEETCUDA_GIT
#
# where each argument is a git directory (a clone or a mirror) holding the
# commit named below.  Changes (all made here, none committed as code):
#   cuda_hgemm (Bruce-Lee-LY, MIT): none to the kernels; src/ is copied as it
#     is and each kernel file's `#include "common.h"` points at ../common/.
#   LeetCUDA (xlite-dev, GPL-3.0): utils.h's two <torch/...> includes become
#     our torch_stub.h; each kernel file is cut before its non-template
#     torch entry point (the first line `void flash_attn_...(torch::Tensor`
#     or, for the HGEMM, the `#include <torch/extension.h>` after the
#     launcher) and ends with an explicit instantiation of the source's own
#     launch_* host template (the head dimension and stage count a launch
#     line names), so the kernel gets the source's template arguments; a
#     first line `#pragma nv_diag_suppress 177` (an unused variable warning).
set -eu
HG=$1 LC=$2
HG_COMMIT=0d26c2e4415ab0d0af5a6bfae301275c608d46b4
LC_COMMIT=cb6a0497e829741fc5e3ad5e43a5beed0d85edcd
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
D=$ROOT/.gl/public_tc
rm -rf "$D"; mkdir -p "$D/cuda_hgemm" "$D/leetcuda/utils"

# cuda_hgemm: src/{common,wmma,mma}
git --git-dir="$HG" archive "$HG_COMMIT" src/common src/wmma src/mma | tar -x -C "$D/cuda_hgemm"
for f in "$D"/cuda_hgemm/src/wmma/*.cu "$D"/cuda_hgemm/src/mma/*.cu; do
    sed -i 's|#include "common.h"|#include "../common/common.h"|' "$f"
done

# LeetCUDA: flash-attn/utils/utils.h and the kernels
git --git-dir="$LC" show "$LC_COMMIT:kernels/flash-attn/utils/utils.h" \
    | sed 's|#include <torch/extension.h>|#include "torch_stub.h"|; /#include <torch\/types.h>/d' > "$D/leetcuda/utils/utils.h"
cp "$ROOT/gpu/outside/public_tc/torch_stub.h" "$D/leetcuda/utils/"

# fa FILE LAUNCHER D STAGES: cut at the torch entry, instantiate LAUNCHER<D,STAGES>
fa() {
    out=$D/leetcuda/$(basename "$1" .cu)_d$3_s$4.cu
    printf '#pragma nv_diag_suppress 177  // coalsim: split_kv declares an unused S_tile_size (check_list.sh compiles with -Werror)\n' > "$out"
    git --git-dir="$LC" show "$LC_COMMIT:kernels/flash-attn/mma/$1" \
        | sed 's|#include "utils.h"|#include "utils/utils.h"|' \
        | awk '/^void flash_attn_.*\(torch::Tensor/{exit} {print}' >> "$out"
    printf '\n// coalsim: the instantiation the source'"'"'s host code makes for head dim %s, %s stages\ntemplate void %s<%s, %s>(torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor);\n' \
        "$3" "$4" "$2" "$3" "$4" >> "$out"
}
fa basic/flash_attn_mma_split_kv.cu                launch_flash_attn_mma_stages_split_kv 64 2
fa basic/flash_attn_mma_split_q.cu                 launch_flash_attn_mma_stages_split_q 64 2
fa basic/flash_attn_mma_share_kv.cu                launch_flash_attn_mma_stages_split_q_shared_kv 64 2
fa basic/flash_attn_mma_share_qkv.cu               launch_flash_attn_mma_stages_split_q_shared_qkv 64 2
fa basic/flash_attn_mma_tiling_qk.cu               launch_flash_attn_mma_stages_split_q_tiling_qk 64 2
fa basic/flash_attn_mma_share_qkv_F32F16F16F32.cu  launch_flash_attn_mma_stages_split_q_shared_qkv_acc_f32 64 2
fa swizzle/flash_attn_mma_share_kv_swizzle_qkv.cu  launch_flash_attn_mma_stages_split_q_shared_kv_swizzle_qkv 64 2
fa swizzle/flash_attn_mma_tiling_qkv_swizzle_qkv.cu launch_flash_attn_mma_stages_split_q_tiling_qkv_swizzle_qkv 64 2
echo "prep: $(find "$D" -name '*.cu' | wc -l) .cu files under $D"
