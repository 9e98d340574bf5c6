// Which SMs see the same L2 (l2_rates.cu, l2_sides.cu, 2026-11-27): lines that warps of every SM
// read take more of L2 than lines each SM keeps to itself, as if each of two sides kept a copy of
// what its SMs read, but no half of the SMs by %smid behaves as one side.  This probe asks SM by SM.
// For each SM Y (and a first SM X): a launch in which only X's block reads 256 fresh lines (from
// DRAM: L2 keeps them where X's reads leave them), then a launch in which only Y's block reads the
// same lines one after another, each load waiting for the last, and times them with clock64.  Where
// Y sees what X's reads left as X does, its loads are L2's nearest hits; where not, some or all of
// them cross to the other side.  Each SM gets one block (200 KB of shared memory each); a 256 MiB
// read empties L2 first.  Printed: Y, its mean cycles a load, for X = 0 and for X = the SM farthest
// from 0 by that first measure.
//
// l2_pairs        every SM, both rounds
#include <cstring>
#include "timing.cuh"

#define LINES 256

// Only the block on SM WHO acts: reads LINES lines of REGION (TIME: one after another, timed, the
// mean cycles a load into *OUT).
__global__ void touch(const unsigned *region, unsigned who, int time, unsigned long long *out)
{
    extern __shared__ unsigned pad[];
    if (smid() != who || threadIdx.x != 0) return;
    unsigned v = 0;
    long long t0 = clock64();
    for (int i = 0; i < LINES; i++) v = __ldcg(&region[(size_t)i * 32 + (v & 1)]);   /* the next waits for this */
    long long t1 = clock64();
    if (time) *out = (unsigned long long)(t1 - t0) / LINES;
    if (v == 12345u) pad[0] = v;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const unsigned sms = (unsigned)prop.multiProcessorCount;
    const size_t smem = 200 * 1024, big = (size_t)256 << 20, region = LINES * 128;
    unsigned *lines;
    float4 *junk;
    float *sink;
    unsigned long long *out, h;
    CK(cudaMalloc(&lines, 2 * (size_t)sms * region));
    CK(cudaMemset(lines, 0, 2 * (size_t)sms * region));    /* zeros: each load's next address is the line's start */
    CK(cudaMalloc(&junk, big));
    CK(cudaMemset(junk, 0, big));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMalloc(&out, sizeof out[0]));
    CK(cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    printf("# device = %s, sms = %u; %d lines a pair, cycles a dependent load (clock64)\n", prop.name, sms, LINES);
    printf("# round  X  Y  cycles\n");
    unsigned x = 0, far = 0;
    unsigned long long worst = 0;
    for (int round = 0; round < 2; round++) {
        read_through_l2<<<4 * sms, 256>>>(junk, big / sizeof(float4), sink);
        CK(cudaDeviceSynchronize());
        for (unsigned y = 0; y < sms; y++) {
            const unsigned *r = lines + ((size_t)round * sms + y) * (region / 4);
            touch<<<sms, 32, smem>>>(r, x, 0, out);
            touch<<<sms, 32, smem>>>(r, y, 1, out);
            CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
            printf("%d %3u %3u %6llu\n", round, x, y, h);
            if (round == 0 && y != x && h > worst) worst = h, far = y;
        }
        x = far;
    }
    return 0;
}
