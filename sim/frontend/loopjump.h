/* What the two interpreters' loop jumps share (ptx_loop.c, sass_loop.c):
 * the counts a jumped iteration's requests add, by instruction; when an
 * integer comparison moving by a fixed step first changes its answer; and
 * handing the skipped requests to the analysis.  Issue 30: loops sampled
 * inside the blocks of a sampled launch. */
#ifndef COALSIM_LOOPJUMP_H
#define COALSIM_LOOPJUMP_H

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"

/* What a loop's skipped requests add up to, by instruction: coalsim_stats_add's
 * sums, and the sectors of stores to lines of their own. */
enum {
    LOOP_REQUESTS, LOOP_ACTIVE, LOOP_BYTES, LOOP_SECTORS, LOOP_IDEAL_SECTORS, LOOP_LINES,
    LOOP_WAVEFRONTS, LOOP_IDEAL_WAVEFRONTS, LOOP_WRITTEN, LOOP_COUNTS
};

#define LOOP_FAR ((int64_t)1 << 40)   /* "never", in iterations */

/* Add a request's modelled counts RES to C (LOOP_COUNTS of them). */
void loop_count_request(uint64_t *c, const coalsim_result *res);

/* BITS low bits set (64: all). */
uint64_t loop_mask_of(unsigned bits);
/* V's low BITS as the number they are (signed: two's complement). */
__int128 loop_value_of(uint64_t v, unsigned bits, int sgn);

/* Comparisons as loop_flips takes them. */
enum { LOOP_EQ, LOOP_NE, LOOP_LT, LOOP_LE, LOOP_GT, LOOP_GE };

/* The first T >= 1 where comparison CMP of A + T DA and B + T DB (BITS
 * wide, signed or not) gives other than it gives at T = 0, or where either
 * leaves its type's range; LOOP_FAR if not soon. */
int64_t loop_flips(int cmp, unsigned bits, int sgn, __int128 a, __int128 da, __int128 b, __int128 db);

/* A warp that could not jump (yet): how many back edges to let pass before
 * it tries again, longer after each try that failed (*FAILS counts them). */
uint32_t loop_back_off(unsigned *fails);

/* An access's skipped counts (SUM: LOOP_COUNTS of them) as the analysis
 * takes them. */
coalsim_loop_skip loop_skip_of(const char *label, coalsim_op op, coalsim_space space, const uint64_t *sum);

/* Hand SKIP[0..N) to AN (coalsim_analysis_extrapolate_loops), each of the
 * SMS SMs' loads scaled by (SEEN + SKIPPED) / SEEN, its requests run and
 * skipped (NULL: all alike), and mark S sampled (a launch whose blocks all
 * ran but whose loops did not is a sample too).  0, or -1 with ERR. */
int loop_extrapolate(coalsim_analysis *an, coalsim_sample *s, const coalsim_loop_skip *skip, size_t n,
                     const double *seen, const double *skipped, unsigned sms, char *err, size_t cap);

#endif
