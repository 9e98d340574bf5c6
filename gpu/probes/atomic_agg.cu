// Which global atomics ptxas turns into one lane's request a warp, and what a line's mixed
// requests cost (issue 29, after held-out round 12).
//
// atomic_rate.cu measured the L2's rates: an integer lane on a busy word 0.73 ns, a float add
// 1.76, a line's requests one after another.  Two things it left open:
//   1. ptxas aggregates some warp-uniform-address atomics (simpleAtomicIntrinsics' SASS: VOTEU/POPC
//      or REDUX and one lane's REDG for add, sub, max, min, and, or, xor with no result used;
//      exch, cas stay 32-lane ATOMG, inc, dec 32-lane REDG).  Which cases exactly?  The agg_*
//      kernels below are one pattern each; run_atomic_agg.sh prints their SASS's atomics.
//      nvcc's PTX has `atom` for all of them, its result unused or not.
//   2. simpleAtomicIntrinsics took 146 ns a warp on the H100 where those rates give 99 (7 one-lane
//      and 4 32-lane requests on one line).  The mix_* kernels time parts of its sequence: the
//      sample's eleven, its seven aggregated ones, its four 32-lane ones, those four as one op on
//      four words, and on one word.
//
// nvcc -O3 -arch=sm_90 -o atomic_agg atomic_agg.cu && ./atomic_agg
#include "timing.cuh"

#define TID (blockIdx.x * blockDim.x + threadIdx.x)

// ---- 1. which patterns ptxas aggregates (SASS only; each is launched once to check it runs) ----
__global__ void agg_add_const_unused(unsigned *g) { atomicAdd(&g[0], 10u); }
__global__ void agg_add_var_unused(unsigned *g) { atomicAdd(&g[0], TID); }
__global__ void agg_add_const_used(unsigned *g, unsigned *o) { o[TID] = atomicAdd(&g[0], 1u); }
__global__ void agg_add_var_used(unsigned *g, unsigned *o) { o[TID] = atomicAdd(&g[0], TID); }
__global__ void agg_sub_unused(unsigned *g) { atomicSub(&g[0], TID); }
__global__ void agg_max_unused(unsigned *g) { atomicMax(&g[0], TID); }
__global__ void agg_max_used(unsigned *g, unsigned *o) { o[TID] = atomicMax(&g[0], TID); }
__global__ void agg_or_used(unsigned *g, unsigned *o) { o[TID] = atomicOr(&g[0], TID); }
__global__ void agg_exch_unused(unsigned *g) { atomicExch(&g[0], TID); }
__global__ void agg_inc_unused(unsigned *g) { atomicInc(&g[0], 100u); }
__global__ void agg_f32_unused(float *g) { atomicAdd(&g[0], 1.0f); }
__global__ void agg_f64_unused(double *g) { atomicAdd(&g[0], 1.0); }
__global__ void agg_u64_const_unused(unsigned long long *g) { atomicAdd(&g[0], 1ull); }
__global__ void agg_u64_var_unused(unsigned long long *g) { atomicAdd(&g[0], (unsigned long long)TID); }
__global__ void agg_s64_max_unused(long long *g) { atomicMax(&g[0], (long long)TID); }
__global__ void agg_ctaid_unused(unsigned *g) { atomicAdd(&g[blockIdx.x], 1u); }
__global__ void agg_loaded_unused(unsigned *g, const unsigned *idx) { atomicAdd(&g[idx[0]], 1u); }
__global__ void agg_warpid_unused(unsigned *g) { atomicAdd(&g[threadIdx.x / 32], 1u); }
__global__ void agg_branch_unused(unsigned *g)
{
    if (threadIdx.x & 1) atomicAdd(&g[0], 1u);
}
__global__ void agg_lane_unused(unsigned *g) { atomicAdd(&g[threadIdx.x & 7], 1u); }

// ---- 2. mixed requests on one line ----
// MODE 0: simpleAtomicIntrinsics' testKernel (its eleven atomics, in its order)
//      1: its seven aggregated ones (add, sub, max, min, and, or, xor)
//      2: its four 32-lane ones (exch, inc, dec, cas on words 1, 5, 6, 7)
//      3: exch four times, on words 1, 5, 6, 7
//      4: exch four times, on word 1
//      5: inc, dec, inc, dec on words 5, 6, 5, 6 (REDG, no result)
//      6: cas four times, on word 7
template <int MODE> __global__ void mix(unsigned *g)
{
    unsigned tid = TID;
    if (MODE == 0 || MODE == 1) atomicAdd(&g[0], 10u);
    if (MODE == 0 || MODE == 2 || MODE == 3 || MODE == 4) atomicExch(&g[1], tid);
    if (MODE == 0 || MODE == 1) atomicMax(&g[2], (unsigned)tid);
    if (MODE == 0 || MODE == 1) atomicMin(&g[3], (unsigned)tid);
    if (MODE == 0 || MODE == 2 || MODE == 5) atomicInc(&g[5], 17u);
    if (MODE == 0 || MODE == 2 || MODE == 5) atomicDec(&g[6], 137u);
    if (MODE == 0 || MODE == 2 || MODE == 6) atomicCAS(&g[7], tid - 1, tid);
    if (MODE == 0 || MODE == 1) atomicAnd(&g[8], 2 * tid + 7);
    if (MODE == 0 || MODE == 1) atomicOr(&g[9], 1u << tid);
    if (MODE == 0 || MODE == 1) atomicXor(&g[10], tid);
    if (MODE == 0 || MODE == 1) atomicSub(&g[4], 10u);
    if (MODE == 3) atomicExch(&g[5], tid), atomicExch(&g[6], tid), atomicExch(&g[7], tid);
    if (MODE == 4) atomicExch(&g[1], tid), atomicExch(&g[1], tid + 1), atomicExch(&g[1], tid + 2);
    if (MODE == 5) atomicInc(&g[5], 17u), atomicDec(&g[6], 137u);
    if (MODE == 6) atomicCAS(&g[7], tid, tid + 1), atomicCAS(&g[7], tid + 1, tid), atomicCAS(&g[7], tid, tid);
}

template <int MODE> static void run_mix(unsigned *g, unsigned blocks)
{
    float ms = median_ms([&] { mix<MODE><<<blocks, 256>>>(g); }, 9);
    double warps = blocks * 8.0;
    printf("mix%d %6u %9.2f %9.2f\n", MODE, blocks, ms * 1e3, ms * 1e6 / warps);
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    unsigned *g, *o;
    CK(cudaMalloc(&g, 1 << 20));
    CK(cudaMemset(g, 0, 1 << 20));
    CK(cudaMalloc(&o, 1 << 20));
    agg_add_const_unused<<<2, 256>>>(g);
    agg_add_var_unused<<<2, 256>>>(g);
    agg_add_const_used<<<2, 256>>>(g, o);
    agg_add_var_used<<<2, 256>>>(g, o);
    agg_sub_unused<<<2, 256>>>(g);
    agg_max_unused<<<2, 256>>>(g);
    agg_max_used<<<2, 256>>>(g, o);
    agg_or_used<<<2, 256>>>(g, o);
    agg_exch_unused<<<2, 256>>>(g);
    agg_inc_unused<<<2, 256>>>(g);
    agg_f32_unused<<<2, 256>>>((float *)g);
    agg_f64_unused<<<2, 256>>>((double *)g);
    agg_u64_const_unused<<<2, 256>>>((unsigned long long *)g);
    agg_u64_var_unused<<<2, 256>>>((unsigned long long *)g);
    agg_s64_max_unused<<<2, 256>>>((long long *)g);
    agg_ctaid_unused<<<2, 256>>>(g);
    CK(cudaMemset(o, 0, 64));
    agg_loaded_unused<<<2, 256>>>(g, o);
    agg_warpid_unused<<<2, 256>>>(g);
    agg_branch_unused<<<2, 256>>>(g);
    agg_lane_unused<<<2, 256>>>(g);
    CK(cudaDeviceSynchronize());
    printf("# device = %s, sms = %d; mix kernels: 256-thread blocks, median of 9 launches\n", prop.name,
           prop.multiProcessorCount);
    printf("# mode blocks        us   ns_a_warp\n");
    for (unsigned blocks : {64u, 1024u}) {
        run_mix<0>(g, blocks);
        run_mix<1>(g, blocks);
        run_mix<2>(g, blocks);
        run_mix<3>(g, blocks);
        run_mix<4>(g, blocks);
        run_mix<5>(g, blocks);
        run_mix<6>(g, blocks);
    }
    CK(cudaGetLastError());
    return 0;
}
