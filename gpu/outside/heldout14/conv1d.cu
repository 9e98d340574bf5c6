// Held-out round 14 (issue 29): HeCBench convolution1D: conv1d<T>, conv1d_tiled<T>, conv1d_tiled_caching<T> (a mask of __constant__ weights; a block's tile and halo in dynamic shared memory)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/convolution1D-cuda/main.cu"
