/* Shared tiles: the cost of reading or writing a 2-D tile by rows or by
 * columns for a given padding or XOR swizzle, over every warp of the block. */
#include "coalsim.h"

/* Address of element (row, col) of the tile as laid out. */
static uint64_t place(const coalsim_tile *t, unsigned row, unsigned col)
{
    unsigned c = col;
    if (t->cute_b) {
        uint64_t o = (uint64_t)row * t->cols + col;
        o ^= (o >> t->cute_s) & (((1ull << t->cute_b) - 1) << t->cute_m);
        return o * t->elem;
    }
    if (t->swizzle) c = col ^ ((row * t->swizzle) % t->cols);
    return ((uint64_t)row * (t->cols + t->pad) + c) * t->elem;
}

/* Model request R into the tile's totals. */
static void add(const coalsim_arch *a, const coalsim_request *r, coalsim_tile_result *out)
{
    coalsim_result res;
    coalsim_smem(a, r, &res);
    out->requests++;
    out->wavefronts += res.wavefronts;
    out->ideal_wavefronts += res.ideal_wavefronts;
    if (res.max_ways > out->max_ways) out->max_ways = res.max_ways;
}

/* The ldmatrix.x4 of 16x16 block K (row order), or the 16-byte chunks K * 32.. */
static void block_request(const coalsim_tile *t, uint64_t k, coalsim_request *r)
{
    *r = (coalsim_request){.space = COALSIM_SHARED, .size = 16, .label = "tile"};
    if (t->walk == COALSIM_WALK_LDMATRIX) {
        unsigned per = t->cols / 16, r0 = (unsigned)(k / per) * 16, c0 = (unsigned)(k % per) * 16;
        r->op = COALSIM_LDSM;
        for (unsigned l = 0; l < 32; l++) r->addr[l] = place(t, r0 + l % 8 + 8 * (l / 8 % 2), c0 + 8 * (l / 16));
        r->active = 0xffffffffu;
        return;
    }
    unsigned per = t->cols * t->elem / 16;
    uint64_t chunks = (uint64_t)t->rows * per;
    r->op = COALSIM_ST;
    for (unsigned l = 0; l < 32 && k * 32 + l < chunks; l++) {
        uint64_t c = k * 32 + l;
        r->addr[l] = place(t, (unsigned)(c / per), (unsigned)(c % per) * (16 / t->elem));
        r->active |= 1u << l;
    }
}

int coalsim_tile_cost(const coalsim_arch *a, const coalsim_tile *t, coalsim_tile_result *out)
{
    if (!t->rows || !t->cols || (t->elem != 1 && t->elem != 2 && t->elem != 4 && t->elem != 8 && t->elem != 16))
        return -1;
    if (t->swizzle && (t->cols & (t->cols - 1))) return -1;     /* XOR needs a power-of-two width */
    if (t->cute_b && (t->cute_m + t->cute_b + t->cute_s > 40 || (t->cols & (t->cols - 1)) || t->pad || t->swizzle)) return -1;
    *out = (coalsim_tile_result){0};
    if (t->walk != COALSIM_WALK_THREADS) {
        /* 16-byte rows of ldmatrix (or chunks) must stay 16-byte aligned */
        if (t->elem != 2 || t->rows % 16 || t->cols % 16 || ((t->cols + t->pad) * t->elem) % 16 ||
            (t->cute_b && t->cute_m < 3))
            return -1;
        uint64_t n = t->walk == COALSIM_WALK_LDMATRIX ? (uint64_t)(t->rows / 16) * (t->cols / 16)
                                                      : ((uint64_t)t->rows * t->cols * t->elem / 16 + 31) / 32;
        for (uint64_t k = 0; k < n; k++) {
            coalsim_request r;
            block_request(t, k, &r);
            add(a, &r, out);
        }
        out->bytes = ((uint64_t)t->rows * (t->cols + t->pad)) * t->elem;
        return 0;
    }
    uint64_t n = (uint64_t)t->rows * t->cols;
    uint64_t threads = t->threads ? t->threads : n;
    if (threads > n) threads = n;
    *out = (coalsim_tile_result){0};
    for (uint64_t w0 = 0; w0 < threads; w0 += a->warp_size) {
        coalsim_request r = {.op = t->op, .space = COALSIM_SHARED, .size = t->elem, .label = "tile"};
        for (unsigned l = 0; l < a->warp_size && w0 + l < threads; l++) {
            uint64_t idx = w0 + l;
            unsigned row, col;
            if (t->by_column) row = (unsigned)(idx % t->rows), col = (unsigned)(idx / t->rows);
            else row = (unsigned)(idx / t->cols), col = (unsigned)(idx % t->cols);
            r.addr[l] = place(t, row, col);
            r.active |= 1u << l;
        }
        add(a, &r, out);
    }
    out->bytes = ((uint64_t)t->rows * (t->cols + t->pad)) * t->elem;
    return 0;
}
