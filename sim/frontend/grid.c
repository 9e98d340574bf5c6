/* Running a grid's blocks on several threads (see grid.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grid.h"
#include "popcount.h"

#define CHUNKS_PER_THREAD 16     /* enough chunks to even out blocks of unequal cost */
#define ORDERED_CHUNK_BLOCKS 64  /* ordered: blocks a chunk holds at most (its requests wait in memory) */
#define MAX_CHUNKS (1u << 20)
#define AHEAD_PER_THREAD 8       /* ordered: chunks a worker may run ahead of the consumer */
#define MAX_KEPT ((size_t)16 << 20)   /* ordered: bytes of requests waiting, beyond which only the chunk
                                         the consumer needs next is started */
#define CHUNK_CAP ((size_t)48 << 20)   /* ordered: bytes a chunk's requests may take before its worker waits
                                         for the consumer to take them (heavy blocks: one block can make
                                         hundreds of MB of requests) */

/* A kept request: its fixed part and what the model made of it (workers
 * model, the consumer only adds up), then one address per active lane. */
typedef struct {
    const char *label;
    uint64_t block, warp;
    unsigned long line;
    uint32_t active, label_id;
    unsigned char op, space, size, atomic_float, l2_only;
    coalsim_result res;
} kept_head;

struct grid;

typedef struct {
    struct grid *g;              /* ordered: the grid, for a full buffer's handover */
    uint64_t k;                  /* its index */
    int full;                    /* ordered: its worker waits for the consumer to take BUF (under g's lock) */
    const coalsim_arch *arch;    /* ordered: the model's */
    uint64_t first, end;         /* blocks [first, end) */
    size_t range;                /* the range (sampling: window) it is part of */
    double fig[COALSIM_SAMPLE_FIGS];   /* sampling: what its blocks gave (see tally) */
    int done, rc;
    char *err;                   /* why it failed (malloc'd; NULL: out of memory) */
    coalsim_analysis *an;        /* unordered */
    unsigned char *buf;          /* ordered: kept requests */
    size_t len, cap;
} chunk;

typedef struct {
    unsigned char *buf;
    size_t cap;
} spare;

typedef struct {
    uint64_t first, end;         /* blocks [first, end) */
} range;

typedef struct grid {
    const grid_job *job;
    const coalsim_analysis_cfg *cfg;
    uint64_t pbase, ptotal;      /* progress: blocks run before these, and in all */
    int figures;                 /* sampling: chunks add up their figures (see tally) */
    chunk *chunks;
    uint64_t nchunks, next, consumed, stop_at;   /* stop_at: no chunk past it need run */
    unsigned window;
    spare *pool;                 /* ordered: buffers of replayed chunks, for the next ones */
    size_t npool;
    size_t kept;                 /* ordered: bytes in chunks done and not consumed */
    unsigned idle;               /* workers waiting for room */
    uint64_t awaited;            /* the chunk the calling thread waits for (UINT64_MAX: none) */
    pthread_mutex_t mu;
    pthread_cond_t room;         /* workers wait on it */
    pthread_cond_t ready;        /* the calling thread waits on it */
} grid;

typedef struct {
    grid *g;
    void *w;
    char err[512];
} worker_arg;

static int hand_over(chunk *c);

static int keep_modelled(void *ctx, const coalsim_request *r, const coalsim_result *res)
{
    chunk *c = ctx;
    unsigned n = popcount32(r->active);
    size_t need = sizeof(kept_head) + n * sizeof(uint64_t);
    if (c->len + need > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1 << 16;
        while (cap < c->len + need) cap *= 2;
        unsigned char *b = realloc(c->buf, cap);
        if (!b) return -1;
        c->buf = b;
        c->cap = cap;
    }
    kept_head h = {r->label, r->block, r->warp, r->line, r->active, r->label_id, (unsigned char)r->op,
                   (unsigned char)r->space, (unsigned char)r->size, r->atomic_float, r->l2_only, {0}};
    h.res = *res;
    memcpy(c->buf + c->len, &h, sizeof h);
    uint64_t *a = (uint64_t *)(void *)(c->buf + c->len + sizeof h);
    for (uint32_t m = r->active; m; m &= m - 1) *a++ = r->addr[__builtin_ctz(m)];
    c->len += need;
    return c->len > CHUNK_CAP && c->g ? hand_over(c) : 0;
}

static int keep(void *ctx, const coalsim_request *r)
{
    const chunk *c = ctx;
    coalsim_result res;
    coalsim_model(c->arch, r, &res);
    return keep_modelled(ctx, r, &res);
}

/* Sampling: a sink that adds up a window's figures on the way to IN. */
typedef struct {
    coalsim_sink in;
    const coalsim_arch *arch;
    double *fig;
    uint64_t records;            /* active lanes: a sketch's lines */
} tally;

static int tally_modelled(void *ctx, const coalsim_request *r, const coalsim_result *res)
{
    tally *t = ctx;
    t->fig[COALSIM_SF_REQUESTS] += 1;
    t->records += popcount32(r->active);
    if (coalsim_space_has_sectors(r->space)) t->fig[COALSIM_SF_SECTORS] += res->sectors;
    else if (r->space == COALSIM_SHARED) t->fig[COALSIM_SF_WAVEFRONTS] += res->wavefronts;
    return t->in.put_modelled ? t->in.put_modelled(t->in.ctx, r, res) : t->in.put(t->in.ctx, r);
}

static int tally_put(void *ctx, const coalsim_request *r)
{
    const tally *t = ctx;
    coalsim_result res;
    coalsim_model(t->arch, r, &res);
    return tally_modelled(ctx, r, &res);
}

static const char *chunk_err(const chunk *c) { return c->err ? c->err : "out of memory"; }

/* Feed chunk C's kept requests to AN, their lines LINES later (see
 * grid_job's chunk_start), adding their records to *LINES.  0, or -1 with
 * the reason in ERR. */
static int replay(chunk *c, coalsim_analysis *an, uint64_t *lines, char *err, size_t cap)
{
    size_t at = 0;
    uint64_t base = *lines;
    coalsim_request r;
    while (at < c->len) {
        kept_head h;
        memcpy(&h, c->buf + at, sizeof h);
        r.label = h.label, r.block = h.block, r.warp = h.warp, r.line = (unsigned long)(h.line + base), r.active = h.active;
        r.label_id = h.label_id;
        r.op = (coalsim_op)h.op, r.space = (coalsim_space)h.space, r.size = h.size, r.atomic_float = h.atomic_float;
        r.l2_only = h.l2_only;
        *lines += popcount32(h.active);
        const uint64_t *a = (const uint64_t *)(const void *)(c->buf + at + sizeof h);
        for (uint32_t m = r.active; m; m &= m - 1) r.addr[__builtin_ctz(m)] = *a++;
        at += sizeof h + popcount32(h.active) * sizeof(uint64_t);
        if (coalsim_analysis_put_modelled(an, &r, &h.res) != 0) {
            snprintf(err, cap, "%s", coalsim_analysis_error(an));
            return -1;
        }
    }
    return 0;
}

/* Ordered, a chunk's buffer past CHUNK_CAP: wait until the consumer, once
 * this chunk is the one it needs, has taken the requests so far.  0, or -1
 * if the run stopped (an earlier chunk failed). */
static int hand_over(chunk *c)
{
    grid *g = c->g;
    pthread_mutex_lock(&g->mu);
    c->full = 1;
    if (g->awaited == c->k) pthread_cond_signal(&g->ready);
    while (c->full && c->k <= g->stop_at) {
        g->idle++;
        pthread_cond_wait(&g->room, &g->mu);
        g->idle--;
    }
    int stopped = c->full;
    pthread_mutex_unlock(&g->mu);
    return stopped ? -1 : 0;
}

/* The figures of the iterations worker W jumped over since SKIP0 (its
 * count then), added to FIG as if run. */
static void add_skipped(const grid_job *job, void *w, const double *skip0, double *fig)
{
    if (!job->sample->skipped) return;
    double now[3] = {0, 0, 0};
    job->sample->skipped(w, now);
    fig[COALSIM_SF_REQUESTS] += now[0] - skip0[0];
    fig[COALSIM_SF_SECTORS] += now[1] - skip0[1];
    fig[COALSIM_SF_WAVEFRONTS] += now[2] - skip0[2];
}

static void run_chunk(grid *g, worker_arg *wa, chunk *c)
{
    const grid_job *job = g->job;
    coalsim_sink sink;
    if (job->ordered) {
        sink = (coalsim_sink){keep, c, keep_modelled};
    } else {
        coalsim_analysis_cfg cfg = *g->cfg;
        cfg.hier = NULL, cfg.profile = NULL, cfg.each = NULL;
        c->an = coalsim_analysis_new(&cfg);
        if (!c->an) {
            c->rc = -1;
            return;
        }
        sink = coalsim_analysis_sink(c->an);
    }
    tally t = {sink, c->arch, c->fig, 0};
    uint64_t work0 = 0;
    double skip0[3] = {0, 0, 0};
    if (g->figures) {
        sink = (coalsim_sink){tally_put, &t, tally_modelled};
        if (job->sample->work) work0 = job->sample->work(wa->w);
        if (job->sample->skipped) job->sample->skipped(wa->w, skip0);
    }
    if (job->chunk_start) job->chunk_start(wa->w, 0);
    for (uint64_t b = c->first; b < c->end; b++) {
        wa->err[0] = '\0';
        if (job->run(wa->w, b, sink, wa->err, sizeof wa->err) != 0) {
            if (!wa->err[0]) {
                const char *why = job->ordered ? "out of memory" : coalsim_analysis_error(c->an);
                snprintf(wa->err, sizeof wa->err, "%s", why && *why ? why : "out of memory");
            }
            c->err = strdup(wa->err);
            c->rc = -1;
            return;
        }
    }
    if (g->figures && job->sample->work) c->fig[COALSIM_SF_INST] = (double)(job->sample->work(wa->w) - work0);
    if (g->figures) add_skipped(job, wa->w, skip0, c->fig);
}

/* Ordered: chunk K may start: within the window, and not too many bytes
 * waiting unless it is the one the consumer needs next. */
static int room_for(const grid *g, uint64_t k)
{
    return k - g->consumed < g->window && (g->kept <= MAX_KEPT || k == g->consumed);
}

static void *worker(void *arg)
{
    worker_arg *wa = arg;
    grid *g = wa->g;
    for (;;) {
        pthread_mutex_lock(&g->mu);
        while (g->job->ordered && g->next < g->nchunks && g->next <= g->stop_at && !room_for(g, g->next)) {
            g->idle++;
            pthread_cond_wait(&g->room, &g->mu);
            g->idle--;
        }
        if (g->next >= g->nchunks || g->next > g->stop_at) {
            pthread_mutex_unlock(&g->mu);
            return NULL;
        }
        uint64_t k = g->next++;
        chunk *c = &g->chunks[k];
        if (g->npool) {                          /* memory already touched: no page faults */
            spare s = g->pool[--g->npool];
            c->buf = s.buf, c->cap = s.cap;
        }
        pthread_mutex_unlock(&g->mu);
        run_chunk(g, wa, c);
        pthread_mutex_lock(&g->mu);
        c->done = 1;
        g->kept += c->len;
        if (c->rc != 0 && k < g->stop_at) g->stop_at = k;
        if (c->rc != 0) pthread_cond_broadcast(&g->room);   /* the others may stop now */
        if (!g->job->ordered || g->awaited == k || c->rc != 0) pthread_cond_signal(&g->ready);
        pthread_mutex_unlock(&g->mu);
    }
}

/* Wait (the calling thread) for chunk K, or any news when K is
 * UINT64_MAX, for at most a fifth of a second. */
static void wait_a_while(grid *g, uint64_t k)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200000000L;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    g->awaited = k;
    pthread_cond_timedwait(&g->ready, &g->mu, &ts);
    g->awaited = UINT64_MAX;
}

static uint64_t blocks_done(const grid *g)
{
    uint64_t n = 0;
    for (uint64_t k = 0; k < g->nchunks; k++)
        if (g->chunks[k].done) n += g->chunks[k].end - g->chunks[k].first;
    return n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One thread: the blocks of the ranges straight into AN, in order; FIG[r]
 * (sampling) range r's figures. */
static int run_here(const grid_job *job, const range *rg, size_t nr, double (*fig)[COALSIM_SAMPLE_FIGS],
                    uint64_t pbase, uint64_t ptotal, uint64_t *line, coalsim_analysis *an, char *err, size_t cap)
{
    double last = now_s();
    err[0] = '\0';
    void *w = job->workers[0];
    uint64_t done = pbase, records = 0, first = line ? *line : job->line0;
    if (job->chunk_start) job->chunk_start(w, first);
    coalsim_analysis_cfg cfg;
    coalsim_analysis_cfg_of(an, &cfg);
    for (size_t k = 0; k < nr; k++) {
        tally t = {coalsim_analysis_sink(an), &cfg.arch, fig ? fig[k] : NULL, 0};
        coalsim_sink sink = fig ? (coalsim_sink){tally_put, &t, tally_modelled} : coalsim_analysis_sink(an);
        uint64_t work0 = fig && job->sample->work ? job->sample->work(w) : 0;
        double skip0[3] = {0, 0, 0};
        if (fig && job->sample->skipped) job->sample->skipped(w, skip0);
        for (uint64_t b = rg[k].first; b < rg[k].end; b++, done++) {
            if (job->run(w, b, sink, err, cap) != 0) {
                if (!err[0]) snprintf(err, cap, "%s", coalsim_analysis_error(an));
                return -1;
            }
            if (job->progress && (done & 63) == 0 && now_s() - last > 0.2) {
                job->progress(job->progress_ctx, done + 1, ptotal);
                last = now_s();
            }
        }
        if (fig && job->sample->work) fig[k][COALSIM_SF_INST] = (double)(job->sample->work(w) - work0);
        if (fig) add_skipped(job, w, skip0, fig[k]);
        records += t.records;
    }
    if (line) *line = first + records;
    if (job->progress) job->progress(job->progress_ctx, done, ptotal);
    return 0;
}

/* Ordered: feed the chunks to AN in order as they are done.  0 or -1. */
static int consume(grid *g, coalsim_analysis *an, uint64_t *lines, char *err, size_t cap)
{
    const grid_job *job = g->job;
    uint64_t done = 0;                           /* blocks replayed */
    double last = now_s();
    for (uint64_t k = 0; k < g->nchunks; k++) {
        chunk *c = &g->chunks[k];
        pthread_mutex_lock(&g->mu);
        while (!c->done && k <= g->stop_at) {
            if (c->full) {                       /* its worker waits: take what it made so far */
                /* the worker goes on in a buffer already touched (a spare):
                 * fresh memory would fault its pages in again each time */
                chunk part = {.buf = c->buf, .len = c->len, .cap = c->cap};
                c->buf = NULL, c->len = c->cap = 0;
                if (g->npool) {
                    spare sp = g->pool[--g->npool];
                    c->buf = sp.buf, c->cap = sp.cap;
                }
                c->full = 0;
                pthread_cond_broadcast(&g->room);
                pthread_mutex_unlock(&g->mu);
                int prc = replay(&part, an, lines, err, cap);
                pthread_mutex_lock(&g->mu);
                if (g->npool <= g->window) g->pool[g->npool++] = (spare){part.buf, part.cap};
                else free(part.buf);
                if (prc != 0) {
                    if (k < g->stop_at) g->stop_at = k;
                    pthread_cond_broadcast(&g->room);
                    pthread_mutex_unlock(&g->mu);
                    return -1;
                }
                continue;
            }
            wait_a_while(g, k);
            if (job->progress) job->progress(job->progress_ctx, g->pbase + blocks_done(g), g->ptotal);
        }
        pthread_mutex_unlock(&g->mu);
        if (!c->done) return -1;                 /* an earlier chunk failed */
        int rc = c->rc != 0 ? (snprintf(err, cap, "%s", chunk_err(c)), -1) : replay(c, an, lines, err, cap);
        pthread_mutex_lock(&g->mu);
        if (rc != 0 && k < g->stop_at) g->stop_at = k;
        g->kept -= c->len;
        if (rc == 0 && c->buf && g->npool <= g->window) {
            g->pool[g->npool++] = (spare){c->buf, c->cap};
            c->buf = NULL;
        }
        g->consumed = k + 1;
        /* wake the idle workers once half the window is free: fewer, larger batches of wake-ups */
        if (g->idle && (rc != 0 || g->next - g->consumed <= g->window / 2)) pthread_cond_broadcast(&g->room);
        pthread_mutex_unlock(&g->mu);
        if (rc != 0) return -1;
        done += c->end - c->first;
        if (job->progress && now_s() - last > 0.2) {
            job->progress(job->progress_ctx, g->pbase + done, g->ptotal);
            last = now_s();
        }
    }
    return 0;
}

/* Unordered: merge the chunks' analyses into AN in order, after the workers. */
static int merge_all(grid *g, coalsim_analysis *an, uint64_t *lines, char *err, size_t cap)
{
    const grid_job *job = g->job;
    for (uint64_t k = 0; k < g->nchunks; k++) {
        chunk *c = &g->chunks[k];
        if (!c->done) break;
        if (c->rc != 0) {
            snprintf(err, cap, "%s", chunk_err(c));
            return -1;
        }
        if (coalsim_analysis_merge_at(an, c->an, job->chunk_start ? (unsigned long)*lines : 0) != 0) {
            snprintf(err, cap, "%s", coalsim_analysis_error(an));
            return -1;
        }
        const coalsim_stats *st = coalsim_analysis_stats(c->an);
        for (size_t i = 0; i < coalsim_stats_count(st); i++) *lines += coalsim_stats_get(st, i)->active_threads;
    }
    return 0;
}

/* The chunks a range of LEN blocks is cut into: its share of NCHUNKS for
 * BLOCKS in all (NR ranges), at least one, at most one a block. */
static uint64_t chunks_of(uint64_t len, size_t nr, uint64_t nchunks, uint64_t blocks)
{
    uint64_t n = nr == 1 ? nchunks : (len * nchunks + blocks - 1) / blocks;
    return n ? (n < len ? n : len) : 1;
}

/* Run the blocks of the ranges RG (NR of them, BLOCKS in all) into AN in
 * order; FIG (sampling) gets each range's figures. */
static int run_ranges(const grid_job *job, const range *rg, size_t nr, uint64_t blocks,
                      double (*fig)[COALSIM_SAMPLE_FIGS], uint64_t pbase, uint64_t ptotal, uint64_t *line,
                      coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    unsigned threads = job->threads ? job->threads : 1;
    if (blocks == 0) return 0;
    if (threads == 1 || blocks == 1) return run_here(job, rg, nr, fig, pbase, ptotal, line, an, err, cap);
    uint64_t nchunks = (uint64_t)threads * CHUNKS_PER_THREAD;
    if (job->ordered && blocks / ORDERED_CHUNK_BLOCKS > nchunks) nchunks = blocks / ORDERED_CHUNK_BLOCKS;
    if (nchunks > MAX_CHUNKS) nchunks = MAX_CHUNKS;
    if (nchunks > blocks) nchunks = blocks;
    /* each range cut into chunks as the whole would be, at least one each */
    uint64_t total = 0;
    for (size_t r = 0; r < nr; r++) total += chunks_of(rg[r].end - rg[r].first, nr, nchunks, blocks);
    grid g = {.job = job, .cfg = cfg, .pbase = pbase, .ptotal = ptotal, .figures = fig != NULL, .nchunks = total,
              .stop_at = UINT64_MAX, .window = threads * AHEAD_PER_THREAD};
    g.chunks = calloc((size_t)total, sizeof *g.chunks);
    g.pool = calloc((size_t)g.window + 1, sizeof *g.pool);
    worker_arg *wa = calloc(threads, sizeof *wa);
    pthread_t *tid = calloc(threads, sizeof *tid);
    int *started = calloc(threads, sizeof *started);
    if (!g.chunks || !g.pool || !wa || !tid || !started) {
        free(g.chunks), free(g.pool), free(wa), free(tid), free(started);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (size_t r = 0, k0 = 0; r < nr; r++) {
        uint64_t len = rg[r].end - rg[r].first, n = chunks_of(len, nr, nchunks, blocks);
        for (uint64_t k = 0; k < n; k++) {
            chunk *c = &g.chunks[k0 + k];
            c->g = job->ordered ? &g : NULL;
            c->k = k0 + k;
            c->arch = &cfg->arch;
            c->range = r;
            c->first = rg[r].first + len / n * k + (k < len % n ? k : len % n);
            c->end = c->first + len / n + (k < len % n);
        }
        k0 += n;
    }
    g.awaited = UINT64_MAX;
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.room, NULL);
    pthread_cond_init(&g.ready, NULL);
    unsigned running = 0;
    for (unsigned t = 0; t < threads; t++) {
        wa[t].g = &g, wa[t].w = job->workers[t];
        started[t] = pthread_create(&tid[t], NULL, worker, &wa[t]) == 0;
        running += (unsigned)started[t];
    }
    if (!running) {                    /* no thread could start: run here, in order */
        pthread_mutex_destroy(&g.mu);
        pthread_cond_destroy(&g.room);
        pthread_cond_destroy(&g.ready);
        free(g.chunks), free(g.pool), free(wa), free(tid), free(started);
        return run_here(job, rg, nr, fig, pbase, ptotal, line, an, err, cap);
    }
    int rc = 0;
    uint64_t lines = job->chunk_start ? (line ? *line : job->line0) : 0;   /* of the next chunk's first record */
    err[0] = '\0';
    if (job->ordered) {
        rc = consume(&g, an, &lines, err, cap);
        if (rc != 0) {                           /* let the workers stop */
            pthread_mutex_lock(&g.mu);
            if (g.consumed < g.stop_at) g.stop_at = g.consumed;
            pthread_cond_broadcast(&g.room);
            pthread_mutex_unlock(&g.mu);
        }
    } else if (job->progress) {
        pthread_mutex_lock(&g.mu);
        for (uint64_t d; (d = blocks_done(&g)) < blocks && g.stop_at == UINT64_MAX;) {
            job->progress(job->progress_ctx, pbase + d, ptotal);
            wait_a_while(&g, UINT64_MAX);
        }
        pthread_mutex_unlock(&g.mu);
    }
    for (unsigned t = 0; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    if (!job->ordered) rc = merge_all(&g, an, &lines, err, cap);
    if (line) *line = lines;
    if (job->progress && rc == 0) job->progress(job->progress_ctx, pbase + blocks, ptotal);
    for (uint64_t k = 0; k < g.nchunks; k++) {
        if (fig)
            for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) fig[g.chunks[k].range][f] += g.chunks[k].fig[f];
        coalsim_analysis_free(g.chunks[k].an);
        free(g.chunks[k].buf);
        free(g.chunks[k].err);
    }
    for (size_t i = 0; i < g.npool; i++) free(g.pool[i].buf);
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.room);
    pthread_cond_destroy(&g.ready);
    free(g.chunks), free(g.pool), free(wa), free(tid), free(started);
    return rc;
}

#define PILOT_BLOCKS 4   /* at least: the blocks whose cost sets AUTO's sample (2 a thread, if more) */
#define AUTO_TARGET 0.005   /* AUTO stops at MIN_WINDOWS windows when every figure's error is within this */

/* The window range of window K (window 0 less the pilot's P blocks). */
static range window_range(const grid_job *job, uint64_t k, uint64_t W, uint64_t P)
{
    range r = {k * W, k * W + W < job->blocks ? k * W + W : job->blocks};
    if (k == 0) r.first = P < r.end ? P : r.end;
    return r;
}

/* Run windows WIN[0..N) (rising, none run yet) into AN, each one's figures
 * added to FIG[i]; DONE blocks ran before, PLANNED in all. */
static int run_round(const grid_job *job, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, const uint64_t *win,
                     size_t n, uint64_t W, uint64_t P, double (*fig)[COALSIM_SAMPLE_FIGS], uint64_t done,
                     uint64_t planned, char *err, size_t cap)
{
    range *rg = calloc(n ? n : 1, sizeof *rg);
    double (*rf)[COALSIM_SAMPLE_FIGS] = calloc(n ? n : 1, sizeof *rf);
    size_t *of = calloc(n ? n : 1, sizeof *of), nr = 0;
    uint64_t blocks = 0;
    int rc = -1;
    if (!rg || !rf || !of) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        range r = window_range(job, win[i], W, P);
        if (r.first >= r.end) continue;
        of[nr] = i;
        rg[nr++] = r;
        blocks += r.end - r.first;
    }
    rc = run_ranges(job, rg, nr, blocks, rf, done, planned, NULL, an, cfg, err, cap);
    for (size_t r = 0; r < nr && rc == 0; r++)
        for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) fig[of[r]][f] += rf[r][f];
done:
    free(rg), free(rf), free(of);
    return rc;
}

/* The largest error S states of the figures it has (-1: unknown counts as large). */
static double worst_error(const coalsim_sample *s)
{
    double w = 0;
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++)
        if (s->estimate[f] > 0 && (s->error[f] < 0 || s->error[f] > w)) w = s->error[f] < 0 ? 1 : s->error[f];
    return w;
}

/* A sample: every worker may jump over its blocks' loop iterations from
 * now on (where the front end can).  0, or -1 with ERR. */
static int loops_on(const grid_job *job, char *err, size_t cap)
{
    unsigned threads = job->threads ? job->threads : 1;
    for (unsigned t = 0; job->sample->loops && t < threads; t++)
        if (job->sample->loops(job->workers[t]) != 0) {
            snprintf(err, cap, "out of memory");
            return -1;
        }
    return 0;
}

/* P grown to N elements of SIZE bytes, or P itself with *BAD set. */
static void *grown(void *p, size_t n, size_t size, int *bad)
{
    void *q = realloc(p, n * size);
    if (!q) *bad = 1;
    return q ? q : p;
}

/* Room for N picks (and a round of up to N) in each array; what they hold is kept.  0, or -1. */
static int grow_picks(size_t *room, size_t n, double (**fig)[COALSIM_SAMPLE_FIGS], double (**f2)[COALSIM_SAMPLE_FIGS],
                      uint64_t **pick, uint64_t **p2, uint64_t **nblk, uint64_t **add)
{
    if (n <= *room) return 0;
    int bad = 0;
    *fig = grown(*fig, n, sizeof **fig, &bad);
    *f2 = grown(*f2, n, sizeof **f2, &bad);
    *pick = grown(*pick, n, sizeof **pick, &bad);
    *p2 = grown(*p2, n, sizeof **p2, &bad);
    *nblk = grown(*nblk, n, sizeof **nblk, &bad);
    *add = grown(*add, n, sizeof **add, &bad);
    if (bad) return -1;
    if (*room == 0) memset(*fig, 0, n * sizeof **fig);
    *room = n;
    return 0;
}

/* Sampling: a pilot of the first few blocks; then windows in rising order:
 * BLOCKS, as many as it asks for; AUTO, MIN_WINDOWS of them, and if some
 * figure's error is then above AUTO_TARGET, more, up to what the budget
 * allows at the pilot's cost a block, and then, while the error is still
 * above it, twice as many windows a round as long as the work the windows
 * cost so far says the budget holds them. */
static int run_sampled(const grid_job *job, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err,
                       size_t cap)
{
    grid_sampling *sp = job->sample;
    uint64_t W = sp->window ? sp->window : 1, nwin = (job->blocks + W - 1) / W;
    coalsim_sample *s = &sp->out;
    memset(s, 0, sizeof *s);
    s->blocks = job->blocks;
    sp->ran = NULL, sp->nran = 0;
    unsigned threads = job->threads ? job->threads : 1;
    uint64_t P = 2 * (uint64_t)threads > PILOT_BLOCKS ? 2 * (uint64_t)threads : PILOT_BLOCKS;
    /* OFF, as many blocks as the launch has, or too few blocks for a pilot:
     * all of it, untouched; so too AUTO on a sketch of few windows (its
     * blocks are cheap, and its lines are numbered in one run) */
    if (sp->cfg.mode == COALSIM_SAMPLE_OFF || job->blocks <= 2 * P ||
        (sp->cfg.mode == COALSIM_SAMPLE_AUTO && !sp->work && nwin <= COALSIM_SAMPLE_AUTO_WINDOWS) ||
        (sp->cfg.mode == COALSIM_SAMPLE_BLOCKS && sp->cfg.blocks >= job->blocks)) {
        range all = {0, job->blocks};
        s->run = job->blocks, s->window = W, s->windows = s->windows_run = nwin, s->factor = 1;
        return run_ranges(job, &all, 1, job->blocks, NULL, 0, job->blocks, NULL, an, cfg, err, cap);
    }
    if (P > W) P = W;
    double pfig[1][COALSIM_SAMPLE_FIGS] = {{0}};
    uint64_t want = sp->cfg.mode == COALSIM_SAMPLE_BLOCKS ? sp->cfg.blocks : 0;
    uint64_t held0 = sp->held ? sp->held(sp->held_ctx) : 0;
    uint64_t line = job->line0;
    /* the pilot: with loops to jump over, a block a worker first; if those
     * already say the launch is a sample's, the rest of the pilot may jump */
    uint64_t P1 = sp->loops && threads < P ? threads : P;
    range pilot = {0, P1};
    if (run_ranges(job, &pilot, 1, P1, pfig, 0, want > P ? want : P, &line, an, cfg, err, cap) != 0) return -1;
    if (P1 < P) {
        double budget = sp->cfg.budget > 0 ? sp->cfg.budget : COALSIM_SAMPLE_BUDGET;
        int sampled = sp->cfg.mode == COALSIM_SAMPLE_BLOCKS ? want < job->blocks
                                                            : pfig[0][COALSIM_SF_INST] / (double)P1 * (double)job->blocks > budget;
        if (sampled && loops_on(job, err, cap) != 0) return -1;
        range rest = {P1, P};
        double rfig[1][COALSIM_SAMPLE_FIGS] = {{0}};
        if (run_ranges(job, &rest, 1, P - P1, rfig, P1, want > P ? want : P, &line, an, cfg, err, cap) != 0) return -1;
        for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) pfig[0][f] += rfig[0][f];
    }
    s->work_per_block = pfig[0][sp->work ? COALSIM_SF_INST : COALSIM_SF_REQUESTS] / (double)P;
    double bytes_per_block = sp->held ? (double)(sp->held(sp->held_ctx) - held0) / (double)P : 0;
    double budget = sp->cfg.budget > 0 ? sp->cfg.budget : COALSIM_SAMPLE_BUDGET;
    uint64_t mem_blocks = UINT64_MAX;   /* the blocks whose memory a sample may hold */
    if (bytes_per_block > 0 && (!sp->footprint || (double)sp->footprint > COALSIM_SAMPLE_MEMORY))
        mem_blocks = (uint64_t)(COALSIM_SAMPLE_MEMORY / bytes_per_block);
    if (sp->cfg.mode == COALSIM_SAMPLE_AUTO) {
        double cost = s->work_per_block * (double)job->blocks;
        want = cost <= budget || s->work_per_block <= 0 ? job->blocks : (uint64_t)(budget / s->work_per_block);
        /* and the memory the sample's blocks touch */
        if (want > mem_blocks) want = mem_blocks;
    }
    if (want >= job->blocks) {
        /* the whole launch after all: the rest of it in order, as if unsampled */
        range rest = {P, job->blocks};
        s->run = job->blocks, s->window = W, s->windows = s->windows_run = nwin, s->factor = 1;
        return run_ranges(job, &rest, 1, job->blocks - P, NULL, P, job->blocks, &line, an, cfg, err, cap);
    }
    if (want < P) want = P;
    /* a sample: the blocks that run may jump over their loops' iterations too */
    if (loops_on(job, err, cap) != 0) return -1;
    /* fewer blocks than MIN_WINDOWS windows: shorter windows (not shorter than the pilot) */
    if (want < W * COALSIM_SAMPLE_MIN_WINDOWS) {
        W = want / COALSIM_SAMPLE_MIN_WINDOWS;
        if (W < P) W = P;
        nwin = (job->blocks + W - 1) / W;
    }
    s->window = W, s->windows = nwin;
    uint64_t mfinal = (want + W - 1) / W;
    if (mfinal < COALSIM_SAMPLE_FEWEST_WINDOWS) mfinal = COALSIM_SAMPLE_FEWEST_WINDOWS;
    if (mfinal > nwin) mfinal = nwin;
    uint64_t m1 = sp->cfg.mode == COALSIM_SAMPLE_AUTO && mfinal > COALSIM_SAMPLE_MIN_WINDOWS ? COALSIM_SAMPLE_MIN_WINDOWS
                                                                                             : mfinal;
    int rc = -1;
    /* a round's picks are an even spread, not nested in the last round's: the union of M picks and a
     * round of TARGET holds up to M + TARGET */
    size_t room = 0;
    double (*fig)[COALSIM_SAMPLE_FIGS] = NULL, (*f2)[COALSIM_SAMPLE_FIGS] = NULL;
    uint64_t *pick = NULL, *p2 = NULL, *nblk = NULL, *add = NULL;
    if (grow_picks(&room, (size_t)(m1 + mfinal), &fig, &f2, &pick, &p2, &nblk, &add) != 0) goto oom;
    size_t m = coalsim_sample_pick(nwin, m1, pick);           /* pick[0] is window 0, the pilot's */
    memcpy(fig[0], pfig[0], sizeof pfig[0]);
    uint64_t ran = P;
    for (size_t i = 0; i < m; i++) {
        range r = window_range(job, pick[i], W, P);
        ran += r.end - r.first;
    }
    uint64_t planned = ran;
    if (run_round(job, an, cfg, pick, m, W, P, fig, P, planned, err, cap) != 0) goto done;
    for (size_t i = 0; i < m; i++) {
        range r = window_range(job, pick[i], W, 0);
        nblk[i] = r.end - r.first;
    }
    s->sampled = 1;
    s->run = ran, s->windows_run = m;
    coalsim_sample_estimate(s, m, (const double (*)[COALSIM_SAMPLE_FIGS])fig, nblk);
    uint64_t target = mfinal, mem_windows = mem_blocks / W > mfinal ? mem_blocks / W : mfinal;
    int wf = sp->work ? COALSIM_SF_INST : COALSIM_SF_REQUESTS;
    while (m < nwin && worst_error(s) > AUTO_TARGET) {
        if (m >= target) {
            /* AUTO past the pilot's budget: twice the windows, while the work the windows cost so far
             * says they fit (a pilot can cost far more a block than the launch: where only the first
             * blocks have work, it would leave the estimate to those few) */
            if (sp->cfg.mode != COALSIM_SAMPLE_AUTO) break;
            double work = 0;
            for (size_t q = 0; q < m; q++) work += fig[q][wf];
            uint64_t next = 2 * (uint64_t)m < nwin ? 2 * (uint64_t)m : nwin;
            if (next > mem_windows) next = mem_windows;
            if (next <= m || work + work / (double)ran * (double)((next - m) * W) > budget) break;
            target = next;
            if (grow_picks(&room, m + (size_t)target, &fig, &f2, &pick, &p2, &nblk, &add) != 0) goto oom;
        }
        /* the next round: an even spread of TARGET, less the windows run */
        size_t m2 = coalsim_sample_pick(nwin, target, p2), na = 0;
        for (size_t i = 0, j = 0; i < m2; i++) {
            while (j < m && pick[j] < p2[i]) j++;
            if (j < m && pick[j] == p2[i]) continue;
            add[na++] = p2[i];
        }
        uint64_t more = 0;
        for (size_t i = 0; i < na; i++) {
            range r = window_range(job, add[i], W, 0);
            more += r.end - r.first;
        }
        memset(f2, 0, (na ? na : 1) * sizeof *f2);
        if (run_round(job, an, cfg, add, na, W, P, f2, ran, ran + more, err, cap) != 0) goto done;
        /* the union, in window order */
        size_t i = m, j = na, k = m + na;
        while (k > 0) {
            k--;
            if (j == 0 || (i > 0 && pick[i - 1] > add[j - 1])) {
                i--;
                pick[k] = pick[i];
                memcpy(fig[k], fig[i], sizeof fig[k]);
            } else {
                j--;
                pick[k] = add[j];
                memcpy(fig[k], f2[j], sizeof fig[k]);
            }
        }
        m += na;
        ran += more;
        for (size_t q = 0; q < m; q++) {
            range r = window_range(job, pick[q], W, 0);
            nblk[q] = r.end - r.first;
        }
        s->run = ran, s->windows_run = m;
        coalsim_sample_estimate(s, m, (const double (*)[COALSIM_SAMPLE_FIGS])fig, nblk);
    }
    if (s->run >= job->blocks) s->sampled = 0;
    /* the blocks that ran, in window order (their SMs, for the time) */
    sp->ran = malloc((size_t)s->run * sizeof *sp->ran);
    if (!sp->ran) goto oom;
    for (size_t q = 0; q < m; q++) {
        range r = window_range(job, pick[q], W, 0);
        for (uint64_t b = r.first; b < r.end; b++) sp->ran[sp->nran++] = b;
    }
    rc = 0;
    goto done;
oom:
    snprintf(err, cap, "out of memory");
done:
    free(fig), free(f2), free(pick), free(p2), free(nblk), free(add);
    return rc;
}

int grid_run(const grid_job *job, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    if (job->sample) return run_sampled(job, an, cfg, err, cap);
    range all = {0, job->blocks};
    return run_ranges(job, &all, 1, job->blocks, NULL, 0, job->blocks, NULL, an, cfg, err, cap);
}

int grid_extrapolate(grid_sampling *sp, coalsim_analysis *an, unsigned ncta, char *err, size_t cap)
{
    int rc = 0;
    coalsim_sample s = sp->out;
    uint64_t *ctas = sp->ran;
    size_t n = sp->nran;
    if (ncta > 1 && s.sampled) {
        s.blocks *= ncta, s.run *= ncta, s.window *= ncta;
        ctas = malloc(n * ncta * sizeof *ctas + 1);
        if (!ctas) rc = -1;
        for (size_t i = 0; ctas && i < n; i++)
            for (unsigned r = 0; r < ncta; r++) ctas[i * ncta + r] = sp->ran[i] * ncta + r;
        n *= ncta;
    }
    if (rc == 0) rc = coalsim_analysis_extrapolate(an, &s, ctas, n);
    if (rc != 0) snprintf(err, cap, "%s", ctas ? coalsim_analysis_error(an) : "out of memory");
    if (ctas != sp->ran) free(ctas);
    free(sp->ran);
    sp->ran = NULL, sp->nran = 0;
    return rc;
}
