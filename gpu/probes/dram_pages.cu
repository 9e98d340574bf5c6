// What a DRAM fetch costs when its neighbours in memory are not fetched.
//
// The seed's strided read at 256 and 512 bytes moves the bytes the model
// says (ncu's dram__bytes_read agrees to 0.1%) but takes 1.3-1.5 times the
// time those bytes take at streaming bandwidth.  This probe reads RUN bytes
// at every STRIDE bytes (RUN <= STRIDE) across a span of fresh memory, so
// that the bytes fetched are the same but how many of them share a stretch
// of memory changes:
//   - a STRIDE sweep with RUN = 64 (one fetch a run): where the cost per
//     fetch stops rising is the stretch the DRAM opens at a time (a page);
//   - a RUN sweep at STRIDE = 8192: fetches per page 1, 2, 4, ... at the
//     same byte density per stride, to tell "fetches per page" from
//     "bytes per stride";
//   - RUN = 32 at a few strides: a 32-byte sector costs a 64-byte fetch?
//   - RUN = 128, 192, 256 at strides 256 and 512: a 256-byte piece read by
//     2, 3 or 4 fetches together (the time model's dram_piece);
//   - pairs apart: each 256-byte piece read by two fetches (bytes 0-63 and
//     128-191), the second issued DELAY fetches after the first: how far
//     apart in time two fetches of a piece may come and still be served
//     together.
// Each case runs with N and 2N fetches; the difference over N is the
// marginal ns per fetch, free of the launch's fixed cost and ramp.
//
// Not the seed kernel: 16-byte lanes (__ldcg, L1 bypassed), four
// independent loads a thread in flight, two blocks of 1024 threads a SM,
// and every byte of a run read, not one sector of it.
//
// nvcc -O3 -arch=sm_90 -o dram_pages dram_pages.cu && ./dram_pages
// ./dram_pages once STRIDE RUN FETCHES   one launch (for ncu)
#include <cstring>
#include "timing.cuh"

// Unit u (16 bytes) of the pattern: run u / (RUN/16), 16-byte piece u % (RUN/16);
// or, with DELAY, fetch u / 4 of the pairs-apart order.
__device__ unsigned long long where(unsigned long long w, unsigned run_units, unsigned stride_units,
                                   unsigned long long delay)
{
    if (!delay) return w / run_units * stride_units + w % run_units;
    unsigned long long i = w / 4, g = i / (2 * delay), j = i % (2 * delay);
    return (g * delay + j % delay) * 16 + j / delay * 8 + w % 4;
}

__global__ void pages(const float4 *buf, unsigned long long units, unsigned run_units, unsigned stride_units,
                      unsigned long long delay, float *sink)
{
    const unsigned long long T = (unsigned long long)gridDim.x * blockDim.x;
    float acc = 0.f;
    for (unsigned long long u = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; u < units; u += 4 * T) {
        float4 v[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            unsigned long long w = u + k * T;
            if (w >= units) w = u;
            v[k] = __ldcg(&buf[where(w, run_units, stride_units, delay)]);
        }
#pragma unroll
        for (int k = 0; k < 4; k++) acc += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    if (acc == 1234.5f) *sink = acc;
}

struct cfg {
    unsigned stride, run;
    unsigned long long delay;
};

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const size_t fetches = (size_t)1 << 21;               /* 64-byte fetches in the short run: 128 MiB */
    const size_t max_stride = 8192;
    const size_t span = 2 * fetches * max_stride;        /* the long run at the widest stride: 32 GiB */
    float4 *buf;
    float *sink;
    CK(cudaMalloc(&buf, span));
    CK(cudaMalloc(&sink, sizeof(float)));
    const int blocks = 2 * sms, threads = 1024;
    auto launch = [&](const cfg &c, size_t n64) {
        unsigned long long units = (unsigned long long)(n64 * 64 / c.run) * (c.run / 16);
        if (c.run < 64 || c.delay) units = (unsigned long long)n64 * (c.run / 16);   /* N fetches */
        pages<<<blocks, threads>>>(buf, units, c.run / 16, c.stride / 16, c.delay, sink);
    };
    if (argc == 5 && !strcmp(argv[1], "once")) {
        launch({(unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), 0}, (size_t)atoll(argv[4]));
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        return 0;
    }
    std::vector<cfg> cases;
    for (unsigned s = 64; s <= max_stride; s *= 2) cases.push_back({s, 64, 0});
    for (unsigned r = 128; r <= max_stride; r *= 2) cases.push_back({8192, r, 0});
    for (unsigned s : {64u, 128u, 512u, 4096u}) cases.push_back({s, 32, 0});
    for (unsigned s : {256u, 512u})                       /* a piece read by 2, 3, 4 fetches */
        for (unsigned r : {128u, 192u, 256u}) cases.push_back({s, r, 0});
    for (unsigned long long d = 1; d <= (1u << 18); d *= 4) cases.push_back({256, 64, d});
    printf("# device = %s, sms = %d; %d blocks of %d threads; N = %zu fetches of 64 bytes (RUN 32: N runs)\n",
           prop.name, sms, blocks, threads, fetches);
    printf("# stride  run  delay  fetches_per_8k  t_N_us  t_2N_us  ns_per_fetch  GB_per_s   (median of 15, back to back)\n");
    printf("# delay > 0: pairs apart (bytes 0-63 and 128-191 of each 256, DELAY fetches apart); stride and run do not apply\n");
    for (const cfg &c : cases) {
        float t1 = median_ms([&] { launch(c, fetches); });
        float t2 = median_ms([&] { launch(c, 2 * fetches); });
        double per = (t2 - t1) * 1e6 / (double)fetches;     /* ns a fetch */
        unsigned per8k = c.delay ? 64 : 8192 / c.stride * (c.run < 64 ? 1 : c.run / 64);
        printf("%6u %5u %6llu %10u %9.1f %8.1f %12.5f %9.1f\n", c.stride, c.run, c.delay, per8k, t1 * 1e3, t2 * 1e3,
               per, 64.0 / per);   /* a fetch moves 64 bytes */
    }
    return 0;
}
