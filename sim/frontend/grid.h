/* Running a kernel's blocks on several threads into one analysis: the part
 * every front end that executes a grid (sketches, PTX, SASS) shares.
 *
 * Blocks are cut into chunks of consecutive blocks; workers take chunks in
 * order.  Without order-dependent consumers, each chunk is modelled into an
 * analysis of its own and the chunks are merged in block order, so the
 * report is the one a single thread gives.  With a cache model or
 * per-request reports (ORDERED), workers only produce: each chunk's requests
 * are kept and the calling thread feeds them to the analysis in block order,
 * a bounded number of chunks ahead. */
#ifndef COALSIM_GRID_H
#define COALSIM_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"

/* Run block B of the grid with worker state W, pushing its requests into
 * SINK (their labels must stay valid until grid_run returns).  0, or -1
 * with a message in ERR (CAP bytes); a sink that stops it is an error too. */
typedef int (*grid_block_fn)(void *w, uint64_t b, coalsim_sink sink, char *err, size_t cap);

/* How far the run has come, called on the calling thread now and then. */
typedef coalsim_progress_fn grid_progress_fn;

/* Sampling (grid_job.sample): which windows of consecutive blocks run, and
 * the figures each window gave, for the estimate (see coalsim_sample). */
typedef struct grid_sampling {
    coalsim_sample_cfg cfg;        /* in: AUTO, OFF or about BLOCKS blocks */
    uint64_t window;               /* in: blocks a window (coalsim_sample_window) */
    /* in, or NULL: a worker's warp instructions so far, the cost of a block
     * (NULL: a block costs its requests) */
    uint64_t (*work)(void *w);
    /* in, or NULL: the bytes of memory the launch holds so far (the pages
     * its blocks touched): AUTO keeps a sample's within COALSIM_SAMPLE_MEMORY */
    uint64_t (*held)(const void *ctx);
    const void *held_ctx;
    uint64_t footprint;            /* in: the most bytes its memory can take (its buffers; 0: not known) */
    /* in, or NULL: let worker W jump over the iterations of loops inside its
     * blocks (called on every worker once the pilot has decided on a
     * sample: 0, or -1 if memory runs out); and the requests, sectors and
     * wavefronts W has jumped over so far, which the windows' figures count
     * as run */
    int (*loops)(void *w);
    void (*skipped)(void *w, double *fig);
    coalsim_sample out;            /* out: out.sampled 0 when every block ran */
    uint64_t *ran;                 /* out: the blocks run, in the order run (malloc'd; free it) */
    size_t nran;
} grid_sampling;

typedef struct grid_job {
    uint64_t blocks;             /* blocks 0 .. blocks-1 */
    unsigned threads;            /* workers, 1 or more; WORKERS has as many states */
    void **workers;
    grid_block_fn run;
    int ordered;                 /* the analysis needs requests in block order */
    grid_progress_fn progress;   /* or NULL */
    void *progress_ctx;
    /* Lines as one trace's (a sketch's): with CHUNK_START, the block
     * function numbers requests by their records (one an active lane) from
     * the line CHUNK_START gave it before a run of consecutive blocks; the
     * grid gives LINE0 before block 0, and 0 before a run it takes apart,
     * whose lines it then shifts by the records of the blocks before it.
     * NULL: the lines are left as they are. */
    void (*chunk_start)(void *w, uint64_t first_line);
    uint64_t line0;
    /* NULL: every block, in order.  Else the blocks SAMPLE picks: the first
     * window (the pilot), then the others in order; their lines are
     * numbered as if they were the only blocks. */
    grid_sampling *sample;
} grid_job;

/* Run every block of JOB into AN (made from CFG: chunks get analyses like it,
 * without its hierarchy or callback).  0, or -1 with the error of the first
 * failing block (in block order) in ERR. */
int grid_run(const grid_job *job, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap);

/* After grid_run with SP (and the front end's coalsim_analysis_set_exec):
 * AN's counts made the launch's from the sample, SP's blocks freed.  The
 * grid's units are clusters of NCTA blocks (1: blocks): unit u is blocks
 * u * NCTA ... u * NCTA + NCTA - 1, which the report and the time count.
 * 0, or -1 with why in ERR. */
int grid_extrapolate(grid_sampling *sp, coalsim_analysis *an, unsigned ncta, char *err, size_t cap);

#endif
