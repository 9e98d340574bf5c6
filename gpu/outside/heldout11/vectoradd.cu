// Held-out round 11 (issue 29): cuda-samples 0_Introduction/vectorAdd: vectorAdd
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/vectorAdd.cu"
