/* The progress line (see progress.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_start(progress *p, const char *path, const char *unit, uint64_t scale)
{
    const char *base = strrchr(path, '/');
    snprintf(p->name, sizeof p->name, "%s", base && base[1] ? base + 1 : path);
    p->unit = unit;
    p->scale = scale ? scale : 1;
    p->start = now_s();
    p->on = isatty(STDERR_FILENO);
    p->shown = 0;
}

void progress_update(void *ctx, uint64_t done, uint64_t total)
{
    progress *p = ctx;
    if (!p->on || !total || now_s() - p->start < 1.0) return;
    if (done > total) done = total;
    char line[160];
    int n = snprintf(line, sizeof line, "coalsim: %s: %d%% (%llu of %llu %s)", p->name, (int)(100.0 * done / total),
                     (unsigned long long)(done / p->scale), (unsigned long long)(total / p->scale), p->unit);
    if (n < 0) return;
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    /* spaces over what is left of a longer line before */
    fprintf(stderr, "\r%s%*s", line, p->shown > n ? p->shown - n : 0, "");
    fflush(stderr);
    if (n > p->shown) p->shown = n;
}

void progress_end(progress *p)
{
    if (!p->shown) return;
    fprintf(stderr, "\r%*s\r", p->shown, "");
    fflush(stderr);
    p->shown = 0;
}
