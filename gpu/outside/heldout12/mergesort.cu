// Held-out round 12 (issue 29): cuda-samples 0_Introduction/mergeSort: mergeSortSharedKernel (1024-key merge sorts in shared memory by binary search), generateSampleRanksKernel, mergeRanksAndIndicesKernel, mergeElementaryIntervalsKernel (the merge steps of a stride)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/mergeSort.cu"
