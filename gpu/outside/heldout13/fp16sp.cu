// Held-out round 13 (issue 29): cuda-samples 0_Introduction/fp16ScalarProduct: scalarProductKernel_native and scalarProductKernel_intrinsics (half2 FMAs, grid-stride from threadIdx.x + blockDim.x + blockIdx.x, a shared-memory tree)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/fp16ScalarProduct.cu"
