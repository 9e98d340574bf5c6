// Held-out round 15 (issue 29): HeCBench iso2dfd (Intel's, MIT): iso_2dfd_kernel (a 2nd-order 2-D acoustic wave stencil, 16x16 threads, size_t indices)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/iso2dfd-cuda/iso2dfd.cu"
