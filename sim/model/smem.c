/* Shared memory: wavefronts and bank conflicts of one warp request.
 *
 * A request is served in phases, groups of consecutive lanes that the banks
 * can serve together when nothing conflicts: banks * bank_width bytes'
 * worth of lanes (a full warp of 4-byte lanes on 32 x 4-byte banks, a half
 * warp of 8-byte lanes, a quarter warp of 16-byte lanes).  Within a phase,
 * lanes that touch the same bank row share it (broadcast on loads, one write
 * on stores); lanes that touch different rows of one bank take one wavefront
 * each.  The phase costs the largest number of distinct rows any bank sees.
 */
#include <string.h>

#include "coalsim.h"
#include "popcount.h"
#include "wide.h"
#include "smem_grid.h"
#include "uniq.h"

/* A 16-byte lane touches at most 4 bank words. */
#define MAXKEYS (COALSIM_MAX_WARP * 4)

typedef struct {
    unsigned ways;
    unsigned bank;
    unsigned addrs;            /* distinct addresses of its lanes when found on the way, else 0 */
} phase_cost;

static uint32_t lane_mask(unsigned lo, unsigned hi)
{
    uint64_t m = ((uint64_t)1 << hi) - ((uint64_t)1 << lo);
    return (uint32_t)m;
}

/* X / D and X % D for the D of a shared-memory geometry: a shift and a mask
 * when D is a power of two (every checked arch), a division otherwise. */
typedef struct {
    uint64_t d;
    unsigned sh;
    int pow2;
} divisor;

static divisor divisor_of(uint64_t d)
{
    return (divisor){d, (unsigned)__builtin_ctzll(d ? d : 1), d && !(d & (d - 1))};
}

static inline uint64_t dv(uint64_t x, divisor d) { return d.pow2 ? x >> d.sh : x / d.d; }
static inline uint64_t md(uint64_t x, divisor d) { return d.pow2 ? x & (d.d - 1) : x % d.d; }

/* Cost of lanes [lo, hi) of r: the most distinct rows any one bank is asked
 * for, and the lowest bank asked for that many.  Two common cases are
 * counted directly: every bank word on a bank of its own (no conflict), and
 * every one on the same bank (a column: its distinct rows).  Otherwise the
 * (bank, row) pairs go into a small hash set, so the work stays linear in
 * the lanes even when they all conflict.  Works for any 64-bit address (the
 * reader already limits shared ones to 4 GiB). */
COALSIM_WIDE static phase_cost cost(const coalsim_arch *a, const coalsim_request *r, unsigned lo, unsigned hi)
{
    divisor word = divisor_of(a->bank_mode / 8);                  /* bytes per bank step */
    divisor banks = divisor_of(a->banks);
    divisor per_row = divisor_of((uint64_t)a->banks * a->bank_width / word.d);   /* bank words a row */
    uint64_t row[MAXKEYS], seen = 0;
    unsigned char bank_of[MAXKEYS];
    unsigned n = 0, distinct = 1, one_bank = 1;
    uint32_t lanes = r->active & lane_mask(lo, hi);
    if (word.pow2 && banks.pow2 && per_row.pow2) {
        /* every checked arch: shifts and masks only; an aligned lane covers
         * size / word whole bank words (one if it is no wider than a word).
         * The banks first: with none asked for twice there is nothing more
         * to count. */
        unsigned wsh = word.sh, rsh = per_row.sh, bmask = (unsigned)banks.d - 1;
        unsigned words = r->size > word.d ? r->size >> wsh : 1;
        uint64_t first = lanes ? r->addr[__builtin_ctz(lanes)] >> wsh : 0, other = 0;
        unsigned pairs = 0;
        if (lanes == lane_mask(lo, hi) && words == 1) {
            /* every lane of the phase, one word each: no lane mask to walk */
            for (unsigned l = lo; l < hi; l++) {
                uint64_t w0 = r->addr[l] >> wsh;
                other |= w0 ^ first;
                seen |= (uint64_t)1 << ((unsigned)w0 & bmask);
            }
            pairs = hi - lo;
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) {
                uint64_t w0 = r->addr[__builtin_ctz(m)] >> wsh;
                other |= w0 ^ first;
                for (unsigned j = 0; j < words; j++) seen |= (uint64_t)1 << ((unsigned)(w0 + j) & bmask);
                pairs += words;
            }
        }
        if (!seen) return (phase_cost){0, 0, 0};
        /* every lane on the same words (a broadcast, whose words fit on
         * distinct banks), or no bank asked for twice (as many banks as
         * bank words): one row a bank */
        if (!other && words <= banks.d)   /* one address, unless lanes narrower than a word differ in it */
            return (phase_cost){1, (unsigned)__builtin_ctzll(seen), r->size >= word.d ? 1 : 0};
        if (popcount32((uint32_t)seen) + popcount32((uint32_t)(seen >> 32)) == pairs)
            return (phase_cost){1, (unsigned)__builtin_ctzll(seen), popcount32(lanes)};   /* banks apart: addresses apart */
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint64_t w0 = r->addr[__builtin_ctz(m)] >> wsh;
            for (unsigned j = 0; j < words && n < MAXKEYS; j++, n++) {
                row[n] = (w0 + j) >> rsh;
                bank_of[n] = (unsigned char)((unsigned)(w0 + j) & bmask);
            }
        }
        distinct = 0;
        one_bank = !(seen & (seen - 1));
    } else {
        for (uint32_t m = lanes; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint64_t last = dv(r->addr[l] + r->size - 1, word);
            for (uint64_t w = dv(r->addr[l], word); w <= last && n < MAXKEYS; w++, n++) {
                unsigned bank = (unsigned)md(w, banks);
                row[n] = dv(w, per_row);
                bank_of[n] = (unsigned char)bank;
                distinct &= !(seen >> bank & 1);
                one_bank &= bank == bank_of[0];
                seen |= (uint64_t)1 << bank;
            }
        }
    }
    if (!n) return (phase_cost){0, 0, 0};
    if (distinct) return (phase_cost){1, (unsigned)__builtin_ctzll(seen), 0};
    if (one_bank) return (phase_cost){uniq_count(row, n), bank_of[0], 0};
    phase_cost c = {0, 0, 0};
    uint64_t trow[2 * MAXKEYS];
    unsigned char tbank[2 * MAXKEYS], used[2 * MAXKEYS], count[64];
    unsigned size = n <= 32 ? 64 : 2 * MAXKEYS;   /* a power of two, at least twice the pairs */
    memset(used, 0, size);
    memset(count, 0, a->banks);
    for (unsigned i = 0; i < n; i++) {
        unsigned bank = bank_of[i];
        unsigned h = (unsigned)(((row[i] * 0x9e3779b97f4a7c15ull) >> 56) ^ bank) & (size - 1);
        while (used[h] && (trow[h] != row[i] || tbank[h] != bank)) h = (h + 1) & (size - 1);
        if (used[h]) continue;                                /* row already counted */
        used[h] = 1, trow[h] = row[i], tbank[h] = (unsigned char)bank;
        unsigned ways = ++count[bank];
        if (ways > c.ways || (ways == c.ways && bank < c.bank)) c.ways = ways, c.bank = bank;
    }
    return c;
}

/* True if every active lane n whose partner n^x is active has its address. */
static int paired(const coalsim_request *r, unsigned warp, unsigned x)
{
    for (unsigned l = 0; l < warp; l++) {
        unsigned p = l ^ x;
        if (p >= warp || !(r->active >> l & 1) || !(r->active >> p & 1)) continue;
        if (r->addr[l] != r->addr[p]) return 0;
    }
    return 1;
}

static unsigned lanes_per_phase(const coalsim_arch *a, const coalsim_request *r)
{
    unsigned lanes = a->banks * a->bank_width / r->size;
    /* measured on sm_90: a load whose lanes come in equal pairs returns two
     * lanes' data per bank word, so twice the lanes fit in a wavefront */
    if (a->split == COALSIM_SPLIT_HW && r->op == COALSIM_LD && r->size >= 8 &&
        (paired(r, a->warp_size, 1) || paired(r, a->warp_size, 2)))
        lanes *= 2;
    if (lanes > a->warp_size) lanes = a->warp_size;
    return lanes ? lanes : 1;
}

/* A pass of a shared float add's loop (ATOMS.CAST.SPIN, atomic_float 2):
 * 2 wavefronts of a 4-byte word, whatever its lanes (one word, 32 words,
 * 256 at random); 3 of an 8-byte one where the lanes are on one word, 4
 * else (gpu/probes/shared_cas.cu on the H100: l1tex's shared atomic
 * wavefronts a CAST 2.00-2.2; 3.0-3.2 and 3.3-4.2).
 *
 * A shared atomic that returns its old value (ATOMS.ADD, .CAS, ...): the
 * bank serves its lanes one at a time, lanes on one word too, so the cost
 * is the most active lanes any bank has (measured: gpu/probes/h100-atomics.txt;
 * 32 lanes on one word take 32 wavefronts).  A reduction (red.shared: the
 * ATOMS.POPC.INC that sums a warp's lanes on a word first) costs what a
 * store of the same lanes costs. */
static void smem_atomic(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    unsigned per_bank[64] = {0}, banks = a->banks <= 64 ? a->banks : 64;
    *out = (coalsim_result){0};
    out->active_threads = (unsigned)__builtin_popcount(r->active);
    out->requested_bytes = uniq_requested_bytes(r);
    if (!r->active) return;
    for (uint32_t m = r->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        unsigned b = (unsigned)(r->addr[l] / a->bank_width % banks);
        if (++per_bank[b] > out->max_ways) out->max_ways = per_bank[b], out->worst_bank = b;
    }
    out->phases = 1;
    out->ideal_wavefronts = 1;
    out->wavefronts = out->max_ways;
}

static void smem_cas_pass(const coalsim_request *r, coalsim_result *out)
{
    *out = (coalsim_result){0};
    out->active_threads = (unsigned)__builtin_popcount(r->active);
    out->requested_bytes = uniq_requested_bytes(r);
    if (!r->active) return;
    int one = 1;
    uint64_t a0 = r->addr[__builtin_ctz(r->active)];
    for (uint32_t m = r->active; m; m &= m - 1) one &= r->addr[__builtin_ctz(m)] == a0;
    out->phases = 1;
    out->ideal_wavefronts = r->size == 8 ? 3 : 2;
    out->wavefronts = r->size == 8 && !one ? 4 : out->ideal_wavefronts;
    out->max_ways = 1;
}

void coalsim_smem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    if (r->op == COALSIM_ATOM && r->atomic_float == 2) {
        smem_cas_pass(r, out);
        return;
    }
    if (r->op == COALSIM_ATOM && a->split != COALSIM_SPLIT_FERMI && a->bank_width == 4) {
        smem_atomic(a, r, out);
        return;
    }
    unsigned step = lanes_per_phase(a, r);
    /* CC 2.x 128-bit accesses: each half warp costs one way more than its
     * worst quarter (Programming Guide, "Compute Capability 2.x", 128-bit). */
    int fermi16 = a->split == COALSIM_SPLIT_FERMI && r->size == 16;
    unsigned group = fermi16 ? 2 * step : step;
    *out = (coalsim_result){0};

    out->active_threads = popcount32(r->active);
    unsigned addrs = 0;          /* distinct addresses, when one phase found them */
    for (unsigned lo = 0; lo < a->warp_size; lo += group) {
        unsigned hi = lo + group < a->warp_size ? lo + group : a->warp_size;
        if (!(r->active & lane_mask(lo, hi))) continue;
        phase_cost c = {0, 0, 0};
        for (unsigned q = lo; q < hi; q += step) {
            phase_cost qc = cost(a, r, q, q + step < hi ? q + step : hi);
            if (qc.ways > c.ways) c = qc;
            if (!fermi16) break;
        }
        if (fermi16) c.ways += 1;
        if (!(r->active & ~lane_mask(lo, hi)) && !fermi16) addrs = c.addrs;
        out->phases++;
        out->ideal_wavefronts++;
        out->wavefronts += c.ways;
        if (c.ways > out->max_ways) out->max_ways = c.ways, out->worst_bank = c.bank;
    }
    out->requested_bytes = addrs ? addrs * r->size : uniq_requested_bytes(r);
}

/* Which lane each bank serves in each wavefront (for pictures): rows are the
 * request's wavefronts in order, phase after phase; within a phase a bank
 * serves its distinct rows in the order lanes ask for them.  Cell = lane + 1,
 * 0 when the bank is idle, | SMEM_SHARED when several lanes share the word. */
unsigned smem_grid(const coalsim_arch *a, const coalsim_request *r, unsigned char grid[][64], unsigned maxrows)
{
    unsigned step = lanes_per_phase(a, r), word = a->bank_mode / 8, nrows = 0;
    int fermi16 = a->split == COALSIM_SPLIT_FERMI && r->size == 16;
    unsigned group = fermi16 ? 2 * step : step;
    uint64_t words_per_row = (uint64_t)a->banks * a->bank_width / word;
    for (unsigned lo = 0; lo < a->warp_size; lo += group) {
        unsigned hi = lo + group < a->warp_size ? lo + group : a->warp_size;
        if (!(r->active & lane_mask(lo, hi))) continue;
        unsigned used = 0;
        for (unsigned q = lo; q < hi; q += step) {
            unsigned qhi = q + step < hi ? q + step : hi;
            uint64_t seen[64][MAXKEYS / 2];
            unsigned nseen[64] = {0};
            for (unsigned l = q; l < qhi; l++) {
                if (!(r->active >> l & 1)) continue;
                uint64_t last = (r->addr[l] + r->size - 1) / word;
                for (uint64_t w = r->addr[l] / word; w <= last; w++) {
                    unsigned bank = (unsigned)(w % a->banks), k;
                    uint64_t rw = w / words_per_row;
                    for (k = 0; k < nseen[bank] && seen[bank][k] != rw; k++) {}
                    if (k == nseen[bank] && k < MAXKEYS / 2) seen[bank][nseen[bank]++] = rw;
                    unsigned row = nrows + k;
                    if (row >= maxrows) continue;
                    while (used <= k) {
                        memset(grid[nrows + used], 0, 64);
                        used++;
                    }
                    if (!grid[row][bank]) grid[row][bank] = (unsigned char)(l + 1);
                    else if ((grid[row][bank] & 0x3f) != l + 1) grid[row][bank] |= SMEM_SHARED;
                }
            }
            if (!fermi16) break;
        }
        if (fermi16 && nrows + used < maxrows) memset(grid[nrows + used], 0, 64), used++;  /* the extra way */
        nrows += used;
    }
    return nrows < maxrows ? nrows : maxrows;
}
