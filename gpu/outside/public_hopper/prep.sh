#!/bin/sh
# Puts pranjalssh/fast.cu's Hopper GEMM ladder (the kernels of "Outperforming
# cuBLAS on H100: a worklog", https://cudaforfun.substack.com/p/outperforming-cublas-on-h100-a-worklog)
# under .gl/public_hopper (git-ignored: fetched code is never committed), for
# gpu/outside/public_hopper/harness.cu to #include.  Usage, from anywhere:
#
#   sh gpu/outside/public_hopper/prep.sh FASTCU_GIT [--diag]
#
# where FASTCU_GIT is a git directory (a clone or a mirror) of
# https://github.com/pranjalssh/fast.cu holding the commit named below (MIT
# licence, Copyright (c) 2024 Pranjal Shankhdhar; LICENSE is copied beside
# the code).
#
# What lands in .gl/public_hopper/fast.cu:
#   examples/matmul/matmul_1.cuh .. matmul_12.cuh   as they are (no change)
#   examples/matmul/pingpong_experimental.cuh      renamed, nothing else: it
#       reuses matmul_10.cuh's names (namespace M10, runKernel10,
#       matmulKernel10), so here they are MPP, runKernelPP, matmulKernelPP,
#       and both can be built into one program
#   LICENSE, COMMIT (the commit and where it came from)
# Not taken: matmul.cu (the source's own driver: it needs cuBLAS for its check,
# which coalsim run has not; harness.cu is our replacement, it uses the
# source's runKernelN host functions as they are), cublaslt_matmul.cu, sum.cu.
# --diag also makes .gl/public_hopper/fast.cu-diag, a DIAGNOSTIC copy (never the
# validation: see gpu/results/h100/public_hopper/README.md) with two edits that
# step around two gaps of coalsim's PTX front end, to see what lies behind them:
#   - the tensor coordinates the source passes as the immediate 0 ("n"(0), and
#     matmul_7's literal `0, 0` of its 5D box) go in a register ("r"(0), %3):
#     coalsim cannot load PTX with `{0, %r1, %r2}` in a coordinate list;
#   - the labels LAB_WAIT and DONE of the source's mbarrier wait loops (inline
#     asm in `{ }` blocks, one copy per inlined call) get `%=` (a number per
#     asm statement): coalsim resolves labels per function, not per block.
# The source builds with -DNDEBUG (its Makefile; matmul_11/12's createHilbert
# names an undeclared `loc` inside an assert), so harness.cu must too.
set -eu
G=${1:?usage: sh gpu/outside/public_hopper/prep.sh FASTCU_GIT [--diag]}
COMMIT=38eb642e0c081231d6f695978be63604bd7c689b   # main, 2025-09-18 "Merge pull request #10 from gordicaleksa/pr_kernel9"
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
D=$ROOT/.gl/public_hopper/fast.cu
rm -rf "$D"; mkdir -p "$D"
git --git-dir="$G" archive "$COMMIT" LICENSE examples/matmul | tar -x -C "$D"
rm -f "$D/examples/matmul/cublaslt_matmul.cu"
sed -i 's/\bM10\b/MPP/g; s/\brunKernel10\b/runKernelPP/g; s/\bmatmulKernel10\b/matmulKernelPP/g' \
    "$D/examples/matmul/pingpong_experimental.cuh"
printf 'pranjalssh/fast.cu %s (https://github.com/pranjalssh/fast.cu/tree/%s)\n' "$COMMIT" "$COMMIT" > "$D/COMMIT"
echo "prep: $(find "$D/examples/matmul" -name "*.cuh" | wc -l) kernel headers under $D (commit $COMMIT)"
if [ "${2:-}" = --diag ]; then
    X=$D-diag
    rm -rf "$X"; cp -r "$D" "$X"
    sed -i 's/"n"(0), "r"(global_row_idx)/"r"(0), "r"(global_row_idx)/; s/LAB_WAIT/LAB_WAIT%=/g; s/\bDONE\b/DONE%=/g' \
        "$X"/examples/matmul/*.cuh
    sed -i 's/{%3, %4, %5, 0, 0}/{%3, %4, %5, %3, %3}/' "$X/examples/matmul/matmul_7.cuh"
    echo "prep: the diagnostic copy under $X ($(grep -l '"r"(0), "r"(global_row_idx)' "$X"/examples/matmul/*.cuh | wc -l) headers with register coordinates, $(grep -l 'LAB_WAIT%=' "$X"/examples/matmul/*.cuh | wc -l) with numbered labels)"
fi
