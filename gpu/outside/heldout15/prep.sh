#!/usr/bin/env bash
# Held-out round 15 (issue 29): puts the public kernels that this folder's
# wrappers include under the git-ignored .gl/heldout15, from one public
# repository (its code is not in this repository):
#   - zjin-lcf/HeCBench at commit f27000a5 (BSD-3-Clause), into
#     .gl/heldout15/hecbench/<benchmark>: heat2d, iso2dfd (Intel's, MIT, as
#     its header says), hotspot (Rodinia's), scan2 (AMD's, BSD-style, as its
#     header says), bscan (after Harris and Garland, "Optimizing parallel
#     prefix operations for the Fermi architecture"), bitonic-sort (Intel's,
#     MIT, as its header says), randomAccess (after HPCC RandomAccess),
#     reverse2D (NVIDIA's, from RAFT, Apache-2.0, as its headers say),
#     entropy (MIT, its LICENSE), gemv (Siping Wang's, MIT, its LICENSE),
#     bsearch, channelShuffle (PyTorch's, BSD-style, its LICENSE), histogram
#     (NVIDIA's, from CUB, BSD-3-Clause, as its headers say; mersenne.h is
#     Matsumoto and Nishimura's MT19937, BSD-3-Clause), layout (AMD's,
#     BSD-style, as its header says) and softmax.
#   usage: bash gpu/outside/heldout15/prep.sh [HECBENCH_GIT_DIR]
# The folder is a git directory (a clone's .git or a bare mirror) that holds
# that commit.  Nothing is changed: the files are put in one folder a
# benchmark (their relative includes still resolve), each as the commit has it.
set -eu
hec=${1:-/work/.mirror/zjin-lcf+HeCBench/repo}
[ -d "$hec/.git" ] && hec=$hec/.git
hrev=f27000a5
cd "$(dirname "$0")/../../.."
dst=.gl/heldout15
mkdir -p "$dst"
for f in \
    src/heat2d-cuda/main.cu \
    src/iso2dfd-cuda/iso2dfd.cu \
    src/iso2dfd-cuda/iso2dfd.h \
    src/hotspot-cuda/hotspot.cu \
    src/hotspot-cuda/hotspot.h \
    src/hotspot-cuda/kernel.h \
    src/hotspot-cuda/reference.h \
    src/scan2-cuda/main.cu \
    src/scan2-cuda/scan.h \
    src/bscan-cuda/main.cu \
    src/bitonic-sort-cuda/main.cu \
    src/randomAccess-cuda/main.cu \
    src/reverse2D-cuda/main.cu \
    src/reverse2D-cuda/reverse.cuh \
    src/reverse2D-cuda/vectorized.cuh \
    src/entropy-cuda/main.cu \
    src/entropy-cuda/reference.h \
    src/entropy-cuda/LICENSE \
    src/gemv-cuda/gemv.cu \
    src/gemv-cuda/kernels.h \
    src/gemv-cuda/simple_tensor.h \
    src/gemv-cuda/LICENSE \
    src/bsearch-cuda/main.cu \
    src/channelShuffle-cuda/main.cu \
    src/channelShuffle-cuda/reference.h \
    src/channelShuffle-cuda/LICENSE \
    src/histogram-cuda/histogram_compare.cu \
    src/histogram-cuda/histogram_gmem_atomics.h \
    src/histogram-cuda/histogram_smem_atomics.h \
    src/histogram-cuda/test_util.h \
    src/histogram-cuda/mersenne.h \
    src/layout-cuda/main.cu \
    src/softmax-cuda/main.cu; do
    d=$dst/hecbench/$(basename "$(dirname "$f")")
    mkdir -p "$d"
    git --git-dir="$hec" show "$hrev:$f" > "$d/${f##*/}"
done
echo "prep: $(find "$dst" -type f | wc -l) files in $dst"
