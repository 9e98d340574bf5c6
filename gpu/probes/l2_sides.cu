// Which SMs share what L2 keeps (l2_rates.cu's finding, 2026-11-27): on the H100 a footprint that
// warps of every SM read in turn starts to leave L2 at about 24-28 MiB, half of its 50, while one
// that each SM keeps to itself stays to about 40-45 MiB, as if L2 were two partitions each keeping
// its own copy of what its SMs read.  If so, a footprint read in turn only by the SMs of one
// partition stays as long as an SM's own does, and one read by SMs of both leaves early.  This
// probe reads a 36 MiB footprint 8 times, each pass's lines moved on among the warps of the SMs of
// one set (one 1024-thread block a SM, 200 KB of shared memory each so no SM holds two; blocks
// on other SMs exit at once), for sets of half the SMs by %smid: the lower half, and those with
// bit B of %smid clear (B = 0..6).  ncu's DRAM bytes say which sets stay in L2.
//
// l2_sides                      every set: median time of 9 back-to-back launches of 8 passes
// l2_sides once SET MB PASSES   one launch (for ncu): SET "half" or a bit 0..6, or "all", or "A"/"B"
//
// With PAIRS=FILE (l2_pairs.cu's output) in the environment, sets A and B are the two sides that
// probe found: the SMs whose loads of lines SM 0 read were fast (A) or slow (B).
#include <cstring>
#include "timing.cuh"

__constant__ unsigned char side_of[1024];      /* 1: side A, from l2_pairs.cu (sets 8 and 9) */

// SET: -1 every SM, 7 the lower half (< nsm / 2), 8 side A, 9 side B, else SMs with bit SET of %smid clear.
__device__ __forceinline__ bool member(unsigned s, int set, unsigned nsm)
{
    return set < 0 ? true : set == 7 ? s < nsm / 2 : set == 8 ? side_of[s] : set == 9 ? !side_of[s] : !(s >> set & 1);
}

__global__ void sides(const float *src, unsigned n, unsigned long long total, int set, unsigned nsm, float *sink)
{
    extern __shared__ float pad[];
    const unsigned s = smid();
    if (!member(s, set, nsm)) return;
    unsigned rank = 0, count = 0;               /* this SM among the set's, and how many */
    for (unsigned k = 0; k < nsm; k++) {
        bool in = member(k, set, nsm);
        rank += in && k < s;
        count += in;
    }
    const unsigned lane = threadIdx.x & 31, warps = count * (blockDim.x / 32);
    const unsigned w = rank * (blockDim.x / 32) + threadIdx.x / 32;
    const unsigned step = 4 * warps % n;
    unsigned line[4];
    for (int j = 0; j < 4; j++) line[j] = (w + j * warps) % n;
    float acc = 0.f;
    for (unsigned long long k = w; k < total; k += 4ull * warps) {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) v[j] = k + j * warps < total ? __ldcg(&src[(unsigned long long)line[j] * 32 + lane]) : 0.f;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            acc += v[j];
            line[j] += step;
            if (line[j] >= n) line[j] -= n;
        }
    }
    if (acc == 1234.5f) *sink = acc + pad[0];
}

__global__ void who(unsigned *out)
{
    extern __shared__ float pad[];
    if (threadIdx.x == 0) out[blockIdx.x] = smid() + (pad[0] == 1234.5f);
}

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const unsigned sms = (unsigned)prop.multiProcessorCount;
    const size_t max_bytes = (size_t)64 << 20, smem = 200 * 1024;
    float *src, *sink;
    CK(cudaMalloc(&src, max_bytes));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMemset(src, 0, max_bytes));
    CK(cudaFuncSetAttribute(sides, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    auto launch = [&](int set, double mb, int npass) {
        unsigned n = (unsigned)(mb * (1 << 20) / 128);
        sides<<<sms, 1024, smem>>>(src, n, (unsigned long long)npass * n, set, sms, sink);
    };
    auto set_of = [](const char *a) {
        return !strcmp(a, "all") ? -1 : !strcmp(a, "half") ? 7 : !strcmp(a, "A") ? 8 : !strcmp(a, "B") ? 9 : atoi(a);
    };
    /* the sides l2_pairs.cu found: round 0's fast SMs */
    bool sides_known = false;
    if (const char *pf = getenv("PAIRS")) {
        FILE *f = fopen(pf, "r");
        unsigned char side[1024] = {0};
        char line[256];
        unsigned lo = ~0u, hi = 0, cyc[1024] = {0};
        while (f && fgets(line, sizeof line, f)) {
            int round;
            unsigned x, y, c;
            if (line[0] != '#' && sscanf(line, "%d %u %u %u", &round, &x, &y, &c) == 4 && round == 0 && y < 1024) {
                cyc[y] = c;
                lo = c < lo ? c : lo, hi = c > hi ? c : hi;
            }
        }
        if (f) fclose(f);
        for (unsigned y = 0; y < sms && y < 1024; y++) side[y] = cyc[y] && cyc[y] < (lo + hi) / 2;
        CK(cudaMemcpyToSymbol(side_of, side, sizeof side));
        sides_known = lo < hi;
    }
    if (argc == 5 && !strcmp(argv[1], "once")) {
        int set = set_of(argv[2]);
        double mb = atof(argv[3]);
        int np = atoi(argv[4]);
        if (set < -1 || set > 9 || (set >= 8 && !sides_known) || !(mb >= 8 && mb * (1 << 20) <= max_bytes) || np < 1) {
            fprintf(stderr, "usage: [PAIRS=FILE] l2_sides once all|half|0..6|A|B MB PASSES (MB from 8 to 64; A, B: PAIRS)\n");
            return 2;
        }
        launch(set, mb, np);
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        return 0;
    }
    printf("# device = %s, sms = %u, L2 = %d bytes; one block of 1024 threads a SM, the set's SMs read\n", prop.name,
           sms, prop.l2CacheSize);
    {
        /* the %smid values one block a SM sees: the sets assume 0 .. sms-1 */
        unsigned *d, h[1024];
        CK(cudaMalloc(&d, sms * sizeof(unsigned)));
        CK(cudaFuncSetAttribute(who, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        who<<<sms, 1024, smem>>>(d);
        CK(cudaMemcpy(h, d, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
        unsigned lo = ~0u, hi = 0, seen[1024] = {0}, distinct = 0;
        for (unsigned i = 0; i < sms; i++) {
            lo = h[i] < lo ? h[i] : lo, hi = h[i] > hi ? h[i] : hi;
            if (h[i] < 1024 && !seen[h[i]]++) distinct++;
        }
        printf("# %%smid of %u blocks: %u distinct, %u .. %u\n", sms, distinct, lo, hi);
    }
    printf("# set  MB  us_8_passes  (median of 9 back-to-back launches)\n");
    const char *sets[] = {"all", "half", "0", "1", "2", "3", "4", "5", "6", "A", "B"};
    for (const char *a : sets)
        for (double mb : {24.0, 36.0}) {
            if (!sides_known && (a[0] == 'A' || a[0] == 'B')) continue;
            int set = set_of(a);
            float t = median_ms([&] { launch(set, mb, 8); }, 9);
            printf("%-5s %5.1f %9.2f\n", a, mb, t * 1e3);
        }
    return 0;
}
