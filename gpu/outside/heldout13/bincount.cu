// Held-out round 13 (issue 29): HeCBench bincount (PyTorch's kernel, BSD-style): bincount<int,float,int,GLOBAL/SHARED> (a global atomicAdd a value to its bin; or shared-memory atomics, then an atomicAdd a bin a block)
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
#include "../../../.gl/heldout13/hecbench/bincount-cuda/main.cu"
