/* The memory hierarchy below the LSU, approximately: per-SM sectored L1s,
 * one sectored L2, DRAM fetched in FETCH-byte pieces, written back 32 bytes
 * per dirty sector when a line leaves L2.  Blocks go to SMs round-robin in
 * trace order (the GPU runs many at once; this runs them one after another,
 * so it sees less cache contention than the hardware: stated, not hidden).
 * Loads allocate in L1 and L2; stores write through L1, dropping the sector
 * there, and allocate in L2 without fetching. */
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

typedef struct {
    uint64_t tag;           /* line address / line size, +1 (0 = empty) */
    uint64_t lru;
    unsigned char valid, dirty;     /* sector bits */
} way;

typedef struct {
    way *w;
    unsigned sets, ways;
    int hashed;             /* the set from a hash of the line, not the line modulo the sets */
} cache;

struct coalsim_hier {
    coalsim_hier_cfg cfg;
    cache *l1;              /* cfg.sms of them */
    cache l2;
    uint64_t tick;
};

static int cache_init(cache *c, uint64_t bytes, unsigned ways)
{
    uint64_t lines = bytes / 128;
    c->ways = ways ? ways : 1;
    c->sets = (unsigned)(lines / c->ways ? lines / c->ways : 1);
    c->w = calloc((size_t)c->sets * c->ways, sizeof *c->w);
    return c->w ? 0 : -1;
}

/* LINE's set.  L2 folds the upper address bits in, as the GPU's hashed
 * slice and set selection does: lines a power of two apart do not all meet
 * in a few sets (add_stride's warps touch 32 lines 512 KiB apart; modulo
 * the sets, 768 lines of 32 consecutive blocks shared 25 sets of 16 ways
 * and missed 16 times the H100's 272 MB of DRAM reads). */
static uint64_t set_of(const cache *c, uint64_t line)
{
    if (c->hashed) line ^= (line >> 12) ^ (line >> 24) ^ (line >> 36);
    return line % c->sets;
}

/* The way holding LINE, or NULL. */
static way *lookup(cache *c, uint64_t line)
{
    way *set = &c->w[set_of(c, line) * c->ways];
    for (unsigned i = 0; i < c->ways; i++)
        if (set[i].tag == line + 1) return &set[i];
    return NULL;
}

/* A way for LINE, evicting the least recently used; *victim gets the evicted
 * way's contents (tag 0 if it was empty). */
static way *allocate(cache *c, uint64_t line, way *victim)
{
    way *set = &c->w[set_of(c, line) * c->ways], *v = &set[0];
    for (unsigned i = 1; i < c->ways; i++)
        if (set[i].lru < v->lru) v = &set[i];
    *victim = *v;
    memset(v, 0, sizeof *v);
    v->tag = line + 1;
    return v;
}

coalsim_hier *coalsim_hier_new(const coalsim_hier_cfg *cfg)
{
    if (!cfg->sms || cfg->fetch < 32 || cfg->fetch > 128 || (cfg->fetch & (cfg->fetch - 1))) return NULL;
    coalsim_hier *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->cfg = *cfg;
    h->l1 = calloc(cfg->sms, sizeof *h->l1);
    int bad = !h->l1 || cache_init(&h->l2, cfg->l2_bytes, cfg->l2_ways) != 0;
    h->l2.hashed = 1;
    for (unsigned i = 0; !bad && i < cfg->sms; i++) bad = cache_init(&h->l1[i], cfg->l1_bytes, cfg->l1_ways) != 0;
    if (bad) {
        coalsim_hier_free(h);
        return NULL;
    }
    return h;
}

void coalsim_hier_free(coalsim_hier *h)
{
    if (!h) return;
    for (unsigned i = 0; h->l1 && i < h->cfg.sms; i++) free(h->l1[i].w);
    free(h->l1);
    free(h->l2.w);
    free(h);
}

/* One 32-byte sector through L2: a hit, or a miss fetched from DRAM. */
static void l2_access(coalsim_hier *h, uint64_t sector, int store, coalsim_hier_counts *c)
{
    uint64_t line = sector / 4;
    unsigned bit = 1u << (sector % 4);
    way *w = lookup(&h->l2, line), victim;
    c->l2_sectors++;
    if (!w) {
        w = allocate(&h->l2, line, &victim);
        if (victim.tag) c->dram_write += 32u * (unsigned)__builtin_popcount(victim.dirty);
    }
    w->lru = ++h->tick;
    if (store) {
        w->valid |= bit;
        w->dirty |= bit;
        return;
    }
    if (w->valid & bit) {
        c->l2_hits++;
        return;
    }
    /* fetch granularity: the aligned FETCH bytes around the sector */
    unsigned per = h->cfg.fetch / 32, first = (unsigned)(sector % 4) / per * per;
    for (unsigned s = first; s < first + per; s++) w->valid |= 1u << s;
    c->dram_read += h->cfg.fetch;
}

void coalsim_hier_request(coalsim_hier *h, const coalsim_request *r, coalsim_hier_counts *c)
{
    if (!coalsim_space_has_sectors(r->space)) return;
    cache *l1 = &h->l1[r->block % h->cfg.sms];
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
            /* stores, and atomics (done at L2), write through; the sector is dropped from L1, so a later load of
             * it goes to L2 (reduceGmem's L2 traffic on the H100 shows this) */
            if (w) w->valid &= (unsigned char)~bit;
            l2_access(h, sec[k], 1, c);
            continue;
        }
        if (w && (w->valid & bit)) {
            c->l1_hits++;
            w->lru = ++h->tick;
            continue;
        }
        if (!w) w = allocate(l1, line, &victim);
        w->valid |= bit;
        w->lru = ++h->tick;
        l2_access(h, sec[k], 0, c);
    }
}

uint64_t coalsim_hier_dirty_bytes(const coalsim_hier *h)
{
    uint64_t d = 0;
    for (size_t i = 0; i < (size_t)h->l2.sets * h->l2.ways; i++) d += 32u * (unsigned)__builtin_popcount(h->l2.w[i].dirty);
    return d;
}

int coalsim_hier_preset(const char *arch, coalsim_hier_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (strcmp(arch, "hopper") != 0) return -1;
    /* H100 SXM: 132 SMs; 256 KiB of L1/shared per SM, 208 KiB as L1 with the
     * default carve-out when a kernel uses little shared memory; 50 MiB L2;
     * DRAM fetch 64 bytes (cudaLimitMaxL2FetchGranularity's default). */
    cfg->sms = 132;
    cfg->l1_bytes = 208 * 1024;
    cfg->l1_ways = 4;
    cfg->l2_bytes = 50ull << 20;
    cfg->l2_ways = 16;
    cfg->fetch = 64;
    return 0;
}
