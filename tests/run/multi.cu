// coalsim run's test program: several kernels, every kind of copy, constant
// and __device__ variables, dynamic shared memory, events; it checks its own
// results on the host as a CUDA sample does and exits 1 if any is wrong.
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));      \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

__constant__ float scale[4];
__device__ int launches_seen;

__global__ void saxpy(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = scale[0] * x[i] + y[i];
    if (i == 0) atomicAdd(&launches_seen, 1);
}

// a block's sum through dynamic shared memory
__global__ void block_sum(const float *x, float *sums, int n)
{
    extern __shared__ float part[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
    if (i == 0) atomicAdd(&launches_seen, 1);
}

template <int STRIDE> __global__ void gather(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(i * STRIDE) % n];
}

int main()
{
    const int n = 4096, threads = 256, blocks = n / threads;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s, %d SMs, compute capability %d.%d\n", prop.name, prop.multiProcessorCount, prop.major,
                prop.minor);
    float *hx = (float *)std::malloc(n * sizeof(float)), *hy = (float *)std::malloc(n * sizeof(float));
    float *hout = (float *)std::malloc(n * sizeof(float)), hsums[blocks];
    for (int i = 0; i < n; i++) hx[i] = (float)(i % 7), hy[i] = 1.0f;
    float *x, *y, *y2, *sums, *out;
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&y2, n * sizeof(float)));
    CK(cudaMalloc(&sums, blocks * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    CK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyDefault));
    CK(cudaMemset(y2, 0, n * sizeof(float)));
    float s[4] = {2.0f, 0, 0, 0};
    CK(cudaMemcpyToSymbol(scale, s, sizeof s));
    int zero = 0;
    CK(cudaMemcpyToSymbol(launches_seen, &zero, sizeof zero));
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start));
    saxpy<<<blocks, threads>>>(y, x, n);
    CK(cudaGetLastError());
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("saxpy: %.4f ms\n", ms);
    CK(cudaMemcpy(y2, y, n * sizeof(float), cudaMemcpyDeviceToDevice));
    block_sum<<<blocks, threads, threads * sizeof(float)>>>(y2, sums, n);
    CK(cudaGetLastError());
    gather<33><<<blocks, threads>>>(out, y2, n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy, y2, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hsums, sums, sizeof hsums, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hout, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int seen = 0;
    CK(cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hy[i] != 2.0f * (float)(i % 7) + 1.0f;
    for (int b = 0; b < blocks; b++) {
        float want = 0;
        for (int i = b * threads; i < (b + 1) * threads; i++) want += hy[i];
        bad += hsums[b] != want;
    }
    for (int i = 0; i < n; i++) bad += hout[i] != hy[(i * 33) % n];
    bad += seen != 2;
    std::printf("%s: %d wrong, %d launches counted on the device\n", bad ? "FAIL" : "PASS", bad, seen);
    CK(cudaFree(x));
    CK(cudaFree(y));
    CK(cudaFree(y2));
    CK(cudaFree(sums));
    CK(cudaFree(out));
    return bad ? 1 : 0;
}
