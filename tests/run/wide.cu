// A launch of 4096 blocks for coalsim run --sample (tests/run_check.sh): y = 2x over 2^20 floats.
#include <cstdio>

__global__ void scale(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) return 1;
    cudaMemset(x, 0, n * sizeof(float));
    scale<<<n / 256, 256>>>(y, x, n);
    int rc = cudaDeviceSynchronize() != cudaSuccess;
    printf("wide: %s\n", rc ? "failed" : "done");
    return rc;
}
