/* Sorting and counting small sets of 64-bit keys (at most a few hundred:
 * one warp request's sectors or bank rows), without allocating. */
#ifndef COALSIM_UNIQ_H
#define COALSIM_UNIQ_H

#include <stddef.h>
#include <stdint.h>

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

#endif
