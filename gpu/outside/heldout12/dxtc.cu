// Held-out round 12 (issue 29): cuda-samples 5_Domain_Specific/dxtc: compress (DXT1 compression of a 4x4 pixel block a 64-thread block: colour sort, 992+160 endpoint permutations, a min-error reduction)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/dxtc.cu"
