// What a block's __threadfence() costs, and whether fences of different SMs wait for one another.
// Held-out round 14's threadfence sum (HeCBench, after CUDA's threadFenceReduction: each block adds
// its 256 floats onto one shared word, thread 0 stores the block's sum, __threadfence(), an atomicInc
// of one global counter) takes 41-46 ns a block on the H100 at every size (8 k to 391 k blocks),
// as if one block at a time passed some point of it device-wide; the model, which has the
// atomics on one word at L2's 0.73 ns and no cost for the fence, is 0.27-0.42x.
// Each variant is one block's epilogue by thread 0, after the block's threads have each loaded a
// float (no shared adds):
//   store          a store of the block's value to result[bid]
//   sc             store, fence.sc.gpu (what __threadfence() is on sm_70 and later)
//   acqrel         store, fence.acq_rel.gpu
//   atom           store, atomicAdd(count, 1) (one global word for the launch)
//   sc_atom        store, fence.sc.gpu, atomicAdd(count, 1): the threadfence kernel's epilogue
//   acqrel_atom    store, fence.acq_rel.gpu, atomicAdd(count, 1)
//   sc_atom_own    store, fence.sc.gpu, atomicAdd(count[bid % 1024], 1): the fence without one word
//   sc_warps       every warp's lane 0: store, fence.sc.gpu (8 fences a block)
// Prints: variant blocks us(median of 15 back-to-back launches) ns/block.
//
// nvcc -O3 -arch=sm_90 -o fence fence.cu && ./fence
#include "timing.cuh"

template <int V> __global__ void epi(const float *a, float *result, unsigned *count)
{
    const unsigned bid = blockIdx.x, gid = bid * blockDim.x + threadIdx.x;
    float v = a[gid];
    bool lead = V == 7 ? (threadIdx.x & 31) == 0 : threadIdx.x == 0;
    if (!lead) return;
    volatile float *r = result;
    r[V == 7 ? gid / 32 : bid] = v;
    if (V == 1 || V == 4 || V == 6 || V == 7) asm volatile("fence.sc.gpu;" ::: "memory");
    if (V == 2 || V == 5) asm volatile("fence.acq_rel.gpu;" ::: "memory");
    if (V == 3 || V == 4 || V == 5) atomicAdd(count, 1u);
    if (V == 6) atomicAdd(&count[bid % 1024], 1u);
}

template <int V> static void run(const char *name, const float *a, float *result, unsigned *count, unsigned blocks)
{
    float ms = median_ms([&] { epi<V><<<blocks, 256>>>(a, result, count); });
    printf("%-12s %7u %10.2f %8.2f\n", name, blocks, ms * 1e3, ms * 1e6 / blocks);
    fflush(stdout);
}

int main()
{
    const unsigned most = 390625;
    float *a, *result;
    unsigned *count;
    CK(cudaMalloc(&a, (size_t)most * 256 * sizeof(float)));
    CK(cudaMalloc(&result, (size_t)most * 8 * sizeof(float)));
    CK(cudaMalloc(&count, 1024 * sizeof(unsigned)));
    CK(cudaMemset(a, 0, (size_t)most * 256 * sizeof(float)));
    CK(cudaMemset(count, 0, 1024 * sizeof(unsigned)));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s; variant blocks us ns/block\n", prop.name);
    for (unsigned blocks : {8192u, 65536u, most}) {
        run<0>("store", a, result, count, blocks);
        run<1>("sc", a, result, count, blocks);
        run<2>("acqrel", a, result, count, blocks);
        run<3>("atom", a, result, count, blocks);
        run<4>("sc_atom", a, result, count, blocks);
        run<5>("acqrel_atom", a, result, count, blocks);
        run<6>("sc_atom_own", a, result, count, blocks);
        run<7>("sc_warps", a, result, count, blocks);
    }
    return 0;
}
