/* Matrix and asynchronous-copy instructions: ldmatrix, stmatrix,
 * movmatrix, mma.sync, cp.async and its groups.  Values are computed, as
 * for every other instruction; fragments follow the PTX ISA's layouts
 * ("Matrix fragments for mma.m16n8k16", "ldmatrix", ...), so a kernel that
 * builds fragments by hand gets what the GPU gives it.
 *
 * Requests (include/coalsim.h, coalsim_op): an ldmatrix is one shared
 * request of op LDSM, 16 bytes a lane, lanes 0..8n-1 giving the rows of
 * its n matrices; stmatrix the same with STSM.  A cp.async is a global
 * request of op LDGSTS (.ca) or LDGSTS_BYPASS (.cg) and, for .ca, a shared
 * request for its writes, both modelled by coalsim_ldgsts (which needs
 * both addresses).  The copy happens when the instruction runs: the
 * groups and waits order nothing here (a kernel that reads its tile
 * before waiting has a race on the GPU, not here); the time model takes
 * the waits (ptx_sched.c). */
#include <stdlib.h>
#include <string.h>

#include "frontend/mma.h"
#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

/* ---- ldmatrix, stmatrix, movmatrix ---- */

/* The shared memory of the row lane L names: P its 16 bytes, *REPORT its address. */
static int matrix_row(pctx *x, pwarp *w, const pinst *in, int l, unsigned char **p, uint64_t *report)
{
    uint64_t a = ptx_lane_addr(w, in, l, 0);
    int space;
    if (ptx_locate(x, w, in, in->space, a, 16, l, p, report, &space) != 0) return -1;
    if (space != COALSIM_SHARED)
        return ptx_fail(x, in, "lane %d's row address 0x%llx is not in shared memory (warp %u)", l,
                        (unsigned long long)a, w->index);
    return 0;
}

int ptx_whole_warp(pctx *x, const pwarp *w, const pinst *in, uint32_t m, const char *what)
{
    uint32_t want = w->alive & ~w->exited;
    if (m == want && want == 0xffffffffu) return 0;
    return ptx_fail(x, in, "executed by lanes 0x%08x of warp %u: a .sync.aligned %s instruction needs all 32", m,
                    w->index, what);
}

/* Emit the LDSM/STSM request of rows lanes 0..8n-1 name. */
static int matrix_request(pctx *x, const pwarp *w, const pinst *in, coalsim_op op, unsigned n, const uint64_t *rep)
{
    return ptx_emit(x, w, in, op, COALSIM_SHARED, 16, n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1, rep);
}

/* ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 (mma.h's mma_ldsm). */
HANDLER(ldmatrix)
{
    unsigned n = in->nvec, trans = in->sub;
    if (ptx_whole_warp(x, w, in, m, "matrix") != 0) return -1;
    uint16_t rows[32][8];
    uint64_t rep[32];
    for (unsigned l = 0; l < 8 * n; l++) {
        unsigned char *p;
        if (matrix_row(x, w, in, (int)l, &p, &rep[l]) != 0) return -1;
        memcpy(rows[l], p, 16);
    }
    if (matrix_request(x, w, in, COALSIM_LDSM, n, rep) != 0) return -1;
    uint32_t regs[4][32];
    mma_ldsm(rows, n, (int)trans, regs);
    const uint32_t *xs = ptx_xslots(w, in);
    for (unsigned k = 0; k < n; k++) {
        uint64_t *D = SLOT(w, xs[k]);
        for (int t = 0; t < 32; t++) D[t] = regs[k][t];
    }
    return 0;
}

/* stmatrix: the inverse of ldmatrix (mma.h's mma_stsm). */
HANDLER(stmatrix)
{
    unsigned n = in->nvec, trans = in->sub;
    if (ptx_whole_warp(x, w, in, m, "matrix") != 0) return -1;
    unsigned char *p[32];
    uint64_t rep[32];
    for (unsigned l = 0; l < 8 * n; l++)
        if (matrix_row(x, w, in, (int)l, &p[l], &rep[l]) != 0) return -1;
    if (matrix_request(x, w, in, COALSIM_STSM, n, rep) != 0) return -1;
    const uint32_t *xs = ptx_xslots(w, in);
    uint32_t regs[4][32];
    uint16_t rows[32][8];
    for (unsigned k = 0; k < n; k++)
        for (int t = 0; t < 32; t++) regs[k][t] = (uint32_t)SLOT(w, xs[k])[t];
    mma_stsm(regs, n, (int)trans, rows);
    for (unsigned l = 0; l < 8 * n; l++) memcpy(p[l], rows[l], 16);
    return 0;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the warp's 8x8 matrix in a,
 * transposed, in d. */
HANDLER(movmatrix)
{
    if (ptx_whole_warp(x, w, in, m, "matrix") != 0) return -1;
    const uint64_t *A = SLOT(w, in->a);
    uint32_t a[32], d[32];
    for (int t = 0; t < 32; t++) a[t] = (uint32_t)A[t];
    mma_movm(a, d);
    uint64_t *D = SLOT(w, in->d);
    for (int t = 0; t < 32; t++) D[t] = d[t];
    return 0;
}

/* ---- mma.sync ---- */

/* d, a, b, c (xslots, in order): the registers' bits as mma.h's 32-bit
 * words (an f64 register is two); sub: the shape, sub2: the kind, imm: the
 * accumulator (mma.h's enums). */
HANDLER(mma)
{
    if (ptx_whole_warp(x, w, in, m, "matrix") != 0) return -1;
    mma_shape sh = (mma_shape)in->sub;
    mma_kind kind = (mma_kind)in->sub2;
    mma_acc acc = (mma_acc)in->imm;
    unsigned na, nb, nc;
    (void)mma_words(sh, kind, acc, &na, &nb, &nc);     /* checked when decoded */
    int wide_in = kind == MMA_F64, wide_acc = acc == MMA_ACC_F64;
    unsigned sa = wide_in ? na / 2 : na, sb = wide_in ? nb / 2 : nb, sc = wide_acc ? nc / 2 : nc;
    const uint32_t *xs = ptx_xslots(w, in);      /* d[sc], a[sa], b[sb], c[sc] */
    uint32_t A[8][32], B[8][32], C[8][32], D[8][32];
    struct { uint32_t (*dst)[32]; unsigned first, n; int wide; } ops[3] = {
        {A, sc, sa, wide_in}, {B, sc + sa, sb, wide_in}, {C, sc + sa + sb, sc, wide_acc}};
    for (int o = 0; o < 3; o++)
        for (unsigned k = 0; k < ops[o].n; k++) {
            const uint64_t *S = SLOT(w, xs[ops[o].first + k]);
            for (int t = 0; t < 32; t++) {
                if (ops[o].wide) ops[o].dst[2 * k][t] = (uint32_t)S[t], ops[o].dst[2 * k + 1][t] = (uint32_t)(S[t] >> 32);
                else ops[o].dst[k][t] = (uint32_t)S[t];
            }
        }
    mma_run(sh, kind, acc, (in->flags & PF_SAT) != 0, A, B, C, D);
    for (unsigned k = 0; k < sc; k++) {
        uint64_t *Dst = SLOT(w, xs[k]);
        for (int t = 0; t < 32; t++) Dst[t] = wide_acc ? ((uint64_t)D[2 * k + 1][t] << 32 | D[2 * k][t]) : D[k][t];
    }
    x->exec.inst_mma[kind == MMA_S8 || kind == MMA_U8 ? 1 : kind == MMA_F64 ? 2 : 0]++;
    return 0;
}

/* ---- cp.async ---- */

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}:
 * each lane copies cp-size bytes, the first src-size of them from global
 * memory and zeros after (src-size 0: all zeros, nothing read).  sub: 1 for
 * .cg; b: the src-size slot (or UINT32_MAX); c: the ignore-src predicate
 * (or UINT32_MAX; npred_neg bit 0: negated). */
HANDLER(cp_async)
{
    unsigned size = in->nvec;    /* cp-size */
    if (!w->async_open) {
        /* ptxas puts three "@!PT LDS RZ, [RZ]" before a basic block's first
         * LDGSTS on sm_90 (tests/kernels/tensor.cu's kernels, the CUDA
         * samples' dmmaTensorCoreGemm: one set before 8 LDGSTS/LDGDEPBAR
         * pairs): instructions that issue with no lane on, which ncu counts
         * in smsp__inst_executed and op_shared_ld.  A branch ends the run. */
        x->exec.inst_executed += 3;
        x->exec.inst_mem[COALSIM_SHARED][COALSIM_LD] += 3;
        x->exec.mem_inactive += 3;
        w->async_open = 1;
    }
    uint64_t src[32], dstrep[32];
    unsigned char *sp[32] = {0}, *dp[32];
    uint32_t reads = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm), space;
        uint64_t n = size;
        if (in->b != UINT32_MAX) n = SLOT(w, in->b)[l];
        if (in->c != UINT32_MAX && ((PRED(w, in->c) >> l & 1) ^ (in->npred_neg & 1))) n = 0;
        if (n > size) return ptx_fail(x, in, "lane %d's src-size %llu is larger than the copy's %u bytes", l, (unsigned long long)n, size);
        if (ptx_locate(x, w, in, SP_SHARED, ptx_lane_addr(w, in, l, 0), size, l, &dp[l], &dstrep[l], &space) != 0) return -1;
        uint64_t a = ptx_lane_addr(w, in, l, 1);
        src[l] = a;
        if (n) {
            uint64_t rep;
            if (ptx_locate(x, w, in, SP_GLOBAL, a, size, l, &sp[l], &rep, &space) != 0) return -1;
            reads |= 1u << l;
        }
        unsigned char buf[16] = {0};
        if (n) memcpy(buf, sp[l], (size_t)n);
        memcpy(dp[l], buf, size);
    }
    if (!reads) return 0;
    coalsim_op op = in->sub ? COALSIM_LDGSTS_BYPASS : COALSIM_LDGSTS;
    coalsim_request g, s;
    coalsim_result gr, sr;
    ptx_request(x, w, in, op, COALSIM_GLOBAL, size, reads, src, &g);
    coalsim_ldgsts(x->arch, &g, dstrep, &gr, &sr);
    if (ptx_put_result(x, &g, &gr) != 0) return -1;
    if (in->sub) return 0;       /* .cg: no LSU wavefronts */
    ptx_request(x, w, in, op, COALSIM_SHARED, size, reads, dstrep, &s);
    return ptx_put_result(x, &s, &sr);
}

/* commit_group, wait_group, wait_all: the copies are done already */
HANDLER(cp_async_nop)
{
    (void)x, (void)w, (void)in, (void)m;
    return 0;
}

/* ---- decoding ---- */

int ptx_dec_xslots(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, int dst, ptype t, unsigned *n, char *err,
                   size_t cap)
{
    const raw_operand *o = &ri->ops[k];
    unsigned cnt = o->kind == RO_VEC ? o->nvec : 1;
    if (f->nxslots + cnt > f->capxslots) {
        unsigned c = f->capxslots ? 2 * f->capxslots : 64;
        while (c < f->nxslots + cnt) c *= 2;
        uint32_t *ns = realloc(f->xslots, c * sizeof *ns);
        if (!ns) return ptx_dec_fail(p, ri, err, cap, "out of memory");
        f->xslots = ns, f->capxslots = c;
    }
    for (unsigned i = 0; i < cnt; i++) {
        raw_inst tmp = *ri;
        if (o->kind == RO_VEC && o->vec[i] && o->vec[i][0] == '#')      /* a constant member */
            tmp.ops[0] = (raw_operand){.kind = RO_IMM, .imm = strtoull(o->vec[i] + 1, NULL, 10)};
        else if (o->kind == RO_VEC) tmp.ops[0] = (raw_operand){.kind = o->vec[i] ? RO_REG : RO_SINK, .name = o->vec[i]};
        else tmp.ops[0] = *o;
        tmp.nops = 1;
        uint32_t s;
        if (dst ? ptx_dec_dst(f, &tmp, 0, &s, err, cap) : ptx_dec_src(p, f, &tmp, 0, t, &s, err, cap)) return -1;
        f->xslots[f->nxslots++] = s;
    }
    *n = cnt;
    return 0;
}

static int shared_space(const raw_inst *ri)
{
    for (unsigned k = 0; k < ri->nmods; k++) {
        if (!strcmp(ri->mods[k], "shared") || !strcmp(ri->mods[k], "shared::cta")) return SP_SHARED;
        if (!strncmp(ri->mods[k], "shared::cluster", 15)) return -1;
    }
    return SP_GENERIC;
}

static unsigned matrices(const raw_inst *ri)
{
    return ptx_has_mod(ri, "x1") ? 1 : ptx_has_mod(ri, "x2") ? 2 : ptx_has_mod(ri, "x4") ? 4 : 0;
}

/* ldmatrix.sync.aligned.m8n8.xN{.trans}{.ss}.b16 d, [a] and stmatrix. */
static int dec_ldst_matrix(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap, int st)
{
    unsigned n = matrices(ri), got;
    int sp = shared_space(ri);
    in->kind = K_MEM;
    in->space = (uint8_t)(sp < 0 ? SP_SHARED : sp);
    in->cs_space = COALSIM_SHARED;
    in->cs_op = st ? COALSIM_STSM : COALSIM_LDSM;
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands");
    if (!ptx_has_mod(ri, "m8n8") || !ptx_has_mod(ri, "b16") || !n || sp < 0) return 0;   /* unsupported: an error if it runs */
    in->nvec = (uint8_t)n;
    in->sub = (uint8_t)ptx_has_mod(ri, "trans");
    in->xs = f->nxslots;
    if (ptx_dec_xslots(p, f, ri, st ? 1 : 0, !st, PT_B32, &got, err, cap)) return -1;
    if (got != n) return ptx_dec_fail(p, ri, err, cap, "needs %u registers for .x%u, has %u", n, n, got);
    in->nxs = got;
    if (ptx_dec_addr(p, f, ri, st ? 0 : 1, in, err, cap)) return -1;
    in->fn = st ? stmatrix : ldmatrix;
    return 0;
}

DECODE(dec_ldmatrix) { return dec_ldst_matrix(p, f, ri, in, err, cap, 0); }
DECODE(dec_stmatrix) { return dec_ldst_matrix(p, f, ri, in, err, cap, 1); }

DECODE(dec_movmatrix)
{
    in->kind = K_OP;
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands");
    if (!ptx_has_mod(ri, "m8n8") || !ptx_has_mod(ri, "trans") || !ptx_has_mod(ri, "b16")) return 0;
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, PT_B32, &in->a, err, cap)) return -1;
    in->fn = movmatrix;
    return 0;
}

/* mma.sync.aligned.SHAPE.row.col{.satfinite}.DTYPE.ATYPE.BTYPE.CTYPE d, a, b, c */
DECODE(dec_mma)
{
    static const char *const shapes[MMA_SHAPES] = {"m16n8k16", "m16n8k8", "m16n8k32", "m8n8k4", "m16n8k4"};
    static const char *const kinds[] = {"f16", "bf16", "tf32", "s8", "u8", "f64"};
    in->kind = K_OP;
    if (ri->nops != 4) return ptx_dec_fail(p, ri, err, cap, "needs 4 operands (d, a, b, c)");
    int sh = -1;
    for (int k = 0; k < MMA_SHAPES; k++)
        if (ptx_has_mod(ri, shapes[k])) sh = k;
    /* the types: d, a, b, c in order (an f16 d or c means pairs) */
    const char *tn[4] = {0};
    unsigned nt = 0;
    for (unsigned k = 0; k < ri->nmods && nt < 4; k++) {
        const char *s = ri->mods[k];
        if (!strcmp(s, "f16") || !strcmp(s, "f32") || !strcmp(s, "bf16") || !strcmp(s, "tf32") || !strcmp(s, "s8") ||
            !strcmp(s, "u8") || !strcmp(s, "s32") || !strcmp(s, "f64"))
            tn[nt++] = s;
    }
    if (sh < 0 || nt != 4 || !ptx_has_mod(ri, "row") || !ptx_has_mod(ri, "col") || strcmp(tn[1], tn[2]) != 0 ||
        strcmp(tn[0], tn[3]) != 0)
        return 0;                      /* unsupported (mixed s8/u8 too): an error if it runs */
    int kind = -1;
    for (int k = 0; k < 6; k++)
        if (!strcmp(tn[1], kinds[k])) kind = k;
    int acc = !strcmp(tn[0], "f32") ? MMA_ACC_F32 : !strcmp(tn[0], "f16") ? MMA_ACC_F16 : !strcmp(tn[0], "s32") ? MMA_ACC_S32
            : !strcmp(tn[0], "f64") ? MMA_ACC_F64 : -1;
    unsigned na, nb, nc;
    if (kind < 0 || acc < 0 || mma_words((mma_shape)sh, (mma_kind)kind, (mma_acc)acc, &na, &nb, &nc) != 0) return 0;
    in->sub = (uint8_t)sh;
    in->sub2 = (uint8_t)kind;
    in->imm = (uint64_t)acc;
    if (ptx_has_mod(ri, "satfinite")) in->flags |= PF_SAT;
    int wide_in = kind == MMA_F64, wide_acc = acc == MMA_ACC_F64;
    unsigned want[4] = {wide_acc ? nc / 2 : nc, wide_in ? na / 2 : na, wide_in ? nb / 2 : nb, wide_acc ? nc / 2 : nc};
    in->xs = f->nxslots;
    for (unsigned k = 0; k < 4; k++) {
        unsigned got;
        ptype t = (k == 1 || k == 2) ? (wide_in ? PT_F64 : PT_B32) : (wide_acc ? PT_F64 : PT_B32);
        if (ptx_dec_xslots(p, f, ri, k, k == 0, t, &got, err, cap)) return -1;
        if (got != want[k])
            return ptx_dec_fail(p, ri, err, cap, "operand %u has %u registers; %s.%s needs %u", k + 1, got, shapes[sh], tn[1], want[k]);
        in->nxs += got;
    }
    in->fn = mma;
    return 0;
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [dst], [src], size{, src-size}{, policy} */
DECODE(dec_cp_async)
{
    int bulk = ptx_dec_bulk(p, f, ri, in, err, cap);
    if (bulk <= 0) return bulk;
    if (ptx_has_mod(ri, "commit_group") || ptx_has_mod(ri, "wait_group") || ptx_has_mod(ri, "wait_all")) {
        in->kind = K_OP;
        if (ptx_has_mod(ri, "wait_group") && (ri->nops != 1 || ri->ops[0].kind != RO_IMM))
            return ptx_dec_fail(p, ri, err, cap, "cp.async.wait_group needs a constant group count");
        if (ptx_has_mod(ri, "wait_group")) in->imm = ri->ops[0].imm;
        in->fn = cp_async_nop;
        return 0;
    }
    int cg = ptx_has_mod(ri, "cg");
    in->kind = K_MEM;
    in->space = SP_SHARED;
    in->cs_space = COALSIM_GLOBAL;
    in->cs_op = cg ? COALSIM_LDGSTS_BYPASS : COALSIM_LDGSTS;
    in->b = in->c = UINT32_MAX;
    in->addr2_slot = UINT32_MAX;
    in->sub = (uint8_t)cg;
    if (!(cg || ptx_has_mod(ri, "ca")) || shared_space(ri) < 0 || !ptx_has_mod(ri, "global")) return 0;
    if (ri->nops < 3 || ri->nops > 5) return ptx_dec_fail(p, ri, err, cap, "needs 3 to 5 operands ([dst], [src], cp-size, ...)");
    if (ri->ops[2].kind != RO_IMM) return ptx_dec_fail(p, ri, err, cap, "the copy size must be a constant");
    uint64_t size = ri->ops[2].imm;
    if (size != 4 && size != 8 && size != 16)
        return ptx_dec_fail(p, ri, err, cap, "a cp.async copies 4, 8 or 16 bytes, not %llu", (unsigned long long)size);
    if (cg && size != 16) return ptx_dec_fail(p, ri, err, cap, "cp.async.cg copies 16 bytes, not %llu", (unsigned long long)size);
    in->nvec = (uint8_t)size;
    pinst src = *in;
    if (ptx_dec_addr(p, f, ri, 1, &src, err, cap) || ptx_dec_addr(p, f, ri, 0, in, err, cap)) return -1;
    if (src.addr_local_sym) return ptx_dec_fail(p, ri, err, cap, "the source must be global memory");
    in->addr2_slot = src.addr_slot, in->off2 = src.off, in->addr2_base = src.addr_base;
    /* the fourth operand: src-size (a number) or ignore-src (a predicate);
     * a fifth (or a 64-bit fourth with .L2::cache_hint) is the cache policy */
    unsigned k = 3, hint = ptx_has_mod(ri, "L2::cache_hint");
    if (ri->nops > k && !(hint && ri->nops == k + 1)) {
        uint32_t v;
        int pred = 0;
        const raw_operand *o = &ri->ops[k];
        if (o->kind == RO_REG && ptx_dec_reg(f, o->name, &v, &pred) == 0 && pred) {
            in->c = v;
            in->npred_neg = (uint8_t)(o->neg ? 1 : 0);
        } else if (ptx_dec_src(p, f, ri, k, PT_U32, &in->b, err, cap)) {
            return -1;
        }
    }
    in->fn = cp_async;
    return 0;
}

const pop_entry ptx_ops_matrix[] = {
    {"ldmatrix", dec_ldmatrix}, {"stmatrix", dec_stmatrix}, {"movmatrix", dec_movmatrix},
    {"mma", dec_mma}, {"cp", dec_cp_async}, {NULL, NULL},
};
