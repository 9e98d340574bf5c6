// How fast the SM issues half-precision arithmetic (HFMA2, HADD2, HMUL2,
// scalar HFMA) beside FFMA, at 1 to 8 warps a sub-partition: the time
// model's pipe for them.  The profile's thr_hfma2 (gpu/sm.cuh) came from a
// chain whose step also moves a register; here every step is one
// instruction on an accumulator of its own (CH of them a thread, each
// x = x * a + b with a, b fixed), so what is timed is the instruction alone.
// Also the pattern half GEMMs run (LeetCUDA's hgemm_t_8x8 kernels): an
// outer product of 8 half2 of A by 8 halves of B into 32 half2 accumulators
// a k step, operands from registers.
//
// Build: nvcc -O3 -arch=sm_90 -o /tmp/half_pipe gpu/probes/half_pipe.cu
// Usage: half_pipe            one line a (op, warps a block):
//   RATE op W warps_per_smsp inst_per_cycle_per_sm cycles
// inst_per_cycle_per_sm: warp instructions of the op the SM issued a cycle
// (clock64 from the first warp's start to the last's end, one block a SM,
// 132 blocks... one a SM, the grid the GPU's SM count).
// Exit status 1 on a CUDA error.
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "timing.cuh"   // CK: stop on a CUDA error with where it happened

enum { OP_HFMA2, OP_HADD2, OP_HMUL2, OP_HFMA, OP_FFMA, OP_MIX, OP_OUTER, NOPS };
static const char *const op_names[] = {"hfma2", "hadd2", "hmul2", "hfma", "ffma", "hfma2_ffma", "outer8x8"};

#define CH 16   // independent accumulators a thread
#define U 8     // unrolled steps a loop iteration

template <int OP> __device__ __forceinline__ void step(unsigned (&x)[CH], float (&f)[CH], unsigned a, unsigned b, float fa, float fb)
{
#pragma unroll
    for (int c = 0; c < CH; c++) {
        if (OP == OP_HFMA2) asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x[c]) : "r"(a), "r"(b));
        if (OP == OP_HADD2) asm volatile("add.rn.f16x2 %0, %0, %1;" : "+r"(x[c]) : "r"(a));
        if (OP == OP_HMUL2) asm volatile("mul.rn.f16x2 %0, %0, %1;" : "+r"(x[c]) : "r"(a));
        if (OP == OP_HFMA) {
            unsigned short h = (unsigned short)x[c];
            asm volatile("fma.rn.f16 %0, %0, %1, %2;" : "+h"(h) : "h"((unsigned short)a), "h"((unsigned short)b));
            x[c] = h;
        }
        if (OP == OP_FFMA) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[c]) : "f"(fa), "f"(fb));
        if (OP == OP_MIX) {
            if (c & 1) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[c]) : "f"(fa), "f"(fb));
            else asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x[c]) : "r"(a), "r"(b));
        }
    }
}

// One block a SM; each warp times its loop; *CYC gets each block's first
// start and last end (atomics on the block's two words).
template <int OP> __global__ void rate(int iters, unsigned seed, unsigned long long *cyc, unsigned *sink)
{
    unsigned x[CH];
    float f[CH];
    const unsigned a = 0x3c003c00u ^ (seed & 1), b = 0x00010001u;   // 1.0 (or a ulp off), a tiny addend
    const float fa = 1.0f + (float)(seed & 1) * 1e-7f, fb = 1e-7f;
#pragma unroll
    for (int c = 0; c < CH; c++) x[c] = 0x3c003c00u + (unsigned)c + threadIdx.x, f[c] = 1.0f + (float)c;
    __syncthreads();
    unsigned long long t0 = clock64();
    if (OP == OP_OUTER) {
        // 8 half2 of A (16 rows) times 8 halves of B (as 4 half2): 32 HFMA2 a k step,
        // as hgemm_t_8x8's inner loop; operands change every step
        unsigned A[8], B[4], acc[32];
#pragma unroll
        for (int i = 0; i < 8; i++) A[i] = 0x3c003c00u + (unsigned)i + threadIdx.x;
#pragma unroll
        for (int j = 0; j < 4; j++) B[j] = 0x3c003c00u ^ (unsigned)j;
#pragma unroll
        for (int i = 0; i < 32; i++) acc[i] = 0;
        for (int it = 0; it < iters; it++) {
#pragma unroll
            for (int u = 0; u < 2; u++) {
#pragma unroll
                for (int i = 0; i < 8; i++)
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        asm volatile("fma.rn.f16x2 %0, %1, %2, %0;" : "+r"(acc[i * 4 + j]) : "r"(A[i]), "r"(B[j]));
#pragma unroll
                for (int i = 0; i < 8; i++) asm volatile("xor.b32 %0, %0, %1;" : "+r"(A[i]) : "r"(seed));
            }
        }
#pragma unroll
        for (int i = 0; i < 32; i++) x[i % CH] ^= acc[i];
    } else {
        for (int it = 0; it < iters; it++) {
#pragma unroll
            for (int u = 0; u < U; u++) step<OP>(x, f, a, b, fa, fb);
        }
    }
    unsigned long long t1 = clock64();
    atomicMin(&cyc[2 * blockIdx.x], t0);
    atomicMax(&cyc[2 * blockIdx.x + 1], t1);
    unsigned acc = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) acc ^= x[c] ^ __float_as_uint(f[c]);
    if (acc == 0x12345678u) *sink = acc;
}

typedef void (*rate_fn)(int, unsigned, unsigned long long *, unsigned *);
static const rate_fn fns[NOPS] = {rate<OP_HFMA2>, rate<OP_HADD2>, rate<OP_HMUL2>, rate<OP_HFMA>,
                                  rate<OP_FFMA>,  rate<OP_MIX>,   rate<OP_OUTER>};

int main()
{
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned long long *cyc;
    unsigned *sink;
    CK(cudaMalloc(&cyc, 2 * sms * sizeof *cyc));
    CK(cudaMalloc(&sink, sizeof *sink));
    unsigned long long *h = (unsigned long long *)malloc(2 * sms * sizeof *h);
    const int iters = 4096;
    for (int op = 0; op < NOPS; op++)
        for (int w = 4; w <= 32; w *= 2) {
            double best = 0, med_cycles = 0;
            for (int rep = 0; rep < 3; rep++) {
                for (int i = 0; i < sms; i++) h[2 * i] = ~0ull, h[2 * i + 1] = 0;
                CK(cudaMemcpy(cyc, h, 2 * sms * sizeof *h, cudaMemcpyHostToDevice));
                fns[op]<<<sms, 32 * w>>>(iters, 0, cyc, sink);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(h, cyc, 2 * sms * sizeof *h, cudaMemcpyDeviceToHost));
                double sum = 0;
                for (int i = 0; i < sms; i++) sum += (double)(h[2 * i + 1] - h[2 * i]);
                double cycles = sum / sms;
                // warp instructions of the op a block: w warps x iters x (U steps x CH) (outer: 2 x 32)
                double insts = (double)w * iters * (op == OP_OUTER ? 64.0 : (double)U * CH);
                double r = insts / cycles;
                if (r > best) best = r, med_cycles = cycles;
            }
            printf("RATE %s %d %d %.4f %.0f\n", op_names[op], w, w / 4, best, med_cycles);
        }
    printf("done\n");
    return 0;
}
