/* The memory hierarchy below the LSU, approximately: per-SM sectored L1s,
 * one sectored L2 (or, with cfg.l2_home_mask, two sides of half of it each:
 * the H100's and H200's, see coalsim_hier_cfg), DRAM fetched in FETCH-byte
 * pieces, written back 32 bytes
 * per dirty sector when a line leaves L2.  Blocks go to SMs round-robin in
 * trace order (the GPU runs many at once; this runs them one after another,
 * so it sees less cache contention than the hardware: stated, not hidden).
 * Loads allocate in L1 and L2 (volatile and strong loads only in L2); stores
 * write through L1, keeping a sector it holds, and allocate in L2 without
 * fetching.
 *
 * Laid out for speed (the rules are those of tests/hier_oracle.c): a set in
 * one block of memory, found by multiplications instead of a division and
 * asked for ahead, and a line looked up once for the sectors of it that
 * follow one another in a request. */
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "popcount.h"

/* A cache: SETS sets of WAYS ways, each set one block of memory (the ways'
 * tags, then their last uses, then the loads that filled them, then their
 * valid and dirty sector bits), so
 * that looking a line up and updating it touch neighbouring cache lines. */
typedef struct {
    uint64_t *mem;
    size_t stride;          /* uint64_t's of a set */
    unsigned sets, ways;
    __uint128_t m;          /* for line % sets (Lemire, Kaser and Kurz, "Faster remainder by direct computation") */
    int hashed;             /* the set from a hash of the line, not the line modulo the sets */
} cache;

/* The parts of the set S: tag (line + 1, 0 = empty), last use (a tick),
 * the fill's stamp (stamp_of), valid and dirty sector bits. */
#define TAG(c, s) (s)
#define LRU(c, s) ((s) + (c)->ways)
#define STAMP(c, s) ((s) + 2 * (c)->ways)
#define VALID(c, s) ((unsigned char *)((s) + 3 * (c)->ways))
#define DIRTY(c, s) (VALID(c, s) + (c)->ways)

/* Warps a SM holds (the H100's; a block has at most 32): how many blocks
 * the GPU runs at once is the SMs times this over a block's warps. */
#define SM_WARPS 64

/* DRAM pieces: where each 256-byte piece's last unit came in (a direct-
 * mapped index, exact because a piece whose entry another took is looked
 * for in the ring of the last COALSIM_PIECE_WINDOW units). */
#define PIECE_SLOTS 16384
typedef struct {
    uint64_t piece;         /* piece + 1, 0 = empty */
    uint64_t seq;           /* the unit's number among all units fetched */
    unsigned char nth;      /* its place in the piece's run, 1..4 */
} piece_seen;

struct coalsim_hier {
    coalsim_hier_cfg cfg;
    cache *l1;              /* cfg.sms of them */
    cache l2;
    /* two sides (cfg.l2_home_mask; gpu/probes/README.md's rule): l2 is side 0's partition and
     * l2b side 1's, half of L2 each; SM s reads through side side_of(s + sm_shift) */
    int sides;
    cache l2b;
    unsigned sm_shift;
    uint64_t rng;
    uint64_t tick;
    piece_seen slot[PIECE_SLOTS];
    piece_seen ring[COALSIM_PIECE_WINDOW];
    uint64_t units;         /* 64-byte units fetched so far */
    /* loads' steps: the current block, each of its warps' global loads so
     * far, and the most warps a block has had */
    uint64_t cur_block;
    uint32_t steps[SM_WARPS];
    unsigned max_warps;
    uint64_t at_once;       /* blocks the GPU runs at once: SMs x SM_WARPS / max_warps */
};

/* A line's fill: the load that filled it (its block, warp and step) and
 * where from (2 = L2, 3 = DRAM), packed; 0 = none. */
static uint64_t stamp_of(uint64_t block, unsigned warp, uint32_t step, unsigned from)
{
    return (block & ((1ull << 36) - 1)) << 28 | (uint64_t)(warp % SM_WARPS) << 22 | (uint64_t)(step % 0xFFFFF + 1) << 2 | from;
}

/* The level a hit on a line stamped ST waits for: the fill's (2 or 3) if
 * a load of another warp of a block on the GPU at the same time made it at
 * the same step (a line many warps load together: the first fetches it,
 * the others wait for it, gpu/probes/shared_miss.cu); else 0. */
static unsigned in_flight(const coalsim_hier *h, uint64_t st, uint64_t now)
{
    if (!st || ((st >> 2) & 0xFFFFF) != ((now >> 2) & 0xFFFFF) || (st >> 22) == (now >> 22)) return 0;
    uint64_t bf = st >> 28, b = now >> 28;
    return b < bf || b - bf >= h->at_once ? 0 : (unsigned)(st & 3);
}

/* The set of LINE: LINE % sets, computed exactly for any 64-bit LINE with
 * multiplications.  L2 folds the upper address bits in first, as the GPU's
 * hashed slice and set selection does: lines a power of two apart do not all
 * meet in a few sets (add_stride's warps touch 32 lines 512 KiB apart;
 * modulo the sets, 768 lines of 32 consecutive blocks shared 25 sets of 16
 * ways and missed 16 times the H100's 272 MB of DRAM reads). */
static uint64_t *set_of(const cache *c, uint64_t line)
{
    if (c->hashed) line ^= (line >> 12) ^ (line >> 24) ^ (line >> 36);
    __uint128_t low = c->m * line;
    __uint128_t bottom = ((low & UINT64_MAX) * c->sets) >> 64, top = (low >> 64) * c->sets;
    return c->mem + (size_t)((bottom + top) >> 64) * c->stride;
}

static int cache_init(cache *c, uint64_t bytes, unsigned ways)
{
    uint64_t lines = bytes / 128;
    c->ways = ways ? ways : 1;
    c->sets = (unsigned)(lines / c->ways ? lines / c->ways : 1);
    c->m = ((__uint128_t)UINT64_MAX << 64 | UINT64_MAX) / c->sets + 1;
    c->stride = 3 * (size_t)c->ways + (2 * (size_t)c->ways + 7) / 8;
    c->mem = calloc((size_t)c->sets * c->stride, sizeof *c->mem);
    return c->mem ? 0 : -1;
}

static void cache_free(cache *c) { free(c->mem); }

/* The way of set S holding LINE, or -1. */
static int lookup(const cache *c, const uint64_t *s, uint64_t line)
{
    for (unsigned i = 0; i < c->ways; i++)
        if (TAG(c, s)[i] == line + 1) return (int)i;
    return -1;
}

/* A way of set S for LINE, evicting the least recently used (the first
 * such); the victim's dirty bits go to *dirty (0 if it was empty). */
static int allocate(const cache *c, uint64_t *s, uint64_t line, unsigned *dirty)
{
    const uint64_t *lru = LRU(c, s);
    unsigned v = 0;
    for (unsigned i = 1; i < c->ways; i++)
        if (lru[i] < lru[v]) v = i;
    *dirty = TAG(c, s)[v] ? DIRTY(c, s)[v] : 0;
    TAG(c, s)[v] = line + 1;
    LRU(c, s)[v] = 0;
    STAMP(c, s)[v] = 0;
    VALID(c, s)[v] = DIRTY(c, s)[v] = 0;
    return (int)v;
}

coalsim_hier *coalsim_hier_new(const coalsim_hier_cfg *cfg)
{
    if (!cfg->sms || cfg->fetch < 32 || cfg->fetch > 128 || (cfg->fetch & (cfg->fetch - 1))) return NULL;
    coalsim_hier *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->cfg = *cfg;
    h->l1 = calloc(cfg->sms, sizeof *h->l1);
    h->sides = cfg->l2_home_mask != 0;
    h->rng = 0x853c49e6748fea9bull;
    int bad = !h->l1 || cache_init(&h->l2, h->sides ? cfg->l2_bytes / 2 : cfg->l2_bytes, cfg->l2_ways) != 0 ||
              (h->sides && cache_init(&h->l2b, cfg->l2_bytes / 2, cfg->l2_ways) != 0);
    h->l2.hashed = h->l2b.hashed = 1;
    h->cur_block = UINT64_MAX;
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
    for (unsigned i = 0; h->l1 && i < h->cfg.sms; i++) cache_free(&h->l1[i]);
    free(h->l1);
    cache_free(&h->l2);
    if (h->sides) cache_free(&h->l2b);
    free(h);
}

int coalsim_hier_inherit_l2(coalsim_hier *h, const coalsim_hier *prev)
{
    if (h->sides != prev->sides) return -1;
    for (int side = 0; side <= h->sides; side++) {
        const cache *a = side ? &prev->l2b : &prev->l2;
        cache *c = side ? &h->l2b : &h->l2;
        if (a->sets != c->sets || a->ways != c->ways || a->stride != c->stride) return -1;
        memcpy(c->mem, a->mem, (size_t)c->sets * c->stride * sizeof *c->mem);
        /* the previous launch's fills have all arrived */
        for (unsigned s = 0; s < c->sets; s++) memset(STAMP(c, c->mem + (size_t)s * c->stride), 0, c->ways * sizeof(uint64_t));
    }
    /* the GPU puts a launch's blocks on other SMs than the launch before's */
    h->sm_shift = prev->sm_shift + h->cfg.sms / 2 + 1;
    if (prev->tick > h->tick) h->tick = prev->tick;
    return 0;
}

/* The 64-byte units of a DRAM fetch of the sector SECTOR's piece: each is
 * the next of its piece if the piece's last unit came within the window
 * (the H100's and H200's DRAM serve a piece's fetches together when they
 * arrive close together, and a lone 64 bytes at 1.4 times the time a
 * stream's take: gpu/probes/dram_pages.cu). */
static void dram_units(coalsim_hier *h, uint64_t sector, coalsim_hier_counts *c)
{
    uint64_t piece = sector * 32 / COALSIM_PIECE_BYTES;
    unsigned units = h->cfg.fetch >= 64 ? h->cfg.fetch / 64 : 1;
    for (unsigned u = 0; u < units; u++) {
        uint64_t s = h->units++;
        piece_seen *e = &h->slot[(piece * 0x9E3779B97F4A7C15ull) >> 50];
        unsigned before = 0;
        if (e->piece == piece + 1) {
            if (s - e->seq <= COALSIM_PIECE_WINDOW) before = e->nth;
        } else if (e->piece && s - e->seq <= COALSIM_PIECE_WINDOW) {
            /* the entry may have been the piece's within the window */
            for (uint64_t k = 1; k <= COALSIM_PIECE_WINDOW && k <= s; k++) {
                const piece_seen *r = &h->ring[(s - k) % COALSIM_PIECE_WINDOW];
                if (r->piece == piece + 1) {
                    before = r->nth;
                    break;
                }
            }
        }
        unsigned nth = before < 4 ? before + 1 : 4;
        c->dram_piece_nth[nth - 1]++;
        *e = (piece_seen){piece + 1, s, (unsigned char)nth};
        h->ring[s % COALSIM_PIECE_WINDOW] = *e;
    }
}

/* A request's sectors in the order its lanes first touch them, with where
 * their lines live.  Lines in a row are looked up once: nothing else can
 * move a line between two sectors of it in one request. */
typedef struct {
    uint64_t sector;
    uint64_t *set1, *set2;  /* its line's set in L1 and L2 */
    int new_line;           /* the sector before was of another line */
} sector_at;

/* One 32-byte sector through L2 (its line's way there in *W2, -1 if not
 * looked up yet): a hit, or a miss fetched from DRAM.  For a load, where
 * its data comes from: 3 (DRAM, or a fetch from there it waits for), or 2
 * (L2). */
static unsigned l2_access(coalsim_hier *h, const sector_at *sa, int *w2, int store, uint64_t now, coalsim_hier_counts *c)
{
    const cache *l2 = &h->l2;
    uint64_t *s = sa->set2, line = sa->sector / 4;
    unsigned char bit = (unsigned char)(1u << (sa->sector % 4));
    int w = *w2;
    c->l2_sectors++;
    if (w < 0) {
        w = lookup(l2, s, line);
        if (w < 0) {
            unsigned dirty;
            w = allocate(l2, s, line, &dirty);
            c->dram_write += 32u * popcount32(dirty);
        }
        *w2 = w;
    }
    LRU(l2, s)[w] = ++h->tick;
    if (store) {
        VALID(l2, s)[w] |= bit;
        DIRTY(l2, s)[w] |= bit;
        return 2;
    }
    if (VALID(l2, s)[w] & bit) {
        c->l2_hits++;
        if (in_flight(h, STAMP(l2, s)[w], now) != 3) return 2;
        c->inflight_dram++;
        return 3;
    }
    STAMP(l2, s)[w] = now | 3;
    /* fetch granularity: the aligned FETCH bytes around the sector */
    unsigned per = h->cfg.fetch / 32, first = (unsigned)(sa->sector % 4) / per * per;
    for (unsigned k = first; k < first + per; k++) VALID(l2, s)[w] |= (unsigned char)(1u << k);
    c->dram_read += h->cfg.fetch;
    dram_units(h, sa->sector, c);
    return 3;
}

/* ---- two sides ---- */

/* A line's home side: the parity of its address bits of cfg.l2_home_mask within its 2 MiB page
 * (the H100's 12, 13, 16, 17 and 19; the H200's 12, 13, 15, 17 and 19: gpu/probes/l2_home.cu),
 * flipped by the page's own bit (the physical page's on the GPU; here a hash of the page). */
static unsigned home_of(const coalsim_hier *h, uint64_t line)
{
    unsigned b = (unsigned)__builtin_popcountll((line << 7) & h->cfg.l2_home_mask & 0x1fffff) & 1;
    return b ^ (unsigned)(((line >> 14) * 0x9E3779B97F4A7C15ull) >> 63);
}

/* SM S's side: half of the SMs each, in runs as the chips have them (the map is per chip:
 * gpu/probes/l2_pairs.cu found two H100s with different ones; this is one of that shape). */
static unsigned side_of(unsigned s) { return ((s >> 2) ^ (s >> 6)) & 1; }

static uint64_t next_rand(coalsim_hier *h)
{
    h->rng ^= h->rng << 13, h->rng ^= h->rng >> 7, h->rng ^= h->rng << 17;
    return h->rng;
}

/* A way of set S for LINE: an empty one, else half the time the least recently used, half a way
 * at random (the probes' eviction, gpu/probes/l2_sides_model.py). */
static int allocate_mix(coalsim_hier *h, const cache *c, uint64_t *s, uint64_t line, unsigned *dirty)
{
    for (unsigned i = 0; i < c->ways; i++)
        if (!TAG(c, s)[i]) return allocate(c, s, line, dirty);
    if (next_rand(h) >> 63) return allocate(c, s, line, dirty);
    unsigned v = (unsigned)(next_rand(h) % c->ways);
    *dirty = DIRTY(c, s)[v];
    TAG(c, s)[v] = line + 1;
    LRU(c, s)[v] = 0;
    STAMP(c, s)[v] = 0;
    VALID(c, s)[v] = DIRTY(c, s)[v] = 0;
    return (int)v;
}

/* Line LINE's way in partition C (set *SP), made if MAKE (its victim's dirty sectors written back). */
static int way_in(coalsim_hier *h, const cache *c, uint64_t line, uint64_t **sp, int make, coalsim_hier_counts *k)
{
    uint64_t *s = *sp = set_of(c, line);
    int w = lookup(c, s, line);
    if (w < 0 && make) {
        unsigned dirty;
        w = allocate_mix(h, c, s, line, &dirty);
        k->dram_write += 32u * popcount32(dirty);
    }
    return w;
}

/* One sector through two sides: SIDE's partition, then the other's (a far hit, copied to SIDE),
 * else DRAM into the line's home and a copy on SIDE; a store writes its home (dirty) and drops the
 * other side's copy of the sector.  As l2_access returns. */
static unsigned l2_access_sides(coalsim_hier *h, uint64_t sector, int store, uint64_t now, unsigned side,
                                coalsim_hier_counts *c)
{
    uint64_t line = sector / 4, *s, *t;
    unsigned char bit = (unsigned char)(1u << (sector % 4));
    unsigned home = home_of(h, line);
    cache *P[2] = {&h->l2, &h->l2b};
    c->l2_sectors++;
    if (store) {
        int w = way_in(h, P[home], line, &s, 1, c);
        LRU(P[home], s)[w] = ++h->tick;
        VALID(P[home], s)[w] |= bit;
        DIRTY(P[home], s)[w] |= bit;
        int o = way_in(h, P[1 - home], line, &t, 0, c);
        if (o >= 0) VALID(P[1 - home], t)[o] &= (unsigned char)~bit;
        return 2;
    }
    int w = way_in(h, P[side], line, &s, 0, c);
    if (w >= 0 && (VALID(P[side], s)[w] & bit)) {
        LRU(P[side], s)[w] = ++h->tick;
        c->l2_hits++;
        if (in_flight(h, STAMP(P[side], s)[w], now) != 3) return 2;
        c->inflight_dram++;
        return 3;
    }
    int o = way_in(h, P[1 - side], line, &t, 0, c);
    if (o >= 0 && (VALID(P[1 - side], t)[o] & bit)) {
        /* a far hit: served from the other side, and a copy kept on this one */
        LRU(P[1 - side], t)[o] = ++h->tick;
        c->l2_hits++;
        uint64_t st = STAMP(P[1 - side], t)[o];
        w = way_in(h, P[side], line, &s, 1, c);
        LRU(P[side], s)[w] = ++h->tick;
        VALID(P[side], s)[w] |= bit;
        if (in_flight(h, st, now) != 3) return 2;
        c->inflight_dram++;
        return 3;
    }
    /* from DRAM: into the home, and a copy on the reader's side */
    unsigned per = h->cfg.fetch / 32, first = (unsigned)(sector % 4) / per * per;
    unsigned char got = 0;
    for (unsigned k = first; k < first + per; k++) got |= (unsigned char)(1u << k);
    for (unsigned p = home;; p = side) {
        w = way_in(h, P[p], line, &s, 1, c);
        LRU(P[p], s)[w] = ++h->tick;
        VALID(P[p], s)[w] |= got;
        STAMP(P[p], s)[w] = now | 3;
        if (p == side) break;
    }
    c->dram_read += h->cfg.fetch;
    dram_units(h, sector, c);
    return 3;
}

/* The request's distinct sectors in the order its lanes first touch them. */
static unsigned sectors_of(const coalsim_request *r, sector_at *sec)
{
    unsigned n = 0;
    int rising = 1;                              /* sec[] ascending so far: a larger one is new */
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint64_t s = r->addr[l] / 32; s <= (r->addr[l] + r->size - 1) / 32; s++) {
            if (n && s == sec[n - 1].sector) continue;   /* lanes in a row share sectors */
            unsigned k = n;
            if (!rising || (n && s < sec[n - 1].sector))
                for (k = 0; k < n && sec[k].sector != s; k++) {}
            if (k < n || n == COALSIM_MAX_WARP * 2) continue;
            rising &= !n || s > sec[n - 1].sector;
            sec[n++].sector = s;
        }
    }
    return n;
}

/* Where each sector's line lives, and the memory for it asked for ahead:
 * a scattered request's lines are in sets far apart. */
static void locate(const coalsim_hier *h, const cache *l1, sector_at *sec, unsigned n)
{
    const cache *l2 = &h->l2;
    for (unsigned k = 0; k < n; k++) {
        uint64_t line = sec[k].sector / 4;
        sec[k].new_line = !k || line != sec[k - 1].sector / 4;
        if (!sec[k].new_line) {
            sec[k].set1 = sec[k - 1].set1, sec[k].set2 = sec[k - 1].set2;
            continue;
        }
        sec[k].set1 = set_of(l1, line);
        sec[k].set2 = set_of(l2, line);
        for (size_t b = 0; b < l1->stride; b += 8) __builtin_prefetch(sec[k].set1 + b, 1);
        for (size_t b = 0; b < l2->stride; b += 8) __builtin_prefetch(sec[k].set2 + b, 1);
    }
}

void coalsim_hier_request(coalsim_hier *h, const coalsim_request *r, coalsim_hier_counts *c)
{
    if (!coalsim_space_has_sectors(r->space)) return;
    const cache *l1 = &h->l1[r->block % h->cfg.sms];
    uint64_t now = 0;
    int reads = coalsim_op_reads(r->op);
    if (reads) {
        if (r->block != h->cur_block) memset(h->steps, 0, sizeof h->steps), h->cur_block = r->block;
        unsigned wi = (unsigned)(r->warp % SM_WARPS);
        if (wi + 1 > h->max_warps) {
            h->max_warps = wi + 1;
            h->at_once = (uint64_t)h->cfg.sms * (SM_WARPS / h->max_warps);
        }
        now = stamp_of(r->block, wi, h->steps[wi]++, 0);
    }
    sector_at sec[COALSIM_MAX_WARP * 2];
    unsigned n = sectors_of(r, sec);
    locate(h, l1, sec, n);
    unsigned side = side_of((unsigned)((r->block + h->sm_shift) % h->cfg.sms));
    int w = -1, w2 = -1;                         /* the line's ways in L1 and L2 (-1: absent, or not looked up) */
    int l2_only = r->op == COALSIM_LDGSTS_BYPASS || r->op == COALSIM_BULK_LD || (r->op == COALSIM_LD && r->l2_only);
    for (unsigned k = 0; k < n; k++) {
        uint64_t line = sec[k].sector / 4, *s = sec[k].set1;
        unsigned char bit = (unsigned char)(1u << (sec[k].sector % 4));
        if (sec[k].new_line) w = lookup(l1, s, line), w2 = -1;
        c->l1_sectors++;
        if (l2_only) {
            /* cp.async.cg and bulk copies (TMA): read from L2 into shared memory, and loads that must see other
             * SMs' stores (volatile, .cg, strong at gpu scope): L1 neither looked up nor filled */
            if (h->sides) (void)l2_access_sides(h, sec[k].sector, 0, now, side, c);
            else (void)l2_access(h, &sec[k], &w2, 0, now, c);
            continue;
        }
        if (!reads) {
            /* stores, and atomics (done at L2), write through.  A store leaves the sector L1 holds valid (the
             * data written into it; a store that misses allocates nothing): knn's insertion sort, whose threads
             * reload what they stored, reads L2 for 208 k of its 2.18 M load sectors on the H100.  An atomic
             * drops it */
            if (w >= 0 && r->op != COALSIM_ST) VALID(l1, s)[w] &= (unsigned char)~bit;
            if (h->sides) l2_access_sides(h, sec[k].sector, 1, now, side, c);
            else l2_access(h, &sec[k], &w2, 1, now, c);
            continue;
        }
        if (w >= 0 && (VALID(l1, s)[w] & bit)) {
            c->l1_hits++;
            LRU(l1, s)[w] = ++h->tick;
            unsigned f = in_flight(h, STAMP(l1, s)[w], now);
            if (f == 3) c->inflight_dram++;
            else if (f == 2) c->inflight_l2++;
            continue;
        }
        if (w < 0) {
            unsigned dirty;                      /* L1 lines are never dirty */
            w = allocate(l1, s, line, &dirty);
        }
        VALID(l1, s)[w] |= bit;
        LRU(l1, s)[w] = ++h->tick;
        STAMP(l1, s)[w] = now | (h->sides ? l2_access_sides(h, sec[k].sector, 0, now, side, c)
                                         : l2_access(h, &sec[k], &w2, 0, now, c));
    }
}

uint64_t coalsim_hier_dirty_bytes(const coalsim_hier *h)
{
    uint64_t d = 0;
    for (int side = 0; side <= h->sides; side++) {
        const cache *l2 = side ? &h->l2b : &h->l2;
        for (unsigned set = 0; set < l2->sets; set++) {
            const uint64_t *s = l2->mem + (size_t)set * l2->stride;
            for (unsigned k = 0; k < l2->ways; k++) d += 32u * popcount32(DIRTY(l2, s)[k]);
        }
    }
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
