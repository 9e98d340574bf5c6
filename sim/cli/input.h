/* Opening a trace for the command: a file or stdin, plain or gzip, text or
 * binary (the reader tells those two apart), or a kernel sketch. */
#ifndef COALSIM_INPUT_H
#define COALSIM_INPUT_H

#include <stdio.h>

#include "coalsim.h"

typedef struct {
    const char *name;        /* for messages: the path, or <stdin> */
    FILE *fp;
    coalsim_file *gz;        /* gzip or stdin: the library's file decodes it */
    coalsim_reader *rd;      /* a trace's reader, or NULL for a sketch */
    coalsim_sketch *sketch;  /* a sketch, compiled */
    long long size;          /* bytes of the file, or -1 if not known (stdin) */
} input;

/* Open PATH ('-' = stdin) and a reader on it; a PATH ending in .sketch is a
 * kernel sketch, compiled with the "param=value" overrides SETS (and no
 * reader).  0, or -1 after printing "coalsim: PATH: why" on stderr. */
int input_open(input *in, const char *path, unsigned warp_size, const char *const *sets);

/* Read IN into AN (made from CFG), on a second thread if THREADS > 1, or
 * run the sketch's blocks into it on THREADS threads; a progress line on a
 * terminal; SAMPLE: which of a sketch's blocks run.  0, or -1 after printing
 * "coalsim: PATH:LINE: why". */
int input_analyse(input *in, coalsim_analysis *an, const coalsim_analysis_cfg *cfg, unsigned threads,
                  const coalsim_sample_cfg *sample);

/* Run the sketch of IN into SINK, requests grouped by WARP_SIZE lanes as its
 * trace's reader would.  0; -1 after printing the sketch's error; 1 if the
 * sink stopped it. */
int input_run(input *in, unsigned warp_size, coalsim_sink sink);

/* Run the sketch file PATH and write its v1 trace to OUT.  0, or -1 after
 * printing why. */
int input_sketch(const char *path, const char *const *sets, FILE *out);
void input_close(input *in);

#endif
