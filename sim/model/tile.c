/* Shared tiles: the cost of reading or writing a 2-D tile by rows or by
 * columns for a given padding or XOR swizzle, over every warp of the block. */
#include "coalsim.h"

/* Address of element (row, col) of the tile as laid out. */
static uint64_t place(const coalsim_tile *t, unsigned row, unsigned col)
{
    unsigned c = col;
    if (t->swizzle) c = col ^ ((row * t->swizzle) % t->cols);
    return ((uint64_t)row * (t->cols + t->pad) + c) * t->elem;
}

int coalsim_tile_cost(const coalsim_arch *a, const coalsim_tile *t, coalsim_tile_result *out)
{
    if (!t->rows || !t->cols || (t->elem != 1 && t->elem != 2 && t->elem != 4 && t->elem != 8 && t->elem != 16))
        return -1;
    if (t->swizzle && (t->cols & (t->cols - 1))) return -1;     /* XOR needs a power-of-two width */
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
        coalsim_result res;
        coalsim_smem(a, &r, &res);
        out->requests++;
        out->wavefronts += res.wavefronts;
        out->ideal_wavefronts += res.ideal_wavefronts;
        if (res.max_ways > out->max_ways) out->max_ways = res.max_ways;
    }
    out->bytes = ((uint64_t)t->rows * (t->cols + t->pad)) * t->elem;
    return 0;
}
