/* Which warps of a block add to a shared word in a float add's
 * compare-and-store loop (ptx_lower.c), and how often, for the passes they
 * make each other fail.
 *
 * A warp's ATOMS.CAST.SPIN stores only where the word still holds what its
 * LDS read a pass before; another warp's store in between makes it go
 * again.  What counts is how many adds of other warps to the word fall
 * while one add of this warp is on: their adds to it in the block over
 * this warp's adds (the warps spread their adds over the block's time),
 * and each costs a part of a pass (ptx_ops_mem.c, spin_plan).  The interpreter runs a
 * block's warps one after another, so the warps after this one have not
 * run yet: the counts are the block before's on the same worker (blocks of
 * a launch mostly do alike) or, in a worker's first block, those of the
 * warps run so far, scaled to the block.  Words are the block's shared
 * offsets / 4; warps by index (a block has at most 32). */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

static int grow(cas_words *c, size_t words)
{
    if (words <= c->nwords) return 0;
    size_t n = words * CAS_SLOTS, old = c->nwords * CAS_SLOTS;
    uint32_t *cur = realloc(c->cur, n * sizeof *cur);
    if (!cur) return -1;
    c->cur = cur;
    uint32_t *prev = realloc(c->prev, n * sizeof *prev);
    if (!prev) return -1;
    c->prev = prev;
    memset(c->cur + old, 0, (n - old) * sizeof *cur);
    memset(c->prev + old, 0, (n - old) * sizeof *prev);
    for (int k = 0; k < 2; k++) {
        uint32_t *t = realloc(c->touched[k], words * sizeof *t);
        if (!t) return -1;
        c->touched[k] = t;
    }
    c->nwords = words;
    return 0;
}

void ptx_cas_block(cas_words *c)
{
    if (!c->ntouched[0] && !c->ntouched[1]) return;
    for (unsigned i = 0; i < c->ntouched[1]; i++)
        memset(c->prev + (size_t)c->touched[1][i] * CAS_SLOTS, 0, CAS_SLOTS * sizeof *c->prev);
    for (unsigned i = 0; i < c->ntouched[0]; i++) {
        size_t at = (size_t)c->touched[0][i] * CAS_SLOTS;
        memcpy(c->prev + at, c->cur + at, CAS_SLOTS * sizeof *c->prev);
        memset(c->cur + at, 0, CAS_SLOTS * sizeof *c->cur);
    }
    uint32_t *t = c->touched[1];
    c->touched[1] = c->touched[0], c->ntouched[1] = c->ntouched[0];
    c->touched[0] = t, c->ntouched[0] = 0;
    memcpy(c->adds[1], c->adds[0], sizeof c->adds[0]);
    memset(c->adds[0], 0, sizeof c->adds[0]);
    c->have_prev = 1;
}

double ptx_cas_others(const cas_words *c, uint64_t word, unsigned warp, unsigned nwarps)
{
    if (word >= c->nwords || warp >= 32) return 0;
    if (c->have_prev) {
        const uint32_t *w = c->prev + (size_t)word * CAS_SLOTS;
        return c->adds[1][warp] ? (double)(w[32] - w[warp]) / (double)c->adds[1][warp] : 0;
    }
    /* the worker's first block: the other warps' adds so far, a warp's
     * share of them scaled to the block's other warps */
    const uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    uint64_t adds = 0;
    for (unsigned k = 0; k < 32; k++)
        if (k != warp) adds += c->adds[0][k];
    if (!adds || nwarps < 2) return 0;
    return (double)(w[32] - w[warp]) / (double)adds * (nwarps - 1);
}

void ptx_cas_add(cas_words *c, unsigned warp)
{
    if (warp < 32) c->adds[0][warp]++;
}

int ptx_cas_note(cas_words *c, uint64_t word, unsigned warp, unsigned lanes, size_t words)
{
    if (grow(c, words) != 0) return -1;
    if (word >= c->nwords || warp >= 32) return 0;
    uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    if (!w[32]) c->touched[0][c->ntouched[0]++] = (uint32_t)word;
    w[warp] += lanes;
    w[32] += lanes;
    return 0;
}

void ptx_cas_free(cas_words *c)
{
    free(c->cur), free(c->prev), free(c->touched[0]), free(c->touched[1]);
    *c = (cas_words){0};
}
