// Microbenchmarks of the SM for the time model's instruction terms
// (harness sm): the SM clock, each PTX operation's throughput at full
// occupancy and its dependent latency, shared and L1 rates, barriers, the
// cost of a launch among back-to-back launches, and atomics.  Every
// operation is written in inline PTX, so what is measured is the PTX the
// interpreter executes; run_time_model.sh keeps the SASS it became
// (sm_sass.txt), which says how many machine instructions each one is.
#pragma once

// A chain of one PTX operation: x = OP(x, z, y), then z takes the old x, so
// each step depends on the one before (an add chain is a Fibonacci sequence:
// ptxas cannot fold two steps into one three-input add).  STEPS: PTX
// instructions a step.
#define SM_OP(NAME, TYPE, CON, ASM, STEPS)                                                             \
    struct NAME {                                                                                      \
        typedef TYPE T;                                                                                \
        static constexpr int ptx = STEPS;                                                              \
        static constexpr const char *name = #NAME;                                                     \
        static __device__ __forceinline__ void step(T &x, T &z, T y)                                   \
        {                                                                                              \
            T t = x;                                                                                   \
            asm volatile(ASM : "+" CON(x) : CON(y), CON(z));                                           \
            z = t;                                                                                     \
        }                                                                                              \
    };

SM_OP(op_ffma, float, "f", "fma.rn.f32 %0, %0, %1, %2;", 1)
SM_OP(op_fadd, float, "f", "add.f32 %0, %0, %2;", 1)
SM_OP(op_iadd, unsigned, "r", "add.u32 %0, %0, %2;", 1)
SM_OP(op_imad, unsigned, "r", "mad.lo.u32 %0, %0, %1, %2;", 1)
SM_OP(op_add64, unsigned long long, "l", "add.u64 %0, %0, %2;", 1)
SM_OP(op_dfma, double, "d", "fma.rn.f64 %0, %0, %1, %2;", 1)
SM_OP(op_ex2, float, "f", "ex2.approx.ftz.f32 %0, %0;", 1)
SM_OP(op_rsqrt, float, "f", "rsqrt.approx.ftz.f32 %0, %0;", 1)
SM_OP(op_hfma2, unsigned, "r", "fma.rn.f16x2 %0, %0, %1, %2;", 1)
SM_OP(op_cvt, unsigned, "r", "{ .reg .f32 t; cvt.rn.f32.s32 t, %0; cvt.rzi.s32.f32 %0, t; }", 2)
SM_OP(op_shfl, unsigned, "r", "shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;", 1)
SM_OP(op_popc, unsigned, "r", "popc.b32 %0, %0;", 1)
SM_OP(op_divu, unsigned, "r", "div.u32 %0, %0, %1;", 1)
SM_OP(op_remu, unsigned, "r", "rem.u32 %0, %0, %1;", 1)
SM_OP(op_divf, float, "f", "div.rn.f32 %0, %0, %1;", 1)
SM_OP(op_sqrtf, float, "f", "sqrt.rn.f32 %0, %0;", 1)
SM_OP(op_setp, unsigned, "r", "{ .reg .pred p; setp.lt.u32 p, %0, %1; selp.u32 %0, %2, %1, p; }", 2)
SM_OP(op_madwide, unsigned long long, "l",
      "{ .reg .u32 a, b; cvt.u32.u64 a, %0; cvt.u32.u64 b, %1; mad.wide.u32 %0, a, b, %2; }", 1)
// an integer add and an FMA a step (ALU and FMA pipes): the SMSP's issue limit
SM_OP(op_mix, float, "f",
      "{ .reg .u32 i; mov.b32 i, %0; add.u32 i, i, 7; mov.b32 %0, i; fma.rn.f32 %0, %0, %1, %2; }", 2)

template <typename T> __device__ __forceinline__ T sm_seed(unsigned s) { return (T)(s % 7 + 2); }
/* A value's bits, so that "the result is this pattern" is possible for any
 * type and the compiler must keep the chain (a test of an unsigned against
 * -1.25 was provably false, and the first run lost the integer chains). */
template <typename T> __device__ __forceinline__ unsigned long long sm_bits(T v)
{
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <> __device__ __forceinline__ float sm_seed<float>(unsigned s) { return 1.0f + (float)(s % 7) * 1e-3f; }
template <> __device__ __forceinline__ double sm_seed<double>(unsigned s) { return 1.0 + (double)(s % 7) * 1e-3; }

// CH independent chains a thread, ITERS times U steps each.  The result
// goes to SINK only if impossible, so nothing is dead code.
template <typename OP, int CH, int U> __global__ void sm_thr(int iters, unsigned seed, unsigned *sink)
{
    typedef typename OP::T T;
    T x[CH], z[CH];
    const T y = sm_seed<T>(seed | 1);
#pragma unroll
    for (int c = 0; c < CH; c++) x[c] = sm_seed<T>(seed + c + threadIdx.x), z[c] = sm_seed<T>(seed + 3 * c);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int c = 0; c < CH; c++) OP::step(x[c], z[c], y);
    }
    unsigned long long acc = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) acc ^= sm_bits(x[c]) ^ sm_bits(z[c]);
    if (acc == 0x0123456789abcdefull) *sink = 1;
}

// One chain, timed on the SM clock: CYCLES[0] = clock64 ticks for ITERS * U steps.
template <typename OP, int U> __global__ void sm_lat(int iters, unsigned seed, long long *cycles, unsigned *sink)
{
    typedef typename OP::T T;
    T x = sm_seed<T>(seed + threadIdx.x), z = sm_seed<T>(seed + 5);
    const T y = sm_seed<T>(seed | 1);
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < U; u++) OP::step(x, z, y);
    }
    long long t1 = clock64();     /* in-order issue: off by at most one latency in ITERS * U */
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
    if ((sm_bits(x) ^ sm_bits(z)) == 0x0123456789abcdefull) *sink = 1;
}

// Shared-memory chases: every word of S holds a byte address in S, so x =
// S[x] is a chain.  STRIDE 4: lane l reads word l of a row (one wavefront a
// request); STRIDE 128: every lane the same bank, 32 wavefronts a request.
// CH chains a thread, each on its own row.
template <int CH, int STRIDE> __global__ void sm_lds(int iters, unsigned *sink, long long *cycles)
{
    __shared__ unsigned s[32 * 32 * 2];
    for (unsigned i = threadIdx.x; i < 32 * 32 * 2; i += blockDim.x) s[i] = i * 4;
    __syncthreads();
    const unsigned lane = threadIdx.x % 32;
    unsigned x[CH];
#pragma unroll
    for (int c = 0; c < CH; c++) x[c] = (STRIDE == 4 ? lane * 4 + (unsigned)c * 128 : lane * 128 + (unsigned)c * 4) % 8192;
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++)
#pragma unroll
            for (int c = 0; c < CH; c++) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x[c]) : "r"(base + x[c]));
    }
    long long t1 = clock64();
    unsigned acc = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) acc ^= x[c];
    if (threadIdx.x == 0 && cycles) cycles[0] = t1 - t0;
    if (acc == 0xdeadbeefu) *sink = acc;
}

// Global-memory chases that stay in L1: P holds, at each word, the byte
// offset of a word; STRIDE 4: one 128-byte line a request, 128: 32 lines.
template <int CH, int STRIDE> __global__ void sm_ldg(const unsigned *p, int iters, unsigned *sink, long long *cycles)
{
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    unsigned x[CH];
#pragma unroll
    for (int c = 0; c < CH; c++)
        x[c] = (STRIDE == 4 ? lane * 4 + (unsigned)(c + warp * CH) * 128 : lane * 128 + (unsigned)(c + warp * CH) * 4) % 8192;
    const char *b = (const char *)p;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++)
#pragma unroll
            for (int c = 0; c < CH; c++) asm volatile("ld.global.u32 %0, [%1];" : "=r"(x[c]) : "l"(b + x[c]));
    }
    long long t1 = clock64();
    unsigned acc = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) acc ^= x[c];
    if (threadIdx.x == 0 && cycles) cycles[0] = t1 - t0;
    if (acc == 0xdeadbeefu) *sink = acc;
}

// p[i] = 4 * i over N words (the identity chase of sm_ldg).
__global__ void sm_fill_identity(unsigned *p, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i * 4;
}

// Shared atomics, each lane its own word of a row (no conflict): throughput.
__global__ void sm_atoms(int iters, unsigned *sink)
{
    __shared__ unsigned s[1024];
    s[threadIdx.x % 1024] = 0;
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(s) + (threadIdx.x % 32) * 4 + (threadIdx.x / 32 % 8) * 128;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(base) : "memory");
    }
    __syncthreads();
    if (s[threadIdx.x % 1024] == 0xdeadbeefu) *sink = 1;
}

// Barriers: ITERS x 8 bar.sync a block, timed on the SM clock.
__global__ void sm_bar(int iters, long long *cycles)
{
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) asm volatile("bar.sync 0;" ::: "memory");
    }
    long long t1 = clock64();
    if (threadIdx.x == 0 && blockIdx.x == 0) cycles[0] = t1 - t0;
}

// The SM clock: each block spins on FMAs for a while and records its SM
// cycles and the nanoseconds of %globaltimer that passed.
__global__ void sm_clock(int iters, long long *out, unsigned *sink)
{
    long long c0 = clock64(), n0, n1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(n0));
    float x = 1.0f + threadIdx.x * 1e-6f, y = 0.999f;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++) x = fmaf(x, y, 1e-3f);
    }
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(n1) : "f"(x));
    long long c1 = clock64();
    if (threadIdx.x == 0) out[2 * blockIdx.x] = c1 - c0, out[2 * blockIdx.x + 1] = n1 - n0;
    if (x == -1.25f) *sink = 1;
}

// Atomics on global memory: every thread adds to one word (SAME), or each
// lane to its own word of a buffer that stays in L2 (DISTINCT).
__global__ void sm_red_same(float *p)
{
    asm volatile("red.global.add.f32 [%0], 1.0;" ::"l"(p) : "memory");
}
__global__ void sm_red_distinct(unsigned *p, unsigned words, int iters)
{
    unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) % words;
    for (int k = 0; k < iters; k++) {
        asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p + i) : "memory");
        i = (i + 32 * 1031) % words;
    }
}

__global__ void sm_empty() {}

// Each thread spins until its SM's clock has advanced CYCLES: a kernel of a
// known length, to see what back-to-back launches add to it.
__global__ void sm_spin(long long cycles, unsigned *sink)
{
    long long t0 = clock64(), t = t0;
    while (t - t0 < cycles) t = clock64();
    if (t == 0x0123456789abcdefll) *sink = 1;
}

// ---------------------------------------------------------------- host side

// The median over blocks of SM cycles per globaltimer ns, one block a SM
// spinning for about 2 ms.
static double sm_clock_mhz(const Dev &dev, unsigned *sink)
{
    long long *d;
    CK(cudaMalloc(&d, dev.sms * 2 * sizeof(long long)));
    for (int w = 0; w < 3; w++) sm_clock<<<dev.sms, 128>>>(20000, d, sink);
    sm_clock<<<dev.sms, 128>>>(20000, d, sink);
    CK(cudaDeviceSynchronize());
    std::vector<long long> h(dev.sms * 2);
    CK(cudaMemcpy(h.data(), d, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    std::vector<double> r;
    for (int b = 0; b < dev.sms; b++)
        if (h[2 * b + 1] > 0) r.push_back((double)h[2 * b] / (double)h[2 * b + 1] * 1e3);
    std::sort(r.begin(), r.end());
    return r.empty() ? 0 : r[r.size() / 2];
}

// Warp-instructions (PTX) a SM a cycle at full occupancy: 8 blocks of 256
// threads a SM (fewer fit if the kernel's registers do not allow 64 warps;
// CH chains leave enough in flight either way).
template <typename OP> static double thr_of(const Dev &dev, double mhz, int iters, unsigned *sink)
{
    const int CH = 8, U = 4;
    const unsigned blocks = dev.sms * 8, threads = 256;
    float ms = median_ms([&] { sm_thr<OP, CH, U><<<blocks, threads>>>(iters, 12345, sink); }, nullptr, 11);
    double ops = (double)blocks * threads / 32 * iters * U * CH * OP::ptx;
    return ops / (ms * 1e-3 * mhz * 1e6) / dev.sms;
}

// Cycles a dependent PTX instruction takes, one warp on one SM.
template <typename OP> static double lat_of(int iters, long long *cyc, unsigned *sink)
{
    const int U = 16;
    std::vector<double> v;
    for (int r = 0; r < 7; r++) {
        sm_lat<OP, U><<<1, 32>>>(iters, 777, cyc, sink);
        long long h;
        CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
        v.push_back((double)h / ((double)iters * U * OP::ptx));
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename OP> static void op_line(const Dev &dev, double mhz, int thr_iters, int lat_iters, long long *cyc,
                                           unsigned *sink, const char *key)
{
    double t = thr_of<OP>(dev, mhz, thr_iters, sink), l = lat_of<OP>(lat_iters, cyc, sink);
    printf("thr_%s = %.4f\nlat_%s = %.2f\n", key, t, key, l);
}

// Median interval between back-to-back launches of K, an event between each
// two (as gpu/outside/launch.cu times a kernel).
static double b2b_us(const std::function<void()> &k, int n = 200)
{
    std::vector<cudaEvent_t> ev(n + 1);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int i = 0; i < 5; i++) k();
    CK(cudaEventRecord(ev[0]));
    for (int i = 0; i < n; i++) {
        k();
        CK(cudaEventRecord(ev[i + 1]));
    }
    CK(cudaEventSynchronize(ev[n]));
    std::vector<double> t;
    for (int i = 0; i < n; i++) {
        float ms;
        CK(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
        t.push_back(ms * 1e3);
    }
    for (auto &e : ev) CK(cudaEventDestroy(e));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/* harness sm: the instruction side of the device profile, printed as
 * profile lines (thr_X: PTX warp-instructions a SM a cycle, all SMs busy;
 * lat_X: cycles from issue to a dependent instruction, one warp). */
static int sm_profile(const Dev &dev)
{
    unsigned *sink;
    long long *cyc;
    CK(cudaMalloc(&sink, sizeof(unsigned)));
    CK(cudaMalloc(&cyc, 64 * sizeof(long long)));
    const double mhz = sm_clock_mhz(dev, sink);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# coalsim device profile, SM side, measured by gpu/harness sm (medians)\n");
    printf("# thr_X: PTX warp-instructions of X a SM completes a cycle, 8 blocks of 256 threads a SM, 8 chains a thread\n");
    printf("# lat_X: SM cycles a dependent X takes (one warp, one chain); sm_sass.txt has the SASS of each\n");
    printf("device = %s\nsms = %d\n", dev.name.c_str(), dev.sms);
    printf("sm_clock_mhz = %.0f\n", mhz);
    printf("l2_bytes = %d\n", prop.l2CacheSize);
    int khz = 0, mem_khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    printf("# the device's own: SM clock %d kHz, memory clock %d kHz, bus %d bits, %d regs a SM, %zu B smem a SM\n",
           khz, mem_khz, prop.memoryBusWidth, prop.regsPerMultiprocessor, prop.sharedMemPerMultiprocessor);
    op_line<op_ffma>(dev, mhz, 2000, 2000, cyc, sink, "ffma");
    op_line<op_fadd>(dev, mhz, 2000, 2000, cyc, sink, "fadd");
    op_line<op_iadd>(dev, mhz, 1000, 2000, cyc, sink, "iadd");
    op_line<op_imad>(dev, mhz, 1000, 2000, cyc, sink, "imad");
    op_line<op_add64>(dev, mhz, 500, 2000, cyc, sink, "add64");
    op_line<op_setp>(dev, mhz, 500, 1000, cyc, sink, "setp_selp");
    op_line<op_madwide>(dev, mhz, 1000, 2000, cyc, sink, "madwide");
    op_line<op_mix>(dev, mhz, 1000, 2000, cyc, sink, "mix_iadd_ffma");
    op_line<op_dfma>(dev, mhz, 1000, 1000, cyc, sink, "dfma");
    op_line<op_ex2>(dev, mhz, 250, 1000, cyc, sink, "ex2");
    op_line<op_rsqrt>(dev, mhz, 250, 1000, cyc, sink, "rsqrt");
    op_line<op_hfma2>(dev, mhz, 2000, 2000, cyc, sink, "hfma2");
    op_line<op_cvt>(dev, mhz, 250, 1000, cyc, sink, "cvt");
    op_line<op_shfl>(dev, mhz, 250, 1000, cyc, sink, "shfl");
    op_line<op_popc>(dev, mhz, 250, 1000, cyc, sink, "popc");
    op_line<op_divu>(dev, mhz, 50, 200, cyc, sink, "divu");
    op_line<op_remu>(dev, mhz, 50, 200, cyc, sink, "remu");
    op_line<op_divf>(dev, mhz, 50, 200, cyc, sink, "divf");
    op_line<op_sqrtf>(dev, mhz, 50, 200, cyc, sink, "sqrtf");
    /* shared loads: wavefronts a SM a cycle, conflict-free and 32-way, and
     * their latency (one warp) */
    {
        const unsigned blocks = dev.sms * 8;
        const int it = 200;
        float a = median_ms([&] { sm_lds<8, 4><<<blocks, 256>>>(it, sink, nullptr); }, nullptr, 11);
        float b = median_ms([&] { sm_lds<8, 128><<<blocks, 256>>>(it / 8, sink, nullptr); }, nullptr, 11);
        double req = (double)blocks * 8 * it * 8 * 8;
        printf("thr_lds = %.4f\n", req / (a * 1e3 * mhz) / dev.sms);
        printf("smem_wavefronts_per_cycle = %.4f\n", req / 8 * 32 / (b * 1e3 * mhz) / dev.sms);
        std::vector<double> l1, l32;
        for (int r = 0; r < 7; r++) {
            long long h;
            sm_lds<1, 4><<<1, 32>>>(2000, sink, cyc);
            CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
            l1.push_back((double)h / (2000 * 8));
            sm_lds<1, 128><<<1, 32>>>(500, sink, cyc);
            CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
            l32.push_back((double)h / (500 * 8));
        }
        std::sort(l1.begin(), l1.end());
        std::sort(l32.begin(), l32.end());
        printf("lat_lds = %.2f\nlat_lds_32way = %.2f\n", l1[3], l32[3]);
    }
    /* global loads that hit L1: requests of one line and of 32 lines a SM a
     * cycle, and their latency */
    {
        unsigned *g;
        const unsigned words = 1 << 16;                       /* 256 KiB; the chases use the first 8 KiB */
        CK(cudaMalloc(&g, words * 4));
        sm_fill_identity<<<words / 256, 256>>>(g, words);
        const unsigned blocks = dev.sms * 8;
        const int it = 200;
        float a = median_ms([&] { sm_ldg<8, 4><<<blocks, 256>>>(g, it, sink, nullptr); }, nullptr, 11);
        float b = median_ms([&] { sm_ldg<8, 128><<<blocks, 256>>>(g, it / 8, sink, nullptr); }, nullptr, 11);
        double req = (double)blocks * 8 * it * 8 * 8;
        printf("thr_ldg_hit = %.4f\n", req / (a * 1e3 * mhz) / dev.sms);
        printf("l1_lines_per_cycle = %.4f\n", req / 8 * 32 / (b * 1e3 * mhz) / dev.sms);
        std::vector<double> l1, l32;
        for (int r = 0; r < 7; r++) {
            long long h;
            sm_ldg<1, 4><<<1, 32>>>(g, 2000, sink, cyc);
            CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
            l1.push_back((double)h / (2000 * 8));
            sm_ldg<1, 128><<<1, 32>>>(g, 500, sink, cyc);
            CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
            l32.push_back((double)h / (500 * 8));
        }
        std::sort(l1.begin(), l1.end());
        std::sort(l32.begin(), l32.end());
        printf("lat_ldg_hit = %.2f\nlat_ldg_hit_32line = %.2f\n", l1[3], l32[3]);
        CK(cudaFree(g));
    }
    /* shared atomics (no conflict) and barriers */
    {
        const unsigned blocks = dev.sms * 8;
        const int it = 100;
        float a = median_ms([&] { sm_atoms<<<blocks, 256>>>(it, sink); }, nullptr, 11);
        printf("thr_atoms = %.4f\n", (double)blocks * 8 * it * 8 / (a * 1e3 * mhz) / dev.sms);
        float b = median_ms([&] { sm_bar<<<blocks, 256>>>(200, cyc); }, nullptr, 11);
        printf("thr_bar = %.4f\n", (double)blocks * 8 * 200 * 8 / (b * 1e3 * mhz) / dev.sms);
        std::vector<double> v;
        for (int r = 0; r < 7; r++) {
            long long h;
            sm_bar<<<1, 256>>>(500, cyc);
            CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
            v.push_back((double)h / (500 * 8));
        }
        std::sort(v.begin(), v.end());
        printf("lat_bar = %.2f\n", v[3]);
    }
    /* global atomics: one address for every thread, ns a lane; each lane its
     * own word of 4 MiB (in L2), ns a warp request */
    {
        float *f;
        unsigned *u;
        CK(cudaMalloc(&f, 4));
        CK(cudaMalloc(&u, 4 << 20));
        CK(cudaMemset(f, 0, 4));
        CK(cudaMemset(u, 0, 4 << 20));
        const unsigned n = 1 << 20;
        float a = median_ms([&] { sm_red_same<<<n / 128, 128>>>(f); }, nullptr, 11);
        printf("atomic_same_ns = %.4f\n", a * 1e6 / n);
        const int it = 16;
        float b = median_ms([&] { sm_red_distinct<<<dev.sms * 16, 256>>>(u, 1 << 20, it); }, nullptr, 11);
        printf("atomic_request_ns = %.5f\n", b * 1e6 / ((double)dev.sms * 16 * 256 / 32 * it));
        CK(cudaFree(f));
        CK(cudaFree(u));
    }
    /* launches back to back, an event between each two: an empty block, and
     * a grid of 8 blocks of 256 threads a SM (one wave) and 64 (8 waves) */
    printf("launch_b2b_us = %.3f\n", b2b_us([] { sm_empty<<<1, 32>>>(); }));
    printf("launch_wave_us = %.3f\n", b2b_us([&] { sm_empty<<<dev.sms * 8, 256>>>(); }));
    printf("launch_8waves_us = %.3f\n", b2b_us([&] { sm_empty<<<dev.sms * 64, 256>>>(); }));
    /* kernels of known length (one block of one warp a SM spinning for
     * 2 to 100 us) back to back: the interval minus the length is what a
     * launch adds when the queue is full */
    for (double us : {2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
        long long cycles = (long long)(us * mhz);
        double iv = b2b_us([&] { sm_spin<<<dev.sms, 32>>>(cycles, sink); }, 100);
        printf("# spin %.0f us: back-to-back interval %.3f us, added %.3f us\n", us, iv, iv - us);
        if (us == 20.0) printf("launch_added_us = %.3f\n", iv - us);
    }
    CK(cudaGetLastError());
    CK(cudaFree(sink));
    CK(cudaFree(cyc));
    return 0;
}
