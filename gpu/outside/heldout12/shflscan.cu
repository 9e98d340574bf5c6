// Held-out round 12 (issue 29): cuda-samples 2_Concepts_and_Techniques/shfl_scan: shfl_scan_test (a block scan by __shfl_up_sync), uniform_add, shfl_intimage_rows and shfl_vertical_shfl (an integral image's row and column passes)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/shfl_scan.cu"
