/* cp.async groups in a warp's critical path, for both interpreters'
 * schedulers (ptx_sched.c, sass_sched.c), and below the other timing of the
 * asynchronous path they share (mbarriers' ready times, TMA rounds): a copy (cp.async, LDGSTS) joins
 * the open group and arrives when its load would; a commit
 * (cp.async.commit_group, LDGDEPBAR) closes the group; a wait
 * (cp.async.wait_group N, DEPBAR.LE SB0, N) waits for every committed group
 * but the N newest.  Times are the schedulers' packed ones (cycle << 24 |
 * loads), so the latest group brings its load count with it. */
#ifndef COALSIM_ASYNCGROUPS_H
#define COALSIM_ASYNCGROUPS_H

#include <stdint.h>
#include <string.h>

#define ASYNC_GROUPS 8          /* committed groups kept apart; older ones fold into one */

typedef struct async_groups {
    uint64_t open;              /* when the open group's copies have arrived */
    uint64_t done[ASYNC_GROUPS];/* the committed groups', newest last */
    uint64_t folded;            /* the groups folded out of done[] */
    unsigned n;
} async_groups;

static inline void async_copy(async_groups *g, uint64_t ready)
{
    if (ready > g->open) g->open = ready;
}

static inline void async_commit(async_groups *g)
{
    if (g->n == ASYNC_GROUPS) {
        if (g->done[0] > g->folded) g->folded = g->done[0];
        memmove(g->done, g->done + 1, (ASYNC_GROUPS - 1) * sizeof g->done[0]);
        g->n--;
    }
    g->done[g->n++] = g->open;
    g->open = 0;
}

/* When every committed group but the N newest has arrived; N 0 retires them all. */
static inline uint64_t async_wait(async_groups *g, uint64_t n)
{
    uint64_t ready = g->folded;
    for (unsigned k = 0; k + n < g->n; k++)
        if (g->done[k] > ready) ready = g->done[k];
    if (n == 0) g->n = 0, g->folded = 0;
    return ready;
}

/* Hopper's asynchronous path, the same for both schedulers: when each of a
 * block's mbarriers (by a key the interpreter makes of its address) last had
 * an arrival or a copy's bytes in, read by the waits on it. */
typedef struct mbar_times {
    struct {
        uint64_t key, ready;
    } e[64];
    unsigned n;                 /* barriers kept; more are untimed */
} mbar_times;

static inline void mbar_times_mark(mbar_times *m, uint64_t key, uint64_t t)
{
    unsigned i = 0;
    while (i < m->n && m->e[i].key != key) i++;
    if (i == m->n) {
        if (m->n == sizeof m->e / sizeof m->e[0]) return;
        m->e[m->n].key = key;
        m->e[m->n++].ready = 0;
    }
    if (t > m->e[i].ready) m->e[i].ready = t;
}

static inline uint64_t mbar_times_ready(const mbar_times *m, uint64_t key)
{
    for (unsigned i = 0; i < m->n; i++)
        if (m->e[i].key == key) return m->e[i].ready;
    return 0;
}

/* A producer thread's tensor copies (gpu/probes/tma_pipe.cu): they move
 * WINDOW bytes a round of ROUND; copies issued while earlier ones are still
 * on their way join their rounds, and a copy is in when the round holding
 * its last byte ends, whatever its mbarrier. */
typedef struct tma_rounds {
    uint64_t free;              /* when its last copy's bytes are in */
    uint64_t start;             /* when its rounds began (the engine idle before) */
    uint64_t bytes;             /* and their bytes since */
} tma_rounds;

/* When a copy of BYTES issued at NOW is in. */
static inline uint64_t tma_rounds_ready(tma_rounds *r, uint64_t now, uint64_t bytes, uint64_t round, uint64_t window)
{
    if (now >= r->free) r->start = now, r->bytes = 0;
    r->bytes += bytes;
    r->free = r->start + round * ((r->bytes + window - 1) / window);
    return r->free;
}

#endif
