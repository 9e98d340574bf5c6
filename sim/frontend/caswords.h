/* Which warps of a block add to a shared word in a float add's
 * compare-and-store loop (ptxas's LDS, FADD, ATOMS.CAST.SPIN, branch back),
 * and how many of a warp's passes the other warps' stores make fail: the
 * PTX interpreter's lowered loop (ptx_lower.c) and the SASS interpreter's
 * ATOMS.CAST.SPIN both ask it (caswords.c). */
#ifndef COALSIM_CASWORDS_H
#define COALSIM_CASWORDS_H

#include <stddef.h>
#include <stdint.h>

/* Shared words and the adds of each warp of a block to them, in the block
 * running. */
typedef struct cas_words {
    uint32_t *cur;             /* by word, CAS_SLOTS each: the lanes' adds of each warp index, then their sum */
    uint32_t *touched;         /* the words cur has */
    unsigned ntouched;
    uint64_t adds[32];         /* the adds (warp instructions) of each warp index */
    size_t nwords;
} cas_words;
#define CAS_SLOTS 33
/* The part of a pass in which another warp's store to the word makes it
 * fail (fitted to gpu/probes/shared_cas.cu on the H100 by shared_cas_fit.py:
 * 2-32 warps a block on one word, on 32 or 8 shared words, on 256 at
 * random; over its 70 cases of 2 or more warps on shared words 11% mean
 * error, the largest 30%: 32 warps on one word 0.72-0.77x, 16-32 warps on
 * 32 words 1.30x). */
#define CAS_WINDOW 0.75

/* A block starts: nothing added yet. */
void cas_words_block(cas_words *c);
/* Warp WARP of a block of NWARPS starts an add whose lanes are on the N
 * words WD (U[k] lanes on word k; the block's shared memory has WORDS
 * 4-byte words): *EXTRA gets the passes of it that other warps' stores are
 * expected to make fail, and the add is noted.  0, or -1 if memory runs
 * out. */
int cas_words_plan(cas_words *c, const uint64_t *wd, const unsigned *u, unsigned n, unsigned warp, unsigned nwarps,
                   size_t words, double *extra);
/* The lanes of M that do not win a compare-and-store pass: a lower lane of
 * M is on their word, or a lower lane of their phase (32 lanes for 4-byte
 * words, 16 for 8-byte ones) on their bank (gpu/probes/shared_cas.cu on the
 * H100: one warp alone, 32 lanes on 256 words at random take 3.54 passes,
 * the most lanes a bank has, not the 2.4 of a word; a double's lanes l and
 * l + 16 on one bank take one).  WORD[l]: lane l's shared offset over SIZE. */
uint32_t cas_pass_held(const uint64_t *word, uint32_t m, unsigned size);
/* The distinct words of lanes M, WORD[l] lane l's, into WD in the order the
 * lanes first name them, with U[k] the lanes on WD[k].  How many. */
unsigned cas_words_group(const uint64_t *word, uint32_t m, uint64_t *wd, unsigned *u);
void cas_words_free(cas_words *c);

#endif
