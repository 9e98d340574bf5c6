/* One tensor copy's box moved between global and shared memory, as the
 * Tensor Memory Accelerator moves it (the PTX ISA's "Tensor copy"): the box
 * of a tensor map at some coordinates, dense in shared memory innermost
 * first, each 16-byte piece moved by the map's swizzle.  Elements outside
 * the tensor read as zero (NaN with the map's NaN fill, for floats) and
 * are not written.  Both interpreters use it (cp.async.bulk.tensor,
 * UTMALDG/UTMASTG); what they differ in, how a global address becomes
 * bytes and what a moved piece reports, comes through tma_io. */
#ifndef COALSIM_TMABOX_H
#define COALSIM_TMABOX_H

#include <stdint.h>

#include "frontend/tmap.h"

typedef struct tma_io {
    void *ctx;
    /* global bytes [A, A + N): *P and the address a request reports.  0, or
     * -1 with the interpreter's error set */
    int (*global)(void *ctx, uint64_t a, unsigned n, unsigned char **p, uint64_t *report);
    /* the global side's next 16-byte piece, in the order moved; NULL: not
     * reported (a multicast's further destinations, a read shared) */
    int (*piece)(void *ctx, uint64_t report);
    /* DST = OP(DST, SRC) for an element of EB bytes in global memory (a
     * reduction: STORE 2) */
    void (*reduce)(void *ctx, unsigned char *dst, const unsigned char *src, unsigned eb);
} tma_io;

/* The box of T at COORD between global memory and the shared bytes SMEM,
 * whose shared address is SH (the swizzle is a function of it; SMEM holds
 * the box, already checked).  STORE 0 loads, 1 stores, 2 reduces into the
 * tensor.  *WRITTEN grows by the bytes a store moves (whole 32-byte
 * sectors of each row's columns inside the tensor).  0, or -1 from IO. */
int tma_box(const tmap *t, const int64_t *coord, unsigned char *smem, uint32_t sh, int store, const tma_io *io,
            uint64_t *written);

#endif
