// Held-out round 12 (issue 29): cuda-samples 0_Introduction/simpleAtomicIntrinsics: testKernel (eleven atomics a thread on eleven words: add, sub, exch, max, min, inc, dec, CAS, and, or, xor)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/simpleAtomicIntrinsics_kernel.cuh"
