/* A tensor copy's box, element by element (tmabox.h). */
#include <string.h>

#include "frontend/tmabox.h"

int tma_box(const tmap *t, const int64_t *coord, unsigned char *smem, uint32_t sh, int store, const tma_io *io,
            uint64_t *written)
{
    unsigned eb = tmap_type_bytes(t->type), r = t->rank;
    unsigned n[TMAP_MAX_RANK] = {1, 1, 1, 1, 1};
    for (unsigned d = 0; d < r; d++) n[d] = tmap_box_elems(t, d);
    int nan_fill = t->oob_nan && (t->type == TMAP_F16 || t->type == TMAP_F32 || t->type == TMAP_F64 ||
                                  t->type == TMAP_BF16 || t->type == TMAP_F32_FTZ || t->type == TMAP_TF32 ||
                                  t->type == TMAP_TF32_FTZ);
    uint64_t rows = 1;
    for (unsigned d = 1; d < r; d++) rows *= n[d];
    uint64_t off = 0;           /* the box element's byte offset in shared memory, before the swizzle */
    for (uint64_t row = 0; row < rows; row++) {
        /* this row's coordinates in dimensions 1.. and whether it is in the tensor */
        uint64_t rest = row, gbase = t->base;
        int in_rows = 1;
        for (unsigned d = 1; d < r; d++) {
            int64_t c = coord[d] + (int64_t)(rest % n[d]) * t->estride[d];
            rest /= n[d];
            if (c < 0 || (uint64_t)c >= t->dims[d]) in_rows = 0;
            else gbase += (uint64_t)c * t->strides[d];
        }
        uint64_t last_piece = UINT64_MAX;
        if (store && in_rows) {
            /* a stored row moves the whole sectors its columns inside the tensor touch (ncu on the H100:
             * l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st) */
            int64_t lo = coord[0] > 0 ? coord[0] : 0, hi = coord[0] + (int64_t)n[0] * t->estride[0];
            if (hi > (int64_t)t->dims[0]) hi = (int64_t)t->dims[0];
            if (hi > lo) {
                uint64_t a = gbase + (uint64_t)lo * eb, e = gbase + (uint64_t)hi * eb;
                *written += ((e + 31) / 32 - a / 32) * 32;
            }
        }
        for (unsigned j = 0; j < n[0]; j++, off += eb) {
            int64_t c0 = coord[0] + (int64_t)j * t->estride[0];
            int inside = in_rows && c0 >= 0 && (uint64_t)c0 < t->dims[0];
            unsigned char *sp = smem + tmap_swizzle_addr(t->swizzle, (uint32_t)(sh + off)) - sh;
            if (!inside) {
                if (store) continue;
                memset(sp, 0, eb);
                if (nan_fill) {
                    static const unsigned char nan16[2] = {0x00, 0x7e}, nanb16[2] = {0xc0, 0x7f},
                                               nan32[4] = {0x00, 0x00, 0xc0, 0x7f},
                                               nan64[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
                    memcpy(sp, t->type == TMAP_F16 ? nan16 : t->type == TMAP_BF16 ? nanb16 : eb == 8 ? nan64 : nan32, eb);
                }
                continue;
            }
            uint64_t ga = gbase + (uint64_t)c0 * eb;
            unsigned char *gp;
            uint64_t rep;
            if (io->global(io->ctx, ga, eb, &gp, &rep) != 0) return -1;
            if (store == 2) io->reduce(io->ctx, gp, sp, eb);
            else if (store) memcpy(gp, sp, eb);
            else memcpy(sp, gp, eb);
            if ((rep & ~15ull) != last_piece) {
                last_piece = rep & ~15ull;
                if (io->piece && io->piece(io->ctx, rep) != 0) return -1;
            }
        }
    }
    return 0;
}
