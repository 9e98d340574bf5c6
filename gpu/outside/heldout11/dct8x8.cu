// Held-out round 11 (issue 29): cuda-samples 2_Concepts_and_Techniques/dct8x8: CUDAkernel2DCT and CUDAkernel2IDCT (8x8 DCT on a shared 32x16 block)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/dct8x8_kernel2.cuh"
