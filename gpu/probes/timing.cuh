// What the standalone probes (scatter.cu, l2_loaded.cu, pred_off.cu, dram_pages.cu, shared_miss.cu, half_pipe.cu, ...)
// and GPU checks (wmma_check.cu) share: stop on a CUDA error with where it happened, the median time
// of back-to-back launches, the SM a thread runs on, and a read that empties L2.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));       \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

// The median over RUNS launches of F (ms, cudaEvent time of each), after
// one launch to warm up.
template <class F> static float median_ms(F f, int runs = 15)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < runs; i++) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// The SM a thread runs on (%smid).
__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

// Read N float4s of P through L2 (a buffer larger than L2 empties it of what came before).
__global__ void read_through_l2(const float4 *p, size_t n, float *sink)
{
    float acc = 0.f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        acc += __ldcg(&p[i]).x;
    if (acc == 1234.5f) *sink = acc;
}
