// harness.cu: our host driver for pranjalssh/fast.cu's Hopper bf16 GEMM ladder
// (the 12 kernels of "Outperforming cuBLAS on H100: a worklog", plus the
// repository's experimental ping-pong kernel), for issue 28's validation of
// coalsim's Hopper path on public kernels nobody here wrote.  The kernels and
// their host launchers (runKernelN: tensor maps, cudaFuncSetAttribute,
// launch) are the source's own, #included from .gl/public_hopper (put there by
// gpu/outside/public_hopper/prep.sh; never committed).  This file replaces
// only the source's matmul.cu, whose check needs cuBLAS: here every output is
// compared with a CPU reference.
//
// build (from the repository root; -DNDEBUG, -lcuda and compute_90a as the
// source's own Makefile, which matmul_11/12 need; -gencode, not -arch=sm_90a:
// nvcc 13's -arch=sm_90a also makes compute_90 PTX, which ptxas refuses for wgmma):
//   nvcc -gencode 'arch=compute_90a,code=[compute_90a,sm_90a]' -O3 -lineinfo -std=c++17 \
//        -DNDEBUG --expt-relaxed-constexpr -w -I.gl/public_hopper/fast.cu \
//        -o harness gpu/outside/public_hopper/harness.cu -lcuda
//   (-DPH_UPTO=6: kernels 1-6 only, below; -I.gl/public_hopper/fast.cu-diag:
//   prep.sh --diag's diagnostic copy)
// run:
//   harness [--size check|big] [--only N[,N..]] [--trials T] [--launches L] [--time]
//           [--mnk M,N,K] [--dump]
//   --size check (default): each kernel at its small size (table below), one
//       launch, every output entry compared (what coalsim run and ncu want);
//       with --time also T x L timed launches.
//   --size big: M = N = K = 8192 as the source's matmul.cu (the ping-pong
//       kernel: N = 8064, a multiple of its 192-wide tile); one launch checked
//       on 16388 sampled entries, then T trials (default 5) of L back-to-back
//       launches (default 4): "time" is the median over trials of the mean.
//   --only 1,2,pp: those kernels only.  --mnk M,N,K: that size instead (the
//       tiling's constraints are the caller's); --dump: the first 64 wrong
//       entries.
// Output: "kN NAME: PASS (...)" or "kN NAME: FAIL (...)" a kernel, "kN NAME: time
// ..." lines, then "N passed, N failed"; exit status 1 on any failure.
//
// Data, as the source lays it out: A is M x K row-major, B is N x K row-major
// (K-major: C = A * B^T), C is bf16 column-major (C[n*M + m]); kernel 1 (the
// source checks it against nothing) takes B as K x N row-major and writes C
// M x N row-major.  Entries are integers in -2..2, so each f32 sum is exact
// and the expected bf16 is the round-to-nearest-even of the exact sum: the
// check asks for equal bits.  C starts as 0xFFFF (NaN) so unwritten entries fail.
//
// Check sizes: 512^2 x 256 (kernel 1), 512^3 (2-5); kernels 6-10 schedule tiles
// with the source's Schedule<1> (16 x 8 tile groups of 128 x 256; its assert
// is compiled out under -DNDEBUG): M and N must be multiples of 2048, so
// M = 4096, N = 2048 (each of the 128 CTAs, or 64 clusters, does two tiles:
// persistent), K = 128 (2 K-steps a tile; 4 stages through the 3-slot queue).
// 11, 12 (Hilbert schedule) and the ping-pong take the same shape.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

// what the source's matmul.cu defines before its #includes
typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
static void cudaCheck(cudaError_t error, const char* file, int line)
{
    if (error != cudaSuccess) {
        printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
        exit(1);
    }
}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))

// PH_UPTO=N builds kernels 1..N only (13: the ping-pong too; the default):
// a module the interpreter cannot load stops every kernel in it, so a build
// for coalsim run can leave out the kernels that hold an instruction it does
// not know yet (see gpu/results/h100/public_hopper/README.md)
#ifndef PH_UPTO
#define PH_UPTO 13
#endif
#include "examples/matmul/matmul_1.cuh"
#include "examples/matmul/matmul_2.cuh"
#include "examples/matmul/matmul_3.cuh"
#include "examples/matmul/matmul_4.cuh"
#include "examples/matmul/matmul_5.cuh"
#include "examples/matmul/matmul_6.cuh"
#if PH_UPTO >= 7
#include "examples/matmul/matmul_7.cuh"
#endif
#if PH_UPTO >= 8
#include "examples/matmul/matmul_8.cuh"
#endif
#if PH_UPTO >= 9
#include "examples/matmul/matmul_9.cuh"
#endif
#if PH_UPTO >= 10
#include "examples/matmul/matmul_10.cuh"
#endif
#if PH_UPTO >= 11
#include "examples/matmul/matmul_11.cuh"
#endif
#if PH_UPTO >= 12
#include "examples/matmul/matmul_12.cuh"
#endif
#if PH_UPTO >= 13
#include "examples/matmul/pingpong_experimental.cuh"
#endif

struct Kernel {
    const char* id;       // --only name
    const char* name;     // the source's kernel function
    const char* what;     // the rung
    int cm, cn, ck;       // check size
    int bn_big;           // big N (M = K = 8192)
    bool row_major;       // kernel 1's layout
    void (*run)(int, int, int, bf16*, bf16*, bf16*);
};

// the source's launchers; kernels 3.. take a debug-timer pointer: nullptr
static void r1(int M, int N, int K, bf16* A, bf16* B, bf16* C) { runKernel1(M, N, K, A, B, C); }
static void r2(int M, int N, int K, bf16* A, bf16* B, bf16* C) { runKernel2(M, N, K, A, B, C); }
#define R(n) \
    static void r##n(int M, int N, int K, bf16* A, bf16* B, bf16* C) { runKernel##n(M, N, K, A, B, C, nullptr); }
R(3) R(4) R(5) R(6)
#if PH_UPTO >= 7
R(7)
#endif
#if PH_UPTO >= 8
R(8)
#endif
#if PH_UPTO >= 9
R(9)
#endif
#if PH_UPTO >= 10
R(10)
#endif
#if PH_UPTO >= 11
R(11)
#endif
#if PH_UPTO >= 12
R(12)
#endif
#undef R
#if PH_UPTO >= 13
static void rpp(int M, int N, int K, bf16* A, bf16* B, bf16* C) { runKernelPP(M, N, K, A, B, C, nullptr); }
#endif

static const Kernel kKernels[] = {
    {"1", "sgemmWarptiling", "no tensor cores: 128x128 block tile, warp tiles, CUDA-core FMAs", 512, 512, 256, 8192, true, r1},
    {"2", "matmulKernel2", "first wgmma: 64x64 tile, TMA 2D 128B swizzle, cuda::barrier, m64n64k16", 512, 512, 512, 8192, false, r2},
    {"3", "matmulKernel3", "128x128 tile, m64n128k16", 512, 512, 512, 8192, false, r3},
    {"4", "matmulKernel4", "warp-specialised: TMA producer + 1 consumer warpgroup, 5-stage full/empty queue", 512, 512, 512, 8192, false, r4},
    {"5", "matmulKernel5", "2 consumers, setmaxnreg, 128x256 tile, m64n256k16, 3 stages", 512, 512, 512, 8192, false, r5},
    {"6", "matmulKernel6", "persistent: 128 CTAs walk a 16x8-grouped tile schedule", 4096, 2048, 128, 8192, false, r6},
#if PH_UPTO >= 7
    {"7", "matmulKernel7", "raw mbarrier PTX (try_wait.parity), 5D TMA boxes", 4096, 2048, 128, 8192, false, r7},
#endif
#if PH_UPTO >= 8
    {"8", "matmulKernel8", "clusters of 2 along M, B multicast (.multicast::cluster), remote empty arrivals (mapa)", 4096, 2048, 128, 8192, false, r8},
#endif
#if PH_UPTO >= 9
    {"9", "matmulKernel9", "first wgmma with scale-d 0 (no zeroing), st.global.wt stores", 4096, 2048, 128, 8192, false, r9},
#endif
#if PH_UPTO >= 10
    {"10", "matmulKernel10", "C through shared, TMA store (bulk_group)", 4096, 2048, 128, 8192, false, r10},
#endif
#if PH_UPTO >= 11
    {"11", "matmulKernel11", "Hilbert-curve tile schedule from a host table", 4096, 2048, 128, 8192, false, r11},
#endif
#if PH_UPTO >= 12
    {"12", "matmulKernel12", "stmatrix into a padded C tile, a TMA store per consumer (72-wide box, clipped)", 4096, 2048, 128, 8192, false, r12},
#endif
#if PH_UPTO >= 13
    {"pp", "matmulKernelPP", "experimental ping-pong: consumers alternate tiles (128x192, BK 128, 2 stages)", 4096, 1920, 256, 8064, false, rpp},
#endif
};

static uint32_t g_seed = 12345;
static int small_int()  // -2..2
{
    g_seed = g_seed * 1664525u + 1013904223u;
    return (int)((g_seed >> 16) % 5u) - 2;
}

static uint16_t bits(bf16 x)
{
    uint16_t u;
    memcpy(&u, &x, 2);
    return u;
}

static double value(uint16_t u)
{
    bf16 x;
    memcpy(&x, &u, 2);
    return __bfloat162float(x);
}

static uint16_t expect_bits(const int8_t* a, const int8_t* b, int K)  // a: row m of A, b: row n of B (both K long)
{
    int s = 0;
    for (int k = 0; k < K; ++k) s += a[k] * b[k];
    return bits(__float2bfloat16_rn((float)s));
}

struct Opt {
    bool big = false, time = false;
    int trials = 0, launches = 0, m = 0, n = 0, k = 0;
    bool dump = false;
    std::vector<std::string> only;
} g_opt;

static bool run_one(const Kernel& k)
{
    const int M = g_opt.m ? g_opt.m : g_opt.big ? 8192 : k.cm;
    const int N = g_opt.n ? g_opt.n : g_opt.big ? k.bn_big : k.cn;
    const int K = g_opt.k ? g_opt.k : g_opt.big ? 8192 : k.ck;
    const size_t MK = (size_t)M * K, NK = (size_t)N * K, MN = (size_t)M * N;
    std::vector<int8_t> a(MK), b(NK);
    for (auto& x : a) x = (int8_t)small_int();
    for (auto& x : b) x = (int8_t)small_int();
    std::vector<bf16> ha(MK), hb(NK);
    for (size_t i = 0; i < MK; ++i) ha[i] = __int2bfloat16_rn(a[i]);
    if (k.row_major) {  // kernel 1: B as K x N row-major
        for (int n = 0; n < N; ++n)
            for (int kk = 0; kk < K; ++kk) hb[(size_t)kk * N + n] = __int2bfloat16_rn(b[(size_t)n * K + kk]);
    } else {
        for (size_t i = 0; i < NK; ++i) hb[i] = __int2bfloat16_rn(b[i]);
    }
    bf16 *dA, *dB, *dC;
    cudaCheck(cudaMalloc(&dA, MK * sizeof(bf16)));
    cudaCheck(cudaMalloc(&dB, NK * sizeof(bf16)));
    cudaCheck(cudaMalloc(&dC, MN * sizeof(bf16)));
    cudaCheck(cudaMemcpy(dA, ha.data(), MK * sizeof(bf16), cudaMemcpyHostToDevice));
    cudaCheck(cudaMemcpy(dB, hb.data(), NK * sizeof(bf16), cudaMemcpyHostToDevice));
    cudaCheck(cudaMemset(dC, 0xFF, MN * sizeof(bf16)));

    k.run(M, N, K, dA, dB, dC);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("k%s %s: FAIL (launch: %s; M N K %d %d %d)\n", k.id, k.name, cudaGetErrorString(e), M, N, K);
        fflush(stdout);
        exit(1);  // a sticky error: nothing after it can run
    }
    std::vector<bf16> hc(MN);
    cudaCheck(cudaMemcpy(hc.data(), dC, MN * sizeof(bf16), cudaMemcpyDeviceToHost));
    auto at = [&](int m, int n) { return bits(hc[k.row_major ? (size_t)m * N + n : (size_t)n * M + m]); };
    long bad = 0, tried = 0;
    int fm = -1, fn = -1;
    uint16_t fgot = 0, fwant = 0;
    auto one = [&](int m, int n) {
        const uint16_t want = expect_bits(&a[(size_t)m * K], &b[(size_t)n * K], K), got = at(m, n);
        ++tried;
        if (got != want) {
            if (!bad++) fm = m, fn = n, fgot = got, fwant = want;
            if (g_opt.dump && bad <= 64) printf("  C[%d][%d] = %g, want %g\n", m, n, value(got), value(want));
        }
    };
    if (!g_opt.big) {
        for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) one(m, n);
    } else {
        uint32_t s = 777;
        for (int i = 0; i < 16384; ++i) {
            s = s * 1664525u + 1013904223u;
            const int m = (int)((s >> 8) % (uint32_t)M);
            s = s * 1664525u + 1013904223u;
            one(m, (int)((s >> 8) % (uint32_t)N));
        }
        one(0, 0), one(M - 1, N - 1), one(0, N - 1), one(M - 1, 0);
    }
    const bool pass = bad == 0;
    if (pass)
        printf("k%s %s: PASS (M N K %d %d %d, %ld of %ld entries checked equal; %s)\n", k.id, k.name, M, N, K, tried,
               tried, k.what);
    else
        printf("k%s %s: FAIL (M N K %d %d %d, %ld of %ld entries differ; first C[%d][%d] = 0x%04x, want 0x%04x)\n", k.id,
               k.name, M, N, K, bad, tried, fm, fn, fgot, fwant);
    fflush(stdout);

    if (g_opt.time || g_opt.big) {
        const int T = g_opt.trials ? g_opt.trials : 5, L = g_opt.launches ? g_opt.launches : (g_opt.big ? 4 : 10);
        cudaEvent_t e0, e1;
        cudaCheck(cudaEventCreate(&e0));
        cudaCheck(cudaEventCreate(&e1));
        std::vector<float> ms;
        for (int t = 0; t < T; ++t) {
            cudaCheck(cudaEventRecord(e0));
            for (int l = 0; l < L; ++l) k.run(M, N, K, dA, dB, dC);
            cudaCheck(cudaEventRecord(e1));
            cudaCheck(cudaEventSynchronize(e1));
            cudaCheck(cudaGetLastError());
            float x = 0;
            cudaCheck(cudaEventElapsedTime(&x, e0, e1));
            ms.push_back(x / L);
        }
        cudaCheck(cudaEventDestroy(e0));
        cudaCheck(cudaEventDestroy(e1));
        std::sort(ms.begin(), ms.end());
        const double med = ms[ms.size() / 2];
        printf("k%s %s: time %.2f us (median of %d trials x %d launches, min %.2f max %.2f) %.1f TFLOP/s, M N K %d %d %d\n",
               k.id, k.name, med * 1e3, T, L, ms.front() * 1e3, ms.back() * 1e3, 2.0 * M * N * K / (med * 1e-3) / 1e12, M,
               N, K);
        fflush(stdout);
    }
    cudaCheck(cudaFree(dA));
    cudaCheck(cudaFree(dB));
    cudaCheck(cudaFree(dC));
    return pass;
}

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--size" && i + 1 < argc) {
            std::string s = argv[++i];
            if (s != "check" && s != "big") {
                printf("--size: check or big\n");
                return 2;
            }
            g_opt.big = s == "big";
        } else if (a == "--time") g_opt.time = true;
        else if (a == "--trials" && i + 1 < argc) g_opt.trials = atoi(argv[++i]);
        else if (a == "--launches" && i + 1 < argc) g_opt.launches = atoi(argv[++i]);
        else if (a == "--mnk" && i + 1 < argc) {
            if (sscanf(argv[++i], "%d,%d,%d", &g_opt.m, &g_opt.n, &g_opt.k) != 3) {
                printf("--mnk M,N,K\n");
                return 2;
            }
        } else if (a == "--dump") g_opt.dump = true;
        else if (a == "--only" && i + 1 < argc) {
            std::string s = argv[++i];
            for (size_t p = 0, q; p <= s.size(); p = q + 1) {
                q = s.find(',', p);
                if (q == std::string::npos) q = s.size();
                g_opt.only.push_back(s.substr(p, q - p));
            }
        } else {
            printf("usage: %s [--size check|big] [--only N[,N..]] [--trials T] [--launches L] [--time] [--mnk M,N,K] [--dump]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp p;
    cudaCheck(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, sm_%d%d, %d SMs; fast.cu kernels, --size %s\n", p.name, p.major, p.minor, p.multiProcessorCount,
           g_opt.big ? "big" : "check");
    int passed = 0, failed = 0;
    for (const Kernel& k : kKernels) {
        if (!g_opt.only.empty() && std::find(g_opt.only.begin(), g_opt.only.end(), k.id) == g_opt.only.end()) continue;
        (run_one(k) ? passed : failed)++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
