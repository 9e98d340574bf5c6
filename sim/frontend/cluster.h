/* A thread-block cluster as both interpreters run it (ptx_exec.c,
 * sass_exec.c): where its CTAs sit in the grid, its barrier
 * (barrier.cluster, UCGABAR), and how an access to another CTA's shared
 * memory is counted.  Clusters tile the grid: cluster C's CTA of rank r is
 * at x + y * dimx + z * dimx * dimy within it, as %cluster_ctarank numbers
 * them. */
#ifndef COALSIM_CLUSTER_H
#define COALSIM_CLUSTER_H

#include <stdint.h>

/* Block (*BX, *BY, *BZ), numbered *ID in the grid, of the CTA of rank R of
 * cluster C, for a grid GRID of clusters CDIM. */
static inline void cluster_cta(const unsigned *grid, const unsigned *cdim, uint64_t c, unsigned r, unsigned *bx,
                               unsigned *by, unsigned *bz, uint64_t *id)
{
    unsigned gcx = grid[0] / cdim[0], gcy = grid[1] / cdim[1];
    unsigned cx = (unsigned)(c % gcx), cy = (unsigned)(c / gcx % gcy), cz = (unsigned)(c / ((uint64_t)gcx * gcy));
    *bx = cx * cdim[0] + r % cdim[0];
    *by = cy * cdim[1] + r / cdim[0] % cdim[1];
    *bz = cz * cdim[2] + r / (cdim[0] * cdim[1]);
    *id = *bx + (uint64_t)grid[0] * (*by + (uint64_t)grid[1] * *bz);
}

/* The cluster's barrier: a phase completes when every thread of the
 * cluster that has not exited has arrived. */
typedef struct cluster_bar {
    uint64_t phase, count;       /* its phase, the threads arrived in it */
} cluster_bar;

static inline void cluster_bar_settle(cluster_bar *b, uint64_t live)
{
    if (b->count && b->count >= live) b->phase++, b->count = 0;
}

/* LANES threads of a warp arrive (LIVE: the cluster's threads that have not
 * exited); *ARRIVED, the warp's, becomes 1 + the phase they joined.  -1 if
 * the warp arrived already and has not waited since. */
static inline int cluster_bar_arrive(cluster_bar *b, uint64_t *arrived, unsigned lanes, uint64_t live)
{
    if (*arrived) return -1;
    b->count += lanes;
    *arrived = 1 + b->phase;
    cluster_bar_settle(b, live);
    return 0;
}

/* A warp's wait: 1 (it sleeps) until the phase its arrival joined is
 * complete, then 0 (and it may arrive again). */
static inline int cluster_bar_wait(cluster_bar *b, uint64_t *arrived, uint64_t live)
{
    if (!*arrived) return 0;
    cluster_bar_settle(b, live);
    if (b->phase < *arrived) return 1;
    *arrived = 0;
    return 0;
}

/* The distinct 32-byte sectors of SIZE bytes at ADDR[l] for the lanes of M:
 * what a request to another CTA's shared memory counts, as global memory's
 * sectors (ncu on the H100: l1tex__t_sectors_pipe_lsu_mem_dshared_op_*,
 * gpu/results/h100/cluster). */
static inline unsigned cluster_dshared_sectors(const uint64_t *addr, uint32_t m, unsigned size)
{
    uint64_t sec[64];
    unsigned ns = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint64_t a = addr[__builtin_ctz(mm)];
        for (uint64_t s = a / 32; s <= (a + size - 1) / 32; s++) {
            unsigned i = 0;
            while (i < ns && sec[i] != s) i++;
            if (i == ns && ns < 64) sec[ns++] = s;
        }
    }
    return ns;
}

#endif
