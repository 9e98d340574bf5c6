// Held-out round 15 (issue 29): HeCBench scan2 (AMD's, BSD-style): ScanLargeArrays (a block's 2 x threads floats scanned in dynamic shared memory, a barrier pair a step), prefixSum and blockAddition (a block's sum added to its elements)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/scan2-cuda/main.cu"
