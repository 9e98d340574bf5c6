// The L2's atomic throughput over many units: what a request of distinct words costs the whole
// device, by the lines and sectors it touches (issue 29, after held-out round 13).
//
// The profile's atomic_sector_ns (0.0149 ns a sector on the H100) comes from gpu/sm.cuh's
// sm_red_distinct, 16 reductions a thread, whose time includes the launch; round 13's atomicCost
// (coalesced atomics, a line of 4 sectors a request) ran 1.4x faster than it says, while the fitted
// histogram (22 lines a request) runs at it.  Here every request's 32 lanes hit distinct words of
// L lines, S sectors of each (32 / L / S words a sector), lines spread over 16 MiB (in L2) or
// 256 MiB (past it: each atomic's line a miss); the time of ITERS = 32 and 288 requests a warp,
// and their difference (no launch in it), a request.
//
// nvcc -O3 -arch=sm_90 -o atomic_tput atomic_tput.cu && ./atomic_tput
#include "timing.cuh"

__global__ void red_lines(unsigned *p, unsigned lines_all, unsigned nl, unsigned ns, int iters)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    unsigned l = lane % nl, s = lane / nl % ns, w = lane / (nl * ns);
    unsigned per = 32 / (nl * ns);                         // words a sector
    for (int i = 0; i < iters; i++) {
        unsigned line = (warp * 2654435761u + (unsigned)i * 40503u + l * 97u * 1031u) % lines_all;
        asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p + line * 32 + s * 8 + w % per) : "memory");
    }
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    unsigned *p;
    CK(cudaMalloc(&p, 256u << 20));
    CK(cudaMemset(p, 0, 256u << 20));
    const unsigned blocks = prop.multiProcessorCount * 16;
    printf("# device = %s, sms = %d; %u blocks of 256, red.global.add.u32, lanes on distinct words\n", prop.name,
           prop.multiProcessorCount, blocks);
    printf("# MiB lines sectors  us(32)  us(288)  ns_a_request(marginal)  ns_a_line  ns_a_sector   sm_red_distinct-style(us(16)/requests)\n");
    const unsigned cases[][2] = {{1, 4}, {2, 2}, {4, 1}, {2, 4}, {4, 4}, {8, 4}, {8, 1}, {16, 2}, {32, 1}};
    for (unsigned mib : {16u, 256u})
    for (auto &c : cases) {
        unsigned nl = c[0], ns = c[1], la = (mib << 20) / 128;
        float a = median_ms([&] { red_lines<<<blocks, 256>>>(p, la, nl, ns, 32); }, 9);
        float b = median_ms([&] { red_lines<<<blocks, 256>>>(p, la, nl, ns, 288); }, 9);
        float s16 = median_ms([&] { red_lines<<<blocks, 256>>>(p, la, nl, ns, 16); }, 9);
        double warps = blocks * 8.0, req = (b - a) * 1e6 / (warps * 256);
        printf("%4u %5u %7u %8.1f %8.1f %12.4f %12.4f %12.4f %12.4f\n", mib, nl, ns, a * 1e3, b * 1e3, req, req / nl,
               req / (nl * ns), s16 * 1e6 / (warps * 16));
    }
    CK(cudaGetLastError());
    return 0;
}
