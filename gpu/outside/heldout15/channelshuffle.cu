// Held-out round 15 (issue 29): HeCBench channelShuffle (PyTorch's, BSD-style): ChannelShuffleNCHWKernel<float,false> (a channel permutation, a row a block, __ldg) and ChannelShuffleNHWCKernel<float,N> (a pixel's channels permuted through shared memory)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/channelShuffle-cuda/main.cu"
