/* The time a kernel takes, approximately: the launch, then the largest of
 *   - DRAM and L2: all the traffic at the device's measured rates;
 *   - the L1 data pipe of the busiest SM (wavefronts at the measured rate,
 *     scattered lines that miss L1 at the scatter rates);
 *   - latency: each warp's loads, in trace order, form round trips of up to
 *     MLP independent loads (a store or the MLP-th load ends one, since a
 *     store needs what was loaded); a round trip costs the measured latency
 *     of the deepest level it reaches; a block lasts as long as its slowest
 *     warp, and round trips vary: the slowest of W warps is later than the
 *     mean by (BLOCK_TAIL(W) - 1) spreads; blocks start BLOCK_NS apart on
 *     their SM (round-robin, as in hier.c) into as many slots as the
 *     occupancy limits allow.
 * DRAM latency grows with the bandwidth in use (the profile's loaded curve):
 * the latency term is worked out for a ladder of slow-downs at once, and the
 * one consistent with the bandwidth the prediction implies is kept. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "model/exectime.h"
#include "model/keymap.h"

#define NF 14                      /* rungs of the DRAM slow-down ladder */
static const double ladder[NF] = {1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 11, 16};
#define MAX_SLOTS 32               /* blocks a SM holds at most, any preset */
#define MAX_OPEN 4096              /* blocks open at once (interleaved traces) */
#define MAX_WARPS 1024             /* warps a block tracked apart; more are folded */

typedef struct {
    double a, b;                   /* round trips so far: other levels, DRAM (unloaded) */
    double a2, b2;                 /* the sums of their squares (for the spread) */
    unsigned n;                    /* loads in the open round trip */
    int lv;                        /* its deepest level, -1 if none */
} warp;

typedef struct {
    uint64_t id;
    int used;
    warp *w;
    unsigned nw, cap;
} block;

struct coalsim_timing {
    coalsim_profile p;
    coalsim_sm_limits lim;
    unsigned sms, warp_size, mlp;
    block *tab;                    /* open blocks, linear probing on id */
    size_t tcap;
    uint64_t *fifo;                /* their ids in the order they opened */
    size_t head, count;
    double *l1_ns;                 /* per SM */
    double *slot, *start;          /* per SM and rung: slots' end, the last block's start */
    unsigned max_warps;
    uint64_t max_smem;
    unsigned resident;
    /* for the instruction terms (exectime.c) */
    double *l1_lines, *smem_wf;    /* per SM: lines of global and local requests, shared and constant wavefronts */
    double *data_cyc;              /* per SM, 3 each: the L1 data pipe's cycles at its own rates, and the
                                      scattered lines of loads and of stores that missed L1 (data_cycles) */
    uint64_t loads[COALSIM_LEVELS];   /* load requests by the deepest level they reached */
    uint64_t trips[COALSIM_LEVELS];   /* round trips by their deepest level */
    keymap hot_addr;               /* global atomics: lane operations on each address */
    keymap hot_line[2];            /* and the ns of the requests on each L2 atomic unit, one after another: those that
                                      return a value (ATOMG) and reductions (REDG) */
    uint64_t hot_max;              /* the most on one address */
    int hot_capped;                /* hot_addr was full: addresses after its first HOT_ADDR_KEYS were not counted */
    double line_max;               /* the most ns on one unit */
    uint64_t atomic_sectors;       /* global atomics' sectors */
    double bulk_sectors;           /* TMA loads' sectors (L2's at l2_tma_gbs) */
    uint64_t dirty, l2_bytes;      /* coalsim_timing_set_dirty */
};

void coalsim_timing_set_dirty(coalsim_timing *t, uint64_t dirty, uint64_t l2_bytes)
{
    t->dirty = dirty;
    t->l2_bytes = l2_bytes;
}

/* ---- the profile ---- */

static const char *const pipe_names[COALSIM_PIPES] = {"fma", "alu", "fmaheavy", "fp64", "xu", "conv", "lsu", "cbu",
                                                       "tensor", "uniform"};
static const char *const lat_keys[COALSIM_LATS] = {"ffma", "iadd", "imad", "dfma", "ex2", "hfma2", "cvt", "shfl",
                                                    "remu", "divf", "lds", "bar", "hmma"};

const char *coalsim_pipe_name(coalsim_pipe p) { return p < COALSIM_PIPES ? pipe_names[p] : "?"; }
const char *coalsim_lat_key(coalsim_lat l) { return l < COALSIM_LATS ? lat_keys[l] : "?"; }

double coalsim_lat_cycles(const coalsim_profile *p, coalsim_lat l)
{
    /* harness sm on an H200 (gpu/results/h200/sm2.txt), for a profile that
     * has no key (its integer latencies were not measured in the first run) */
    static const double dflt[COALSIM_LATS] = {
        [COALSIM_LAT_FMA] = 4, [COALSIM_LAT_ALU] = 4, [COALSIM_LAT_IMAD] = 4, [COALSIM_LAT_FP64] = 8,
        [COALSIM_LAT_MUFU] = 17, [COALSIM_LAT_HALF] = 4, [COALSIM_LAT_CONV] = 8, [COALSIM_LAT_SHFL] = 24,
        [COALSIM_LAT_IDIV] = 60, [COALSIM_LAT_FDIV] = 57, [COALSIM_LAT_SMEM] = 23, [COALSIM_LAT_BAR] = 28,
        /* gpu/probes/matrix.cu --rates on the H100: a dependent HMMA.16816 every 13.95 ns at 1980 MHz */
        [COALSIM_LAT_MMA] = 27.6,
    };
    if (l >= COALSIM_LATS) return 0;
    return p && p->lat_cycles[l] > 0 ? p->lat_cycles[l] : dflt[l];
}

/* "X:Y X:Y ..." into XS, YS (at most COALSIM_PROFILE_POINTS, X rising, both
 * positive).  0, or -1 if malformed or empty. */
static int read_pairs(const char *s, double *xs, double *ys, unsigned *n)
{
    *n = 0;
    for (;;) {
        char *end;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '\n' || *s == '\r') break;
        if (*n == COALSIM_PROFILE_POINTS) return -1;
        double x = strtod(s, &end);
        if (end == s || *end != ':' || !(x > 0)) return -1;
        s = end + 1;
        double y = strtod(s, &end);
        if (end == s || !(y > 0)) return -1;
        if (*n && x <= xs[*n - 1]) return -1;
        xs[*n] = x;
        ys[(*n)++] = y;
        s = end;
    }
    return *n ? 0 : -1;
}

int coalsim_profile_read(FILE *fp, const char *name, coalsim_profile *p, char *err, size_t cap)
{
    static const char *level[COALSIM_LEVELS] = {"smem", "l1", "l2", "dram"};
    char line[512];
    unsigned long n = 0;
    memset(p, 0, sizeof *p);
    while (fgets(line, sizeof line, fp)) {
        n++;
        char key[64], rest[400];
        if (line[0] == '#' && !strchr(line, '\n'))        /* a long comment: the rest of it too */
            for (int ch; (ch = fgetc(fp)) != EOF && ch != '\n';) continue;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, " %63[a-z0-9_] = %399[^\n]", key, rest) != 2) {
            snprintf(err, cap, "%s:%lu: expected KEY = VALUE", name, n);
            return -1;
        }
        if (!strcmp(key, "device") || !strcmp(key, "sms")) continue;
        if (!strcmp(key, "dram_loaded")) {
            if (read_pairs(rest, p->loaded_gbs, p->loaded_ns, &p->loaded_points) != 0) {
                snprintf(err, cap, "%s:%lu: dram_loaded needs GBS:NS pairs, bandwidth rising", name, n);
                return -1;
            }
            continue;
        }
        if (!strcmp(key, "block_tail")) {
            int bad = read_pairs(rest, p->tail_warps, p->tail, &p->tail_points) != 0;
            for (unsigned i = 0; !bad && i < p->tail_points; i++) bad = p->tail_warps[i] < 1 || p->tail[i] < 1;
            if (bad) {
                snprintf(err, cap, "%s:%lu: block_tail needs WARPS:FACTOR pairs, warps rising, both at least 1",
                         name, n);
                return -1;
            }
            continue;
        }
        if (!strcmp(key, "dram_piece")) {
            char *at = rest, *end;
            int bad = 0;
            for (int k = 0; k < 3 && !bad; k++) {
                p->dram_piece[k] = strtod(at, &end);
                bad = end == at || !(p->dram_piece[k] >= 1 && p->dram_piece[k] < 8);
                at = end;
            }
            while (*at == ' ' || *at == '\t' || *at == '\r') at++;
            if (bad || *at) {
                snprintf(err, cap, "%s:%lu: dram_piece needs three factors from 1 to 8 (a piece read by 1, 2, 3 of 4)",
                         name, n);
                return -1;
            }
            continue;
        }
        char *end;
        double v = strtod(rest, &end);
        if (end == rest || !(v > 0)) {
            snprintf(err, cap, "%s:%lu: %s needs a positive number", name, n, key);
            return -1;
        }
        double *dst = NULL;
        if (!strcmp(key, "dram_read_gbs")) dst = &p->dram_read_gbs;
        else if (!strcmp(key, "dram_copy_gbs")) dst = &p->dram_copy_gbs;
        else if (!strcmp(key, "l2_read_gbs")) dst = &p->l2_gbs;
        else if (!strcmp(key, "l1_read_gbs")) dst = &p->l1_gbs;
        else if (!strcmp(key, "smem_wavefronts_per_ns")) dst = &p->wavefronts_per_ns;
        else if (!strcmp(key, "launch_us")) dst = &p->launch_us;
        else if (!strcmp(key, "scatter_load_lines_per_ns")) dst = &p->scatter_load_lines_per_ns;
        else if (!strcmp(key, "scatter_store_lines_per_ns")) dst = &p->scatter_store_lines_per_ns;
        else if (!strcmp(key, "block_ns")) dst = &p->block_ns;
        else if (!strcmp(key, "sm_clock_mhz")) dst = &p->sm_clock_mhz;
        else if (!strcmp(key, "issue_per_cycle")) dst = &p->issue_per_cycle;
        else if (!strcmp(key, "smem_wavefronts_per_cycle")) dst = &p->smem_wavefronts_per_cycle;
        else if (!strcmp(key, "l1_lines_per_cycle")) dst = &p->l1_lines_per_cycle;
        else if (!strcmp(key, "atomic_same_ns")) dst = &p->atomic_same_ns;
        else if (!strcmp(key, "atomic_sector_ns")) dst = &p->atomic_sector_ns;
        else if (!strcmp(key, "atomic_int_ns")) dst = &p->atomic_int_ns;
        else if (!strcmp(key, "atomic_pass_ns")) dst = &p->atomic_pass_ns;
        else if (!strcmp(key, "atomic_pass_f64_ns")) dst = &p->atomic_pass_f64_ns;
        else if (!strcmp(key, "launch_b2b_us")) dst = &p->launch_b2b_us;
        else if (!strcmp(key, "tma_box_ns")) dst = &p->tma_box_ns;
        else if (!strcmp(key, "l2_tma_read_gbs")) dst = &p->l2_tma_gbs;
        else if (!strcmp(key, "tensor_clock_mhz")) dst = &p->tensor_clock_mhz;
        else if (!strcmp(key, "tma_round_ns")) dst = &p->tma_round_ns;
        else if (!strcmp(key, "tma_round_bytes")) dst = &p->tma_round_bytes;
        else if (!strcmp(key, "l2_bytes")) {
            p->l2_bytes = (uint64_t)v;
            continue;
        } else if (!strcmp(key, "l2_home_mask")) {
            if (v < 0 || v >= (double)(1u << 21) || v != (double)(uint64_t)v) {
                snprintf(err, cap, "%s:%lu: l2_home_mask needs address bits within a 2 MiB page (0x1 to 0x1fffff)", name, n);
                return -1;
            }
            p->l2_home_mask = (uint64_t)v;
            continue;
        }
        for (int i = 0; !dst && i < COALSIM_PIPES; i++)
            if (!strncmp(key, "pipe_", 5) && !strcmp(key + 5, pipe_names[i])) dst = &p->pipe_per_cycle[i];
        for (int i = 0; !dst && i < COALSIM_LATS; i++)
            if (!strncmp(key, "lat_", 4) && !strcmp(key + 4, lat_keys[i])) dst = &p->lat_cycles[i];
        for (int l = 0; !dst && l < COALSIM_LEVELS; l++) {
            char k1[32], k16[32];
            snprintf(k1, sizeof k1, "lat_%s_ns", level[l]);
            snprintf(k16, sizeof k16, "lat16_%s_ns", level[l]);
            if (!strcmp(key, k1)) dst = &p->lat_ns[l];
            else if (!strcmp(key, k16)) dst = &p->lat16_ns[l];
        }
        if (!dst) {
            snprintf(err, cap, "%s:%lu: unknown key '%s'", name, n, key);
            return -1;
        }
        *dst = v;
    }
    if (!p->dram_read_gbs || !p->dram_copy_gbs || !p->l2_gbs || !p->wavefronts_per_ns) {
        snprintf(err, cap, "%s: needs dram_read_gbs, dram_copy_gbs, l2_read_gbs and smem_wavefronts_per_ns", name);
        return -1;
    }
    for (int l = 0; l < COALSIM_LEVELS; l++)
        if (!p->lat_ns[l] || !p->lat16_ns[l]) {
            memset(p->lat_ns, 0, sizeof p->lat_ns);         /* all latencies or none */
            break;
        }
    return 0;
}


/* ---- the model ---- */

double timing_dram_read_us(const coalsim_profile *p, const coalsim_hier_counts *c)
{
    /* a piece read by n units costs n f(n) units of a stream's time; counted
     * unit by unit as they come, the j-th costs j f(j) - (j-1) f(j-1) */
    double f[5] = {0, 1, 1, 1, 1}, extra = 0;
    for (int k = 0; k < 3; k++)
        if (p->dram_piece[k] > 0) f[k + 1] = p->dram_piece[k];
    for (int j = 1; j <= 4; j++) extra += (double)c->dram_piece_nth[j - 1] * (j * f[j] - (j - 1) * f[j - 1] - 1);
    return ((double)c->dram_read + 64.0 * extra) / (p->dram_read_gbs * 1e3);
}

/* The profile has latencies (the reader keeps all of them or none). */
static int has_latency(const coalsim_profile *p) { return p->lat_ns[COALSIM_LV_DRAM] > 0; }

coalsim_timing *coalsim_timing_new(const coalsim_profile *profile, unsigned sms, const coalsim_sm_limits *limits,
                                   unsigned warp_size, unsigned mlp)
{
    if (!sms || !warp_size || mlp < 1 || mlp > 64 || !limits->threads || !limits->blocks) return NULL;
    coalsim_timing *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *profile;
    t->lim = *limits;
    t->sms = sms, t->warp_size = warp_size, t->mlp = mlp;
    t->tcap = 2 * MAX_OPEN;
    t->tab = calloc(t->tcap, sizeof *t->tab);
    t->fifo = calloc(MAX_OPEN, sizeof *t->fifo);
    t->l1_ns = calloc(sms, sizeof *t->l1_ns);
    t->l1_lines = calloc(sms, sizeof *t->l1_lines);
    t->smem_wf = calloc(sms, sizeof *t->smem_wf);
    t->data_cyc = calloc((size_t)sms * 3, sizeof *t->data_cyc);
    t->slot = calloc((size_t)sms * NF * MAX_SLOTS, sizeof *t->slot);
    t->start = calloc((size_t)sms * NF, sizeof *t->start);
    if (!t->tab || !t->fifo || !t->l1_ns || !t->l1_lines || !t->smem_wf || !t->data_cyc || !t->slot || !t->start) {
        coalsim_timing_free(t);
        return NULL;
    }
    for (size_t i = 0; i < (size_t)sms * NF; i++) t->start[i] = -1e300;   /* no block yet */
    return t;
}

void coalsim_timing_free(coalsim_timing *t)
{
    if (!t) return;
    for (size_t i = 0; t->tab && i < t->tcap; i++) free(t->tab[i].w);
    free(t->tab);
    free(t->fifo);
    free(t->l1_ns);
    free(t->l1_lines);
    free(t->smem_wf);
    free(t->data_cyc);
    keymap_free(&t->hot_addr);
    keymap_free(&t->hot_line[0]);
    keymap_free(&t->hot_line[1]);
    free(t->slot);
    free(t->start);
    free(t);
}

static size_t home(const coalsim_timing *t, uint64_t id)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) % t->tcap;
}

static block *find(coalsim_timing *t, uint64_t id)
{
    for (size_t i = home(t, id);; i = (i + 1) % t->tcap) {
        if (!t->tab[i].used) return NULL;
        if (t->tab[i].id == id) return &t->tab[i];
    }
}

/* Remove the entry at I, shifting later entries of its cluster back. */
static void erase(coalsim_timing *t, size_t i)
{
    t->tab[i] = (block){0};
    for (size_t j = (i + 1) % t->tcap; t->tab[j].used; j = (j + 1) % t->tcap) {
        size_t h = home(t, t->tab[j].id);
        /* J may move to I if its home is not in (I, J] cyclically */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            t->tab[i] = t->tab[j];
            t->tab[j] = (block){0};
            i = j;
        }
    }
}

/* The round trip of N loads reaching level LV, unloaded. */
static double round_trip(const coalsim_profile *p, int lv, unsigned n)
{
    return p->lat_ns[lv] + (double)(n - 1) * (p->lat16_ns[lv] - p->lat_ns[lv]) / 15.0;
}

static void close_trip(coalsim_timing *t, warp *w)
{
    const coalsim_profile *p = &t->p;
    if (!w->n) return;
    t->trips[w->lv]++;
    double ns = round_trip(p, w->lv, w->n);
    if (w->lv == COALSIM_LV_DRAM) w->b += ns, w->b2 += ns * ns;
    else w->a += ns, w->a2 += ns * ns;
    w->n = 0, w->lv = -1;
}

static unsigned resident(const coalsim_timing *t)
{
    uint64_t threads = (uint64_t)t->max_warps * t->warp_size, r = t->lim.blocks;
    if (threads && t->lim.threads / threads < r) r = t->lim.threads / threads;
    uint64_t smem = t->max_smem ? t->max_smem + 1024 : 0;
    if (smem && t->lim.smem_bytes / smem < r) r = t->lim.smem_bytes / smem;
    if (r < 1) r = 1;               /* the trace ran, so a block fitted */
    return (unsigned)(r < MAX_SLOTS ? r : MAX_SLOTS);
}

/* The slowest of W warps' round trips over the mean one: the profile's
 * points, interpolated in log2(W), 1 for one warp, the last beyond them. */
double timing_tail_factor(const coalsim_profile *p, unsigned w)
{
    unsigned n = p->tail_points;
    if (!n || w <= 1) return 1;
    double x0 = 1, y0 = 1;
    for (unsigned i = 0; i < n; i++) {
        double x1 = p->tail_warps[i], y1 = p->tail[i];
        if (w <= x1) return x1 <= x0 ? y1 : y0 + (log2(w) - log2(x0)) * (y1 - y0) / (log2(x1) - log2(x0));
        x0 = x1, y0 = y1;
    }
    return y0;
}

/* A block is done: put it on its SM on every rung of the ladder. */
static void schedule(coalsim_timing *t, block *b)
{
    if (b->nw > t->max_warps) t->max_warps = b->nw;
    unsigned r = t->resident = resident(t), sm = (unsigned)(b->id % t->sms);
    for (unsigned i = 0; i < b->nw; i++) close_trip(t, &b->w[i]);
    double tail = timing_tail_factor(&t->p, b->nw) - 1;
    for (int k = 0; k < NF; k++) {
        double len = 0, spread = 0, f = ladder[k];
        for (unsigned i = 0; i < b->nw; i++) {
            const warp *w = &b->w[i];
            double l = w->a + f * w->b, v = w->a2 + f * f * w->b2;
            if (l > len) len = l;
            if (v > spread) spread = v;
        }
        /* each round trip varies by the same fraction of its mean, apart
         * from the others: the slowest warp of W is TAIL(W) - 1 standard
         * round trips later, scaled by the root of the sum of squares */
        len += tail * sqrt(spread);
        double *slot = &t->slot[((size_t)sm * NF + k) * MAX_SLOTS], *st = &t->start[(size_t)sm * NF + k];
        unsigned m = 0;
        for (unsigned s = 1; s < r; s++)
            if (slot[s] < slot[m]) m = s;
        double at = slot[m] > *st + t->p.block_ns ? slot[m] : *st + t->p.block_ns;
        if (*st < 0) at = slot[m];  /* the first block starts with the launch */
        *st = at;
        slot[m] = at + len;
    }
    free(b->w);
    b->w = NULL;
    b->nw = b->cap = 0;
}

static void close_oldest(coalsim_timing *t)
{
    uint64_t id = t->fifo[t->head];
    t->head = (t->head + 1) % MAX_OPEN;
    t->count--;
    block *b = find(t, id);
    schedule(t, b);
    erase(t, (size_t)(b - t->tab));
}

static block *open_block(coalsim_timing *t, uint64_t id)
{
    block *b = find(t, id);
    if (b) return b;
    if (t->count == MAX_OPEN) close_oldest(t);
    size_t i = home(t, id);
    while (t->tab[i].used) i = (i + 1) % t->tcap;
    t->tab[i] = (block){.id = id, .used = 1};
    t->fifo[(t->head + t->count++) % MAX_OPEN] = id;
    return &t->tab[i];
}

/* The L1 data pipe's ns for one request on its SM. */
static double l1_cost(const coalsim_timing *t, const coalsim_request *r, const coalsim_result *res,
                      const coalsim_hier_counts *d)
{
    double wf = t->p.wavefronts_per_ns / t->sms;
    if (r->space == COALSIM_SHARED) return res->wavefronts / wf;
    if (r->space == COALSIM_CONST) return 0;      /* the constant cache, not the L1 data pipe */
    /* lines beyond the fewest the bytes need are scattered ones: a load's
     * that hit L1 cost a wavefront, the rest go at the scatter rates */
    unsigned need = (res->ideal_sectors + 3) / 4, extra = res->lines > need ? res->lines - need : 0;
    double miss = extra;
    if (coalsim_op_reads(r->op))
        miss = d->l1_sectors ? (double)extra * (double)(d->l1_sectors - d->l1_hits) / (double)d->l1_sectors : 0;
    double rate = coalsim_op_reads(r->op) ? t->p.scatter_load_lines_per_ns : t->p.scatter_store_lines_per_ns;
    rate = rate ? rate / t->sms : wf;
    return ((double)res->lines - miss) / wf + miss / rate;
}

/* The L1 data pipe's work for one request on its SM, at the SM's measured
 * rates (harness sm): shared wavefronts and lines that hit L1 at one a
 * cycle or so, into DC[0] in cycles; as l1_cost says, the scattered lines
 * of a request that miss L1 into DC[1] (a load's) or DC[2] (a store's), for
 * finish to put at the scatter rates.  Nothing without the SM's keys. */
static void data_cycles(const coalsim_timing *t, const coalsim_request *r, const coalsim_result *res,
                        const coalsim_hier_counts *d, double *dc)
{
    const coalsim_profile *p = &t->p;
    if (!p->sm_clock_mhz || !p->smem_wavefronts_per_cycle || !p->l1_lines_per_cycle) return;
    if (r->space == COALSIM_SHARED) {
        dc[0] += res->wavefronts / p->smem_wavefronts_per_cycle;
        return;
    }
    if (r->space == COALSIM_CONST) return;
    unsigned need = (res->ideal_sectors + 3) / 4, extra = res->lines > need ? res->lines - need : 0;
    double miss = extra;
    if (coalsim_op_reads(r->op))
        miss = d->l1_sectors ? (double)extra * (double)(d->l1_sectors - d->l1_hits) / (double)d->l1_sectors : 0;
    dc[0] += ((double)res->lines - miss) / p->l1_lines_per_cycle;
    dc[coalsim_op_reads(r->op) ? 1 : 2] += miss;
}

/* A SM's L1 data pipe cycles, ACTIVE SMs sending requests: the scatter
 * rates are the device's, measured with every SM scattering (the L2 and the
 * crossbar take scattered lines no faster), so the SMs that scatter share
 * them; a SM still takes no more than its own line a cycle (its L1's tag
 * stage sees every line, hit or miss).  seed_row_sum, 32 blocks on 32 of
 * the H100's 132 SMs, each request 32 lines that miss: 1064 us measured,
 * one line a cycle a SM; the whole device's rate split 132 ways said 2.3x
 * that. */
static double data_cycles_of(const coalsim_timing *t, const double *dc, unsigned active)
{
    const coalsim_profile *p = &t->p;
    double clk = p->sm_clock_mhz * 1e-3, cyc = dc[0];
    const double scatter[2] = {p->scatter_load_lines_per_ns, p->scatter_store_lines_per_ns};
    for (int i = 0; i < 2; i++) {
        double rate = scatter[i] && active ? scatter[i] / active / clk : p->l1_lines_per_cycle;
        if (rate > p->l1_lines_per_cycle) rate = p->l1_lines_per_cycle;
        if (dc[1 + i] > 0) cyc += dc[1 + i] / rate;
    }
    return cyc;
}

/* The L2's atomic units (gpu/probes/atomic_rate.cu, atomic_lines.cu,
 * atomic_wide.cu; H100 and H200 alike).  Lines that differ only in address
 * bits 7 and 9 (128 and 512 bytes apart) are served by one unit, one
 * request after another, whatever words they hit; other lines side by side
 * (two hot words 256, 384, 768 or more bytes apart take half one word's
 * time; further folds of the L2's hash, 16 lines 1 or 4 KiB apart on 8
 * units, are not modelled).  What a request costs its unit:
 *   - integers: each 32-byte sector it touches a pass (atomic_pass_ns, 0.645
 *     ns: 32 lanes on the 32 words of a line take 2.58), and each further
 *     lane on the sector's busiest word atomic_int_ns (0.73; 32 lanes on one
 *     word 23.5 ns, on 11 words of two sectors 4.45), at least
 *     atomic_int_ns (one lane: 0.78);
 *   - floats: their sectors side by side, so the busiest word's lanes at
 *     atomic_same_ns (1.76) or a pass a sector (a double's atomic_pass_f64_ns,
 *     1.18: 32 doubles on two lines take 9.45 ns), whichever is longer.
 * A unit that serves both atomics that return a value (ATOMG) and
 * reductions (REDG) takes the lesser kind's time again (atomic_agg.cu,
 * atomic_mix.cu: four 32-lane requests a warp on one line take 97 ns of
 * one kind, 137-143 ns two and two, in either order).  Counts the lanes on
 * each address too (atomic_hot_ops).  0, or -1 if memory runs out. */
#define HOT_ADDR_KEYS (1u << 22)

static int count_atomics(coalsim_timing *t, const coalsim_request *r)
{
    const coalsim_profile *p = &t->p;
    int fp = r->atomic_float || p->atomic_int_ns <= 0;
    double rate = fp ? p->atomic_same_ns : p->atomic_int_ns;
    double pass = fp && r->size == 8 && p->atomic_pass_f64_ns > 0 ? p->atomic_pass_f64_ns
                : p->atomic_pass_ns > 0                          ? p->atomic_pass_ns
                                                                 : rate;
    uint32_t left = r->active;
    while (left) {
        uint64_t unit = r->addr[__builtin_ctz(left)] >> 7 & ~(uint64_t)5;
        uint32_t mine = 0;
        for (uint32_t m = left; m; m &= m - 1)
            if ((r->addr[__builtin_ctz(m)] >> 7 & ~(uint64_t)5) == unit) mine |= 1u << __builtin_ctz(m);
        left &= ~mine;
        /* its addresses in order: runs of a word, runs of a sector */
        uint64_t a[COALSIM_MAX_WARP];
        unsigned n = 0;
        for (uint32_t m = mine; m; m &= m - 1) {
            uint64_t v = r->addr[__builtin_ctz(m)];
            unsigned k = n++;
            while (k && a[k - 1] > v) a[k] = a[k - 1], k--;
            a[k] = v;
        }
        unsigned busiest = 0, sectors = 0, extra = 0, most = 0;
        for (unsigned i = 0; i < n;) {
            unsigned j = i;
            while (j < n && a[j] == a[i]) j++;
            double c = 0;
            /* at most HOT_ADDR_KEYS addresses (128 MiB): a launch of
             * coalesced atomics touches hundreds of millions, and the
             * busiest address is a figure of the report, not of the time */
            if (t->hot_addr.n < HOT_ADDR_KEYS || keymap_has(&t->hot_addr, a[i])) {
                if (keymap_add(&t->hot_addr, a[i], j - i, &c) != 0) return -1;
            } else {
                t->hot_capped = 1;
            }
            if ((uint64_t)c > t->hot_max) t->hot_max = (uint64_t)c;
            if (j - i > busiest) busiest = j - i;
            if (!i || a[i] >> 5 != a[i - 1] >> 5) {      /* a new sector */
                if (i) extra += most - 1;
                sectors++, most = 0;
            }
            if (j - i > most) most = j - i;
            i = j;
        }
        extra += most - 1;
        double ns, sum;
        if (fp) {
            ns = busiest * rate;
            if (sectors * pass > ns) ns = sectors * pass;
        } else {
            ns = sectors * pass + extra * rate;
            if (ns < rate) ns = rate;
        }
        int red = r->op == COALSIM_RED;
        if (keymap_add(&t->hot_line[red], unit, ns, &sum) != 0) return -1;
        double other = keymap_get(&t->hot_line[!red], unit);
        sum += other + (other < sum ? other : sum);
        if (sum > t->line_max) t->line_max = sum;
    }
    return 0;
}

/* Where a global load request was served: DRAM if a sector came from
 * there or waited for a fetch from there, else L2 likewise, else L1. */
static int level_of(const coalsim_hier_counts *d)
{
    if (d->dram_read || d->inflight_dram) return COALSIM_LV_DRAM;
    return d->l1_sectors > d->l1_hits || d->inflight_l2 ? COALSIM_LV_L2 : COALSIM_LV_L1;
}

int coalsim_timing_request(coalsim_timing *t, const coalsim_request *r, const coalsim_result *res,
                           const coalsim_hier_counts *d)
{
    unsigned sm = (unsigned)(r->block % t->sms);
    /* a bulk copy (TMA) is the Tensor Memory Accelerator's: neither the L1
     * data pipe's work nor a warp's load on its path; its sectors are the
     * L2's and DRAM's (the hierarchy counted them) */
    if (r->op == COALSIM_BULK_LD) t->bulk_sectors += res->sectors;
    if (r->op == COALSIM_BULK_LD || r->op == COALSIM_BULK_ST) return 0;
    t->l1_ns[sm] += l1_cost(t, r, res, d);
    data_cycles(t, r, res, d, &t->data_cyc[(size_t)sm * 3]);
    if (coalsim_space_has_sectors(r->space)) t->l1_lines[sm] += res->lines;
    else t->smem_wf[sm] += res->wavefronts;
    if (r->space == COALSIM_GLOBAL && (r->op == COALSIM_ATOM || r->op == COALSIM_RED)) {
        t->atomic_sectors += res->sectors;
        if (count_atomics(t, r) != 0) return -1;
    }
    if (coalsim_space_has_sectors(r->space) && (coalsim_op_reads(r->op) || r->op == COALSIM_ATOM))
        t->loads[level_of(d)]++;
    if (!has_latency(&t->p)) return 0;
    block *b = open_block(t, r->block);
    unsigned wi = (unsigned)(r->warp % MAX_WARPS);
    if (wi >= b->nw) {
        if (wi >= b->cap) {                      /* room for twice the warps: a block's warps come one by one */
            unsigned cap = b->cap ? 2 * b->cap : 8;
            while (cap <= wi) cap *= 2;
            warp *w = realloc(b->w, cap * sizeof *w);
            if (!w) return -1;
            b->w = w;
            b->cap = cap;
        }
        for (unsigned i = b->nw; i <= wi; i++) b->w[i] = (warp){.lv = -1};
        b->nw = wi + 1;
    }
    if (r->space == COALSIM_SHARED)
        for (uint32_t m = r->active; m; m &= m - 1) {
            uint64_t end = r->addr[__builtin_ctz(m)] + r->size;
            if (end > t->max_smem) t->max_smem = end;
        }
    warp *w = &b->w[wi];
    if (r->space == COALSIM_CONST) return 0;      /* served on the SM, no round trip */
    if (!coalsim_op_reads(r->op) && r->op != COALSIM_ATOM) {   /* stores, reductions, stmatrix */
        close_trip(t, w);
        return 0;
    }
    int lv = COALSIM_LV_SMEM;
    if (coalsim_space_has_sectors(r->space))
        lv = level_of(d);
    if (w->n == t->mlp) close_trip(t, w);
    w->n++;
    if (lv > w->lv) w->lv = lv;
    return 0;
}

/* SM s's loads by SM_F[s] (NULL: F), its schedule by SLOT_F[s] (NULL: as
 * its loads), the launch-wide loads by F, the atomics and tensor copies by
 * F_OTHER; every block on its SM's schedule first. */
static void scale(coalsim_timing *t, const double *sm_f, const double *slot_f, double f, double f_other)
{
    while (t->count) close_oldest(t);
    for (unsigned s = 0; s < t->sms; s++) {
        double g = sm_f ? sm_f[s] : f, h = slot_f ? slot_f[s] : g;
        t->l1_ns[s] *= g, t->l1_lines[s] *= g, t->smem_wf[s] *= g;
        for (int k = 0; k < 3; k++) t->data_cyc[(size_t)s * 3 + k] *= g;
        for (int k = 0; k < NF; k++)
            for (unsigned i = 0; i < MAX_SLOTS; i++) t->slot[((size_t)s * NF + k) * MAX_SLOTS + i] *= h;
    }
    for (int l = 0; l < COALSIM_LEVELS; l++) {
        t->loads[l] = (uint64_t)llround((double)t->loads[l] * f);
        t->trips[l] = (uint64_t)llround((double)t->trips[l] * f);
    }
    t->hot_max = (uint64_t)llround((double)t->hot_max * f_other);
    t->line_max *= f_other;
    t->atomic_sectors = (uint64_t)llround((double)t->atomic_sectors * f_other);
    t->bulk_sectors *= f_other;
}

void coalsim_timing_scale_loads(coalsim_timing *t, const double *sm_f, double f) { scale(t, sm_f, NULL, f, 1); }

int coalsim_timing_scale_sample(coalsim_timing *t, const uint64_t *ran, const uint64_t *all, double f)
{
    while (t->count) close_oldest(t);         /* the resident count is the blocks' */
    double *g = malloc(2 * (size_t)t->sms * sizeof *g);
    if (!g) return -1;
    /* the loads: what the SM would have run over what it ran; its schedule:
     * the rounds of the blocks it holds at once it would have run over the
     * rounds it ran (a sample of 5 blocks on a SM that holds 8 ran in one
     * round, the launch's 32 take four) */
    unsigned r = t->resident ? t->resident : 1;
    for (unsigned s = 0; s < t->sms; s++) {
        g[s] = ran[s] ? (double)all[s] / (double)ran[s] : 0;
        g[t->sms + s] = ran[s] ? (double)((all[s] + r - 1) / r) / (double)((ran[s] + r - 1) / r) : 0;
    }
    scale(t, g, g + t->sms, f, f);
    free(g);
    return 0;
}

/* The DRAM round trip at GBS, from the loaded curve. */
double timing_loaded_ns(const coalsim_profile *p, double gbs)
{
    unsigned n = p->loaded_points;
    if (gbs <= p->loaded_gbs[0]) return p->loaded_ns[0];
    for (unsigned i = 1; i < n; i++)
        if (gbs <= p->loaded_gbs[i])
            return p->loaded_ns[i - 1] + (gbs - p->loaded_gbs[i - 1]) * (p->loaded_ns[i] - p->loaded_ns[i - 1]) /
                                             (p->loaded_gbs[i] - p->loaded_gbs[i - 1]);
    return p->loaded_ns[n - 1];
}

int coalsim_timing_finish(coalsim_timing *t, const coalsim_hier_counts *c, const coalsim_exec *exec,
                          coalsim_time *out)
{
    const coalsim_profile *p = &t->p;
    memset(out, 0, sizeof *out);
    unsigned active = 0;
    for (unsigned s = 0; s < t->sms; s++) active += t->l1_lines[s] > 0 || t->smem_wf[s] > 0;
    for (unsigned s = 0; s < t->sms; s++) {
        double dc = p->sm_clock_mhz && p->l1_lines_per_cycle ? data_cycles_of(t, &t->data_cyc[(size_t)s * 3], active) : 0;
        if (t->l1_lines[s] > out->l1_lines_sm) out->l1_lines_sm = t->l1_lines[s];
        if (t->smem_wf[s] > out->smem_wavefronts_sm) out->smem_wavefronts_sm = t->smem_wf[s];
        if (dc > out->data_cycles_sm) out->data_cycles_sm = dc;
    }
    memcpy(out->loads, t->loads, sizeof out->loads);
    out->atomic_hot_ops = t->hot_max;
    out->atomic_hot_ops_partial = t->hot_capped;
    out->atomic_line_ns = t->line_max;
    out->atomic_sectors = t->atomic_sectors;
    /* DRAM writes at the rate a copy leaves after its reads: a copy of B bytes
     * takes B/read + B/write = 2B/copy */
    double write_gbs = 1.0 / (2.0 / p->dram_copy_gbs - 1.0 / p->dram_read_gbs);
    out->dram_us = timing_dram_read_us(p, c) + (double)c->dram_write / (write_gbs * 1e3);
    /* TMA loads' sectors at the rate L2 serves them (gpu/probes/tma_bw.cu: 7.8 TB/s on the H100, where LSU
     * loads reach 6.9), the rest at l2_read_gbs */
    double bulk = p->l2_tma_gbs > 0 ? t->bulk_sectors : 0;
    if (bulk > (double)c->l2_sectors) bulk = (double)c->l2_sectors;
    out->l2_us = ((double)c->l2_sectors - bulk) * 32.0 / (p->l2_gbs * 1e3) + (bulk ? bulk * 32.0 / (p->l2_tma_gbs * 1e3) : 0);
    for (unsigned s = 0; s < t->sms; s++)
        if (t->l1_ns[s] / 1e3 > out->l1_us) out->l1_us = t->l1_ns[s] / 1e3;
    double bound = out->dram_us;
    out->bound = "DRAM";
    if (out->l2_us > bound) bound = out->l2_us, out->bound = "L2";
    if (out->l1_us > bound) bound = out->l1_us, out->bound = "L1";
    out->total_us = p->launch_us + bound;
    snprintf(out->profile, sizeof out->profile, "%s", p->default_name);
    out->launch_us = p->launch_us;
    out->mlp = t->mlp;
    if (!has_latency(p)) {
        if (exec) exectime_finish(p, &t->lim, t->sms, exec, c, t->dirty, t->l2_bytes, out);
        return 0;
    }
    out->latency_modelled = 1;
    while (t->count) close_oldest(t);
    memcpy(out->trips, t->trips, sizeof out->trips);
    out->resident_blocks = t->resident;
    out->block_warps = t->max_warps;
    out->block_tail = timing_tail_factor(p, t->max_warps);
    /* each rung's latency term and the DRAM slow-down its time implies */
    double lat[NF], g[NF];
    for (int k = 0; k < NF; k++) {
        lat[k] = 0;
        for (unsigned s = 0; s < t->sms; s++) {
            const double *slot = &t->slot[((size_t)s * NF + k) * MAX_SLOTS];
            for (unsigned i = 0; i < MAX_SLOTS; i++)
                if (slot[i] > lat[k]) lat[k] = slot[i];
        }
        lat[k] /= 1e3;
        double us = lat[k] > bound ? lat[k] : bound;
        double gbs = us > 0 ? (double)(c->dram_read + c->dram_write) / (us * 1e3) : 0;
        double f = p->loaded_points ? timing_loaded_ns(p, gbs) / p->lat16_ns[COALSIM_LV_DRAM] : 1;
        g[k] = (f < 1 ? 1 : f) - ladder[k];
    }
    /* g falls as the slow-down rises: its zero is the consistent one */
    int k = 0;
    while (k < NF && g[k] > 0) k++;
    double f, l;
    if (k == 0) f = ladder[0], l = lat[0];
    else if (k == NF) f = ladder[NF - 1], l = lat[NF - 1];
    else {
        double w = g[k - 1] / (g[k - 1] - g[k]);
        f = ladder[k - 1] + w * (ladder[k] - ladder[k - 1]);
        l = lat[k - 1] + w * (lat[k] - lat[k - 1]);
    }
    out->latency_us = l;
    out->dram_slowdown = f;
    out->dram_round_trip_ns = f * p->lat16_ns[COALSIM_LV_DRAM];
    if (l > bound) out->total_us = p->launch_us + l, out->bound = "latency";
    if (exec) exectime_finish(p, &t->lim, t->sms, exec, c, t->dirty, t->l2_bytes, out);
    return 0;
}
