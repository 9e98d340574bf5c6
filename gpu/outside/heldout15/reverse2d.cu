// Held-out round 15 (issue 29): HeCBench reverse2D (NVIDIA's, from RAFT, Apache-2.0): reverseKernel<T,VECLEN> (a matrix reversed along rows or columns, row or column major, 16-byte vector loads and stores)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/reverse2D-cuda/main.cu"
