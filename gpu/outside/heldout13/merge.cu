// Held-out round 13 (issue 29): HeCBench merge (Georgia Tech's GPU MergePath, BSD-3-Clause): workloadDiagonals<T> (a diagonal a 32-thread block: a 32-wide binary search of two sorted arrays, through shared memory)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/hecbench/merge-cuda/main.cu"
