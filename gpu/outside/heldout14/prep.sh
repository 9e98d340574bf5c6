#!/usr/bin/env bash
# Held-out round 14 (issue 29): puts the public kernels that this folder's
# wrappers include under the git-ignored .gl/heldout14, from one public
# repository (its code is not in this repository):
#   - zjin-lcf/HeCBench at commit f27000a5 (BSD-3-Clause), into
#     .gl/heldout14/hecbench/<benchmark>: expdist (Apache-2.0, its LICENSE),
#     stddev (NVIDIA's, from cuML, Apache-2.0, as its header says), threadfence,
#     scatterAdd, convolution1D, knn (Vincent Garcia's kNN-CUDA as modified by
#     Christopher Choy, as its header says), bitpermute (Supranational's,
#     Apache-2.0, its LICENSE), lombscargle (NVIDIA's, from cuSignal,
#     Apache-2.0, as its header says), michalewicz and interleave (after
#     Shane Cook's "CUDA Programming").
#   usage: bash gpu/outside/heldout14/prep.sh [HECBENCH_GIT_DIR]
# The folder is a git directory (a clone's .git or a bare mirror) that holds
# that commit.  Nothing is changed: the files are put in one folder a
# benchmark (their relative includes still resolve), each as the commit has it.
set -eu
hec=${1:-/work/.mirror/zjin-lcf+HeCBench/repo}
[ -d "$hec/.git" ] && hec=$hec/.git
hrev=f27000a5
cd "$(dirname "$0")/../../.."
dst=.gl/heldout14
mkdir -p "$dst"
for f in \
    src/expdist-cuda/main.cu \
    src/expdist-cuda/kernel.h \
    src/expdist-cuda/LICENSE \
    src/stddev-cuda/main.cu \
    src/stddev-cuda/reference.h \
    src/threadfence-cuda/main.cu \
    src/scatterAdd-cuda/main.cu \
    src/scatterAdd-cuda/kernels.h \
    src/convolution1D-cuda/main.cu \
    src/knn-cuda/main.cu \
    src/bitpermute-cuda/main.cu \
    src/bitpermute-cuda/kernels.h \
    src/bitpermute-cuda/reference.h \
    src/bitpermute-cuda/LICENSE \
    src/lombscargle-cuda/main.cu \
    src/michalewicz-cuda/main.cu \
    src/interleave-cuda/main.cu \
    src/interleave-cuda/util.h; do
    d=$dst/hecbench/$(basename "$(dirname "$f")")
    mkdir -p "$d"
    git --git-dir="$hec" show "$hrev:$f" > "$d/${f##*/}"
done
echo "prep: $(find "$dst" -type f | wc -l) files in $dst"
