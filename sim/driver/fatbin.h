/* A module image as a program hands it to the driver: a fatbinary (or the
 * wrapper nvcc puts around one), PTX text, or a cubin (fatbin.c). */
#ifndef COALSIM_DRIVER_FATBIN_H
#define COALSIM_DRIVER_FATBIN_H

#include <stddef.h>

/* The PTX in IMAGE that an sm_SM GPU would take (the newest PTX not newer
 * than SM; compressed entries decompressed): 0 with it in *PTX (malloc'd,
 * *LEN bytes, NUL-terminated); 1 if IMAGE holds no such PTX, with what it
 * holds in ERR; -1 if IMAGE is not an image or cannot be read, with why. */
int fatbin_ptx(const void *image, unsigned sm, char **ptx, size_t *len, char *err, size_t cap);

#endif
