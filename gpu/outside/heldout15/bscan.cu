// Held-out round 15 (issue 29): HeCBench bscan (after Harris and Garland): binary_scan (a block-wide exclusive count of positive ints: ballot and popc a warp, a volatile shared warp scan of the warps' sums)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/bscan-cuda/main.cu"
