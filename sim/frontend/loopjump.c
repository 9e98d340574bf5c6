/* What the two interpreters' loop jumps share (loopjump.h). */
#include <stdio.h>
#include <stdlib.h>

#include "loopjump.h"

void loop_count_request(uint64_t *c, const coalsim_result *res)
{
    c[LOOP_REQUESTS]++;
    c[LOOP_ACTIVE] += res->active_threads, c[LOOP_BYTES] += res->requested_bytes;
    c[LOOP_SECTORS] += res->sectors, c[LOOP_IDEAL_SECTORS] += res->ideal_sectors, c[LOOP_LINES] += res->lines;
    c[LOOP_WAVEFRONTS] += res->wavefronts, c[LOOP_IDEAL_WAVEFRONTS] += res->ideal_wavefronts;
}

uint64_t loop_mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

__int128 loop_value_of(uint64_t v, unsigned bits, int sgn)
{
    v &= loop_mask_of(bits);
    if (sgn && bits < 64 && (v >> (bits - 1) & 1)) return (__int128)v - ((__int128)1 << bits);
    if (sgn && bits == 64) return (__int128)(int64_t)v;
    return (__int128)v;
}

/* The first T >= 1 where F0 + T DF < BOUND (LOOP_FAR: none soon). */
static int64_t first_below(__int128 f0, __int128 df, __int128 bound)
{
    if (f0 + df < bound) return 1;
    if (df >= 0) return LOOP_FAR;
    __int128 t = (f0 - bound) / -df + 1;
    return t > LOOP_FAR ? LOOP_FAR : (int64_t)t;
}

static int64_t first_above(__int128 f0, __int128 df, __int128 bound) { return first_below(-f0, -df, -bound); }

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int64_t loop_flips(int cmp, unsigned bits, int sgn, __int128 a, __int128 da, __int128 b, __int128 db)
{
    __int128 lo = sgn ? -((__int128)1 << (bits - 1)) : 0, hi = sgn ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    int64_t t = min64(min64(first_below(a, da, lo), first_above(a, da, hi)), min64(first_below(b, db, lo), first_above(b, db, hi)));
    __int128 d0 = a - b, dd = da - db;
    switch (cmp) {
    case LOOP_EQ: case LOOP_NE:        /* where the difference is or stops being zero */
        if (dd == 0) return t;
        if (d0 == 0) return 1;
        if ((-d0) % dd == 0 && (-d0) / dd >= 1) return min64(t, (-d0) / dd > LOOP_FAR ? LOOP_FAR : (int64_t)((-d0) / dd));
        return t;
    case LOOP_LT: return min64(t, d0 < 0 ? first_above(d0, dd, -1) : first_below(d0, dd, 0));
    case LOOP_LE: return min64(t, d0 <= 0 ? first_above(d0, dd, 0) : first_below(d0, dd, 1));
    case LOOP_GT: return min64(t, d0 > 0 ? first_below(d0, dd, 1) : first_above(d0, dd, 0));
    default: return min64(t, d0 >= 0 ? first_below(d0, dd, 0) : first_above(d0, dd, -1));   /* ge */
    }
}

uint32_t loop_back_off(unsigned *fails)
{
    *fails += *fails < 10;
    return 1u << *fails;
}

coalsim_loop_skip loop_skip_of(const char *label, coalsim_op op, coalsim_space space, const uint64_t *sum)
{
    return (coalsim_loop_skip){.label = label, .op = op, .space = space, .requests = sum[LOOP_REQUESTS],
                               .active_threads = sum[LOOP_ACTIVE], .requested_bytes = sum[LOOP_BYTES],
                               .sectors = sum[LOOP_SECTORS], .ideal_sectors = sum[LOOP_IDEAL_SECTORS],
                               .lines = sum[LOOP_LINES], .wavefronts = sum[LOOP_WAVEFRONTS],
                               .ideal_wavefronts = sum[LOOP_IDEAL_WAVEFRONTS], .written_sectors = sum[LOOP_WRITTEN]};
}

int loop_extrapolate(coalsim_analysis *an, coalsim_sample *s, const coalsim_loop_skip *skip, size_t n,
                     const double *seen, const double *skipped, unsigned sms, char *err, size_t cap)
{
    double *g = NULL;
    if (seen && sms) {
        if (!(g = calloc(sms, sizeof *g))) {
            snprintf(err, cap, "out of memory");
            return -1;
        }
        for (unsigned m = 0; m < sms; m++) g[m] = seen[m] > 0 ? (seen[m] + skipped[m]) / seen[m] : 1;
    }
    int rc = coalsim_analysis_extrapolate_loops(an, skip, n, g, &s->loop_factor);
    free(g);
    if (rc != 0) {
        snprintf(err, cap, "%s", coalsim_analysis_error(an));
        return -1;
    }
    if (!s->sampled) {
        /* every block ran, some loops did not: a sample all the same */
        s->sampled = 1;
        s->factor = 1;
    }
    return 0;
}
