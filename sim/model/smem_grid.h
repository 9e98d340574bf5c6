/* Internal: the shared-memory model's lane-to-bank-to-wavefront layout, for
 * the pictures (smem.c). */
#ifndef COALSIM_SMEM_GRID_H
#define COALSIM_SMEM_GRID_H

#include "coalsim.h"

#define SMEM_SHARED 0x40     /* cell flag: several lanes share the bank word */

/* Fill grid[row][bank] for each wavefront of r (at most maxrows); returns the
 * number of rows.  Cell = lane + 1, 0 idle, | SMEM_SHARED. */
unsigned smem_grid(const coalsim_arch *a, const coalsim_request *r, unsigned char grid[][64], unsigned maxrows);

#endif
