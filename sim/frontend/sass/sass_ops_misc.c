/* Warp-wide instructions (SHFL, VOTE, VOTEU, MATCH, REDUX), control
 * (BRA, BRA.DIV, CALL, RET, EXIT, BAR, LEPC), and the instructions that only
 * order or synchronise (BSSY, BSYNC, WARPSYNC, DEPBAR, MEMBAR, NOP, ...), which
 * the interpreter counts as issued and otherwise skips: its SIMT stack
 * already rejoins lanes where ptxas put the BSYNC. */
#include <string.h>

#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)
#define SRC(k, buf) sass_src(x, w, &in->o[k], buf)

static void put_r(swarp *w, const sopnd *o, const uint32_t *v, uint32_t m)
{
    if (o->kind == SO_UR) {
        if (o->reg != SASS_URZ && m) w->ur[o->reg] = v[__builtin_ctz(m)];
        return;
    }
    if (o->kind != SO_R || o->reg == SASS_RZ) return;
    uint32_t *d = w->r[o->reg];
    LANES_S(m, d[l] = v[l]);
}

static void put_p(swarp *w, const sopnd *o, uint32_t v, uint32_t m)
{
    if (o->kind == SO_UP) {
        if (o->reg < SASS_PT && m) w->up[o->reg] = (uint8_t)(v >> __builtin_ctz(m) & 1);
    } else if (o->kind == SO_P) {
        sass_set_pred(w, o->reg, v, m);
    }
}

/* ---- SHFL.{IDX,UP,DOWN,BFLY} Pd, Rd, Ra, b, c (PTX shfl.sync's rules) ---- */
enum { SH_IDX, SH_UP, SH_DOWN, SH_BFLY };

HANDLER(shfl)
{
    uint32_t bb[32], bc[32], out[32], pv = 0;
    const uint32_t *A = in->o[2].kind == SO_R && in->o[2].reg != SASS_RZ ? w->r[in->o[2].reg] : SRC(2, out);
    uint32_t av[32];
    memcpy(av, A, sizeof av);
    const uint32_t *B = SRC(3, bb), *C = SRC(4, bc);
    LANES_S(m, {
        uint32_t lane = (uint32_t)l, b = B[l] & 31, c = C[l] & 31, seg = C[l] >> 8 & 31;
        uint32_t maxl = (lane & seg) | (c & ~seg), minl = lane & seg, j;
        int ok;
        switch (in->sub) {
        case SH_UP: j = lane - b; ok = (int32_t)j >= (int32_t)maxl; break;
        case SH_DOWN: j = lane + b; ok = j <= maxl; break;
        case SH_BFLY: j = lane ^ b; ok = j <= maxl; break;
        default: j = minl | (b & ~seg); ok = j <= maxl; break;
        }
        if (!ok) j = lane;
        /* a source lane not executing the SHFL gives 0 (the H100's answer:
         * gpu/probes/shfl_inactive.cu) */
        out[l] = m >> (j & 31) & 1 ? av[j & 31] : 0;
        pv |= (uint32_t)ok << l;
    });
    put_p(w, &in->o[0], pv, m);
    put_r(w, &in->o[1], out, m);
    return 0;
}

/* ---- VOTE.{ALL,ANY,EQ} [Rd,] Pd, Ps / VOTEU ... URd, UPd, Ps ---- */
enum { V_ALL, V_ANY, V_EQ };

HANDLER(vote)
{
    (void)x;
    unsigned k = 0;
    const sopnd *rd = NULL, *pd = NULL;
    if (in->o[k].kind == SO_R || in->o[k].kind == SO_UR) rd = &in->o[k++];
    if (k + 1 < in->nops) pd = &in->o[k++];
    uint32_t src = sass_pred(w, &in->o[k]) & m;
    uint32_t r;
    switch (in->sub) {
    case V_ALL: r = src == m ? ~0u : 0; break;
    case V_ANY: r = src ? ~0u : 0; break;
    default: r = (src == m || src == 0) ? ~0u : 0; break;
    }
    if (rd) {
        uint32_t v[32];
        for (int l = 0; l < 32; l++) v[l] = src;
        put_r(w, rd, v, m);
    }
    if (pd) put_p(w, pd, r, m);
    return 0;
}

/* ---- MATCH.{ANY,ALL}[.U64] Rd, [Pd,] Ra ---- */
HANDLER(match)
{
    int wide = in->flags & SF_X, all = in->sub;
    unsigned k = 1;
    const sopnd *pd = NULL;
    if (in->o[1].kind == SO_P) pd = &in->o[k++];
    const sopnd *a = &in->o[k];
    uint64_t v[32];
    uint32_t buf[32];
    const uint32_t *A = sass_src(x, w, a, buf);
    LANES_S(m, v[l] = A[l]);
    if (wide && a->kind == SO_R && a->reg != SASS_RZ) LANES_S(m, v[l] |= (uint64_t)w->r[a->reg + 1][l] << 32);
    uint32_t out[32], pv = 0;
    int every = 1;
    LANES_S(m, {
        uint32_t same = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1)
            if (v[__builtin_ctz(mm)] == v[l]) same |= mm & -mm;
        out[l] = same;
        if (same != m) every = 0;
    });
    if (all) {
        LANES_S(m, out[l] = every ? m : 0);
        pv = every ? ~0u : 0;
    }
    put_r(w, &in->o[0], out, m);
    if (pd) put_p(w, pd, pv, m);
    return 0;
}

/* ---- REDUX.{SUM,MIN,MAX,AND,OR,XOR}[.S32] URd, Ra ---- */
enum { RX_SUM, RX_MIN, RX_MAX, RX_AND, RX_OR, RX_XOR };

HANDLER(redux)
{
    uint32_t buf[32];
    const uint32_t *A = SRC(1, buf);
    int sgn = in->flags & SF_SIGNED, first = 1;
    uint32_t acc = 0;
    LANES_S(m, {
        uint32_t v = A[l];
        if (first) {
            acc = v;
            first = 0;
        } else {
            switch (in->sub) {
            case RX_SUM: acc += v; break;
            case RX_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case RX_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case RX_AND: acc &= v; break;
            case RX_OR: acc |= v; break;
            default: acc ^= v; break;
            }
        }
    });
    uint32_t out[32];
    for (int l = 0; l < 32; l++) out[l] = acc;
    put_r(w, &in->o[0], out, m);
    return 0;
}

/* ---- LEPC Rd, addr: the return address a CALL.ABS will use ---- */
HANDLER(lepc)
{
    (void)x;
    const sopnd *d = &in->o[0];
    if (d->kind != SO_R || d->reg == SASS_RZ) return 0;
    uint64_t a = in->nops > 1 ? in->o[1].imm : in->addr + 16;
    LANES_S(m, {
        w->r[d->reg][l] = (uint32_t)a;
        if (d->reg + 1u < SASS_RZ) w->r[d->reg + 1][l] = (uint32_t)(a >> 32);
    });
    return 0;
}

/* ---- CALL.ABS: a call into the CUDA runtime (vprintf, __assertfail) ---- */
/* The NUL-terminated string at the generic address of lane L's R, R+1 (a
 * message of __assertfail), into BUF; "" if it cannot be read. */
static void string_at(sctx *x, const swarp *w, unsigned r, int l, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (r + 1 >= SASS_RZ) return;
    uint64_t a = w->r[r][l] | (uint64_t)w->r[r + 1][l] << 32;
    size_t n = 0;
    for (; n + 1 < cap; n++) {
        char c;
        if (kmem_read(x->mem, a + n, &c, 1) != 0 || !c) break;
        buf[n] = c;
    }
    buf[n] = '\0';
}

HANDLER(call_abs)
{
    const sprog *p = x->prog;
    int first = __builtin_ctz(m);
    if (in->o[0].kind == SO_R && in->o[0].reg + 1u < SASS_RZ && w->r[in->o[0].reg + 1][first] == SASS_B4_FUNC) {
        /* a runtime function bank 4 named */
        uint32_t slot = w->r[in->o[0].reg][first];
        const char *fn = slot < p->nb4sym ? p->b4sym[slot] : NULL;
        if (fn && !strcmp(fn, "vprintf")) {
            LANES_S(m, w->r[4][l] = 0);
            return 0;
        }
        if (fn && !strcmp(fn, "__assertfail")) {
            char msg[200], file[200];
            string_at(x, w, 4, first, msg, sizeof msg);
            string_at(x, w, 6, first, file, sizeof file);
            return sass_fail(x, in, "a device-side assertion failed: %s, at %s:%u (lane %d, warp %u)",
                             msg[0] ? msg : "(its message is in memory coalsim cannot read)", file[0] ? file : "?",
                             w->r[8][first], first, w->index);
        }
        return sass_fail(x, in, "the kernel called the runtime's %s, which coalsim's interpreter does not run",
                         fn ? fn : "function");
    }
    if (p->ext_vprintf && !p->ext_assert) {
        /* printf: the interpreter prints nothing; vprintf returns 0 */
        LANES_S(m, w->r[4][l] = 0);
        return 0;
    }
    (void)w, (void)m;
    if (p->ext_assert && !p->ext_vprintf)
        return sass_fail(x, in, "a device-side assertion failed (the kernel called __assertfail)");
    return sass_fail(x, in, "the kernel called a function of the CUDA runtime (vprintf or __assertfail), which a "
                            "SASS listing cannot name; run the PTX to see which");
}

/* ---- decoding ---- */

static int want_ops(const sprog *p, const sraw *ri, unsigned lo, unsigned hi, char *err, size_t cap)
{
    if (ri->nops < lo || ri->nops > hi)
        return sass_dec_fail(p, ri, err, cap, "expected %u%s%u operands, found %u", lo, lo == hi ? "" : " to ",
                             lo == hi ? 0 : hi, ri->nops) ;
    return 0;
}

DECODE(dec_shfl)
{
    if (want_ops(p, ri, 5, 5, err, cap)) return -1;
    in->kind = SK_OP;
    in->fn = shfl;
    in->sub = sass_has_mod(ri, "UP") ? SH_UP : sass_has_mod(ri, "DOWN") ? SH_DOWN : sass_has_mod(ri, "BFLY") ? SH_BFLY : SH_IDX;
    return 0;
}

DECODE(dec_vote)
{
    if (want_ops(p, ri, 2, 3, err, cap)) return -1;
    in->kind = SK_OP;
    in->fn = vote;
    in->sub = sass_has_mod(ri, "ALL") ? V_ALL : sass_has_mod(ri, "ANY") ? V_ANY : V_EQ;
    if (!sass_has_mod(ri, "ALL") && !sass_has_mod(ri, "ANY") && !sass_has_mod(ri, "EQ"))
        return sass_dec_fail(p, ri, err, cap, "a vote that is not ALL, ANY or EQ");
    return 0;
}

DECODE(dec_match)
{
    if (want_ops(p, ri, 2, 3, err, cap)) return -1;
    in->kind = SK_OP;
    in->fn = match;
    in->sub = (uint8_t)sass_has_mod(ri, "ALL");
    if (sass_has_mod(ri, "U64")) in->flags |= SF_X;
    return 0;
}

DECODE(dec_redux)
{
    static const char *const names[] = {"SUM", "MIN", "MAX", "AND", "OR", "XOR"};
    if (want_ops(p, ri, 2, 2, err, cap)) return -1;
    int op = -1;
    for (int i = 0; i < 6; i++)
        if (sass_has_mod(ri, names[i])) op = i;
    if (op < 0) return sass_dec_fail(p, ri, err, cap, "a reduction coalsim does not know");
    in->kind = SK_OP;
    in->fn = redux;
    in->sub = (uint8_t)op;
    if (sass_has_mod(ri, "S32")) in->flags |= SF_SIGNED;
    return 0;
}

DECODE(dec_lepc)
{
    if (want_ops(p, ri, 1, 2, err, cap)) return -1;
    in->kind = SK_OP;
    in->fn = lepc;
    return 0;
}

/* the target address of a branch or call: its last operand */
static int target_of(const sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)
{
    if (!ri->nops) return sass_dec_fail(p, ri, err, cap, "no target");
    const sopnd *t = &ri->ops[ri->nops - 1];
    if (t->kind != SO_IMM && t->kind != SO_TARGET) return sass_dec_fail(p, ri, err, cap, "a target held in a register");
    in->target = (uint32_t)t->imm;
    if (t->imm != in->target) return sass_dec_fail(p, ri, err, cap, "a target beyond 4 GiB");
    return 0;
}

DECODE(dec_bra)
{
    if (sass_has_mod(ri, "DIV") || sass_has_mod(ri, "CONV")) {
        /* BRA.DIV: taken when the warp is not converged; BRA.CONV (sm_80):
         * when it is */
        in->kind = SK_BRADIV;
        in->sub3 = (uint8_t)sass_has_mod(ri, "CONV");
    } else {
        in->kind = SK_BRA;
        if (ri->nops > 1 && ri->ops[0].kind != SO_P && ri->ops[0].kind != SO_UP)
            return sass_dec_fail(p, ri, err, cap, "an indirect branch (a target held in a register) is not supported");
        if (ri->nops > 1) {
            /* BRA Pp, target: taken where the predicate holds too (an extra guard) */
            in->sub = 1;
        }
    }
    return target_of(p, ri, in, err, cap);
}

DECODE(dec_call)
{
    if (sass_has_mod(ri, "ABS")) {
        in->kind = SK_OP;
        in->fn = call_abs;
        return 0;
    }
    in->kind = SK_CALL;
    return target_of(p, ri, in, err, cap);
}

DECODE(dec_ret)
{
    (void)p, (void)ri, (void)err, (void)cap;
    in->kind = SK_RET;
    return 0;
}

DECODE(dec_exit)
{
    (void)p, (void)ri, (void)err, (void)cap;
    in->kind = SK_EXIT;
    return 0;
}

DECODE(dec_bar)
{
    /* BAR.SYNC[.DEFER_BLOCKING] id[, count] and BAR.ARV id, count: id and
     * count immediates or registers.  Without a count every warp of the
     * block waits (__syncthreads); with one, each warp arriving counts 32
     * threads and the arrival that reaches the count releases the warps
     * waiting at that id (named barriers: bar.sync / bar.arrive id, n).
     * in->sub 1: BAR.ARV, in->sub2 1: a count (operand 1).  BAR.RED
     * (__syncthreads_count/and/or) is not supported. */
    int arv = sass_has_mod(ri, "ARV");
    if ((!sass_has_mod(ri, "SYNC") && !arv) || sass_has_mod(ri, "RED"))
        return sass_dec_fail(p, ri, err, cap, "only BAR.SYNC and BAR.ARV are supported (not BAR.RED: "
                                              "__syncthreads_count/and/or)");
    for (unsigned k = 0; k < ri->nops && k < 2; k++)
        if (ri->ops[k].kind != SO_IMM && ri->ops[k].kind != SO_R)
            return sass_dec_fail(p, ri, err, cap, "a barrier's id and count are immediates or registers");
    if (ri->nops > 2) return sass_dec_fail(p, ri, err, cap, "expected a barrier id and a thread count");
    if (arv && ri->nops != 2) return sass_dec_fail(p, ri, err, cap, "BAR.ARV needs a thread count");
    in->kind = SK_BAR;
    in->sub = (uint8_t)arv;
    in->sub2 = ri->nops == 2;
    return 0;
}

DECODE(dec_nop)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_NOP;
    in->sub = !strncmp(ri->op, "BSYNC", 5);     /* each group of lanes that arrives issues it */
    return 0;
}

HANDLER(trap)
{
    (void)w, (void)m;
    return sass_fail(x, in, "the kernel trapped (BPT.TRAP: __trap(), or a failed bounds or assertion check)");
}

DECODE(dec_trap)
{
    (void)p, (void)ri, (void)err, (void)cap;
    in->kind = SK_UNSUPPORTED;
    in->fn = trap;
    return 0;
}

const sop_entry sass_ops_misc[] = {
    {"SHFL", dec_shfl}, {"VOTE", dec_vote}, {"VOTEU", dec_vote}, {"MATCH", dec_match}, {"REDUX", dec_redux},
    {"LEPC", dec_lepc}, {"BRA", dec_bra}, {"CALL", dec_call}, {"RET", dec_ret}, {"EXIT", dec_exit},
    {"BAR", dec_bar}, {"BSSY", dec_nop}, {"BSYNC", dec_nop}, {"WARPSYNC", dec_nop},
    {"ENDCOLLECTIVE", dec_nop}, {"NOP", dec_nop}, {"YIELD", dec_nop}, {"NANOSLEEP", dec_nop}, {"DEPBAR", dec_nop},
    {"MEMBAR", dec_nop}, {"ERRBAR", dec_nop}, {"CCTL", dec_nop}, {"CCTLL", dec_nop}, {"FENCE", dec_nop},
    {"BPT", dec_trap}, {"KILL", dec_exit}, {NULL, NULL},
};
