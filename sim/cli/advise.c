/* coalsim advise: sweep padding and XOR swizzles of a shared tile per
 * architecture, recommend the cheapest conflict-free layout, and check the
 * seed documents' stated conflict degrees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

#define MAXARCH 12

static const char usage[] =
    "usage: coalsim advise [--tile ROWSxCOLS] [--elem BYTES] [--by row|col] [--store] [--threads N]\n"
    "                      [--max-pad N] [--arch NAME,NAME...]\n"
    "       coalsim advise --ldmatrix ROWSxCOLS [--arch NAME]\n"
    "       coalsim advise --seeds\n";

static int ways_cell(char *buf, size_t cap, const coalsim_tile_result *r)
{
    double per = r->requests ? (double)r->wavefronts / (double)r->requests : 0;
    if (r->wavefronts == r->ideal_wavefronts) return snprintf(buf, cap, "free    %5.2f", per);
    return snprintf(buf, cap, "%2u-way  %5.2f", r->max_ways, per);
}

/* An mma operand tile of 16-bit elements: ldmatrix.x4 reads of its 16x16
 * blocks and the 16-byte chunk writes that fill it, for row padding and
 * CuTe swizzles; the cheapest layout that neither conflicts. */
static int mma_sweep(unsigned rows, unsigned cols, const char *arch)
{
    coalsim_arch a;
    if (coalsim_arch_preset(arch, &a) != 0) return -1;
    printf("%u x %u tile of 16-bit elements (%u-byte rows) on %s: each warp reads a 16x16 block with\n"
           "ldmatrix.x4 (an mma operand), and fills the tile 16 bytes a thread (cp.async or STS.128)\n"
           "cells: worst conflict and wavefronts per request (ideal 4 for both)\n\n", rows, cols, cols * 2, arch);
    printf("%-24s %11s  %-14s  %-14s\n", "layout", "extra bytes", "ldmatrix.x4", "16-byte fill");
    int best = -1;
    char best_name[64] = "";
    uint64_t best_bytes = 0;
    coalsim_tile layouts[16];
    char names[16][64];
    unsigned n = 0;
    for (unsigned pad = 0; pad <= 16; pad += 8) {
        layouts[n] = (coalsim_tile){.rows = rows, .cols = cols, .elem = 2, .pad = pad, .walk = COALSIM_WALK_LDMATRIX};
        snprintf(names[n++], sizeof names[0], pad ? "pad %u halves" : "plain", pad);
    }
    if (!(cols & (cols - 1)))
        for (unsigned b = 1; b <= 3; b++)
            for (unsigned sh = 3; sh <= 5 && n < 16; sh++) {
                layouts[n] = (coalsim_tile){.rows = rows, .cols = cols, .elem = 2, .cute_b = b, .cute_m = 3, .cute_s = sh,
                                            .walk = COALSIM_WALK_LDMATRIX};
                snprintf(names[n++], sizeof names[0], "Swizzle<%u,3,%u>", b, sh);
            }
    for (unsigned i = 0; i < n; i++) {
        coalsim_tile rd = layouts[i], wr = layouts[i];
        wr.walk = COALSIM_WALK_CHUNKS;
        coalsim_tile_result r, w;
        if (coalsim_tile_cost(&a, &rd, &r) != 0 || coalsim_tile_cost(&a, &wr, &w) != 0) continue;
        char c1[32], c2[32];
        ways_cell(c1, sizeof c1, &r);
        ways_cell(c2, sizeof c2, &w);
        uint64_t extra = r.bytes - (uint64_t)rows * cols * 2;
        printf("%-24s %11llu  %-14s  %-14s\n", names[i], (unsigned long long)extra, c1, c2);
        int free = r.wavefronts == r.ideal_wavefronts && w.wavefronts == w.ideal_wavefronts;
        if (free && (best < 0 || extra < best_bytes)) best = (int)i, best_bytes = extra, snprintf(best_name, sizeof best_name, "%s", names[i]);
    }
    if (best < 0) {
        printf("\nNo layout here is conflict-free for both.\n");
        return 0;
    }
    const coalsim_tile *t = &layouts[best];
    printf("\nUse: %s", best_name);
    if (t->cute_b)
        printf(" (element offset o -> o ^ ((o >> %u) & 0x%x): the 16-byte chunk index XORed with bits %u-%u\n"
               "of the offset, no extra bytes; CUTLASS/CuTe: composition(Swizzle<%u,3,%u>{}, layout))\n",
               t->cute_s, ((1u << t->cute_b) - 1) << 3, t->cute_s + 3, t->cute_s + 3 + t->cute_b - 1, t->cute_b, t->cute_s);
    else if (t->pad)
        printf(" (declare the tile [%u][%u + %u]: %llu bytes more)\n", rows, cols, t->pad, (unsigned long long)best_bytes);
    else
        printf(" (already conflict-free)\n");
    return 0;
}


static int cost(const char *arch, coalsim_tile t, coalsim_tile_result *r)
{
    coalsim_arch a;
    if (coalsim_arch_preset(arch, &a) != 0) return -1;
    return coalsim_tile_cost(&a, &t, r);
}

static int sweep(const coalsim_tile *base, const char **archs, int narch, unsigned max_pad)
{
    coalsim_tile_result r;
    printf("%u x %u tile of %u-byte elements, %s by %s, %llu threads\n", base->rows, base->cols, base->elem,
           base->op == COALSIM_LD ? "read" : "written", base->by_column ? "columns" : "rows",
           (unsigned long long)(base->threads ? base->threads : (uint64_t)base->rows * base->cols));
    printf("cells: worst conflict and wavefronts per request (\"free\": no bank conflict)\n\n");
    printf("%-14s %11s", "layout", "extra bytes");
    for (int k = 0; k < narch; k++) printf("  %-13s", archs[k]);
    printf("\n");
    unsigned nsw = (base->cols & (base->cols - 1)) ? 0 : 3;
    int best_pad[MAXARCH], best_sw[MAXARCH];
    uint64_t plain = (uint64_t)base->rows * base->cols * base->elem;
    for (int k = 0; k < narch; k++) best_pad[k] = best_sw[k] = -1;
    for (unsigned v = 0; v <= max_pad + nsw; v++) {
        coalsim_tile t = *base;
        char name[32];
        if (v <= max_pad) t.pad = v, snprintf(name, sizeof name, "pad %u", v);
        else t.swizzle = 1u << (v - max_pad - 1), snprintf(name, sizeof name, "xor swizzle x%u", t.swizzle);
        if (t.swizzle && t.swizzle >= t.cols) continue;
        printf("%-14s", name);
        for (int k = 0; k < narch; k++) {
            if (cost(archs[k], t, &r) != 0) return -1;
            if (k == 0) printf(" %11llu", (unsigned long long)(r.bytes - plain));
            char cell[32];
            ways_cell(cell, sizeof cell, &r);
            printf("  %-13s", cell);
            if (r.wavefronts == r.ideal_wavefronts) {
                if (v <= max_pad && best_pad[k] < 0) best_pad[k] = (int)v;
                if (v > max_pad && best_sw[k] < 0) best_sw[k] = (int)t.swizzle;
            }
        }
        printf("\n");
    }
    printf("\nrecommended (the least shared memory with no bank conflict):\n");
    for (int k = 0; k < narch; k++) {
        printf("  %-8s ", archs[k]);
        if (best_pad[k] == 0) printf("no padding needed");
        else if (best_pad[k] > 0)
            printf("pad each row by %d element%s (+%llu bytes)", best_pad[k], best_pad[k] == 1 ? "" : "s",
                   (unsigned long long)((uint64_t)base->rows * (unsigned)best_pad[k] * base->elem));
        else printf("no padding up to %u elements is conflict-free", max_pad);
        if (best_pad[k] != 0 && best_sw[k] > 0)
            printf("; or XOR swizzle x%d: column c of row r at c ^ (r * %d %% %u), no extra memory", best_sw[k],
                   best_sw[k], base->cols);
        printf("\n");
    }
    return 0;
}

/* The seed documents' statements about shared tiles, checked. */
typedef struct {
    const char *where, *what, *claim;
    coalsim_tile t;
    const char *archs[3];
    unsigned banks, warp;        /* 0: the preset's */
} seed_claim;

static int seeds(void)
{
    static const seed_claim claims[] = {
        {"seed 004 5.2.1.1", "setColReadCol: int tile[32][32] read by columns", "32 transactions per request",
         {.rows = 32, .cols = 32, .elem = 4, .pad = 0, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.1.4", "setRowReadColIpad: int tile[32][32 + 1] read by columns", "conflict-free",
         {.rows = 32, .cols = 32, .elem = 4, .pad = 1, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.2.1", "int tile[16][32] read by columns, block (32, 16)", "16-way on Fermi, 8-way on Kepler",
         {.rows = 16, .cols = 32, .elem = 4, .pad = 0, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.2.4", "int tile[16][32 + 2] read by columns", "conflict-free (Kepler)",
         {.rows = 16, .cols = 32, .elem = 4, .pad = 2, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.4.2", "transposeSmem: float tile[16][16] read tile[icol][irow]", "8-way (Kepler)",
         {.rows = 16, .cols = 16, .elem = 4, .pad = 0, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.1.3.4", "4 banks, int a[5][4], 5 threads read a column", "5-way",
         {.rows = 5, .cols = 4, .elem = 4, .pad = 0, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", NULL, NULL}, 4, 5},
        {"seed 004 5.1.3.4", "4 banks, int a[5][5] (padded), 5 threads read a column", "no conflict",
         {.rows = 5, .cols = 4, .elem = 4, .pad = 1, .swizzle = 0, .by_column = 1, .op = COALSIM_LD}, {"fermi", NULL, NULL}, 4, 5},
    };
    printf("The seed documents' shared-memory statements, modelled (worst conflict per request):\n\n");
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        const seed_claim *c = &claims[i];
        printf("%s  %s\n  says: %s\n  coalsim:", c->where, c->what, c->claim);
        for (int k = 0; k < 3 && c->archs[k]; k++) {
            coalsim_arch a;
            coalsim_tile_result r;
            coalsim_arch_preset(c->archs[k], &a);
            if (c->banks) a.banks = c->banks, a.warp_size = c->warp;
            if (coalsim_tile_cost(&a, &c->t, &r) != 0) return -1;
            if (c->banks) printf(" %u banks, %u-thread warps:", c->banks, c->warp);
            else printf(" %s", c->archs[k]);
            double per = (double)r.wavefronts / (double)r.requests, ideal = (double)r.ideal_wavefronts / (double)r.requests;
            if (r.wavefronts == r.ideal_wavefronts) printf(" free (%.4g wavefront%s/request)", per, per == 1 ? "" : "s");
            else printf(" %u-way (%.4g wavefronts/request, ideal %.4g)", r.max_ways, per, ideal);
            if (k < 2 && c->archs[k + 1]) printf(",");
        }
        printf("\n\n");
    }
    printf("Verdicts: the 32-transaction column read and transposeSmem's 8-way are 4-byte-bank numbers\n"
           "(Fermi, Maxwell and later); Kepler's 8-byte banks give 16-way and 4-way.  IPAD = 1 leaves\n"
           "Kepler a 2-way conflict.  In the 4-bank sketch, 5 threads of 4 bytes need two passes over\n"
           "4 banks even without conflicts: the unpadded column costs 5 wavefronts (the seed's \"5-way\"),\n"
           "the padded one 2, which is that minimum.\n");
    return 0;
}

int advise_main(int argc, char **argv)
{
    coalsim_tile t = {.rows = 32, .cols = 32, .elem = 4, .pad = 0, .swizzle = 0, .by_column = 1, .op = COALSIM_LD};
    const char *archs[MAXARCH] = {"fermi", "kepler", "hopper"};
    int narch = 3;
    unsigned max_pad = 4;
    char archbuf[256];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            printf("%s\nSweeps row padding (0..max-pad elements) and XOR swizzles of a shared tile and prints, per\n"
                   "architecture, the worst bank conflict and wavefronts per request of every layout, then the\n"
                   "cheapest conflict-free one.  --by col is the seed's column-major walk (thread idx reads\n"
                   "element (idx %% ROWS, idx / ROWS)).  Defaults: --tile 32x32 --elem 4 --by col --max-pad 4\n"
                   "--arch fermi,kepler,hopper.  --seeds checks the seed documents' stated conflicts.\n"
                   "--ldmatrix ROWSxCOLS sweeps an mma operand tile of 16-bit elements (ldmatrix.x4 reads of\n"
                   "its 16x16 blocks, 16-byte fills) over padding and CuTe swizzles (Swizzle<B,M,S>).\n", usage);
            return 0;
        }
        if (!strcmp(o, "--seeds")) return seeds() ? 1 : 0;
        if (!strcmp(o, "--ldmatrix")) {
            unsigned r = 0, c = 0;
            const char *arch = "hopper";
            if (!v || sscanf(v, "%ux%u", &r, &c) != 2 || !r || !c || r % 16 || c % 16 || r > 4096 || c > 4096) {
                fprintf(stderr, "coalsim: advise: --ldmatrix needs ROWSxCOLS, multiples of 16 (at most 4096)\n%s", usage);
                return 2;
            }
            if (i + 3 < argc && !strcmp(argv[i + 2], "--arch")) arch = argv[i + 3];
            if (mma_sweep(r, c, arch) != 0) {
                fprintf(stderr, "coalsim: advise: unknown architecture '%s'\n%s", arch, usage);
                return 2;
            }
            return 0;
        }
        if (!strcmp(o, "--store")) {
            t.op = COALSIM_ST;
            continue;
        }
        if (!v) {
            fprintf(stderr, "coalsim: advise: option %s needs a value\n%s", o, usage);
            return 2;
        }
        i++;
        if (!strcmp(o, "--tile") && sscanf(v, "%ux%u", &t.rows, &t.cols) == 2 && t.rows && t.cols && t.rows <= 4096 &&
            t.cols <= 4096)
            continue;
        if (!strcmp(o, "--elem") && (t.elem = (unsigned)atoi(v)) && (t.elem == 1 || t.elem == 2 || t.elem == 4 ||
                                                                        t.elem == 8 || t.elem == 16))
            continue;
        if (!strcmp(o, "--by") && (!strcmp(v, "row") || !strcmp(v, "col"))) {
            t.by_column = !strcmp(v, "col");
            continue;
        }
        if (!strcmp(o, "--threads") && atol(v) > 0) {
            t.threads = (uint64_t)atol(v);
            continue;
        }
        if (!strcmp(o, "--max-pad") && atoi(v) >= 0 && atoi(v) <= 64) {
            max_pad = (unsigned)atoi(v);
            continue;
        }
        if (!strcmp(o, "--arch") && strlen(v) < sizeof archbuf) {
            strcpy(archbuf, v);
            narch = 0;
            for (char *p = strtok(archbuf, ","); p && narch < MAXARCH; p = strtok(NULL, ",")) {
                coalsim_arch a;
                if (coalsim_arch_preset(p, &a) != 0) {
                    fprintf(stderr, "coalsim: advise: unknown architecture '%s'\n%s", p, usage);
                    return 2;
                }
                archs[narch++] = p;
            }
            if (narch) continue;
        }
        fprintf(stderr, "coalsim: advise: bad option or value: %s %s\n%s", o, v, usage);
        return 2;
    }
    return sweep(&t, archs, narch, max_pad) ? 1 : 0;
}
