// A SM's round trip to L2 as a function of the bytes it has in flight.
//
// sm_fill.cu found that a SM alone takes in about 32 KiB a microsecond with
// 32 KiB in flight and 45 bytes a cycle with 128 KiB: a batch of loads
// comes back far later than L2's unloaded latency.  This measures the curve
// that a time model needs: each of N blocks (one a SM: 200 KB of dynamic
// shared memory) of THREADS threads issues DEPTH 16-byte copies a thread
// that skip L1 (cp.async.cg; plain loads would not all be in flight: ptxas
// consumes the first before it issues the last), waits for all of them
// (wait_group 0), and goes on, over
// 8 MiB of a buffer a first launch left in L2.  THREADS runs 32-1024 and
// DEPTH 1-32, so a SM has 512 B to 128 KiB in flight (at most
// 8192 copies a SM); N is 1, 66 (every
// other SM) and 132.  Printed for each: the median of 15 back-to-back
// launches, the cycles a batch takes (its round trip, at the SM clock the
// device reports) and the bytes a SM a cycle.  A second buffer size
// (32 MiB) for one depth shows whether L2's two partitions change it.
//
// nvcc -O3 -arch=sm_90 -std=c++17 -o sm_depth sm_depth.cu && ./sm_depth
#include "timing.cuh"

static const size_t PER_BLOCK = 8u << 20;     // each block reads this much
static const int SMEM = 200 * 1024;           // one block a SM

template <int DEPTH> __global__ void depth_cp(const int4 *buf, unsigned n16, unsigned per16, int4 *sink)
{
    extern __shared__ int4 tile[];
    // Indices wrap by one compare and subtract: a 64-bit % a load costs
    // about 190 cycles of a warp's issue, which the first version of this
    // probe (and sm_fill.cu's) measured instead of the memory.
    unsigned base = (unsigned)(((size_t)blockIdx.x * 4099 * 16) % n16) + threadIdx.x;   // its own offset
    if (base >= n16) base -= n16;
    const unsigned step = blockDim.x * DEPTH;
    for (unsigned i = 0; i < per16; i += step) {
#pragma unroll
        for (int k = 0; k < DEPTH; k++) {
            unsigned j = base + k * blockDim.x;
            if (j >= n16) j -= n16;
            unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[k * blockDim.x + threadIdx.x]);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(buf + j));
        }
        asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
        base += step;
        if (base >= n16) base -= n16;
    }
    if (tile[threadIdx.x].x == 0x12345678) sink[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

template <int DEPTH> static void setup()
{
    CK(cudaFuncSetAttribute(depth_cp<DEPTH>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
}

template <int DEPTH>
static void one(const int4 *buf, size_t buf_bytes, int4 *sink, int blocks, int threads, double clock_ghz)
{
    if (threads * DEPTH > 8192) return;   // 128 KiB of shared memory at most
    const unsigned n16 = (unsigned)(buf_bytes / 16), per16 = (unsigned)(PER_BLOCK / 16);
    float ms = median_ms([&] { depth_cp<DEPTH><<<blocks, threads, SMEM>>>(buf, n16, per16, sink); });
    double batches = (double)per16 / ((double)threads * DEPTH);
    double ns = ms * 1e6, cycles = ns * clock_ghz;
    printf("%zu %d %d %d %d %.1f %.0f %.2f\n", buf_bytes >> 20, blocks, threads, DEPTH, threads * DEPTH * 16,
           ms * 1e3, cycles / batches, (double)PER_BLOCK / cycles);
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    const double ghz = clock_khz * 1e-6;
    const size_t big = 32u << 20, small = 8u << 20;
    int4 *buf, *sink;
    CK(cudaMalloc(&buf, big));
    CK(cudaMemset(buf, 1, big));
    CK(cudaMalloc(&sink, (size_t)prop.multiProcessorCount * 1024 * sizeof(int4)));
    setup<1>(), setup<2>(), setup<4>(), setup<8>(), setup<16>(), setup<32>();
    printf("# %s, %d SMs, SM clock %d MHz; each block reads %zu MiB with cp.async.cg 16, DEPTH a thread in flight\n",
           prop.name, prop.multiProcessorCount, clock_khz / 1000, PER_BLOCK >> 20);
    printf("# buf_mib blocks threads depth bytes_in_flight_per_sm us cycles_per_batch bytes_per_sm_per_cycle\n");
    const int grids[] = {1, prop.multiProcessorCount / 2, prop.multiProcessorCount};
    for (int n : grids)
        for (int t : {32, 64, 128, 256, 512, 1024}) {
            one<1>(buf, small, sink, n, t, ghz);
            one<2>(buf, small, sink, n, t, ghz);
            one<4>(buf, small, sink, n, t, ghz);
            one<8>(buf, small, sink, n, t, ghz);
            one<16>(buf, small, sink, n, t, ghz);
            one<32>(buf, small, sink, n, t, ghz);
            one<8>(buf, big, sink, n, t, ghz);
        }
    return 0;
}
