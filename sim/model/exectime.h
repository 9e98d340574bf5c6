/* The instruction side of the time model (exectime.c), called by timing.c
 * once a kernel's stream has ended. */
#ifndef COALSIM_EXECTIME_H
#define COALSIM_EXECTIME_H

#include "coalsim.h"

/* Fill OUT's instruction terms and replace its total and bound with the
 * combined prediction, from what the kernel executed (E), its hierarchy
 * totals (C) and the stream's counts already in OUT (memory terms, loads by
 * level, lines and wavefronts a SM, atomics); DIRTY and L2_BYTES as
 * coalsim_timing_set_dirty's.  Needs P's SM keys
 * (sm_clock_mhz) and E's paths (path_blocks); otherwise leaves OUT as it is.
 * Never fails. */
void exectime_finish(const coalsim_profile *p, const coalsim_sm_limits *lim, unsigned sms, const coalsim_exec *e,
                     const coalsim_hier_counts *c, uint64_t dirty, uint64_t l2_bytes, coalsim_time *out);

/* timing.c's curves: the DRAM round trip of 16 loads at GBS (the profile's
 * loaded points), and the slowest of W warps' round trips over the mean. */
double timing_loaded_ns(const coalsim_profile *p, double gbs);
double timing_tail_factor(const coalsim_profile *p, unsigned w);
/* The time of C's DRAM reads: their bytes at the stream's rate, each 64
 * bytes of a piece read in part at the profile's dram_piece factor. */
double timing_dram_read_us(const coalsim_profile *p, const coalsim_hier_counts *c);

#endif
