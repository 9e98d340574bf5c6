// How fast L2 serves a launch whose data it already holds: reads, writes and copies, by footprint.
//
// Warm (second of two back-to-back launches), the copies of 33.6 MB that issue 29 names run at
// 0.78-0.88x the model's time: BabelStream's dot (reads only) 11.4 us against 8.9, the samples'
// copy 11.4 against 8.9.  The model streams L2's sectors at the profile's l2_read_gbs, measured on
// one footprint and on reads.  This probe reads, writes or copies a footprint of F bytes a side
// PASSES times in one launch (a warp a 128-byte line, 4 bytes a lane, four lines a warp in flight,
// `ld.global.cg`, two blocks of 1024 threads a SM), with 4 and 8 passes: the difference over 4
// passes is one pass over data that L2 holds, with no launch, no first pass from DRAM and no ramp
// in it.  A footprint larger than what L2 keeps shows as a rate that falls to DRAM's.
//
// l2_rates                     every footprint, median of 9 back-to-back launches of each
// l2_rates once MODE MB PASSES one launch (for ncu): MODE read | write | copy | own, MB a side
//
// own: reads, each warp the same lines every pass (the footprint rounded down to a multiple of the
// lines a round of the warps takes); read: each pass's lines move on among the warps, so that a line
// is read by warps of every SM in turn.  If L2 keeps a line read from the far partition in the
// near one as well, a line that every SM reads takes two places and one that one SM reads one or two.
#include <cstring>
#include "timing.cuh"

// mode 0 copy, 1 read only, 2 write only, 3 read only with N a multiple of 4 x warps (each warp
// reads the same lines every pass, from the same SM); N lines a side, TOTAL = passes x N lines taken in turn
__global__ void passes(const float *src, float *dst, unsigned n, unsigned long long total, int mode, float *sink)
{
    const unsigned lane = threadIdx.x & 31;
    const unsigned warps = gridDim.x * blockDim.x / 32;
    const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    /* each of the 4 lines in flight walks the footprint by 4 x warps lines, wrapped by a subtraction
     * (a 64-bit % would cost a warp ~190 cycles of issue, and be what the probe measured) */
    const unsigned step = 4 * warps % n;
    unsigned line[4];
    for (int j = 0; j < 4; j++) line[j] = (w + j * warps) % n;
    float acc = 0.f;
    for (unsigned long long k = w; k < total; k += 4ull * warps) {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            v[j] = 0.f;
            if (k + j * warps < total && mode != 2) v[j] = __ldcg(&src[(unsigned long long)line[j] * 32 + lane]);
        }
#pragma unroll
        for (int j = 0; j < 4; j++) {
            if (k + j * warps >= total) continue;
            if (mode & 1) acc += v[j];
            else dst[(unsigned long long)line[j] * 32 + lane] = mode == 2 ? (float)lane : v[j];
            line[j] += step;
            if (line[j] >= n) line[j] -= n;
        }
    }
    if (acc == 1234.5f) *sink = acc;
}

static const char *mode_name[] = {"copy", "read", "write", "own"};

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const size_t max_bytes = (size_t)96 << 20;
    float *src, *dst, *sink;
    CK(cudaMalloc(&src, max_bytes));
    CK(cudaMalloc(&dst, max_bytes));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMemset(src, 0, max_bytes));
    CK(cudaMemset(dst, 0, max_bytes));
    const int blocks = 2 * sms, threads = 1024;
    auto launch = [&](int mode, double mb, int npass) {
        unsigned n = (unsigned)(mb * (1 << 20) / 128);
        if (mode == 3) n -= n % (4u * blocks * threads / 32);
        passes<<<blocks, threads>>>(src, dst, n, (unsigned long long)npass * n, mode, sink);
    };
    if (argc == 5 && !strcmp(argv[1], "once")) {
        int mode = -1;
        for (int m = 0; m < 4; m++)
            if (!strcmp(argv[2], mode_name[m])) mode = m;
        double mb = atof(argv[3]);
        int np = atoi(argv[4]);
        if (mode < 0 || !(mb >= 4.5 && mb * (1 << 20) <= max_bytes) || np < 1) {
            fprintf(stderr, "usage: l2_rates once read|write|copy|own MB PASSES (MB from 4.5 to 96)\n");
            return 2;
        }
        launch(mode, mb, np);
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        return 0;
    }
    printf("# device = %s, sms = %d, L2 = %d bytes; %d blocks of %d threads, 4 lines a warp in flight\n", prop.name,
           sms, prop.l2CacheSize, blocks, threads);
    printf("# mode  MB_a_side  footprint_MB  t4_us  t8_us  us_a_pass  GB_per_s (bytes read + written a pass;"
           " median of 9 back-to-back launches)\n");
    const double sides[] = {6, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96};
    for (int m : {1, 3, 2, 0})
        for (double mb : sides) {
            if ((m == 0 && mb > 48) || (m == 3 && mb < 16)) continue;
            float t4 = median_ms([&] { launch(m, mb, 4); }, 9);
            float t8 = median_ms([&] { launch(m, mb, 8); }, 9);
            double mbr = m == 3 ? (double)((unsigned)(mb * (1 << 20) / 128) / (4u * blocks * threads / 32) *
                                           (4u * blocks * threads / 32)) * 128 / (1 << 20) : mb;
            double pass_us = (t8 - t4) * 1e3 / 4, bytes = mbr * (1 << 20) * (m == 0 ? 2 : 1);
            printf("%-5s %6.1f %7.1f %9.2f %9.2f %9.3f %9.1f\n", mode_name[m], mbr, mbr * (m == 0 ? 2 : 1), t4 * 1e3,
                   t8 * 1e3, pass_us, bytes / (pass_us * 1e3));
        }
    return 0;
}
