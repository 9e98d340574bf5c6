// Held-out round 14 (issue 29): HeCBench scatterAdd: scatterAdd_kernel and scatterAdd2_kernel (32x16 threads: indexed rows added by shared float atomicAdd into a block's copy of the output, then a global atomicAdd a word)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/scatterAdd-cuda/main.cu"
