/* Counting distinct values in small sets of 64-bit keys (a warp request's
 * addresses), without allocating. */
#ifndef COALSIM_UNIQ_H
#define COALSIM_UNIQ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coalsim.h"

/* Distinct values among k[0..n), n <= 128: one pass if they come in order
 * (the common case), else a small hash set (at most half full). */
static inline unsigned uniq_count(const uint64_t *k, unsigned n)
{
    if (!n) return 0;
    /* one value (a broadcast): XOR and OR, which vectorise */
    uint64_t diff = 0;
    for (unsigned i = 1; i < n; i++) diff |= k[i] ^ k[0];
    if (!diff) return 1;
    unsigned down = 0, c = 1;
    for (unsigned i = 1; i < n; i++) {
        down |= k[i] < k[i - 1];
        c += k[i] != k[i - 1];
    }
    if (!down) return c;
    uint64_t tab[256];
    unsigned char used[256];
    unsigned bits = n <= 32 ? 6 : 8, mask = (1u << bits) - 1;
    memset(used, 0, mask + 1);
    c = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned h = (unsigned)((k[i] * 0x9e3779b97f4a7c15ull) >> (64 - bits));
        while (used[h] && tab[h] != k[i]) h = (h + 1) & mask;
        if (!used[h]) used[h] = 1, tab[h] = k[i], c++;
    }
    return c;
}

/* Distinct bytes the active lanes of r touch.  Lane addresses are aligned to
 * the lane size, so two lanes' bytes either coincide or do not overlap. */
static inline unsigned uniq_requested_bytes(const coalsim_request *r)
{
    if (r->active == 0xffffffffu) return uniq_count(r->addr, COALSIM_MAX_WARP) * r->size;
    uint64_t k[COALSIM_MAX_WARP];
    unsigned n = 0;
    for (uint32_t m = r->active; m; m &= m - 1) k[n++] = r->addr[__builtin_ctz(m)];
    return uniq_count(k, n) * r->size;
}

#endif
