/* Per-access totals: requests grouped by (label, op, space, size), kept in
 * order of first appearance, found through an open-addressing hash table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

struct coalsim_stats {
    coalsim_access *acc;   /* in order of first appearance */
    size_t n, cap;
    size_t *slot;          /* hash slots: index + 1, 0 = empty */
    size_t nslot;          /* power of two */
    size_t last;           /* index of the access hit last (+1), a fast path */
    size_t *by_id;         /* label_id -> access index + 1 (0: not seen), another */
    size_t nid;
};

static uint64_t hash(const char *label, coalsim_op op, coalsim_space sp, unsigned size)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h = (h ^ (uint64_t)(op * 4 + sp)) * 1099511628211ull;
    return (h ^ size) * 1099511628211ull;
}

static int same(const coalsim_access *a, const coalsim_request *r)
{
    return a->op == r->op && a->space == r->space && a->size == r->size &&
           strcmp(a->label, r->label) == 0;
}

coalsim_stats *coalsim_stats_new(void)
{
    coalsim_stats *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->nslot = 64;
    st->slot = calloc(st->nslot, sizeof *st->slot);
    if (!st->slot) {
        free(st);
        return NULL;
    }
    return st;
}

void coalsim_stats_free(coalsim_stats *st)
{
    if (!st) return;
    for (size_t i = 0; i < st->n; i++) free(st->acc[i].label);
    free(st->acc);
    free(st->slot);
    free(st->by_id);
    free(st);
}

static int rehash(coalsim_stats *st)
{
    size_t nslot = st->nslot * 2;
    size_t *slot = calloc(nslot, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < st->n; i++) {
        const coalsim_access *a = &st->acc[i];
        size_t h = (size_t)hash(a->label, a->op, a->space, a->size) & (nslot - 1);
        while (slot[h]) h = (h + 1) & (nslot - 1);
        slot[h] = i + 1;
    }
    free(st->slot);
    st->slot = slot;
    st->nslot = nslot;
    return 0;
}

static coalsim_access *find_by_label(coalsim_stats *st, const coalsim_request *r);

/* The access for r, created if new.  NULL if memory runs out.  A request
 * with a label_id is found by it, without comparing labels. */
static coalsim_access *find(coalsim_stats *st, const coalsim_request *r)
{
    uint32_t id = r->label_id;
    if (id && id < st->nid && st->by_id[id]) {
        coalsim_access *a = &st->acc[st->by_id[id] - 1];
        if (a->op == r->op && a->space == r->space && a->size == r->size) {
            st->last = st->by_id[id];
            return a;
        }
    }
    coalsim_access *a = find_by_label(st, r);
    if (a && id) {
        if (id >= st->nid) {
            size_t n = st->nid ? st->nid : 64;
            while (n <= id) n *= 2;
            size_t *b = realloc(st->by_id, n * sizeof *b);
            if (!b) return NULL;
            memset(b + st->nid, 0, (n - st->nid) * sizeof *b);
            st->by_id = b;
            st->nid = n;
        }
        st->by_id[id] = (size_t)(a - st->acc) + 1;
    }
    return a;
}

static coalsim_access *find_by_label(coalsim_stats *st, const coalsim_request *r)
{
    if (st->last && same(&st->acc[st->last - 1], r)) return &st->acc[st->last - 1];
    size_t h = (size_t)hash(r->label, r->op, r->space, r->size) & (st->nslot - 1);
    while (st->slot[h]) {
        if (same(&st->acc[st->slot[h] - 1], r)) {
            st->last = st->slot[h];
            return &st->acc[st->last - 1];
        }
        h = (h + 1) & (st->nslot - 1);
    }
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 16;
        coalsim_access *acc = realloc(st->acc, cap * sizeof *acc);
        if (!acc) return NULL;
        st->acc = acc;
        st->cap = cap;
    }
    coalsim_access *a = &st->acc[st->n];
    memset(a, 0, sizeof *a);
    a->label = strdup(r->label);
    if (!a->label) return NULL;
    a->op = r->op;
    a->space = r->space;
    a->size = r->size;
    a->first_line = r->line;
    st->slot[h] = ++st->n;
    st->last = st->n;
    if (st->n * 2 > st->nslot && rehash(st) != 0) {
        /* the table still works at this load, so only report the failure */
        return NULL;
    }
    return &st->acc[st->n - 1];
}

int coalsim_stats_merge(coalsim_stats *dst, const coalsim_stats *src) { return coalsim_stats_merge_at(dst, src, 0); }

int coalsim_stats_merge_at(coalsim_stats *dst, const coalsim_stats *src, unsigned long lines)
{
    for (size_t i = 0; i < src->n; i++) {
        const coalsim_access *s = &src->acc[i];
        coalsim_request key = {.op = s->op, .space = s->space, .size = s->size, .label = s->label,
                               .line = s->first_line + lines};
        coalsim_access *d = find(dst, &key);
        if (!d) return -1;
        d->requests += s->requests;
        d->active_threads += s->active_threads;
        d->requested_bytes += s->requested_bytes;
        d->sectors += s->sectors;
        d->ideal_sectors += s->ideal_sectors;
        d->lines += s->lines;
        d->wavefronts += s->wavefronts;
        d->ideal_wavefronts += s->ideal_wavefronts;
        /* strictly greater, as add does: the earlier worst bank stays on a tie */
        if (s->max_ways > d->max_ways) d->max_ways = s->max_ways, d->worst_bank = s->worst_bank;
        if (s->sample_result.active_threads > d->sample_result.active_threads) {
            d->sample = s->sample;
            d->sample.label = d->label;
            d->sample.line += lines;
            d->sample_result = s->sample_result;
        }
    }
    return 0;
}

int coalsim_stats_add(coalsim_stats *st, const coalsim_request *r, const coalsim_result *res)
{
    coalsim_access *a = find(st, r);
    if (!a) return -1;
    a->requests++;
    a->active_threads += res->active_threads;
    a->requested_bytes += res->requested_bytes;
    a->sectors += res->sectors;
    a->ideal_sectors += res->ideal_sectors;
    a->lines += res->lines;
    a->wavefronts += res->wavefronts;
    a->ideal_wavefronts += res->ideal_wavefronts;
    if (res->max_ways > a->max_ways) a->max_ways = res->max_ways, a->worst_bank = res->worst_bank;
    if (res->active_threads > a->sample_result.active_threads) {
        a->sample = *r;
        a->sample.label = a->label;
        a->sample_result = *res;
    }
    return 0;
}

/* Add D's hierarchy counts to H's. */
static void hier_add(coalsim_hier_counts *h, const coalsim_hier_counts *d)
{
    h->l1_sectors += d->l1_sectors, h->l1_hits += d->l1_hits;
    h->l2_sectors += d->l2_sectors, h->l2_hits += d->l2_hits;
    h->dram_read += d->dram_read, h->dram_write += d->dram_write;
    for (int k = 0; k < 4; k++) h->dram_piece_nth[k] += d->dram_piece_nth[k];
    h->inflight_dram += d->inflight_dram, h->inflight_l2 += d->inflight_l2;
}

void coalsim_stats_add_hier(coalsim_stats *st, const coalsim_hier_counts *d)
{
    if (st->last) hier_add(&st->acc[st->last - 1].hier, d);
}

size_t coalsim_stats_count(const coalsim_stats *st) { return st->n; }

const coalsim_access *coalsim_stats_get(const coalsim_stats *st, size_t i)
{
    return i < st->n ? &st->acc[i] : NULL;
}

double coalsim_access_gmem_efficiency(const coalsim_access *ac, const coalsim_arch *a)
{
    if (!ac->sectors) return 0.0;
    return (double)ac->requested_bytes / ((double)ac->sectors * a->sector_bytes);
}

double coalsim_access_smem_efficiency(const coalsim_access *ac)
{
    if (!ac->wavefronts) return 0.0;
    return (double)ac->ideal_wavefronts / (double)ac->wavefronts;
}

const char *coalsim_op_name(coalsim_op op)
{
    static const char *const names[COALSIM_OPS] = {"ld", "st", "atom", "red", "ldsm", "stsm", "ldgsts", "ldgsts_cg",
                                                   "bulk_ld", "bulk_st"};
    return (unsigned)op < COALSIM_OPS ? names[op] : "?";
}

int coalsim_op_reads(coalsim_op op)
{
    return op == COALSIM_LD || op == COALSIM_LDSM || op == COALSIM_LDGSTS || op == COALSIM_LDGSTS_BYPASS ||
           op == COALSIM_BULK_LD;
}

const char *coalsim_space_name(coalsim_space sp)
{
    static const char *const names[COALSIM_SPACES] = {"global", "shared", "local", "const"};
    return (unsigned)sp < COALSIM_SPACES ? names[sp] : "?";
}

int coalsim_space_has_sectors(coalsim_space sp) { return sp == COALSIM_GLOBAL || sp == COALSIM_LOCAL; }

void coalsim_stats_hier_total(const coalsim_stats *st, coalsim_hier_counts *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < coalsim_stats_count(st); i++) hier_add(t, &coalsim_stats_get(st, i)->hier);
}

static uint64_t times(uint64_t v, double f) { return (uint64_t)llround((double)v * f); }

void coalsim_hier_counts_scale(coalsim_hier_counts *c, double f)
{
    c->l1_sectors = times(c->l1_sectors, f), c->l1_hits = times(c->l1_hits, f);
    c->l2_sectors = times(c->l2_sectors, f), c->l2_hits = times(c->l2_hits, f);
    c->dram_read = times(c->dram_read, f), c->dram_write = times(c->dram_write, f);
    for (int k = 0; k < 4; k++) c->dram_piece_nth[k] = times(c->dram_piece_nth[k], f);
    c->inflight_dram = times(c->inflight_dram, f), c->inflight_l2 = times(c->inflight_l2, f);
}

static int is_access(const coalsim_access *a, const char *label, coalsim_op op, coalsim_space space)
{
    return a->op == op && a->space == space && (a->label == label || (a->label && label && !strcmp(a->label, label)));
}

static void scale_one(coalsim_access *a, double f)
{
    a->requests = times(a->requests, f);
    a->active_threads = times(a->active_threads, f);
    a->requested_bytes = times(a->requested_bytes, f);
    a->sectors = times(a->sectors, f), a->ideal_sectors = times(a->ideal_sectors, f);
    a->lines = times(a->lines, f);
    a->wavefronts = times(a->wavefronts, f), a->ideal_wavefronts = times(a->ideal_wavefronts, f);
    coalsim_hier_counts_scale(&a->hier, f);
}

void coalsim_stats_scale(coalsim_stats *st, double f)
{
    for (size_t i = 0; i < st->n; i++) scale_one(&st->acc[i], f);
}

static uint64_t requests_of(const coalsim_stats *st, const char *label, coalsim_op op, coalsim_space space)
{
    uint64_t n = 0;
    for (size_t i = 0; i < st->n; i++)
        if (is_access(&st->acc[i], label, op, space)) n += st->acc[i].requests;
    return n;
}

uint64_t coalsim_stats_add_skipped(coalsim_stats *st, const coalsim_loop_skip *k, uint64_t write_bytes)
{
    uint64_t n = requests_of(st, k->label, k->op, k->space), left = write_bytes;
    if (!n) return 0;
    double hier_f = (double)(n + k->requests) / (double)n;
    size_t last = st->n;
    int first = 1;
    for (size_t i = 0; i < st->n; i++) {
        coalsim_access *a = &st->acc[i];
        if (!is_access(a, k->label, k->op, k->space)) continue;
        uint64_t w = a->hier.dram_write, part = (uint64_t)((double)write_bytes * (double)a->requests / (double)n);
        coalsim_hier_counts_scale(&a->hier, hier_f);
        if (k->written_sectors) {
            /* stores to lines of their own: each line goes out once */
            a->hier.dram_write = w + (part < left ? part : left);
            left -= part < left ? part : left;
            last = i;
        }
        if (first) {
            a->requests += k->requests, a->active_threads += k->active_threads, a->requested_bytes += k->requested_bytes;
            a->sectors += k->sectors, a->ideal_sectors += k->ideal_sectors, a->lines += k->lines;
            a->wavefronts += k->wavefronts, a->ideal_wavefronts += k->ideal_wavefronts;
            first = 0;
        }
    }
    if (last < st->n) st->acc[last].hier.dram_write += left;
    return n;
}

uint64_t coalsim_stats_requests(const coalsim_stats *st)
{
    uint64_t n = 0;
    for (size_t i = 0; i < st->n; i++) n += st->acc[i].requests;
    return n;
}

void coalsim_stats_add_writes(coalsim_stats *st, uint64_t bytes)
{
    double all = 0;
    int by_writes = 1;
    for (size_t i = 0; i < st->n; i++) all += (double)st->acc[i].hier.dram_write;
    if (all <= 0) {                      /* none written back yet: by the sectors stores wrote */
        by_writes = 0;
        for (size_t i = 0; i < st->n; i++)
            if (!coalsim_op_reads(st->acc[i].op) && coalsim_space_has_sectors(st->acc[i].space))
                all += (double)st->acc[i].sectors;
    }
    if (all <= 0 || !bytes) return;
    uint64_t left = bytes;
    size_t last = st->n;
    for (size_t i = 0; i < st->n; i++) {
        coalsim_access *a = &st->acc[i];
        double w = by_writes ? (double)a->hier.dram_write
                             : (!coalsim_op_reads(a->op) && coalsim_space_has_sectors(a->space) ? (double)a->sectors : 0);
        if (w <= 0) continue;
        uint64_t part = (uint64_t)((double)bytes * w / all);
        if (part > left) part = left;
        a->hier.dram_write += part;
        left -= part;
        last = i;
    }
    if (last < st->n) st->acc[last].hier.dram_write += left;
}
