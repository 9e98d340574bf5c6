// Held-out round 12 (issue 29): cuda-samples 3_CUDA_Features/cudaTensorCoreGemm: simple_wmma_gemm (WMMA 16x16x16 half GEMM with float accumulators, a 16x16 tile of D a warp, fragments loaded straight from global memory)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/cudaTensorCoreGemm.cu"
