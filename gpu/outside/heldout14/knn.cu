// Held-out round 14 (issue 29): HeCBench knn (kNN-CUDA, V. Garcia, modified by C. Choy): cuComputeDistanceGlobal (16x16 shared tiles of two point sets, squared distances) and cuInsertionSort (a column of the distance matrix a thread: a k-best insertion sort, rows width apart)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/knn-cuda/main.cu"
