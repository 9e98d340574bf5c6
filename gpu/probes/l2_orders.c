/* The L2 probes' orders (l2_rates.cu read and own, l2_sides.cu one side and all) through coalsim's
 * cache model (libcoalsim's coalsim_hier_request), printing the DRAM reads a pass after the first as
 * a share of the footprint, to set beside gpu/probes/README.md's H100 measurements.  With a mask (the
 * H100's l2_home_mask, 0xB3000) the model's L2 has two sides (coalsim_hier_cfg.l2_home_mask); without,
 * it is one cache.
 *   make && cc -O2 -Iinclude -o /tmp/l2_orders gpu/probes/l2_orders.c build/libcoalsim.a -lz -lm -lpthread
 *   /tmp/l2_orders; /tmp/l2_orders 0xB3000          (seconds, no GPU) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coalsim.h"

/* mode 0 read (rotating, 264 blocks of 32 warps), 1 own, 2 one side (SMs with side 0 only; 1 block a SM), 3 all (1 block a SM) */
static double run(double mib, int mode, uint64_t mask)
{
    coalsim_hier_cfg cfg;
    coalsim_hier_preset("hopper", &cfg);
    cfg.l2_home_mask = mask;
    coalsim_hier *h = coalsim_hier_new(&cfg);
    unsigned sms = 132, bps = mode < 2 ? 2 : 1, wpb = 32;
    /* the blocks that read, as SM numbers b % 132 in the model */
    unsigned blocks[264], nb = 0;
    for (unsigned b = 0; b < sms * bps; b++) {
        unsigned s = b % sms, side = ((s >> 2) ^ (s >> 6)) & 1;
        if (mode == 2 && side) continue;
        blocks[nb++] = b;
    }
    unsigned long long n = (unsigned long long)(mib * 1048576 / 128), W = (unsigned long long)nb * wpb, step = 4 * W;
    if (mode == 1) n -= n % step;
    coalsim_request r;
    memset(&r, 0, sizeof r);
    r.op = COALSIM_LD, r.space = COALSIM_GLOBAL, r.size = 4, r.active = 0xffffffffu, r.label = "x";
    uint64_t base = 1ull << 32;
    double miss[8] = {0};
    for (unsigned long long k = 0; k < 8 * n; k++) {
        unsigned long long L = k % n, w = (k % step) % W;
        r.block = blocks[w / wpb], r.warp = w % wpb;
        for (int l = 0; l < 32; l++) r.addr[l] = base + L * 128 + 4 * l;
        coalsim_hier_counts c;
        memset(&c, 0, sizeof c);
        coalsim_hier_request(h, &r, &c);
        miss[k / n] += (double)c.dram_read;
    }
    coalsim_hier_free(h);
    double s = 0;
    for (int p = 1; p < 8; p++) s += miss[p];
    return 100.0 * s / 7 / ((double)n * 128);
}

int main(int argc, char **argv)
{
    uint64_t mask = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
    const char *names[] = {"read", "own", "one side", "all (1 block a SM)"};
    double sizes[4][4] = {{24, 32, 40, 48}, {32, 40, 48, 0}, {24, 36, 44, 48}, {24, 36, 44, 48}};
    for (int m = 0; m < 4; m++) {
        printf("%-20s", names[m]);
        for (int i = 0; i < 4 && sizes[m][i]; i++) printf(" %2.0f:%5.1f", sizes[m][i], run(sizes[m][i], m, mask));
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
