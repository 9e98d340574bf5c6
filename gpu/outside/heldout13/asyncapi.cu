// Held-out round 13 (issue 29): cuda-samples 0_Introduction/asyncAPI: increment_kernel (an int read, incremented and written in place)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/asyncAPI.cu"
