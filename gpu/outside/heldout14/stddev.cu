// Held-out round 14 (issue 29): HeCBench stddev (NVIDIA's, from cuML, Apache-2.0): sopKernel<float,int,256,32> (column sums of squares: a shared float atomicAdd a thread onto 32 words, then a global atomicAdd a column a block)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/stddev-cuda/main.cu"
