// Tensor-core and asynchronous-copy kernels for the PTX interpreter: mma.sync
// in several shapes and types, ldmatrix (plain and .trans), cp.async (16-byte
// .cg and 4-byte .ca with zero fill) and the wmma API.  Needs sm_80 or later;
// compiled for sm_90.  gpu/tensor_check.cu runs every kernel on a GPU against
// a double-precision CPU reference.
//
// Conventions unless a kernel says otherwise:
//   A  row-major M x K            element (m,k) at A[m*K + k]
//   B  column-major K x N         element (k,n) at B[n*K + k]  (B^T row-major, N x K)
//   C  row-major M x N, C = A*B   element (m,n) at C[m*N + n]
// The fragment layouts below are those of the PTX ISA's "Matrix Fragments for
// mma.mXnYkZ" sections, with
//   g = laneid >> 2   (groupID)      t = laneid & 3   (threadID_in_group).
// Within a packed 32-bit register the lower-numbered element is in the low
// bits, i.e. at the lower address when the pair is loaded from memory.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

// ---------------------------------------------------------------- helpers

// A 32-bit word of two adjacent 16-bit (or four 8-bit) elements; p must be
// 4-byte aligned.
__device__ __forceinline__ unsigned ld32(const void *p) { return *(const unsigned *)p; }

// The .shared window address of a generic pointer into shared memory.
__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// D = A * B + D, m16n8k16, f16 inputs, f32 accumulator.
__device__ __forceinline__ void mma_16816_f16(float d[4], const unsigned a[4], const unsigned b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void cp_async_16(unsigned dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

__device__ __forceinline__ void ldmatrix_x4(unsigned r[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
}

// ---------------------------------------------------------------- a. mma_naive
// The m16n8k16 fragment layout, loaded straight from global memory with plain
// 32-bit loads (no shared memory).  One warp computes one 16x8 tile of C.
//   A (4 x .f16x2): a[0] = A(g,   2t..2t+1)   a[1] = A(g+8, 2t..2t+1)
//                   a[2] = A(g,   2t+8..+9)   a[3] = A(g+8, 2t+8..+9)
//   B (2 x .f16x2): b[0] = B(2t..2t+1, g)     b[1] = B(2t+8..+9, g)
//                   (adjacent in memory since B is column-major)
//   C (4 x .f32):   c[0..1] = C(g, 2t..2t+1)  c[2..3] = C(g+8, 2t..2t+1)
// Grid (N/8, M/16), block 32.  M % 16 == 0, N % 8 == 0, K % 16 == 0.
__global__ void mma_naive(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    (void)M;
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 8;
    const __half *a_lo = A + (size_t)(row0 + g) * K + 2 * t;  // row g
    const __half *a_hi = a_lo + (size_t)8 * K;                // row g + 8
    const __half *b = B + (size_t)(col0 + g) * K + 2 * t;     // column g
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        unsigned a[4] = {ld32(a_lo + k0), ld32(a_hi + k0), ld32(a_lo + k0 + 8), ld32(a_hi + k0 + 8)};
        unsigned bb[2] = {ld32(b + k0), ld32(b + k0 + 8)};
        mma_16816_f16(c, a, bb);
    }
    float *c_lo = C + (size_t)(row0 + g) * N + col0 + 2 * t;
    *(float2 *)c_lo = make_float2(c[0], c[1]);
    *(float2 *)(c_lo + (size_t)8 * N) = make_float2(c[2], c[3]);
}

// ---------------------------------------------------------------- b. mma_ldmatrix
// A 64x64 block tile, four warps in a 2x2 arrangement each computing 32x32
// (2 x 4 m16n8k16 tiles), K in steps of 32.  Per step a block stages
//   As: 64 rows (m) x 32 halves (k) of A      Bs: 64 rows (n) x 32 halves (k) of B
// in shared memory (B is column-major, so both tiles are rows of K), copied
// with 16-byte cp.async.cg, two stages (double buffering: the copy of step
// kt+1 is in flight while step kt computes).  Fragments come from ldmatrix:
//   A: .x4, matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
//      (rows 8-15, k 8-15) = a[0..3]; lane l gives the address of row l%16,
//      k chunk l/16.
//   B: .x4 (non-trans: Bs rows are n, so the 8x8 matrix row n, cols k is what
//      b[] wants), matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7),
//      (n 8-15, k 8-15) = b[j][0], b[j][1], b[j+1][0], b[j+1][1]; lane l gives
//      row n = l%8 + 8*(l/16), k chunk (l/8)%2.
// Shared layout: row pitch 32 + PAD halves; a row is four 16-byte chunks.
//   PAD=0, SWZ=0: pitch 64 bytes.  The 8 row addresses of one 8x8 matrix (same
//     chunk, 8 consecutive rows) fall on banks 16*(row%2) + 4*chunk .. +3:
//     only 2 distinct 16-byte bank groups for 8 rows, a 4-way conflict
//     (each ldmatrix phase needs 4 wavefronts instead of 1).
//   PAD=8, SWZ=0: pitch 80 bytes = 20 banks; rows 0..7 start at banks
//     0,20,8,28,16,4,24,12 (mod 32): 8 distinct groups, conflict-free.
//   PAD=0, SWZ=1: pitch 64 bytes, the chunk index stored at chunk ^ ((row>>1)&3).
//     Two consecutive rows share one 128-byte line (row%2 picks its half:
//     banks 0-15 or 16-31), and rows 2j, 2j+1 XOR the chunk with j%4, so eight
//     consecutive rows (any 8-aligned group, as every ldmatrix matrix here is)
//     reading the same logical chunk land on chunks c^0, c^1, c^2, c^3 in both
//     halves: 8 distinct 16-byte bank groups, conflict-free, with no wasted
//     shared memory.  cp.async writes whole rows (a warp writes 8 rows x 4
//     chunks = 512 contiguous bytes, permuted inside each row), so they stay
//     conflict-free too.
// Grid (N/64, M/64), block 128.  M, N multiples of 64, K a multiple of 32.
template <int PAD, int SWZ>
__device__ __forceinline__ int tile_off(int row, int chunk)
{
    const int c = SWZ ? (chunk ^ ((row >> 1) & 3)) : chunk;
    return row * (32 + PAD) + c * 8;
}

template <int PAD, int SWZ>
__global__ void mma_ldmatrix(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    static_assert(!(PAD && SWZ), "the swizzle assumes a 64-byte row pitch");
    static_assert(((32 + PAD) * 2) % 16 == 0, "rows must stay 16-byte aligned");
    constexpr int TILE = 64 * (32 + PAD);  // halves per staged tile
    __shared__ __align__(128) __half As[2][TILE];
    __shared__ __align__(128) __half Bs[2][TILE];
    (void)M;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp >> 1, wn = warp & 1;  // warp's 32x32 sub-tile
    const int g = lane >> 2, t = lane & 3;
    const __half *Ablk = A + (size_t)blockIdx.y * 64 * K;
    const __half *Bblk = B + (size_t)blockIdx.x * 64 * K;

    // Stage a 64x32 tile of A and of B: 256 16-byte chunks each, 2 per thread.
    auto load_stage = [&](int s, int k0) {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            const int c = tid + i * 128, row = c >> 2, chunk = c & 3;
            cp_async_16(smem_u32(&As[s][tile_off<PAD, SWZ>(row, chunk)]), Ablk + (size_t)row * K + k0 + chunk * 8);
            cp_async_16(smem_u32(&Bs[s][tile_off<PAD, SWZ>(row, chunk)]), Bblk + (size_t)row * K + k0 + chunk * 8);
        }
    };

    float acc[2][4][4];
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++)
#pragma unroll
            for (int r = 0; r < 4; r++) acc[mi][ni][r] = 0.f;

    const int KT = K / 32;
    load_stage(0, 0);
    cp_async_commit();
    for (int kt = 0; kt < KT; kt++) {
        if (kt + 1 < KT) {
            load_stage((kt + 1) & 1, (kt + 1) * 32);
            cp_async_commit();
            cp_async_wait<1>();  // step kt's group is complete, kt+1's may still be in flight
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();  // every thread's copies of step kt are visible
        const int s = kt & 1;
#pragma unroll
        for (int ks = 0; ks < 2; ks++) {  // two k16 steps in the 32-wide tile
            unsigned a[2][4], b[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; mi++) {
                const int row = wm * 32 + mi * 16 + (lane & 15), chunk = ks * 2 + (lane >> 4);
                ldmatrix_x4(a[mi], smem_u32(&As[s][tile_off<PAD, SWZ>(row, chunk)]));
            }
#pragma unroll
            for (int np = 0; np < 2; np++) {
                const int row = wn * 32 + np * 16 + (lane & 7) + ((lane >> 4) << 3);
                const int chunk = ks * 2 + ((lane >> 3) & 1);
                unsigned r[4];
                ldmatrix_x4(r, smem_u32(&Bs[s][tile_off<PAD, SWZ>(row, chunk)]));
                b[2 * np][0] = r[0];
                b[2 * np][1] = r[1];
                b[2 * np + 1][0] = r[2];
                b[2 * np + 1][1] = r[3];
            }
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int ni = 0; ni < 4; ni++) mma_16816_f16(acc[mi][ni], a[mi], b[ni]);
        }
        __syncthreads();  // stage s is free before step kt+2's copies overwrite it
    }

#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++) {
            const int row = blockIdx.y * 64 + wm * 32 + mi * 16 + g;
            const int col = blockIdx.x * 64 + wn * 32 + ni * 8 + 2 * t;
            float *c = C + (size_t)row * N + col;
            *(float2 *)c = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *(float2 *)(c + (size_t)8 * N) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}
template __global__ void mma_ldmatrix<0, 0>(const __half *, const __half *, float *, int, int, int);  // conflicting
template __global__ void mma_ldmatrix<8, 0>(const __half *, const __half *, float *, int, int, int);  // padded
template __global__ void mma_ldmatrix<0, 1>(const __half *, const __half *, float *, int, int, int);  // swizzled

// ---------------------------------------------------------------- c. wmma_gemm
// The same product through the nvcuda::wmma API (wmma.load / wmma.mma /
// wmma.store in PTX), m16n16k16, fragments loaded straight from global memory.
// One warp per 16x16 tile of C.  Grid (N/16, M/16), block 32.
// M, N, K multiples of 16.
__global__ void wmma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    using namespace nvcuda;
    (void)M;
    const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        wmma::load_matrix_sync(fa, A + (size_t)m0 * K + k0, K);  // (m,k) at [m*K + k]
        wmma::load_matrix_sync(fb, B + (size_t)n0 * K + k0, K);  // (k,n) at [k + n*K]
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + (size_t)m0 * N + n0, fc, N, wmma::mem_row_major);
}

// ---------------------------------------------------------------- d. ldmatrix_trans_copy
// One warp.  in: a 16x16 half tile, row-major (in[r*16 + c]); it is written to
// shared memory with plain stores (same layout, pitch 16 halves) and read back
// with ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16.  Lane l gives the
// address of tile row l%16, column 8*(l/16), so matrix i (i = 0..3, its row
// addresses from lanes 8i..8i+7) is the 8x8 block at row R_i = 8*(i&1),
// column C_i = 8*(i>>1).  With .trans, lane l's register i holds, low half
// then high half, elements (2*(l&3), l>>2) and (2*(l&3)+1, l>>2) of matrix i.
// Output order: out[l*8 + i*2 + h] = register i of lane l, half h (0 = low),
// so that
//   out[l*8 + i*2 + h] = in[(R_i + 2*(l&3) + h)*16 + C_i + (l>>2)].
// Without .trans it would be in[(R_i + (l>>2))*16 + C_i + 2*(l&3) + h].
// Grid 1, block 32.  in and out: 256 halves each.
__global__ void ldmatrix_trans_copy(const __half *in, __half *out)
{
    __shared__ __align__(16) __half tile[16 * 16];
    const int l = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < 8; j++) tile[j * 32 + l] = in[j * 32 + l];
    __syncwarp();
    unsigned r[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_u32(&tile[(l & 15) * 16 + (l >> 4) * 8]))
                 : "memory");
#pragma unroll
    for (int i = 0; i < 4; i++) *(unsigned *)(out + l * 8 + i * 2) = r[i];
}

// ---------------------------------------------------------------- e. cp_async_zfill
// Each thread copies one float with cp.async.ca.shared.global [dst], [src], 4,
// src_size; src_size = 4 for i < n and 0 past the end, where the copy reads
// nothing and writes 4 zero bytes (the source address is clamped to in[0] so
// it is valid anyway).  The shared slot is first set to -1 so a missing zero
// fill shows.  Then cp.async.wait_all, __syncthreads, and the shared array is
// written back: out[i] = i < n ? in[i] : 0.
// Grid 1, block 128 (i = threadIdx.x; out has 128 floats; 0 <= n <= 128).
__global__ void cp_async_zfill(const float *in, float *out, int n)
{
    __shared__ __align__(16) float s[128];
    const int i = threadIdx.x;
    s[i] = -1.0f;
    __syncthreads();
    const float *src = in + (i < n ? i : 0);
    const int src_size = i < n ? 4 : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_u32(&s[i])), "l"(src), "r"(src_size)
                 : "memory");
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncthreads();
    out[i] = s[i];
}

// ---------------------------------------------------------------- f. mma_m16n8k8_f16acc
// mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16: f16 inputs and an f16
// accumulator (started at zero).  One warp, one tile, M=16 N=8 K=8.
//   A (2 x .f16x2): a[0] = A(g, 2t..2t+1)   a[1] = A(g+8, 2t..2t+1)
//   B (1 x .f16x2): b    = B(2t..2t+1, g)
//   C (2 x .f16x2): c[0] = C(g, 2t..2t+1)   c[1] = C(g+8, 2t..2t+1)
// A: 16x8 row-major (A[m*8 + k]), B column-major (B[n*8 + k]), C 16x8
// row-major half.  Grid 1, block 32.
__global__ void mma_m16n8k8_f16acc(const __half *A, const __half *B, __half *C)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned a0 = ld32(A + g * 8 + 2 * t), a1 = ld32(A + (g + 8) * 8 + 2 * t);
    const unsigned b0 = ld32(B + g * 8 + 2 * t);
    unsigned c0 = 0, c1 = 0;  // two zero .f16x2
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};\n"
                 : "+r"(c0), "+r"(c1)
                 : "r"(a0), "r"(a1), "r"(b0));
    *(unsigned *)(C + g * 8 + 2 * t) = c0;
    *(unsigned *)(C + (g + 8) * 8 + 2 * t) = c1;
}

// ---------------------------------------------------------------- g. mma_s8
// mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.  One warp, one tile,
// M=16 N=8 K=32.  Four s8 per 32-bit register, lowest k in the low byte.
//   A (4 x .b32): a[0] = A(g, 4t..4t+3)      a[1] = A(g+8, 4t..4t+3)
//                 a[2] = A(g, 4t+16..+19)    a[3] = A(g+8, 4t+16..+19)
//   B (2 x .b32): b[0] = B(4t..4t+3, g)      b[1] = B(4t+16..+19, g)
//   C (4 x .s32): c[0..1] = C(g, 2t..2t+1)   c[2..3] = C(g+8, 2t..2t+1)
// A: 16x32 row-major (A[m*32 + k]), B column-major (B[n*32 + k]), C 16x8
// row-major int.  Grid 1, block 32.
__global__ void mma_s8(const signed char *A, const signed char *B, int *C)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned a0 = ld32(A + g * 32 + 4 * t), a1 = ld32(A + (g + 8) * 32 + 4 * t);
    const unsigned a2 = ld32(A + g * 32 + 4 * t + 16), a3 = ld32(A + (g + 8) * 32 + 4 * t + 16);
    const unsigned b0 = ld32(B + g * 32 + 4 * t), b1 = ld32(B + g * 32 + 4 * t + 16);
    int c[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    C[g * 8 + 2 * t] = c[0];
    C[g * 8 + 2 * t + 1] = c[1];
    C[(g + 8) * 8 + 2 * t] = c[2];
    C[(g + 8) * 8 + 2 * t + 1] = c[3];
}

// ---------------------------------------------------------------- h. mma_f64
// mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64.  One warp, one tile,
// M=8 N=8 K=4.
//   A (1 x .f64): a = A(g, t)      B (1 x .f64): b = B(t, g)
//   C (2 x .f64): c[0..1] = C(g, 2t..2t+1)
// A: 8x4 row-major (A[m*4 + k]), B column-major (B[n*4 + k]), C 8x8
// row-major double.  Grid 1, block 32.
__global__ void mma_f64(const double *A, const double *B, double *C)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const double a = A[g * 4 + t], b = B[g * 4 + t];
    double c0 = 0.0, c1 = 0.0;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(c0), "+d"(c1)
                 : "d"(a), "d"(b));
    C[g * 8 + 2 * t] = c0;
    C[g * 8 + 2 * t + 1] = c1;
}

// ---------------------------------------------------------------- i. mma_tf32
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, inputs rounded to tf32
// with cvt.rna.tf32.f32.  One warp, one tile, M=16 N=8 K=8.  Note the tf32 A
// order differs from f16's: a[1] is the row below a[0], not the next column.
//   A (4 x .b32): a[0] = A(g, t)   a[1] = A(g+8, t)   a[2] = A(g, t+4)   a[3] = A(g+8, t+4)
//   B (2 x .b32): b[0] = B(t, g)   b[1] = B(t+4, g)
//   C (4 x .f32): c[0..1] = C(g, 2t..2t+1)   c[2..3] = C(g+8, 2t..2t+1)
// A: 16x8 row-major float (A[m*8 + k]), B column-major (B[n*8 + k]), C 16x8
// row-major float.  Grid 1, block 32.
__device__ __forceinline__ unsigned to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

__global__ void mma_tf32(const float *A, const float *B, float *C)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned a0 = to_tf32(A[g * 8 + t]), a1 = to_tf32(A[(g + 8) * 8 + t]);
    const unsigned a2 = to_tf32(A[g * 8 + t + 4]), a3 = to_tf32(A[(g + 8) * 8 + t + 4]);
    const unsigned b0 = to_tf32(B[g * 8 + t]), b1 = to_tf32(B[g * 8 + t + 4]);
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    *(float2 *)(C + g * 8 + 2 * t) = make_float2(c[0], c[1]);
    *(float2 *)(C + (g + 8) * 8 + 2 * t) = make_float2(c[2], c[3]);
}

// ---------------------------------------------------------------- j. mma_bf16
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: the f16 layout of
// mma_naive with bf16 elements.  One warp, one tile, M=16 N=8 K=16.
// A: 16x16 row-major (A[m*16 + k]), B column-major (B[n*16 + k]), C 16x8
// row-major float.  Grid 1, block 32.
__global__ void mma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned a0 = ld32(A + g * 16 + 2 * t), a1 = ld32(A + (g + 8) * 16 + 2 * t);
    const unsigned a2 = ld32(A + g * 16 + 2 * t + 8), a3 = ld32(A + (g + 8) * 16 + 2 * t + 8);
    const unsigned b0 = ld32(B + g * 16 + 2 * t), b1 = ld32(B + g * 16 + 2 * t + 8);
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    *(float2 *)(C + g * 8 + 2 * t) = make_float2(c[0], c[1]);
    *(float2 *)(C + (g + 8) * 8 + 2 * t) = make_float2(c[2], c[3]);
}
