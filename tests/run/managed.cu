// coalsim run's test program: managed memory (cudaMallocManaged) written by
// the host, read and written by kernels, read back by the host with no copy,
// as "An Even Easier Introduction to CUDA" does; exits 1 if a value is wrong.
#include <cstdio>

__global__ void add(int n, float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i] + y[i];
}

int main()
{
    const int n = 1 << 16;
    float *x, *y;
    if (cudaMallocManaged(&x, n * sizeof(float)) != cudaSuccess || cudaMallocManaged(&y, n * sizeof(float)) != cudaSuccess)
        return 2;
    for (int i = 0; i < n; i++) x[i] = 1.0f, y[i] = 2.0f;
    add<<<64, 256>>>(n, x, y);
    cudaDeviceSynchronize();
    add<<<64, 256>>>(n, x, y);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; i++) bad += y[i] != 4.0f;
    std::printf("managed: %d wrong\n", bad);
    cudaFree(x);
    cudaFree(y);
    return bad ? 1 : 0;
}
