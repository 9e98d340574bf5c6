// The seed documents' kernels, each written once.  Every global or shared
// access goes through LD/ST macros that, in the CAP=true instantiation, record
// the address each active lane touches (capture.cuh); in CAP=false they are
// the plain access, so the timed and profiled kernels are the seed code.
#pragma once
#include "capture.cuh"

#define LDG(L, p) (cap_note<CAP>(0, 0, sizeof(*(p)), (L), (p)), *(p))
#define LDG_LDG(L, p) (cap_note<CAP>(0, 0, sizeof(*(p)), (L), (p)), __ldg(p))
/* the value first (it may be a load), then the store: the order the GPU
 * executes them, and so the order the capture records them */
#define STG(L, p, v)                                          \
    do {                                                      \
        auto v_ = (v);                                        \
        cap_note<CAP>(1, 0, sizeof(*(p)), (L), (p));          \
        *(p) = v_;                                            \
    } while (0)
#define LDS(L, p) (cap_note<CAP>(0, 1, sizeof(*(p)), (L), (p)), *(p))
#define STS(L, p, v)                                          \
    do {                                                      \
        auto v_ = (v);                                        \
        cap_note<CAP>(1, 1, sizeof(*(p)), (L), (p));          \
        *(p) = v_;                                            \
    } while (0)

// ---- seeds 000/002: the add kernel's five access patterns (labels x y z) ----
template <bool CAP> __global__ void add(const float *x, const float *y, float *z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x;
    float a = LDG(0, &x[n]), b = LDG(1, &y[n]);
    STG(2, &z[n], a + b);
}
template <bool CAP> __global__ void add_permuted(const float *x, const float *y, float *z)
{
    int tid_permuted = threadIdx.x ^ 0x1;
    int n = tid_permuted + blockIdx.x * blockDim.x;
    float a = LDG(0, &x[n]), b = LDG(1, &y[n]);
    STG(2, &z[n], a + b);
}
template <bool CAP> __global__ void add_offset(const float *x, const float *y, float *z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x + 1;
    float a = LDG(0, &x[n]), b = LDG(1, &y[n]);
    STG(2, &z[n], a + b);
}
template <bool CAP> __global__ void add_stride(const float *x, const float *y, float *z)
{
    int n = blockIdx.x + threadIdx.x * gridDim.x;
    float a = LDG(0, &x[n]), b = LDG(1, &y[n]);
    STG(2, &z[n], a + b);
}
template <bool CAP> __global__ void add_broadcast(const float *x, const float *y, float *z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x;
    float a = LDG(0, &x[0]), b = LDG(1, &y[n]);
    STG(2, &z[n], a + b);
}

// ---- seed 001: strided read (labels in out) ----
template <bool CAP>
__global__ void strided_read_kernel(const float *__restrict__ in, float *__restrict__ out, size_t N, int stride)
{
    const size_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const size_t T = gridDim.x * (size_t)blockDim.x;
    float acc = 0.f;
    for (size_t j = (size_t)t * (size_t)stride; j < N; j += (size_t)T * (size_t)stride) {
        float v = LDG(0, &in[j]);
        acc = acc * 1.000000119f + v;
    }
    if (t < N) STG(1, &out[t], acc);
}

// ---- seed 003: row sum vs column sum of an M x M matrix (labels a out) ----
template <bool CAP> __global__ void row_sum(const float *a, float *out, int M)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= M) return;
    float s = 0.f;
    for (int i = 0; i < M; i++) s += LDG(0, &a[(size_t)t * M + i]);
    STG(1, &out[t], s);
}
template <bool CAP> __global__ void col_sum(const float *a, float *out, int M)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= M) return;
    float s = 0.f;
    for (int i = 0; i < M; i++) s += LDG(0, &a[(size_t)i * M + t]);
    STG(1, &out[t], s);
}

// ---- seed 002: matrix copy and transposes, real = float (labels A B) ----
#define TILE_DIM 32
template <bool CAP> __global__ void copy(const float *A, float *B, const int N)
{
    const int nx = blockIdx.x * TILE_DIM + threadIdx.x;
    const int ny = blockIdx.y * TILE_DIM + threadIdx.y;
    const int index = ny * N + nx;
    if (nx < N && ny < N) STG(1, &B[index], LDG(0, &A[index]));
}
template <bool CAP> __global__ void transpose1(const float *A, float *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N) STG(1, &B[nx * N + ny], LDG(0, &A[ny * N + nx]));
}
template <bool CAP> __global__ void transpose2(const float *A, float *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N) STG(1, &B[ny * N + nx], LDG(0, &A[nx * N + ny]));
}
template <bool CAP> __global__ void transpose3(const float *A, float *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N) STG(1, &B[ny * N + nx], LDG_LDG(0, &A[nx * N + ny]));
}

// ---- seed 004: shared tiles (labels tile_st tile_ld out).  Each block writes
// its own slice of out, so many blocks can be timed; grid 1 is the seed. ----
#define BDIMX 32
#define BDIMY 32
#define IPAD 1
#define BDIMX_RECT 32
#define BDIMY_RECT 16
#define NPAD 2
#define SLICE(out) ((out) + (size_t)blockIdx.x * blockDim.x * blockDim.y)

template <bool CAP> __global__ void setRowReadRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[threadIdx.y][threadIdx.x]));
}
template <bool CAP> __global__ void setColReadCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.x][threadIdx.y], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[threadIdx.x][threadIdx.y]));
}
template <bool CAP> __global__ void setRowReadCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[threadIdx.x][threadIdx.y]));
}
template <bool CAP> __global__ void setRowReadColDyn(int *out)
{
    extern __shared__ int dtile[];
    out = SLICE(out);
    unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    STS(0, &dtile[row_idx], (int)row_idx);
    __syncthreads();
    STG(2, &out[row_idx], LDS(1, &dtile[col_idx]));
}
template <bool CAP> __global__ void setRowReadColIpad(int *out)
{
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[threadIdx.x][threadIdx.y]));
}
template <bool CAP> __global__ void setRowReadColDynIpad(int *out)
{
    extern __shared__ int dtile[];
    out = SLICE(out);
    unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned int col_idx = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &dtile[row_idx], (int)g_idx);
    __syncthreads();
    STG(2, &out[g_idx], LDS(1, &dtile[col_idx]));
}
template <bool CAP> __global__ void rectSetRowReadRow(int *out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[threadIdx.y][threadIdx.x]));
}
template <bool CAP> __global__ void rectSetColReadCol(int *out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    int col_idx = idx / blockDim.y, row_idx = idx % blockDim.y;
    STS(0, &tile[row_idx][col_idx], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[row_idx][col_idx]));
}
template <bool CAP> __global__ void rectSetRowReadCol(int *out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    int row_idx = idx % blockDim.y, col_idx = idx / blockDim.y;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[row_idx][col_idx]));
}
template <bool CAP> __global__ void rectSetRowReadColDyn(int *out)
{
    extern __shared__ int dtile[];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    int row_idx = idx % blockDim.y, col_idx = idx / blockDim.y;
    STS(0, &dtile[idx], (int)idx);
    __syncthreads();
    int load_idx = row_idx * blockDim.x + col_idx;
    STG(2, &out[idx], LDS(1, &dtile[load_idx]));
}
template <bool CAP> __global__ void rectSetRowReadColPad(int *out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT + NPAD];
    out = SLICE(out);
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    STS(0, &tile[threadIdx.y][threadIdx.x], (int)idx);
    unsigned int row_idx = idx % blockDim.y, col_idx = idx / blockDim.y;
    __syncthreads();
    STG(2, &out[idx], LDS(1, &tile[row_idx][col_idx]));
}
template <bool CAP> __global__ void rectSetRowReadColDynPad(int *out)
{
    extern __shared__ int dtile[];
    out = SLICE(out);
    unsigned int thread_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int set_idx = threadIdx.y * (blockDim.x + NPAD) + threadIdx.x;
    STS(0, &dtile[set_idx], (int)thread_idx);
    __syncthreads();
    unsigned int row_idx = thread_idx % blockDim.y, col_idx = thread_idx / blockDim.y;
    unsigned int read_idx = row_idx * (blockDim.x + NPAD) + col_idx;
    STG(2, &out[thread_idx], LDS(1, &dtile[read_idx]));
}

// ---- seed 004: reductions, blockDim 128 (labels: see reduce_labels) ----
#define DIM 128
// one in-place step: p[tid] += p[tid + s]; labels base, base+1, base+2
template <bool CAP, int SPACE, typename P>
__device__ __forceinline__ void reduce_step(P p, unsigned tid, unsigned s, int base)
{
    if constexpr (SPACE == 0) {
        int a = LDG(base, &p[tid]), b = LDG(base + 1, &p[tid + s]);
        STG(base + 2, &p[tid], a + b);
    } else {
        int a = LDS(base, &p[tid]), b = LDS(base + 1, &p[tid + s]);
        STS(base + 2, &p[tid], a + b);
    }
}
// The last warp's unrolled steps.  __syncwarp() between them: since Volta a
// warp's lanes are not guaranteed to run in lockstep, and it adds no memory
// instruction, so the counts are the seed's.
template <bool CAP, int SPACE, typename P> __device__ __forceinline__ void reduce_warp(P v, unsigned tid)
{
    for (unsigned s = 32, k = 1; s >= 1; s >>= 1, k++) {
        reduce_step<CAP, SPACE>(v, tid, s, 3 * k);
        __syncwarp();
    }
}
template <bool CAP> __global__ void reduceGmem(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    if (blockDim.x >= 128 && tid < 64) reduce_step<CAP, 0>(idata, tid, 64, 0);
    __syncthreads();
    if (tid < 32) reduce_warp<CAP, 0>((volatile int *)idata, tid);
    if (tid == 0) STG(23, &g_odata[blockIdx.x], LDG(22, &idata[0]));
}
template <bool CAP> __global__ void reduceSmem(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[DIM];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    STS(25, &smem[tid], LDG(24, &idata[tid]));
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) reduce_step<CAP, 1>(smem, tid, 64, 0);
    __syncthreads();
    if (tid < 32) reduce_warp<CAP, 1>((volatile int *)smem, tid);
    if (tid == 0) STG(23, &g_odata[blockIdx.x], LDS(22, &smem[0]));
}
template <bool CAP> __global__ void reduceSmemUnroll(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[DIM];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int tmpSum = 0;
    if (idx < n) {
        int a1 = 0, a2 = 0, a3 = 0, a4 = 0;
        a1 = LDG(26, &g_idata[idx]);
        if (idx + blockDim.x < n) a2 = LDG(27, &g_idata[idx + blockDim.x]);
        if (idx + 2 * blockDim.x < n) a3 = LDG(28, &g_idata[idx + 2 * blockDim.x]);
        if (idx + 3 * blockDim.x < n) a4 = LDG(29, &g_idata[idx + 3 * blockDim.x]);
        tmpSum = a1 + a2 + a3 + a4;
    }
    STS(25, &smem[tid], tmpSum);
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) reduce_step<CAP, 1>(smem, tid, 64, 0);
    __syncthreads();
    if (tid < 32) reduce_warp<CAP, 1>((volatile int *)smem, tid);
    if (tid == 0) STG(23, &g_odata[blockIdx.x], LDS(22, &smem[0]));
}

// ---- seed 004: transpose through a 16x16 shared tile (labels in tile_st tile_ld out) ----
template <bool CAP, int PAD> __global__ void transposeSmem(float *out, const float *in, int nrows, int ncols)
{
    __shared__ float tile[16][16 + PAD];
    unsigned int row = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int col = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int offset = row * ncols + col;
    if (row < nrows && col < ncols) STS(1, &tile[threadIdx.y][threadIdx.x], LDG(0, &in[offset]));
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y, icol = bidx % blockDim.y;
    col = blockIdx.y * blockDim.y + icol;
    row = blockIdx.x * blockDim.x + irow;
    unsigned int transposed_offset = row * nrows + col;
    __syncthreads();
    if (row < ncols && col < nrows) STG(3, &out[transposed_offset], LDS(2, &tile[icol][irow]));
}

// ---- beside them: a float4-vectorised grid-stride copy (labels in out) ----
template <bool CAP> __global__ void copy_float4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
        STG(1, &out[i], LDG(0, &in[i]));
}
