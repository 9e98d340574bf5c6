// Held-out round 11 (issue 29): cuda-samples 5_Domain_Specific/fastWalshTransform: fwtBatch1Kernel (shared butterflies), fwtBatch2Kernel (radix-4 global strides), modulateKernel (grid-stride)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/helper.h"
#include "../../../.gl/heldout11/fastWalshTransform_kernel.cuh"
