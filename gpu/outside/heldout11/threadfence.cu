// Held-out round 11 (issue 29): cuda-samples 2_Concepts_and_Techniques/threadFenceReduction: reduceMultiPass and reduceSinglePass (last block sums the partials after __threadfence and atomicInc)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/threadFenceReduction_kernel.cuh"
template __global__ void reduceMultiPass<256u, true>(const float *, float *, unsigned int);
template __global__ void reduceSinglePass<256u, true>(const float *, float *, unsigned int);
