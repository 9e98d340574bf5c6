// Held-out round 12 (issue 29): cuda-samples 6_Performance/alignedTypes: testKernel<T> (a grid-stride copy of 1- to 32-byte elements, packed and __align__ed structs)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/alignedTypes.cu"
