// Held-out round 13 (issue 29): HeCBench atomicCost: wiAtomicOnGlobalMem<T> and woAtomicOnGlobalMem<T> (size additions a thread to its own word, with atomicAdd or without)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/hecbench/atomicCost-cuda/main.cu"
