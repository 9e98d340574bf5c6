// coalsim run's test program: a kernel that faults as the argument says
// (oob: a store past the end of its buffer; misaligned: a 4-byte load at an
// odd address; assert: a failing device assert).  A GPU returns the fault
// from the next synchronising call, and every call after it fails the same
// way; the program prints what it got and exits 0 when that is what a GPU
// does.
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void store_past(int *p, int n) { p[blockIdx.x * blockDim.x + threadIdx.x + n] = 1; }
__global__ void load_odd(int *out, const char *p) { *out = *(const int *)(p + 1 + threadIdx.x * 4); }
__global__ void check_positive(const int *p) { assert(p[threadIdx.x] > 0); }

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "oob";
    int *buf;
    if (cudaMalloc(&buf, 1024) != cudaSuccess) return 2;
    cudaMemset(buf, 0, 1024);
    cudaError_t want;
    if (!std::strcmp(what, "misaligned")) {
        load_odd<<<1, 32>>>(buf, (const char *)buf);
        want = cudaErrorMisalignedAddress;
    } else if (!std::strcmp(what, "assert")) {
        check_positive<<<1, 32>>>(buf);
        want = cudaErrorAssert;
    } else {
        store_past<<<2, 128>>>(buf, 1 << 20);
        want = cudaErrorIllegalAddress;
    }
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t later = cudaMemset(buf, 0, 4);
    std::printf("%s: %s, then %s\n", what, cudaGetErrorName(e), cudaGetErrorName(later));
    return e == want && later == want ? 0 : 1;
}
