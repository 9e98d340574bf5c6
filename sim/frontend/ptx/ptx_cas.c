/* Which warps of a block add to a shared word in a float add's
 * compare-and-store loop (ptx_lower.c), and how often, for the passes they
 * make each other fail.
 *
 * A warp's ATOMS.CAST.SPIN stores only where the word still holds what its
 * LDS read a pass before; another warp's store in between makes it go
 * again.  What counts is how many adds of other warps to the word fall
 * while one add of this warp is on: about the other warps' adds to it
 * over their adds, times the other warps (they spread their adds over the
 * same time).  The interpreter runs a block's warps one after another, so
 * a warp sees only the warps run before it in its block: their adds stand
 * for all the others' (ptx_ops_mem.c's spin_plan makes up for the first
 * warp, which sees none).  Nothing is carried from block to block, so a
 * launch counts the same on any number of threads.  Words are the block's
 * shared offsets / 4; warps by index (a block has at most 32). */
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
    memset(c->cur + old, 0, (n - old) * sizeof *cur);
    uint32_t *t = realloc(c->touched, words * sizeof *t);
    if (!t) return -1;
    c->touched = t;
    c->nwords = words;
    return 0;
}

void ptx_cas_block(cas_words *c)
{
    for (unsigned i = 0; i < c->ntouched; i++)
        memset(c->cur + (size_t)c->touched[i] * CAS_SLOTS, 0, CAS_SLOTS * sizeof *c->cur);
    c->ntouched = 0;
    memset(c->adds, 0, sizeof c->adds);
}

double ptx_cas_others(const cas_words *c, uint64_t word, unsigned warp, unsigned nwarps)
{
    if (word >= c->nwords || warp >= 32 || nwarps < 2) return 0;
    const uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    uint64_t adds = 0;
    for (unsigned k = 0; k < 32; k++)
        if (k != warp) adds += c->adds[k];
    return adds ? (double)(w[32] - w[warp]) / (double)adds * (nwarps - 1) : 0;
}

void ptx_cas_add(cas_words *c, unsigned warp)
{
    if (warp < 32) c->adds[warp]++;
}

int ptx_cas_note(cas_words *c, uint64_t word, unsigned warp, unsigned lanes, size_t words)
{
    if (grow(c, words) != 0) return -1;
    if (word >= c->nwords || warp >= 32) return 0;
    uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    if (!w[32]) c->touched[c->ntouched++] = (uint32_t)word;
    w[warp] += lanes;
    w[32] += lanes;
    return 0;
}

void ptx_cas_free(cas_words *c)
{
    free(c->cur), free(c->touched);
    *c = (cas_words){0};
}
