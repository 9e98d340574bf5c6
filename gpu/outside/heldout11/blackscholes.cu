// Held-out round 11 (issue 29): cuda-samples 5_Domain_Specific/BlackScholes: BlackScholesGPU (two options a thread, expf/logf/sqrtf, 128-thread blocks)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/BlackScholes_kernel.cuh"
