// Where do the extra shared-store wavefronts come from? (issue 29, "counter fidelity")
//
// On the H100, ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum exceeds
// the wavefronts the STS address patterns need by 6-9% on kernels that store
// globally loaded data into shared memory (a 32x32-tile transpose: 141,362 for
// 131,072 conflict-free STS; the shared-memory SGEMM: 285,193 for 262,144), and
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum counts exactly the
// excess.  Small launches (a block or two) show none; one block of 32 warps
// storing constants showed 4-13 (README.md, "Noise").  Each case below changes
// one thing; every STS is conflict-free (one wavefront: STS.32 at a word a lane)
// unless its name says 2way (two) or sts128 (four), so the ideal count is known
// and the case's STS executed (smsp__inst_executed_op_shared_st) times it.
//
//   sts_const*          STS of a register constant, no global memory at all
//   ldg_sts[_cg|_nc]    v = ld.global[.cg|.nc] (every sector an L1 miss); STS v
//   ldg_sts_hit         the same addresses every iteration: L1 hits after the first
//   ldg_sts_2way        the same, two lanes a bank (2 wavefronts ideal)
//   ldg128_sts128       LDG.128 then STS.128 (4 wavefronts ideal)
//   ldg_sts_syncafter   __syncthreads() after each STS
//   ldg_delay_sts       v waited for, then ~2000 cycles of spinning, then STS v
//   ldg_indep_sts       LDG issued, STS of a constant while it is in flight
//   ldg_sts_1warp*      blocks of one warp (32 an SM; or one an SM)
//   *_1blk              one 256-thread block an SM (120 KiB dynamic shared)
//   ldg_wait_sync_sts_1blk    every warp waits for its LDG, bar.sync, STS, bar.sync:
//                             no fill is in flight on the SM while STS run
//   ldg_nowait_sync_sts_1blk  LDG, bar.sync, STS (waits for its own data), bar.sync
//   sts_bg_<X>          warps 0-3 of each block only STS constants (512 each);
//                       warps 4-7 only do X: ldg (L1 misses), ldgcg (.cg misses),
//                       ldghit (L1 hits), lds, stg, none (exit at once)
//   lds_bg_ldg          as sts_bg_ldg with conflict-free LDS in place of STS
//   ldgsts_ca4, ldgsts_cg16   cp.async (LDGSTS) 4 B .ca and 16 B .cg, for comparison
//   tr_copysmem         cuda-samples' copySharedMem at 2048^2 (131,072 STS)
//   tr_asm              the same with inline-PTX STS/LDS; tr_noldg (STS of a constant), tr_nolds,
//                       tr_nostg, tr_nosync, tr_noldg_nostg leave that part out; tr_asm_onewave:
//                       2048x512 (1024 blocks: one wave, 8 an SM)
//   mix_sts_lds         warps 0-3 only STS, warps 4-7 only LDS (other words), 512 each;
//   mix_half_samebanks  the same with lanes 0-15 storing and lanes 0-15 loading (banks 0-15 both)
//   mix_half_diffbanks  lanes 0-15 storing (banks 0-15), lanes 16-31 loading (banks 16-31)
//   lds_only            every warp only LDS
//   alt_sts_lds_other   each warp alternates STS (its row) and LDS (another row); _same: LDS of
//                       the word it just stored
//   ldc_sts             STS of __constant__ values read at a per-thread index
//
// Loads and shared accesses are inline PTX (volatile), so the SASS
// (cuobjdump -sass) has exactly the instructions the case names.
// stdout: "LAUNCH <index> <case> <repeat> grid=.. block=.. smem=.. ideal_per_sts=.."
// in the order ncu numbers the kernels (index 0 is the buffer fill).
//
//   nvcc -arch=sm_90 -O3 -lineinfo -o sts_extra gpu/probes/sts_extra.cu
//   ncu --clock-control none --csv --page raw --log-file ncu.csv --metrics \
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,\
//   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
//   l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
//   l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum ./sts_extra [--repeat N] [--only CASE]
//   cuobjdump -sass sts_extra > sass.txt
// and the ideal (SASS-patched) counts and per-instruction Source Counters:
//   ncu --clock-control none --csv --page raw --print-units base --log-file ncu_sass.csv --metrics \
//     smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum,\
//   smsp__inst_executed_op_shared_st.sum ./sts_extra --repeat 1
//   ncu --clock-control none --section SourceCounters --import-source no \
//     -k regex:'^(tr_copysmem|tr_asm|mix_sts_lds|alt_sts_lds_other)$' -o src ./sts_extra --repeat 1
//   ncu -i src.ncu-rep --page source --csv --print-source sass > source_counters.csv
// Results and what they say: gpu/results/h100/sts_extra/ (summary.txt).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "sts_extra: %s:%d: %s: %s\n", __FILE__, __LINE__, #x,              \
                    cudaGetErrorString(e_));                                                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

enum { CA = 0, CG = 1, NC = 2 };

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void sts32(unsigned a, float v)
{
    asm volatile("st.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
}
__device__ __forceinline__ void sts128(unsigned a, float4 v)
{
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(a), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
}
__device__ __forceinline__ float lds32(unsigned a)
{
    float v;
    // ld.volatile: a plain ld.shared of an address that does not change is hoisted out of the loop by ptxas
    asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
    return v;
}
template <int K> __device__ __forceinline__ float ldg(const float *p);
template <> __device__ __forceinline__ float ldg<CA>(const float *p)
{
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
template <> __device__ __forceinline__ float ldg<CG>(const float *p)
{
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
template <> __device__ __forceinline__ float ldg<NC>(const float *p)
{
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ float4 ldg128(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p)
                 : "memory");
    return v;
}
__device__ __forceinline__ void stg32(float *p, float v) { asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory"); }
// Make the warp wait for v (a predicated store needs it) without storing anything.
__device__ __forceinline__ void wait_for(float v, float *sink)
{
    if (__float_as_uint(v) == 0xdeadbeefu) *sink = v;
}

// the word a lane stores: stride 1 conflict-free, 2 two lanes a bank
__device__ __forceinline__ unsigned lane_addr(const float *sm, int stride)
{
    unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
    return saddr(sm) + 4u * (w * 32u * stride + l * stride);
}
// element i of this thread's stream: coalesced, every element once
__device__ __forceinline__ size_t elem(int i, int iters)
{
    return ((size_t)blockIdx.x * iters + i) * blockDim.x + threadIdx.x;
}

__global__ void fill(float *g, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        g[i] = 1.0f + (float)(i & 1023) * (1.0f / 1024);
}

__global__ void sts_const(int iters, int stride)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) sts32(a, (float)i);
}

template <int K> __device__ __forceinline__ void ldg_sts_body(const float *g, int iters, int stride)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) sts32(a, ldg<K>(g + elem(i, iters)));
}
__global__ void ldg_sts(const float *g, int iters, int stride) { ldg_sts_body<CA>(g, iters, stride); }
__global__ void ldg_sts_cg(const float *g, int iters, int stride) { ldg_sts_body<CG>(g, iters, stride); }
__global__ void ldg_sts_nc(const float *g, int iters, int stride) { ldg_sts_body<NC>(g, iters, stride); }

__global__ void ldg_sts_hit(const float *g, int iters, int stride)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
    const float *p = g + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < iters; i++) sts32(a, ldg<CA>(p));
}

__global__ void ldg128_sts128(const float4 *g, int iters)
{
    extern __shared__ float4 sm4[];
    unsigned a = saddr(sm4) + 16u * threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < iters; i++) sts128(a, ldg128(g + elem(i, iters)));
}

__global__ void ldg_sts_syncafter(const float *g, int iters, int stride)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        sts32(a, ldg<CA>(g + elem(i, iters)));
        __syncthreads();
    }
}

__global__ void ldg_delay_sts(const float *g, int iters, int stride, float *sink)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        float v = ldg<CA>(g + elem(i, iters));
        wait_for(v, sink);
        long long t0 = clock64();
        while (clock64() - t0 < 2000) {}
        sts32(a, v);
    }
}

__global__ void ldg_indep_sts(const float *g, int iters, int stride, float *out)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
    float acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        float v = ldg<CA>(g + elem(i, iters));
        sts32(a, (float)i);
        acc += v;
    }
    stg32(out + blockIdx.x * (size_t)blockDim.x + threadIdx.x, acc);
}

__global__ void ldg_wait_sync_sts(const float *g, int iters, int stride, float *sink)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        float v = ldg<CA>(g + elem(i, iters));
        wait_for(v, sink);
        __syncthreads();
        sts32(a, v);
        __syncthreads();
    }
}

__global__ void ldg_nowait_sync_sts(const float *g, int iters, int stride)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, stride);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        float v = ldg<CA>(g + elem(i, iters));
        __syncthreads();
        sts32(a, v);
        __syncthreads();
    }
}

// Warps 0-3 store constants; warps 4-7 do the background BG (4 of them an iteration).
enum { BG_NONE, BG_LDG, BG_LDGCG, BG_LDGHIT, BG_LDS, BG_STG };
template <int BG> __device__ __forceinline__ void background(const float *g, float *out, int bg_iters)
{
    extern __shared__ float sm[];
    unsigned w = threadIdx.x / 32 - 4, l = threadIdx.x % 32;
    size_t t = ((size_t)blockIdx.x * 4 + w) * 32 + l;        // background thread number
    size_t nt = (size_t)gridDim.x * 4 * 32;
    float acc = 0;
#pragma unroll 1
    for (int i = 0; i < (BG == BG_NONE ? 0 : bg_iters); i++) {
        float v0, v1, v2, v3;
        if (BG == BG_LDG || BG == BG_LDGCG) {
            const float *p = g + (size_t)i * 4 * nt + t;
            v0 = BG == BG_LDG ? ldg<CA>(p) : ldg<CG>(p);
            v1 = BG == BG_LDG ? ldg<CA>(p + nt) : ldg<CG>(p + nt);
            v2 = BG == BG_LDG ? ldg<CA>(p + 2 * nt) : ldg<CG>(p + 2 * nt);
            v3 = BG == BG_LDG ? ldg<CA>(p + 3 * nt) : ldg<CG>(p + 3 * nt);
        } else if (BG == BG_LDGHIT) {
            const float *p = g + t;
            v0 = ldg<CA>(p); v1 = ldg<CA>(p + nt); v2 = ldg<CA>(p + 2 * nt); v3 = ldg<CA>(p + 3 * nt);
        } else if (BG == BG_LDS) {
            unsigned a = saddr(sm) + 4u * (1024 + w * 32 + l);      // apart from the STS warps' words
            v0 = lds32(a); v1 = lds32(a); v2 = lds32(a); v3 = lds32(a);
        } else {  // BG_STG
            float *p = out + (size_t)i * 4 * nt + t;
            stg32(p, (float)i); stg32(p + nt, (float)i); stg32(p + 2 * nt, (float)i); stg32(p + 3 * nt, (float)i);
            v0 = v1 = v2 = v3 = 0;
        }
        acc += v0 + v1 + v2 + v3;
    }
    if (BG != BG_STG && BG != BG_NONE) stg32(out + t, acc);
}
template <int BG> __device__ __forceinline__ void sts_bg_body(const float *g, float *out, int sts_iters, int bg_iters)
{
    extern __shared__ float sm[];
    if (threadIdx.x < 128) {
        unsigned a = lane_addr(sm, 1);
#pragma unroll 1
        for (int i = 0; i < sts_iters; i++) sts32(a, (float)i);
    } else {
        background<BG>(g, out, bg_iters);
    }
}
__global__ void sts_bg_none(const float *g, float *out, int si, int bi) { sts_bg_body<BG_NONE>(g, out, si, bi); }
__global__ void sts_bg_ldg(const float *g, float *out, int si, int bi) { sts_bg_body<BG_LDG>(g, out, si, bi); }
__global__ void sts_bg_ldgcg(const float *g, float *out, int si, int bi) { sts_bg_body<BG_LDGCG>(g, out, si, bi); }
__global__ void sts_bg_ldghit(const float *g, float *out, int si, int bi) { sts_bg_body<BG_LDGHIT>(g, out, si, bi); }
__global__ void sts_bg_lds(const float *g, float *out, int si, int bi) { sts_bg_body<BG_LDS>(g, out, si, bi); }
__global__ void sts_bg_stg(const float *g, float *out, int si, int bi) { sts_bg_body<BG_STG>(g, out, si, bi); }

__global__ void lds_bg_ldg(const float *g, float *out, int li, int bi)
{
    extern __shared__ float sm[];
    if (threadIdx.x < 128) {
        unsigned a = lane_addr(sm, 1);
        float acc = 0;
#pragma unroll 1
        for (int i = 0; i < li; i++) acc += lds32(a);
        stg32(out + (size_t)gridDim.x * 128 + blockIdx.x * 128 + threadIdx.x, acc);
    } else {
        background<BG_LDG>(g, out, bi);
    }
}

__global__ void ldgsts_ca4(const float *g, int iters)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, 1);
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a), "l"(g + elem(i, iters)) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    }
}
__global__ void ldgsts_cg16(const float4 *g, int iters)
{
    extern __shared__ float4 sm4[];
    unsigned a = saddr(sm4) + 16u * threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g + elem(i, iters)) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    }
}

// cuda-samples 6_Performance/transpose copySharedMem (TILE_DIM 32, BLOCK_ROWS 8), as gpu/outside/transpose.cu
__global__ void tr_copysmem(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[32 * 32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    int index = x + width * y;
    for (int i = 0; i < 32; i += 8)
        if (x < width && y + i < height) tile[(threadIdx.y + i) * 32 + threadIdx.x] = idata[index + i * width];
    __syncthreads();
    for (int i = 0; i < 32; i += 8)
        if (x < height && y + i < width) odata[index + i * width] = tile[(threadIdx.y + i) * 32 + threadIdx.x];
}


// ---- which part of the transpose makes them: copySharedMem with shared accesses in inline PTX,
// less one thing at a time.  MODE bits:
enum { NO_LDG = 1, NO_LDS = 2, NO_STG = 4, NO_SYNC = 8 };
template <int MODE> __device__ __forceinline__ void tr_body(float *odata, const float *idata, int width)
{
    __shared__ float tile[32 * 32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    int index = x + width * y;
    unsigned a = saddr(tile) + 4u * (threadIdx.y * 32 + threadIdx.x);
    float v[4], s = 0;
#pragma unroll
    for (int i = 0; i < 4; i++) v[i] = (MODE & NO_LDG) ? (float)(i + x) : idata[index + i * 8 * width];
#pragma unroll
    for (int i = 0; i < 4; i++) sts32(a + i * 8 * 128, v[i]);
    if (!(MODE & NO_SYNC)) __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; i++) {
        float u = (MODE & NO_LDS) ? v[i] * 2.0f : lds32(a + i * 8 * 128);
        if (MODE & NO_STG) s += u;
        else odata[index + i * 8 * width] = u;
    }
    if (MODE & NO_STG) wait_for(s, odata);
}
__global__ void tr_asm(float *o, const float *in, int w) { tr_body<0>(o, in, w); }
__global__ void tr_noldg(float *o, const float *in, int w) { tr_body<NO_LDG>(o, in, w); }
__global__ void tr_nolds(float *o, const float *in, int w) { tr_body<NO_LDS>(o, in, w); }
__global__ void tr_nostg(float *o, const float *in, int w) { tr_body<NO_STG>(o, in, w); }
__global__ void tr_nosync(float *o, const float *in, int w) { tr_body<NO_SYNC>(o, in, w); }
__global__ void tr_noldg_nostg(float *o, const float *in, int w) { tr_body<NO_LDG | NO_STG>(o, in, w); }

// ---- STS and LDS together, no global memory but one STG a thread at the end.
// warps 0-3 store, warps 4-7 load (words apart); HALF: only lanes 0-15 (banks 0-15) store, and the
// loads use lanes 16-31 (banks 16-31) when DIFF, lanes 0-15 (banks 0-15) when not.
template <bool HALF, bool DIFF> __device__ __forceinline__ void mix_body(float *out, int iters)
{
    extern __shared__ float sm[];
    unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
    float acc = 0;
    if (w < 4) {
        if (HALF && l >= 16) return;
        unsigned a = saddr(sm) + 4u * (w * 32 + l);
#pragma unroll 1
        for (int i = 0; i < iters; i++) sts32(a, (float)i);
    } else {
        if (HALF && (DIFF ? l < 16 : l >= 16)) return;
        unsigned a = saddr(sm) + 4u * (1024 + w * 32 + l);
#pragma unroll 1
        for (int i = 0; i < iters; i++) acc += lds32(a);
        stg32(out + blockIdx.x * (size_t)blockDim.x + threadIdx.x, acc);
    }
}
__global__ void mix_sts_lds(float *out, int iters) { mix_body<false, false>(out, iters); }
__global__ void mix_half_samebanks(float *out, int iters) { mix_body<true, false>(out, iters); }
__global__ void mix_half_diffbanks(float *out, int iters) { mix_body<true, true>(out, iters); }
__global__ void lds_only(float *out, int iters)
{
    extern __shared__ float sm[];
    unsigned a = saddr(sm) + 4u * threadIdx.x;
    float acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) acc += lds32(a);
    stg32(out + blockIdx.x * (size_t)blockDim.x + threadIdx.x, acc);
}
// each warp alternates: STS to its row, LDS of another row (OTHER) or of the word it just stored
template <bool OTHER> __device__ __forceinline__ void alt_body(float *out, int iters)
{
    extern __shared__ float sm[];
    unsigned a = saddr(sm) + 4u * threadIdx.x, b = OTHER ? a + 4u * 1024 : a;
    float acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        sts32(a, (float)i);
        acc += lds32(b);
    }
    stg32(out + blockIdx.x * (size_t)blockDim.x + threadIdx.x, acc);
}
__global__ void alt_sts_lds_other(float *out, int iters) { alt_body<true>(out, iters); }
__global__ void alt_sts_lds_same(float *out, int iters) { alt_body<false>(out, iters); }

// STS of a value from __constant__ memory at a per-thread index (probe.cu's offsets come so)
__constant__ float c_tab[1024];
__global__ void ldc_sts(int iters)
{
    extern __shared__ float sm[];
    unsigned a = lane_addr(sm, 1);
#pragma unroll 1
    for (int i = 0; i < iters; i++) sts32(a, c_tab[(threadIdx.x + 37 * i) & 1023]);
}

static int g_index = 0, g_repeat = 2;
static const char *g_only = nullptr;
static float *g_in, *g_out;

#define RUN(NAME, GRID, BLOCK, SMEM, IDEAL, ...)                                                       \
    do {                                                                                               \
        if (g_only && strcmp(g_only, NAME)) break;                                                     \
        for (int r_ = 0; r_ < g_repeat; r_++) {                                                        \
            __VA_ARGS__;                                                                               \
            CK(cudaGetLastError());                                                                    \
            CK(cudaDeviceSynchronize());                                                               \
            printf("LAUNCH %d %s %d grid=%d block=%d smem=%d ideal_per_sts=%d\n", ++g_index, NAME, r_, \
                   (int)(GRID), (int)(BLOCK), (int)(SMEM), IDEAL);                                     \
        }                                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) g_repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) g_only = argv[++i];
        else { fprintf(stderr, "usage: sts_extra [--repeat N] [--only CASE]\n"); return 2; }
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int N = prop.multiProcessorCount;
    const size_t in_words = (size_t)64 << 20, out_words = (size_t)16 << 20;   // 256 MiB, 64 MiB
    CK(cudaMalloc(&g_in, in_words * 4));
    CK(cudaMalloc(&g_out, out_words * 4));
    CK(cudaMemset(g_out, 0, out_words * 4));
    fill<<<4 * N, 256>>>(g_in, in_words);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("DEVICE %s sm_%d%d sms=%d\n", prop.name, prop.major, prop.minor, N);
    printf("LAUNCH 0 fill 0\n");
    const int BIG = 120 << 10;   // one block an SM
    CK(cudaFuncSetAttribute(ldg_sts, cudaFuncAttributeMaxDynamicSharedMemorySize, BIG));
    CK(cudaFuncSetAttribute(ldg_wait_sync_sts, cudaFuncAttributeMaxDynamicSharedMemorySize, BIG));
    CK(cudaFuncSetAttribute(ldg_nowait_sync_sts, cudaFuncAttributeMaxDynamicSharedMemorySize, BIG));
    const int G = 8 * N, B = 256, IT = 16, S1 = 8 << 10;
    float *sink = g_out + out_words - 1;

    RUN("sts_const", G, B, S1, 1, sts_const<<<G, B, S1>>>(IT, 1));
    RUN("sts_const_2way", G, B, S1, 2, sts_const<<<G, B, S1>>>(IT, 2));
    RUN("sts_const_b1024", 2 * N, 1024, 2 * S1, 1, sts_const<<<2 * N, 1024, 2 * S1>>>(IT, 1));
    RUN("ldg_sts", G, B, S1, 1, ldg_sts<<<G, B, S1>>>(g_in, IT, 1));
    RUN("ldg_sts_cg", G, B, S1, 1, ldg_sts_cg<<<G, B, S1>>>(g_in, IT, 1));
    RUN("ldg_sts_nc", G, B, S1, 1, ldg_sts_nc<<<G, B, S1>>>(g_in, IT, 1));
    RUN("ldg_sts_hit", G, B, S1, 1, ldg_sts_hit<<<G, B, S1>>>(g_in, IT, 1));
    RUN("ldg_sts_2way", G, B, S1, 2, ldg_sts<<<G, B, S1>>>(g_in, IT, 2));
    RUN("ldg128_sts128", G, B, S1, 4, ldg128_sts128<<<G, B, S1>>>((const float4 *)g_in, IT));
    RUN("ldg_sts_syncafter", G, B, S1, 1, ldg_sts_syncafter<<<G, B, S1>>>(g_in, IT, 1));
    RUN("ldg_delay_sts", G, B, S1, 1, ldg_delay_sts<<<G, B, S1>>>(g_in, IT, 1, sink));
    RUN("ldg_indep_sts", G, B, S1, 1, ldg_indep_sts<<<G, B, S1>>>(g_in, IT, 1, g_out));
    RUN("ldg_sts_1warp", 32 * N, 32, 1024, 1, ldg_sts<<<32 * N, 32, 1024>>>(g_in, IT, 1));
    RUN("ldg_sts_1warp_1blk", N, 32, BIG, 1, ldg_sts<<<N, 32, BIG>>>(g_in, IT, 1));
    RUN("ldg_sts_1blk", N, B, BIG, 1, ldg_sts<<<N, B, BIG>>>(g_in, IT, 1));
    RUN("ldg_wait_sync_sts_1blk", N, B, BIG, 1, ldg_wait_sync_sts<<<N, B, BIG>>>(g_in, IT, 1, sink));
    RUN("ldg_nowait_sync_sts_1blk", N, B, BIG, 1, ldg_nowait_sync_sts<<<N, B, BIG>>>(g_in, IT, 1));
    const int SI = 512, BI = 16, S2 = 16 << 10;
    RUN("sts_bg_none", G, B, S2, 1, sts_bg_none<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("sts_bg_ldg", G, B, S2, 1, sts_bg_ldg<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("sts_bg_ldgcg", G, B, S2, 1, sts_bg_ldgcg<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("sts_bg_ldghit", G, B, S2, 1, sts_bg_ldghit<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("sts_bg_lds", G, B, S2, 1, sts_bg_lds<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("sts_bg_stg", G, B, S2, 1, sts_bg_stg<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("lds_bg_ldg", G, B, S2, 1, lds_bg_ldg<<<G, B, S2>>>(g_in, g_out, SI, BI));
    RUN("ldgsts_ca4", G, B, S1, 1, ldgsts_ca4<<<G, B, S1>>>(g_in, IT));
    RUN("ldgsts_cg16", G, B, S1, 4, ldgsts_cg16<<<G, B, S1>>>((const float4 *)g_in, IT));
    RUN("tr_copysmem", 64 * 64, 256, 0, 1, tr_copysmem<<<dim3(64, 64), dim3(32, 8)>>>(g_out, g_in, 2048, 2048));
    const dim3 TG(64, 64), TB(32, 8);
    RUN("tr_asm", 64 * 64, 256, 0, 1, tr_asm<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_noldg", 64 * 64, 256, 0, 1, tr_noldg<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_nolds", 64 * 64, 256, 0, 1, tr_nolds<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_nostg", 64 * 64, 256, 0, 1, tr_nostg<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_nosync", 64 * 64, 256, 0, 1, tr_nosync<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_noldg_nostg", 64 * 64, 256, 0, 1, tr_noldg_nostg<<<TG, TB>>>(g_out, g_in, 2048));
    RUN("tr_asm_onewave", 64 * 16, 256, 0, 1, tr_asm<<<dim3(64, 16), TB>>>(g_out, g_in, 2048));
    const int MI = 512;
    RUN("mix_sts_lds", G, B, S2, 1, mix_sts_lds<<<G, B, S2>>>(g_out, MI));
    RUN("mix_half_samebanks", G, B, S2, 1, mix_half_samebanks<<<G, B, S2>>>(g_out, MI));
    RUN("mix_half_diffbanks", G, B, S2, 1, mix_half_diffbanks<<<G, B, S2>>>(g_out, MI));
    RUN("lds_only", G, B, S2, 1, lds_only<<<G, B, S2>>>(g_out, MI));
    RUN("alt_sts_lds_other", G, B, S2, 1, alt_sts_lds_other<<<G, B, S2>>>(g_out, MI / 4));
    RUN("alt_sts_lds_same", G, B, S2, 1, alt_sts_lds_same<<<G, B, S2>>>(g_out, MI / 4));
    {
        static float h[1024];
        for (int i = 0; i < 1024; i++) h[i] = (float)i;
        CK(cudaMemcpyToSymbol(c_tab, h, sizeof h));
    }
    RUN("ldc_sts", G, B, S1, 1, ldc_sts<<<G, B, S1>>>(IT));

    CK(cudaFree(g_in));
    CK(cudaFree(g_out));
    return 0;
}
