/* Global memory: sectors, lines and requested bytes of one warp request.
 *
 * All three are counts of distinct units (bytes, sectors, lines) that the
 * active lanes' byte ranges cover.  Walking the lanes in address order
 * counts them in one pass: a lane adds the units it covers past the ones the
 * lane before covered.  Lanes usually come in address order; when they do
 * not, their addresses are sorted first. */
#include "coalsim.h"
#include "popcount.h"

typedef struct {
    unsigned bytes, sectors, lines;
} units;

/* Log2 of a power of two (arch.c checks sector and line sizes). */
static unsigned log2u(unsigned x) { return (unsigned)__builtin_ctz(x); }

/* Count over addresses A[0..n) (non-decreasing) of SIZE-byte lanes, a run
 * of contiguous lanes at a time: a run covers the units from its first
 * byte's to its last byte's, and shares at most its first with the run
 * before. */
static units count_sorted(const uint64_t *a, unsigned n, unsigned size, unsigned ssh, unsigned lsh)
{
    units u = {0, 0, 0};
    uint64_t last_s = 0, last_l = 0;
    for (unsigned i = 0; i < n;) {
        uint64_t first = a[i], end = first + size;   /* the run's bytes [first, end) */
        for (i++; i < n && (a[i] == end || a[i] == end - size); i++)   /* contiguous, or the lane before again */
            if (a[i] == end) end += size;
        uint64_t s0 = first >> ssh, s1 = (end - 1) >> ssh, l0 = first >> lsh, l1 = (end - 1) >> lsh;
        int fresh = !u.bytes;
        u.bytes += (unsigned)(end - first);
        u.sectors += (unsigned)(s1 - s0) + (fresh || s0 != last_s);
        u.lines += (unsigned)(l1 - l0) + (fresh || l0 != last_l);
        last_s = s1, last_l = l1;
    }
    return u;
}

/* The same for lanes in any order.  Insertion sort: 32 keys at most. */
static units count_any(const uint64_t *a, unsigned n, unsigned size, unsigned ssh, unsigned lsh)
{
    uint64_t k[COALSIM_MAX_WARP];
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = a[i];
        unsigned j = i;
        for (; j > 0 && k[j - 1] > v; j--) k[j] = k[j - 1];
        k[j] = v;
    }
    return count_sorted(k, n, size, ssh, lsh);
}

/* Distinct units of SIZE bytes ... for units that are not a power of two
 * (a library caller's arch that arch.c did not check): sorted unit lists. */
static unsigned count_units_div(const uint64_t *a, unsigned n, unsigned size, unsigned unit)
{
    uint64_t k[COALSIM_MAX_WARP * 17];
    unsigned m = 0, c = 0;
    for (unsigned i = 0; i < n; i++)
        for (uint64_t u = a[i] / unit; u <= (a[i] + size - 1) / unit && m < sizeof k / sizeof k[0]; u++) {
            unsigned j = m++;
            for (; j > 0 && k[j - 1] > u; j--) k[j] = k[j - 1];
            k[j] = u;
        }
    for (unsigned i = 0; i < m; i++) c += !i || k[i] != k[i - 1];
    return c;
}

/* Units of 1 << SH bytes that N lanes of SIZE bytes at A0, A0 + D, ...
 * cover, when that has a closed form: 1 with *count, else 0. */
static int progression(uint64_t a0, uint64_t d, unsigned n, unsigned size, unsigned sh, unsigned *count)
{
    uint64_t f = a0 >> sh, w = ((a0 + size - 1) >> sh) - f + 1;     /* a lane's units */
    if (d == 0) return *count = (unsigned)w, 1;
    if (d == size) return *count = (unsigned)(((a0 + (uint64_t)n * size - 1) >> sh) - f + 1), 1;   /* contiguous */
    if (d & (((uint64_t)1 << sh) - 1)) return 0;
    uint64_t k = d >> sh;                                           /* lanes k units apart: their spans chain */
    return *count = (unsigned)(w + (n - 1) * (k < w ? k : w)), 1;
}

/* Sectors of an atomic or reduction: lanes that name the same address are
 * served one after another, so a sector is accessed as many times as the
 * most lanes on any one address in it.  Measured on the H100 (outside suite,
 * gpu/results/h100/outside/compare_count.txt): 32 lanes adding to one float
 * cost 32 sectors (jacobi: 65536 for 2048 requests), and a histogram's
 * integer atomics come within 2% of this rule (the distinct sectors are 10%
 * under). */
static unsigned atomic_sectors(const coalsim_arch *a, const coalsim_request *r)
{
    unsigned sh = (unsigned)__builtin_ctz(a->sector_bytes), n = 0, total = 0;
    uint64_t addr[COALSIM_MAX_WARP];
    for (uint32_t m = r->active; m; m &= m - 1) addr[n++] = r->addr[__builtin_ctz(m)];
    /* sort by address: equal addresses and then equal sectors are adjacent */
    for (unsigned i = 1; i < n; i++) {
        uint64_t v = addr[i];
        unsigned j = i;
        for (; j > 0 && addr[j - 1] > v; j--) addr[j] = addr[j - 1];
        addr[j] = v;
    }
    for (unsigned i = 0; i < n;) {
        uint64_t sec = addr[i] >> sh;
        unsigned most = 0;
        while (i < n && addr[i] >> sh == sec) {
            unsigned k = i;
            while (k < n && addr[k] == addr[i]) k++;
            if (k - i > most) most = k - i;
            i = k;
        }
        total += most;
    }
    return total;
}

static void counts(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    uint64_t buf[COALSIM_MAX_WARP];
    const uint64_t *addr = r->addr;
    unsigned n = 32, sorted = 1;
    if (r->active != 0xffffffffu) {             /* the active lanes' addresses, in lane order */
        n = 0;
        for (uint32_t m = r->active; m; m &= m - 1) buf[n++] = r->addr[__builtin_ctz(m)];
        addr = buf;
    }
    *out = (coalsim_result){0};
    out->active_threads = n;
    unsigned sb = a->sector_bytes, lb = a->line_bytes, size = r->size;
    if (!sb || !lb || sb & (sb - 1) || lb & (lb - 1)) {
        out->requested_bytes = count_any(addr, n, size, 0, 0).bytes;
        out->sectors = count_units_div(addr, n, size, sb ? sb : 1);
        out->lines = count_units_div(addr, n, size, lb ? lb : 1);
        out->ideal_sectors = (out->requested_bytes + sb - 1) / (sb ? sb : 1);
        return;
    }
    unsigned ssh = log2u(sb), lsh = log2u(lb);
    if (n >= 2) {
        /* lanes evenly spaced (up or down): most requests */
        uint64_t d = addr[1] - addr[0], off = 0;
        /* XOR and OR only, so the loop vectorises */
        for (unsigned i = 2; i < n; i++) off |= (addr[i] - addr[i - 1]) ^ d;
        unsigned even = off == 0;
        uint64_t a0 = addr[0];
        if (even && d >> 63) a0 = addr[n - 1], d = 0 - d;
        if (even && progression(a0, d, n, size, ssh, &out->sectors) && progression(a0, d, n, size, lsh, &out->lines)) {
            out->requested_bytes = d ? n * size : size;
            out->ideal_sectors = (out->requested_bytes + sb - 1) >> ssh;
            return;
        }
        for (unsigned i = 1; i < n; i++) sorted &= addr[i] >= addr[i - 1];
    }
    units u = sorted ? count_sorted(addr, n, size, ssh, lsh) : count_any(addr, n, size, ssh, lsh);
    out->requested_bytes = u.bytes;
    out->sectors = u.sectors;
    out->lines = u.lines;
    out->ideal_sectors = (out->requested_bytes + sb - 1) >> ssh;
}

/* cp.async.cg without its destinations: each 8-lane phase's distinct
 * sectors (ldgsts.c adds the shared pieces when it has them). */
static unsigned phase_sectors(const coalsim_arch *a, const coalsim_request *r)
{
    unsigned total = 0;
    for (unsigned lo = 0; lo < COALSIM_MAX_WARP; lo += 8) {
        coalsim_request q = *r;
        q.active = r->active & (0xffu << lo);
        if (!q.active) continue;
        coalsim_result c;
        counts(a, &q, &c);
        total += c.sectors;
    }
    return total;
}

void coalsim_gmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    counts(a, r, out);
    if (r->op == COALSIM_LDGSTS_BYPASS) out->sectors = phase_sectors(a, r);
    if ((r->op == COALSIM_ATOM || r->op == COALSIM_RED) && r->size <= a->sector_bytes) out->sectors = atomic_sectors(a, r);
}
