// What a global atomic request costs when its lanes spread over several lines, and what 64-bit
// atomics cost (issue 29, after held-out round 13).
//
// Round 13 (frozen at d436798, on an H200) missed two ways the atomic rules of atomic_rate.cu and
// atomic_lines.cu did not cover:
//   - bincount's int histogram of 768 bins (3 KiB, 24 lines on 6 units), random bins: 0.24x; its
//     requests put their 32 lanes on many lines of each unit, which the model costs as one;
//   - atomicPerf's double adds, 32 lanes on 32 words (two lines): 0.28x; a float's take 1.1x.
// Each case: 264 blocks of 256 threads, 64 atomics a lane, median of 9 launches, ns a request.
//   SPREAD  lane l of every warp on line (l % LINES), word l / LINES of it, the lines at
//           OFFSETS (same unit: 0, 128, 512, 640 bytes; other units: 0, 256, 1024, 1280)
//   TYPE    u32 add, f32 add, u64 add, f64 add
//   WORDS   the warp's 32 lanes on 1 word, or on 32 consecutive elements (1 line of u32, 2 of
//           64-bit), or lane 0 alone on one word
//
// nvcc -O3 -arch=sm_90 -o atomic_wide atomic_wide.cu && ./atomic_wide
#include "timing.cuh"

__constant__ unsigned c_off[4];

// SPREAD: lane l on line l % lines (at c_off[l % lines] bytes), word l / lines of it
__global__ void spread(unsigned *base, unsigned lines, int iters, unsigned *sink)
{
    unsigned lane = threadIdx.x % 32;
    unsigned *p = (unsigned *)((char *)base + c_off[lane % lines]) + lane / lines;
    unsigned acc = 0;
    for (int i = 0; i < iters; i++) acc += atomicAdd(p, 1u);
    if (acc == 0x12345678u) *sink = acc;
}

// MODE 0: 32 lanes on one element; 1: on 32 consecutive elements; 2: lane 0 alone
template <class T> __global__ void typed(T *base, int mode, int iters, unsigned *sink)
{
    unsigned lane = threadIdx.x % 32;
    if (mode == 2 && lane) return;
    T *p = base + (mode == 1 ? lane : 0);
    T acc = 0;
    for (int i = 0; i < iters; i++) acc += atomicAdd(p, (T)1);
    if (acc == (T)12345) *sink = 1;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# device = %s, sms = %d; 264 blocks of 256, 64 atomics a lane, median of 9; ns a request\n", prop.name,
           prop.multiProcessorCount);
    unsigned *buf, *sink;
    CK(cudaMalloc(&buf, 1 << 20));
    CK(cudaMemset(buf, 0, 1 << 20));
    CK(cudaMalloc(&sink, 4));
    const int iters = 64;
    const unsigned blocks = 264;
    const double reqs = blocks * 8.0 * iters;
    const unsigned same[4] = {0, 128, 512, 640}, other[4] = {0, 256, 1024, 1280};
    printf("# spread  lines  unit    us   ns_a_request\n");
    for (int s = 0; s < 2; s++)
        for (unsigned lines : {1u, 2u, 4u}) {
            CK(cudaMemcpyToSymbol(c_off, s ? other : same, sizeof same));
            float ms = median_ms([&] { spread<<<blocks, 256>>>(buf, lines, iters, sink); }, 9);
            printf("spread %5u %6s %8.1f %8.3f\n", lines, s ? "other" : "same", ms * 1e3, ms * 1e6 / reqs);
        }
    printf("# typed  type  mode(0 one word, 1 32 elements, 2 lane 0)    us   ns_a_request\n");
    const char *names[4] = {"u32", "f32", "u64", "f64"};
    for (int t = 0; t < 4; t++)
        for (int mode = 0; mode < 3; mode++) {
            float ms = median_ms(
                [&] {
                    if (t == 0) typed<unsigned><<<blocks, 256>>>(buf, mode, iters, sink);
                    if (t == 1) typed<float><<<blocks, 256>>>((float *)buf, mode, iters, sink);
                    if (t == 2) typed<unsigned long long><<<blocks, 256>>>((unsigned long long *)buf, mode, iters, sink);
                    if (t == 3) typed<double><<<blocks, 256>>>((double *)buf, mode, iters, sink);
                },
                9);
            printf("typed %5s %2d %9.1f %8.3f\n", names[t], mode, ms * 1e3, ms * 1e6 / reqs);
        }
    CK(cudaGetLastError());
    return 0;
}
