/* cp.async groups in a warp's critical path, for both interpreters'
 * schedulers (ptx_sched.c, sass_sched.c): a copy (cp.async, LDGSTS) joins
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

#endif
