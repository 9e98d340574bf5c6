// epi_store.cu: a persistent GEMM's epilogue without the GEMM.  fast.cu's kernels 6-9 end each tile
// with its consumers storing C straight from their registers: per thread, 16 x 8 st.global of one
// bf16, each warp's store 8 rows (16 bytes) of 4 columns M apart (4 lines, 64 bytes).  Round 8 had
// those kernels at 6144 x 2048 x 512 at 0.62-0.76x of the H100's time (three short tiles a CTA).
// Does the epilogue overlap the next tile's work, and what does it cost a SM when every SM stores?
//
// Every CTA (128 of them, one a SM, as fast.cu's NUM_SM): warpgroup 0 (the producer) idles; the two
// consumer warpgroups take tiles of 128 x 256 of an M x N column-major C in turn, and for each spend
// WORK dependent FMAs (in place of the mainloop's wgmmas) and then store STORES of its bf16s as
// fast.cu does (128: the whole tile).  CTA 0's first consumer warp records its clock around each
// tile's stores.  MODE 1 stores the same bytes as whole 32-byte sectors (a lane's two rows as one
// bf16x2), MODE 2 fast.cu's stores with each sector's two halves back to back (runs/h100-epi-store-3).
// usage: probe_epi_store [--once N]   (no argument: every configuration, timed; gpu/probes/run_epi_store.sh)
#include <cuda_bf16.h>
#include <cstdint>
#include <cstring>
#include "timing.cuh"

extern "C" __global__ void __launch_bounds__(384, 1)
    epi_store(__nv_bfloat16* C, int M, int N, int work, int stores, int mode, long long* stamps)
{
    if (threadIdx.x < 128) return;                  // the producer: nothing to load here
    const int tid = threadIdx.x % 128, wg = threadIdx.x / 128 - 1;
    const int lane = tid % 32, warp = tid / 32, row = warp * 16 + lane / 4;
    const int tiles_n = N / 256, tiles = (M / 128) * tiles_n;
    float a = (float)threadIdx.x;
    int t = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, t++) {
        const int bn = tile % tiles_n, bm = tile / tiles_n;
        for (int i = 0; i < work; i++) a = fmaf(a, 1.0001f, 0.5f);
        __nv_bfloat16* bc = C + (size_t)bn * 256 * M + (size_t)bm * 128;
        const int yo = wg * 64;
        const bool stamp = blockIdx.x == 0 && threadIdx.x == 128 && t < 64;
        if (stamp) stamps[2 * t] = clock64();
#define IDX(i, j) ((size_t)(j) * M + ((i) + yo))
        for (int w = 0; w < stores / 8; w++) {
            const int col = 16 * w + 2 * (tid % 4);
            const __nv_bfloat16 v = __float2bfloat16(a + (float)w);
            if (mode == 1) {
                // whole sectors: a lane's two rows as one bf16x2, a warp's store 16 rows (32 bytes) of 4 columns
                const int r2 = warp * 16 + 2 * (lane / 4);
                const __nv_bfloat162 v2 = __halves2bfloat162(v, v);
                *reinterpret_cast<__nv_bfloat162*>(&bc[IDX(r2, col)]) = v2;
                *reinterpret_cast<__nv_bfloat162*>(&bc[IDX(r2, col + 1)]) = v2;
                *reinterpret_cast<__nv_bfloat162*>(&bc[IDX(r2, col + 8)]) = v2;
                *reinterpret_cast<__nv_bfloat162*>(&bc[IDX(r2, col + 9)]) = v2;
            } else if (mode == 2) {
                // fast.cu's stores, each sector's two halves back to back
                bc[IDX(row, col)] = v;
                bc[IDX(row + 8, col)] = v;
                bc[IDX(row, col + 1)] = v;
                bc[IDX(row + 8, col + 1)] = v;
                bc[IDX(row, col + 8)] = v;
                bc[IDX(row + 8, col + 8)] = v;
                bc[IDX(row, col + 9)] = v;
                bc[IDX(row + 8, col + 9)] = v;
            } else {
                bc[IDX(row, col)] = v;
                bc[IDX(row, col + 1)] = v;
                bc[IDX(row + 8, col)] = v;
                bc[IDX(row + 8, col + 1)] = v;
                bc[IDX(row, col + 8)] = v;
                bc[IDX(row, col + 9)] = v;
                bc[IDX(row + 8, col + 8)] = v;
                bc[IDX(row + 8, col + 9)] = v;
            }
        }
#undef IDX
        if (stamp) stamps[2 * t + 1] = clock64();
    }
    if (a == 12345.678f) C[0] = __float2bfloat16(a);   // keeps the FMAs
}

struct Config {
    const char* name;
    int m, n, work, stores, mode;   // mode 0: fast.cu's stores; 1: whole sectors; 2: a sector's halves back to back
};

// A: round 8's 6144 x 2048 (384 tiles, 3 or 2 a CTA); B: 2048 x 4096 (256 tiles, 2 a CTA); T: 128 tiles,
// one a CTA, C M x N for M = 1024 .. 8192.  WORK: about the mainloop's tensor time a tile (K = 512: ~9000
// cycles, 2250 FMAs of 4; K = 1024: twice).
static const Config kConfigs[] = {
    {"A_work", 6144, 2048, 2250, 0},      {"A_store", 6144, 2048, 0, 128},     {"A_both", 6144, 2048, 2250, 128},
    {"A_half", 6144, 2048, 2250, 64},     {"A_work2", 6144, 2048, 4500, 0},   {"A_both2", 6144, 2048, 4500, 128},
    {"B_work", 2048, 4096, 4500, 0},      {"B_store", 2048, 4096, 0, 128},     {"B_both", 2048, 4096, 4500, 128},
    {"S_store", 6144, 2048, 0, 8},
    // one tile a CTA (as fast.cu's k4-k5 at 4096 x 1024): the stores' rate by C's column stride (M)
    {"T1_store", 1024, 4096, 0, 128},    {"T2_store", 2048, 2048, 0, 128},    {"T4_store", 4096, 1024, 0, 128},
    {"T8_store", 8192, 512, 0, 128},     {"T4_both", 4096, 1024, 2250, 128}, {"T4_work", 4096, 1024, 2250, 0},
    // three tiles a CTA (384) at C's column strides M = 2048 .. 12288 (held-out round 10: the stores'
    // cost follows C's shape), and at two of them with whole sectors (mode 1) or halves back to back (2)
    {"S2048", 2048, 6144, 0, 128},       {"S3072", 3072, 4096, 0, 128},     {"S4096", 4096, 3072, 0, 128},
    {"S6144", 6144, 2048, 0, 128},       {"S8192", 8192, 1536, 0, 128},     {"S12288", 12288, 1024, 0, 128},
    {"W4096", 4096, 3072, 0, 128, 1},    {"W6144", 6144, 2048, 0, 128, 1},
    {"H4096", 4096, 3072, 0, 128, 2},    {"H6144", 6144, 2048, 0, 128, 2},
};
static const int kNConfigs = sizeof kConfigs / sizeof kConfigs[0];

int main(int argc, char** argv)
{
    int once = -1;
    if (argc == 3 && !strcmp(argv[1], "--once")) once = atoi(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--once N]\n", argv[0]);
        return 2;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const int grid = 128, smem = 200 * 1024;   // one CTA a SM, as fast.cu's
    CK(cudaFuncSetAttribute(epi_store, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    __nv_bfloat16* C;
    long long* stamps;
    const size_t most = (size_t)8192 * 4096;
    CK(cudaMalloc(&C, most * sizeof *C));
    CK(cudaMemset(C, 0, most * sizeof *C));
    CK(cudaMalloc(&stamps, 128 * sizeof(long long)));
    if (once < 0) printf("DEVICE %s SMs %d, %d CTAs of 384 threads\n", p.name, p.multiProcessorCount, grid);
    for (int c = 0; c < kNConfigs; c++) {
        if (once >= 0 && c != once) continue;
        const Config& k = kConfigs[c];
        CK(cudaMemset(stamps, 0, 128 * sizeof(long long)));
        auto launch = [&] { epi_store<<<grid, 384, smem>>>(C, k.m, k.n, k.work, k.stores, k.mode, stamps); };
        if (once >= 0) {
            launch();
            CK(cudaDeviceSynchronize());
            CK(cudaGetLastError());
            continue;
        }
        const float ms = median_ms(launch, 15);
        long long st[6];
        CK(cudaMemcpy(st, stamps, sizeof st, cudaMemcpyDeviceToHost));
        const int tiles = (k.m / 128) * (k.n / 256);
        printf("EPI %-8s M %5d N %5d tiles %3d (%d a CTA at most) work %5d stores %3d mode %d: %9.2f us   CTA 0 warp 4 store cycles"
               " a tile: %lld %lld %lld\n",
               k.name, k.m, k.n, tiles, (tiles + grid - 1) / grid, k.work, k.stores, k.mode, ms * 1e3, st[1] - st[0],
               st[3] - st[2], st[5] - st[4]);
    }
    CK(cudaFree(C));
    CK(cudaFree(stamps));
    return 0;
}
