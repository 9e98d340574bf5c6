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

/* A kept request: its fixed part and what the model made of it (workers
 * model, the consumer only adds up), then one address per active lane. */
typedef struct {
    const char *label;
    uint64_t block, warp;
    unsigned long line;
    uint32_t active, label_id;
    unsigned char op, space, size;
    coalsim_result res;
} kept_head;

typedef struct {
    const coalsim_arch *arch;    /* ordered: the model's */
    uint64_t first, end;         /* blocks [first, end) */
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
    const grid_job *job;
    const coalsim_analysis_cfg *cfg;
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
                   (unsigned char)r->space, (unsigned char)r->size, {0}};
    h.res = *res;
    memcpy(c->buf + c->len, &h, sizeof h);
    uint64_t *a = (uint64_t *)(void *)(c->buf + c->len + sizeof h);
    for (uint32_t m = r->active; m; m &= m - 1) *a++ = r->addr[__builtin_ctz(m)];
    c->len += need;
    return 0;
}

static int keep(void *ctx, const coalsim_request *r)
{
    const chunk *c = ctx;
    coalsim_result res;
    coalsim_model(c->arch, r, &res);
    return keep_modelled(ctx, r, &res);
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
        r.op = (coalsim_op)h.op, r.space = (coalsim_space)h.space, r.size = h.size;
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

/* One thread: every block straight into AN, in order. */
static int run_here(const grid_job *job, coalsim_analysis *an, char *err, size_t cap)
{
    double last = now_s();
    err[0] = '\0';
    if (job->chunk_start) job->chunk_start(job->workers[0], job->line0);
    for (uint64_t b = 0; b < job->blocks; b++) {
        if (job->run(job->workers[0], b, coalsim_analysis_sink(an), err, cap) != 0) {
            if (!err[0]) snprintf(err, cap, "%s", coalsim_analysis_error(an));
            return -1;
        }
        if (job->progress && (b & 63) == 0 && now_s() - last > 0.2) {
            job->progress(job->progress_ctx, b + 1, job->blocks);
            last = now_s();
        }
    }
    if (job->progress) job->progress(job->progress_ctx, job->blocks, job->blocks);
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
            wait_a_while(g, k);
            if (job->progress) job->progress(job->progress_ctx, blocks_done(g), job->blocks);
        }
        pthread_mutex_unlock(&g->mu);
        if (!c->done) return -1;                 /* an earlier chunk failed */
        int rc = c->rc != 0 ? (snprintf(err, cap, "%s", chunk_err(c)), -1) : replay(c, an, lines, err, cap);
        pthread_mutex_lock(&g->mu);
        if (rc != 0 && k < g->stop_at) g->stop_at = k;
        g->kept -= c->len;
        if (rc == 0 && c->buf) {
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
            job->progress(job->progress_ctx, done, job->blocks);
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

int grid_run(const grid_job *job, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    unsigned threads = job->threads ? job->threads : 1;
    if (job->blocks == 0) return 0;
    if (threads == 1 || job->blocks == 1) return run_here(job, an, err, cap);
    uint64_t nchunks = (uint64_t)threads * CHUNKS_PER_THREAD;
    if (job->ordered && job->blocks / ORDERED_CHUNK_BLOCKS > nchunks) nchunks = job->blocks / ORDERED_CHUNK_BLOCKS;
    if (nchunks > MAX_CHUNKS) nchunks = MAX_CHUNKS;
    if (nchunks > job->blocks) nchunks = job->blocks;
    grid g = {.job = job, .cfg = cfg, .nchunks = nchunks, .stop_at = UINT64_MAX,
              .window = threads * AHEAD_PER_THREAD};
    g.chunks = calloc((size_t)nchunks, sizeof *g.chunks);
    g.pool = calloc((size_t)g.window + 1, sizeof *g.pool);
    worker_arg *wa = calloc(threads, sizeof *wa);
    pthread_t *tid = calloc(threads, sizeof *tid);
    int *started = calloc(threads, sizeof *started);
    if (!g.chunks || !g.pool || !wa || !tid || !started) {
        free(g.chunks), free(g.pool), free(wa), free(tid), free(started);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (uint64_t k = 0; k < nchunks; k++) {
        g.chunks[k].arch = &cfg->arch;
        g.chunks[k].first = job->blocks / nchunks * k + (k < job->blocks % nchunks ? k : job->blocks % nchunks);
        g.chunks[k].end = g.chunks[k].first + job->blocks / nchunks + (k < job->blocks % nchunks);
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
        return run_here(job, an, err, cap);
    }
    int rc = 0;
    uint64_t lines = job->chunk_start ? job->line0 : 0;   /* of the next chunk's first record */
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
        for (uint64_t d; (d = blocks_done(&g)) < job->blocks && g.stop_at == UINT64_MAX;) {
            job->progress(job->progress_ctx, d, job->blocks);
            wait_a_while(&g, UINT64_MAX);
        }
        pthread_mutex_unlock(&g.mu);
    }
    for (unsigned t = 0; t < threads; t++)
        if (started[t]) pthread_join(tid[t], NULL);
    if (!job->ordered) rc = merge_all(&g, an, &lines, err, cap);
    if (job->progress && rc == 0) job->progress(job->progress_ctx, job->blocks, job->blocks);
    for (uint64_t k = 0; k < nchunks; k++) {
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
