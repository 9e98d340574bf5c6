// Held-out round 15 (issue 29): HeCBench layout (AMD's, BSD-style): AoSKernel<4096> (a 4096-int struct a thread: lanes 16 KB apart) and SoAKernel<4096> (4096 arrays of 4096 ints: coalesced)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/layout-cuda/main.cu"
