// Held-out round 15 (issue 29): HeCBench heat2d: dev_lapl_iter (a 5-point Laplacian step on a periodic 2-D grid, a site a thread, 256-thread blocks, neighbours by modulo)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/heat2d-cuda/main.cu"
