/* Opening a trace for the command: a file or stdin, plain or gzip, text or
 * binary (the reader tells those two apart). */
#ifndef COALSIM_INPUT_H
#define COALSIM_INPUT_H

#include <stdio.h>

#include "coalsim.h"

typedef struct {
    const char *name;        /* for messages: the path, or <stdin> */
    FILE *fp;
    void *gz;                /* gzFile when zlib reads it */
    coalsim_reader *rd;
} input;

/* Open PATH ('-' = stdin) and a reader on it.  0, or -1 after printing
 * "coalsim: PATH: why" on stderr. */
int input_open(input *in, const char *path, unsigned warp_size);
void input_close(input *in);

#endif
