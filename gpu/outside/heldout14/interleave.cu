// Held-out round 14 (issue 29): HeCBench interleave: add_kernel_interleaved and add_kernel_non_interleaved (4096 accumulations of 16 uint fields a thread, arrays of structs 64 bytes apart or a struct of arrays)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/interleave-cuda/main.cu"
