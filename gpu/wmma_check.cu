// The WMMA fragment kernels of tests/kernels/wmma.cu on a real GPU: what
// element each lane's fragment holds after a load, where a store puts each
// accumulator element, and one mma tile a shape and type against a CPU
// reference.
//
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/wmma_check gpu/wmma_check.cu
// Usage: wmma_check           every kernel, the lines below
//        wmma_check --once    every load and store kernel (which = 0) and
//                             every tile once: what gpu/run_wmma.sh profiles
// Output (gpu/results/h100/wmma/layout.txt; tests/check_tensor.c reads it):
//   LOAD name NE v[0] .. v[32*NE-1]   v[lane*NE + e] = 64*row + col of the
//                                     matrix element fragment element e holds
//   STORE name M N v[0] .. v[M*N-1]   v[r*N + c] = lane*NE + e of the
//                                     fragment element stored at (r, c)
//   TILE name ok|FAIL maxerr          D = A B + C against a double reference
// Exit status 1 on any FAIL or CUDA error.
#include "../tests/kernels/wmma.cu"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "probes/timing.cuh"   // CK: stop on a CUDA error with where it happened

typedef void (*frag_fn)(void *, int *, int);
typedef void (*tile_fn)(const void *, const void *, const void *, void *);

struct frag_kernel {
    const char *name;
    frag_fn g, s;
    int store, M, N;
};
struct tile_kernel {
    const char *name;
    tile_fn fn;
    int M, N, K, in, acc, acol;   // in: 0 f16, 1 bf16, 2 s8, 3 u8; acc: 0 f32, 1 f16, 2 s32
};

#define FRAG_ENTRY(kind, name, use, M, N, K, T, L)                                                 \
    {#name, (frag_fn)name##_g, (frag_fn)name##_s, !strcmp(#kind, "ST"), M, N},
#define TILE_ENTRY(name, M, N, K, T, ACC, LA, LB) {#name, (tile_fn)name, M, N, K, TYPE_##T, ACC_##ACC, WMMA_COL_##LA},
#define TILE_NONE(...)
#define FRAG_NONE(...)
#define TYPE_f16_t 0
#define TYPE_bf16_t 1
#define TYPE_s8_t 2
#define TYPE_u8_t 3
#define ACC_f32_t 0
#define ACC_f16_t 1
#define ACC_s32_t 2

static const frag_kernel frags[] = {WMMA_ALL(FRAG_ENTRY, TILE_NONE)};
static const tile_kernel tiles[] = {WMMA_ALL(FRAG_NONE, TILE_ENTRY)};

static void run_frag(frag_fn fn, void *mem, int *dout, int which, std::vector<int> &out)
{
    CK(cudaMemset(dout, 0xff, 1024 * sizeof(int)));
    void *args[] = {&mem, &dout, &which};
    CK(cudaLaunchKernel((const void *)fn, dim3(1), dim3(32), args, 0, 0));
    CK(cudaDeviceSynchronize());
    out.resize(1024);
    CK(cudaMemcpy(out.data(), dout, 1024 * sizeof(int), cudaMemcpyDeviceToHost));
}

// ne: the fragment's num_elements, found as the highest index written + 1 over 32 lanes.
static int written(const std::vector<int> &o)
{
    int n = 1024;
    while (n > 0 && o[n - 1] == -1) n--;
    return n;
}

static uint16_t f2h(float f)   // exact for the small integers used here
{
    __half h = __float2half(f);
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static uint16_t f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}

static int tile(const tile_kernel &t)
{
    int M = t.M, N = t.N, K = t.K, esz = t.in < 2 ? 2 : 1, asz = t.acc == 1 ? 2 : 4;
    std::vector<double> a(M * K), b(K * N), c(M * N);
    unsigned x = 12345u + (unsigned)M * 7 + (unsigned)N;
    auto next = [&]() { return (x = x * 1664525u + 1013904223u) >> 16; };
    for (auto &v : a) v = t.in == 3 ? (double)(next() & 15) : (double)((int)(next() & 15) - 8);
    for (auto &v : b) v = t.in == 3 ? (double)(next() & 15) : (double)((int)(next() & 15) - 8);
    for (auto &v : c) v = (double)((int)(next() & 63) - 32);
    std::vector<unsigned char> ha(M * K * esz), hb(K * N * esz), hc(M * N * asz);
    auto put = [&](std::vector<unsigned char> &buf, int i, double v, int kind, int sz) {
        if (sz == 1) buf[i] = (unsigned char)(int)v;
        else if (sz == 4 && kind == 2) { int iv = (int)v; memcpy(&buf[4 * i], &iv, 4); }
        else if (sz == 4) { float fv = (float)v; memcpy(&buf[4 * i], &fv, 4); }
        else { uint16_t h = kind == 1 ? f2bf((float)v) : f2h((float)v); memcpy(&buf[2 * i], &h, 2); }
    };
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) put(ha, t.acol ? k * M + m : m * K + k, a[m * K + k], t.in, esz);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) put(hb, t.acol ? k * N + n : n * K + k, b[k * N + n], t.in, esz);
    for (int i = 0; i < M * N; i++) put(hc, i, c[i], t.acc == 2 ? 2 : 0, asz);
    void *dA, *dB, *dC, *dD;
    CK(cudaMalloc(&dA, ha.size()));
    CK(cudaMalloc(&dB, hb.size()));
    CK(cudaMalloc(&dC, hc.size()));
    CK(cudaMalloc(&dD, hc.size()));
    CK(cudaMemcpy(dA, ha.data(), ha.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hb.data(), hb.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, hc.data(), hc.size(), cudaMemcpyHostToDevice));
    void *args[] = {&dA, &dB, &dC, &dD};
    CK(cudaLaunchKernel((const void *)t.fn, dim3(1), dim3(32), args, 0, 0));
    CK(cudaDeviceSynchronize());
    std::vector<unsigned char> hd(hc.size());
    CK(cudaMemcpy(hd.data(), dD, hd.size(), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double r = c[m * N + n], got;
            for (int k = 0; k < K; k++) r += a[m * K + k] * b[k * N + n];
            int i = m * N + n;
            if (t.acc == 2) { int v; memcpy(&v, &hd[4 * i], 4); got = v; }
            else if (t.acc == 0) { float v; memcpy(&v, &hd[4 * i], 4); got = v; }
            else { __half h; memcpy(&h, &hd[2 * i], 2); got = __half2float(h); }
            worst = fmax(worst, fabs(got - r));
        }
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dD);
    int ok = worst == 0;   // small integers: every product and sum is exact in each type
    printf("TILE %s %s %g\n", t.name, ok ? "ok" : "FAIL", worst);
    return ok;
}

int main(int argc, char **argv)
{
    int once = argc > 1 && !strcmp(argv[1], "--once"), fails = 0;
    void *mem;
    int *dout;
    CK(cudaMalloc(&mem, WMMA_LD * WMMA_LD * 4));
    CK(cudaMalloc(&dout, 1024 * sizeof(int)));
    std::vector<int> o0, o1;
    for (const frag_kernel &k : frags)
        for (int sp = 0; sp < 2; sp++) {
            frag_fn fn = sp ? k.s : k.g;
            const char *suf = sp ? "_s" : "_g";
            run_frag(fn, mem, dout, 0, o0);
            if (once) continue;
            if (k.store) {
                printf("STORE %s%s %d %d", k.name, suf, k.M, k.N);
                for (int i = 0; i < k.M * k.N; i++) printf(" %d", o0[i]);
                printf("\n");
                continue;
            }
            run_frag(fn, mem, dout, 1, o1);
            int n = written(o0);
            if (n % 32 || written(o1) != n) {
                printf("LOAD %s%s FAIL %d %d elements\n", k.name, suf, n, written(o1));
                fails++;
                continue;
            }
            printf("LOAD %s%s %d", k.name, suf, n / 32);
            for (int i = 0; i < n; i++) printf(" %d", 64 * o0[i] + o1[i]);
            printf("\n");
        }
    for (const tile_kernel &t : tiles) fails += !tile(t);
    printf("%s: %d failure(s)\n", argv[0], fails);
    return fails ? 1 : 0;
}
