// Held-out round 13 (issue 29): HeCBench atomicPerf: BlockRange-, WarpRange- and SingleRangeAtomicOnGlobalMem and -SharedMem<T> (an atomicAdd a thread to 256, 32 or 1 addresses; int, float, double)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/hecbench/atomicPerf-cuda/main.cu"
