/* One sentence per access that names the cause of what the model counted, in
 * words a learner reads: coalesced, misaligned, strided, broadcast, permuted,
 * scattered; conflict-free, or which bank conflicts and what would fix it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coalsim.h"

static void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* Byte stride between consecutive lanes if every active lane l sits at
 * addr[first] + (l - first) * stride; 0 if there is none (or one lane). */
static int64_t lane_stride(const coalsim_request *r, unsigned *first_out)
{
    unsigned first = 32, second = 32;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++)
        if (r->active >> l & 1) {
            if (first == 32) first = l;
            else if (second == 32) second = l;
        }
    *first_out = first;
    if (second == 32) return 0;
    int64_t d = (int64_t)(r->addr[second] - r->addr[first]);
    if (d % (int64_t)(second - first)) return 0;
    d /= (int64_t)(second - first);
    for (unsigned l = second + 1; l < COALSIM_MAX_WARP; l++)
        if (r->active >> l & 1 && r->addr[l] != r->addr[first] + (uint64_t)d * (l - first)) return 0;   /* mod 2^64, no overflow */
    return d;
}

/* The lanes, in lane order, form K >= 2 runs of the same number of lanes,
 * each run SIZE-byte steps up (the rows of a 2-D block): the lanes a run,
 * or 0. */
static unsigned run_lanes(const coalsim_request *r, unsigned n)
{
    unsigned run = 0, len = 0, prev = COALSIM_MAX_WARP;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++) {
        if (!(r->active >> l & 1)) continue;
        if (prev < COALSIM_MAX_WARP && r->addr[l] == r->addr[prev] + r->size) {
            len++;
        } else {
            if (len && run && len != run) return 0;
            if (len && !run) run = len;
            len = 1;
        }
        prev = l;
    }
    if (run && len != run) return 0;
    return run >= 2 && n / run >= 2 ? run : 0;
}

static int all_same(const coalsim_request *r)
{
    int seen = 0;
    uint64_t a = 0;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++)
        if (r->active >> l & 1) {
            if (seen && r->addr[l] != a) return 0;
            a = r->addr[l], seen = 1;
        }
    return 1;
}

static void gmem(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap)
{
    unsigned first, run, n = res->active_threads, sec = a->sector_bytes;
    const char *verb = coalsim_op_reads(r->op) ? "read" : "write";
    int64_t d = lane_stride(r, &first);
    double eff = res->sectors ? 100.0 * res->requested_bytes / ((double)res->sectors * sec) : 0;
    int atomic = r->op == COALSIM_ATOM || r->op == COALSIM_RED;
    if (atomic && n > 1 && all_same(r)) {
        say(buf, cap, "%u lanes update the same address: atomics on one address are served one after another, "
                      "%u sector accesses; combine within the warp first (a shuffle reduction), then one lane updates",
            n, res->sectors);
    } else if (atomic && res->sectors > res->ideal_sectors && res->requested_bytes < n * r->size) {
        say(buf, cap, "%u lanes, %u distinct addresses: lanes on the same address are served one after another, "
                      "%u sector accesses for %u bytes (%.1f%%)",
            n, res->requested_bytes / r->size, res->sectors, res->requested_bytes, eff);
    } else if (n > 1 && all_same(r)) {
        say(buf, cap, "broadcast: all %u lanes %s the same %u bytes; 1 sector moves %u bytes for %u used (%.1f%%)",
            n, verb, r->size, sec, r->size, eff);
    } else if (n == 1) {
        say(buf, cap, "one active lane: %u sector%s for %u bytes", res->sectors, res->sectors == 1 ? "" : "s", r->size);
    } else if (d == (int64_t)r->size || d == -(int64_t)r->size) {
        uint64_t lo = d > 0 ? r->addr[first] : r->addr[first] + (uint64_t)d * (n - 1);
        unsigned off = (unsigned)(lo % sec);
        if (res->sectors > res->ideal_sectors && off)
            say(buf, cap, "misaligned by %u bytes: %u sectors instead of %u (start the warp's data on a %u-byte boundary)",
                off, res->sectors, res->ideal_sectors, sec);
        else
            say(buf, cap, "coalesced%s: %u lanes %s %u contiguous bytes in %u sector%s", d < 0 ? " (lanes reversed)" : "",
                n, verb, res->requested_bytes, res->sectors, res->sectors == 1 ? "" : "s");
    } else if (d) {
        uint64_t ad = (d < 0 ? 0 - (uint64_t)d : (uint64_t)d);
        if (ad >= sec)
            say(buf, cap, "stride of %llu bytes between lanes: one sector per lane, %u sectors instead of %u (%.1f%%)",
                (unsigned long long)ad, res->sectors, res->ideal_sectors, eff);
        else
            say(buf, cap, "stride of %llu bytes between lanes: each sector serves %llu lanes, %u sectors instead of %u (%.1f%%)",
                (unsigned long long)ad, (unsigned long long)(sec / ad), res->sectors, res->ideal_sectors, eff);
    } else if ((run = run_lanes(r, n)) != 0) {
        unsigned bytes = run * r->size;
        if (res->sectors == res->ideal_sectors)
            say(buf, cap, "coalesced in %u runs of %u lanes (a 2-D block's rows): %u sectors, in %u lines of %u bytes", n / run,
                run, res->sectors, res->lines, a->line_bytes);
        else
            say(buf, cap, "%u runs of %u lanes (a 2-D block's rows): %u-byte runs fill sectors partly, %u sectors "
                          "instead of %u (%.1f%%; rows of a multiple of %u aligned lanes fill whole sectors)",
                n / run, run, bytes, res->sectors, res->ideal_sectors, eff, r->size < sec ? sec / r->size : 1);
    } else if (res->sectors == res->ideal_sectors) {
        say(buf, cap, "permuted but coalesced: the lanes %s %u bytes in %u sector%s, in another order", verb,
            res->requested_bytes, res->sectors, res->sectors == 1 ? "" : "s");
    } else if (res->requested_bytes < n * r->size) {
        say(buf, cap, "lanes share addresses: %u distinct bytes for %u lanes, %u sectors (ideal %u, %.1f%%)",
            res->requested_bytes, n, res->sectors, res->ideal_sectors, eff);
    } else {
        say(buf, cap, "scattered addresses: %u sectors instead of %u (%.1f%%)", res->sectors, res->ideal_sectors, eff);
    }
}

static unsigned gcd(unsigned x, unsigned y)
{
    while (y) {
        unsigned t = x % y;
        x = y, y = t;
    }
    return x;
}

static int matrix_fix(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap);

static void smem(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap)
{
    unsigned first, n = res->active_threads;
    int64_t d = lane_stride(r, &first);
    const char *phases = "";
    if (res->phases > 1 && res->ideal_wavefronts > 1)
        phases = r->op == COALSIM_LDSM || r->op == COALSIM_STSM ? " (one 8x8 matrix, 8 rows of 16 bytes, per wavefront)"
               : r->size == 8 ? " (8-byte lanes: a half warp per wavefront)" : " (16-byte lanes: a quarter warp per wavefront)";
    if (r->op == COALSIM_ATOM && r->atomic_float == 2) {
        /* a pass of ptx_lower.c's loop (ATOMS.CAST.SPIN) */
        if (n > 1 && all_same(r))
            say(buf, cap, "%u lanes add a %s to one word: ptxas makes that a compare-and-store loop (LDS, add, "
                          "ATOMS.CAST.SPIN), a pass a lane, and other warps' stores to the word make passes fail; sum "
                          "within the warp first (a shuffle reduction), then one lane adds",
                n, r->size == 8 ? "double" : "float");
        else
            say(buf, cap, "a pass of a shared float add's compare-and-store loop (LDS, add, ATOMS.CAST.SPIN): lanes on "
                          "one word, or on one bank, take a pass each, and other warps' stores make passes fail");
        return;
    }
    if (r->op == COALSIM_ATOM && res->max_ways > 1 && res->requested_bytes < n * r->size) {
        say(buf, cap, "%u lanes on bank %u: a shared atomic serves a bank's lanes one at a time, lanes on the same "
                      "word too; %s",
            res->max_ways, res->worst_bank,
            all_same(r) ? "sum within the warp first (a shuffle reduction), then one lane updates"
                        : "give the lanes different banks, or combine lanes on one word first");
        return;
    }
    if (r->op == COALSIM_RED && res->max_ways <= 1 && n > 1 && all_same(r)) {
        say(buf, cap, "%u lanes add to one word: the reduction sums them first, one pass", n);
        return;
    }
    if (res->max_ways <= 1) {
        if (n > 1 && all_same(r))
            say(buf, cap, "broadcast: one word to all %u lanes, no conflict%s", n, phases);
        else
            say(buf, cap, "conflict-free: no bank is asked for two rows at once%s", phases);
        return;
    }
    if ((r->op == COALSIM_LDSM || r->op == COALSIM_STSM) && matrix_fix(a, r, res, buf, cap)) return;
    unsigned word = a->bank_mode / 8, banks = a->banks;
    if (d && (d < 0 ? 0 - (uint64_t)d : (uint64_t)d) % word == 0 && (d < 0 ? 0 - (uint64_t)d : (uint64_t)d) > r->size) {
        unsigned w = (unsigned)((d < 0 ? 0 - (uint64_t)d : (uint64_t)d) / word);
        unsigned elem = r->size >= word ? r->size / word : 1;
        if (w % banks == 0)
            say(buf, cap, "%u-way conflict on bank %u: lanes are %u bank words apart, a multiple of %u banks, so they all "
                          "land on one bank: pad the row by one element (or XOR-swizzle the column)%s",
                res->max_ways, res->worst_bank, w, banks, phases);
        else
            say(buf, cap, "%u-way conflict on bank %u: a stride of %u bank words shares the factor %u with %u banks; "
                          "make it odd (pad the row by %u element%s)%s",
                res->max_ways, res->worst_bank, w, gcd(w, banks), banks, elem, elem == 1 ? "" : "s", phases);
        return;
    }
    say(buf, cap, "%u-way conflict on bank %u: lanes %s different rows of the same bank; pad the rows or XOR-swizzle "
                  "the column index%s",
        res->max_ways, res->worst_bank, coalsim_op_reads(r->op) ? "read" : r->op == COALSIM_ST || r->op == COALSIM_STSM ? "write" : "update", phases);
}

/* An ldmatrix/stmatrix whose rows conflict: the row pitch from lanes 0 and
 * 1, and the first of two fixes the model finds conflict-free when it runs
 * the request again with the rows moved: a pitch 16 bytes longer, or the
 * 16-byte chunk index XORed with the row's low bits (CuTe's Swizzle<B,3,S>
 * on 16-bit elements, S the row's bits).  0 if neither fixes it (or the rows
 * are not evenly pitched). */
static int matrix_fix(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap)
{
    if ((r->active & 3) != 3 || r->addr[1] <= r->addr[0]) return 0;
    uint64_t pitch = r->addr[1] - r->addr[0], base = r->addr[0];
    if (pitch % 16 || pitch > 1u << 16) return 0;
    const char *verb = r->op == COALSIM_LDSM ? "ldmatrix" : "stmatrix";
    coalsim_request q = *r;
    coalsim_result qr;
    /* each row's place as (row, chunk) of a tile of that pitch from lane 0's row */
    for (unsigned l = 0; l < 32; l++)
        if (r->active >> l & 1) {
            uint64_t off = r->addr[l] - base;
            q.addr[l] = base + off / pitch * (pitch + 16) + off % pitch;
        }
    coalsim_smem(a, &q, &qr);
    if (qr.wavefronts == qr.ideal_wavefronts && pitch < 1024) {
        say(buf, cap, "%u-way conflict on bank %u: the %s rows are %llu bytes apart; pad each row by 16 bytes (8 "
                      "halves: a pitch of %llu) and the same rows take %u wavefronts, not %u (or XOR-swizzle the "
                      "16-byte chunks: coalsim advise --ldmatrix)",
            res->max_ways, res->worst_bank, verb, (unsigned long long)pitch, (unsigned long long)pitch + 16,
            qr.wavefronts, res->wavefronts);
        return 1;
    }
    if (pitch & (pitch - 1) || pitch < 32) return 0;
    unsigned chunks = (unsigned)(pitch / 16), bits = (unsigned)__builtin_ctz(chunks < 8 ? chunks : 8);
    unsigned s = (unsigned)__builtin_ctzll(pitch / 2) - 3;        /* element offset bits above the chunk's */
    for (unsigned l = 0; l < 32; l++)
        if (r->active >> l & 1) {
            uint64_t off = r->addr[l] - base, row = off / pitch, chunk = off % pitch / 16;
            q.addr[l] = base + row * pitch + ((chunk ^ (row & ((1u << bits) - 1))) * 16) + off % 16;
        }
    coalsim_smem(a, &q, &qr);
    if (qr.wavefronts != qr.ideal_wavefronts) return 0;
    say(buf, cap, "%u-way conflict on bank %u: the %s rows are %llu bytes apart; XOR each row's 16-byte chunk index "
                  "with its row's low %u bits (CuTe Swizzle<%u,3,%u> on 16-bit elements, no extra bytes) and the same "
                  "rows take %u wavefronts, not %u",
        res->max_ways, res->worst_bank, verb, (unsigned long long)pitch, bits, bits, s, qr.wavefronts,
        res->wavefronts);
    return 1;
}

void coalsim_explain(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap)
{
    if (!cap) return;
    if (!r->active) {
        say(buf, cap, "no active lane");
        return;
    }
    if (coalsim_space_has_sectors(r->space)) gmem(a, r, res, buf, cap);
    else if (r->space == COALSIM_CONST && res->wavefronts <= 1) say(buf, cap, "one address: a broadcast from the constant cache");
    else if (r->space == COALSIM_CONST)
        say(buf, cap, "%u distinct addresses: the constant cache serves them one a pass; a constant read is fast "
                      "only when the warp's lanes read the same address",
            res->wavefronts);
    else smem(a, r, res, buf, cap);
}
