// Held-out round 15 (issue 29): HeCBench histogram (NVIDIA's, from CUB, BSD-3-Clause): histogram_smem_atomics and histogram_gmem_atomics (256-bin histograms of 1 or 3 channels, a block's private copy by shared or global atomicAdd), histogram_smem_accum, histogram_gmem_accum
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/histogram-cuda/histogram_compare.cu"
