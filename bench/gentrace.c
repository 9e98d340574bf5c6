/* Write a large synthetic v1 trace to stdout for the benchmark: RECORDS
 * records (default 10 million) of a mix of global and shared accesses, as a
 * kernel's warps would issue them.  usage: gentrace [RECORDS] [SEED] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    uint64_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000ull;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    static const struct { const char *op, *space, *label; unsigned size; int pattern; } ins[] = {
        {"ld", "global", "A_read", 4, 0},     /* coalesced */
        {"ld", "global", "B_col", 4, 1},      /* 4 KiB stride */
        {"st", "shared", "tile_st", 4, 2},    /* row store */
        {"ld", "shared", "tile_ld", 4, 3},    /* column load, 32-way */
        {"ld", "shared", "tile_pad", 4, 4},   /* padded column load */
        {"ld", "global", "x8", 8, 0},
        {"ld", "shared", "v16", 16, 0},
        {"st", "global", "out", 4, 5},        /* offset by one */
    };
    const unsigned nins = sizeof ins / sizeof ins[0];
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    uint64_t n = 0, x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (uint64_t block = 0; n < want; block++)
        for (unsigned warp = 0; warp < 8 && n < want; warp++)
            for (unsigned i = 0; i < nins && n < want; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                unsigned mask = (x >> 40) % 7 == 0 ? (unsigned)(x >> 8) | 1u : 0xffffffffu;  /* some divergence */
                for (unsigned lane = 0; lane < 32 && n < want; lane++) {
                    if (!(mask >> lane & 1)) continue;
                    unsigned t = warp * 32 + lane, s = ins[i].size;
                    uint64_t g = 0x7f3a00000000ull + (uint64_t)i * 0x10000000ull;
                    uint64_t a;
                    switch (ins[i].pattern) {
                    case 0: a = g + (block * 256 + t) * s; break;
                    case 1: a = g + ((uint64_t)t * 1024 + block) * 4; break;
                    case 2: a = (uint64_t)t * 4; break;
                    case 3: a = (uint64_t)(lane * 32 + warp) * 4; break;
                    case 4: a = (uint64_t)(lane * 33 + warp) * 4; break;
                    default: a = g + (block * 256 + t + 1) * s; break;
                    }
                    if (ins[i].space[0] == 's') a %= 48 * 1024, a -= a % s;
                    printf("%s %s %u %s %llu %u 0x%llx\n", ins[i].op, ins[i].space, s, ins[i].label,
                           (unsigned long long)block, t, (unsigned long long)a);
                    n++;
                }
            }
    return ferror(stdout) ? 1 : 0;
}
