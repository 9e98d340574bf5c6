// Held-out round 14 (issue 29): HeCBench threadfence: sum (a shared float atomicAdd a thread onto one word, a global counter, and the last block sums the partial sums by shared atomics)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/threadfence-cuda/main.cu"
