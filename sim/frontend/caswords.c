/* Which warps of a block add to a shared word in a float add's
 * compare-and-store loop (caswords.h), and how often, for the passes they
 * make each other fail.
 *
 * A warp's ATOMS.CAST.SPIN stores only where the word still holds what its
 * LDS read a pass before; another warp's store in between makes it go
 * again.  What counts is how many adds of other warps to the word fall
 * while one add of this warp is on: about the other warps' adds to it
 * over their adds, times the other warps (they spread their adds over the
 * same time).  The interpreters run a block's warps one after another, so
 * a warp sees only the warps run before it in its block: their adds stand
 * for all the others' (cas_words_plan makes up for the first warp, which
 * sees none).  Nothing is carried from block to block, so a
 * launch counts the same on any number of threads.  Words are the block's
 * shared offsets / 4; warps by index (a block has at most 32). */
#include "frontend/caswords.h"

#include <math.h>
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

void cas_words_block(cas_words *c)
{
    for (unsigned i = 0; i < c->ntouched; i++)
        memset(c->cur + (size_t)c->touched[i] * CAS_SLOTS, 0, CAS_SLOTS * sizeof *c->cur);
    c->ntouched = 0;
    memset(c->adds, 0, sizeof c->adds);
}

static double others(const cas_words *c, uint64_t word, unsigned warp, unsigned nwarps)
{
    if (word >= c->nwords || warp >= 32 || nwarps < 2) return 0;
    const uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    uint64_t adds = 0;
    for (unsigned k = 0; k < 32; k++)
        if (k != warp) adds += c->adds[k];
    return adds ? (double)(w[32] - w[warp]) / (double)adds * (nwarps - 1) : 0;
}

static void add(cas_words *c, unsigned warp)
{
    if (warp < 32) c->adds[warp]++;
}

static int note(cas_words *c, uint64_t word, unsigned warp, unsigned lanes, size_t words)
{
    if (grow(c, words) != 0) return -1;
    if (word >= c->nwords || warp >= 32) return 0;
    uint32_t *w = c->cur + (size_t)word * CAS_SLOTS;
    if (!w[32]) c->touched[c->ntouched++] = (uint32_t)word;
    w[warp] += lanes;
    w[32] += lanes;
    return 0;
}

/* W with W e^W = Z (Z >= 0), by Newton's method. */
static double lambert_w(double z)
{
    double w = log1p(z);
    for (int i = 0; i < 40; i++) {
        double e = exp(w), f = w * e - z;
        if (fabs(f) < 1e-12 * (1 + z)) break;
        w -= f / (e * (w + 1));
    }
    return w;
}

/* A lane's add to a word wins each pass with the chance that no other
 * warp's store lands in its window: with c adds of other warps to the word
 * for each of its lanes' adds while this add is on, a pass wins 1 in e^x of
 * the time, x e^x = c CAS_WINDOW (stores arriving at random, the window
 * CAS_WINDOW of a pass; gpu/probes/shared_cas.cu on the H100: 1.70, 2.69,
 * 3.93, 7.03 and 13.4 passes a win for 2, 4, 8, 16 and 32 warps on one
 * word).  The warp goes as long as its longest word. */
int cas_words_plan(cas_words *c, const uint64_t *wd, const unsigned *u, unsigned n, unsigned warp, unsigned nwarps,
                   size_t words, double *extra)
{
    double e = 0;
    for (unsigned k = 0; k < n; k++) {
        double o = others(c, wd[k], warp, nwarps) / u[k];
        double ek = o > 0 ? u[k] * (exp(lambert_w(o * CAS_WINDOW)) - 1) : 0;
        if (ek > e) e = ek;
    }
    /* the block's first warp to add knows of no other: the others carry
     * its share, so that the block's passes come to what its warps expect */
    if (nwarps > 1) e *= (double)nwarps / (nwarps - 1);
    *extra = e;
    add(c, warp);
    for (unsigned k = 0; k < n; k++)
        if (note(c, wd[k], warp, u[k], words) != 0) return -1;
    return 0;
}

uint32_t cas_pass_held(const uint64_t *word, uint32_t m, unsigned size)
{
    uint32_t held = 0, phase = size == 8 ? 0xffffu : 0xffffffffu;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint32_t mine = l < 16 || size != 8 ? phase : ~phase;
        uint64_t bank = word[l] % (128 / size);
        for (uint32_t bb = m & ((1u << l) - 1); bb; bb &= bb - 1) {
            int k = __builtin_ctz(bb);
            if (word[k] == word[l] || ((mine >> k & 1) && word[k] % (128 / size) == bank)) {
                held |= 1u << l;
                break;
            }
        }
    }
    return held;
}

unsigned cas_words_group(const uint64_t *word, uint32_t m, uint64_t *wd, unsigned *u)
{
    unsigned n = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint64_t a = word[__builtin_ctz(mm)];
        unsigned k = 0;
        while (k < n && wd[k] != a) k++;
        if (k == n) wd[n] = a, u[n++] = 0;
        u[k]++;
    }
    return n;
}

void cas_words_free(cas_words *c)
{
    free(c->cur), free(c->touched);
    *c = (cas_words){0};
}
