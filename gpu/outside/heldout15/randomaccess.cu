// Held-out round 15 (issue 29): HeCBench randomAccess (after HPCC RandomAccess): update (128 threads of one block, each a stream of 64-bit atomicXor at pseudo-random table words) and initTable
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/randomAccess-cuda/main.cu"
