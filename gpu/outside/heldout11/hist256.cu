// Held-out round 11 (issue 29): cuda-samples 2_Concepts_and_Techniques/histogram: histogram256Kernel (shared atomics, a sub-histogram a warp) and mergeHistogram256Kernel
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/histogram256.cu"
