// Held-out round 11 (issue 29): cuda-samples 2_Concepts_and_Techniques/scalarProd: scalarProdGPU (vector pairs a block, a 1024-float shared accumulator tree)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/helper.h"
#include "../../../.gl/heldout11/scalarProd_kernel.cuh"
