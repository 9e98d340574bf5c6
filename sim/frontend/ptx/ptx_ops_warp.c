/* Warp-wide instructions: shfl, vote, activemask, redux, match, elect.  They
 * work on the lanes that execute them (the mask), as on the GPU when the
 * member mask names those lanes. */
#include <string.h>

#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)

enum { S_UP, S_DOWN, S_BFLY, S_IDX };

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA, "shfl.sync") */
HANDLER(shfl)
{
    (void)x;
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    uint64_t src[32], out[32];
    for (int l = 0; l < 32; l++) src[l] = A[l];
    uint32_t pv = 0;
    LANES(m, {
        uint32_t bval = (uint32_t)B[l] & 0x1f, cval = (uint32_t)C[l] & 0x1f, seg = ((uint32_t)C[l] >> 8) & 0x1f;
        uint32_t lane = (uint32_t)l, maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
        int j = 0, ok;
        switch (in->sub) {
        case S_UP: j = (int)lane - (int)bval; ok = j >= (int)maxl; break;
        case S_DOWN: j = (int)(lane + bval); ok = j <= (int)maxl; break;
        case S_BFLY: j = (int)(lane ^ bval); ok = j <= (int)maxl; break;
        default: j = (int)(minl | (bval & ~seg)); ok = j <= (int)maxl; break;
        }
        if (!ok || j < 0 || j > 31) j = l;
        /* a source lane that is not executing the shuffle gives 0 (undefined
         * in the PTX ISA; the H100's answer: gpu/probes/shfl_inactive.cu) */
        out[l] = m >> j & 1 ? src[j] & 0xffffffffu : 0;
        pv |= (uint32_t)ok << l;
    });
    uint64_t *D = SLOT(w, in->d);
    LANES(m, D[l] = out[l]);
    if (in->d2 != UINT32_MAX) PRED(w, in->d2) = (PRED(w, in->d2) & ~m) | (pv & m);
    return 0;
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

HANDLER(vote)
{
    (void)x;
    uint32_t a = (PRED(w, in->a) ^ (in->npred_neg & 1 ? ~0u : 0)) & m;
    if (in->sub == V_BALLOT) {
        uint64_t *D = SLOT(w, in->d);
        LANES(m, D[l] = a);
        return 0;
    }
    int r = in->sub == V_ALL ? a == m : in->sub == V_ANY ? a != 0 : (a == 0 || a == m);
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (r ? m : 0);
    return 0;
}

HANDLER(activemask)
{
    (void)x;
    uint64_t *D = SLOT(w, in->d);
    LANES(m, D[l] = m);
    return 0;
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

HANDLER(redux)
{
    (void)x;
    const uint64_t *A = SLOT(w, in->a);
    int sgn = ptype_signed((ptype)in->type);
    uint32_t acc = in->sub == R_AND ? 0xffffffffu : in->sub == R_MIN ? (sgn ? 0x7fffffffu : 0xffffffffu)
                 : in->sub == R_MAX ? (sgn ? 0x80000000u : 0) : 0;
    LANES(m, {
        uint32_t v = (uint32_t)A[l];
        switch (in->sub) {
        case R_ADD: acc += v; break;
        case R_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case R_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case R_AND: acc &= v; break;
        case R_OR: acc |= v; break;
        default: acc ^= v; break;
        }
    });
    uint64_t *D = SLOT(w, in->d);
    LANES(m, D[l] = acc);
    return 0;
}

/* match.any: the lanes with the same value; match.all: all of M if they agree */
HANDLER(match)
{
    (void)x;
    const uint64_t *A = SLOT(w, in->a);
    uint64_t vmask = in->type == PT_B64 ? ~0ull : 0xffffffffull;
    uint64_t *D = SLOT(w, in->d);
    uint64_t out[32];
    uint32_t allsame = 1;
    LANES(m, {
        uint32_t same = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int k = __builtin_ctz(mm);
            if ((A[k] & vmask) == (A[l] & vmask)) same |= 1u << k;
        }
        out[l] = same;
        if (same != m) allsame = 0;
    });
    if (in->sub) {           /* all */
        LANES(m, D[l] = allsame ? m : 0);
        if (in->d2 != UINT32_MAX) PRED(w, in->d2) = (PRED(w, in->d2) & ~m) | (allsame ? m : 0);
    } else {
        LANES(m, D[l] = out[l]);
    }
    return 0;
}

/* elect.sync d|p, membermask: the lowest executing lane of the member
 * mask leads */
HANDLER(elect)
{
    (void)x;
    uint32_t cand = m & (uint32_t)SLOT(w, in->e)[__builtin_ctz(m)];
    uint32_t leader = cand & (0u - cand);
    uint64_t *D = SLOT(w, in->d);
    LANES(m, D[l] = leader ? (uint64_t)__builtin_ctz(leader) : 0);
    if (in->d2 != UINT32_MAX) PRED(w, in->d2) = (PRED(w, in->d2) & ~m) | leader;
    return 0;
}

/* ---- decoding ---- */

#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

/* The second predicate of "d|p" (or none). */
static int second_pred(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    in->d2 = UINT32_MAX;
    if (!ri->ops[0].name2) return 0;
    raw_inst tmp = *ri;
    tmp.ops[0].name = ri->ops[0].name2;
    tmp.ops[0].name2 = NULL;
    (void)p;
    return ptx_dec_pred(f, &tmp, 0, &in->d2, NULL, err, cap);
}

DECODE(dec_shfl)
{
    in->kind = K_OP;
    static const char *const modes[] = {"up", "down", "bfly", "idx"};
    int mode = -1;
    for (int k = 0; k < 4; k++)
        if (ptx_has_mod(ri, modes[k])) mode = k;
    if (mode < 0) return ptx_dec_fail(p, ri, err, cap, "needs a mode (up, down, bfly, idx)");
    in->sub = (uint8_t)mode;
    unsigned want = ptx_has_mod(ri, "sync") ? 5 : 4;
    if (ri->nops != want) return ptx_dec_fail(p, ri, err, cap, "needs %u operands", want);
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || second_pred(p, f, ri, in, err, cap) ||
        ptx_dec_src(p, f, ri, 1, PT_B32, &in->a, err, cap) || ptx_dec_src(p, f, ri, 2, PT_B32, &in->b, err, cap) ||
        ptx_dec_src(p, f, ri, 3, PT_B32, &in->c, err, cap))
        return -1;
    if (want == 5 && ptx_dec_src(p, f, ri, 4, PT_B32, &in->e, err, cap)) return -1;
    in->fn = shfl;
    return 0;
}

DECODE(dec_vote)
{
    in->kind = K_OP;
    static const char *const modes[] = {"all", "any", "uni", "ballot"};
    int mode = -1;
    for (int k = 0; k < 4; k++)
        if (ptx_has_mod(ri, modes[k])) mode = k;
    if (mode < 0) return ptx_dec_fail(p, ri, err, cap, "needs a mode (all, any, uni, ballot)");
    in->sub = (uint8_t)mode;
    unsigned want = ptx_has_mod(ri, "sync") ? 3 : 2;
    if (ri->nops != want) return ptx_dec_fail(p, ri, err, cap, "needs %u operands", want);
    int neg = 0;
    if ((mode == V_BALLOT ? ptx_dec_dst(f, ri, 0, &in->d, err, cap) : ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap)) ||
        ptx_dec_pred(f, ri, 1, &in->a, &neg, err, cap))
        return -1;
    in->npred_neg = (uint8_t)neg;
    if (want == 3 && ptx_dec_src(p, f, ri, 2, PT_B32, &in->e, err, cap)) return -1;
    in->fn = vote;
    return 0;
}

DECODE(dec_activemask)
{
    in->kind = K_OP;
    if (ri->nops != 1 || ptx_dec_dst(f, ri, 0, &in->d, err, cap))
        return ri->nops != 1 ? ptx_dec_fail(p, ri, err, cap, "needs 1 operand") : -1;
    in->fn = activemask;
    return 0;
}

DECODE(dec_redux)
{
    in->kind = K_OP;
    static const char *const ops[] = {"add", "min", "max", "and", "or", "xor"};
    int op = -1;
    for (int k = 0; k < 6; k++)
        if (ptx_has_mod(ri, ops[k])) op = k;
    ptype t = ptx_mod_type(ri, 0);
    in->type = (uint8_t)t;
    if (ri->nops != 3) return ptx_dec_fail(p, ri, err, cap, "needs 3 operands");
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap) ||
        ptx_dec_src(p, f, ri, 2, PT_B32, &in->e, err, cap))
        return -1;
    if (op < 0 || ptype_bytes(t) != 4 || ptype_float(t)) return 0;
    in->sub = (uint8_t)op;
    in->fn = redux;
    return 0;
}

DECODE(dec_match)
{
    in->kind = K_OP;
    ptype t = ptx_mod_type(ri, 0);
    in->type = (uint8_t)t;
    in->sub = (uint8_t)ptx_has_mod(ri, "all");
    if (ri->nops != 3) return ptx_dec_fail(p, ri, err, cap, "needs 3 operands");
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || second_pred(p, f, ri, in, err, cap) ||
        ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap) || ptx_dec_src(p, f, ri, 2, PT_B32, &in->e, err, cap))
        return -1;
    in->fn = match;
    return 0;
}

DECODE(dec_elect)
{
    in->kind = K_OP;
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands");
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || second_pred(p, f, ri, in, err, cap) ||
        ptx_dec_src(p, f, ri, 1, PT_B32, &in->e, err, cap))
        return -1;
    in->fn = elect;
    return 0;
}

const pop_entry ptx_ops_warp[] = {
    {"shfl", dec_shfl}, {"vote", dec_vote}, {"activemask", dec_activemask}, {"redux", dec_redux},
    {"match", dec_match}, {"elect", dec_elect}, {NULL, NULL},
};
