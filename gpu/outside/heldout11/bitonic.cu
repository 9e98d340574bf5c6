// Held-out round 11 (issue 29): cuda-samples 2_Concepts_and_Techniques/sortingNetworks: bitonicSortShared, bitonicSortShared1, bitonicMergeGlobal, bitonicMergeShared
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/bitonicSort.cu"
