// The seed kernels of gpu/kernels.cuh (ours, not "outside" code), compiled for
// the same launcher as the outside suite: every kernel's CAP=false
// instantiation, which is the seed's code.  With CAP=false, cap_note() is an
// `if constexpr (CAP)` whose discarded branch emits nothing, so these kernels
// contain no capture code: the PTX never references d_cap (the __constant__
// CapState that capture.cuh declares is emitted as an unused .const
// variable), and check_list.sh checks that.
// Launches: gpu/cases.cuh's seed-sized ("small") launches are the count set,
// its GPU-filling ("big") ones the time set (see launches.list).

#include "../kernels.cuh"

template __global__ void add<false>(const float *, const float *, float *);
template __global__ void add_permuted<false>(const float *, const float *, float *);
template __global__ void add_offset<false>(const float *, const float *, float *);
template __global__ void add_stride<false>(const float *, const float *, float *);
template __global__ void add_broadcast<false>(const float *, const float *, float *);
template __global__ void strided_read_kernel<false>(const float *__restrict__, float *__restrict__, size_t, int);
template __global__ void row_sum<false>(const float *, float *, int);
template __global__ void col_sum<false>(const float *, float *, int);
template __global__ void copy<false>(const float *, float *, const int);
template __global__ void transpose1<false>(const float *, float *, const int);
template __global__ void transpose2<false>(const float *, float *, const int);
template __global__ void transpose3<false>(const float *, float *, const int);
template __global__ void setRowReadRow<false>(int *);
template __global__ void setColReadCol<false>(int *);
template __global__ void setRowReadCol<false>(int *);
template __global__ void setRowReadColDyn<false>(int *);
template __global__ void setRowReadColIpad<false>(int *);
template __global__ void setRowReadColDynIpad<false>(int *);
template __global__ void rectSetRowReadRow<false>(int *);
template __global__ void rectSetColReadCol<false>(int *);
template __global__ void rectSetRowReadCol<false>(int *);
template __global__ void rectSetRowReadColDyn<false>(int *);
template __global__ void rectSetRowReadColPad<false>(int *);
template __global__ void rectSetRowReadColDynPad<false>(int *);
template __global__ void reduceGmem<false>(int *, int *, unsigned int);
template __global__ void reduceSmem<false>(int *, int *, unsigned int);
template __global__ void reduceSmemUnroll<false>(int *, int *, unsigned int);
template __global__ void transposeSmem<false, 0>(float *, const float *, int, int);
template __global__ void transposeSmem<false, 2>(float *, const float *, int, int);
template __global__ void copy_float4<false>(const float4 *__restrict__, float4 *__restrict__, size_t);
