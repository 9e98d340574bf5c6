// Held-out round 13 (issue 29): cuda-samples 4_CUDA_Libraries/oceanFFT: generateSpectrumKernel (the Phillips spectrum at time t, a mirrored read), updateHeightmapKernel and calculateSlopeKernel (8x8 blocks)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/oceanFFT_kernel.cu"
