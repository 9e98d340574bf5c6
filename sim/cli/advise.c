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
    "       coalsim advise --seeds\n";

static int ways_cell(char *buf, size_t cap, const coalsim_tile_result *r)
{
    double per = r->requests ? (double)r->wavefronts / (double)r->requests : 0;
    if (r->wavefronts == r->ideal_wavefronts) return snprintf(buf, cap, "free    %5.2f", per);
    return snprintf(buf, cap, "%2u-way  %5.2f", r->max_ways, per);
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
         {32, 32, 4, 0, 0, 1, COALSIM_LD, 0}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.1.4", "setRowReadColIpad: int tile[32][32 + 1] read by columns", "conflict-free",
         {32, 32, 4, 1, 0, 1, COALSIM_LD, 0}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.2.1", "int tile[16][32] read by columns, block (32, 16)", "16-way on Fermi, 8-way on Kepler",
         {16, 32, 4, 0, 0, 1, COALSIM_LD, 0}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.2.2.4", "int tile[16][32 + 2] read by columns", "conflict-free (Kepler)",
         {16, 32, 4, 2, 0, 1, COALSIM_LD, 0}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.4.2", "transposeSmem: float tile[16][16] read tile[icol][irow]", "8-way (Kepler)",
         {16, 16, 4, 0, 0, 1, COALSIM_LD, 0}, {"fermi", "kepler", "hopper"}, 0, 0},
        {"seed 004 5.1.3.4", "4 banks, int a[5][4], 5 threads read a column", "5-way",
         {5, 4, 4, 0, 0, 1, COALSIM_LD, 0}, {"fermi", NULL, NULL}, 4, 5},
        {"seed 004 5.1.3.4", "4 banks, int a[5][5] (padded), 5 threads read a column", "no conflict",
         {5, 4, 4, 1, 0, 1, COALSIM_LD, 0}, {"fermi", NULL, NULL}, 4, 5},
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
    coalsim_tile t = {32, 32, 4, 0, 0, 1, COALSIM_LD, 0};
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
                   "--arch fermi,kepler,hopper.  --seeds checks the seed documents' stated conflicts.\n", usage);
            return 0;
        }
        if (!strcmp(o, "--seeds")) return seeds() ? 1 : 0;
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
