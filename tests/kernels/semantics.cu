// Kernels that exercise the PTX interpreter's semantics, each writing results
// a C reference recomputes (tests/check_kernel.c).  Compiled once to
// semantics.ptx (make tests/kernels/semantics.ptx) so the tests need no CUDA
// compiler.
#include <cuda_fp16.h>

__constant__ int c_table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

// Divergence inside a loop with data-dependent trip counts, break and
// continue: out[t] = sum of (k * t) for k < t % 37 where k % 3 != 0, stopping
// at the first k with k * t > 500.
__global__ void diverge(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
    for (int k = 0; k < t % 37; k++) {
        if (k % 3 == 0) continue;
        if (k * t > 500) break;
        if (t & 1) s += k * t;
        else s -= k;
    }
    out[t] = s;
}

__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ float mix(float a, int b) { return a * 2.0f + (float)b; }

// Calls, including recursion, with results: out[t] = fact(t % 10) + (int)mix(t, 3)
__global__ void calls(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = fact(t % 10) + (int)mix((float)t, 3);
}

// Warp operations: out[4t..4t+3] = shfl down 3, shfl xor 5, shfl idx 7, ballot of odd lanes
__global__ void warp_ops(int *out)
{
    int t = threadIdx.x;
    int v = t * 10 + 1;
    out[4 * t + 0] = __shfl_down_sync(0xffffffffu, v, 3);
    out[4 * t + 1] = __shfl_xor_sync(0xffffffffu, v, 5);
    out[4 * t + 2] = __shfl_sync(0xffffffffu, v, 7);
    out[4 * t + 3] = (int)__ballot_sync(0xffffffffu, t & 1);
}

// Atomics: a histogram of t % 16 in shared memory then added to global;
// global max, min and a CAS counter.
__global__ void atomics(int *hist, int *minmax, unsigned *counter)
{
    __shared__ int sh[16];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16) sh[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&sh[t % 16], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
    atomicMax(&minmax[0], (t * 7919) % 1000);
    atomicMin(&minmax[1], (t * 7919) % 1000);
    unsigned old = atomicCAS(counter, 0u, 0u);
    while (atomicCAS(counter, old, old + 1) != old) old = atomicCAS(counter, 0u, 0u);
}

// Local arrays indexed at run time, constant memory, 64-bit and bit ops,
// division by zero (defined on the GPU, no trap).
__global__ void misc(long long *out, const int *div)
{
    int t = threadIdx.x;
    int a[8];
    for (int k = 0; k < 8; k++) a[k] = t * k + c_table[k];
    long long x = (long long)a[(t * 5) % 8] * 1000003LL + c_table[t % 8];
    unsigned u = (unsigned)x;
    out[8 * t + 0] = x;
    out[8 * t + 1] = __popc(u) + __clz(u) * 100;
    out[8 * t + 2] = (long long)__brev(u);
    out[8 * t + 3] = (long long)__byte_perm(u, 0x12345678u, 0x5140);
    out[8 * t + 4] = (long long)(u / (unsigned)div[t]);
    out[8 * t + 5] = (long long)(u % (unsigned)div[t]);
    out[8 * t + 6] = x >> (t % 40);
    out[8 * t + 7] = (long long)(t % 3 == 0 ? -t : t * t);
}

// Floats, doubles and halves: out holds float, double and half results.
__global__ void floats(float *f, double *d, __half *h, const float *in)
{
    int t = threadIdx.x;
    float x = in[t];
    f[4 * t + 0] = fmaf(x, 1.5f, -2.0f);
    f[4 * t + 1] = sqrtf(x);
    f[4 * t + 2] = (float)(int)(x * 3.7f);
    f[4 * t + 3] = fminf(x, 0.25f) + fmaxf(x, 0.75f);
    d[t] = (double)x * 1e10 / 3.0;
    h[t] = __float2half(x * 2.0f);
}

// Dynamic shared memory and a block-wide tree reduction with a barrier in a loop.
__global__ void block_sum(const float *in, float *out)
{
    extern __shared__ float s[];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// A misaligned access: the GPU faults, and so does the interpreter.
__global__ void misaligned(float *p) { p[threadIdx.x] = *(float *)((char *)p + 2); }

// __ffs and __ffsll: nvcc writes them as brev then bfind.shiftamt (the shift
// that takes the highest set bit to the top), plus one; 0 where no bit is set.
__global__ void ffs_bits(int *out, const unsigned *in)
{
    int t = threadIdx.x;
    unsigned u = t == 7 ? 0u : in[t] << (t % 32);
    unsigned long long v = (unsigned long long)u << (t % 29);
    out[4 * t + 0] = __ffs(u);
    out[4 * t + 1] = __ffsll((long long)v);
    out[4 * t + 2] = __ffs((int)(u | 0x80000000u));
    out[4 * t + 3] = __ffsll(t == 9 ? 0ll : (long long)(v | (1ull << 63)));
}
