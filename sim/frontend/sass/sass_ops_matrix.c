/* Matrix and asynchronous-copy instructions: HMMA, IMMA, DMMA (the
 * arithmetic of mma.h, the operands in consecutive registers), LDSM and STSM
 * (ldmatrix, stmatrix), MOVM (movmatrix), LDGSTS (cp.async) and LDGDEPBAR.  The requests are
 * the PTX interpreter's for the same instructions (ptx_ops_matrix.c): one
 * LDSM/STSM request of the rows lanes 0..8n-1 give, and a cp.async's global
 * side and (.ca) shared side, modelled together by coalsim_ldgsts. */
#include <string.h>

#include "frontend/mma.h"
#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)

static int whole_warp(sctx *x, const swarp *w, const sinst *in, uint32_t m)
{
    uint32_t want = w->alive & ~w->exited;
    if (m == want && want == 0xffffffffu) return 0;
    return sass_fail(x, in, "executed by lanes 0x%08x of warp %u: a matrix instruction needs all 32", m, w->index);
}

/* ---- HMMA, IMMA, DMMA: d, a, b, c; sub: shape, sub2: kind, sub3: accumulator ---- */

/* N registers from R (RZ: zeros) into X. */
static void regs_in(const swarp *w, const sopnd *o, unsigned n, uint32_t (*x)[32])
{
    for (unsigned k = 0; k < n; k++)
        for (int l = 0; l < 32; l++) x[k][l] = o->reg == SASS_RZ ? 0 : w->r[o->reg + k][l];
}

HANDLER(mma)
{
    if (whole_warp(x, w, in, m) != 0) return -1;
    mma_shape sh = (mma_shape)in->sub;
    mma_kind kind = (mma_kind)in->sub2;
    mma_acc acc = (mma_acc)in->sub3;
    unsigned na, nb, nc;
    (void)mma_words(sh, kind, acc, &na, &nb, &nc);
    uint32_t A[8][32], B[8][32], C[8][32], D[8][32];
    regs_in(w, &in->o[1], na, A);
    regs_in(w, &in->o[2], nb, B);
    regs_in(w, &in->o[3], nc, C);
    mma_run(sh, kind, acc, (in->flags & SF_SAT) != 0, A, B, C, D);
    if (in->o[0].reg != SASS_RZ)
        for (unsigned k = 0; k < nc; k++) memcpy(w->r[in->o[0].reg + k], D[k], sizeof D[k]);
    x->exec.inst_mma[kind == MMA_S8 || kind == MMA_U8 ? 1 : kind == MMA_F64 ? 2 : 0]++;
    return 0;
}

/* HMMA.16816.F32[.BF16], HMMA.16816.F16, HMMA.1688.F32[.TF32|.BF16], HMMA.1688.F16,
 * HMMA.1684.F32.TF32, IMMA.16832.{S8,U8}.{S8,U8}, IMMA.16816..., DMMA.8x8x4 */
DECODE(dec_mma)
{
    int sh = -1, kind = -1, acc = -1;
    const char *op = ri->op;
    if (!strncmp(op, "DMMA", 4)) {
        if (sass_has_mod(ri, "8x8x4") || sass_has_mod(ri, "884")) sh = MMA_884, kind = MMA_F64, acc = MMA_ACC_F64;
    } else if (!strncmp(op, "IMMA", 4)) {
        sh = sass_has_mod(ri, "16832") ? MMA_16832 : sass_has_mod(ri, "16816") ? MMA_16816 : -1;
        int s8 = sass_has_mod(ri, "S8"), u8 = sass_has_mod(ri, "U8");
        kind = s8 && !u8 ? MMA_S8 : u8 && !s8 ? MMA_U8 : -1;
        acc = MMA_ACC_S32;
        if (sass_has_mod(ri, "SAT")) in->flags |= SF_SAT;
    } else {
        sh = sass_has_mod(ri, "16816") ? MMA_16816 : sass_has_mod(ri, "1688") ? MMA_1688 : sass_has_mod(ri, "1684") ? MMA_1684 : -1;
        kind = sass_has_mod(ri, "BF16") ? MMA_BF16 : sass_has_mod(ri, "TF32") ? MMA_TF32 : MMA_F16;
        acc = sass_has_mod(ri, "F32") ? MMA_ACC_F32 : sass_has_mod(ri, "F16") ? MMA_ACC_F16 : -1;
    }
    unsigned na, nb, nc;
    in->kind = SK_OP;
    if (sh < 0 || kind < 0 || acc < 0 || mma_words((mma_shape)sh, (mma_kind)kind, (mma_acc)acc, &na, &nb, &nc) != 0)
        return 0;                                 /* unsupported: an error if it runs */
    if (ri->nops != 4) return sass_dec_fail(p, ri, err, cap, "needs 4 operands (d, a, b, c)");
    unsigned want[4] = {nc, na, nb, nc};
    for (unsigned k = 0; k < 4; k++)
        if (ri->ops[k].kind != SO_R || (ri->ops[k].reg != SASS_RZ && ri->ops[k].reg + want[k] > SASS_RZ))
            return sass_dec_fail(p, ri, err, cap, "operand %u must be a run of %u registers", k + 1, want[k]);
    in->sub = (uint8_t)sh, in->sub2 = (uint8_t)kind, in->sub3 = (uint8_t)acc;
    in->fn = mma;
    return 0;
}

/* ---- LDSM, STSM: sub: matrices, sub2: .MT88 (transposed) ---- */

static int rows(sctx *x, swarp *w, const sinst *in, const sopnd *ao, unsigned n, unsigned char **p, coalsim_op op)
{
    coalsim_request r;
    for (unsigned l = 0; l < 8 * n; l++)
        if (sass_locate(x, w, in, 1, ao, 16, (int)l, &p[l], &r.addr[l]) != 0) return -1;
    r.op = op, r.space = COALSIM_SHARED, r.size = 16, r.block = x->block_id, r.warp = w->index;
    r.active = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    r.label = in->label, r.label_id = in->label_id, r.line = in->line;
    if (sass_sched_shared(x, &r) != 0) {
        snprintf(x->err, sizeof x->err, "%s", "the analysis stopped (out of memory)");
        return -1;
    }
    return 0;
}

HANDLER(ldsm)
{
    if (whole_warp(x, w, in, m) != 0) return -1;
    unsigned n = in->sub, trans = in->sub2;
    unsigned char *p[32];
    if (rows(x, w, in, &in->o[1], n, p, COALSIM_LDSM) != 0) return -1;
    uint16_t e[32][8];
    uint32_t regs[4][32];
    for (unsigned l = 0; l < 8 * n; l++) memcpy(e[l], p[l], 16);
    mma_ldsm(e, n, (int)trans, regs);
    if (in->o[0].reg != SASS_RZ)
        for (unsigned k = 0; k < n; k++) memcpy(w->r[in->o[0].reg + k], regs[k], sizeof regs[k]);
    return 0;
}

HANDLER(stsm)
{
    if (whole_warp(x, w, in, m) != 0) return -1;
    unsigned n = in->sub, trans = in->sub2;
    unsigned char *p[32];
    if (rows(x, w, in, &in->o[0], n, p, COALSIM_STSM) != 0) return -1;
    uint32_t regs[4][32] = {{0}};
    uint16_t e[32][8];
    if (in->o[1].reg != SASS_RZ)
        for (unsigned k = 0; k < n; k++) memcpy(regs[k], w->r[in->o[1].reg + k], sizeof regs[k]);
    mma_stsm(regs, n, (int)trans, e);
    for (unsigned l = 0; l < 8 * n; l++) memcpy(p[l], e[l], 16);
    return 0;
}

/* LDSM.16.M88{.2,.4} Rd, [a] / LDSM.16.MT88...; STSM.16.M88{.2,.4} [a], Rs */
static int dec_matrix(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap, int st)
{
    unsigned n = sass_has_mod(ri, "4") ? 4 : sass_has_mod(ri, "2") ? 2 : 1;
    in->kind = SK_MEM;
    in->cs_space = COALSIM_SHARED;
    in->cs_op = st ? COALSIM_STSM : COALSIM_LDSM;
    in->width = 4 * (uint8_t)n;
    if (!sass_has_mod(ri, "16") || !(sass_has_mod(ri, "M88") || sass_has_mod(ri, "MT88"))) return 0;
    int a = st ? 0 : 1, r = st ? 1 : 0;
    if (ri->nops != 2 || ri->ops[a].kind != SO_MEM || ri->ops[r].kind != SO_R || ri->ops[r].reg + n > SASS_RZ + (ri->ops[r].reg == SASS_RZ))
        return sass_dec_fail(p, ri, err, cap, "needs a register run of %u and a [shared address]", n);
    in->sub = (uint8_t)n;
    in->sub2 = (uint8_t)sass_has_mod(ri, "MT88");
    in->fn = st ? stsm : ldsm;
    return 0;
}

DECODE(dec_ldsm) { return dec_matrix(p, ri, in, err, cap, 0); }
DECODE(dec_stsm) { return dec_matrix(p, ri, in, err, cap, 1); }

/* ---- MOVM.16.MT88 Rd, Ra: the warp's 8x8 matrix of 16-bit elements
 * (lane l's register a: row l/4, columns 2(l%4), +1, low half first),
 * transposed (movmatrix; ptxas uses it for wmma fragments whose pairs run
 * across the memory's rows) ---- */

HANDLER(movm)
{
    if (whole_warp(x, w, in, m) != 0) return -1;
    uint32_t ba[32], out[32];
    mma_movm(sass_src(x, w, &in->o[1], ba), out);
    if (in->o[0].reg != SASS_RZ) memcpy(w->r[in->o[0].reg], out, sizeof out);
    return 0;
}

DECODE(dec_movm)
{
    in->kind = SK_OP;
    if (!sass_has_mod(ri, "16") || !sass_has_mod(ri, "MT88")) return 0;
    if (ri->nops != 2 || ri->ops[0].kind != SO_R || ri->ops[1].kind != SO_R)
        return sass_dec_fail(p, ri, err, cap, "needs two registers (MOVM.16.MT88 Rd, Ra)");
    in->fn = movm;
    return 0;
}

/* ---- LDGSTS[.E][.BYPASS][.64|.128] [shared], [global]: width bytes; sub: 1 for .BYPASS ---- */

HANDLER(ldgsts)
{
    unsigned size = in->width;
    coalsim_request g, s;
    unsigned char *sp[32], *dp[32];
    uint64_t dst[32];
    /* a third operand: the lanes whose source is read; the others get zeros
     * (cp.async's src-size 0, as ptxas writes it: LDGSTS.E [R7], [R2.64], !P0) */
    uint32_t reads = m;
    if (in->nops == 3) {
        uint32_t pv = in->o[2].reg == SASS_PT ? 0xffffffffu : w->p[in->o[2].reg];
        reads &= in->o[2].not_ ? ~pv : pv;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (sass_locate(x, w, in, 1, &in->o[0], size, l, &dp[l], &dst[l]) != 0) return -1;
        if (!(reads >> l & 1)) {
            memset(dp[l], 0, size);
            continue;
        }
        if (sass_locate(x, w, in, 0, &in->o[1], size, l, &sp[l], &g.addr[l]) != 0) return -1;
        memcpy(dp[l], sp[l], size);
    }
    m = reads;
    if (!m) return 0;
    g.op = in->sub ? COALSIM_LDGSTS_BYPASS : COALSIM_LDGSTS;
    g.space = COALSIM_GLOBAL, g.size = size, g.block = x->block_id, g.warp = w->index, g.active = m;
    g.label = in->label, g.label_id = in->label_id, g.line = in->line;
    coalsim_result gr, sr;
    coalsim_ldgsts(x->arch, &g, dst, &gr, &sr);
    int rc = x->sink.put_modelled ? x->sink.put_modelled(x->sink.ctx, &g, &gr) : x->sink.put(x->sink.ctx, &g);
    if (rc == 0 && !in->sub) {
        s = g;
        s.space = COALSIM_SHARED;
        for (uint32_t mm = m; mm; mm &= mm - 1) s.addr[__builtin_ctz(mm)] = dst[__builtin_ctz(mm)];
        rc = x->sink.put_modelled ? x->sink.put_modelled(x->sink.ctx, &s, &sr) : x->sink.put(x->sink.ctx, &s);
    }
    if (rc != 0) {
        snprintf(x->err, sizeof x->err, "%s", "the analysis stopped (out of memory)");
        return -1;
    }
    return 0;
}

DECODE(dec_ldgsts)
{
    int bypass = sass_has_mod(ri, "BYPASS");
    in->kind = SK_MEM;
    in->width = sass_has_mod(ri, "128") ? 16 : sass_has_mod(ri, "64") ? 8 : 4;
    in->cs_space = COALSIM_GLOBAL;
    in->cs_op = bypass ? COALSIM_LDGSTS_BYPASS : COALSIM_LDGSTS;
    in->sub = (uint8_t)bypass;
    /* ZFILL and the other forms with a source size: not yet */
    if (sass_has_mod(ri, "ZFILL") || ri->nops < 2 || ri->nops > 3) return 0;
    if (ri->ops[0].kind != SO_MEM || ri->ops[1].kind != SO_MEM || (ri->nops == 3 && ri->ops[2].kind != SO_P))
        return sass_dec_fail(p, ri, err, cap, "needs [shared address], [global address] and perhaps a predicate");
    in->fn = ldgsts;
    return 0;
}

/* LDGDEPBAR: closes a group of LDGSTS (the copies are done when they run) */
HANDLER(nothing)
{
    (void)x, (void)w, (void)in, (void)m;
    return 0;
}

DECODE(dec_depbar)
{
    (void)p, (void)ri, (void)err, (void)cap;
    in->kind = SK_OP;
    in->fn = nothing;
    return 0;
}

const sop_entry sass_ops_matrix[] = {
    {"HMMA", dec_mma}, {"IMMA", dec_mma}, {"DMMA", dec_mma}, {"LDSM", dec_ldsm}, {"STSM", dec_stsm}, {"MOVM", dec_movm},
    {"LDGSTS", dec_ldgsts}, {"LDGDEPBAR", dec_depbar}, {NULL, NULL},
};
