/* coalsim run: an unmodified CUDA program run on coalsim's driver, every
 * launch reported (run.c). */
#ifndef COALSIM_RUN_H
#define COALSIM_RUN_H

#include "coalsim.h"

typedef struct run_opts {
    coalsim_format fmt;
    int hier, source;
    int per_request, picture;  /* --per-request, --picture */
    const char *html;          /* --html FILE: each launch's into FILE-N.EXT */
    const char *profile;       /* --profile FILE (a path the driver reads), or NULL */
    long threads;
    const char *kernel_name;   /* -k NAME | regex:RE */
    const char *skip, *count;  /* -s N, -c N (as given) */
    const char *sample;        /* --sample (as given; NULL: off, the program reads what the kernels wrote) */
    const char *log_file;      /* --log-file FILE, or NULL: stdout */
    const char *sass_listing;  /* --sass-listing FILE: kernels it has run from their SASS, or NULL */
} run_opts;

/* Run ARGV (ARGV[0] the program) with coalsim's libcuda.so.1 first on its
 * library path; then write the launches' reports.  The exit status: the
 * program's, 1 if coalsim failed (a launch it could not run, a report it
 * could not write, no driver library), 128 + N if a signal N ended it. */
int run_program(const run_opts *o, char **argv);

#endif
