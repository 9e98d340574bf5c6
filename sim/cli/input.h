/* Opening a trace for the command: a file or stdin, plain or gzip, text or
 * binary (the reader tells those two apart). */
#ifndef COALSIM_INPUT_H
#define COALSIM_INPUT_H

#include <stdio.h>

#include "coalsim.h"

typedef struct {
    const char *name;        /* for messages: the path, or <stdin> */
    FILE *fp;
    coalsim_file *gz;        /* gzip or stdin: the library's file decodes it */
    void *job;               /* a sketch running into a pipe (input.c) */
    coalsim_reader *rd;
} input;

/* Open PATH ('-' = stdin) and a reader on it; a PATH ending in .sketch is a
 * kernel sketch, run (with the "param=value" overrides SETS) into a trace
 * first.  0, or -1 after printing "coalsim: PATH: why" on stderr. */
int input_open(input *in, const char *path, unsigned warp_size, const char *const *sets);

/* Call once the reader is done (at its end or on an error): for a sketch,
 * waits for it and returns -1 after printing its error if it failed (the
 * reader's own error is then only a consequence); else 0. */
int input_finish(input *in);

/* Run the sketch file PATH into OUT.  0, or -1 after printing why. */
int input_sketch(const char *path, const char *const *sets, FILE *out);
void input_close(input *in);

#endif
