/* Reading a whole file into memory (readfile.c): the kernel front end's
 * inputs and the outputs of the tools it runs. */
#ifndef COALSIM_READFILE_H
#define COALSIM_READFILE_H

#include <stddef.h>

/* The bytes of PATH, NUL-terminated (malloc'd, *LEN bytes without the NUL),
 * or NULL if it cannot be opened or read (errno says why) or memory runs
 * out. */
char *kfile_read(const char *path, size_t *len);

#endif
