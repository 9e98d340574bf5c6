// tma_bw.cu: how fast TMA tile loads arrive from L2 (and DRAM) when every SM streams them, and
// what Nsight Compute counts for them, as the boxes are shared by more or fewer CTAs.  For
// issue 28's time model: fast.cu's GEMMs move their tiles at 7.6-11 TB/s while ncu's L2 read
// sectors are about half of the TMA bytes (gpu/results/h100/heldout7), above the 6.9 TB/s the
// LSU probe gave L2.
//
// PER_SM CTAs a SM (the dynamic shared memory asks for it); in each, PRODUCERS threads (lane 0 of
// warps 0, 1, ..) keep STAGES boxes of 64 bf16 x ROWS (128 rows: 16 KB, 128-byte swizzle, a GEMM's
// A tile) in flight each, through their own mbarriers, and never read them.  CTAs with the same key read the same boxes in the same order; the key is
// blockIdx / GROUP (neighbours share; GROUP 0: all CTAs share one sequence) or, SPREAD, blockIdx %
// (grid / GROUP) (CTAs grid/GROUP apart share).
//
// build:  nvcc -arch=sm_90a -O2 -o tma_bw gpu/probes/tma_bw.cu
// run:    tma_bw             every configuration, timed: a line "TMA NAME ..." each
//         tma_bw --once N    configuration N launched once (for ncu)
#include <cuda.h>
#include <cstdint>
#include <cstring>
#include "tma_common.cuh"

// SPIN: test_wait in a loop (the thread never sleeps), else try_wait (the thread may be suspended
// until the phase completes)
static __device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity, int spin)
{
    uint32_t done = 0;
    while (!done) {
        if (spin)
            asm volatile("{\n.reg .pred P;\nmbarrier.test_wait.parity.shared::cta.b64 P, [%1], %2;\nselp.b32 %0, 1, 0, P;\n}\n"
                         : "=r"(done)
                         : "r"(smem_u32(bar)), "r"(parity)
                         : "memory");
        else
            asm volatile("{\n.reg .pred P;\nmbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2;\nselp.b32 %0, 1, 0, P;\n}\n"
                         : "=r"(done)
                         : "r"(smem_u32(bar)), "r"(parity)
                         : "memory");
    }
}


extern "C" __global__ void __launch_bounds__(128, 1)
    tma_stream(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap map2, const CUtensorMap* gmap,
               int two_maps, int iters, int group, int spread, int rows_boxes,
               int cols_boxes, int stages, int box_rows, int producers, int mode)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    __shared__ uint64_t full[16], empty[16];
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages * producers; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&empty[s])));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const int box_bytes = box_rows * 128;
    const int pr = (int)threadIdx.x / 32;   // lane 0 of warps 0 .. PRODUCERS-1: a stream each
    if (threadIdx.x % 32 == 0 && pr < producers) {
        const int n = rows_boxes * cols_boxes;
        const int key = (group == 0 ? 0 : spread ? (int)blockIdx.x % ((int)gridDim.x / group) : (int)blockIdx.x / group) *
                            producers + pr;
        unsigned char* base = (unsigned char*)(((uintptr_t)smem + 1023) & ~(uintptr_t)1023) + pr * stages * box_bytes;
        uint64_t* full_p = full + pr * stages;
        for (int i = 0; i < iters + stages; i++) {
            const int s = i % stages;
            // mode 1 (burst): the first copy of a round of STAGES waits for the whole last round
            // mode 3 (producer and consumer, as fast.cu's): the producer waits for the consumer's release
            if (mode == 3) {
                if (i >= stages) wait_parity(&empty[s], (uint32_t)((i / stages) - 1) & 1u, 0);
            } else if (mode == 1 && s == 0 && i >= stages)
                for (int j = 0; j < stages; j++) wait_parity(&full_p[j], (uint32_t)((i / stages) - 1) & 1u, 0);
            else if (mode != 1 && i >= stages)
                wait_parity(&full_p[s], (uint32_t)((i / stages) - 1) & 1u, mode == 2);
            if (i >= iters) continue;
            // mode 4: two boxes a stage, both completing the stage's one mbarrier (a GEMM's A and B tiles)
            const int per = mode == 4 ? 2 : 1;
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&full_p[s])),
                         "r"(per * box_bytes)
                         : "memory");
            for (int j = 0; j < per; j++) {
                const int b = (int)(((long long)key * 7919 + per * i + j) % n);
                asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                             " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(base + (s * per + j) * box_bytes)),
                             "l"((uint64_t)(gmap ? gmap : two_maps && (i & 1) ? &map2 : &map)), "r"(smem_u32(&full_p[s])),
                             "r"((b % cols_boxes) * 64), "r"((b / cols_boxes) * box_rows)
                             : "memory");
            }
        }
    }
    // mode 3's consumer, lane 0 of warp PRODUCERS: waits for each copy and releases its stage
    if (mode == 3 && threadIdx.x == 32 * producers)
        for (int i = 0; i < iters; i++) {
            const int s = i % stages;
            wait_parity(&full[s], (uint32_t)(i / stages) & 1u, 0);
            asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(&empty[s])) : "memory");
        }
    __syncthreads();
}

struct Config {
    const char* name;
    int mb;        // tensor size, MB (1024 bf16 columns a row)
    int group, spread, stages, iters;
    int per_sm;    // CTAs a SM (each its own producer thread)
    int box_rows;  // box: 64 bf16 (128 bytes) x BOX_ROWS rows
    int producers = 1;  // threads of a CTA issuing copies (lane 0 of warps 0 ..), each its own stages and boxes
    int mode = 0;       // 0: a ring of STAGES (try_wait), 1: bursts of STAGES issued together, 2: the ring with test_wait,
                        // 3: a producer that waits for a consumer warp's release of each stage (fast.cu's pipeline),
                        // 4: the ring with two boxes a stage on one mbarrier (ITERS stages: 2 ITERS boxes)
    int global_map = 0; // the tensor map in global memory (a pointer parameter), not a __grid_constant__ parameter
    int two_maps = 0;   // odd copies through a second, identical tensor map (as a GEMM's A and B maps)
};

static const Config kConfigs[] = {
    {"l2_own_s4", 16, 1, 0, 4, 2000, 1, 128},      // each CTA its own boxes, L2-resident tensor
    {"l2_own_s8", 16, 1, 0, 8, 2000, 1, 128},
    {"l2_pair_s4", 16, 2, 0, 4, 2000, 1, 128},     // neighbouring CTAs read the same boxes at once
    {"l2_pair_spread_s4", 16, 2, 1, 4, 2000, 1, 128},
    {"l2_group8_s4", 16, 8, 0, 4, 2000, 1, 128},   // 8 CTAs a box, as an A tile shared by a group's 8 N tiles
    {"l2_all_s4", 16, 0, 0, 4, 2000, 1, 128},      // every CTA the same box sequence
    {"dram_own_s4", 512, 1, 0, 4, 1000, 1, 128},   // 512 MB: from DRAM
    {"dram_own_s8", 512, 1, 0, 8, 1000, 1, 128},
    {"l2_own_box64", 16, 1, 0, 8, 4000, 1, 64},    // box size
    {"l2_own_box256", 16, 1, 0, 4, 1000, 1, 256},
    {"l2_own_2sm", 16, 1, 0, 4, 1000, 2, 128},     // CTAs (producers) a SM
    {"l2_own_4sm", 16, 1, 0, 2, 500, 4, 128},
    {"l2_own_8sm", 16, 1, 0, 1, 250, 8, 128},
    {"l2_all_4sm", 16, 0, 0, 2, 500, 4, 128},
    {"dram_own_4sm", 512, 1, 0, 2, 250, 4, 128},
    {"l2_own_2prod", 16, 1, 0, 4, 1000, 1, 128, 2},  // producer threads a CTA
    {"l2_own_4prod", 16, 1, 0, 2, 500, 1, 128, 4},
    {"l2_own_burst4", 16, 1, 0, 4, 2000, 1, 128, 1, 1},   // 4 copies issued together, then all awaited
    {"l2_own_burst8", 16, 1, 0, 8, 2000, 1, 128, 1, 1},
    {"l2_own_burst2_box64", 16, 1, 0, 2, 4000, 1, 64, 1, 1},   // fast.cu k2's step: two 8 KB boxes
    {"l2_own_spin", 16, 1, 0, 4, 2000, 1, 128, 1, 2},     // the ring, test_wait spinning
    {"l2_small_burst2_box64", 1, 1, 0, 2, 4000, 1, 64, 1, 1},   // a 1 MB tensor (hot, as k2's 512^3 operands)
    {"l2_small_own_s4", 1, 1, 0, 4, 2000, 1, 128},
    {"l2_own_s4_gmap", 16, 1, 0, 4, 2000, 1, 128, 1, 0, 1},        // the map in global memory (fast.cu's k2-k5)
    {"l2_own_burst2_box64_gmap", 16, 1, 0, 2, 4000, 1, 64, 1, 1, 1},
    {"l2_own_2sm_gmap", 16, 1, 0, 4, 1000, 2, 128, 1, 0, 1},
    {"l2_own_s4_2maps", 16, 1, 0, 4, 2000, 1, 128, 1, 0, 0, 1},
    {"l2_own_burst2_box64_2maps", 16, 1, 0, 2, 4000, 1, 64, 1, 1, 0, 1},   // fast.cu k2's step: A and B maps
    {"l2_own_s4_pc", 16, 1, 0, 4, 2000, 1, 128, 1, 3},    // producer and consumer warps
    {"l2_own_s8_pc", 16, 1, 0, 8, 2000, 1, 128, 1, 3},
    {"l2_pair_s4_pc", 16, 2, 0, 4, 2000, 1, 128, 1, 3},
    {"l2_own_s4_2a_bar", 16, 1, 0, 4, 1000, 1, 128, 1, 4},   // 2 boxes a barrier: 2000 boxes in all
    {"l2_own_s2_2a_bar", 16, 1, 0, 2, 1000, 1, 128, 1, 4},
};
constexpr int kNConfigs = sizeof(kConfigs) / sizeof(kConfigs[0]);

int main(int argc, char** argv)
{
    const int once = once_arg(argc, argv);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const EncodeTiledFn encode = encode_tiled_fn();
    const int grid = p.multiProcessorCount;
    CK(cudaFuncSetAttribute(tma_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    if (once < 0) printf("DEVICE %s SMs %d, 128 threads a CTA, boxes of 64 bf16 x ROWS\n", p.name, grid);
    for (int c = 0; c < kNConfigs; c++) {
        if (once >= 0 && c != once) continue;
        const Config& k = kConfigs[c];
        const uint64_t cols = 1024, rows = (uint64_t)k.mb * 1024 * 1024 / (cols * 2);
        void* buf;
        CK(cudaMalloc(&buf, rows * cols * 2));
        CK(cudaMemset(buf, 1, rows * cols * 2));
        CUtensorMap map;
        const cuuint64_t dims[2] = {cols, rows}, strides[1] = {cols * 2};
        const cuuint32_t box[2] = {64, (cuuint32_t)k.box_rows}, estr[2] = {1, 1};
        if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, buf, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
            fprintf(stderr, "%s: cuTensorMapEncodeTiled failed\n", k.name);
            return 1;
        }
        CUtensorMap* gmap = nullptr;
        if (k.global_map) {
            CK(cudaMalloc(&gmap, sizeof map));
            CK(cudaMemcpy(gmap, &map, sizeof map, cudaMemcpyHostToDevice));
        }
        const int rb = (int)(rows / k.box_rows), cb = (int)(cols / 64), box_bytes = k.box_rows * 128;
        const int smem = k.per_sm == 1 ? 200 * 1024 : 200 * 1024 / k.per_sm;  // PER_SM CTAs a SM
        if (k.stages * k.producers * box_bytes * (k.mode == 4 ? 2 : 1) + 1024 > smem || k.stages * k.producers > 16) {
            fprintf(stderr, "%s: %d stages of %d bytes do not fit %d bytes of shared memory\n", k.name, k.stages, box_bytes, smem);
            return 1;
        }
        const int ctas = grid * k.per_sm;
        auto launch = [&] {
            tma_stream<<<ctas, 128, smem>>>(map, map, gmap, k.two_maps, k.iters, k.group, k.spread, rb, cb, k.stages, k.box_rows, k.producers, k.mode);
        };
        if (once >= 0) {
            launch();
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
        } else {
            const float ms = median_ms(launch, 11);
            const double bytes = (double)ctas * k.producers * k.iters * box_bytes * (k.mode == 4 ? 2 : 1);
            printf("TMA %-18s %4d MB group %d spread %d stages %d mode %d ctas/SM %d x %d box %3d rows: %9.2f us  %7.3f TB/s into the SMs  %8.1f B a SM-cycle at 1980 MHz\n",
                   k.name, k.mb, k.group, k.spread, k.stages, k.mode, k.per_sm, k.producers, k.box_rows, ms * 1e3, bytes / (ms * 1e-3) / 1e12,
                   bytes / grid / (ms * 1e-3) / 1.98e9);
        }
        CK(cudaFree(buf));
        if (gmap) CK(cudaFree(gmap));
    }
    return 0;
}
