/* The floor for the add sketch: a C loop that makes the same addresses as
 * examples/sketches/add.sketch (x, y, z read and written at
 * threadIdx.x + blockIdx.x * blockDim.x) and counts the sectors of each warp's
 * request, nothing else.  usage: addloop BLOCKS THREADS
 * Prints the accesses and sectors (coalsim's report must count the same). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    uint64_t blocks = argc > 1 ? strtoull(argv[1], NULL, 10) : 65536, threads = argc > 2 ? strtoull(argv[2], NULL, 10) : 256;
    uint64_t n = blocks * threads, bytes = (n + 1) * 4, base[3];
    base[0] = 0x7f3a00000000ull;                       /* the sketch's cudaMalloc-like bases */
    base[1] = (base[0] + bytes + 255) / 256 * 256;
    base[2] = (base[1] + bytes + 255) / 256 * 256;
    uint64_t accesses = 0, sectors = 0;
    for (uint64_t b = 0; b < blocks; b++)
        for (uint64_t w = 0; w * 32 < threads; w++)
            for (int k = 0; k < 3; k++) {
                uint64_t last = UINT64_MAX;
                for (uint64_t t = w * 32; t < w * 32 + 32 && t < threads; t++) {
                    uint64_t s = (base[k] + 4 * (t + b * threads)) / 32;
                    sectors += s != last;
                    last = s;
                    accesses++;
                }
            }
    printf("%llu accesses, %llu sectors\n", (unsigned long long)accesses, (unsigned long long)sectors);
    return 0;
}
