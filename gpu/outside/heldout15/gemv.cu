// Held-out round 15 (issue 29): HeCBench gemv (Siping Wang's, MIT): gemv_fp16, gemv_quantized_int8, gemv_quantized_int4 (a matrix row a block row: 16-byte loads, shuffle reductions, warps' sums through shared memory)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/gemv-cuda/gemv.cu"
