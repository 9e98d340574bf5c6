// How fast scattered lines go, and whether `harness profile`'s scatter probe
// measures it: the profile's kernel (every lane its own 128-byte line of a
// 16 MiB buffer, 20 passes) against the same kernel run long (400 passes),
// and transpose-like patterns (lanes a row of an N x N float matrix apart,
// the next warp the next 4 bytes) that fit L2 or go to DRAM.  Prints one
// line a case: lines (one a lane) a ns over the whole device.
//   build: nvcc -O3 -arch=sm_90 -o scatter gpu/probes/scatter.cu
//   run:   ./scatter
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "../profile.cuh"
#include "timing.cuh"


// Column walk of an N x N float matrix: thread (x, y) of a 32 x 8 block, 4
// rows each, touches row (bx * 32 + x), column (by * 32 + y + 8k): a warp's
// lanes are rows apart (one line each), the next warp of the block the next
// column.  STORE writes, else reads (summed to SINK if impossible).
template <bool STORE> __global__ void column(float *p, int n, float *sink)
{
    int row = blockIdx.x * 32 + threadIdx.x, col0 = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.f;
    for (int k = 0; k < 32; k += 8) {
        size_t i = (size_t)row * n + col0 + k;
        if (STORE) p[i] = (float)k;
        else acc += p[i];
    }
    if (acc == -1.2345e30f) *sink = acc;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    float *buf, *sink;
    const size_t big = (size_t)1 << 28;   /* 1 GiB of floats */
    CK(cudaMalloc(&buf, big * 4));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(buf, 0, big * 4));
    printf("# device %s, %d SMs\n# case                         us     lines/ns\n", prop.name, sms);
    const size_t slines = (size_t)1 << 17;
    const unsigned grid = sms * 16, block = 256;
    for (int reps : {20, 100, 400}) {
        float l = median_ms([&] { scatter<false><<<grid, block>>>(buf, slines, reps, sink); });
        float s = median_ms([&] { scatter<true><<<grid, block>>>(buf, slines, reps, sink); });
        printf("profile_load_reps%-4d %12.1f %10.2f\n", reps, l * 1e3, slines * reps / (l * 1e6));
        printf("profile_store_reps%-4d %11.1f %10.2f\n", reps, s * 1e3, slines * reps / (s * 1e6));
    }
    /* one block a SM with few warps: 16 warps a SM, long */
    for (int n : {2048, 8192, 16384}) {
        dim3 g(n / 32, n / 32), b(32, 8);
        double lines = (double)n * n;
        float l = median_ms([&] { column<false><<<g, b>>>(buf, n, sink); });
        float s = median_ms([&] { column<true><<<g, b>>>(buf, n, sink); });
        printf("column_load_n%-6d %13.1f %10.2f\n", n, l * 1e3, lines / (l * 1e6));
        printf("column_store_n%-6d %12.1f %10.2f\n", n, s * 1e3, lines / (s * 1e6));
    }
    CK(cudaGetLastError());
    return 0;
}
