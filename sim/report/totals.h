/* Totals over the accesses of a report, shared by the report writers. */
#ifndef COALSIM_REPORT_TOTALS_H
#define COALSIM_REPORT_TOTALS_H

#include <string.h>

#include "coalsim.h"

typedef struct {
    uint64_t requests, threads, bytes, units, ideal, lines;
    unsigned max_ways, worst_bank;
} total;

/* Totals per [space][op]: units are sectors (global, local) or wavefronts. */
static inline void totals_sum(const coalsim_stats *st, total t[COALSIM_SPACES][COALSIM_OPS])
{
    memset(t, 0, sizeof(total) * COALSIM_SPACES * COALSIM_OPS);
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *a = coalsim_stats_get(st, i);
        total *x = &t[a->space][a->op];
        int sec = coalsim_space_has_sectors(a->space);
        x->requests += a->requests;
        x->threads += a->active_threads;
        x->bytes += a->requested_bytes;
        x->units += sec ? a->sectors : a->wavefronts;
        x->ideal += sec ? a->ideal_sectors : a->ideal_wavefronts;
        x->lines += a->lines;
        if (a->max_ways > x->max_ways) x->max_ways = a->max_ways, x->worst_bank = a->worst_bank;
    }
}

static inline double totals_per(uint64_t x, uint64_t n) { return n ? (double)x / (double)n : 0.0; }

/* The 128-byte lines all global and local requests touched: L1 data-pipe wavefronts. */
static inline uint64_t totals_lines(const coalsim_stats *st)
{
    uint64_t n = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++)
        if (coalsim_space_has_sectors(coalsim_stats_get(st, i)->space)) n += coalsim_stats_get(st, i)->lines;
    return n;
}

#endif
