// coalsim run's test program: one launch, then the program aborts.
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main()
{
    int *p;
    cudaMalloc(&p, 128 * sizeof(int));
    fill<<<1, 128>>>(p);
    cudaDeviceSynchronize();
    std::fflush(stdout);
    std::abort();
}
