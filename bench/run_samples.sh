#!/bin/sh
# coalsim run on NVIDIA's CUDA samples that check their own results: each
# sample built here by nvcc as its Makefile would (no GPU needed), run under
# coalsim run, and a line of what happened: its exit status, whether its own
# check passed, the launches reported, the seconds it took, what coalsim said.
# The samples' code is not in this repository: give a checkout of
# https://github.com/NVIDIA/cuda-samples (the results in
# bench/results/run_samples.txt are from its commit c94ff366aed1, built by
# nvcc 13.0 for its default target, sm_75 code with compute_75 PTX; the PTX
# is what coalsim runs).
# The table starts with '#' lines naming the samples' commit (from git, or
# SAMPLES_COMMIT for a copy that is not a git checkout), coalsim's commit,
# the date and the machine.
# usage: bench/run_samples.sh CUDA_SAMPLES_DIR [OUT_DIR]
set -u
src=${1:?usage: bench/run_samples.sh CUDA_SAMPLES_DIR [OUT_DIR]}
out=${2:-/tmp/coalsim-samples}
coalsim=${COALSIM:-$(cd "$(dirname "$0")/.." && pwd)/build/coalsim}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
echo "# cuda-samples: $( { [ -e "$src/.git" ] && git -C "$src" rev-parse HEAD 2>/dev/null; } || echo "${SAMPLES_COMMIT:-unknown}")"
echo "# coalsim: $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- sim include || echo ' (with changes)')"
echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# machine: $(uname -sm), $(nproc) cores ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)), no GPU"
echo "# nvcc: $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), each sample at most ${SAMPLE_SECONDS:-900} s"
# samples that print what they computed but check nothing themselves
nocheck="clock simplePrintf"
# samples whose check needs no input files, no graphics and one GPU
samples="0_Introduction/vectorAdd 0_Introduction/simpleTemplates 0_Introduction/asyncAPI
0_Introduction/simpleAtomicIntrinsics 0_Introduction/simpleVoteIntrinsics 0_Introduction/clock
0_Introduction/simpleCallback 0_Introduction/simpleOccupancy 0_Introduction/simpleAssert
0_Introduction/simplePrintf 0_Introduction/simpleStreams 0_Introduction/simpleAWBarrier
0_Introduction/mergeSort 0_Introduction/matrixMul 6_Performance/transpose 6_Performance/alignedTypes
2_Concepts_and_Techniques/scan 2_Concepts_and_Techniques/sortingNetworks 2_Concepts_and_Techniques/histogram
2_Concepts_and_Techniques/convolutionSeparable 2_Concepts_and_Techniques/reduction"
printf '%-24s %4s %-9s %8s %7s  %s\n' sample exit check launches seconds "what coalsim said (first line)"
for s in $samples; do
    name=$(basename "$s")
    dir=$src/Samples/$s
    if ! "$nvcc" -O2 -std=c++17 -I"$src/Common" -o "$out/$name" "$dir"/*.cu $(ls "$dir"/*.cpp 2>/dev/null) \
        >"$out/$name.build" 2>&1; then
        printf '%-24s %4s %-9s %8s %7s  %s\n' "$name" - - - - "does not build here"
        continue
    fi
    start=$(date +%s)
    (cd "$out" && timeout "${SAMPLE_SECONDS:-900}" "$coalsim" run --log-file "$name.report" "./$name" >"$name.out" 2>"$name.err")
    rc=$?
    secs=$(( $(date +%s) - start ))
    # each sample's own verdict: its exit status, and what it printed
    if [ "$rc" = 124 ]; then check="timed out"
    elif [ "$rc" != 0 ] || grep -qiE "test failed|result = fail|[1-9][0-9]* failures|returned error" "$out/$name.out"; then
        check=FAILED
    elif grep -qiE "test passed|result = pass|0 failures|returned ok|^success|^[[:space:]]*ok$|: ok$|results match" \
         "$out/$name.out"; then check=passed
    elif echo " $nocheck " | grep -q " $name "; then check="no check"
    else check="exit 0"; fi       # a sample whose only verdict is its exit status
    launches=$(grep -c '^== launch' "$out/$name.report" 2>/dev/null)
    said=$(grep '^coalsim:' "$out/$name.err" | head -1 | cut -c1-110)
    printf '%-24s %4s %-9s %8s %7s  %s\n' "$name" "$rc" "$check" "${launches:-0}" "$secs" "${said:--}"
done
