// The WMMA API's fragments, shape by shape and type by type: which matrix
// element each lane's fragment element holds after wmma::load_matrix_sync,
// where wmma::store_matrix_sync puts each accumulator element, and one
// wmma::mma_sync tile a shape and type.  PTX leaves fragment layouts to the
// implementation, so the H100's are measured: gpu/wmma_check.cu runs every
// kernel here on the GPU and prints what it finds; tests/check_tensor.c runs
// the same kernels on the PTX interpreter and compares.
//
// Shapes m16n16k16, m32n8k16 and m8n32k16; A and B fragments of half,
// __nv_bfloat16, signed char and unsigned char, row- and column-major;
// accumulators of float, half and int, stored and loaded row- and
// column-major.  Each load and store has a global (_g) and a shared (_s)
// kernel: the shared one is what ptxas makes into LDSM or LDS.
//
// One warp (block of 32), one launch each.  Buffers:
//   mem  LD x LD elements (LD = 48: a 16-byte multiple for every type),
//        filled by the kernel itself
//   out  int[512]
// Loads (kernel(mem, out, which)): the kernel fills the matrix so that
// element (r, c) holds r (which = 0) or c (which = 1), in memory order
// mem[r*LD + c] for row-major, mem[c*LD + r] for column-major, loads a
// fragment at mem with stride LD and writes out[lane*NE + e] = element e of
// the lane's fragment (NE = the fragment's num_elements).
// Stores (kernel(mem, out, which), which unused): element e of lane l's
// accumulator fragment holds l*NE + e; the kernel fills mem with -1, stores
// the fragment with stride LD and writes out[r*N + c] = what element (r, c)
// of the M x N matrix holds.
// Tiles (kernel(A, B, C, D)): D = A B + C for one M x N x K tile, A
// row-major (ld K), B column-major (ld K; the tile_cr kernels: A
// column-major, ld M, B row-major, ld N), C and D row-major (ld N).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define WMMA_LD 48
#define WMMA_COL_row false
#define WMMA_COL_col true

typedef signed char s8_t;
typedef unsigned char u8_t;
typedef __nv_bfloat16 bf16_t;
typedef __half f16_t;
typedef float f32_t;
typedef int s32_t;

template <typename T> __device__ __forceinline__ T enc(int v);
template <> __device__ __forceinline__ f16_t enc<f16_t>(int v) { return __int2half_rn(v); }
template <> __device__ __forceinline__ bf16_t enc<bf16_t>(int v) { return __int2bfloat16_rn(v); }
template <> __device__ __forceinline__ s8_t enc<s8_t>(int v) { return (s8_t)v; }
template <> __device__ __forceinline__ u8_t enc<u8_t>(int v) { return (u8_t)v; }
template <> __device__ __forceinline__ f32_t enc<f32_t>(int v) { return (f32_t)v; }
template <> __device__ __forceinline__ s32_t enc<s32_t>(int v) { return v; }

__device__ __forceinline__ int dec(f16_t x) { return __half2int_rn(x); }
__device__ __forceinline__ int dec(bf16_t x) { return (int)__bfloat162float(x); }
__device__ __forceinline__ int dec(s8_t x) { return x; }
__device__ __forceinline__ int dec(u8_t x) { return x; }
__device__ __forceinline__ int dec(f32_t x) { return (int)x; }
__device__ __forceinline__ int dec(s32_t x) { return x; }

// Fill P (LD x LD) with r or c of each element, then load fragment F at P.
template <typename Frag, typename T, bool Col>
__device__ __forceinline__ void fill_load(Frag &f, T *p, int which)
{
    _Pragma("unroll 1") for (int i = threadIdx.x; i < WMMA_LD * WMMA_LD; i += 32) {
        int r = Col ? i % WMMA_LD : i / WMMA_LD, c = Col ? i / WMMA_LD : i % WMMA_LD;
        p[i] = enc<T>(which ? c : r);
    }
    __syncwarp();
    wmma::load_matrix_sync(f, p, WMMA_LD);
}

template <typename Frag, typename T, bool Col>
__device__ __forceinline__ void fill_load_acc(Frag &f, T *p, int which)
{
    _Pragma("unroll 1") for (int i = threadIdx.x; i < WMMA_LD * WMMA_LD; i += 32) {
        int r = Col ? i % WMMA_LD : i / WMMA_LD, c = Col ? i / WMMA_LD : i % WMMA_LD;
        p[i] = enc<T>(which ? c : r);
    }
    __syncwarp();
    wmma::load_matrix_sync(f, p, WMMA_LD, Col ? wmma::mem_col_major : wmma::mem_row_major);
}

template <typename Frag> __device__ __forceinline__ void dump(const Frag &f, int *out)
{
    for (int e = 0; e < f.num_elements; e++) out[threadIdx.x * f.num_elements + e] = dec(f.x[e]);
}

// Number the accumulator's elements, store them at P and read the matrix back.
template <typename Frag, typename T, int M, int N, bool Col>
__device__ __forceinline__ void number_store(Frag &f, T *p, int *out)
{
    for (int e = 0; e < f.num_elements; e++) f.x[e] = enc<T>((int)threadIdx.x * f.num_elements + e);
    _Pragma("unroll 1") for (int i = threadIdx.x; i < WMMA_LD * WMMA_LD; i += 32) p[i] = enc<T>(-1);
    __syncwarp();
    wmma::store_matrix_sync(p, f, WMMA_LD, Col ? wmma::mem_col_major : wmma::mem_row_major);
    __syncwarp();
    _Pragma("unroll 1") for (int i = threadIdx.x; i < M * N; i += 32) {
        int r = i / N, c = i % N;
        out[i] = dec(p[Col ? c * WMMA_LD + r : r * WMMA_LD + c]);
    }
}

// NAME_g and NAME_s: fragment USE (matrix_a, matrix_b) of type T, layout L.
#define WMMA_LOAD_AB(name, use, M, N, K, T, L)                                                 \
    extern "C" __global__ void name##_g(void *mem, int *out, int which)                      \
    {                                                                                         \
        wmma::fragment<wmma::use, M, N, K, T, wmma::L##_major> f;                              \
        fill_load<decltype(f), T, WMMA_COL_##L>(f, (T *)mem, which);                       \
        dump(f, out);                                                                         \
    }                                                                                         \
    extern "C" __global__ void name##_s(void *mem, int *out, int which)                      \
    {                                                                                         \
        __shared__ __align__(128) T s[WMMA_LD * WMMA_LD];                                     \
        (void)mem;                                                                            \
        wmma::fragment<wmma::use, M, N, K, T, wmma::L##_major> f;                              \
        fill_load<decltype(f), T, WMMA_COL_##L>(f, s, which);                              \
        dump(f, out);                                                                         \
    }
#define WMMA_LOAD_C(name, M, N, K, T, L)                                                       \
    extern "C" __global__ void name##_g(void *mem, int *out, int which)                      \
    {                                                                                         \
        wmma::fragment<wmma::accumulator, M, N, K, T> f;                                      \
        fill_load_acc<decltype(f), T, WMMA_COL_##L>(f, (T *)mem, which);                   \
        dump(f, out);                                                                         \
    }                                                                                         \
    extern "C" __global__ void name##_s(void *mem, int *out, int which)                      \
    {                                                                                         \
        __shared__ __align__(128) T s[WMMA_LD * WMMA_LD];                                     \
        (void)mem;                                                                            \
        wmma::fragment<wmma::accumulator, M, N, K, T> f;                                      \
        fill_load_acc<decltype(f), T, WMMA_COL_##L>(f, s, which);                          \
        dump(f, out);                                                                         \
    }
#define WMMA_STORE(name, M, N, K, T, L)                                                        \
    extern "C" __global__ void name##_g(void *mem, int *out, int which)                      \
    {                                                                                         \
        (void)which;                                                                          \
        wmma::fragment<wmma::accumulator, M, N, K, T> f;                                      \
        number_store<decltype(f), T, M, N, WMMA_COL_##L>(f, (T *)mem, out);                \
    }                                                                                         \
    extern "C" __global__ void name##_s(void *mem, int *out, int which)                      \
    {                                                                                         \
        __shared__ __align__(128) T s[WMMA_LD * WMMA_LD];                                     \
        (void)mem, (void)which;                                                               \
        wmma::fragment<wmma::accumulator, M, N, K, T> f;                                      \
        number_store<decltype(f), T, M, N, WMMA_COL_##L>(f, s, out);                       \
    }
// D = A B + C: A of layout LA, B of layout LB (ld K for row A / col B, else M / N).
#define WMMA_TILE(name, M, N, K, T, ACC, LA, LB)                                               \
    extern "C" __global__ void name(const T *A, const T *B, const ACC *C, ACC *D)            \
    {                                                                                         \
        wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::LA##_major> a;                        \
        wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::LB##_major> b;                        \
        wmma::fragment<wmma::accumulator, M, N, K, ACC> c;                                    \
        wmma::load_matrix_sync(a, A, WMMA_COL_##LA ? M : K);                               \
        wmma::load_matrix_sync(b, B, WMMA_COL_##LB ? K : N);                               \
        wmma::load_matrix_sync(c, C, N, wmma::mem_row_major);                                 \
        wmma::mma_sync(c, a, b, c);                                                           \
        wmma::store_matrix_sync(D, c, N, wmma::mem_row_major);                                \
    }

// Every kernel: X(kind, name, M, N, K, T, ACC-or-layout...) for the host's table.
#define WMMA_AB(X, S, M, N, K, T)                                                              \
    X(AB, ld_a_row_##T##_##S, matrix_a, M, N, K, T, row)                                       \
    X(AB, ld_a_col_##T##_##S, matrix_a, M, N, K, T, col)                                       \
    X(AB, ld_b_row_##T##_##S, matrix_b, M, N, K, T, row)                                       \
    X(AB, ld_b_col_##T##_##S, matrix_b, M, N, K, T, col)
#define WMMA_ACC(X, S, M, N, K, T)                                                             \
    X(C, ld_c_row_##T##_##S, accumulator, M, N, K, T, row)                                     \
    X(C, ld_c_col_##T##_##S, accumulator, M, N, K, T, col)                                     \
    X(ST, st_d_row_##T##_##S, accumulator, M, N, K, T, row)                                    \
    X(ST, st_d_col_##T##_##S, accumulator, M, N, K, T, col)
#define WMMA_SHAPE(X, T2, S, M, N, K)                                                          \
    WMMA_AB(X, S, M, N, K, f16_t) WMMA_AB(X, S, M, N, K, bf16_t) WMMA_AB(X, S, M, N, K, s8_t)  \
    WMMA_AB(X, S, M, N, K, u8_t) WMMA_ACC(X, S, M, N, K, f32_t) WMMA_ACC(X, S, M, N, K, f16_t) \
    WMMA_ACC(X, S, M, N, K, s32_t)                                                            \
    T2(tile_f16_f32_##S, M, N, K, f16_t, f32_t, row, col)                                     \
    T2(tile_f16_f16_##S, M, N, K, f16_t, f16_t, row, col)                                     \
    T2(tile_bf16_f32_##S, M, N, K, bf16_t, f32_t, row, col)                                   \
    T2(tile_s8_s32_##S, M, N, K, s8_t, s32_t, row, col)                                       \
    T2(tile_u8_s32_##S, M, N, K, u8_t, s32_t, row, col)                                       \
    T2(tile_cr_f16_f32_##S, M, N, K, f16_t, f32_t, col, row)
#define WMMA_ALL(X, T2)                                                                       \
    WMMA_SHAPE(X, T2, m16n16k16, 16, 16, 16)                                                  \
    WMMA_SHAPE(X, T2, m32n8k16, 32, 8, 16)                                                    \
    WMMA_SHAPE(X, T2, m8n32k16, 8, 32, 16)

#define WMMA_DEFINE(kind, name, use, M, N, K, T, L) WMMA_DEFINE_##kind(name, use, M, N, K, T, L)
#define WMMA_DEFINE_AB(name, use, M, N, K, T, L) WMMA_LOAD_AB(name, use, M, N, K, T, L)
#define WMMA_DEFINE_C(name, use, M, N, K, T, L) WMMA_LOAD_C(name, M, N, K, T, L)
#define WMMA_DEFINE_ST(name, use, M, N, K, T, L) WMMA_STORE(name, M, N, K, T, L)
WMMA_ALL(WMMA_DEFINE, WMMA_TILE)
