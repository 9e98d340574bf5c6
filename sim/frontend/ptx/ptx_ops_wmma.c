/* The WMMA API's instructions: wmma.load.{a,b,c}, wmma.store.d and
 * wmma.mma for the shapes and types nvcc emits for sm_80 and sm_90:
 * m16n16k16, m32n8k16 and m8n32k16 (f16, bf16, s8, u8), m16n16k8 (tf32)
 * and m8n8k4 (f64).
 *
 * PTX leaves a fragment's layout to the implementation; this one is the
 * H100's, measured: tests/kernels/wmma.cu's kernels, run on the H100 by
 * gpu/run_wmma.sh, give every fragment element's place for every shape,
 * type and layout, and the SASS ptxas makes of them
 * (gpu/results/h100/wmma).  A wmma.mma is two HMMA.16816 (f16, bf16), two
 * IMMA.16816 (8-bit), four HMMA.1684 (tf32) or one DMMA.884, and the
 * fragments are those instructions' operands: m32n8k16 is two m16n8k16
 * stacked (A's and C's rows 0-15, then 16-31; B shared); m8n32k16 is
 * m32n8k16 transposed (D^T = B^T A^T).  An f16 A or B fragment has eight
 * registers in PTX however many distinct ones it holds; the rest are
 * copies.  A load moves what those instructions read:
 *
 *   .shared A or B of 16-bit types: LDSM.x4 for each four registers (.x2
 *   for two; .trans where the pairs run across the memory's rows); of
 *   8-bit types whose registers are four bytes in a row: LDSM.x2 for each
 *   two registers (.x1 for one)
 *   otherwise: a 4-byte load a register (a/b), an 8-byte load a pair of
 *   accumulators in one row (c, d: LDS.64, LDG.E.64, STS.64), 8 bytes a
 *   double (f64 a/b), 16 bytes a pair of doubles (f64 c, d)
 *
 * each lane's elements at base + (row * ldm + col) * size for the row
 * layout, (col * ldm + row) * size for the column one.  Where a unit's
 * elements are not contiguous in memory: a pair of 16-bit elements is
 * loaded (stored) as the pair of the transposed 8x8 block, which is, and
 * a MOVM.16.MT88 transposes the block; 8-bit and 32-bit elements are each
 * their own access. */
#include <string.h>

#include "frontend/mma.h"
#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

/* shapes (pinst.sub >> 4) and element kinds (pinst.sub2) */
enum { WS_16816, WS_16168, WS_884, WS_32816, WS_83216 };
enum { WK_F16, WK_BF16, WK_TF32, WK_S8, WK_U8, WK_F64, WK_F32, WK_S32 };
/* which matrix (pinst.sub & 3) and its layout (pinst.sub & 4: column-major) */
enum { WM_A, WM_B, WM_C };
#define W_COL 4

static unsigned esize(unsigned k) { return k == WK_F16 || k == WK_BF16 ? 2 : k == WK_S8 || k == WK_U8 ? 1 : k == WK_F64 ? 8 : 4; }
static int byte_kind(unsigned k) { return k == WK_S8 || k == WK_U8; }

/* Element E of lane T's fragment of matrix MAT of m32n8k16: its row and
 * column (A: 32 x 16, B: 16 x 8, C: 32 x 8).  Two m16n8k16 instructions:
 * A's rows 0-15 and 16-31, B shared, C's rows 0-15 and 16-31. */
static void elem_32816(unsigned kind, unsigned mat, unsigned g, unsigned q, unsigned e, unsigned *row, unsigned *col,
                       unsigned *reg)
{
    if (mat == WM_C) {
        *row = g + 8 * (e >> 1), *col = 2 * q + (e & 1);
        *reg = kind == WK_F16 ? e / 2 : e;
    } else if (byte_kind(kind)) {            /* four bytes a register */
        *reg = e / 4;
        if (mat == WM_A) *row = g + 8 * (e / 4), *col = 4 * q + e % 4;
        else *row = 4 * q + e % 4, *col = g;
    } else {                                 /* two 16-bit elements a register */
        unsigned j = e / 2, h = e & 1;
        *reg = j;
        if (mat == WM_A) *row = g + 8 * (j & 1) + 16 * (j >> 2), *col = 2 * q + h + 8 * ((j >> 1) & 1);
        else *row = 2 * q + h + 8 * j, *col = g;
    }
}

/* Element E of lane T's fragment of matrix MAT (A: M x K, B: K x N, C: M x
 * N): its row and column in the matrix; E counts the fragment's distinct
 * elements, register by register, low bits first.  *REG: its register.
 * m8n32k16 is m32n8k16 transposed (the H100 computes D^T = B^T A^T): its A
 * is m32n8k16's B of A^T, its B m32n8k16's A of B^T, its C m32n8k16's C
 * transposed. */
static void elem_at(unsigned sh, unsigned kind, unsigned mat, unsigned t, unsigned e, unsigned *row, unsigned *col,
                    unsigned *reg)
{
    unsigned g = t >> 2, q = t & 3;
    if (sh == WS_884) {
        if (mat == WM_A) *row = g, *col = q, *reg = 0;
        else if (mat == WM_B) *row = q, *col = g, *reg = 0;
        else *row = g, *col = 2 * q + e, *reg = e;
        return;
    }
    if (sh == WS_32816) {
        elem_32816(kind, mat, g, q, e, row, col, reg);
        return;
    }
    if (sh == WS_83216) {
        elem_32816(kind, mat == WM_A ? WM_B : mat == WM_B ? WM_A : WM_C, g, q, e, col, row, reg);
        return;
    }
    if (mat == WM_C) {                       /* two m16n8 accumulators: [0..3] columns 0-7, [4..7] 8-15 */
        unsigned i = e & 3;
        *row = g + 8 * (i >> 1), *col = 2 * q + (i & 1) + 8 * (e >> 2);
        *reg = kind == WK_F16 ? e / 2 : e;
        return;
    }
    if (sh == WS_16168) {                    /* tf32: four m16n8k4 operands, one element a register */
        *reg = e;
        if (mat == WM_A) *row = g + 8 * (e & 1), *col = q + 4 * (e >> 1);
        else *row = q + 4 * (e & 1), *col = g + 8 * (e >> 1);
        return;
    }
    if (byte_kind(kind)) {                   /* four bytes a register, two registers */
        *reg = e / 4;
        if (mat == WM_A) *row = g + 8 * (e / 4), *col = 4 * q + e % 4;
        else *row = 4 * q + e % 4, *col = g + 8 * (e / 4);
        return;
    }
    /* 16-bit: two a register, four registers, as m16n8k16's A and B */
    unsigned j = e / 2, h = e & 1;
    *reg = j;
    if (mat == WM_A) *row = g + 8 * (j & 1), *col = 2 * q + h + 8 * (j >> 1);
    else *row = 2 * q + h + 8 * (j & 1), *col = g + 8 * (j >> 1);
}

/* Distinct elements a lane holds (the matrix's elements / 32). */
static unsigned frag_elems(unsigned sh, unsigned mat)
{
    if (sh == WS_884) return mat == WM_C ? 2 : 1;
    if (mat == WM_C) return 8;
    if (sh == WS_16168) return 4;
    if (sh == WS_32816) return mat == WM_A ? 16 : 4;
    if (sh == WS_83216) return mat == WM_A ? 4 : 16;
    return 8;
}

/* The registers PTX gives the fragment: a 16-bit A or B of f16 always has
 * eight (copies of the distinct ones after those), of bf16 as many as it
 * has distinct ones. */
static unsigned frag_regs(unsigned sh, unsigned kind, unsigned mat)
{
    if (sh == WS_884) return mat == WM_C ? 2 : 1;
    if (mat == WM_C) return kind == WK_F16 ? 4 : 8;
    if (sh == WS_16168) return 4;
    unsigned distinct = frag_elems(sh, mat) * esize(kind) / 4;
    return kind == WK_F16 ? 8 : distinct;
}

/* Elements a memory access moves together (registers, or pairs of accumulators). */
static unsigned unit_elems(unsigned sh, unsigned kind, unsigned mat)
{
    if (sh == WS_884) return mat == WM_C ? 2 : 1;
    if (mat == WM_C) return 2;
    if (sh == WS_16168) return 1;
    return byte_kind(kind) ? 4 : 2;
}

typedef struct {
    uint64_t addr[32];
    unsigned char *p[32];
    uint64_t rep[32];
    int space;
} lanes_at;

/* The address of element (ROW, COL) for lane L. */
static uint64_t elem_addr(const pinst *in, uint64_t base, uint64_t ldm, unsigned row, unsigned col, unsigned esz)
{
    return (in->sub & W_COL) ? base + ((uint64_t)col * ldm + row) * esz : base + ((uint64_t)row * ldm + col) * esz;
}

/* Emit one request of SIZE-byte lanes at the reported addresses A; a
 * generic fragment is LD.E/ST.E in the SASS: ncu's op_generic, not
 * op_global or op_shared, so it counts no memory instruction here. */
static int request(pctx *x, const pwarp *w, const pinst *in, coalsim_op op, coalsim_space sp, unsigned size, uint32_t mask,
                   const uint64_t *a)
{
    if (in->space != SP_GENERIC) x->exec.inst_mem[sp][op]++;
    return ptx_emit(x, w, in, op, sp, size, mask, a);
}

/* The SASS instructions a wmma instruction is beyond its one PTX
 * instruction (the loads and stores it becomes, its HMMAs): counted as
 * the GPU issues them. */
static void extra_sass(pctx *x, unsigned n)
{
    if (n > 1) x->exec.inst_executed += n - 1, x->exec.thread_inst_executed += 32 * (uint64_t)(n - 1);
}

/* Whether elements E0..E0+N-1 of every lane are consecutive in memory,
 * the first aligned to their size together. */
static int contiguous_unit(uint64_t eaddr[32][16], unsigned e0, unsigned n, unsigned esz)
{
    for (int l = 0; l < 32; l++) {
        if (eaddr[l][e0] % (n * esz)) return 0;
        for (unsigned e = e0 + 1; e < e0 + n; e++)
            if (eaddr[l][e] != eaddr[l][e0] + (e - e0) * esz) return 0;
    }
    return 1;
}

/* Load or store (ST) the fragment: values between memory and the registers
 * xslots[0..), the requests as the SASS makes them. */
static int move(pctx *x, pwarp *w, const pinst *in, uint32_t m, int st)
{
    if (ptx_whole_warp(x, w, in, m, "wmma") != 0) return -1;
    unsigned sh = in->sub >> 4, kind = in->sub2, mat = in->sub & 3, esz = esize(kind);
    unsigned ne = frag_elems(sh, mat), nr = frag_regs(sh, kind, mat), unit = unit_elems(sh, kind, mat);
    const uint32_t *xs = ptx_xslots(w, in);
    uint64_t ldm = in->b != UINT32_MAX ? (uint32_t)SLOT(w, in->b)[0] : 0;
    uint64_t base[32];
    int space = -1;
    for (int l = 0; l < 32; l++) {
        base[l] = ptx_lane_addr(w, in, l, 0);
        if (in->b != UINT32_MAX && (uint32_t)SLOT(w, in->b)[l] != ldm)
            return ptx_fail(x, in, "lanes give different strides (%llu, lane %d: %u): a wmma stride is one for the warp",
                            (unsigned long long)ldm, l, (unsigned)SLOT(w, in->b)[l]);
        if (base[l] != base[0])
            return ptx_fail(x, in, "lanes give different addresses (lane %d): a wmma address is one for the warp", l);
    }
    if ((ldm * esz) % 16 || !ldm)
        return ptx_fail(x, in, "stride %llu elements (%llu bytes) is not a multiple of 16 bytes (warp %u)",
                        (unsigned long long)ldm, (unsigned long long)(ldm * esz), w->index);
    /* every element's place, and which space the fragment is in */
    unsigned char *ep[32][16];
    uint64_t erep[32][16], eaddr[32][16];
    for (unsigned e = 0; e < ne; e++)
        for (int l = 0; l < 32; l++) {
            unsigned r, c, reg;
            elem_at(sh, kind, mat, (unsigned)l, e, &r, &c, &reg);
            eaddr[l][e] = elem_addr(in, base[0], ldm, r, c, esz);
            int sp;
            if (ptx_locate(x, w, in, in->space, eaddr[l][e], esz, l, &ep[l][e], &erep[l][e], &sp) != 0) return -1;
            if (space < 0) space = sp;
            else if (sp != space) return ptx_fail(x, in, "a fragment that spans two memory spaces");
        }
    if (space != COALSIM_GLOBAL && space != COALSIM_SHARED)
        return ptx_fail(x, in, "a wmma fragment in %s memory", space == COALSIM_LOCAL ? "local" : "constant");
    /* the requests */
    coalsim_op op = st ? COALSIM_ST : COALSIM_LD;
    unsigned made = 0;     /* SASS instructions: one a request, one a MOVM */
    unsigned per = esz <= 2 ? 4 / esz : 1, nreg = esz <= 2 ? ne / per : 0;
    int ldsm = !st && mat != WM_C && in->space == SP_SHARED && (sh == WS_16816 || sh == WS_32816 || sh == WS_83216);
    int trans = ldsm && !contiguous_unit(eaddr, 0, per, esz);
    if (ldsm && trans && esz == 1) ldsm = 0;
    if (ldsm) {
        /* LDSM: register k's 8x8 block of 16-bit elements (8-bit: 8 x 16)
         * is a matrix; row i of it is, as the registers hold it, lane 4i's
         * (.trans: column i, lane i/2's element i&1), one 16-byte row in
         * memory.  One LDSM a MMA operand: 16-bit registers 0-3 are one
         * LDSM.x4, 4-7 another (fewer: .x2); 8-bit ones go two a LDSM.x2
         * (one: .x1), as ptxas makes them on the H100.  8-bit elements that
         * are not a register's four in a row are loaded one by one
         * (LDS.U8). */
        unsigned most = esz == 2 ? 4 : 2;
        for (unsigned k0 = 0; k0 < nreg; k0 += most) {
            unsigned n = nreg - k0 < most ? nreg - k0 : most;
            uint64_t rows[32] = {0};
            for (unsigned l = 0; l < 8 * n; l++) {
                unsigned k = k0 + l / 8, i = l % 8;
                uint64_t a = trans ? eaddr[i / 2][k * per + (i & 1)] : eaddr[4 * i][k * per];
                unsigned char *pp;
                int sp;
                if (ptx_locate(x, w, in, in->space, a, 16, (int)l, &pp, &rows[l], &sp) != 0) return -1;
            }
            made++;
            if (request(x, w, in, COALSIM_LDSM, COALSIM_SHARED, 16, n == 4 ? 0xffffffffu : n == 2 ? 0xffffu : 0xffu, rows))
                return -1;
        }
    }
    for (unsigned e0 = 0; e0 < ne && !ldsm; e0 += unit) {
        if (contiguous_unit(eaddr, e0, unit, esz)) {
            uint64_t a[32];
            for (int l = 0; l < 32; l++) a[l] = erep[l][e0];
            if (request(x, w, in, op, (coalsim_space)space, unit * esz, 0xffffffffu, a) != 0) return -1;
            made++;
            continue;
        }
        if (esz == 2 && unit == 2) {
            /* a pair of 16-bit elements across the memory's rows: the pair
             * of the transposed 8x8 block is loaded (stored) and MOVM.MT88
             * transposes the block (ptxas's code on the H100) */
            uint64_t a[32];
            for (int l = 0; l < 32; l++) {
                unsigned g = (unsigned)l >> 2, q = (unsigned)l & 3, r, c, r1, c1, reg, tr, tc;
                elem_at(sh, kind, mat, (unsigned)l, e0, &r, &c, &reg);
                elem_at(sh, kind, mat, (unsigned)l, e0 + 1, &r1, &c1, &reg);
                if (c1 == c + 1) tr = r - g + 2 * q, tc = c - 2 * q + g;
                else tr = r - 2 * q + g, tc = c - g + 2 * q;
                unsigned char *pp;
                int sp;
                if (ptx_locate(x, w, in, in->space, elem_addr(in, base[0], ldm, tr, tc, esz), 4, l, &pp, &a[l], &sp)) return -1;
            }
            if (request(x, w, in, op, (coalsim_space)space, 4, 0xffffffffu, a) != 0) return -1;
            made += 2;
            continue;
        }
        for (unsigned e = e0; e < e0 + unit; e++) {
            uint64_t a[32];
            for (int l = 0; l < 32; l++) a[l] = erep[l][e];
            if (request(x, w, in, op, (coalsim_space)space, esz, 0xffffffffu, a) != 0) return -1;
            made++;
        }
    }
    extra_sass(x, made);
    /* the values */
    for (int l = 0; l < 32; l++) {
        uint64_t regs[8] = {0};
        if (st)
            for (unsigned k = 0; k < nr; k++) regs[k] = SLOT(w, xs[k])[l];
        for (unsigned e = 0; e < ne; e++) {
            unsigned r, c, reg;
            elem_at(sh, kind, mat, (unsigned)l, e, &r, &c, &reg);
            unsigned shift = esz >= 4 ? 0 : 8 * esz * (e % (4 / esz));
            if (st) {
                uint64_t v = esz == 8 ? regs[reg] : regs[reg] >> shift;
                memcpy(ep[l][e], &v, esz);
            } else {
                uint64_t v = 0;
                memcpy(&v, ep[l][e], esz);
                regs[reg] |= v << shift;
            }
        }
        if (!st) {
            unsigned distinct = (ne * esz + 3) / 4;        /* registers that hold distinct elements */
            if (esz == 8) distinct = ne;
            if (mat == WM_C && esz == 4) distinct = 8;
            for (unsigned k = 0; k < nr; k++) SLOT(w, xs[k])[l] = regs[k < distinct ? k : k % distinct];
        }
    }
    return 0;
}

HANDLER(wmma_load) { return move(x, w, in, m, 0); }
HANDLER(wmma_store) { return move(x, w, in, m, 1); }

/* wmma.mma: D = A B + C, as the SASS does it (mma.h's instructions on the
 * fragments' registers): m16n16k16 two m16n8k16 (columns 0-7 and 8-15, A's
 * registers shared), m16n16k8 tf32 four m16n8k4 (two k halves a column
 * half), m8n8k4 one.  sub2: the input kind; type: the accumulator's
 * (PT_F32, PT_F16X2, PT_S32, PT_F64); xslots: d, a, b, c. */
HANDLER(wmma_mma)
{
    if (ptx_whole_warp(x, w, in, m, "wmma") != 0) return -1;
    unsigned sh = in->sub >> 4, kind = in->sub2;
    ptype acc = (ptype)in->type;
    unsigned ckind = acc == PT_F16X2 ? WK_F16 : acc == PT_S32 ? WK_S32 : acc == PT_F64 ? WK_F64 : WK_F32;
    unsigned nd = frag_regs(sh, ckind, WM_C), na = frag_regs(sh, kind, WM_A), nb = frag_regs(sh, kind, WM_B);
    const uint32_t *xs = ptx_xslots(w, in);
    mma_kind mk = kind == WK_F16 ? MMA_F16 : kind == WK_BF16 ? MMA_BF16 : kind == WK_TF32 ? MMA_TF32
                : kind == WK_S8 ? MMA_S8 : kind == WK_U8 ? MMA_U8 : MMA_F64;
    mma_acc ma = acc == PT_F16X2 ? MMA_ACC_F16 : acc == PT_S32 ? MMA_ACC_S32 : acc == PT_F64 ? MMA_ACC_F64 : MMA_ACC_F32;
    /* the registers as 32-bit words (an f64 two) */
    uint32_t A[8][32], B[8][32], C[8][32], D[8][32];
    int wide = sh == WS_884;
    struct { uint32_t (*dst)[32]; unsigned first, n; } ops[3] = {{A, nd, na}, {B, nd + na, nb}, {C, nd + na + nb, nd}};
    for (int o = 0; o < 3; o++)
        for (unsigned k = 0; k < ops[o].n; k++) {
            const uint64_t *S = SLOT(w, xs[ops[o].first + k]);
            for (int t = 0; t < 32; t++) {
                if (wide) ops[o].dst[2 * k][t] = (uint32_t)S[t], ops[o].dst[2 * k + 1][t] = (uint32_t)(S[t] >> 32);
                else ops[o].dst[k][t] = (uint32_t)S[t];
            }
        }
    if (sh == WS_884) {
        mma_run(MMA_884, mk, ma, 0, A, B, C, D);
    } else if (sh == WS_16816) {
        /* column half h: B's registers 2h, 2h+1 (16-bit) or h (8-bit); C's half its own */
        unsigned bper = byte_kind(kind) ? 1 : 2, cper = nd / 2;
        for (unsigned h = 0; h < 2; h++) mma_run(MMA_16816, mk, ma, 0, A, B + h * bper, C + h * cper, D + h * cper);
    } else if (sh == WS_32816 || sh == WS_83216) {
        /* row half h of m32n8k16: A's registers 4h.. (16-bit) or 2h.. (8-bit),
         * B whole, C's half its own; m8n32k16 the same on B^T and A^T (its
         * fragments are m32n8k16's transposed: D^T = B^T A^T) */
        unsigned aper = byte_kind(kind) ? 2 : 4, cper = nd / 2;
        uint32_t (*X)[32] = sh == WS_32816 ? A : B, (*Y)[32] = sh == WS_32816 ? B : A;
        for (unsigned h = 0; h < 2; h++) mma_run(MMA_16816, mk, ma, 0, X + h * aper, Y, C + h * cper, D + h * cper);
    } else {
        /* tf32: B's register 2h + kk is column half h's k half kk; A's 2kk, 2kk+1 k half kk */
        for (unsigned h = 0; h < 2; h++) {
            mma_run(MMA_1684, mk, ma, 0, A, B + 2 * h, C + 4 * h, D + 4 * h);
            mma_run(MMA_1684, mk, ma, 0, A + 2, B + 2 * h + 1, D + 4 * h, D + 4 * h);
        }
    }
    for (unsigned k = 0; k < nd; k++) {
        uint64_t *Dst = SLOT(w, xs[k]);
        for (int t = 0; t < 32; t++) Dst[t] = wide ? ((uint64_t)D[2 * k + 1][t] << 32 | D[2 * k][t]) : D[k][t];
    }
    /* the SASS: two HMMA.16816 or IMMA.16816, four HMMA.1684, one DMMA */
    unsigned n = sh == WS_16168 ? 4 : sh == WS_884 ? 1 : 2;
    x->exec.inst_mma[byte_kind(kind) ? 1 : kind == WK_F64 ? 2 : 0] += n;
    extra_sass(x, n);
    return 0;
}

/* ---- decoding ---- */

static int kind_of(const char *s)
{
    static const char *const names[] = {"f16", "bf16", "tf32", "s8", "u8", "f64", "f32", "s32"};
    for (int k = 0; k < 8; k++)
        if (!strcmp(s, names[k])) return k;
    return -1;
}

static int shape_of(const raw_inst *ri)
{
    if (ptx_has_mod(ri, "m16n16k16")) return WS_16816;
    if (ptx_has_mod(ri, "m32n8k16")) return WS_32816;
    if (ptx_has_mod(ri, "m8n32k16")) return WS_83216;
    if (ptx_has_mod(ri, "m16n16k8")) return WS_16168;
    if (ptx_has_mod(ri, "m8n8k4")) return WS_884;
    return -1;
}

/* Append operand K's registers to F's xslots: WANT of them. */
static int slots(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, int dst, ptype t, unsigned want, char *err,
                 size_t cap)
{
    unsigned got;
    if (ptx_dec_xslots(p, f, ri, k, dst, t, &got, err, cap)) return -1;
    if (got != want) return ptx_dec_fail(p, ri, err, cap, "operand %u has %u registers; this fragment has %u", k + 1, got, want);
    return 0;
}

/* wmma.load.{a,b,c}.sync.aligned.LAYOUT.SHAPE{.space}.TYPE {regs}, [p]{, stride}
 * wmma.store.d.sync.aligned.LAYOUT.SHAPE{.space}.TYPE [p], {regs}{, stride} */
static int dec_move(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap, int st)
{
    in->kind = K_MEM;
    in->cs_space = -1;                 /* counted request by request (they are several SASS instructions) */
    in->b = UINT32_MAX;
    int mat = ptx_has_mod(ri, "a") ? WM_A : ptx_has_mod(ri, "b") ? WM_B : WM_C;
    int sh = shape_of(ri), kind = -1;
    for (unsigned k = 0; k < ri->nmods; k++)
        if (kind_of(ri->mods[k]) >= 0) kind = kind_of(ri->mods[k]);
    int sp = SP_GENERIC;
    for (unsigned k = 0; k < ri->nmods; k++) {
        if (!strcmp(ri->mods[k], "shared") || !strcmp(ri->mods[k], "shared::cta")) sp = SP_SHARED;
        if (!strcmp(ri->mods[k], "global")) sp = SP_GLOBAL;
    }
    in->space = (uint8_t)sp;
    if (ri->nops < 2 || ri->nops > 3) return ptx_dec_fail(p, ri, err, cap, "needs 2 or 3 operands");
    if (sh < 0 || kind < 0 || (!ptx_has_mod(ri, "row") && !ptx_has_mod(ri, "col"))) return 0;   /* an error if it runs */
    /* the types each shape has */
    int k16 = sh == WS_16816 || sh == WS_32816 || sh == WS_83216;
    int ok = k16 ? (mat == WM_C ? kind == WK_F16 || kind == WK_F32 || kind == WK_S32
                                           : kind == WK_F16 || kind == WK_BF16 || kind == WK_S8 || kind == WK_U8)
           : sh == WS_16168 ? (mat == WM_C ? kind == WK_F32 : kind == WK_TF32) : kind == WK_F64;
    if (!ok) return 0;
    in->sub = (uint8_t)(sh << 4 | mat | (ptx_has_mod(ri, "col") ? W_COL : 0));
    in->sub2 = (uint8_t)kind;
    in->xs = f->nxslots;
    unsigned nr = frag_regs((unsigned)sh, (unsigned)kind, (unsigned)mat);
    ptype t = kind == WK_F64 ? PT_F64 : PT_B32;
    if (slots(p, f, ri, st ? 1 : 0, !st, t, nr, err, cap)) return -1;
    in->nxs = nr;
    if (ptx_dec_addr(p, f, ri, st ? 0 : 1, in, err, cap)) return -1;
    if (ri->nops == 3 && ptx_dec_src(p, f, ri, 2, PT_U32, &in->b, err, cap)) return -1;
    if (ri->nops == 2) return ptx_dec_fail(p, ri, err, cap, "needs the stride (the leading dimension)");
    in->fn = st ? wmma_store : wmma_load;
    return 0;
}

/* wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.DTYPE.CTYPE (f16 inputs), or
 * .s32.{s8,u8}.{s8,u8}.s32, .f32.{bf16,tf32}.X.f32, .f64.f64.f64.f64{.rn} */
DECODE(dec_wmma)
{
    if (ptx_has_mod(ri, "load")) return dec_move(p, f, ri, in, err, cap, 0);
    if (ptx_has_mod(ri, "store")) return dec_move(p, f, ri, in, err, cap, 1);
    in->kind = K_OP;
    if (!ptx_has_mod(ri, "mma")) return 0;
    if (ri->nops != 4) return ptx_dec_fail(p, ri, err, cap, "needs 4 operands (d, a, b, c)");
    int sh = shape_of(ri);
    int kinds[4], nk = 0;
    for (unsigned k = 0; k < ri->nmods && nk < 4; k++)
        if (kind_of(ri->mods[k]) >= 0) kinds[nk++] = kind_of(ri->mods[k]);
    /* layouts: A row, B col is what the fragments were loaded for (row/col in the instruction) */
    if (sh < 0 || (nk != 2 && nk != 4)) return 0;
    int in_kind, dk = kinds[0], ck = kinds[nk - 1];
    if (nk == 2) in_kind = WK_F16;                 /* .dtype.ctype: f16 inputs */
    else if (kinds[1] != kinds[2]) return 0;
    else in_kind = kinds[1];
    if (dk != ck) return 0;
    ptype acc = dk == WK_F32 ? PT_F32 : dk == WK_F16 ? PT_F16X2 : dk == WK_S32 ? PT_S32 : dk == WK_F64 ? PT_F64 : PT_NONE;
    int k16 = sh == WS_16816 || sh == WS_32816 || sh == WS_83216;
    int ok = k16 ? ((in_kind == WK_F16 && (acc == PT_F32 || acc == PT_F16X2)) || (in_kind == WK_BF16 && acc == PT_F32) ||
                               ((in_kind == WK_S8 || in_kind == WK_U8) && acc == PT_S32))
           : sh == WS_16168 ? in_kind == WK_TF32 && acc == PT_F32 : in_kind == WK_F64 && acc == PT_F64;
    /* the layouts in the mnemonic must be those of the fragments: A row, B col
     * (the fragments of other layouts hold the same elements here: they are
     * loaded into one layout whatever the memory's) */
    if (!ok) return 0;
    in->sub = (uint8_t)(sh << 4);
    in->sub2 = (uint8_t)in_kind;
    in->type = (uint8_t)acc;
    unsigned ckind = acc == PT_F16X2 ? WK_F16 : acc == PT_S32 ? WK_S32 : acc == PT_F64 ? WK_F64 : WK_F32;
    unsigned nd = frag_regs((unsigned)sh, ckind, WM_C), na = frag_regs((unsigned)sh, (unsigned)in_kind, WM_A),
             nb = frag_regs((unsigned)sh, (unsigned)in_kind, WM_B);
    ptype rt = acc == PT_F64 ? PT_F64 : PT_B32, it = in_kind == WK_F64 ? PT_F64 : PT_B32;
    in->xs = f->nxslots;
    if (slots(p, f, ri, 0, 1, rt, nd, err, cap) || slots(p, f, ri, 1, 0, it, na, err, cap) ||
        slots(p, f, ri, 2, 0, it, nb, err, cap) || slots(p, f, ri, 3, 0, rt, nd, err, cap))
        return -1;
    in->nxs = 2 * nd + na + nb;
    in->fn = wmma_mma;
    return 0;
}

const pop_entry ptx_ops_wmma[] = {{"wmma", dec_wmma}, {NULL, NULL}};
