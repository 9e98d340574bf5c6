// Why does atomicPerf's SingleRangeAtomicOnSharedMem<double> (every thread of a block adds 1 to
// one shared double, no barrier before, the shared word never initialised) take 385 us between
// cudaEvents but 960 us under ncu, with ncu counting 106 passes a warp of its compare-and-store
// loop (round 13, H100 and H200 alike), where gpu/probes/shared_cas.cu's kernels (a barrier
// before the adds) take about the same time both ways?  Each variant changes one thing:
//   plain    atomicPerf's kernel (grid-stride loop, write only if blockIdx.x == gridDim.x)
//   init     the word set to 0 and a barrier before the add
//   bar      a barrier before the add, the word not set
//   few      plain in 4224 blocks, not 60480
// Prints: variant type blocks us(median of 20 back-to-back launches, events); run under ncu with
// `once` for the passes (smsp__inst_executed_op_shared_atom) and ncu's own time.
//
// nvcc -O3 -arch=sm_90 -o shared_cas_ev shared_cas_ev.cu && ./shared_cas_ev
#include "timing.cuh"
#include <cstring>

template <class T, int V> __global__ void single(T *data, int offset, int n)
{
    __shared__ T smem_data[256];
    if (V == 1) {
        if (threadIdx.x == 0) smem_data[offset] = 0;
    }
    if (V == 1 || V == 2) __syncthreads();
    unsigned int tid = (blockIdx.x * blockDim.x) + threadIdx.x;
    for (unsigned int i = tid; i < n; i += blockDim.x * gridDim.x) atomicAdd(smem_data + offset, (T)1);
    if (blockIdx.x == gridDim.x && threadIdx.x == 0) data[threadIdx.x] = smem_data[threadIdx.x];
}

template <class T, int V> static void run(const char *name, const char *tname, T *d, unsigned blocks, bool once)
{
    int n = blocks * 256;
    float ms = 0;
    if (once) {
        single<T, V><<<blocks, 256>>>(d, 0, n);
        CK(cudaDeviceSynchronize());
    } else {
        ms = median_ms([&] { single<T, V><<<blocks, 256>>>(d, 0, n); }, 20);
    }
    printf("variant %-6s %-6s %6u %9.2f\n", name, tname, blocks, ms * 1e3);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    bool once = argc > 1 && strcmp(argv[1], "once") == 0;
    void *g;
    CK(cudaMalloc(&g, 1 << 20));
    CK(cudaMemset(g, 0, 1 << 20));
    run<double, 0>("plain", "double", (double *)g, 60480, once);
    run<double, 1>("init", "double", (double *)g, 60480, once);
    run<double, 2>("bar", "double", (double *)g, 60480, once);
    run<double, 0>("few", "double", (double *)g, 4224, once);
    run<float, 0>("plain", "float", (float *)g, 60480, once);
    run<float, 1>("init", "float", (float *)g, 60480, once);
    run<float, 2>("bar", "float", (float *)g, 60480, once);
    run<float, 0>("few", "float", (float *)g, 4224, once);
    CK(cudaGetLastError());
    return 0;
}
