/* Running the CUDA toolkit's programs (nvcc, ptxas, nvdisasm, cuobjdump) and
 * clang: found by name, started with an argument vector (never a shell),
 * their output captured (proc.c). */
#ifndef COALSIM_PROC_H
#define COALSIM_PROC_H

#include <stddef.h>

/* The full path of PROG found in $PATH or the EXTRA directories (NULL-
 * terminated, may be NULL), into OUT.  0, or -1 if it is nowhere. */
int proc_find(const char *prog, const char *const *extra, char *out, size_t cap);
/* The same, looking in $PATH, $CUDA_HOME/bin and /usr/local/cuda/bin. */
int proc_find_cuda(const char *prog, char *out, size_t cap);
/* Run ARGV with stdin from /dev/null; its stdout into the file STDOUT_PATH
 * (or with stderr into OUT when STDOUT_PATH is NULL); stderr (and stdout
 * when not to a file) into OUT, at most CAP-1 bytes kept.  The exit status,
 * or -1 if it could not be started. */
int proc_run(char *const *argv, const char *stdout_path, char *out, size_t cap);

#endif
