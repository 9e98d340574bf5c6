// Held-out round 11 (issue 29): cuda-samples 5_Domain_Specific/quasirandomGenerator: quasirandomGeneratorKernel (a __constant__ direction table) and inverseCNDKernel
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/quasirandomGenerator_kernel.cu"
