// Which lines' atomics the H100's L2 serves one after another (issue 29, after held-out round 12).
//
// atomic_rate.cu found a line's atomics served one after another, lines 4 KiB apart side by side,
// and lines 128 bytes apart partly (2 adjacent lines slower than one).  binaryPartitionCG (round 12)
// puts one-lane adds on two buffers of a few bytes each, cudaMalloc'd one after the other, and
// takes the time of all their requests one after another.  Here:
//   A. where cudaMalloc puts small buffers one after another (their distance);
//   B. two hot words D bytes apart (warp w of the grid on word w % 2), 32 lanes a request on one
//      word, and one lane a request: ns a request, against both words on one line;
//   C. N hot lines S bytes apart (warp w on line w % N): how many the L2 serves side by side.
// 264 blocks of 256 threads (1056 for one-lane requests), 64 atomicAdds of 1 a lane, median of 9.
//
// nvcc -O3 -arch=sm_90 -o atomic_lines atomic_lines.cu && ./atomic_lines
#include "timing.cuh"

__global__ void hammer(unsigned *base, unsigned n, unsigned stride_words, unsigned lanes, int iters, unsigned *sink)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (lanes == 1 && lane) return;
    unsigned *p = base + (size_t)(warp % n) * stride_words;
    unsigned acc = 0;
    for (int i = 0; i < iters; i++) acc += atomicAdd(p, 1u);
    if (acc == 0x12345678u) *sink = acc;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# device = %s, sms = %d\n", prop.name, prop.multiProcessorCount);
    // A. small buffers, as a harness allocates them one after another
    const size_t sizes[] = {4, 8, 4, 16u << 20, 4, 44, 1024};
    void *ptr[7];
    for (int i = 0; i < 7; i++) CK(cudaMalloc(&ptr[i], sizes[i]));
    printf("# A. cudaMalloc of");
    for (int i = 0; i < 7; i++) printf(" %zu", sizes[i]);
    printf(" bytes: at");
    for (int i = 0; i < 7; i++) printf(" +%lld", (long long)((char *)ptr[i] - (char *)ptr[0]));
    printf("\n");
    unsigned *buf, *sink;
    CK(cudaMalloc(&buf, 4 << 20));
    CK(cudaMemset(buf, 0, 4 << 20));
    CK(cudaMalloc(&sink, 4));
    const int iters = 64;
    printf("# B/C: kind  lanes  lines  stride_bytes  blocks  us  ns_per_request  one_line_ns/this (lines served side by side)\n");
    for (unsigned lanes : {32u, 1u}) {
        unsigned blocks = lanes == 32 ? 264 : 1056;
        double reqs = (double)blocks * 8 * iters;
        float one = median_ms([&] { hammer<<<blocks, 256>>>(buf, 1, 0, lanes, iters, sink); }, 9);
        const unsigned dists[] = {4, 64, 128, 256, 384, 512, 640, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384, 65536, 1u << 20};
        for (unsigned d : dists) {
            float ms = median_ms([&] { hammer<<<blocks, 256>>>(buf, 2, d / 4, lanes, iters, sink); }, 9);
            printf("B %5u %5u %7u %6u %9.1f %9.4f %6.2f\n", lanes, 2, d, blocks, ms * 1e3, ms * 1e6 / reqs, one / ms);
        }
        for (unsigned n : {4u, 8u, 16u, 32u})
            for (unsigned s : {128u, 256u, 512u, 1024u, 2048u, 4096u}) {
                float ms = median_ms([&] { hammer<<<blocks, 256>>>(buf, n, s / 4, lanes, iters, sink); }, 9);
                printf("C %5u %5u %7u %6u %9.1f %9.4f %6.2f\n", lanes, n, s, blocks, ms * 1e3, ms * 1e6 / reqs, one / ms);
            }
        printf("# one line (%u lanes): %.1f us, %.4f ns a request\n", lanes, one * 1e3, one * 1e6 / reqs);
    }
    CK(cudaGetLastError());
    return 0;
}
