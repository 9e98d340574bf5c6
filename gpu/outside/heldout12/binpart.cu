// Held-out round 12 (issue 29): cuda-samples 3_CUDA_Features/binaryPartitionCG: oddEvenCountAndSumCG (binary_partition of a warp by parity, cg::reduce, atomics; grid-stride)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/binaryPartitionCG.cu"
