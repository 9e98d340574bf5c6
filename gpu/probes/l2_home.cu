// Where L2 keeps a line, line by line (after l2_pairs.cu found the SMs' two sides, 2026-11-27).
// A trial: SM F reads N fresh lines from DRAM (nothing else has touched them since a 256 MiB read
// emptied L2), then three SMs read them one after another, each load waiting for the last and
// timed alone with clock64: O (the other side), S (F's side, another SM), O2 (the other side
// again, another SM).  A load's cycles say where it found the line: the reader's side (about 290),
// the other side (about 370), DRAM (700 and more).  Two trials: F on side A (O on B), then F on B.
// Each SM holds one block (200 KB of shared memory); the sides are l2_pairs.cu's (PAIRS=FILE), or
// SMs 0 and 1 against 4 and 5 by default (l2_pairs.cu's H100: 0-3 on A, 4-11 on B).
//
// l2_home            prints, a line a row: trial, line, the byte offset, O's, S's and O2's cycles
// l2_home STRIDE N   the same for N lines STRIDE bytes apart (one in each 4 KiB: 4096 16384, 64 MiB)
#include <cstring>
#include "timing.cuh"

#define NMAX 16384

// The block on SM WHO reads the N lines of REGION in order, each load waiting for the last; with
// CYC, each load's cycles into CYC.
__global__ void reads(const unsigned *region, unsigned who, unsigned *cyc, int n, unsigned stride_words)
{
    extern __shared__ unsigned pad[];
    if (smid() != who || threadIdx.x != 0) return;
    unsigned v = 0, u = 0;
    for (int i = 0; i < n; i++) {
        const unsigned *p = &region[(size_t)i * stride_words + (u & 1)];
        long long t0, t1;
        /* in order: the clock, the load, an add that waits for it, the clock */
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
        asm volatile("add.u32 %0, %1, 2;" : "=r"(u) : "r"(v));
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
        if (cyc) cyc[i] = (unsigned)(t1 - t0);
    }
    if (u == 12345u) pad[0] = u;
}

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const unsigned sms = (unsigned)prop.multiProcessorCount;
    const size_t stride = argc == 3 ? (size_t)atoll(argv[1]) : 128;
    const int N = argc == 3 ? atoi(argv[2]) : 512;
    if (stride < 128 || stride % 128 || N < 1 || N > NMAX) {
        fprintf(stderr, "usage: l2_home [STRIDE N]  (STRIDE a multiple of 128, N at most %d)\n", NMAX);
        return 2;
    }
    const size_t smem = 200 * 1024, big = (size_t)256 << 20, region = (size_t)N * stride;
    unsigned a[2] = {0, 1}, b[2] = {4, 5};
    if (const char *pf = getenv("PAIRS")) {
        /* round 0 of l2_pairs.cu: the two fastest SMs besides 0 are side A's, the two slowest side B's */
        FILE *f = fopen(pf, "r");
        char line[256];
        unsigned cyc[1024] = {0};
        while (f && fgets(line, sizeof line, f)) {
            int round;
            unsigned x, y, c;
            if (line[0] != '#' && sscanf(line, "%d %u %u %u", &round, &x, &y, &c) == 4 && round == 0 && y < 1024) cyc[y] = c;
        }
        if (f) fclose(f);
        unsigned lo = ~0u, hi = 0;
        for (unsigned y = 1; y < sms && y < 1024; y++) {
            if (cyc[y] && cyc[y] < lo) lo = cyc[y], a[1] = y;
            if (cyc[y] > hi) hi = cyc[y], b[0] = y;
        }
        unsigned hi2 = 0;
        for (unsigned y = 1; y < sms && y < 1024; y++)
            if (y != b[0] && cyc[y] > hi2 && cyc[y] > (lo + hi) / 2) hi2 = cyc[y], b[1] = y;
    }
    unsigned *lines, *cyc;
    static unsigned h[3][NMAX];
    float4 *junk;
    float *sink;
    CK(cudaMalloc(&lines, 2 * region));
    CK(cudaMemset(lines, 0, 2 * region));
    CK(cudaMalloc(&cyc, 3 * NMAX * sizeof(unsigned)));
    CK(cudaMalloc(&junk, big));
    CK(cudaMemset(junk, 0, big));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaFuncSetAttribute(reads, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    printf("# device = %s; side A SMs %u %u, side B SMs %u %u; %d lines a trial, %zu bytes apart\n", prop.name, a[0],
           a[1], b[0], b[1], N, stride);
    printf("# trial  line  offset  other  same  other2   (cycles a load; trial 0: first read by A, 1: by B)\n");
    for (int trial = 0; trial < 2; trial++) {
        const unsigned *first = trial ? b : a, *other = trial ? a : b;
        const unsigned *r = lines + (size_t)trial * (region / 4);
        read_through_l2<<<4 * sms, 256>>>(junk, big / sizeof(float4), sink);
        const unsigned sw = (unsigned)(stride / 4);
        reads<<<sms, 32, smem>>>(r, first[0], nullptr, N, sw);
        reads<<<sms, 32, smem>>>(r, other[0], cyc, N, sw);
        reads<<<sms, 32, smem>>>(r, first[1], cyc + NMAX, N, sw);
        reads<<<sms, 32, smem>>>(r, other[1], cyc + 2 * NMAX, N, sw);
        CK(cudaMemcpy(h, cyc, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++)
            printf("%d %4d %9zu %6u %6u %6u\n", trial, i, (size_t)trial * region + (size_t)i * stride, h[0][i], h[1][i],
                   h[2][i]);
    }
    return 0;
}
