// Held-out round 11 (issue 29): cuda-samples 5_Domain_Specific/dwtHaar1D: dwtHaar1D (Haar wavelet levels in shared memory)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
// The constants are dwtHaar1D.cu's (lines 98-99; its NUM_BANKS, unused by the kernel, is left out), which includes the kernel after them.
#define INV_SQRT_2 0.70710678118654752440f;
const unsigned int LOG_NUM_BANKS = 4;
#include "../../../.gl/heldout11/dwtHaar1D_kernel.cuh"
