/* A launch's argument list: one entry a kernel parameter (args.c). */
#ifndef COALSIM_ARGS_H
#define COALSIM_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/kernel/kmem.h"
#include "frontend/ptx/ptx.h"

/* Parse LIST against ENTRY's parameters (offsets OFF, types in the demangled
 * signature SIG for messages), add the buffers it names to MEM (in order of
 * first appearance) and write the parameter values into PARAMS (BYTES long).
 * 0, or -1 with why in ERR. */
int kargs_parse(const char *list, const ptx_func *entry, const uint32_t *off, const char *sig, kmem *mem,
                unsigned char *params, size_t bytes, char *err, size_t cap);

#endif
