// Held-out round 13 (issue 29): cuda-samples 0_Introduction/simpleMultiCopy: incKernel (an int read and written inner_reps times)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/simpleMultiCopy.cu"
