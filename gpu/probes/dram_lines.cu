// What whole 128-byte lines cost in DRAM when their neighbours in memory come much later.
//
// The tiled transposes of 16384^2 floats move the bytes of a copy (ncu agrees) but take longer:
// copySharedMem 835 us, transposeNoBankConflicts 900, transposeDiagonal 1011 on the H100 (the
// model: 777, 772, 802).  Each of their blocks reads 32 lines and writes 32 lines, one line a row
// of the matrix; what differs is which blocks run at once.  In the copy, neighbouring blocks take
// the neighbouring lines of the same rows, so DRAM sees whole rows of memory at a time.  In the
// transposes, neighbouring blocks write (and, diagonally, read) the next 32 rows' lines of one
// column, so the lines that go to DRAM together are each in a different row of memory.
//
// This probe copies, reads or writes LINES 128-byte lines (a warp a line, 4 bytes a lane, four
// lines a warp in flight; N, RC and WC powers of two).  The k-th line the warps take (in launch order) is line
// (k % R) * C + k / R, C lines to a row of C*128 bytes and R = LINES / C rows: consecutive lines
// walk down a column, C*128 bytes apart, and a row's next line comes LINES/C lines later.  C = 1
// is a stream.  The read side and the write side have their own C (RC, WC).
//
// dram_lines            every configuration, median of 9 back-to-back launches of 1 GiB a side
// dram_lines once MODE RC WC    one launch (for ncu): MODE copy | read | write
#include <cstring>
#include "timing.cuh"

// Shifts and masks, not / and %: a 64-bit division costs a warp about 190 cycles of issue and
// would be what the probe measured (as sm_fill.cu's first version did).  LR = log2(rows), LC = log2(C).
__device__ __forceinline__ unsigned long long place(unsigned long long k, unsigned lr, unsigned lc)
{
    return ((k & ((1ull << lr) - 1)) << lc) + (k >> lr);
}

// mode 0 copy, 1 read only, 2 write only.  ILP lines a warp in flight: the next ILP loads wait
// for the last of these (their addresses depend on its value), so that no more are in flight.
template <int ILP>
__global__ void lines(const float *src, float *dst, unsigned long long n, unsigned rc, unsigned wc, int mode,
                      float *sink)
{
    const unsigned lane = threadIdx.x & 31;
    const unsigned long long warps = (unsigned long long)gridDim.x * blockDim.x / 32;
    const unsigned long long w = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
    const unsigned ln = 63 - __clzll(n), lrc = 31 - __clz(rc), lwc = 31 - __clz(wc);
    float acc = 0.f;
    unsigned long long dep = 0;              /* 0 unless the buffer holds 1234.5f: it is zeros */
    for (unsigned long long k = w; k < n; k += ILP * warps) {
        float v[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            unsigned long long kk = k + j * warps;
            v[j] = 0.f;
            if (kk < n && mode != 2) v[j] = __ldcg(&src[(place(kk, ln - lrc, lrc) ^ dep) * 32 + lane]);
        }
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            unsigned long long kk = k + j * warps;
            if (kk >= n) continue;
            if (mode == 1) acc += v[j];
            else dst[place(kk, ln - lwc, lwc) * 32 + lane] = mode == 2 ? (float)lane : v[j];
        }
        dep = v[ILP - 1] == 1234.5f;
    }
    if (acc == 1234.5f) *sink = acc;
}

struct cfg {
    int mode;
    unsigned rc, wc;
    int ilp = 4, blocks_per_sm = 2, threads = 1024;
};

static const char *mode_name[] = {"copy", "read", "write"};

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const unsigned long long n = 1ull << 23;               /* lines a side: 1 GiB */
    float *src, *dst, *sink;
    CK(cudaMalloc(&src, n * 128));
    CK(cudaMalloc(&dst, n * 128));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMemset(src, 0, n * 128));
    CK(cudaMemset(dst, 0, n * 128));
    auto launch = [&](const cfg &c) {
        const int b = c.blocks_per_sm * sms;
        if (c.ilp == 1) lines<1><<<b, c.threads>>>(src, dst, n, c.rc, c.wc, c.mode, sink);
        else if (c.ilp == 2) lines<2><<<b, c.threads>>>(src, dst, n, c.rc, c.wc, c.mode, sink);
        else lines<4><<<b, c.threads>>>(src, dst, n, c.rc, c.wc, c.mode, sink);
    };
    if (argc == 5 && !strcmp(argv[1], "once")) {
        cfg c = {-1, (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4])};
        for (int m = 0; m < 3; m++)
            if (!strcmp(argv[2], mode_name[m])) c.mode = m;
        if (c.mode < 0 || !c.rc || !c.wc || (c.rc & (c.rc - 1)) || (c.wc & (c.wc - 1)) || c.rc > n || c.wc > n) {
            fprintf(stderr, "usage: dram_lines once copy|read|write RC WC (powers of two)\n");
            return 2;
        }
        launch(c);
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        return 0;
    }
    const unsigned cs[] = {2, 4, 8, 16, 32, 64, 128, 512};
    std::vector<cfg> cases;
    for (int m = 0; m < 3; m++) {
        cases.push_back({m, 1, 1});
        for (unsigned c : cs) cases.push_back({m, m == 2 ? 1 : c, m == 1 ? 1 : c});
    }
    for (unsigned c : cs) cases.push_back({0, 1, c});     /* copy, writes scattered (the transposes) */
    for (unsigned c : cs) cases.push_back({0, c, 1});     /* copy, reads scattered */
    /* few lines in flight: the time is the latency's (lines / in flight x latency) */
    for (int wps : {8, 16, 32, 64})
        for (unsigned c : {1u, 2u, 8u, 64u, 512u})
            cases.push_back({1, c, 1, 1, wps == 64 ? 2 : 1, wps == 64 ? 1024 : wps * 32});
    /* the transposes' blocks: two loads a thread in flight, 64 warps a SM */
    for (unsigned rc : {1u, 512u})
        for (unsigned wc : {1u, 512u}) cases.push_back({0, rc, wc, 2, 4, 512});
    printf("# device = %s, sms = %d; %llu lines of 128 bytes a side\n", prop.name, sms, n);
    printf("# C: lines to a row of memory, consecutive lines C*128 bytes apart (1: a stream)\n");
    printf("# ilp: lines a warp in flight; ns_per_line_in_flight: us x lines in flight (warps x ilp) / lines,\n"
           "#   a line's latency where the launch is bound by how many are in flight\n");
    printf("# mode  rc  wc  row_bytes_r  row_bytes_w  ilp  warps_per_sm  us  GB_per_s  ns_per_line_in_flight"
           " (bytes moved: read + written; median of 9)\n");
    for (const cfg &c : cases) {
        float ms = median_ms([&] { launch(c); }, 9);
        double bytes = (double)n * 128 * (c.mode == 0 ? 2 : 1);
        const int wps = c.blocks_per_sm * c.threads / 32;
        const double inflight = (double)sms * wps * c.ilp;
        printf("%-5s %4u %4u %10u %10u %3d %4d %9.1f %8.1f %8.1f\n", mode_name[c.mode], c.rc, c.wc, c.rc * 128,
               c.wc * 128, c.ilp, wps, ms * 1e3, bytes / (ms * 1e6), ms * 1e6 * inflight / (double)n);
    }
    return 0;
}
