// What ptxas makes of a warp's global atomics (sim/frontend/ptx/ptx_agg.c): one kernel a pattern
// of gpu/probes/atomic_agg.cu, whose H100/H200 SASS says which become one lane's request.  Each
// thread also records what it saw, so that the values stay checked.
#define TID (blockIdx.x * blockDim.x + threadIdx.x)

// one lane a warp (VOTEU/POPC or REDUX, then one REDG or ATOMG)
__global__ void add_const_unused(unsigned *g) { atomicAdd(&g[0], 10u); }
__global__ void add_var_unused(unsigned *g) { atomicAdd(&g[0], TID); }
__global__ void add_const_used(unsigned *g, unsigned *o) { o[TID] = atomicAdd(&g[0], 1u); }
__global__ void max_unused(unsigned *g) { atomicMax(&g[0], TID); }
__global__ void u64_const_unused(unsigned long long *g) { atomicAdd(&g[0], 1ull); }
__global__ void ctaid_unused(unsigned *g) { atomicAdd(&g[blockIdx.x], 1u); }
__global__ void loaded_unused(unsigned *g, const unsigned *idx) { atomicAdd(&g[idx[0]], 1u); }

// every lane (REDG or ATOMG of the warp)
__global__ void add_var_used(unsigned *g, unsigned *o) { o[TID] = atomicAdd(&g[0], TID); }
__global__ void max_used(unsigned *g, unsigned *o) { o[TID] = atomicMax(&g[0], TID); }
__global__ void exch_unused(unsigned *g) { atomicExch(&g[0], TID); }
__global__ void inc_unused(unsigned *g) { atomicInc(&g[0], 1000000u); }
__global__ void f32_unused(float *g) { atomicAdd(&g[0], 1.0f); }
__global__ void u64_var_unused(unsigned long long *g) { atomicAdd(&g[0], (unsigned long long)TID); }
__global__ void warpid_unused(unsigned *g) { atomicAdd(&g[threadIdx.x / 32], 1u); }
__global__ void lane_unused(unsigned *g) { atomicAdd(&g[threadIdx.x & 7], 1u); }
