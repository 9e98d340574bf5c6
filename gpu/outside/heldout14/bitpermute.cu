// Held-out round 14 (issue 29): HeCBench bitpermute (Supranational, Apache-2.0): bit_rev_permutation_z (32-thread blocks: 32x32 long tiles exchanged through shared memory, rows 2^(n-5) apart) and bit_rev_permutation (a long a thread to its bit-reversed index)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/bitpermute-cuda/main.cu"
