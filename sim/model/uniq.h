/* Sorting and counting small sets of 64-bit keys (at most a few hundred:
 * one warp request's sectors or bank rows), without allocating. */
#ifndef COALSIM_UNIQ_H
#define COALSIM_UNIQ_H

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"

/* Sort k[0..n) ascending and drop repeats; returns the count left.
 * Insertion sort: n is small and often nearly sorted (lanes in order). */
static inline size_t uniq_sort(uint64_t *k, size_t n)
{
    size_t i, j, m;
    for (i = 1; i < n; i++) {
        uint64_t v = k[i];
        for (j = i; j > 0 && k[j - 1] > v; j--) k[j] = k[j - 1];
        k[j] = v;
    }
    for (i = 0, m = 0; i < n; i++)
        if (m == 0 || k[m - 1] != k[i]) k[m++] = k[i];
    return m;
}

/* Distinct bytes the active lanes of r touch.  Lane addresses are aligned to
 * the lane size, so two lanes' bytes either coincide or do not overlap. */
static inline unsigned uniq_requested_bytes(const coalsim_request *r)
{
    uint64_t k[COALSIM_MAX_WARP];
    size_t n = 0;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++)
        if (r->active >> l & 1) k[n++] = r->addr[l];
    return (unsigned)uniq_sort(k, n) * r->size;
}

#endif
