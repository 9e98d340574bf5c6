// Held-out round 15 (issue 29): HeCBench bsearch: kernel_BS<float>, kernel_BS2<float>, kernel_BS3<float>, kernel_BS4<float> (a binary search of a sorted array a thread: data-dependent gathers)
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/bsearch-cuda/main.cu"
