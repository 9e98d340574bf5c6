// Held-out round 12 (issue 29): cuda-samples 5_Domain_Specific/SobolQRNG: sobolGPU_kernel (Sobol sequences, a dimension a grid row: 32 direction numbers in shared memory, a thread's first point from its Gray code, then strided steps by __ffs)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/sobol_gpu.cu"
