// Two atomic costs the model does not have yet (issue 29, after held-out rounds 12 and 13):
//   A. simpleAtomicIntrinsics' line takes its 32-lane requests 1.56x slower when ATOMG (exch,
//      cas) and REDG (inc, dec) interleave than when they are of one kind (atomic_agg.cu).  Which
//      order costs what: four 32-lane requests a warp on one line, in several orders.
//   B. atomicPerf's double atomicAdd on one shared word ran 5.8x the model's time (round 13):
//      ptxas's SASS for it (run_atomic_mix.sh prints it) and its time by lanes on the word.
// 264 blocks of 256 threads (A) or 1056 (B), median of 9 launches.
//
// nvcc -O3 -arch=sm_90 -o atomic_mix atomic_mix.cu && ./atomic_mix
#include "timing.cuh"

// A: A = atomicExch (ATOMG, no destination used), R = atomicInc (REDG); words 1 and 5 of one line
template <int MODE> __global__ void order(unsigned *g)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (MODE == 0) atomicExch(&g[1], t), atomicInc(&g[5], 17u), atomicExch(&g[1], t), atomicInc(&g[5], 17u);   // ARAR
    if (MODE == 1) atomicExch(&g[1], t), atomicExch(&g[1], t + 1), atomicInc(&g[5], 17u), atomicInc(&g[5], 17u); // AARR
    if (MODE == 2) atomicExch(&g[1], t), atomicExch(&g[1], t + 1), atomicExch(&g[5], t), atomicExch(&g[5], t + 1); // AAAA
    if (MODE == 3) atomicInc(&g[1], 17u), atomicInc(&g[1], 17u), atomicInc(&g[5], 17u), atomicInc(&g[5], 17u);   // RRRR
    if (MODE == 4) atomicExch(&g[1], t), atomicCAS(&g[5], t, t + 1), atomicExch(&g[1], t), atomicCAS(&g[5], t, t); // exch/cas
    if (MODE == 5) atomicExch(&g[1], t), atomicInc(&g[1], 17u), atomicExch(&g[1], t), atomicInc(&g[1], 17u);   // ARAR, one word
}

template <int MODE> static void run_order(unsigned *g)
{
    const unsigned blocks = 264;
    float ms = median_ms([&] { order<MODE><<<blocks, 256>>>(g); }, 9);
    printf("order%d %8.1f us %8.2f ns_a_warp\n", MODE, ms * 1e3, ms * 1e6 / (blocks * 8.0));
}

// B: LANES of each warp add 1.0 to one shared double (the others idle), ITERS times; the block's
// word goes out so that the adds stay
__global__ void shared_double(double *out, unsigned lanes, int iters)
{
    __shared__ double s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (threadIdx.x % 32 < lanes)
        for (int i = 0; i < iters; i++) atomicAdd(&s, 1.0);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void shared_float(float *out, unsigned lanes, int iters)
{
    __shared__ float s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (threadIdx.x % 32 < lanes)
        for (int i = 0; i < iters; i++) atomicAdd(&s, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# device = %s, sms = %d\n", prop.name, prop.multiProcessorCount);
    unsigned *g;
    CK(cudaMalloc(&g, 1 << 20));
    CK(cudaMemset(g, 0, 1 << 20));
    printf("# A: four 32-lane requests a warp on one line, 264 blocks of 256\n");
    run_order<0>(g);
    run_order<1>(g);
    run_order<2>(g);
    run_order<3>(g);
    run_order<4>(g);
    run_order<5>(g);
    printf("# B: shared atomicAdd on one word, 1056 blocks of 256, 16 a lane: ns a warp's add\n");
    const unsigned blocks = 1056;
    const int iters = 16;
    for (unsigned lanes : {1u, 2u, 4u, 8u, 16u, 32u}) {
        float md = median_ms([&] { shared_double<<<blocks, 256>>>((double *)g, lanes, iters); }, 9);
        float mf = median_ms([&] { shared_float<<<blocks, 256>>>((float *)g, lanes, iters); }, 9);
        double adds = blocks * 8.0 * iters;
        printf("shared lanes %2u  double %8.1f us %7.3f ns  float %8.1f us %7.3f ns\n", lanes, md * 1e3,
               md * 1e6 / adds, mf * 1e3, mf * 1e6 / adds);
    }
    CK(cudaGetLastError());
    return 0;
}
