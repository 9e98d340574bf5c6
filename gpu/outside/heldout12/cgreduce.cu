// Held-out round 12 (issue 29): cuda-samples 2_Concepts_and_Techniques/reduction: cg_reduce<int> (kernel 8: a grid-stride sum, a shared-memory tree down to a warp, cg::reduce over a 32-thread tile) and multi_warp_cg_reduce<int,256,128> (kernel 9: cg::reduce over 128-thread tiles)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/reduction_kernel.cu"
