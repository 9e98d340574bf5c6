// Held-out round 12 (issue 29): cuda-samples 2_Concepts_and_Techniques/scan: scanExclusiveShared (uint4 a thread, a shared-memory scan of 1024 elements a block), scanExclusiveShared2, uniformUpdate
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/scan.cu"
