#!/usr/bin/env bash
# The GPU's SASS listing of gpu/outside/public_hopper/harness.cu (fast.cu's kernels), for
# `coalsim run --sass-listing`: built as run_device.sh builds it (sm_90a PTX and SASS, the source's
# flags), then cuobjdump -sass.  Needs the toolkit, not a GPU.  The listing is fast.cu's code
# compiled, so it stays out of git as the code does: OUT/harness.sass.gz, to be unpacked under .gl/.
#   usage: bash gpu/outside/public_hopper/make_listing.sh OUT      (from the repository root, .gl/public_hopper there)
set -eu
out=${1:?usage: bash gpu/outside/public_hopper/make_listing.sh OUT}
mkdir -p "$out"
W=$(mktemp -d /tmp/coalsim-listing.XXXXXX)
nvcc --version | tail -n 2
timeout 300 nvcc -gencode "arch=compute_90a,code=[compute_90a,sm_90a]" -O3 -lineinfo -std=c++17 -DNDEBUG \
    --expt-relaxed-constexpr -w -I.gl/public_hopper/fast.cu -o "$W/harness" gpu/outside/public_hopper/harness.cu -lcuda
cuobjdump -sass "$W/harness" > "$W/harness.sass"
grep -c "Function :" "$W/harness.sass"
wc -c "$W/harness.sass"
gzip -9 < "$W/harness.sass" > "$out/harness.sass.gz"
ls -la "$out"
