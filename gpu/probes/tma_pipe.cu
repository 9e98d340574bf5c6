// tma_pipe.cu: a TMA GEMM pipeline without the GEMM.  How long one stage of a producer/consumer
// pipeline takes when its tiles come by TMA: the question behind issue 28's worst miss, fast.cu's
// ping-pong kernel (128 x 192 tiles, BK 128: a stage is a 32 KB A box and a 48 KB B box, both 3D
// {64, rows, 2}, on one mbarrier; 2 stages; clusters of 2 with B multicast by rank 0; each CTA's
// consumer releases the stage in both CTAs).  The GPU runs it at 1.8-2.0 us a stage where its
// wgmmas take about 0.85 us (gpu/results/h100/heldout7); the model gave 0.67.
//
// Every CTA (one a SM): thread 0 is the producer; thread 128 the consumer, which waits for each
// stage, spends DELAY dependent FMAs on it (the stand-in for the wgmmas: 4 cycles each), then
// arrives on the stage's empty barrier in every CTA of its cluster.  A box is 64 bf16 (128 bytes,
// 128-byte swizzle) x ROWS x DEPTH, from a 16 MB tensor (in L2) laid out as pp's maps are
// ({64, rows, 1024 / 64}); each CTA reads its own A boxes, each cluster its own B boxes (rank 0
// multicasts them when MCAST), walking K as a GEMM does.  No wgmma, so coalsim runs it too.
//
// build:  nvcc -arch=sm_90a -O2 -o tma_pipe gpu/probes/tma_pipe.cu
// run:    tma_pipe             every configuration, timed: a line "PIPE NAME ..." each
//         tma_pipe --once N    configuration N launched once (for ncu or coalsim run)
#include <cuda.h>
#include <cstdint>
#include <cstring>
#include <vector>
#include "tma_common.cuh"

static __device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity)
{
    uint32_t done = 0;
    while (!done)
        asm volatile("{\n.reg .pred P;\nmbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2;\nselp.b32 %0, 1, 0, P;\n}\n"
                     : "=r"(done)
                     : "r"(smem_u32(bar)), "r"(parity)
                     : "memory");
}

// one box of MAP at (0, ROW, KB) into DST, completing BAR; MASK != 0: multicast to those CTAs
static __device__ __forceinline__ void box3d(void* dst, const CUtensorMap* map, uint64_t* bar, int row, int kb, uint16_t mask)
{
    if (mask)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(smem_u32(dst)),
                     "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(0), "r"(row), "r"(kb), "h"(mask)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(smem_u32(dst)),
                     "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(0), "r"(row), "r"(kb)
                     : "memory");
}

extern "C" __global__ void __launch_bounds__(256, 1)
    tma_pipe(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB, int iters, int stages,
             int a_rows, int b_rows, int depth, int delay, int mcast, int form, int two_bars, int rows, float* sink,
             long long* stamps)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    __shared__ uint64_t full[8], fullb[8], empty[8];   // fullb: B's own barrier when TWO_BARS
    __shared__ long long stamp[3 * 800];   // CTA 0's consumer's clocks, kept in shared memory until the end
    uint32_t rank = 0, csize = 1;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(csize));
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&fullb[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(&empty[s])), "r"(csize));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
    const int a_bytes = a_rows * 128 * depth, b_bytes = b_rows * 128 * depth, stage_bytes = a_bytes + b_bytes;
    unsigned char* base = (unsigned char*)(((uintptr_t)smem + 1023) & ~(uintptr_t)1023);
    const int cluster = (int)(blockIdx.x / csize), kbs = 1024 / 64 / depth;
    const int a_row = (int)((blockIdx.x * (unsigned)a_rows) % (unsigned)(rows - a_rows + 1));
    const int b_row = (int)(((unsigned)cluster * (unsigned)b_rows + (unsigned)rows / 2) % (unsigned)(rows - b_rows + 1));
    // FORM 0: the producer and the consumer are single threads (their warps' other lanes wait at
    // the closing cluster barrier) and the consumer arrives with .release.cluster; 1: whole warps
    // (lane 0 issues the copies; lanes 0 .. csize-1 arrive, as fast.cu's consumers do), with
    // fast.cu's remote arrive (mapa, mbarrier.arrive.shared::cluster, its default semantics);
    // 2: whole warps, a local mbarrier.arrive.shared::cta (clusters of one only)
    const bool producer = form == 0 ? threadIdx.x == 0 : threadIdx.x < 32;
    const bool consumer = form == 0 ? threadIdx.x == 128 : threadIdx.x >= 128 && threadIdx.x < 160;
    const int lane = (int)threadIdx.x % 32;
    if (producer) {
        for (int i = 0; i < iters; i++) {
            const int s = i % stages, kb = (i % kbs) * depth;
            if (i >= stages) wait_parity(&empty[s], (uint32_t)((i / stages) - 1) & 1u);
            if (lane == 0) {
                // TWO_BARS (fast.cu k2-k3): B completes its own barrier, A the stage's
                uint64_t* bb = two_bars ? &fullb[s] : &full[s];
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&full[s])),
                             "r"(two_bars ? a_bytes : stage_bytes)
                             : "memory");
                if (two_bars)
                    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bb)), "r"(b_bytes) : "memory");
                unsigned char* st = base + s * stage_bytes;
                if (b_rows && (!mcast || csize == 1)) box3d(st + a_bytes, &mapB, bb, b_row, kb, 0);
                else if (b_rows && rank == 0) box3d(st + a_bytes, &mapB, bb, b_row, kb, (uint16_t)((1u << csize) - 1));
                if (a_rows) box3d(st, &mapA, &full[s], a_row, kb, 0);
            }
            if (form) __syncwarp();
        }
    } else if (consumer) {
        float v = (float)blockIdx.x + (float)lane;
        for (int i = 0; i < iters; i++) {
            const int s = i % stages;
            wait_parity(&full[s], (uint32_t)(i / stages) & 1u);
            if (two_bars) wait_parity(&fullb[s], (uint32_t)(i / stages) & 1u);
            const long long t_in = clock64();
            for (int d = 0; d < delay; d++) v = fmaf(v, 0.999f, 0.5f);
            const long long t_work = clock64();
            if (form == 0) {
                for (uint32_t r = 0; r < csize; r++) {
                    uint32_t remote;
                    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_u32(&empty[s])), "r"(r));
                    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
                }
            } else if (form == 1 && lane < (int)csize) {
                uint32_t remote;
                asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_u32(&empty[s])), "r"(lane));
                asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0], 1;" ::"r"(remote) : "memory");
            } else if (form == 2 && lane == 0)
                asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(&empty[s])) : "memory");
            if (form) __syncwarp();
            // CTA 0's consumer: when each stage was in, its work done, its release issued (SM cycles)
            if (stamps && blockIdx.x == 0 && lane == 0 && i < 800) {
                stamp[3 * i] = t_in, stamp[3 * i + 1] = t_work;
                stamp[3 * i + 2] = clock64();
            }
        }
        if (v == 12345.0f) *sink = v;
        if (stamps && blockIdx.x == 0 && lane == 0)
            for (int i = 0; i < 3 * iters && i < 3 * 800; i++) stamps[i] = stamp[i];
    }
    // no CTA leaves while its cluster peers may still write into its shared memory or barriers
    asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
}

struct Config {
    const char* name;
    int cluster, mcast, stages, a_rows, b_rows, depth, delay, iters;
    int form = 0;   // the producer and consumer: single threads, .release.cluster (0); warps, fast.cu's arrive (1); warps, local arrive (2)
    int two_bars = 0;   // A and B each complete their own barrier (fast.cu k2-k3's barA and barB)
};

// pp: fast.cu's ping-pong stage; k6: fast.cu k6-k12's stage (128 x 256 tiles, BK 64: 16 + 32 KB 2D boxes)
static const Config kConfigs[] = {
    {"pp_s1_d0", 2, 1, 1, 128, 192, 2, 0, 400},       // one stage: a stage's whole round trip, nothing to hide it
    {"pp_s2_d0", 2, 1, 2, 128, 192, 2, 0, 400},
    {"pp_s2_d420", 2, 1, 2, 128, 192, 2, 420, 400},   // 420 FMAs: 2065 cycles, 1.04 us (runs/h100-tma-pipe-clocks); pp's wgmmas take about 0.85 a stage
    {"pp_s2_d840", 2, 1, 2, 128, 192, 2, 840, 400},
    {"pp_half_s4_d210", 2, 1, 4, 64, 96, 2, 210, 800},   // half the rows (4 stages fit), half the delay
    {"pp_nocl_s1_d0", 1, 0, 1, 128, 192, 2, 0, 400},  // no cluster: each CTA its own B
    {"pp_nocl_s2_d420", 1, 0, 2, 128, 192, 2, 420, 400},
    {"pp_nomc_s2_d420", 2, 0, 2, 128, 192, 2, 420, 400},  // cluster, no multicast: each CTA loads its own B
    {"a32_s1_d0", 1, 0, 1, 128, 0, 2, 0, 400},        // the A box alone (32 KB, 3D)
    {"b48_s1_d0", 1, 0, 1, 0, 192, 2, 0, 400},        // the B box alone (48 KB, 3D)
    {"a16_s1_d0", 1, 0, 1, 128, 0, 1, 0, 400},        // one 16 KB box (2D-shaped, depth 1)
    {"k6_s1_d0", 1, 0, 1, 128, 256, 1, 0, 400},       // 16 + 32 KB, depth 1
    {"k6_s4_d210", 1, 0, 4, 128, 256, 1, 210, 800},
    // the same as whole warps with fast.cu's arrive (form 1) or a local one (form 2)
    {"pp_s1_d0_f1", 2, 1, 1, 128, 192, 2, 0, 400, 1},
    {"pp_s2_d0_f1", 2, 1, 2, 128, 192, 2, 0, 400, 1},
    {"pp_s2_d420_f1", 2, 1, 2, 128, 192, 2, 420, 400, 1},
    {"pp_half_s4_d210_f1", 2, 1, 4, 64, 96, 2, 210, 800, 1},
    {"pp_nocl_s2_d420_f2", 1, 0, 2, 128, 192, 2, 420, 400, 2},
    {"k6_s1_d0_f2", 1, 0, 1, 128, 256, 1, 0, 400, 2},
    {"k6_s2_d420_f2", 1, 0, 2, 128, 256, 1, 420, 400, 2},
    {"k6_s4_d210_f1", 1, 0, 4, 128, 256, 1, 210, 800, 1},
    {"k6_s4_d210_f2", 1, 0, 4, 128, 256, 1, 210, 800, 2},
    {"k6_s3_d280_f2", 1, 0, 3, 128, 256, 1, 280, 800, 2},     // fast.cu k6-k12: 3-5 stages, about 0.56 us of wgmma a stage
    // fast.cu k3's step: two 16 KB boxes issued back to back, on one barrier or each on its own
    {"k3_s1_d0_f2", 1, 0, 1, 128, 128, 1, 0, 400, 2},
    {"k3_s1_d0_f2_2bar", 1, 0, 1, 128, 128, 1, 0, 400, 2, 1},
    {"k3_s1_d120_f2_2bar", 1, 0, 1, 128, 128, 1, 120, 400, 2, 1},   // and about 0.28 us of work (k3's wgmmas)
    {"k3_s2_d0_f2_2bar", 1, 0, 2, 128, 128, 1, 0, 400, 2, 1},
    {"k2_s1_d0_f2_2bar", 1, 0, 1, 64, 64, 1, 0, 400, 2, 1},        // k2's: two 8 KB boxes
    // deep pipelines with no work: what the producer's copies deliver when 3-4 stages are in flight
    // (fast.cu k6 at 2048 x 4096 x 1024 runs its mainloop at about 0.54 us a 48 KB stage)
    {"k6_s3_d0_f2", 1, 0, 3, 128, 256, 1, 0, 800, 2},
    {"k6_s4_d0_f2", 1, 0, 4, 128, 256, 1, 0, 800, 2},
    {"k3_s4_d0_f2", 1, 0, 4, 128, 128, 1, 0, 800, 2},
};
constexpr int kNConfigs = sizeof(kConfigs) / sizeof(kConfigs[0]);

int main(int argc, char** argv)
{
    const int once = once_arg(argc, argv);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const EncodeTiledFn encode = encode_tiled_fn();
    const int grid = 128;   // as fast.cu's persistent kernels (NUM_SM 128)
    const int smem = 200 * 1024;   // with the 19 KB of stamps: 219 KB of the 227 a CTA may have
    CK(cudaFuncSetAttribute(tma_pipe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(tma_pipe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const uint64_t cols = 1024, rows = 16ull * 1024 * 1024 / (cols * 2);
    void* buf;
    float* sink;
    long long* stamps;
    CK(cudaMalloc(&stamps, 3 * 1000 * sizeof(long long)));
    CK(cudaMalloc(&buf, rows * cols * 2));
    CK(cudaMemset(buf, 1, rows * cols * 2));
    CK(cudaMalloc(&sink, sizeof(float)));
    if (once < 0) printf("DEVICE %s SMs %d, %d CTAs of 256 threads, boxes of 64 bf16 x ROWS x DEPTH\n", p.name, p.multiProcessorCount, grid);
    for (int c = 0; c < kNConfigs; c++) {
        if (once >= 0 && c != once) continue;
        const Config& k = kConfigs[c];
        CUtensorMap maps[2];
        const int box_rows[2] = {k.a_rows ? k.a_rows : 64, k.b_rows ? k.b_rows : 64};
        for (int m = 0; m < 2; m++) {
            // pp's layout: {64 columns, rows, 1024 / 64 column blocks}
            const cuuint64_t dims[3] = {64, rows, cols / 64}, strides[2] = {cols * 2, 64 * 2};
            const cuuint32_t box[3] = {64, (cuuint32_t)box_rows[m], (cuuint32_t)k.depth}, estr[3] = {1, 1, 1};
            if (encode(&maps[m], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, buf, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                       CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
                fprintf(stderr, "%s: cuTensorMapEncodeTiled failed\n", k.name);
                return 1;
            }
        }
        const int stage_bytes = (k.a_rows + k.b_rows) * 128 * k.depth;
        if (k.stages * stage_bytes + 1024 > smem || k.stages > 8) {
            fprintf(stderr, "%s: %d stages of %d bytes do not fit\n", k.name, k.stages, stage_bytes);
            return 1;
        }
        cudaLaunchConfig_t lc = {};
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = (unsigned)k.cluster;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        lc.gridDim = dim3(grid);
        lc.blockDim = dim3(256);
        lc.dynamicSmemBytes = smem;
        lc.attrs = at;
        lc.numAttrs = 1;
        auto launch = [&] {
            CK(cudaLaunchKernelEx(&lc, tma_pipe, maps[0], maps[1], k.iters, k.stages, k.a_rows, k.b_rows, k.depth, k.delay,
                                  k.mcast, k.form, k.two_bars, (int)rows, sink, stamps));
        };
        if (once >= 0) {
            launch();
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
        } else {
            const float ms = median_ms(launch, 11);
            // CTA 0's consumer in the steady state (stages past the first STAGES): cycles a stage from
            // its release to the next stage in (the wait), in to work done, work done to release issued
            std::vector<long long> st(3 * k.iters);
            CK(cudaMemcpy(st.data(), stamps, st.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            double wait = 0, work = 0, rel = 0;
            int nst = 0;
            for (int i = k.stages + 1; i < k.iters; i++, nst++) {
                wait += (double)(st[3 * i] - st[3 * i - 1]);
                work += (double)(st[3 * i + 1] - st[3 * i]);
                rel += (double)(st[3 * i + 2] - st[3 * i + 1]);
            }
            printf("PIPE %-19s form %d bars %d cluster %d mcast %d stages %d A %3d B %3d rows x %d (%2d KB a stage) delay %4d: %9.2f us  %8.1f ns a stage"
                   "  consumer cycles a stage: wait %7.1f work %7.1f release %6.1f\n",
                   k.name, k.form, k.two_bars + 1, k.cluster, k.mcast, k.stages, k.a_rows, k.b_rows, k.depth, stage_bytes / 1024, k.delay, ms * 1e3,
                   ms * 1e6 / k.iters, wait / nst, work / nst, rel / nst);
        }
    }
    CK(cudaFree(buf));
    CK(cudaFree(sink));
    CK(cudaFree(stamps));
    return 0;
}
