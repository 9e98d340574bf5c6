/* The memory-hierarchy model as it was before its caches were laid out for
 * speed (commit 552799f's sim/model/hier.c, symbols renamed), kept as a test
 * oracle: tests/check_hier.c runs random request streams through both. */
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "hier_oracle.h"
#include "popcount.h"

/* the load that filled a line: its block, warp and step, and where from
 * (2 = L2, 3 = DRAM; 0 = no such load) */
typedef struct {
    uint64_t block;
    unsigned warp, step, from;
} fill;

typedef struct {
    uint64_t tag;           /* line address / line size, +1 (0 = empty) */
    uint64_t lru;
    unsigned char valid, dirty;     /* sector bits */
    fill by;
} way;

typedef struct {
    way *w;
    unsigned sets, ways;
} cache;

struct hier_oracle {
    coalsim_hier_cfg cfg;
    cache *l1;              /* cfg.sms of them */
    cache l2;
    uint64_t tick;
    /* every 64-byte unit fetched from DRAM: its piece and its place there */
    uint64_t *unit_piece;
    unsigned char *unit_nth;
    size_t units, cap;
    /* every load's step: its warp's global loads before it in its block */
    uint64_t block;
    unsigned steps[64], max_warps;
};

/* What a hit on a line filled by BY waits for, for a load NOW: BY's level if
 * another warp's load of the same step made it, in a block on the GPU at
 * the same time (fewer blocks before than SMs times the blocks of the most
 * warps a block has had that a SM's 64 warps hold); else 0. */
static unsigned waits_for(const hier_oracle *h, fill by, fill now)
{
    if (!by.from || by.step != now.step || (by.block == now.block && by.warp == now.warp)) return 0;
    unsigned per_sm = 64 / h->max_warps;
    if (now.block < by.block || now.block - by.block >= (uint64_t)h->cfg.sms * (per_sm ? per_sm : 1)) return 0;
    return by.from;
}

static int cache_init(cache *c, uint64_t bytes, unsigned ways)
{
    uint64_t lines = bytes / 128;
    c->ways = ways ? ways : 1;
    c->sets = (unsigned)(lines / c->ways ? lines / c->ways : 1);
    c->w = calloc((size_t)c->sets * c->ways, sizeof *c->w);
    return c->w ? 0 : -1;
}

/* The way holding LINE, or NULL. */
static way *lookup(cache *c, uint64_t line)
{
    way *set = &c->w[(line % c->sets) * c->ways];
    for (unsigned i = 0; i < c->ways; i++)
        if (set[i].tag == line + 1) return &set[i];
    return NULL;
}

/* A way for LINE, evicting the least recently used; *victim gets the evicted
 * way's contents (tag 0 if it was empty). */
static way *allocate(cache *c, uint64_t line, way *victim)
{
    way *set = &c->w[(line % c->sets) * c->ways], *v = &set[0];
    for (unsigned i = 1; i < c->ways; i++)
        if (set[i].lru < v->lru) v = &set[i];
    *victim = *v;
    memset(v, 0, sizeof *v);
    v->tag = line + 1;
    return v;
}

hier_oracle *hier_oracle_new(const coalsim_hier_cfg *cfg)
{
    if (!cfg->sms || cfg->fetch < 32 || cfg->fetch > 128 || (cfg->fetch & (cfg->fetch - 1))) return NULL;
    hier_oracle *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->cfg = *cfg;
    h->block = UINT64_MAX;
    h->l1 = calloc(cfg->sms, sizeof *h->l1);
    int bad = !h->l1 || cache_init(&h->l2, cfg->l2_bytes, cfg->l2_ways) != 0;
    for (unsigned i = 0; !bad && i < cfg->sms; i++) bad = cache_init(&h->l1[i], cfg->l1_bytes, cfg->l1_ways) != 0;
    if (bad) {
        hier_oracle_free(h);
        return NULL;
    }
    return h;
}

void hier_oracle_free(hier_oracle *h)
{
    if (!h) return;
    for (unsigned i = 0; h->l1 && i < h->cfg.sms; i++) free(h->l1[i].w);
    free(h->l1);
    free(h->l2.w);
    free(h->unit_piece);
    free(h->unit_nth);
    free(h);
}

/* The units of a fetch of SECTOR's piece, each placed by a plain look back
 * over the last COALSIM_PIECE_WINDOW units for the piece's latest. */
static void dram_units(hier_oracle *h, uint64_t sector, coalsim_hier_counts *c)
{
    uint64_t piece = sector * 32 / COALSIM_PIECE_BYTES;
    unsigned units = h->cfg.fetch >= 64 ? h->cfg.fetch / 64 : 1;
    for (unsigned u = 0; u < units; u++) {
        if (h->units == h->cap) {
            h->cap = h->cap ? 2 * h->cap : 1024;
            h->unit_piece = realloc(h->unit_piece, h->cap * sizeof *h->unit_piece);
            h->unit_nth = realloc(h->unit_nth, h->cap);
            if (!h->unit_piece || !h->unit_nth) abort();
        }
        unsigned nth = 1;
        for (size_t k = 1; k <= COALSIM_PIECE_WINDOW && k <= h->units; k++)
            if (h->unit_piece[h->units - k] == piece) {
                nth = h->unit_nth[h->units - k] < 4 ? h->unit_nth[h->units - k] + 1u : 4u;
                break;
            }
        c->dram_piece_nth[nth - 1]++;
        h->unit_piece[h->units] = piece;
        h->unit_nth[h->units++] = (unsigned char)nth;
    }
}

/* One 32-byte sector through L2: a hit, or a miss fetched from DRAM. */
static void l2_access(hier_oracle *h, uint64_t sector, int store, fill now, coalsim_hier_counts *c)
{
    uint64_t line = sector / 4;
    unsigned bit = 1u << (sector % 4);
    way *w = lookup(&h->l2, line), victim;
    c->l2_sectors++;
    if (!w) {
        w = allocate(&h->l2, line, &victim);
        if (victim.tag) c->dram_write += 32u * (unsigned)popcount32(victim.dirty);
    }
    w->lru = ++h->tick;
    if (store) {
        w->valid |= bit;
        w->dirty |= bit;
        return;
    }
    if (w->valid & bit) {
        c->l2_hits++;
        if (waits_for(h, w->by, now) == 3) c->inflight_dram++;
        return;
    }
    w->by = now;
    w->by.from = 3;
    /* fetch granularity: the aligned FETCH bytes around the sector */
    unsigned per = h->cfg.fetch / 32, first = (unsigned)(sector % 4) / per * per;
    for (unsigned s = first; s < first + per; s++) w->valid |= 1u << s;
    c->dram_read += h->cfg.fetch;
    dram_units(h, sector, c);
}

void hier_oracle_request(hier_oracle *h, const coalsim_request *r, coalsim_hier_counts *c)
{
    if (!coalsim_space_has_sectors(r->space)) return;
    cache *l1 = &h->l1[r->block % h->cfg.sms];
    fill now = {0};
    if (r->op == COALSIM_LD) {
        if (r->block != h->block) {
            memset(h->steps, 0, sizeof h->steps);
            h->block = r->block;
        }
        unsigned wi = (unsigned)(r->warp % 64);
        if (wi + 1 > h->max_warps) h->max_warps = wi + 1;
        now = (fill){r->block, wi, h->steps[wi]++, 0};
    }
    /* the request's distinct sectors, in lane order */
    uint64_t sec[COALSIM_MAX_WARP * 2];
    unsigned n = 0;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint64_t s = r->addr[l] / 32; s <= (r->addr[l] + r->size - 1) / 32; s++) {
            unsigned k;
            for (k = 0; k < n && sec[k] != s; k++) {}
            if (k == n && n < COALSIM_MAX_WARP * 2) sec[n++] = s;
        }
    }
    for (unsigned k = 0; k < n; k++) {
        uint64_t line = sec[k] / 4;
        unsigned bit = 1u << (sec[k] % 4);
        way *w = lookup(l1, line), victim;
        c->l1_sectors++;
        if (r->op != COALSIM_LD) {
            /* stores, and atomics (done at L2), write through; a store leaves a sector L1 holds valid, an atomic
             * drops it */
            if (w && r->op != COALSIM_ST) w->valid &= (unsigned char)~bit;
            l2_access(h, sec[k], 1, now, c);
            continue;
        }
        if (r->l2_only) {
            /* a volatile or strong load: L2 only */
            l2_access(h, sec[k], 0, now, c);
            continue;
        }
        if (w && (w->valid & bit)) {
            c->l1_hits++;
            w->lru = ++h->tick;
            unsigned f = waits_for(h, w->by, now);
            if (f == 3) c->inflight_dram++;
            else if (f == 2) c->inflight_l2++;
            continue;
        }
        if (!w) w = allocate(l1, line, &victim);
        w->valid |= bit;
        w->lru = ++h->tick;
        uint64_t dram = c->dram_read, flight = c->inflight_dram;
        l2_access(h, sec[k], 0, now, c);
        w->by = now;
        w->by.from = c->dram_read > dram || c->inflight_dram > flight ? 3 : 2;
    }
}

uint64_t hier_oracle_dirty_bytes(const hier_oracle *h)
{
    uint64_t d = 0;
    for (size_t i = 0; i < (size_t)h->l2.sets * h->l2.ways; i++) d += 32u * (unsigned)popcount32(h->l2.w[i].dirty);
    return d;
}
