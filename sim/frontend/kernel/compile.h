/* The compiler side of the kernel front end (compile.c, cuda_prelude.c). */
#ifndef COALSIM_COMPILE_H
#define COALSIM_COMPILE_H

#include <stddef.h>

/* Write the declarations clang needs for CUDA without the NVIDIA headers
 * into DIR/coalsim_cuda_prelude.h; its path into PATH.  0, or -1. */
int coalsim_cuda_prelude_write(const char *dir, char *path, size_t cap);

#endif
