// A line many warps on different SMs load at the same moment: do the ones
// after the first wait for DRAM too?
//
// spmv_vector's rows take about 400 ns a round trip on the H100 where the
// model charges 236.  Its warps walk the rows in lockstep: the 32 warps
// whose rows share a line of Ap (and of y) load it at about the same time,
// so the first misses L2 and the others find the line on its way from DRAM.
// The cache model runs blocks one after another, sees one miss and 31 L2
// hits, and charges the hits L2's latency.
//
// Each warp takes STEPS dependent steps (lane 0 loads the next index; the
// array holds zeros, so every step's address is known to the host); a
// step's line is
//   shared:  (step * warps + warp) / 32: the 32 warps with neighbouring
//            numbers (8 blocks of 4 warps, on 8 SMs) load one line together;
//   private: step * warps + warp: a line a warp, each from DRAM;
//   warm:    as shared, after a kernel that read the whole array (in L2).
// The time over the steps is a round trip, at 1, 4 and 16 blocks of 128
// threads a SM (spmv_vector has 16).  A read of 256 MiB before each launch
// empties L2 of the array (and, for warm, a read of the shared lines then
// fills it); the time of those kernels alone is taken off.
//
// nvcc -O3 -arch=sm_90 -o shared_miss shared_miss.cu && ./shared_miss
#include "timing.cuh"

__global__ void steps(const unsigned *a, int nsteps, int mode, unsigned *sink)
{
    const unsigned warps = gridDim.x * blockDim.x / 32;
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    unsigned v = 0;
    if (lane == 0)
        for (int k = 0; k < nsteps; k++) {
            size_t n = (size_t)k * warps + warp;
            size_t line = mode == 1 ? n : n / 32;
            v = __ldcg(&a[line * 32 + v]);
        }
    if (v == 12345u) *sink = v;
}

__global__ void touch(const unsigned *a, size_t n, unsigned *sink)
{
    unsigned v = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        v += __ldcg(&a[i]);
    if (v == 12345u) *sink = v;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const int nsteps = 200;
    const size_t flush_words = (size_t)64 << 20;          /* 256 MiB: L2 emptied of the array */
    unsigned *flush, *sink;
    CK(cudaMalloc(&flush, flush_words * 4));
    CK(cudaMemset(flush, 0, flush_words * 4));
    CK(cudaMalloc(&sink, sizeof(unsigned)));
    printf("# device = %s, sms = %d; %d dependent steps a warp; blocks of 128 threads\n", prop.name, sms, nsteps);
    printf("# blocks/SM  mode      us     ns_per_step   (median of 15, back to back, less the kernels before it)\n");
    for (int per : {1, 4, 16}) {
        const unsigned blocks = (unsigned)(sms * per), warps = blocks * 4;
        const size_t lines_private = (size_t)nsteps * warps;
        const size_t shared_words = (lines_private / 32 + 1) * 32;
        unsigned *a;
        CK(cudaMalloc(&a, lines_private * 128));
        CK(cudaMemset(a, 0, lines_private * 128));
        for (int mode = 0; mode < 3; mode++) {
            auto before = [&] {
                touch<<<sms * 8, 256>>>(flush, flush_words, sink);
                if (mode == 2) touch<<<sms * 8, 256>>>(a, shared_words, sink);
            };
            float ms = median_ms([&] {
                before();
                steps<<<blocks, 128>>>(a, nsteps, mode == 1, sink);
            });
            float t0 = median_ms(before);
            static const char *name[3] = {"shared", "private", "warm"};
            printf("%8d     %-8s %7.1f %12.1f\n", per, name[mode], (ms - t0) * 1e3, (ms - t0) * 1e6 / nsteps);
        }
        CK(cudaFree(a));
    }
    return 0;
}
