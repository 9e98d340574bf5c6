// Held-out round 12 (issue 29): cuda-samples 3_CUDA_Features/warpAggregatedAtomicsCG: filter_arr (a warp-aggregated atomicAdd by coalesced_threads), mapToBuckets and calculateMaxInEachBuckets (labeled_partition by bucket, an atomicAdd or a cg::reduce and atomicMax a bucket group; grid-stride)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/warpAggregatedAtomicsCG.cu"
