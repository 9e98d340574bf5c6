// Matrix and asynchronous-copy probes for coalsim: how the H100 counts
// ldmatrix / stmatrix wavefronts, cp.async (LDGSTS) requests, sectors and
// shared-side wavefronts, and which ncu metrics see LDSM, STSM, LDGSTS and
// the tensor instructions.  Also the tensor pipe's rates (--rates).
//
// Patterns are made here (make_patterns) and printed, one a launch, as
//   LAUNCH <index> <name> <op> <n> <goff x32> <soff x32>
// where op is ldsm, ldsmt, stsm (n matrices: 1, 2, 4) or ldgsts_ca /
// ldgsts_cg (n bytes a lane), goff the global source offsets (ldgsts) and
// soff the shared offsets (every op).  Offsets come from __constant__ memory
// (LDC, which no LSU counter sees) and the access is inline PTX, so each
// kernel's one LSU instruction is the one under test (sass.txt shows it).
// Then the mma kernels, one launch each: "LAUNCH <index> <name> mma 1".
//
//   matrix            every pattern and mma kernel once (run under ncu)
//   matrix --rates    the tensor pipe: warp-MMAs a SM a ns per shape (no ncu)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "timing.cuh"

enum { SHARED_BYTES = 48 * 1024 };
static const size_t GLOBAL_BYTES = 16u << 20;

__constant__ long long c_goff[32];
__constant__ unsigned c_soff[32];

template <int N, bool T> __device__ __forceinline__ unsigned ldsm(unsigned a);
template <> __device__ __forceinline__ unsigned ldsm<1, false>(unsigned a)
{ unsigned x; asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x) : "r"(a)); return x; }
template <> __device__ __forceinline__ unsigned ldsm<2, false>(unsigned a)
{ unsigned x, y; asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a)); return x ^ y; }
template <> __device__ __forceinline__ unsigned ldsm<4, false>(unsigned a)
{ unsigned x, y, z, w; asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)); return x ^ y ^ z ^ w; }
template <> __device__ __forceinline__ unsigned ldsm<1, true>(unsigned a)
{ unsigned x; asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(x) : "r"(a)); return x; }
template <> __device__ __forceinline__ unsigned ldsm<2, true>(unsigned a)
{ unsigned x, y; asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a)); return x ^ y; }
template <> __device__ __forceinline__ unsigned ldsm<4, true>(unsigned a)
{ unsigned x, y, z, w; asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)); return x ^ y ^ z ^ w; }

template <int N> __device__ __forceinline__ void stsm(unsigned a, unsigned v);
template <> __device__ __forceinline__ void stsm<1>(unsigned a, unsigned v)
{ asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void stsm<2>(unsigned a, unsigned v)
{ asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %1};" :: "r"(a), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void stsm<4>(unsigned a, unsigned v)
{ asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %1, %1};" :: "r"(a), "r"(v) : "memory"); }

__device__ __forceinline__ unsigned lds16(unsigned a)
{ unsigned x, y, z, w; asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)); return x ^ y ^ z ^ w; }

// A load's result goes to global memory (STG), which no shared counter sees.
template <int N, bool T> __global__ void k_ldsm(unsigned *gsink)
{
    extern __shared__ __align__(16) char smem[];
    unsigned v = ldsm<N, T>((unsigned)__cvta_generic_to_shared(smem) + c_soff[threadIdx.x & 31]);
    gsink[threadIdx.x] = v;
}
template <int N> __global__ void k_stsm(int)
{
    extern __shared__ __align__(16) char smem[];
    stsm<N>((unsigned)__cvta_generic_to_shared(smem) + c_soff[threadIdx.x & 31], threadIdx.x);
}
// One cp.async a lane (lanes with goff < 0 sit out), then the group's commit
// and wait (LDGDEPBAR, DEPBAR: not LSU data instructions).
template <int S, bool CG> __global__ void k_ldgsts(const char *g)
{
    extern __shared__ __align__(16) char smem[];
    long long o = c_goff[threadIdx.x & 31];
    if (o >= 0) {
        unsigned d = (unsigned)__cvta_generic_to_shared(smem) + c_soff[threadIdx.x & 31];
        if (CG) asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" :: "r"(d), "l"(g + o), "n"(S) : "memory");
        else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(d), "l"(g + o), "n"(S) : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
}

// ---- the tensor instructions: one warp, one instruction, results stored ----
__global__ void k_mma_f16_f32_16816(float *out)
{
    unsigned a[4], b[2];
    float c[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) a[i] = 0x3c003c00u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x3c003c00u ^ threadIdx.x;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) out[threadIdx.x * 4 + i] = c[i];
}
__global__ void k_mma_f16_f16_16816(unsigned *out)
{
    unsigned a[4], b[2], c[2] = {0, 0};
    for (int i = 0; i < 4; i++) a[i] = 0x3c003c00u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x3c003c00u ^ threadIdx.x;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(c[0]), "+r"(c[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    out[threadIdx.x * 2] = c[0], out[threadIdx.x * 2 + 1] = c[1];
}
__global__ void k_mma_f16_f32_1688(float *out)
{
    unsigned a[2], b;
    float c[4] = {0, 0, 0, 0};
    a[0] = 0x3c003c00u + threadIdx.x, a[1] = a[0] ^ 5, b = 0x3c003c00u ^ threadIdx.x;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(b));
    for (int i = 0; i < 4; i++) out[threadIdx.x * 4 + i] = c[i];
}
__global__ void k_mma_bf16_16816(float *out)
{
    unsigned a[4], b[2];
    float c[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) a[i] = 0x3f803f80u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x3f803f80u ^ threadIdx.x;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) out[threadIdx.x * 4 + i] = c[i];
}
__global__ void k_mma_tf32_1688(float *out)
{
    unsigned a[4], b[2];
    float c[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) a[i] = 0x3f800000u + (threadIdx.x << 13);
    for (int i = 0; i < 2; i++) b[i] = 0x3f800000u ^ (threadIdx.x << 13);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) out[threadIdx.x * 4 + i] = c[i];
}
__global__ void k_mma_s8_16832(int *out)
{
    unsigned a[4], b[2];
    int c[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) a[i] = 0x01020304u * (threadIdx.x + 1);
    for (int i = 0; i < 2; i++) b[i] = 0x01010101u ^ threadIdx.x;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) out[threadIdx.x * 4 + i] = c[i];
}
__global__ void k_mma_f64_884(double *out)
{
    double a = threadIdx.x * 0.5, b = 1.0 / (threadIdx.x + 1), c[2] = {0, 0};
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c[0]), "+d"(c[1]) : "d"(a), "d"(b));
    out[threadIdx.x * 2] = c[0], out[threadIdx.x * 2 + 1] = c[1];
}

// ---- the tensor pipe's rates: CHAINS independent accumulators a warp, ITERS rounds ----
template <int CHAINS> __global__ void r_f16_f32_16816(float *out, int iters)
{
    unsigned a[4], b[2];
    float c[CHAINS][4] = {};
    for (int i = 0; i < 4; i++) a[i] = 0x3c003c00u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x00010001u ^ threadIdx.x;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    float s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int CHAINS> __global__ void r_f16_f16_16816(float *out, int iters)
{
    unsigned a[4], b[2], c[CHAINS][2] = {};
    for (int i = 0; i < 4; i++) a[i] = 0x3c003c00u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x00010001u ^ threadIdx.x;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                         : "+r"(c[k][0]), "+r"(c[k][1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    unsigned s = 0;
    for (int k = 0; k < CHAINS; k++) s ^= c[k][0] ^ c[k][1];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)s;
}
template <int CHAINS> __global__ void r_f16_f32_1688(float *out, int iters)
{
    unsigned a[2], b;
    float c[CHAINS][4] = {};
    a[0] = 0x3c003c00u + threadIdx.x, a[1] = a[0] ^ 3, b = 0x00010001u ^ threadIdx.x;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3]) : "r"(a[0]), "r"(a[1]), "r"(b));
    float s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int CHAINS> __global__ void r_bf16_16816(float *out, int iters)
{
    unsigned a[4], b[2];
    float c[CHAINS][4] = {};
    for (int i = 0; i < 4; i++) a[i] = 0x3f803f80u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x00010001u ^ threadIdx.x;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    float s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int CHAINS> __global__ void r_tf32_1688(float *out, int iters)
{
    unsigned a[4], b[2];
    float c[CHAINS][4] = {};
    for (int i = 0; i < 4; i++) a[i] = 0x3f800000u + (threadIdx.x << 13);
    for (int i = 0; i < 2; i++) b[i] = 0x30000000u ^ (threadIdx.x << 13);
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    float s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <int CHAINS> __global__ void r_s8_16832(float *out, int iters)
{
    unsigned a[4], b[2];
    int c[CHAINS][4] = {};
    for (int i = 0; i < 4; i++) a[i] = 0x01010101u + threadIdx.x;
    for (int i = 0; i < 2; i++) b[i] = 0x01000100u ^ threadIdx.x;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+r"(c[k][0]), "+r"(c[k][1]), "+r"(c[k][2]), "+r"(c[k][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    int s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)s;
}
template <int CHAINS> __global__ void r_f64_884(float *out, int iters)
{
    double a = threadIdx.x * 1e-9, b = 1e-9, c[CHAINS][2] = {};
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++)
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                         : "+d"(c[k][0]), "+d"(c[k][1]) : "d"(a), "d"(b));
    double s = 0;
    for (int k = 0; k < CHAINS; k++) s += c[k][0] + c[k][1];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)s;
}
// Shared-memory data-pipe rates: 8 independent ldmatrix.xN a round, lane
// l's row at (l % 32) * PITCH (16: conflict-free; 128: 8-way), and LDS.128
// at 16 l for comparison: instructions a SM a ns
template <int N, int PITCH> __global__ void r_ldsm(float *out, int iters)
{
    extern __shared__ __align__(16) char smem[];
    unsigned base = (unsigned)__cvta_generic_to_shared(smem) + (threadIdx.x & 31) * PITCH, s = 0;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < 8; k++) s ^= ldsm<N, false>(base + k * 32 * PITCH);
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)s;
}
template <int PITCH> __global__ void r_lds128(float *out, int iters)
{
    extern __shared__ __align__(16) char smem[];
    unsigned base = (unsigned)__cvta_generic_to_shared(smem) + (threadIdx.x & 31) * PITCH, s = 0;
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int k = 0; k < 8; k++) s ^= lds16(base + k * 32 * PITCH);
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)s;
}

struct Pattern {
    std::string name, op;
    int n;
    long long goff[32];
    unsigned soff[32];
};

// The patterns.  ldmatrix: lane l gives row l % 8 of matrix l / 8 (only
// lanes 0-7 matter for .x1, 0-15 for .x2); rows are 16 bytes.
static std::vector<Pattern> make_patterns()
{
    std::vector<Pattern> v;
    auto rows = [&](const char *name, unsigned (*f)(int lane)) {
        const char *ops[] = {"ldsm", "ldsmt", "stsm"};
        for (const char *op : ops)
            for (int n : {1, 2, 4}) {
                if (!strcmp(op, "ldsmt") && n != 4) continue;    // .trans moves the same rows
                Pattern p;
                p.name = std::string(op) + "_x" + std::to_string(n) + "_" + name;
                p.op = op, p.n = n;
                for (int l = 0; l < 32; l++) p.goff[l] = -1, p.soff[l] = f(l);
                v.push_back(p);
            }
    };
    rows("contig", [](int l) { return (unsigned)l * 16; });
    rows("pitch32", [](int l) { return (unsigned)l * 32; });
    rows("pitch64", [](int l) { return (unsigned)l * 64; });          // a 32-half tile row: 2-way
    rows("pitch128", [](int l) { return (unsigned)l * 128; });        // a 64-half tile row: 8-way
    rows("pitch144", [](int l) { return (unsigned)l * 144; });        // 64 halves + 8 padding
    rows("pitch80", [](int l) { return (unsigned)l * 80; });          // 32 halves + 8 padding
    rows("pitch256", [](int l) { return (unsigned)l * 256; });
    rows("swz128", [](int l) { return (unsigned)(l * 128 + ((l & 7) ^ 0) * 16); });   // XOR by row
    rows("swz128_col3", [](int l) { return (unsigned)(l * 128 + ((l & 7) ^ 3) * 16); });
    rows("same_row", [](int) { return 0u; });                         // every lane one row
    rows("same_matrix", [](int l) { return (unsigned)(l % 8) * 16; });    // matrices alike
    rows("pairs", [](int l) { return (unsigned)(l / 2) * 16; });      // two lanes a row
    rows("half_bank", [](int l) { return (unsigned)(l % 8) * 128 + (l / 8) * 16; });   // matrix m: column m of 8 rows 128 B apart
    rows("mat_interleave", [](int l) { return (unsigned)(l % 8) * 64 + (l / 8) * 16; });
    rows("rev", [](int l) { return (unsigned)(31 - l) * 16; });
    rows("random", [](int l) { return (unsigned)(((l * 2654435761u) >> 7) % 3072) * 16; });
    rows("col_off8", [](int l) { return (unsigned)l * 128 + 8 * 16 * 0 + 16 * (l / 8); });
    // cp.async: global side (shared destination conflict-free), then shared side
    auto cp = [&](const char *name, int size, bool cg, long long (*g)(int), unsigned (*s)(int, int)) {
        Pattern p;
        p.name = std::string(cg ? "ldgsts_cg" : "ldgsts_ca") + std::to_string(size) + "_" + name;
        p.op = cg ? "ldgsts_cg" : "ldgsts_ca", p.n = size;
        for (int l = 0; l < 32; l++) p.goff[l] = g(l), p.soff[l] = s(l, size);
        v.push_back(p);
    };
    for (int size : {4, 8, 16})
        for (bool cg : {false, true}) {
            if (cg && size != 16) continue;
            cp("contig", size, cg, [](int l) { return (long long)l * 16; }, [](int l, int s) { return (unsigned)(l * s); });
            cp("stride128", size, cg, [](int l) { return (long long)l * 128; }, [](int l, int s) { return (unsigned)(l * s); });
            cp("offset16", size, cg, [](int l) { return (long long)l * 16 + 16; }, [](int l, int s) { return (unsigned)(l * s); });
            cp("half_warp", size, cg, [](int l) { return l < 16 ? (long long)l * 16 : -1LL; }, [](int l, int s) { return (unsigned)(l * s); });
            cp("broadcast", size, cg, [](int) { return 0LL; }, [](int l, int s) { return (unsigned)(l * s); });
            cp("sconflict128", size, cg, [](int l) { return (long long)l * 16; }, [](int l, int) { return (unsigned)(l * 128); });
            cp("sconflict64", size, cg, [](int l) { return (long long)l * 16; }, [](int l, int) { return (unsigned)(l * 64); });
            cp("spitch_size", size, cg, [](int l) { return (long long)l * 16; }, [](int l, int s) { return (unsigned)(l * s * 2); });
        }
    return v;
}

static void launch(const Pattern &p, char *gbuf)
{
    if (p.op == "ldsm" || p.op == "ldsmt") {
        bool t = p.op == "ldsmt";
        if (p.n == 1) t ? k_ldsm<1, true><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf) : k_ldsm<1, false><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf);
        if (p.n == 2) t ? k_ldsm<2, true><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf) : k_ldsm<2, false><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf);
        if (p.n == 4) t ? k_ldsm<4, true><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf) : k_ldsm<4, false><<<1, 32, SHARED_BYTES>>>((unsigned *)gbuf);
    } else if (p.op == "stsm") {
        if (p.n == 1) k_stsm<1><<<1, 32, SHARED_BYTES>>>(0);
        if (p.n == 2) k_stsm<2><<<1, 32, SHARED_BYTES>>>(0);
        if (p.n == 4) k_stsm<4><<<1, 32, SHARED_BYTES>>>(0);
    } else if (p.op == "ldgsts_cg") {
        k_ldgsts<16, true><<<1, 32, SHARED_BYTES>>>(gbuf);
    } else {
        if (p.n == 4) k_ldgsts<4, false><<<1, 32, SHARED_BYTES>>>(gbuf);
        if (p.n == 8) k_ldgsts<8, false><<<1, 32, SHARED_BYTES>>>(gbuf);
        if (p.n == 16) k_ldgsts<16, false><<<1, 32, SHARED_BYTES>>>(gbuf);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

template <class K> static void rate(const char *name, K kern, double flops_per_mma, size_t smem, char *gbuf, int sms)
{
    const int iters = 4096, threads = 256;
    int blocks = sms * 8;
    float ms = median_ms([&] { kern<<<blocks, threads, smem>>>((float *)gbuf, iters); CK(cudaGetLastError()); }, 7);
    double warp_ops = (double)blocks * (threads / 32) * iters * 8;     // 8 chains
    double per_sm_ns = warp_ops / sms / (ms * 1e6);
    printf("RATE %-14s %8.3f ms  %.4f warp-ops/SM/ns  %.1f TFLOP/s\n", name, ms, per_sm_ns,
           flops_per_mma * warp_ops / (ms * 1e-3) / 1e12);
}

// A dependent chain in one warp: ns from one mma to the next that reads its result.
template <class K> static void latency(const char *name, K kern, char *gbuf)
{
    const int iters = 1 << 14;
    float ms = median_ms([&] { kern<<<1, 32>>>((float *)gbuf, iters); CK(cudaGetLastError()); }, 7);
    printf("LAT %-14s %.3f ns a dependent instruction\n", name, ms * 1e6 / iters);
}

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    char *gbuf;
    CK(cudaMalloc(&gbuf, GLOBAL_BYTES));
    CK(cudaMemset(gbuf, 0, GLOBAL_BYTES));
    int sms = prop.multiProcessorCount;
    printf("DEVICE %s sm_%d%d SMs %d global_base mod 4096 = %llu\n", prop.name, prop.major, prop.minor, sms,
           (unsigned long long)((uintptr_t)gbuf % 4096));
    if (argc > 1 && !strcmp(argv[1], "--rates")) {
        rate("f16_f32_16816", r_f16_f32_16816<8>, 2.0 * 16 * 8 * 16, 0, gbuf, sms);
        rate("f16_f16_16816", r_f16_f16_16816<8>, 2.0 * 16 * 8 * 16, 0, gbuf, sms);
        rate("f16_f32_1688", r_f16_f32_1688<8>, 2.0 * 16 * 8 * 8, 0, gbuf, sms);
        rate("bf16_16816", r_bf16_16816<8>, 2.0 * 16 * 8 * 16, 0, gbuf, sms);
        rate("tf32_1688", r_tf32_1688<8>, 2.0 * 16 * 8 * 8, 0, gbuf, sms);
        rate("s8_16832", r_s8_16832<8>, 2.0 * 16 * 8 * 32, 0, gbuf, sms);
        rate("f64_884", r_f64_884<8>, 2.0 * 8 * 8 * 4, 0, gbuf, sms);
        rate("ldsm_x1", r_ldsm<1, 16>, 0, 8 * 32 * 16, gbuf, sms);
        rate("ldsm_x2", r_ldsm<2, 16>, 0, 8 * 32 * 16, gbuf, sms);
        rate("ldsm_x4", r_ldsm<4, 16>, 0, 8 * 32 * 16, gbuf, sms);
        rate("ldsm_x4_8way", r_ldsm<4, 128>, 0, 8 * 32 * 128, gbuf, sms);
        rate("lds128", r_lds128<16>, 0, 8 * 32 * 16, gbuf, sms);
        rate("lds128_8way", r_lds128<128>, 0, 8 * 32 * 128, gbuf, sms);
        latency("f16_f32_16816", r_f16_f32_16816<1>, gbuf);
        latency("f16_f16_16816", r_f16_f16_16816<1>, gbuf);
        latency("f16_f32_1688", r_f16_f32_1688<1>, gbuf);
        latency("bf16_16816", r_bf16_16816<1>, gbuf);
        latency("tf32_1688", r_tf32_1688<1>, gbuf);
        latency("s8_16832", r_s8_16832<1>, gbuf);
        latency("f64_884", r_f64_884<1>, gbuf);
        return 0;
    }
    int idx = 0;
    for (const Pattern &p : make_patterns()) {
        long long g[32];
        for (int l = 0; l < 32; l++) g[l] = p.goff[l];
        CK(cudaMemcpyToSymbol(c_goff, g, sizeof g));
        CK(cudaMemcpyToSymbol(c_soff, p.soff, sizeof p.soff));
        launch(p, gbuf);
        printf("LAUNCH %d %s %s %d", idx++, p.name.c_str(), p.op.c_str(), p.n);
        for (int l = 0; l < 32; l++) printf(" %lld", p.goff[l]);
        for (int l = 0; l < 32; l++) printf(" %u", p.soff[l]);
        printf("\n");
    }
    struct { const char *name; void (*f)(char *); } mmas[] = {
        {"mma_f16_f32_16816", [](char *g) { k_mma_f16_f32_16816<<<1, 32>>>((float *)g); }},
        {"mma_f16_f16_16816", [](char *g) { k_mma_f16_f16_16816<<<1, 32>>>((unsigned *)g); }},
        {"mma_f16_f32_1688", [](char *g) { k_mma_f16_f32_1688<<<1, 32>>>((float *)g); }},
        {"mma_bf16_16816", [](char *g) { k_mma_bf16_16816<<<1, 32>>>((float *)g); }},
        {"mma_tf32_1688", [](char *g) { k_mma_tf32_1688<<<1, 32>>>((float *)g); }},
        {"mma_s8_16832", [](char *g) { k_mma_s8_16832<<<1, 32>>>((int *)g); }},
        {"mma_f64_884", [](char *g) { k_mma_f64_884<<<1, 32>>>((double *)g); }},
    };
    for (auto &m : mmas) {
        m.f(gbuf);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        printf("LAUNCH %d %s mma 1\n", idx++, m.name);
    }
    CK(cudaFree(gbuf));
    return 0;
}
