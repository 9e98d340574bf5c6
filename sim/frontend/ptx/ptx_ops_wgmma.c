/* Warpgroup MMA: wgmma.mma_async and its fence, commit_group and
 * wait_group (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-
 * Accumulate").  gmma.h reads the operands and does the arithmetic; here
 * are the operands' registers.  Each warp computes its 16 rows of D when
 * it issues the instruction (warp r of a warpgroup, r = warp index % 4,
 * owns rows 16r..16r+15): its rows of A and all of B are what it reads,
 * so no warp needs another's registers.  The product is there at once,
 * so commit_group and wait_group wait for nothing; a kernel that reads D
 * or overwrites the tiles before its wait has a race on the GPU, not here.
 * The register fragments are gmma.h's.  wgmma's reads of shared memory do not pass through the LSU, so they make
 * no request (and no l1tex__data_pipe_lsu wavefront). */
#include <string.h>

#include "frontend/gmma.h"
#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

/* in->sub2 */
#define WG_SCALE_D_PRED 1    /* scale-d is predicate in->e (else the constant WG_SCALE_D_ONE) */
#define WG_SCALE_D_ONE 2
#define WG_NEG_A 4
#define WG_NEG_B 8
#define WG_TRANS_A 16        /* A is MN-major (imm-trans-a 1) */
#define WG_TRANS_B 32
#define WG_REG_A 64          /* A in registers: xslots after D's */
#define WG_SAT 128

/* the descriptor in slot S (every lane gives the same; lane 0's is read) */
static int desc_of(pctx *x, const pinst *in, const pwarp *w, uint32_t s, uint64_t *desc)
{
    *desc = SLOT(w, s)[0];
    const char *why = gmma_desc_check(*desc);
    if (why) return ptx_fail(x, in, "%s (descriptor 0x%016llx, warp %u)", why, (unsigned long long)*desc, w->index);
    return 0;
}

/* wgmma.mma_async.sync.aligned.m64nNkK.DTYPE.ATYPE.BTYPE d, a, b, scale-d, ...:
 * sub: the gmma_type, type: the gmma_acc, imm: N; xslots: D's registers,
 * then A's 4 when in registers; a, b: the descriptors' slots. */
/* Warp W's 16 rows of IN's product. */
static int gmma_warp(pctx *x, pwarp *w, const pinst *in)
{
    gmma_inst g = {.ta = (gmma_type)in->sub, .tb = (gmma_type)in->type2, .acc = (gmma_acc)in->type,
                   .n = (unsigned)in->imm, .trans_a = (in->sub2 & WG_TRANS_A) != 0,
                   .trans_b = (in->sub2 & WG_TRANS_B) != 0, .reg_a = (in->sub2 & WG_REG_A) != 0,
                   .neg_a = (in->sub2 & WG_NEG_A) != 0, .neg_b = (in->sub2 & WG_NEG_B) != 0,
                   .sat = (in->sub2 & WG_SAT) != 0};
    g.scale_d = (in->sub2 & WG_SCALE_D_PRED) ? (int)(PRED(w, in->e) & 1) : (in->sub2 & WG_SCALE_D_ONE) != 0;
    unsigned n = g.n, k = gmma_k(g.ta), eb = gmma_type_bytes(g.ta), nd = gmma_dregs(g.acc, n);
    const uint32_t *xs = ptx_xslots(w, in);
    static _Thread_local uint32_t areg[4][32], d[128][32];
    if (g.reg_a) {
        for (unsigned r = 0; r < 4; r++)
            for (int lane = 0; lane < 32; lane++) areg[r][lane] = (uint32_t)SLOT(w, xs[nd + r])[lane];
    } else if (desc_of(x, in, w, in->a, &g.da) != 0) {
        return -1;
    }
    if (desc_of(x, in, w, in->b, &g.db) != 0) return -1;
    for (unsigned i = 0; i < nd; i++)
        for (int lane = 0; lane < 32; lane++) d[i][lane] = (uint32_t)SLOT(w, xs[i])[lane];
    uint32_t bad = 0;
    const char *why = gmma_warp_rows(&g, w->index % 4, x->smem, x->smem_bytes, areg, d, &bad);
    if (why)
        return ptx_fail(x, in, "%s: shared 0x%x, the block has %llu bytes (warp %u)", why, bad,
                        (unsigned long long)x->smem_bytes, w->index);
    for (unsigned i = 0; i < nd; i++)
        for (int lane = 0; lane < 32; lane++) SLOT(w, xs[i])[lane] = d[i][lane];
    x->exec.inst_gmma++;
    if (x->sb_on) {
        /* the tensor pipe: a warp's wgmma keeps its sub-partition's pipe
         * busy N/2 cycles, whatever the type (ncu on the H100:
         * sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active, 32
         * for each m64n64 of every type, gpu/results/h100/hopper), N/8 of
         * the SM's cycles, as many HMMA.16816 as the profile's pipe_tensor
         * issues in them; the decoder's class counted one.  Those cycles are at
         * the clock the SM runs while its tensor cores work (the profile's
         * tensor_clock_mhz: 1.80 GHz for fast.cu's GEMMs on the H100); the
         * HMMA rate needs no such factor, it was timed in ns */
        double hmma = n / 8.0 * x->sb_pipe_rate[COALSIM_PIPE_TENSOR] * x->sb_gmma_cycles;
        if (hmma > 1) x->exec.pipe_inst[COALSIM_PIPE_TENSOR] += hmma - 1;
    }
    /* a warpgroup reads its A (unless in registers) and B once: a quarter a warp (ncu, H100) */
    x->exec.gmma_smem_bytes += ((in->sub2 & WG_REG_A) ? 0 : 64u * k * eb / 4) + n * k * eb / 4;
    return 0;
}

/* The warpgroup's four warps meet at a wgmma (.sync.aligned: the
 * warpgroup issues it together): the first three sleep at it, and the
 * last to come computes all four's rows at once, from shared memory as it
 * is then.  (Computing each warp's rows when it alone arrives would let a
 * warp that runs ahead overwrite a tile with its next TMA copy before its
 * group's other warps read it; on the GPU the group's warps issue within a
 * few cycles of each other.)  1: this warp waits; 0: done. */
HANDLER(wgmma)
{
    if (ptx_whole_warp(x, w, in, m, "wgmma") != 0) return -1;
    if (w->gmma_done) {
        w->gmma_done = 0;
        return 0;
    }
    unsigned wpb = (x->block[0] * x->block[1] * x->block[2] + 31) / 32, base = w->index / 4 * 4;
    unsigned nw = wpb - base < 4 ? wpb - base : 4;
    pwarp *g = x->warps + (size_t)w->cta * wpb + base;
    for (unsigned k = 0; k < nw; k++) {
        pwarp *o = &g[k];
        if (o == w || o->state == W_DONE) continue;
        const pframe *fr = &o->frames[o->depth - 1];
        if (o->state != W_WAIT || &fr->fn->code[fr->stack[fr->sp - 1].pc] != in) return 1;
    }
    for (unsigned k = 0; k < nw; k++) {
        pwarp *o = &g[k];
        if (o->state == W_DONE) continue;
        if (gmma_warp(x, o, in) != 0) return -1;
        if (o != w) o->gmma_done = 1;
    }
    return 0;
}

/* fence, commit_group, wait_group: the products are there already */
HANDLER(wgmma_nop)
{
    (void)x, (void)w, (void)in, (void)m;
    return 0;
}

/* an immediate operand K: its value, or -1 if it is not one */
static long long imm_of(const raw_inst *ri, unsigned k)
{
    if (k >= ri->nops || ri->ops[k].kind != RO_IMM) return -1;
    return (long long)(int64_t)ri->ops[k].imm;
}

DECODE(dec_wgmma)
{
    in->kind = K_OP;
    if (ptx_has_mod(ri, "fence") || ptx_has_mod(ri, "commit_group") || ptx_has_mod(ri, "wait_group")) {
        if (ptx_has_mod(ri, "wait_group") && (ri->nops != 1 || ri->ops[0].kind != RO_IMM))
            return ptx_dec_fail(p, ri, err, cap, "wgmma.wait_group needs a constant group count");
        in->fn = wgmma_nop;
        /* for the scheduler (ptx_sched_gmma) */
        in->sub = ptx_has_mod(ri, "commit_group") ? WGMMA_COMMIT : ptx_has_mod(ri, "wait_group") ? WGMMA_WAIT : 0;
        if (in->sub == WGMMA_WAIT) in->imm = ri->ops[0].imm;
        return 0;
    }
    if (!ptx_has_mod(ri, "mma_async")) return 0;
    /* the shape m64nNkK and the types: DTYPE.ATYPE.BTYPE */
    unsigned n = 0, kk = 0;
    const char *types[3] = {0};
    unsigned nt = 0;
    for (unsigned i = 0; i < ri->nmods; i++) {
        const char *s = ri->mods[i];
        unsigned a, b, c;
        char tail;
        if (sscanf(s, "m%un%uk%u%c", &a, &b, &c, &tail) == 3 && a == 64) n = b, kk = c;
        else if (!strcmp(s, "f32") || !strcmp(s, "f16") || !strcmp(s, "s32") || !strcmp(s, "bf16") || !strcmp(s, "tf32") ||
                 !strcmp(s, "e4m3") || !strcmp(s, "e5m2") || !strcmp(s, "s8") || !strcmp(s, "u8"))
            if (nt < 3) types[nt++] = s;
    }
    static const char *const tn[GMMA_TYPES] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"};
    int ta = -1, tb = -1;
    for (int i = 0; i < GMMA_TYPES && nt == 3; i++) {
        if (!strcmp(types[1], tn[i])) ta = i;
        if (!strcmp(types[2], tn[i])) tb = i;
    }
    int integer = ta == GMMA_S8 || ta == GMMA_U8;
    int fp8 = ta == GMMA_E4M3 || ta == GMMA_E5M2;
    if (ta < 0 || tb < 0 || (ta != tb && !(integer && (tb == GMMA_S8 || tb == GMMA_U8)) && !(fp8 && (tb == GMMA_E4M3 || tb == GMMA_E5M2))))
        return 0;                            /* unsupported types (b1, f16 x bf16): an error naming it if it runs */
    int acc = !strcmp(types[0], "f32") ? GMMA_ACC_F32 : !strcmp(types[0], "f16") ? GMMA_ACC_F16
            : !strcmp(types[0], "s32") ? GMMA_ACC_S32 : -1;
    if (acc < 0 || (integer != (acc == GMMA_ACC_S32)) || (acc == GMMA_ACC_F16 && (ta == GMMA_BF16 || ta == GMMA_TF32)))
        return ptx_dec_fail(p, ri, err, cap, "wgmma with a .%s accumulator and .%s inputs is not a PTX combination", types[0], types[1]);
    if (!n || n % 8 || n > 256 || kk != gmma_k((gmma_type)ta) || (integer && n > 32 && n % 16))
        return ptx_dec_fail(p, ri, err, cap, "wgmma shape m64n%uk%u is not one for .%s", n, kk, types[1]);
    in->sub = (uint8_t)ta;
    in->type2 = (uint8_t)tb;
    in->type = (uint8_t)acc;
    in->imm = n;
    if (ptx_has_mod(ri, "satfinite")) in->sub2 |= WG_SAT;
    int half = ta == GMMA_F16 || ta == GMMA_BF16;
    int reg_a = ri->nops > 1 && ri->ops[1].kind == RO_VEC;
    /* operands: d, a, b, scale-d, then imm-scale-a, imm-scale-b (not for
     * integers), then imm-trans-a (descriptor A) and imm-trans-b (16-bit types) */
    unsigned want = 4 + (integer ? 0 : 2) + (half ? (reg_a ? 1 : 2) : 0);
    if (ri->nops != want)
        return ptx_dec_fail(p, ri, err, cap, "needs %u operands (d, a, b, scale-d%s%s)", want, integer ? "" : ", imm-scale-a, imm-scale-b",
                            half ? (reg_a ? ", imm-trans-b" : ", imm-trans-a, imm-trans-b") : "");
    unsigned nd = acc == GMMA_ACC_F16 ? n / 4 : n / 2, got;
    in->xs = f->nxslots;
    if (ptx_dec_xslots(p, f, ri, 0, 1, PT_B32, &got, err, cap)) return -1;
    if (got != nd) return ptx_dec_fail(p, ri, err, cap, "d has %u registers; m64n%u with a .%s accumulator needs %u", got, n, types[0], nd);
    in->nxs = got;
    if (reg_a) {
        if (ptx_dec_xslots(p, f, ri, 1, 0, PT_B32, &got, err, cap)) return -1;
        if (got != 4) return ptx_dec_fail(p, ri, err, cap, "a in registers is 4 registers, not %u", got);
        in->nxs += got;
        in->sub2 |= WG_REG_A;
    } else if (ptx_dec_src(p, f, ri, 1, PT_B64, &in->a, err, cap)) {
        return -1;
    }
    if (ptx_dec_src(p, f, ri, 2, PT_B64, &in->b, err, cap)) return -1;
    const raw_operand *sd = &ri->ops[3];
    uint32_t v;
    int pred = 0;
    if (sd->kind == RO_IMM) {
        if (sd->imm) in->sub2 |= WG_SCALE_D_ONE;
    } else if (sd->kind == RO_REG && ptx_dec_reg(f, sd->name, &v, &pred) == 0 && pred) {
        if (sd->neg) return ptx_dec_fail(p, ri, err, cap, "a negated scale-d predicate is not supported");
        in->e = v;
        in->sub2 |= WG_SCALE_D_PRED;
    } else {
        return ptx_dec_fail(p, ri, err, cap, "scale-d must be a predicate or a constant");
    }
    unsigned k = 4;
    if (!integer) {
        long long a = imm_of(ri, k++), b = imm_of(ri, k++);
        if ((a != 1 && a != -1) || (b != 1 && b != -1))
            return ptx_dec_fail(p, ri, err, cap, "imm-scale-a and imm-scale-b must be the constants 1 or -1");
        if (a < 0) in->sub2 |= WG_NEG_A;
        if (b < 0) in->sub2 |= WG_NEG_B;
    }
    if (half) {
        long long ta_ = reg_a ? 0 : imm_of(ri, k++), tb_ = imm_of(ri, k++);
        if ((ta_ != 0 && ta_ != 1) || (tb_ != 0 && tb_ != 1))
            return ptx_dec_fail(p, ri, err, cap, "imm-trans-a and imm-trans-b must be the constants 0 or 1");
        if (ta_) in->sub2 |= WG_TRANS_A;
        if (tb_) in->sub2 |= WG_TRANS_B;
    }
    in->kind = K_WAIT;         /* the warpgroup meets at it */
    in->fn = wgmma;
    return 0;
}

const pop_entry ptx_ops_wgmma[] = {
    {"wgmma", dec_wgmma}, {NULL, NULL},
};
