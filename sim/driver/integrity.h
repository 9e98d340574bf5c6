/* The runtime's integrity check (integrity.c). */
#ifndef COALSIM_DRIVER_INTEGRITY_H
#define COALSIM_DRIVER_INTEGRITY_H

#include <stdint.h>

#include "driver/cu.h"

/* The answer for VERSION at SECONDS to the runtime whose interface table is
 * RUNTIME_TABLE, asked through TABLE's function FN, into RESULT. */
CUresult drv_integrity(uint32_t version, uint64_t seconds, const void *runtime_table, const void *table,
                       const void *fn, uint64_t result[2]);

#endif
