/* Which warps of a block meet on a shared word in a float add's
 * compare-and-store loop (ptx_lower.c), for the passes they fail because
 * of each other.
 *
 * A warp's ATOMS.CAST.SPIN stores only where the word still holds what its
 * LDS read a pass before; another warp's store in between makes it go
 * again.  The interpreter runs a block's warps one after another, so the
 * warps it has not run yet are not there to interfere: how many others
 * meet a warp on a word is taken from the block before on the same worker
 * (blocks of a launch mostly do alike), or, in a worker's first block,
 * from the warps run so far, scaled to the block.  Words are the block's
 * shared offsets / 4; a word's warps are a mask by warp index (a block has
 * at most 32 warps). */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

static int grow(cas_words *c, size_t words)
{
    if (words <= c->nwords) return 0;
    uint32_t *cur = realloc(c->cur, words * sizeof *cur), *prev = cur ? realloc(c->prev, words * sizeof *prev) : NULL;
    if (cur) c->cur = cur;
    if (!cur || !prev) return -1;
    c->prev = prev;
    memset(c->cur + c->nwords, 0, (words - c->nwords) * sizeof *cur);
    memset(c->prev + c->nwords, 0, (words - c->nwords) * sizeof *prev);
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
    for (unsigned i = 0; i < c->ntouched[1]; i++) c->prev[c->touched[1][i]] = 0;
    for (unsigned i = 0; i < c->ntouched[0]; i++) {
        uint32_t wd = c->touched[0][i];
        c->prev[wd] = c->cur[wd];
        c->cur[wd] = 0;
    }
    uint32_t *t = c->touched[1];
    c->touched[1] = c->touched[0], c->ntouched[1] = c->ntouched[0];
    c->touched[0] = t, c->ntouched[0] = 0;
    c->have_prev = 1;
}

double ptx_cas_others(const cas_words *c, uint64_t word, unsigned warp, unsigned nwarps)
{
    if (word >= c->nwords) return 0;
    uint32_t me = warp < 32 ? 1u << warp : 0;
    if (c->have_prev) return __builtin_popcount(c->prev[word] & ~me);
    /* the worker's first block: the warps before this one, scaled */
    if (warp == 0 || nwarps < 2) return 0;
    return __builtin_popcount(c->cur[word] & ~me) * (double)(nwarps - 1) / warp;
}

int ptx_cas_note(cas_words *c, uint64_t word, unsigned warp, size_t words)
{
    if (grow(c, words) != 0) return -1;
    if (word >= c->nwords || warp >= 32) return 0;
    if (!c->cur[word]) c->touched[0][c->ntouched[0]++] = (uint32_t)word;
    c->cur[word] |= 1u << warp;
    return 0;
}

void ptx_cas_free(cas_words *c)
{
    free(c->cur), free(c->prev), free(c->touched[0]), free(c->touched[1]);
    *c = (cas_words){0};
}
