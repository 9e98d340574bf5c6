/* Integer, logic, predicate and move instructions of sm_80/sm_90 SASS, and
 * their uniform-datapath twins (UIADD3, UIMAD, ...), which compute one value
 * for the whole warp. */
#include <string.h>

#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)
#define SRC(k, buf) sass_src(x, w, &in->o[k], buf)

/* An integer source with its '-' (two's complement) or '~' (not) applied. */
static const uint32_t *isrc(const sctx *x, const swarp *w, const sopnd *o, uint32_t *buf)
{
    const uint32_t *v = sass_src(x, w, o, buf);
    if (!o->neg && !o->not_) return v;
    for (int l = 0; l < 32; l++) buf[l] = o->neg ? 0u - v[l] : ~v[l];
    return buf;
}

/* For carry arithmetic: the 33-bit contribution of an operand (-x is ~x + 1). */
static inline uint64_t wide_term(const sopnd *o, uint32_t v)
{
    if (o->neg) return (uint64_t)(uint32_t)~v + 1;
    if (o->not_) return (uint64_t)(uint32_t)~v;
    return v;
}

/* Is operand K a predicate (carry in/out)? */
static int is_pred(const sinst *in, unsigned k) { return k < in->nops && (in->o[k].kind == SO_P || in->o[k].kind == SO_UP); }

/* Write V (32 lanes) to destination operand O (R or UR; UR takes the first active lane's). */
static void put(swarp *w, const sopnd *o, const uint32_t *v, uint32_t m)
{
    if (o->kind == SO_UR) {
        if (o->reg != SASS_URZ && m) w->ur[o->reg] = v[__builtin_ctz(m)];
        return;
    }
    if (o->kind != SO_R || o->reg == SASS_RZ) return;
    uint32_t *d = w->r[o->reg];
    LANES_S(m, d[l] = v[l]);
}

static void put_pred(swarp *w, const sopnd *o, uint32_t v, uint32_t m)
{
    if (o->kind == SO_UP) {
        if (o->reg < SASS_PT && m) w->up[o->reg] = (uint8_t)(v >> __builtin_ctz(m) & 1);
        return;
    }
    if (o->kind == SO_P) sass_set_pred(w, o->reg, v, m);
}

/* ---- IADD3 d, [Pc0, [Pc1,]] a, b, c [, Pi0, Pi1] (.X: carries in) ---- */
HANDLER(iadd3)
{
    unsigned k = 1, c0 = 0, c1 = 0;
    if (is_pred(in, 1)) c0 = k++;
    if (is_pred(in, k)) c1 = k++;
    uint32_t ba[32], bb[32], bc[32], out[32], co0 = 0, co1 = 0;
    const uint32_t *A = SRC(k, ba), *B = SRC(k + 1, bb), *C = SRC(k + 2, bc);
    const sopnd *oa = &in->o[k], *ob = &in->o[k + 1], *oc = &in->o[k + 2];
    uint32_t pin0 = 0, pin1 = 0;
    if (in->flags & SF_X) {
        if (k + 3 < in->nops) pin0 = sass_pred(w, &in->o[k + 3]);
        if (k + 4 < in->nops) pin1 = sass_pred(w, &in->o[k + 4]);
    }
    LANES_S(m, {
        uint64_t s = wide_term(oa, A[l]) + wide_term(ob, B[l]) + wide_term(oc, C[l]) + (pin0 >> l & 1) + (pin1 >> l & 1);
        out[l] = (uint32_t)s;
        co0 |= (uint32_t)(s >> 32 & 1) << l;
        co1 |= (uint32_t)(s >> 33 & 1) << l;
    });
    put(w, &in->o[0], out, m);
    if (c0) put_pred(w, &in->o[c0], co0, m);
    if (c1) put_pred(w, &in->o[c1], co1, m);
    return 0;
}

/* UIADD3.64 URd, URa, URb, URc: 64-bit sums of register pairs (sm_90) */
HANDLER(uiadd3_64)
{
    (void)x, (void)m;
    uint64_t s = 0;
    for (unsigned k = 1; k < 4; k++) {
        unsigned r = in->o[k].reg;
        if (r != SASS_URZ) s += (uint64_t)w->ur[r] | (uint64_t)w->ur[r + 1] << 32;
    }
    unsigned d = in->o[0].reg;
    if (d != SASS_URZ) w->ur[d] = (uint32_t)s, w->ur[d + 1] = (uint32_t)(s >> 32);
    return 0;
}

/* ---- IMAD and its forms ---- */
enum { MAD_LO, MAD_HI, MAD_WIDE };

HANDLER(imad)
{
    unsigned k = 1, cout = 0;
    if (is_pred(in, 1)) cout = k++;
    uint32_t ba[32], bb[32], bc[32], bch[32], out[32], outh[32], co = 0;
    const uint32_t *A = SRC(k, ba), *B = SRC(k + 1, bb), *C = SRC(k + 2, bc);
    int sgn = in->flags & SF_SIGNED, mode = in->sub;
    const uint32_t *CH = NULL;
    if (mode == MAD_WIDE || mode == MAD_HI) {
        /* the addend of .WIDE and .HI is the 64-bit pair c, c+1 */
        sopnd hi = in->o[k + 2];
        if (hi.kind == SO_R && hi.reg != SASS_RZ) hi.reg++;
        else if (hi.kind == SO_UR && hi.reg != SASS_URZ) hi.reg++;
        else if (hi.kind == SO_CBANK) hi.off += 4;        /* c[0x0][0x160]: the pair 0x160, 0x164 */
        else if (hi.kind == SO_IMM) hi.imm = 0;
        CH = sass_src(x, w, &hi, bch);
    }
    uint32_t pin = 0;
    if ((in->flags & SF_X) && k + 3 < in->nops) pin = sass_pred(w, &in->o[k + 3]);
    int na = in->o[k].neg, nb = in->o[k + 1].neg, nc = in->o[k + 2].neg;
    LANES_S(m, {
        uint32_t a = na ? 0u - A[l] : A[l], b = nb ? 0u - B[l] : B[l];
        if (mode == MAD_WIDE) {
            uint64_t p = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
            uint64_t c = (uint64_t)CH[l] << 32 | C[l];
            if (nc) c = 0 - c;
            uint64_t r = p + c;
            out[l] = (uint32_t)r;
            outh[l] = (uint32_t)(r >> 32);
        } else if (mode == MAD_HI) {
            /* the high word of a * b + c:c+1 (ptxas's division sequences
             * add q << 32 this way: q + mulhi(q, e)) */
            uint64_t p = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
            uint64_t c = (uint64_t)CH[l] << 32 | C[l];
            if (nc) c = 0 - c;
            unsigned __int128 r = (unsigned __int128)p + c + (pin >> l & 1);
            out[l] = (uint32_t)(r >> 32);
            co |= (uint32_t)(r >> 64 & 1) << l;
        } else {
            uint64_t r = (uint64_t)(uint32_t)(a * b) + wide_term(&in->o[k + 2], C[l]) + (pin >> l & 1);
            out[l] = (uint32_t)r;
            co |= (uint32_t)(r >> 32 & 1) << l;
        }
    });
    put(w, &in->o[0], out, m);
    if (mode == MAD_WIDE) {
        sopnd hi = in->o[0];
        if (hi.kind == SO_R && hi.reg != SASS_RZ) hi.reg++;
        else if (hi.kind == SO_UR && hi.reg != SASS_URZ) hi.reg++;
        else hi.kind = SO_NONE;
        put(w, &hi, outh, m);
    }
    if (cout) put_pred(w, &in->o[cout], co, m);
    return 0;
}

/* ---- LEA d, [Pc,] a, b, s  /  LEA.HI d, [Pc,] a, b, [c,] s [, Pin] ---- */
HANDLER(lea)
{
    unsigned k = 1, cout = 0;
    if (is_pred(in, 1)) cout = k++;
    uint32_t ba[32], bb[32], bc[32], bs[32], out[32], co = 0;
    const uint32_t *A = SRC(k, ba), *B = SRC(k + 1, bb);
    int hi = in->flags & SF_HI, sx = in->sub2;
    const uint32_t *C = NULL, *S;
    unsigned ks;
    if (hi && !sx) {
        C = SRC(k + 2, bc);
        ks = k + 3;
    } else {
        ks = k + 2;
    }
    S = SRC(ks, bs);
    uint32_t pin = 0;
    if ((in->flags & SF_X) && ks + 1 < in->nops) pin = sass_pred(w, &in->o[ks + 1]);
    int na = in->o[k].neg || in->o[k].not_;
    LANES_S(m, {
        uint32_t a = A[l];
        if (na) a = in->o[k].neg ? 0u - a : ~a;
        unsigned s = S[l] & 31;
        uint32_t shifted;
        if (hi) {
            uint32_t c = sx ? (uint32_t)((int32_t)a >> 31) : C[l];
            if (C && (in->o[k + 2].not_ || in->o[k + 2].neg)) c = ~c;
            uint64_t v = (uint64_t)c << 32 | a;
            shifted = (uint32_t)((v << s) >> 32);
        } else {
            shifted = a << s;
        }
        uint64_t r = (uint64_t)shifted + wide_term(&in->o[k + 1], B[l]) + (pin >> l & 1);
        out[l] = (uint32_t)r;
        co |= (uint32_t)(r >> 32 & 1) << l;
    });
    put(w, &in->o[0], out, m);
    if (cout) put_pred(w, &in->o[cout], co, m);
    return 0;
}

/* ---- SHF.{L,R}.{U32,S32,U64,S64}[.HI] d, a, s, b: funnel shift of b:a ---- */
HANDLER(shf)
{
    uint32_t ba[32], bs[32], bb[32], out[32];
    const uint32_t *A = SRC(1, ba), *S = SRC(2, bs), *B = SRC(3, bb);
    int left = in->sub & 1, sgn = in->sub & 2, w64 = in->sub & 4, hi = in->flags & SF_HI;
    LANES_S(m, {
        uint64_t v = (uint64_t)B[l] << 32 | A[l];
        unsigned s = S[l] & (w64 ? 63 : 63);
        if (!w64 && s > 32) s = 32;
        uint64_t r;
        if (left) r = s >= 64 ? 0 : v << s;
        else if (sgn) r = (uint64_t)((int64_t)v >> (s > 63 ? 63 : s));
        else r = s >= 64 ? 0 : v >> s;
        out[l] = hi ? (uint32_t)(r >> 32) : (uint32_t)r;
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* ---- LOP3.LUT [Pu,] d, a, b, c, lut, Pp ---- */
static inline uint32_t lut3(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if (lut >> i & 1) r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
}

HANDLER(lop3)
{
    /* LOP3.LUT [Pu,] d, a, b, c, lut, Pp: a predicate result comes first */
    unsigned k = 1, pout = 0;
    if (in->o[0].kind == SO_P || in->o[0].kind == SO_UP) pout = 1, k = 2;
    uint32_t ba[32], bb[32], bc[32], out[32], pv = 0;
    const uint32_t *A = isrc(x, w, &in->o[k], ba), *B = isrc(x, w, &in->o[k + 1], bb), *C = isrc(x, w, &in->o[k + 2], bc);
    unsigned lut = (unsigned)in->o[k + 3].imm;
    uint32_t pp = k + 4 < in->nops ? sass_pred(w, &in->o[k + 4]) : 0;
    LANES_S(m, {
        out[l] = lut3(A[l], B[l], C[l], lut);
        pv |= (uint32_t)(out[l] != 0) << l;
    });
    put(w, &in->o[pout ? 1 : 0], out, m);
    if (pout) put_pred(w, &in->o[0], pv | pp, m);
    return 0;
}

/* PLOP3.LUT Pu, Pv, Pa, Pb, Pc, lut, lut2 */
HANDLER(plop3)
{
    (void)x;
    uint32_t a = sass_pred(w, &in->o[2]), b = sass_pred(w, &in->o[3]), c = sass_pred(w, &in->o[4]);
    unsigned lut = (unsigned)in->o[5].imm, lut2 = in->nops > 6 ? (unsigned)in->o[6].imm : 0;
    put_pred(w, &in->o[0], lut3(a, b, c, lut), m);
    put_pred(w, &in->o[1], lut3(a, b, c, lut2), m);
    return 0;
}

/* ---- ISETP.cmp[.U32].bop[.EX] Pu, Pv, a, b, Pp [, Pex] ---- */
enum { C_F, C_LT, C_EQ, C_LE, C_GT, C_NE, C_GE, C_T };

HANDLER(isetp)
{
    uint32_t ba[32], bb[32], r = 0;
    const uint32_t *A = isrc(x, w, &in->o[2], ba), *B = isrc(x, w, &in->o[3], bb);
    int sgn = in->flags & SF_SIGNED, cmp = in->sub, bop = in->sub2, ex = in->sub3;
    uint32_t pex = ex && in->nops > 5 ? sass_pred(w, &in->o[5]) : 0;
    LANES_S(m, {
        int64_t a = sgn ? (int64_t)(int32_t)A[l] : (int64_t)A[l], b = sgn ? (int64_t)(int32_t)B[l] : (int64_t)B[l];
        int v, e = (int)(pex >> l & 1);
        switch (cmp) {
        case C_LT: v = a < b || (ex && a == b && e); break;
        case C_EQ: v = a == b && (!ex || e); break;
        case C_LE: v = a < b || (a == b && (!ex || e)); break;
        case C_GT: v = a > b || (ex && a == b && e); break;
        case C_NE: v = a != b || (ex && e); break;
        case C_GE: v = a > b || (a == b && (!ex || e)); break;
        case C_T: v = 1; break;
        default: v = 0; break;
        }
        r |= (uint32_t)v << l;
    });
    uint32_t pp = sass_pred(w, &in->o[4]);
    uint32_t u = bop == 0 ? r & pp : bop == 1 ? r | pp : r ^ pp;
    uint32_t v2 = bop == 0 ? ~r & pp : bop == 1 ? ~r | pp : ~r ^ pp;
    put_pred(w, &in->o[0], u, m);
    put_pred(w, &in->o[1], v2, m);
    return 0;
}

/* SEL d, a, b, P; IMNMX / VIMNMX d, a, b, P (P: min, !P: max) */
HANDLER(sel)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb);
    uint32_t p = sass_pred(w, &in->o[3]);
    LANES_S(m, out[l] = (p >> l & 1) ? A[l] : B[l]);
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(imnmx)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb);
    uint32_t p = sass_pred(w, &in->o[3]);
    int sgn = in->flags & SF_SIGNED;
    LANES_S(m, {
        int lt = sgn ? (int32_t)A[l] < (int32_t)B[l] : A[l] < B[l];
        int mn = p >> l & 1;
        out[l] = (mn ? lt : !lt) ? A[l] : B[l];
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* VIADD d, a, b; VIADDMNMX d, a, b, c, P: min (P) or max of a + b and c */
HANDLER(viadd)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb);
    LANES_S(m, out[l] = A[l] + B[l]);
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(viaddmnmx)
{
    uint32_t ba[32], bb[32], bc[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb), *C = isrc(x, w, &in->o[3], bc);
    uint32_t p = sass_pred(w, &in->o[4]);
    int sgn = in->flags & SF_SIGNED;
    LANES_S(m, {
        uint32_t s = A[l] + B[l];
        int lt = sgn ? (int32_t)s < (int32_t)C[l] : s < C[l];
        out[l] = ((p >> l & 1) ? lt : !lt) ? s : C[l];
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* MOV d, a (UMOV, R2UR: the uniform destination takes the first lane's) */
HANDLER(mov)
{
    uint32_t ba[32];
    put(w, &in->o[0], SRC(1, ba), m);
    return 0;
}

/* R2UR[.OR] Pd, URd, Ra: URd takes the first lane's Ra, and Pd (.OR: Pd or)
 * is set in each lane whose Ra differs from it: the waterfall loop of a
 * value the compiler cannot prove uniform (fast.cu's k12, around its
 * UTMASTG: @P1 BRA.U.ANY back while a lane's value was not the one taken) */
HANDLER(r2ur_p)
{
    uint32_t ba[32];
    const uint32_t *A = SRC(2, ba);
    put(w, &in->o[1], A, m);
    uint32_t v = A[__builtin_ctz(m)], differ = 0;
    LANES_S(m, differ |= (uint32_t)(A[l] != v) << l);
    if (in->sub) differ |= sass_pred(w, &in->o[0]) & m;
    sass_set_pred(w, in->o[0].reg, differ, m);
    return 0;
}

/* S2R / S2UR / CS2R d, SR (CS2R writes a pair: SRZ zeros, the clock) */
HANDLER(s2r)
{
    uint32_t ba[32];
    const uint32_t *v = SRC(1, ba);
    put(w, &in->o[0], v, m);
    if (in->sub) {            /* CS2R: the high word */
        sopnd hi = in->o[0];
        if (hi.reg != SASS_RZ) hi.reg++;
        uint32_t z[32];
        unsigned id = in->o[1].reg;
        for (int l = 0; l < 32; l++) z[l] = id == 7 ? (uint32_t)(w->clock >> 32) : 0;
        put(w, &hi, z, m);
    }
    return 0;
}

/* LDC d, c[b][r+o] / ULDC: .64 a pair, .U8/.S8/.U16/.S16 narrower */
HANDLER(ldc)
{
    uint32_t ba[32], out[32];
    const uint32_t *v = SRC(1, ba);
    put(w, &in->o[0], v, m);
    if (in->width == 8) {
        sopnd src = in->o[1], dst = in->o[0];
        src.off += 4;
        if (dst.reg != (dst.kind == SO_UR ? SASS_URZ : SASS_RZ)) dst.reg++;
        put(w, &dst, sass_src(x, w, &src, out), m);
    }
    return 0;
}

/* FLO.U32 / .S32 [.SH] d, a: the highest set bit (0xffffffff if none) */
HANDLER(flo)
{
    uint32_t ba[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[in->nops - 1], ba);
    int sgn = in->flags & SF_SIGNED, sh = in->sub;
    LANES_S(m, {
        uint32_t a = A[l];
        if (sgn && (int32_t)a < 0) a = ~a;
        uint32_t pos = a ? 31u - (uint32_t)__builtin_clz(a) : 0xffffffffu;
        out[l] = sh && a ? 31 - pos : pos;
    });
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(popc)
{
    uint32_t ba[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba);
    LANES_S(m, out[l] = (uint32_t)__builtin_popcount(A[l]));
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(brev)
{
    uint32_t ba[32], out[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba);
    LANES_S(m, {
        uint32_t v = A[l];
        v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
        v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
        v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
        out[l] = __builtin_bswap32(v);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(iabs)
{
    uint32_t ba[32], out[32];
    const uint32_t *A = SRC(1, ba);
    LANES_S(m, out[l] = (int32_t)A[l] < 0 ? 0u - A[l] : A[l]);
    put(w, &in->o[0], out, m);
    return 0;
}

/* BMSK d, pos, width: width ones from pos (.W: wrap) */
HANDLER(bmsk)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = SRC(1, ba), *B = SRC(2, bb);
    LANES_S(m, {
        unsigned pos = A[l] & 31, wid = B[l] & 63;
        uint64_t mask = wid >= 32 ? 0xffffffffull : ((1ull << wid) - 1);
        out[l] = (uint32_t)(mask << pos);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* SGXT d, a, bits: sign-extend (.U32: zero-extend) the low BITS bits */
HANDLER(sgxt)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = SRC(1, ba), *B = SRC(2, bb);
    int u = in->sub;
    LANES_S(m, {
        unsigned b = B[l] & 63;
        if (b == 0) out[l] = 0;
        else if (b >= 32) out[l] = A[l];
        else if (u) out[l] = A[l] & ((1u << b) - 1);
        else out[l] = (uint32_t)(((int32_t)(A[l] << (32 - b))) >> (32 - b));
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* PRMT d, a, sel, b */
HANDLER(prmt)
{
    uint32_t ba[32], bs[32], bb[32], out[32];
    const uint32_t *A = SRC(1, ba), *S = SRC(2, bs), *B = SRC(3, bb);
    LANES_S(m, {
        uint64_t v = (uint64_t)B[l] << 32 | A[l];
        uint32_t r = 0, c = S[l];
        for (int k = 0; k < 4; k++) {
            unsigned s = (c >> (4 * k)) & 0xf;
            uint32_t byte = (uint32_t)(v >> (8 * (s & 7))) & 0xff;
            if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * k);
        }
        out[l] = r;
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* R2P PR, R, mask: predicates from bits; P2R R, PR, R, mask: bits from predicates */
HANDLER(r2p)
{
    uint32_t ba[32], bm[32];
    const uint32_t *A = SRC(1, ba), *M = SRC(2, bm);
    for (unsigned p = 0; p < 7; p++) {
        uint32_t v = 0, touch = 0;
        LANES_S(m, {
            if (M[l] >> p & 1) touch |= 1u << l, v |= (A[l] >> p & 1) << l;
        });
        sass_set_pred(w, p, v, touch);
    }
    return 0;
}

HANDLER(p2r)
{
    uint32_t ba[32], bm[32], out[32];
    const uint32_t *A = SRC(2, ba), *M = SRC(3, bm);
    LANES_S(m, {
        uint32_t bits = 0;
        for (unsigned p = 0; p < 7; p++) bits |= (w->p[p] >> l & 1) << p;
        out[l] = (A[l] & ~M[l]) | (bits & M[l]);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* ---- decoders ---- */

static int cmp_of(const sraw *ri)
{
    static const char *const names[] = {"F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"};
    for (int k = 0; k < 8; k++)
        if (sass_has_mod(ri, names[k])) return k;
    return -1;
}

/* ---- the common forms without carries, as plain 32-bit arithmetic ---- */

/* the destination row of IN's operand 0, or NULL (RZ, a uniform register) */
static uint32_t *drow(swarp *w, const sinst *in)
{
    const sopnd *o = &in->o[0];
    return o->kind == SO_R && o->reg != SASS_RZ ? w->r[o->reg] : NULL;
}

HANDLER(iadd3_plain)
{
    uint32_t ba[32], bb[32], bc[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb), *C = isrc(x, w, &in->o[3], bc);
    uint32_t *D = drow(w, in);
    if (!D) {
        uint32_t out[32];
        LANES_S(m, out[l] = A[l] + B[l] + C[l]);
        put(w, &in->o[0], out, m);
        return 0;
    }
    LANES_S(m, D[l] = A[l] + B[l] + C[l]);
    return 0;
}

HANDLER(imad_plain)
{
    uint32_t ba[32], bb[32], bc[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb), *C = isrc(x, w, &in->o[3], bc);
    uint32_t *D = drow(w, in);
    if (!D) {
        uint32_t out[32];
        LANES_S(m, out[l] = A[l] * B[l] + C[l]);
        put(w, &in->o[0], out, m);
        return 0;
    }
    LANES_S(m, D[l] = A[l] * B[l] + C[l]);
    return 0;
}

HANDLER(lea_plain)
{
    uint32_t ba[32], bb[32], bs[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb), *S = SRC(3, bs);
    uint32_t *D = drow(w, in);
    uint32_t out[32], *O = D ? D : out;
    LANES_S(m, O[l] = (A[l] << (S[l] & 31)) + B[l]);
    if (!D) put(w, &in->o[0], out, m);
    return 0;
}

/* IMAD.WIDE[.U32] d, a, b, c: the pair d, d+1 = a * b + the pair c, c+1 */
HANDLER(imad_wide_plain)
{
    uint32_t ba[32], bb[32], bc[32], bch[32];
    const uint32_t *A = isrc(x, w, &in->o[1], ba), *B = isrc(x, w, &in->o[2], bb), *C = SRC(3, bc);
    sopnd hi = in->o[3];
    if (hi.kind == SO_R && hi.reg != SASS_RZ) hi.reg++;
    else if (hi.kind == SO_UR && hi.reg != SASS_URZ) hi.reg++;
    else if (hi.kind == SO_CBANK) hi.off += 4;
    else if (hi.kind == SO_IMM) hi.imm = 0;
    const uint32_t *CH = sass_src(x, w, &hi, bch);
    const sopnd *d = &in->o[0];
    uint32_t lo[32], hw[32];
    uint32_t *DL = lo, *DH = hw;
    int direct = d->kind == SO_R && d->reg != SASS_RZ && d->reg + 1u < SASS_RZ && !in->o[3].neg;
    if (direct) DL = w->r[d->reg], DH = w->r[d->reg + 1];
    if (in->flags & SF_SIGNED)
        LANES_S(m, {
            uint64_t v = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + ((uint64_t)CH[l] << 32 | C[l]);
            DL[l] = (uint32_t)v, DH[l] = (uint32_t)(v >> 32);
        });
    else
        LANES_S(m, {
            uint64_t v = (uint64_t)A[l] * B[l] + ((uint64_t)CH[l] << 32 | C[l]);
            DL[l] = (uint32_t)v, DH[l] = (uint32_t)(v >> 32);
        });
    if (!direct) return imad(x, w, in, m);     /* a rarer form (a UR pair, a negated addend): the general one */
    return 0;
}

/* no predicate among operands 1..: no carry in or out */
static int no_preds(const sraw *ri)
{
    for (unsigned k = 1; k < ri->nops; k++)
        if (ri->ops[k].kind == SO_P || ri->ops[k].kind == SO_UP) return 0;
    return 1;
}

DECODE(dec_iadd3)
{
    in->kind = SK_OP;
    if (sass_has_mod(ri, "64")) {
        int ok = ri->op[0] == 'U' && ri->nops == 4 && !sass_has_mod(ri, "X");
        for (unsigned k = 0; ok && k < 4; k++)
            ok = ri->ops[k].kind == SO_UR && !ri->ops[k].neg && !ri->ops[k].not_ &&
                 (ri->ops[k].reg == SASS_URZ || ri->ops[k].reg + 1u < SASS_URZ);
        if (!ok) return sass_dec_fail(p, ri, err, cap, "IADD3.64 is supported as UIADD3.64 URd, URa, URb, URc only");
        in->fn = uiadd3_64;
        return 0;
    }
    if (sass_has_mod(ri, "X")) in->flags |= SF_X;
    in->fn = iadd3;
    if (!(in->flags & SF_X) && no_preds(ri) && ri->nops == 4) in->fn = iadd3_plain;
    return 0;
}

DECODE(dec_imad)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    in->sub = sass_has_mod(ri, "WIDE") ? MAD_WIDE : sass_has_mod(ri, "HI") ? MAD_HI : MAD_LO;
    if (!sass_has_mod(ri, "U32")) in->flags |= SF_SIGNED;
    if (sass_has_mod(ri, "X")) in->flags |= SF_X;
    in->fn = imad;
    if (in->sub == MAD_LO && !(in->flags & SF_X) && no_preds(ri) && ri->nops == 4) in->fn = imad_plain;
    if (in->sub == MAD_WIDE && !(in->flags & SF_X) && no_preds(ri) && ri->nops == 4) in->fn = imad_wide_plain;
    return 0;
}

DECODE(dec_lea)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    if (sass_has_mod(ri, "HI")) in->flags |= SF_HI;
    if (sass_has_mod(ri, "X")) in->flags |= SF_X;
    in->sub2 = (uint8_t)sass_has_mod(ri, "SX32");
    in->fn = lea;
    if (!(in->flags & (SF_HI | SF_X)) && no_preds(ri) && ri->nops == 4) in->fn = lea_plain;
    return 0;
}

DECODE(dec_shf)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    in->sub = (uint8_t)(sass_has_mod(ri, "L") | (sass_has_mod(ri, "S32") || sass_has_mod(ri, "S64") ? 2 : 0) |
                        (sass_has_mod(ri, "U64") || sass_has_mod(ri, "S64") ? 4 : 0));
    if (sass_has_mod(ri, "HI")) in->flags |= SF_HI;
    in->fn = shf;
    return 0;
}

DECODE(dec_lop3)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    in->fn = sass_has_mod(ri, "LUT") ? lop3 : NULL;
    return 0;
}

DECODE(dec_plop3)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    in->fn = ri->nops >= 6 ? plop3 : NULL;
    return 0;
}

DECODE(dec_isetp)
{
    in->kind = SK_OP;
    int c = cmp_of(ri);
    if (c < 0) return sass_dec_fail(p, ri, err, cap, "needs a comparison");
    in->sub = (uint8_t)c;
    in->sub2 = sass_has_mod(ri, "AND") ? 0 : sass_has_mod(ri, "OR") ? 1 : 2;
    in->sub3 = (uint8_t)sass_has_mod(ri, "EX");
    if (!sass_has_mod(ri, "U32")) in->flags |= SF_SIGNED;
    in->fn = isetp;
    return 0;
}

DECODE(dec_simple)
{
    (void)p, (void)err, (void)cap;
    const char *b = ri->op;
    in->kind = SK_OP;
    if (!strncmp(b, "SEL", 3) || !strncmp(b, "USEL", 4)) in->fn = sel;
    else if (!strncmp(b, "IMNMX", 5) || !strncmp(b, "VIMNMX", 6) || !strncmp(b, "UIMNMX", 6)) {
        in->fn = imnmx;
        if (!sass_has_mod(ri, "U32")) in->flags |= SF_SIGNED;
    } else if (!strncmp(b, "VIADDMNMX", 9)) {
        in->fn = viaddmnmx;
        if (!sass_has_mod(ri, "U32")) in->flags |= SF_SIGNED;
    } else if (!strncmp(b, "VIADD", 5)) in->fn = viadd;
    else if (!strncmp(b, "R2UR", 4) && ri->nops == 3 && ri->ops[0].kind == SO_P) {
        in->fn = r2ur_p;
        in->sub = sass_has_mod(ri, "OR");
    } else if (!strncmp(b, "MOV", 3) || !strncmp(b, "UMOV", 4) || !strncmp(b, "R2UR", 4)) in->fn = mov;
    else if (!strncmp(b, "S2R", 3) || !strncmp(b, "S2UR", 4)) in->fn = s2r;
    else if (!strncmp(b, "CS2R", 4)) {
        in->fn = s2r;
        in->sub = 1;
    } else if (!strncmp(b, "LDC", 3) || !strncmp(b, "ULDC", 4)) {
        in->fn = ldc;
        in->width = sass_has_mod(ri, "64") ? 8 : 4;
        if (sass_has_mod(ri, "U8") || sass_has_mod(ri, "S8") || sass_has_mod(ri, "U16") || sass_has_mod(ri, "S16"))
            in->fn = NULL;
    } else if (!strncmp(b, "FLO", 3) || !strncmp(b, "UFLO", 4)) {
        in->fn = flo;
        in->sub = (uint8_t)sass_has_mod(ri, "SH");
        if (sass_has_mod(ri, "S32")) in->flags |= SF_SIGNED;
    } else if (!strncmp(b, "POPC", 4) || !strncmp(b, "UPOPC", 5)) in->fn = popc;
    else if (!strncmp(b, "BREV", 4) || !strncmp(b, "UBREV", 5)) in->fn = brev;
    else if (!strncmp(b, "IABS", 4)) in->fn = iabs;
    else if (!strncmp(b, "BMSK", 4) || !strncmp(b, "UBMSK", 5)) in->fn = bmsk;
    else if (!strncmp(b, "SGXT", 4) || !strncmp(b, "USGXT", 5)) {
        in->fn = sgxt;
        in->sub = (uint8_t)sass_has_mod(ri, "U32");
    } else if (!strncmp(b, "PRMT", 4) || !strncmp(b, "UPRMT", 5)) in->fn = prmt;
    else if (!strncmp(b, "R2P", 3)) in->fn = r2p;
    else if (!strncmp(b, "P2R", 3)) in->fn = p2r;
    return 0;
}

const sop_entry sass_ops_int[] = {
    {"IADD3", dec_iadd3}, {"UIADD3", dec_iadd3}, {"IMAD", dec_imad}, {"UIMAD", dec_imad}, {"LEA", dec_lea},
    {"ULEA", dec_lea}, {"SHF", dec_shf}, {"USHF", dec_shf}, {"LOP3", dec_lop3}, {"ULOP3", dec_lop3},
    {"PLOP3", dec_plop3}, {"UPLOP3", dec_plop3}, {"ISETP", dec_isetp}, {"UISETP", dec_isetp},
    {"SEL", dec_simple}, {"USEL", dec_simple}, {"IMNMX", dec_simple}, {"VIMNMX", dec_simple}, {"UIMNMX", dec_simple},
    {"VIADD", dec_simple}, {"VIADDMNMX", dec_simple}, {"MOV", dec_simple}, {"UMOV", dec_simple}, {"R2UR", dec_simple},
    {"S2R", dec_simple}, {"S2UR", dec_simple}, {"CS2R", dec_simple}, {"LDC", dec_simple}, {"ULDC", dec_simple},
    {"FLO", dec_simple}, {"UFLO", dec_simple}, {"POPC", dec_simple}, {"UPOPC", dec_simple}, {"BREV", dec_simple},
    {"UBREV", dec_simple}, {"IABS", dec_simple}, {"BMSK", dec_simple}, {"UBMSK", dec_simple}, {"SGXT", dec_simple},
    {"USGXT", dec_simple}, {"PRMT", dec_simple}, {"UPRMT", dec_simple}, {"R2P", dec_simple}, {"P2R", dec_simple},
    {NULL, NULL},
};
