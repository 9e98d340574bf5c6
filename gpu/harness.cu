// coalsim GPU harness: runs the seed kernels on the GPU, captures their real
// address traces, times them, and puts the model's prediction beside the
// measurement.  Modes:
//   harness capture OUTDIR   small (seed-sized) launches, every block captured,
//                            one v1 trace per kernel in OUTDIR, model summary
//   harness counters         the same small launches without capture, once each,
//                            for ncu to count (gpu/run_validate.sh)
//   harness profile          DRAM/L2/L1/shared rates, latencies (idle and DRAM
//                            under load) and block cost for the time model
//   harness sm               the SM's side for the time model: clock, each PTX
//                            operation's throughput and latency, shared and L1
//                            rates, barriers, atomics, back-to-back launches
//   harness pitch            col_sum and copy with other row pitches and block
//                            shapes, the chase with strided chains (gpu/run_pitch.sh)
//   harness big              the large launches once each, for ncu's DRAM counters
//                            (gpu/run_dram.sh)
//   harness time [--json|--csv]
//                            large launches: median of 25 timed runs, checked
//                            against a CPU reference, prediction from a block
//                            sample captured from the same launch
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "coalsim.h"
#include "kernels.cuh"

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "harness: %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const unsigned long long CAP_RECORDS = 8ull << 20;

// ---------------------------------------------------------------- buffers
template <typename T> struct Buf {
    T *d = nullptr;
    size_t n = 0;
    void alloc(size_t count)
    {
        n = count;
        CK(cudaMalloc(&d, n * sizeof(T)));
    }
    std::vector<T> get(size_t count) const
    {
        std::vector<T> h(count);
        CK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
        return h;
    }
    void put(const std::vector<T> &h) { CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); }
};

struct Rng {
    unsigned long long s = 0x9e3779b97f4a7c15ull;
    unsigned next()
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (unsigned)(s >> 33);
    }
};
static std::vector<float> rand_floats(Rng &g, size_t n)
{
    std::vector<float> v(n);
    for (auto &x : v) x = (float)(g.next() % 2000) / 1000.0f - 1.0f;   // random, never all zeros
    return v;
}

// ---------------------------------------------------------------- cases
struct Case {
    std::string name, family;
    std::vector<std::string> labels;
    std::string small_desc, big_desc;
    std::function<void(bool cap)> small;        // seed-sized launch
    std::function<void(bool cap)> big;          // GPU-filling launch
    std::function<void()> prepare;              // before each timed run (untimed)
    std::function<std::string()> check;         // after the big run: "" or what is wrong
    unsigned big_blocks = 1;                    // blocks in the big launch, for sampling
    unsigned sample_blocks = 32;                // blocks of it to capture for the prediction
    bool bandwidth = true;                      // a memory-bound kernel: predict GB/s
};

struct Dev {
    int sms;
    std::string name;
};

// ---------------------------------------------------------------- capture -> model
struct Capture {
    Buf<CapRecord> buf;
    Buf<unsigned long long> count;
    void init()
    {
        buf.alloc(CAP_RECORDS);
        count.alloc(1);
    }
    std::vector<CapRecord> run(const std::function<void(bool)> &launch, unsigned block_stride)
    {
        CK(cudaMemset(count.d, 0, sizeof(unsigned long long)));
        CapState st = {buf.d, count.d, CAP_RECORDS, block_stride};
        CK(cudaMemcpyToSymbol(d_cap, &st, sizeof st));
        launch(true);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        unsigned long long n = count.get(1)[0];
        if (n > CAP_RECORDS) {
            fprintf(stderr, "harness: capture overflow (%llu records); sample more sparsely\n", n);
            exit(1);
        }
        return buf.get(n);
    }
};

static const char *label_of(const Case &c, unsigned l) { return l < c.labels.size() ? c.labels[l].c_str() : "?"; }

static void write_trace(const Case &c, const std::vector<CapRecord> &r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "# captured on the GPU by gpu/harness (capture mode): %s, %s\n", c.name.c_str(), c.small_desc.c_str());
    fprintf(f, "# every block, every active lane, in the order the warps issued the accesses\n");
    for (const CapRecord &x : r)
        fprintf(f, "%s %s %u %s %u %u 0x%llx\n", x.op ? "st" : "ld", x.space ? "shared" : "global", x.size,
                label_of(c, x.label), x.block, x.thread, x.addr);
    fclose(f);
}

// Group records into warp requests (as the v1 reader does) and model them.
static coalsim_stats *model_records(const Case &c, const std::vector<CapRecord> &r, const coalsim_arch &a)
{
    coalsim_stats *st = coalsim_stats_new();
    coalsim_request q{};
    coalsim_result res;
    bool open = false;
    auto flush = [&]() {
        if (!open) return;
        coalsim_model(&a, &q, &res);
        if (coalsim_stats_add(st, &q, &res) != 0) exit(1);
        open = false;
    };
    for (const CapRecord &x : r) {
        unsigned lane = x.thread % 32;
        uint64_t warp = x.thread / 32;
        if (open && (q.op != (coalsim_op)x.op || q.space != (coalsim_space)x.space || q.size != x.size ||
                     q.block != x.block || q.warp != warp || strcmp(q.label, label_of(c, x.label)) != 0 ||
                     (q.active >> lane & 1)))
            flush();
        if (!open) {
            memset(&q, 0, sizeof q);
            q.op = (coalsim_op)x.op;
            q.space = (coalsim_space)x.space;
            q.size = x.size;
            q.block = x.block;
            q.warp = warp;
            q.label = label_of(c, x.label);
            open = true;
        }
        q.active |= 1u << lane;
        q.addr[lane] = x.addr;
    }
    flush();
    return st;
}

struct Totals {
    double greq = 0, gbytes = 0, gsectors = 0, sreq = 0, swave = 0, sideal = 0;
};
static Totals totals(const coalsim_stats *st)
{
    Totals t;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *a = coalsim_stats_get(st, i);
        if (a->space == COALSIM_GLOBAL) {
            t.greq += a->requests;
            t.gbytes += a->requested_bytes;
            t.gsectors += a->sectors;
        } else {
            t.sreq += a->requests;
            t.swave += a->wavefronts;
            t.sideal += a->ideal_wavefronts;
        }
    }
    return t;
}

// ---------------------------------------------------------------- timing
static float median_ms(const std::function<void()> &run, const std::function<void()> &prepare, int reps = 25)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++) {
        if (prepare) prepare();
        run();
    }
    CK(cudaGetLastError());
    std::vector<float> t;
    for (int i = 0; i < reps; i++) {
        if (prepare) prepare();
        CK(cudaEventRecord(a));
        run();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static std::string close_enough(const std::vector<float> &got, const std::vector<float> &want, float rel)
{
    for (size_t i = 0; i < want.size(); i++)
        if (!(std::fabs(got[i] - want[i]) <= rel * (1.0f + std::fabs(want[i])))) {
            char m[128];
            snprintf(m, sizeof m, "element %zu: %g, expected %g", i, got[i], want[i]);
            return m;
        }
    return "";
}

#include "cases.cuh"
#include "profile.cuh"
#include "pitch.cuh"
#include "sm.cuh"

/* One random cycle over N lines (Sattolo's shuffle) written into LINES as
 * fill_lines lays it out, and in STARTS, K lines evenly spaced along it. */
static void make_cycle(unsigned *lines, size_t n, size_t k, unsigned *starts)
{
    std::vector<unsigned> next(n), pick(k);
    for (size_t i = 0; i < n; i++) next[i] = (unsigned)i;
    Rng g;
    for (size_t i = n - 1; i > 0; i--) std::swap(next[i], next[g.next() % i]);
    std::vector<unsigned> order(n);
    unsigned p = 0;
    for (size_t i = 0; i < n; i++, p = next[p]) order[i] = p;
    for (size_t c = 0; c < k; c++) pick[c] = order[k <= n ? c * n / k : c % n];
    unsigned *dnext;
    CK(cudaMalloc(&dnext, n * sizeof(unsigned)));
    CK(cudaMemcpy(dnext, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    fill_lines<<<(unsigned)((n * 32 + 255) / 256), 256>>>(lines, dnext, n);
    CK(cudaMemcpy(starts, pick.data(), k * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
    CK(cudaFree(dnext));
}

/* A random cycle over groups of 16 lines STRIDE lines apart (group g of
 * block b: lines b * 16 * STRIDE + o + c * STRIDE, c = 0..15), written into
 * LINES so that chain c goes from group to group through their c-th lines;
 * STARTS: K groups' 16 lines, evenly spaced along the cycle.  N: lines, a
 * multiple of 16 * STRIDE. */
static void make_group_cycle(unsigned *lines, size_t n, size_t stride, size_t k, unsigned *starts)
{
    const size_t groups = n / 16;
    std::vector<unsigned> next(groups), order(groups), first(groups), nextl(n), pick(k * 16);
    for (size_t g = 0; g < groups; g++) {
        next[g] = (unsigned)g;
        first[g] = (unsigned)(g / stride * 16 * stride + g % stride);
    }
    Rng rg;
    for (size_t i = groups - 1; i > 0; i--) std::swap(next[i], next[rg.next() % i]);
    for (size_t g = 0; g < groups; g++)
        for (size_t c = 0; c < 16; c++) nextl[first[g] + c * stride] = (unsigned)(first[next[g]] + c * stride);
    unsigned p = 0;
    for (size_t i = 0; i < groups; i++, p = next[p]) order[i] = p;
    for (size_t w = 0; w < k; w++)
        for (size_t c = 0; c < 16; c++) pick[w * 16 + c] = (unsigned)(first[order[w * groups / k]] + c * stride);
    unsigned *dnext;
    CK(cudaMalloc(&dnext, n * sizeof(unsigned)));
    CK(cudaMemcpy(dnext, nextl.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    fill_lines<<<(unsigned)((n * 32 + 255) / 256), 256>>>(lines, dnext, n);
    CK(cudaMemcpy(starts, pick.data(), k * 16 * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
    CK(cudaFree(dnext));
}

/* Round trips of CHAINS loads timed one by one (chase_timed, 200 hops, the
 * second half kept), W warps a SM in blocks of up to 32 warps, through a
 * random cycle of N lines: per round trip over the mean, and the mean over
 * blocks and hops of the block's slowest warp's round trip over the mean. */
struct Trips {
    int per;
    double mean, cv, p50, p90, p99, max, block_max, ns_hop;
};
static Trips timed_trips(const Dev &dev, unsigned *lines, size_t n, unsigned *starts, int chains, int w)
{
    const int hops = 200, per = w < 32 ? w : 32;
    const size_t warps = (size_t)dev.sms * w;
    unsigned *cyc;
    CK(cudaMalloc(&cyc, warps * hops * sizeof(unsigned)));
    make_cycle(lines, n, warps * chains, starts);
    auto run = [&] {
        if (chains == 1) chase_timed<1><<<dev.sms * (w / per), 32 * per>>>(lines, starts, hops, cyc);
        else chase_timed<16><<<dev.sms * (w / per), 32 * per>>>(lines, starts, hops, cyc);
    };
    float ms = median_ms(run, nullptr, 5);
    run();
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> hc(warps * hops);
    CK(cudaMemcpy(hc.data(), cyc, hc.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaFree(cyc));
    /* the first hops find the cycle warming up: use the second half */
    std::vector<double> v;
    double sum = 0, sq = 0, bmax = 0;
    size_t nb = 0;
    for (size_t b = 0; b < warps / per; b++)
        for (int h = hops / 2; h < hops; h++) {
            double m = 0;
            for (int k = 0; k < per; k++) {
                double x = hc[(b * per + k) * hops + h];
                v.push_back(x), sum += x, sq += x * x;
                if (x > m) m = x;
            }
            bmax += m, nb++;
        }
    std::sort(v.begin(), v.end());
    Trips r;
    r.per = per;
    r.mean = sum / v.size();
    r.cv = std::sqrt(std::max(0.0, sq / v.size() - r.mean * r.mean)) / r.mean;
    auto q = [&](double f) { return v[(size_t)(f * (v.size() - 1))] / r.mean; };
    r.p50 = q(0.5), r.p90 = q(0.9), r.p99 = q(0.99), r.max = v.back() / r.mean;
    r.block_max = bmax / nb / r.mean;
    r.ns_hop = ms * 1e6 / hops;
    return r;
}

/* harness pitch: the kernels that read rows 32 KiB apart, with other row
 * pitches and other block shapes, and the 16-chain chase with its chains a
 * stride apart (0: random lines).  One table on stdout. */
static int pitch(const Dev &dev)
{
    const int N = 8192;
    const int pitches[] = {8192, 8192 + 32, 8192 + 64, 8192 + 128, 8192 + 1024};
    const size_t cap = (size_t)N * (8192 + 1024);
    float *A, *B;
    CK(cudaMalloc(&A, cap * sizeof(float)));
    CK(cudaMalloc(&B, cap * sizeof(float)));
    CK(cudaMemset(A, 0, cap * sizeof(float)));
    printf("# harness pitch: median of 25 runs, us; GB/s = bytes the kernel must move / time\n");
    printf("%-34s %8s %10s %8s\n", "kernel", "pitch", "time us", "GB/s");
    for (int p : pitches) {
        float ms = median_ms([&] { col_sum_pitch<<<N / 256, 256>>>(A, B, N, p); }, nullptr);
        printf("%-34s %8d %10.1f %8.1f\n", "col_sum <<<32, 256>>>", p, ms * 1e3, (double)N * N * 4 / (ms * 1e6));
    }
    /* blocks (32, 32), (32, 8), and (16, 16) as transposeSmem's: a warp
     * reads two 64-byte half lines 32 KiB apart */
    const int shapes[][2] = {{32, 32}, {32, 8}, {16, 16}};
    for (const auto &sh : shapes)
        for (int p : pitches) {
            const int bx = sh[0], by = sh[1];
            float ms = median_ms([&] { copy_pitch<<<dim3(N / bx, N / by), dim3(bx, by)>>>(A, B, N, p); }, nullptr);
            char name[64];
            snprintf(name, sizeof name, "copy <<<(%d, %d), (%d, %d)>>>", N / bx, N / by, bx, by);
            printf("%-34s %8d %10.1f %8.1f\n", name, p, ms * 1e3, (double)N * N * 8 / (ms * 1e6));
        }
    {
        float ms = median_ms([&] { transposeSmem<false, 0><<<dim3(N / 16, N / 16), dim3(16, 16)>>>(B, A, N, N); },
                             nullptr);
        printf("%-34s %8d %10.1f %8.1f\n", "transposeSmem (seed) <<<(512, 512), (16, 16)>>>", N, ms * 1e3,
               (double)N * N * 8 / (ms * 1e6));
    }
    for (int t : {1024, 256}) {
        const size_t n = (size_t)N * N;
        float ms = median_ms([&] { copy_flat<<<(unsigned)(n / t), t>>>(A, B, n); }, nullptr);
        char name[64];
        snprintf(name, sizeof name, "copy_flat <<<%zu, %d>>>", n / t, t);
        printf("%-34s %8s %10.1f %8.1f\n", name, "-", ms * 1e3, (double)n * 8 / (ms * 1e6));
    }
    /* the seed's own col_sum beside the pitched one, on zeros and on random data */
    for (int rnd = 0; rnd < 2; rnd++) {
        if (rnd) fill_random<<<(unsigned)((cap + 255) / 256), 256>>>(A, cap);
        float ms = median_ms([&] { col_sum<false><<<N / 256, 256>>>(A, B, N); }, nullptr);
        float mp = median_ms([&] { col_sum_pitch<<<N / 256, 256>>>(A, B, N, N); }, nullptr);
        printf("%-34s %8d %10.1f %8.1f\n", rnd ? "col_sum (seed), random data" : "col_sum (seed), zeros", N, ms * 1e3,
               (double)N * N * 4 / (ms * 1e6));
        printf("%-34s %8d %10.1f %8.1f\n", rnd ? "col_sum_pitch, random data" : "col_sum_pitch, zeros", N, mp * 1e3,
               (double)N * N * 4 / (mp * 1e6));
        float mc = median_ms([&] { copy<false><<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A, B, N); }, nullptr);
        printf("%-34s %8d %10.1f %8.1f\n", rnd ? "copy (seed), random data" : "copy (seed), zeros", N, mc * 1e3,
               (double)N * N * 8 / (mc * 1e6));
    }
    /* row_sum is L1-bound on 32 SMs: is a SM's L1 faster when only 32 are
     * busy?  The profile's L1 read (32 KiB windows, __ldca) on 32 and on 132
     * SMs, one block of 8 warps each, and the profile's 4 blocks a SM */
    {
        float *sink;
        CK(cudaMalloc(&sink, sizeof(float)));
        const size_t l1n4 = 2048;
        const int reps = 200;
        printf("%-34s %8s %10s %8s\n", "L1 reads (bw_read<2>)", "SMs", "time us", "GB/s/SM");
        const unsigned grids[][2] = {{32, 1}, {(unsigned)dev.sms, 1}, {(unsigned)dev.sms, 4}};
        for (const auto &g : grids) {
            const unsigned blocks = g[0] * g[1];
            float ms = median_ms([&] { bw_read<2><<<blocks, 256>>>((const float4 *)A, l1n4, reps, sink); }, nullptr);
            char name[64];
            snprintf(name, sizeof name, "<<<%u, 256>>>, %u block%s a SM", blocks, g[1], g[1] == 1 ? "" : "s");
            printf("%-34s %8u %10.1f %8.1f\n", name, g[0], ms * 1e3, (double)blocks * l1n4 * 16 * reps / (ms * 1e6) / g[0]);
        }
        float ms = median_ms([&] { row_sum<false><<<N / 256, 256>>>(A, B, N); }, nullptr);
        printf("%-34s %8d %10.1f %8.1f\n", "row_sum (seed) <<<32, 256>>>", 32, ms * 1e3, (double)N * N * 4 / (ms * 1e6) / 32);
        CK(cudaFree(sink));
    }
    CK(cudaFree(B));
    /* the chase: 1 GiB of lines in A, 16 chains a warp a STRIDE apart */
    unsigned *lines = (unsigned *)A, *starts;
    CK(cudaMalloc(&starts, (size_t)dev.sms * 64 * 16 * sizeof(unsigned)));
    const size_t all = cap * sizeof(float) / 128;
    printf("%-34s %8s %10s %8s\n", "chase, 16 chains a warp", "stride B", "ns a hop", "GB/s");
    for (size_t st : {0, 1, 8, 32, 256, 258, 512}) {
        for (int cfg = 0; cfg < 2; cfg++) {
            /* 1 warp on each SM, or col_sum's 32 blocks of 8 warps */
            const unsigned blocks = cfg ? 32 : dev.sms, threads = cfg ? 256 : 32;
            const size_t warps = (size_t)blocks * threads / 32, hops = 500;
            if (st == 0) make_cycle(lines, all, warps * 16, starts);
            else make_group_cycle(lines, all / (16 * st) * 16 * st, st, warps, starts);
            float ms = median_ms([&] { chase<16, 0><<<blocks, threads>>>(lines, starts, (int)hops); }, nullptr);
            char name[64];
            snprintf(name, sizeof name, "chase <<<%u, %u>>>", blocks, threads);
            double ns = ms * 1e6 / hops;
            printf("%-34s %8zu %10.1f %8.1f\n", name, st * 128, ns, warps * 16 * 128 / ns);
        }
    }
    /* each round trip timed: 1 or 16 loads, 1 to 64 warps a SM in blocks of
     * up to 32 warps; the mean, spread and percentiles of a round trip, and
     * the mean over blocks and hops of the slowest warp's round trip in its
     * block (a block lasts as long as its slowest warp) */
    printf("# timed round trips (SM cycles): W = warps a block; max/mean = mean over blocks and hops of the\n"
           "# block's slowest warp's round trip, over the mean round trip\n");
    printf("%-8s %6s %4s %9s %6s %6s %6s %6s %6s %9s %8s\n", "loads", "warps", "W", "mean", "cv", "p50", "p90", "p99",
           "max", "max/mean", "ns/hop");
    for (int chains : {1, 16})
        for (int w : {1, 8, 16, 32, 64}) {
            Trips r = timed_trips(dev, lines, all, starts, chains, w);
            printf("%-8d %6d %4d %9.0f %6.3f %6.3f %6.3f %6.3f %6.3f %9.3f %8.1f\n", chains, w, r.per, r.mean, r.cv,
                   r.p50, r.p90, r.p99, r.max, r.block_max, r.ns_hop);
        }
    CK(cudaFree(starts));
    CK(cudaFree(A));
    return 0;
}

/* ns per hop of chase<CHAINS, MODE> with WARPS warps on each SM (a power of
 * two), through a cycle of N lines in LINES. */
template <int CHAINS, int MODE>
static double hop_ns(const Dev &dev, unsigned *lines, size_t n, unsigned *starts, int hops, int warps = 1)
{
    make_cycle(lines, n, (size_t)dev.sms * warps * CHAINS, starts);
    const int per = warps < 32 ? warps : 32;      /* warps a block, blocks of at most 1024 threads */
    float ms = median_ms([&] { chase<CHAINS, MODE><<<dev.sms * (warps / per), 32 * per>>>(lines, starts, hops); },
                         nullptr);
    return ms * 1e6 / hops;
}

/* harness profile: the rates the hierarchy model's time prediction uses,
 * printed as a device profile file (gpu/profiles/). */
static int profile(const Dev &dev)
{
    float *sink;
    CK(cudaMalloc(&sink, sizeof(float)));
    const size_t big4 = (size_t)1 << 26;                      /* 1 GiB of float4 */
    float4 *buf;
    CK(cudaMalloc(&buf, big4 * sizeof(float4)));
    CK(cudaMemset(buf, 0, big4 * sizeof(float4)));
    const unsigned grid = dev.sms * 16, block = 256;
    float dram = median_ms([&] { bw_read<0><<<grid, block>>>(buf, big4, 1, sink); }, nullptr);
    /* read + write: the float4 copy of half the buffer into the other half */
    float copyt = median_ms([&] { copy_float4<false><<<grid, block>>>(buf, buf + big4 / 2, big4 / 2); }, nullptr);
    const size_t l2n4 = (size_t)1 << 20;                      /* 16 MiB: stays in the 50 MB L2 */
    const int l2reps = 40;
    float l2 = median_ms([&] { bw_read<1><<<grid, block>>>(buf, l2n4, l2reps, sink); }, nullptr);
    const size_t l1n4 = 2048;                                 /* 32 KiB windows */
    const int l1reps = 200;
    float l1 = median_ms([&] { bw_read<2><<<dev.sms * 4, block>>>(buf, l1n4, l1reps, sink); }, nullptr);
    const int sreps = 4096;
    float sm = median_ms([&] { smem_read<<<dev.sms * 8, 1024>>>(sreps, sink); }, nullptr);
    float launch = median_ms([&] { empty_kernel<<<grid, block>>>(); }, nullptr);
    const size_t slines = (size_t)1 << 17;                   /* 16 MiB of 128-byte lines */
    const int sreps2 = 400;                                   /* about 0.3 ms (loads) */
    float scl = median_ms([&] { scatter<false><<<grid, block>>>((float *)buf, slines, sreps2, sink); }, nullptr);
    float scr = median_ms([&] { scatter<true><<<grid, block>>>((float *)buf, slines, sreps2, sink); }, nullptr);
    const int coln = 8192;                                    /* 256 MiB of floats: past L2 */
    float scs = median_ms([&] { column_store<<<dim3(coln / 32, coln / 32), dim3(32, 8)>>>((float *)buf, coln); }, nullptr);
    /* round trips: 1 or 16 independent line requests per warp, one warp per
     * SM, through 1 GiB (DRAM), 16 MiB with __ldcg (L2), 16 KiB (L1) and
     * 8 KiB of shared memory */
    unsigned *lines = (unsigned *)buf, *starts;
    CK(cudaMalloc(&starts, (size_t)dev.sms * 64 * 16 * sizeof(unsigned)));
    const size_t dl = big4 * 16 / 128, l2l = (size_t)1 << 17;
    double lat[4][2] = {
        {hop_ns<1, 0>(dev, lines, 128, starts, 20000), hop_ns<16, 0>(dev, lines, 128, starts, 20000)},
        {hop_ns<1, 1>(dev, lines, l2l, starts, 4000), hop_ns<16, 1>(dev, lines, l2l, starts, 4000)},
        {hop_ns<1, 0>(dev, lines, dl, starts, 1000), hop_ns<16, 0>(dev, lines, dl, starts, 1000)},
        {hop_ns<1, 2>(dev, lines, 64, starts, 50000), hop_ns<16, 2>(dev, lines, 64, starts, 50000)},
    };
    /* DRAM latency under load: 16 chains a warp, 1 to 64 warps a SM */
    const int lw[] = {1, 2, 4, 8, 16, 32, 64};
    double loaded[7];
    for (int i = 0; i < 7; i++) loaded[i] = hop_ns<16, 0>(dev, lines, dl, starts, 500, lw[i]);
    /* a block waits for its slowest warp: 16-load round trips timed one by
     * one, blocks of 8, 16 and 32 warps, one block a SM */
    const int tw[] = {8, 16, 32};
    double tail[3];
    for (int i = 0; i < 3; i++) tail[i] = timed_trips(dev, lines, dl, starts, 16, tw[i]).block_max;
    /* a block's own cost: empty blocks, 66 waves against 2 */
    float e256 = median_ms([&] { empty_kernel<<<dev.sms * 8 * 66, 256>>>(); }, nullptr);
    float e256s = median_ms([&] { empty_kernel<<<dev.sms * 8 * 2, 256>>>(); }, nullptr);
    float e1024 = median_ms([&] { empty_kernel<<<dev.sms * 2 * 66, 1024>>>(); }, nullptr);
    float e1024s = median_ms([&] { empty_kernel<<<dev.sms * 2 * 2, 1024>>>(); }, nullptr);
    CK(cudaFree(starts));
    double dram_gbs = big4 * 16.0 / (dram * 1e6);
    double l2_gbs = l2n4 * 16.0 * l2reps / (l2 * 1e6);
    double l1_gbs = (double)dev.sms * 4 * l1n4 * 16.0 * l1reps / (l1 * 1e6);
    double waves = (double)dev.sms * 8 * (1024 / 32) * sreps;      /* warps x requests, one wavefront each */
    printf("# coalsim device profile, measured by gpu/harness profile (median of 25 runs each)\n");
    printf("device = %s\nsms = %d\n", dev.name.c_str(), dev.sms);
    printf("dram_read_gbs = %.1f\n", dram_gbs);
    printf("dram_copy_gbs = %.1f\n", big4 * 16.0 / (copyt * 1e6));    /* bytes read + written */
    printf("l2_read_gbs = %.1f\n", l2_gbs);
    printf("l1_read_gbs = %.1f\n", l1_gbs);
    printf("smem_wavefronts_per_ns = %.2f\n", waves / (sm * 1e6));
    printf("launch_us = %.2f\n", launch * 1e3);
    printf("scatter_load_lines_per_ns = %.2f\n", (double)slines * sreps2 / (scl * 1e6));
    printf("scatter_store_lines_per_ns = %.2f\n", (double)coln * coln / (scs * 1e6));
    printf("# scatter_store measured as a transpose writes (column_store); random lines in L2: %.2f\n",
           (double)slines * sreps2 / (scr * 1e6));
    static const char *level[4] = {"l1", "l2", "dram", "smem"};
    for (int l = 0; l < 4; l++) printf("lat_%s_ns = %.1f\nlat16_%s_ns = %.1f\n", level[l], lat[l][0], level[l], lat[l][1]);
    /* DRAM GB/s moved by the loaded chases and the ns a hop took then */
    printf("dram_loaded =");
    for (int i = 0; i < 7; i++) printf(" %.1f:%.1f", (double)dev.sms * lw[i] * 16 * 128 / loaded[i], loaded[i]);
    printf("\n");
    printf("block_tail = %d:%.3f %d:%.3f %d:%.3f\n", tw[0], tail[0], tw[1], tail[1], tw[2], tail[2]);
    /* blocks start one after another on a SM: ns per 256-thread block */
    printf("block_ns = %.1f\n", (e256 - e256s) * 1e6 / (64 * 8));
    printf("# block_ns measured with 1024-thread blocks: %.1f\n", (e1024 - e1024s) * 1e6 / (64 * 2));
    CK(cudaFree(buf));
    CK(cudaFree(sink));
    return 0;
}

// ---------------------------------------------------------------- main
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: harness capture OUTDIR | harness counters | harness big | harness time [--json|--csv] | "
                        "harness profile | harness sm | harness pitch\n");
        return 2;
    }
    std::string mode = argv[1];
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    Dev dev = {prop.multiProcessorCount, prop.name};
    coalsim_arch arch;
    coalsim_arch_preset("hopper", &arch);
    std::vector<Case> cases = make_cases(dev);
    Capture cap;
    cap.init();

    if (mode == "capture") {
        if (argc < 3) return 2;
        printf("%-26s %10s %12s %10s %12s\n", "kernel", "records", "sectors/req", "efficiency", "wavefr/req");
        for (const Case &c : cases) {
            std::vector<CapRecord> r = cap.run(c.small, 1);
            std::string path = std::string(argv[2]) + "/" + c.name + ".trace";
            write_trace(c, r, path.c_str());
            coalsim_stats *st = model_records(c, r, arch);
            Totals t = totals(st);
            printf("%-26s %10zu %12.2f %9.1f%% %12.2f\n", c.name.c_str(), r.size(), t.greq ? t.gsectors / t.greq : 0,
                   t.gsectors ? 100 * t.gbytes / (32 * t.gsectors) : 0, t.sreq ? t.swave / t.sreq : 0);
            coalsim_stats_free(st);
        }
        return 0;
    }
    if (mode == "profile") return profile(dev);
    if (mode == "sm") return sm_profile(dev);
    if (mode == "pitch") return pitch(dev);
    if (mode == "big") {       /* the GPU-filling launches once each, for ncu's DRAM counters */
        for (const Case &c : cases) {
            if (c.prepare) c.prepare();
            c.big(false);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            printf("LAUNCH %s\n", c.name.c_str());
        }
        return 0;
    }
    if (mode == "counters") {
        for (const Case &c : cases) {
            c.small(false);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            printf("LAUNCH %s\n", c.name.c_str());
        }
        return 0;
    }
    if (mode != "time") return 2;
    std::string fmt = argc > 2 ? argv[2] : "";

    // the ceilings: cudaMemcpy device to device and the float4 copy, same run
    size_t nbytes = 1ull << 30;
    Buf<char> m1, m2;
    m1.alloc(nbytes);
    m2.alloc(nbytes);
    CK(cudaMemset(m1.d, 1, nbytes));
    float memcpy_ms = median_ms([&] { CK(cudaMemcpyAsync(m2.d, m1.d, nbytes, cudaMemcpyDeviceToDevice)); }, nullptr);
    double memcpy_gbs = 2.0 * nbytes / (memcpy_ms * 1e6);
    CK(cudaFree(m1.d));
    CK(cudaFree(m2.d));

    struct Row {
        std::string name;
        double spr, eff, wpr, ms, gbs, pred, ratio;
        bool bw;
        std::string check;
    };
    std::vector<Row> rows;
    double peak = 0;
    for (const Case &c : cases) {
        unsigned stride = std::max(1u, (c.big_blocks + c.sample_blocks - 1) / c.sample_blocks);
        if (c.prepare) c.prepare();
        std::vector<CapRecord> r = cap.run(c.big, stride);
        coalsim_stats *st = model_records(c, r, arch);
        Totals t = totals(st);
        coalsim_stats_free(st);
        unsigned sampled = (c.big_blocks + stride - 1) / stride;
        double scale = (double)c.big_blocks / sampled;
        float ms = median_ms([&] { c.big(false); }, c.prepare);
        std::string bad = c.check ? c.check() : "";
        Row row;
        row.name = c.name;
        row.spr = t.greq ? t.gsectors / t.greq : 0;
        row.eff = t.gsectors ? t.gbytes / (32 * t.gsectors) : 0;
        row.wpr = t.sreq ? t.swave / t.sreq : 0;
        row.ms = ms;
        row.gbs = t.gbytes * scale / (ms * 1e6);    // bytes the warps asked for / time
        row.bw = c.bandwidth;
        row.check = bad.empty() ? "ok" : bad;
        if (c.name == "copy_float4") peak = 32 * t.gsectors * scale / (ms * 1e6);
        rows.push_back(row);
    }
    for (Row &row : rows) {
        row.pred = row.bw ? peak * row.eff : 0;
        row.ratio = row.bw && row.pred > 0 ? row.gbs / row.pred : 0;
    }
    int failures = 0;
    for (const Row &row : rows) failures += row.check != "ok";
    if (fmt == "--json") {
        printf("{\"device\": \"%s\", \"sms\": %d, \"memcpy_d2d_gbs\": %.1f, \"peak_copy_gbs\": %.1f, \"kernels\": [",
               dev.name.c_str(), dev.sms, memcpy_gbs, peak);
        for (size_t i = 0; i < rows.size(); i++) {
            const Row &w = rows[i];
            printf("%s\n  {\"kernel\": \"%s\", \"sectors_per_request\": %.4g, \"efficiency\": %.4g, "
                   "\"wavefronts_per_request\": %.4g, \"ms\": %.5g, \"gbs\": %.5g, \"predicted_gbs\": %.5g, "
                   "\"ratio\": %.4g, \"check\": \"%s\"}",
                   i ? "," : "", w.name.c_str(), w.spr, w.eff, w.wpr, w.ms, w.gbs, w.pred, w.ratio, w.check.c_str());
        }
        printf("]}\n");
    } else if (fmt == "--csv") {
        printf("kernel,sectors_per_request,efficiency,wavefronts_per_request,ms,gbs,predicted_gbs,ratio,check\n");
        for (const Row &w : rows)
            printf("%s,%.4g,%.4g,%.4g,%.5g,%.5g,%.5g,%.4g,%s\n", w.name.c_str(), w.spr, w.eff, w.wpr, w.ms, w.gbs,
                   w.pred, w.ratio, w.check.c_str());
    } else {
        printf("device: %s, %d SMs\n", dev.name.c_str(), dev.sms);
        printf("cudaMemcpy D2D: %.1f GB/s (read + write); float4 copy: %.1f GB/s = %.1f%% of it (peak used below)\n\n",
               memcpy_gbs, peak, 100 * peak / memcpy_gbs);
        printf("%-24s %11s %10s %10s %10s %9s %9s %6s  %s\n", "kernel", "sectors/req", "efficiency", "wavefr/req",
               "time ms", "GB/s", "pred GB/s", "ratio", "check");
        for (const Row &w : rows) {
            if (w.bw)
                printf("%-24s %11.2f %9.1f%% %10.2f %10.4f %9.1f %9.1f %6.2f  %s\n", w.name.c_str(), w.spr,
                       100 * w.eff, w.wpr, w.ms, w.gbs, w.pred, w.ratio, w.check.c_str());
            else
                printf("%-24s %11.2f %9.1f%% %10.2f %10.4f %9s %9s %6s  %s\n", w.name.c_str(), w.spr, 100 * w.eff,
                       w.wpr, w.ms, "-", "-", "-", w.check.c_str());
        }
        printf("\nGB/s = bytes the warps requested (model, scaled from a block sample) / median time;\n"
               "pred GB/s = float4-copy GB/s x degree of coalescing; ratio = measured / predicted.\n");
    }
    return failures ? 1 : 0;
}
