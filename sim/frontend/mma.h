/* One warp's tensor-core multiply-accumulate, D = A B + C, as PTX's
 * mma.sync and SASS's HMMA, IMMA and DMMA compute it, the operands in the
 * fragment layouts of the PTX ISA ("Matrix Fragments for mma.m16n8k16",
 * ...), which are the SASS instructions' register layouts.  Both front
 * ends call it (ptx_ops_matrix.c, sass_ops_matrix.c). */
#ifndef COALSIM_MMA_H
#define COALSIM_MMA_H

#include <stdint.h>

typedef enum { MMA_16816, MMA_1688, MMA_16832, MMA_884, MMA_1684, MMA_SHAPES } mma_shape;
typedef enum { MMA_F16, MMA_BF16, MMA_TF32, MMA_S8, MMA_U8, MMA_F64 } mma_kind;
typedef enum { MMA_ACC_F32, MMA_ACC_F16, MMA_ACC_S32, MMA_ACC_F64 } mma_acc;

/* M, N, K of SH. */
void mma_dims(mma_shape sh, unsigned *m, unsigned *n, unsigned *k);
/* The 32-bit registers a lane gives for A, B and C (and gets for D): an
 * f64 takes two, f16 pairs and 8-bit quads share one.  Returns 0, or -1 if
 * the shape has no such kind and accumulator (the PTX ISA's combinations). */
int mma_words(mma_shape sh, mma_kind k, mma_acc acc, unsigned *na, unsigned *nb, unsigned *nc);
/* D = A B + C for the warp: register r of lane l at X[r][l] (an f64's low
 * word first).  Products are exact, sums in double, rounded once to the
 * accumulator's type (an f16 one too); integer sums wrap at 32
 * bits, or saturate with SAT; tf32 inputs are read to their 19 bits, as the
 * tensor cores read them.  D may be C. */
void mma_run(mma_shape sh, mma_kind k, mma_acc acc, int sat, const uint32_t (*a)[32], const uint32_t (*b)[32],
             const uint32_t (*c)[32], uint32_t (*d)[32]);

/* ldmatrix: the N registers a lane gets (REGS[k][lane]) from the rows of N
 * 8x8 matrices of 16-bit elements (ROWS[8k + r][c]: row r of matrix k):
 * lane t gets row t/4's elements 2(t%4) and 2(t%4)+1, of the transposed
 * matrix with TRANS.  stmatrix: the rows the registers make. */
void mma_ldsm(const uint16_t (*rows)[8], unsigned n, int trans, uint32_t (*regs)[32]);
void mma_stsm(const uint32_t (*regs)[32], unsigned n, int trans, uint16_t (*rows)[8]);
/* movmatrix.m8n8.trans.b16 (SASS MOVM.16.MT88): the warp's 8x8 matrix of
 * 16-bit elements (lane t's word: row t/4, columns 2(t%4), +1, low half
 * first) in A, transposed, in D. */
void mma_movm(const uint32_t a[32], uint32_t d[32]);

#endif
