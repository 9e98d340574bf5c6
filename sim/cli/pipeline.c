/* Reading a trace on a thread of its own (see pipeline.h).  Whichever
 * thread is ahead models the requests: the reader when batches are waiting
 * for the calling thread, else the calling thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

#define BATCH 256                /* requests handed over at once */
#define RING 4                   /* batches between the threads */

typedef struct {
    coalsim_request r[BATCH];
    coalsim_result res[BATCH];
    unsigned long line[BATCH];   /* the reader's line after each request */
    char labels[BATCH * (COALSIM_MAX_LABEL + 1)];   /* the requests' labels, copied */
    size_t n;
    int modelled;                /* res[] is filled (else the calling thread models) */
    int end;                     /* the last batch: the reader's status in rc */
    int rc;
} batch;

typedef struct {
    coalsim_reader *rd;
    const coalsim_arch *arch;
    void (*tick)(void *);
    void *ctx;
    batch *ring;
    size_t head, tail;           /* batches filled [tail, head), by count */
    int stop;                    /* the consumer gave up */
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
} pipe_t;

static void *producer(void *arg)
{
    pipe_t *p = arg;
    for (uint64_t k = 0;; k++) {
        pthread_mutex_lock(&p->mu);
        while (p->head - p->tail == RING && !p->stop) pthread_cond_wait(&p->emptied, &p->mu);
        int stop = p->stop;
        /* the thread that is ahead models: this one when batches wait */
        int model = p->head - p->tail >= RING / 2;
        pthread_mutex_unlock(&p->mu);
        if (stop) return NULL;
        batch *b = &p->ring[p->head % RING];
        size_t used = 0;
        const char *last = NULL;
        b->n = 0, b->end = 0, b->rc = 0, b->modelled = model;
        while (b->n < BATCH) {
            coalsim_request *r = &b->r[b->n];
            int rc = coalsim_reader_next(p->rd, r);
            if (rc != 1) {
                b->end = 1, b->rc = rc;
                break;
            }
            /* the reader's label lives until its next call: keep a copy, one
             * for a run of requests with the same label */
            if (!last || strcmp(last, r->label) != 0) {
                size_t len = strlen(r->label) + 1;
                memcpy(b->labels + used, r->label, len);
                last = b->labels + used;
                used += len;
            }
            r->label = last;
            if (model) coalsim_model(p->arch, r, &b->res[b->n]);
            b->line[b->n++] = coalsim_reader_line(p->rd);
        }
        if (p->tick && (k & 15) == 0) p->tick(p->ctx);
        pthread_mutex_lock(&p->mu);
        p->head++;
        pthread_cond_signal(&p->filled);
        pthread_mutex_unlock(&p->mu);
        if (b->end) return NULL;
    }
}

int pipeline_drain(coalsim_reader *rd, coalsim_analysis *an, const coalsim_arch *arch, void (*tick)(void *),
                   void *ctx, unsigned long *line)
{
    pipe_t p = {.rd = rd, .arch = arch, .tick = tick, .ctx = ctx};
    pthread_t tid;
    p.ring = malloc(RING * sizeof *p.ring);
    if (!p.ring) return coalsim_reader_drain(rd, coalsim_analysis_sink(an));
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.filled, NULL);
    pthread_cond_init(&p.emptied, NULL);
    if (pthread_create(&tid, NULL, producer, &p) != 0) {
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.filled);
        pthread_cond_destroy(&p.emptied);
        free(p.ring);
        return coalsim_reader_drain(rd, coalsim_analysis_sink(an));
    }
    int rc = 0;
    for (;;) {
        pthread_mutex_lock(&p.mu);
        while (p.head == p.tail) pthread_cond_wait(&p.filled, &p.mu);
        pthread_mutex_unlock(&p.mu);
        batch *b = &p.ring[p.tail % RING];
        for (size_t i = 0; i < b->n && rc == 0; i++) {
            if (!b->modelled) coalsim_model(arch, &b->r[i], &b->res[i]);
            if (coalsim_analysis_put_modelled(an, &b->r[i], &b->res[i]) != 0) {
                *line = b->line[i];
                rc = 1;
            }
        }
        int end = b->end;
        if (rc == 0 && end) rc = b->rc;
        pthread_mutex_lock(&p.mu);
        p.tail++;
        if (rc) p.stop = 1;
        pthread_cond_signal(&p.emptied);
        pthread_mutex_unlock(&p.mu);
        if (rc || end) break;
    }
    pthread_join(tid, NULL);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.filled);
    pthread_cond_destroy(&p.emptied);
    free(p.ring);
    return rc;
}
