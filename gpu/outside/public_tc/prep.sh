#!/bin/sh
# Puts the public tensor-core kernels of gpu/outside/public_tc.list and the
# held-out lists (heldout4.list, heldout5.list) under .gl/ (git-ignored:
# fetched code is never committed) and makes each file compile on its own.
# Usage, from the repository root:
#
#   sh gpu/outside/public_tc/prep.sh CUDA_HGEMM_GIT LEETCUDA_GIT
#
# where each argument is a git directory (a clone or a mirror) holding the
# commit named below.  Changes (all made here, none committed as code):
#   cuda_hgemm (Bruce-Lee-LY, MIT): none to the kernels; src/ is copied as it
#     is and each kernel file's `#include "common.h"` points at ../common/.
#   LeetCUDA (xlite-dev, GPL-3.0), FlashAttention-2 (kernels/flash-attn/mma,
#     leetcuda/*_d64_s2.cu): flash-attn/utils/utils.h's two <torch/...>
#     includes become our torch_stub.h; each kernel file is cut before its
#     non-template torch entry point (the first line
#     `void flash_attn_...(torch::Tensor`) and ends with an explicit
#     instantiation of the source's own launch_* host template (the head
#     dimension and stage count a launch line names), so the kernel gets the
#     source's template arguments; a first line
#     `#pragma nv_diag_suppress 177` (an unused variable warning).
#   LeetCUDA HGEMM (kernels/hgemm/{naive,wmma,mma/basic,mma/swizzle}/*.cu but
#     the cuBLAS and CuTe ones, leetcuda/hgemm/NAME.cu), line numbers kept:
#     where the top has `#include <torch/extension.h>` and
#     `#include <torch/types.h>` (naive, wmma, mma/basic/hgemm_mma.cu) they
#     become `#include <stdint.h>` (uint32_t came from torch) and
#     `#pragma nv_diag_suppress 177` (unused variables); each file is cut at
#     its first host-only line, `#define STRINGFY` (the torch entry points)
#     or `#ifndef NO_MMA_HGEMM_BIN` (the stage files: a cpp binary's
#     launcher and main(), whose utils.h is therefore not taken, then the
#     torch entry points), and ends with one explicit instantiation a kernel
#     template: the template arguments the file's torch entry point passes
#     it (hgemm.py's bindings), with 2 stages where the entry takes them at
#     run time (its switch's default case) and no block swizzle (hgemm.py's
#     default; the kernels' smem swizzles are not arguments).  The kernel
#     code itself is unchanged.  (hgemm_naive_f16_kernel is no template.)
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

# LeetCUDA HGEMM.  lh FILE KERNEL<ARGS>...: FILE under kernels/hgemm, cut
# at its host code; each KERNEL<ARGS> instantiated, `c:` before it for the
# kernels whose A and B are `const half *__restrict__`
mkdir -p "$D/leetcuda/hgemm"
lh() {
    out=$D/leetcuda/hgemm/$(basename "$1")
    git --git-dir="$LC" show "$LC_COMMIT:kernels/hgemm/$1" \
        | sed 's|^#include <torch/extension.h>$|#include <stdint.h>  // coalsim: was <torch/extension.h>|
               s|^#include <torch/types.h>$|#pragma nv_diag_suppress 177  // coalsim: was <torch/types.h>; 177: unused variable|' \
        | awk '/^#define STRINGFY|^#ifndef NO_MMA_HGEMM_BIN/{exit} {print}' > "$out"
    shift
    printf '\n// coalsim: the instantiations the source'"'"'s torch entry points make (2 stages, no block swizzle)\n' >> "$out"
    for k in "$@"; do
        case $k in
        c:*) printf 'template __global__ void %s(const half *, const half *, half *, int, int, int);\n' "${k#c:}" ;;
        *)   printf 'template __global__ void %s(half *, half *, half *, int, int, int);\n' "$k" ;;
        esac >> "$out"
    done
}
lh naive/hgemm.cu \
    'hgemm_sliced_k_f16_kernel<32, 32, 32>' \
    'hgemm_t_8x8_sliced_k_f16x4_kernel<128, 128, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k_f16x4_pack_kernel<128, 128, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k_f16x4_bcf_kernel<128, 128, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k_f16x4_pack_bcf_kernel<128, 128, 8, 8, 8, 4>' \
    'hgemm_t_8x8_sliced_k_f16x8_pack_bcf_kernel<128, 128, 8, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k_f16x8_pack_bcf_dbuf_kernel<128, 128, 8, 8, 8, 8>'
lh naive/hgemm_async.cu \
    'hgemm_t_8x8_sliced_k16_f16x8_pack_dbuf_kernel<128, 128, 16, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k16_f16x8_pack_dbuf_async_kernel<128, 128, 16, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k32_f16x8_pack_dbuf_kernel<128, 128, 32, 8, 8, 8>' \
    'hgemm_t_8x8_sliced_k32_f16x8_pack_dbuf_async_kernel<128, 128, 32, 8, 8, 8>' \
    'hgemm_t_16x8_sliced_k32_f16x8_pack_dbuf_kernel<128, 128, 32, 16, 8, 8>' \
    'hgemm_t_16x8_sliced_k32_f16x8_pack_dbuf_async_kernel<128, 128, 32, 16, 8, 8>'
lh wmma/hgemm_wmma.cu \
    'hgemm_wmma_m16n16k16_naive_kernel<16, 16, 16>' \
    'hgemm_wmma_m16n16k16_mma4x2_kernel<16, 16, 16, 4, 2>' \
    'hgemm_wmma_m16n16k16_mma4x2_warp2x4_kernel<16, 16, 16, 4, 2, 2, 4>' \
    'hgemm_wmma_m16n16k16_mma4x2_warp2x4_dbuf_async_kernel<16, 16, 16, 4, 2, 2, 4, 8>' \
    'hgemm_wmma_m32n8k16_mma2x4_warp2x4_dbuf_async_kernel<32, 8, 16, 2, 4, 2, 4, 8>'
lh wmma/hgemm_wmma_stage.cu \
    'hgemm_wmma_m16n16k16_mma4x2_warp2x4_stages_kernel<16, 16, 16, 4, 2, 2, 4, 0, 16, 2, false>' \
    'hgemm_wmma_m16n16k16_mma4x2_warp2x4_stages_dsmem_kernel<16, 16, 16, 4, 2, 2, 4, 0, 16, 2, false>' \
    'hgemm_wmma_m16n16k16_mma4x4_warp4x4_stages_dsmem_kernel<16, 16, 16, 4, 4, 4, 4, 0, 16, 2, false>' \
    'hgemm_wmma_m16n16k16_mma4x2_warp4x4_stages_dsmem_kernel<16, 16, 16, 4, 2, 4, 4, 1, 0, 16, 2, false>'
lh mma/basic/hgemm_mma.cu \
    'hgemm_mma_m16n8k16_naive_kernel<16, 8, 16>' \
    'hgemm_mma_m16n8k16_mma2x4_warp4x4_kernel<16, 8, 16, 2, 4, 4, 4, 8, 8>'
lh mma/basic/hgemm_mma_stage.cu \
    'hgemm_mma_m16n8k16_mma2x4_warp4x4_stages_kernel<16, 8, 16, 2, 4, 4, 4, 8, 8, 2, false>' \
    'hgemm_mma_m16n8k16_mma2x4_warp4x4_stages_dsmem_kernel<16, 8, 16, 2, 4, 4, 4, 8, 8, 2, false>' \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_kernel<16, 8, 16, 2, 4, 4, 4, 2, 8, 8, 2, false>' \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_x4_kernel<16, 8, 16, 2, 4, 4, 4, 2, 8, 8, 2, false>' \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_rr_kernel<16, 8, 16, 2, 4, 4, 4, 2, 8, 8, 2, false>'
lh mma/basic/hgemm_mma_stage_tn.cu \
    'hgemm_mma_m16n8k16_mma2x4_warp4x4_stages_dsmem_tn_kernel<16, 8, 16, 2, 4, 4, 4, 0, 8, 2, false>'
lh mma/swizzle/hgemm_mma_stage_swizzle.cu \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_swizzle_kernel<16, 8, 16, 2, 4, 4, 4, 2, 0, 8, 2, false>'
lh mma/swizzle/hgemm_mma_stage_tn_swizzle.cu \
    'hgemm_mma_m16n8k16_mma2x4_warp4x4_stages_dsmem_tn_swizzle_kernel<16, 8, 16, 2, 4, 4, 4, 0, 0, 2, false>'
lh mma/swizzle/hgemm_mma_stage_tn_swizzle_x2.cu \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_tn_swizzle_x2_kernel<16, 8, 16, 2, 4, 4, 4, 2, 0, 8, 2, false>'
lh mma/swizzle/hgemm_mma_stage_tn_swizzle_x4.cu \
    'c:hgemm_mma_m16n8k16_mma2x4_warp4x4x2_stages_dsmem_tn_swizzle_x4_kernel<16, 8, 16, 2, 4, 4, 4, 2, 0, 8, 2, false, true>'
echo "prep: $(find "$D" -name '*.cu' | wc -l) .cu files under $D"
