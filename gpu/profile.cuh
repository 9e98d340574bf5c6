// Device profile microbenchmarks for the memory-hierarchy model's time
// prediction (harness profile): DRAM, L2 and L1 read bandwidth, shared-memory
// wavefronts per second and the time of an empty launch.
#pragma once

// Read N4 float4 from P, REPS times, grid-stride; the sum goes to SINK only
// if it is impossible, so the loads stay.  MODE 0: plain loads (DRAM for a
// large buffer), 1: __ldcg (L2 only), 2: __ldca on a per-block window that
// fits in L1.
template <int MODE> __global__ void bw_read(const float4 *p, size_t n4, int reps, float *sink)
{
    float acc = 0.f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++) {
        if (MODE == 2) {
            const float4 *w = p + (size_t)(blockIdx.x % 8) * n4;   /* 8 windows of n4 float4 */
            for (size_t i = threadIdx.x; i < n4; i += blockDim.x) {
                float4 v = __ldca(&w[i]);
                acc += v.x + v.y + v.z + v.w;
            }
        } else {
            for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
                float4 v = MODE == 1 ? __ldcg(&p[i]) : p[i];
                acc += v.x + v.y + v.z + v.w;
            }
        }
    }
    if (acc == -1.2345e30f) *sink = acc;
}

// Conflict-free 4-byte shared loads: each warp request is one wavefront.
__global__ void smem_read(int reps, float *sink)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (float)i;
    __syncthreads();
    float acc = 0.f;
    unsigned k = threadIdx.x;
    for (int r = 0; r < reps; r++) {
        acc += s[k & 1023];
        k += 32;                  /* next row, same bank: still one word a bank per warp */
    }
    if (acc == -1.2345e30f) *sink = acc;
}

__global__ void empty_kernel() {}
