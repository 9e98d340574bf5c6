// coalsim run's test program: CUDA memory and copies, no launch; exits 3.
#include <cstdio>

int main()
{
    int h = 42, back = 0, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(&back, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("copied %d back\n", back);
    return back == 42 ? 3 : 1;
}
