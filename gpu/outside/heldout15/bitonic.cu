// Held-out round 15 (issue 29): HeCBench bitonic-sort (Intel's, MIT): bitonic_sort (one compare-exchange stage of a bitonic sorting network in place, an int a thread, 256-thread blocks)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/bitonic-sort-cuda/main.cu"
