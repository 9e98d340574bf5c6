/* Hopper's warpgroup MMA (wgmma.mma_async; SASS HGMMA, IGMMA, QGMMA):
 * D (64 x N) = A (64 x K) B (K x N) + D, by the four warps of a warpgroup,
 * warp r of the group holding rows 16r..16r+15 of A and D.  A comes from
 * registers or, like B, from shared memory through a 64-bit descriptor
 * (PTX ISA "Matrix Descriptor Format" for wgmma; CUTLASS's GmmaDescriptor):
 *
 *   bits  0-13  start address >> 4        bits 32-45  stride byte offset (SBO) >> 4
 *   bits 16-29  leading byte offset >> 4  bits 49-51  base offset   bits 62-63  swizzle:
 *                                                     0 none, 1 128B, 2 64B, 3 32B
 *
 * The operand is read as CuTe's canonical layouts say (W = the swizzle's
 * bytes / 16, 1 with none; T = elements in 16 bytes), then the swizzle
 * moves the 16-byte piece (address bits 4.. XOR bits 7..), the same
 * function of the address that TMA's swizzled writes use (tmap.h):
 *
 *   K-major (a row of K per M or N):  none:  start + (mn%8)*16 + (mn/8)*SBO + (kb/16)*LBO + kb%16
 *                                     else:  start + (mn%8)*16W + (mn/8)*SBO + kb      (kb: the byte of k, < 32)
 *   MN-major (16-bit types only):     none:  start + (mn/T)*SBO + (k%8)*16 + (k/8)*LBO + (mn%T)*2
 *                                     else:  start + (mn%T)*2 + ((mn/T)%W)*16 + ((mn/T)/W)*LBO + (k%8)*16W + (k/8)*SBO
 *
 * Both front ends use it (ptx_ops_wgmma.c, sass_ops_async.c).  Register
 * fragments (per warp, g = lane / 4, q = lane % 4), as the PTX ISA's figures
 * for wgmma, which are mma.sync's for m16 (SASS keeps them in consecutive
 * registers in the same order: HGMMA R24 holds D's register 0 in R24):
 *   D, f32 or s32, N/2 registers: register i is row g + 8((i%4)/2), column 8(i/4) + 2q + i%2
 *   D, f16, N/4 registers (pairs): register i is row g + 8(i%2), columns 8(i/2) + 2q, +1
 *   A in registers, 4: register r is row g + 8(r%2), columns (16-bit) 2q + 8(r/2), +1;
 *                      (tf32) q + 4(r/2); (8-bit) 4q + 16(r/2) .. +3 */
#ifndef COALSIM_GMMA_H
#define COALSIM_GMMA_H

#include <stdint.h>

typedef enum { GMMA_F16, GMMA_BF16, GMMA_TF32, GMMA_E4M3, GMMA_E5M2, GMMA_S8, GMMA_U8, GMMA_TYPES } gmma_type;
typedef enum { GMMA_ACC_F32, GMMA_ACC_F16, GMMA_ACC_S32 } gmma_acc;

/* Bytes of one element of T (tf32 is 4), and the K of one instruction
 * (32 bytes of K: 16 for 16-bit types, 8 for tf32, 32 for 8-bit ones). */
unsigned gmma_type_bytes(gmma_type t);
unsigned gmma_k(gmma_type t);

/* NULL if coalsim reads descriptor DESC, else a static sentence why not. */
const char *gmma_desc_check(uint64_t desc);

/* The shared-memory byte address of element (MN, K) of the operand DESC
 * describes (MN_MAJOR: stored with MN contiguous; elements of EB bytes). */
uint32_t gmma_elem_addr(uint64_t desc, int mn_major, unsigned eb, unsigned mn, unsigned k);

/* An element's value from its bits. */
double gmma_value(gmma_type t, uint32_t bits);

/* One warp's part: D[16][N] = sa*A[16][K] x sb*B[K][N] + (scale_d ? C : 0),
 * A and B as values, C and D as the accumulator's bits (an f32's, an
 * s32's, or a half's in the low 16).  Products are exact, sums in double
 * (integers in 64 bits, wrapped to 32 or saturated with SAT) and rounded
 * once to the accumulator's type. */
void gmma_run(gmma_acc acc, unsigned n, unsigned k, const double *a, const double *b, int scale_d, int sat,
              const uint32_t *c, uint32_t *d);

/* One wgmma as both interpreters decode it. */
typedef struct gmma_inst {
    gmma_type ta, tb;          /* A's and B's element types (s8 x u8, e4m3 x e5m2 mix) */
    gmma_acc acc;
    unsigned n;
    int trans_a, trans_b;      /* MN-major A, B */
    int reg_a, neg_a, neg_b, sat, scale_d;
    uint64_t da, db;           /* the descriptors (da unused with reg_a) */
} gmma_inst;

/* D's registers a lane: N/2, N/4 for an f16 accumulator. */
unsigned gmma_dregs(gmma_acc acc, unsigned n);

/* Warp RANK (0-3) of a warpgroup: its 16 rows of G's product.  AREG: A's
 * 4 registers of 32 lanes (with reg_a); D: gmma_dregs registers of 32
 * lanes, the accumulator in, the result out.  Descriptor addresses are
 * offsets into SMEM (SMEM_BYTES of it).  NULL, or a static sentence with
 * *BAD the shared address that is out of range. */
const char *gmma_warp_rows(const gmma_inst *g, unsigned rank, const unsigned char *smem, uint64_t smem_bytes,
                           const uint32_t (*areg)[32], uint32_t (*d)[32], uint32_t *bad);

#endif
