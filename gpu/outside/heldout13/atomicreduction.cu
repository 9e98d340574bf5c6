// Held-out round 13 (issue 29): HeCBench atomicReduction (AMD's HIP example, MIT): atomic_reduction, _v4, _v16 (grid-stride int sums of 1, 4 or 16 loads, then an atomicAdd a thread to one counter)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/hecbench/atomicReduction-cuda/reduction.cu"
