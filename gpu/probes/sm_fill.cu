// How fast one SM takes data in from L2, with 1 to all SMs doing it at once.
//
// The time model's SM port (sim/frontend/smport.c) moves L2's read bandwidth
// over the SMs that run blocks, at most a line a cycle.  The held-out
// HGEMMs of round 3 (gpu/results/h100/heldout3) ran 64-block launches at
// 0.52-0.94x of their time: a SM alone may not take in what that rule gives
// it.  This measures it.
//
// N blocks (N = 1 ... all SMs), each alone on its SM (200 KB of dynamic
// shared memory holds a SM), each of THREADS threads, read BYTES each from
// a 32 MiB buffer that a first pass left in L2, with 16-byte loads that
// skip L1 (ld.global.cg, as cp.async.cg's copies do) or 16-byte cp.async.cg
// copies into shared memory in groups of 8 a thread (wait_group 0 after
// each group).  Each block starts its reads at its own offset.  Printed: the
// median time of 15 back-to-back launches, bytes a SM a ns, a SM a cycle
// (at the SM clock the device reports) and all SMs together in GB/s.
//
// nvcc -O3 -arch=sm_90 -std=c++17 -o sm_fill sm_fill.cu && ./sm_fill
#include "timing.cuh"

static const size_t BUF = 32u << 20;          // in L2 (the H100's is 50 MB)
static const size_t PER_BLOCK = 16u << 20;    // each block reads this much
static const int SMEM = 200 * 1024;           // one block a SM

__global__ void fill_ld(const int4 *buf, unsigned n16, unsigned per16, int4 *sink)
{
    // Indices wrap by a compare and subtract: the first version's 64-bit %
    // a load cost a warp about 190 cycles of issue, which is what it measured.
    unsigned base = (unsigned)(((size_t)blockIdx.x * 4099 * 16) % n16) + threadIdx.x;   // its own offset
    if (base >= n16) base -= n16;
    int4 acc = make_int4(0, 0, 0, 0);
    for (unsigned i = 0; i < per16; i += blockDim.x * 8) {
        int4 v[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            unsigned j = base + k * blockDim.x;
            if (j >= n16) j -= n16;
            const int4 *p = buf + j;
            asm volatile("ld.global.cg.v4.s32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w) : "l"(p));
        }
#pragma unroll
        for (int k = 0; k < 8; k++) acc.x ^= v[k].x, acc.y ^= v[k].y, acc.z ^= v[k].z, acc.w ^= v[k].w;
        base += blockDim.x * 8;
        if (base >= n16) base -= n16;
    }
    if (acc.x == 0x12345678) sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;   // never, but kept
}

__global__ void fill_cp(const int4 *buf, unsigned n16, unsigned per16, int4 *sink)
{
    extern __shared__ int4 tile[];
    unsigned base = (unsigned)(((size_t)blockIdx.x * 4099 * 16) % n16) + threadIdx.x;
    if (base >= n16) base -= n16;
    for (unsigned i = 0; i < per16; i += blockDim.x * 8) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            unsigned j = base + k * blockDim.x;
            if (j >= n16) j -= n16;
            const int4 *p = buf + j;
            unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[k * blockDim.x + threadIdx.x]);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(p));
        }
        asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
        base += blockDim.x * 8;
        if (base >= n16) base -= n16;
    }
    if (tile[threadIdx.x].x == 0x12345678) sink[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    int4 *buf, *sink;
    CK(cudaMalloc(&buf, BUF));
    CK(cudaMemset(buf, 1, BUF));
    CK(cudaMalloc(&sink, (size_t)prop.multiProcessorCount * 1024 * sizeof(int4)));
    CK(cudaFuncSetAttribute(fill_ld, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    CK(cudaFuncSetAttribute(fill_cp, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    const unsigned n16 = (unsigned)(BUF / 16), per16 = (unsigned)(PER_BLOCK / 16);
    printf("# %s, %d SMs, SM clock %d MHz; each block reads %zu MiB of a %zu MiB buffer in L2\n", prop.name,
           prop.multiProcessorCount, clock_khz / 1000, PER_BLOCK >> 20, BUF >> 20);
    printf("# kind threads blocks us bytes_per_sm_per_ns bytes_per_sm_per_cycle all_gbs\n");
    const int counts[] = {1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 132};
    for (int kind = 0; kind < 2; kind++)
        for (int threads : {256, 1024})
            for (int n : counts) {
                if (n > prop.multiProcessorCount) continue;
                auto go = [&] {
                    if (kind == 0) fill_ld<<<n, threads, SMEM>>>(buf, n16, per16, sink);
                    else fill_cp<<<n, threads, SMEM>>>(buf, n16, per16, sink);
                };
                float ms = median_ms(go);
                double ns = ms * 1e6, per_sm = (double)PER_BLOCK / ns;
                printf("%s %d %d %.1f %.2f %.2f %.1f\n", kind ? "cp.async.cg" : "ld.global.cg", threads, n, ms * 1e3,
                       per_sm, per_sm / (clock_khz * 1e-6), per_sm * n);
            }
    return 0;
}
