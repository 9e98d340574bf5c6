/* A progress line on stderr for long runs: "coalsim: add.sketch: 41% (26880
 * of 65536 blocks)", rewritten in place, only on a terminal and only once a
 * run has taken a second, and cleared at the end.  Any front end that runs
 * or reads something long (sketches, traces, PTX kernels) can pass
 * progress_update to the library as its coalsim_progress_fn. */
#ifndef COALSIM_PROGRESS_H
#define COALSIM_PROGRESS_H

#include <stdint.h>

typedef struct {
    char name[64];          /* the file's base name */
    const char *unit;       /* "blocks", "MB" */
    uint64_t scale;         /* DONE and TOTAL are divided by it for the line */
    double start;           /* when the run started */
    int on;                 /* stderr is a terminal */
    int shown;              /* characters of the line on the screen */
} progress;

/* Start timing a run on PATH counted in UNIT (of SCALE each). */
void progress_start(progress *p, const char *path, const char *unit, uint64_t scale);
/* DONE of TOTAL: show the line if the run has taken a second (CTX: a progress). */
void progress_update(void *ctx, uint64_t done, uint64_t total);
/* Clear the line, if one is shown. */
void progress_end(progress *p);

#endif
