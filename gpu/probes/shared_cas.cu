// Shared-memory float and double atomicAdd as the hardware runs them (issue 29, round 13's
// atomicPerf SingleRangeAtomicOnSharedMem<double>: 0.17x of the model's time).
//
// On sm_70 and later ptxas makes atomicAdd on a __shared__ float or double a loop: LDS the old
// value, FADD/DADD, ATOMS.CAST.SPIN (store if the word still holds the old value), branch back for
// the lanes that failed (run_atomic_mix.sh's SASS).  A warp alone on a word takes a pass a lane
// (lanes on one word succeed one a pass); warps of a block on the same words fail each other's
// passes too (round 13's ncu: 106 passes a warp for 8 warps on one double, 3.45 for 8 warps
// sharing 32 words a lane each).  Which rule gives the passes?  Each case: every thread adds 1 to
// a word of a __shared__ array ITERS times; the word by PATTERN:
//   one       every lane of every warp on word 0
//   lane      lane l on word l (the block's warps share 32 words)
//   warpown   every lane of warp w on word w (no other warp on it)
//   quad      lane l on word l / 4 (4 lanes a word, 8 words the warps share)
//   rand      a hash of (thread, iteration) mod 256 (a histogram of 256 bins)
//   none      warp w lane l on word 32 w + l (no two lanes anywhere on one word)
// in blocks of K = 1, 2, 4, 8, 16 or 32 warps, 33792 warps in all (four waves of 64 warps an SM
// on an H100), float, double and, as the native ATOMS.ADD for comparison, int.
// Prints a line a case (`./shared_cas once`: one launch a case and no times, for ncu):
//   case TYPE PATTERN K ITERS blocks us_median ns_per_warp_add
//
// nvcc -O3 -arch=sm_90 -o shared_cas shared_cas.cu && ./shared_cas
#include "timing.cuh"
#include <cstring>

enum { P_ONE, P_LANE, P_WARPOWN, P_QUAD, P_RAND, P_NONE, P_N };
static const char *pname[P_N] = {"one", "lane", "warpown", "quad", "rand", "none"};

__device__ __forceinline__ unsigned word_of(int pat, unsigned tid, int i)
{
    unsigned lane = tid % 32, warp = tid / 32;
    switch (pat) {
    case P_ONE: return 0;
    case P_LANE: return lane;
    case P_WARPOWN: return warp;
    case P_QUAD: return lane / 4;
    case P_RAND: {
        unsigned h = (blockIdx.x * blockDim.x + tid) * 2654435761u + (unsigned)i * 40503u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        return h % 256;
    }
    default: return warp * 32 + lane;
    }
}

template <class T> __global__ void cas(T *out, int pat, int iters)
{
    __shared__ T s[1024];
    for (unsigned j = threadIdx.x; j < 1024; j += blockDim.x) s[j] = 0;
    __syncthreads();
    for (int i = 0; i < iters; i++) atomicAdd(&s[word_of(pat, threadIdx.x, i)], (T)1);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

template <class T> static void run(const char *tname, T *out, int pat, int k, int iters, bool once)
{
    const unsigned warps = 33792, blocks = warps / k;
    float ms = 0;
    if (once) {
        cas<T><<<blocks, 32 * k>>>(out, pat, iters);
        CK(cudaDeviceSynchronize());
    } else {
        ms = median_ms([&] { cas<T><<<blocks, 32 * k>>>(out, pat, iters); }, 9);
    }
    printf("case %-6s %-7s %2d %d %6u %9.2f %8.4f\n", tname, pname[pat], k, iters, blocks, ms * 1e3,
           ms * 1e6 / ((double)warps * iters));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    bool once = argc > 1 && strcmp(argv[1], "once") == 0;   // one launch a case (for ncu), no times
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# device = %s, sms = %d\n", prop.name, prop.multiProcessorCount);
    printf("# case TYPE PATTERN K(warps a block) ITERS blocks us(median of 9) ns_per_warp_add(all SMs)\n");
    void *g;
    CK(cudaMalloc(&g, 33792 * 32 * 8));
    for (int iters : {1, 4})
        for (int pat = 0; pat < P_N; pat++) {
            if (iters == 4 && pat != P_ONE && pat != P_LANE && pat != P_RAND) continue;
            for (int k : {1, 2, 4, 8, 16, 32}) {
                run<float>("float", (float *)g, pat, k, iters, once);
                run<double>("double", (double *)g, pat, k, iters, once);
                run<int>("int", (int *)g, pat, k, iters, once);
            }
        }
    CK(cudaGetLastError());
    return 0;
}
