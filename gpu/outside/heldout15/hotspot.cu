// Held-out round 15 (issue 29): HeCBench hotspot (Rodinia's): calc_temp (16x16 shared-memory tiles of a thermal stencil, a pyramid of iterations a launch between barriers)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/hotspot-cuda/hotspot.cu"
