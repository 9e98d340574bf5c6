/* Which TMA tile loads L2 serves once for several SMs.
 *
 * On the H100 and H200 (gpu/probes/tma_bw.cu, runs/h100-tma, runs/h200-tma),
 * SMs near each other that ask for the same box at the same time are
 * served by one L2 read: CTAs 2j and 2j+1 streaming the same boxes read
 * 0.504 L2 sectors a TMA byte, CTAs 66 apart 1.00; 8 neighbouring CTAs a
 * box sequence 0.30-0.32, every CTA the same one 0.27-0.28.  The rule
 * here: the CTAs of a merge domain (TMA_MERGE_CTAS consecutive block ids,
 * 4: the pair gives 0.5, eight neighbours 0.25, all of them 0.25) that
 * issue the same box as their Nth tensor load share its read; the first
 * of them to get there reads it.  A box is its tensor map's global base,
 * its coordinates and its shape.
 *
 * The table holds one domain's boxes at a time (blocks of a domain run one
 * after another, or together as a cluster); a block of another domain
 * starts it afresh (a new epoch: nothing is cleared).  When it is half
 * full, later boxes are read on their own. */
#ifndef COALSIM_TMAMERGE_H
#define COALSIM_TMAMERGE_H

#include <stdint.h>

#define TMA_MERGE_CTAS 4
#define TMA_MERGE_SLOTS 8192      /* a power of two */

typedef struct tma_merge {
    uint64_t domain;              /* block id / TMA_MERGE_CTAS of the entries; UINT64_MAX: none */
    unsigned used;
    uint32_t epoch;               /* a slot holds an entry if its epoch is this one */
    uint32_t ep[TMA_MERGE_SLOTS];
    uint64_t key[TMA_MERGE_SLOTS];
} tma_merge;

void tma_merge_init(tma_merge *m);

/* A key for a box: BASE (the tensor's global address), its RANK
 * coordinates COORD and its shape BOX. */
uint64_t tma_merge_box(uint64_t base, unsigned rank, const int64_t *coord, const unsigned *box);

/* Block BLOCK issues box BOX as its SEQ-th tensor load: 1 if a CTA of its
 * domain issued the same box as its SEQ-th (this one shares that read), 0
 * if not (it is recorded). */
int tma_merge_shared(tma_merge *m, uint64_t block, uint64_t seq, uint64_t box);

#endif
