// Held-out round 15 (issue 29): HeCBench entropy (MIT): entropy (a 5x5 window's local entropy a pixel: a 16-bin histogram in local memory) and entropy_opt<16,16> (the histogram in shared memory, a log table)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/entropy-cuda/main.cu"
