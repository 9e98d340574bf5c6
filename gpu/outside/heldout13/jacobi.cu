// Held-out round 13 (issue 29): cuda-samples 3_CUDA_Features/jacobiCudaGraphs: JacobiMethod (8 rows of a 512x512 system a block: shared and global double atomicAdd)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/jacobi.cu"
