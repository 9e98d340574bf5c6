// Held-out round 14 (issue 29): HeCBench expdist (Apache-2.0): distance<T> (a Bhattacharya cost's cross term over 2-D point pairs, 32x8 threads, 4x4 pairs a thread, exp a pair, a shared T atomicAdd a thread) and reduce_cross_term<T> (one block: a shared T atomicAdd a thread)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/expdist-cuda/main.cu"
