/* Floating-point instructions: f32 (FFMA, FMUL, FADD, FMNMX, FSEL, FSETP,
 * FCHK, FRND, MUFU), f64 (DFMA, DMUL, DADD, DSETP, DMNMX, MUFU.RCP64H),
 * half pairs (HFMA2, HADD2, HMUL2, HMNMX2) and conversions (F2I, I2F, I2FP, F2F,
 * F2FP).  Round to nearest is C's; .RZ/.RM/.RP go through fenv.  MUFU's
 * approximations are exact here: values differ in the last bits. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "frontend/kernel/fbits.h"
#include "frontend/ptx/ptx.h"
#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)

/* the short names this file's handlers use */
static inline float F(uint32_t u) { return f32_from_bits(u); }
static inline uint32_t FB(float f) { return f32_bits(f); }
static inline double D(uint64_t u) { return f64_from_bits(u); }
static inline uint64_t DB(double d) { return f64_bits(d); }

/* An f32 source: a decimal immediate is its value, a hex one its bits;
 * then |..| and '-'. */
static const uint32_t *fsrc(const sctx *x, const swarp *w, const sopnd *o, uint32_t *buf)
{
    const uint32_t *v;
    if (o->kind == SO_IMM && !o->hex && !o->isfloat) {
        uint32_t b = FB((float)(int64_t)o->imm);
        for (int l = 0; l < 32; l++) buf[l] = b;
        v = buf;
    } else {
        v = sass_src(x, w, o, buf);
    }
    if (!o->abs && !o->neg) return v;
    for (int l = 0; l < 32; l++) {
        uint32_t u = v[l];
        if (o->abs) u &= 0x7fffffffu;
        if (o->neg) u ^= 0x80000000u;
        buf[l] = u;
    }
    return buf;
}

/* An f64 source (a register pair, or an immediate's value). */
static void dsrc(const sctx *x, const swarp *w, const sopnd *o, double *out)
{
    if (o->kind == SO_IMM) {
        double v = o->isfloat ? o->fval : o->hex ? D(o->imm << 32) : (double)(int64_t)o->imm;
        for (int l = 0; l < 32; l++) out[l] = v;
    } else {
        uint32_t lo[32], hi[32];
        const uint32_t *L = sass_src(x, w, o, lo);
        sopnd h = *o;
        if (h.kind == SO_R && h.reg != SASS_RZ) h.reg++;
        else if (h.kind == SO_UR && h.reg != SASS_URZ) h.reg++;
        else if (h.kind == SO_CBANK) h.off += 4;
        const uint32_t *H = sass_src(x, w, &h, hi);
        for (int l = 0; l < 32; l++) out[l] = D((uint64_t)H[l] << 32 | L[l]);
    }
    for (int l = 0; l < 32; l++) {
        if (o->abs) out[l] = fabs(out[l]);
        if (o->neg) out[l] = -out[l];
    }
}

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

static void dput(swarp *w, const sopnd *o, const double *v, uint32_t m)
{
    if (o->kind != SO_R || o->reg == SASS_RZ) return;
    uint32_t *lo = w->r[o->reg], *hi = w->r[o->reg + 1];
    LANES_S(m, {
        uint64_t u = DB(v[l]);
        lo[l] = (uint32_t)u;
        hi[l] = (uint32_t)(u >> 32);
    });
}

static int rmode(const sinst *in) { return in->sub3 == 1 ? FE_TOWARDZERO : in->sub3 == 2 ? FE_DOWNWARD : in->sub3 == 3 ? FE_UPWARD : FE_TONEAREST; }
static inline float sat01(float v) { return v != v ? 0.0f : v < 0 ? 0.0f : v > 1 ? 1.0f : v; }
/* .FTZ: subnormal inputs and results are zero (keeping the sign) */
static inline float ftz(float v) { return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v; }

/* FFMA / FMUL / FADD d, a, b[, c] */
HANDLER(farith)
{
    uint32_t ba[32], bb[32], bc[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);
    const uint32_t *C = in->sub == 0 ? fsrc(x, w, &in->o[3], bc) : NULL;
    int old = fegetround(), mode = rmode(in), f = in->flags & SF_FTZ, sat = in->flags & SF_SAT;
    if (mode != old) fesetround(mode);
    LANES_S(m, {
        float a = F(A[l]), b = F(B[l]), r;
        if (f) a = ftz(a), b = ftz(b);
        if (in->sub == 0) r = fmaf(a, b, f ? ftz(F(C[l])) : F(C[l]));
        else if (in->sub == 1) r = a * b;
        else r = a + b;
        if (f) r = ftz(r);
        if (sat) r = sat01(r);
        out[l] = FB(r);
    });
    if (mode != old) fesetround(old);
    put(w, &in->o[0], out, m);
    return 0;
}

/* FMNMX d, a, b, P (P: min, !P: max); FSEL d, a, b, P */
HANDLER(fmnmx)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);
    uint32_t p = sass_pred(w, &in->o[3]);
    LANES_S(m, {
        float a = F(A[l]), b = F(B[l]), r;
        if (a != a) r = b;
        else if (b != b) r = a;
        else r = (p >> l & 1) ? (a < b ? a : b) : (a > b ? a : b);
        out[l] = FB(r);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

HANDLER(fsel)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);
    uint32_t p = sass_pred(w, &in->o[3]);
    LANES_S(m, out[l] = (p >> l & 1) ? A[l] : B[l]);
    put(w, &in->o[0], out, m);
    return 0;
}

enum { F_F, F_LT, F_EQ, F_LE, F_GT, F_NE, F_GE, F_NUM, F_NAN, F_LTU, F_EQU, F_LEU, F_GTU, F_NEU, F_GEU, F_T };

static int fcmp(int c, double a, double b)
{
    int un = a != a || b != b;
    switch (c) {
    case F_LT: return !un && a < b;
    case F_EQ: return !un && a == b;
    case F_LE: return !un && a <= b;
    case F_GT: return !un && a > b;
    case F_NE: return !un && a != b;
    case F_GE: return !un && a >= b;
    case F_NUM: return !un;
    case F_NAN: return un;
    case F_LTU: return un || a < b;
    case F_EQU: return un || a == b;
    case F_LEU: return un || a <= b;
    case F_GTU: return un || a > b;
    case F_NEU: return un || a != b;
    case F_GEU: return un || a >= b;
    case F_T: return 1;
    default: return 0;
    }
}

static void set2(swarp *w, const sinst *in, uint32_t r, uint32_t m)
{
    uint32_t pp = sass_pred(w, &in->o[4]);
    int bop = in->sub2;
    uint32_t u = bop == 0 ? r & pp : bop == 1 ? r | pp : r ^ pp;
    uint32_t v = bop == 0 ? ~r & pp : bop == 1 ? ~r | pp : ~r ^ pp;
    if (in->o[0].kind == SO_P) sass_set_pred(w, in->o[0].reg, u, m);
    if (in->o[1].kind == SO_P) sass_set_pred(w, in->o[1].reg, v, m);
}

/* FSETP.cmp.bop Pu, Pv, a, b, Pp */
HANDLER(fsetp)
{
    uint32_t ba[32], bb[32], r = 0;
    const uint32_t *A = fsrc(x, w, &in->o[2], ba), *B = fsrc(x, w, &in->o[3], bb);
    int f = in->flags & SF_FTZ;
    LANES_S(m, {
        float a = F(A[l]), b = F(B[l]);
        if (f) a = ftz(a), b = ftz(b);
        r |= (uint32_t)fcmp(in->sub, a, b) << l;
    });
    set2(w, in, r, m);
    return 0;
}

/* DSETP.cmp.bop Pu, Pv, a, b, Pp */
HANDLER(dsetp)
{
    double A[32], B[32];
    uint32_t r = 0;
    dsrc(x, w, &in->o[2], A);
    dsrc(x, w, &in->o[3], B);
    LANES_S(m, r |= (uint32_t)fcmp(in->sub, A[l], B[l]) << l);
    set2(w, in, r, m);
    return 0;
}

/* FCHK P, a, b: true where a / b needs the slow, exact path (b zero,
 * infinite, NaN or subnormal, a not finite, or the quotient near the edge
 * of the exponent range) */
HANDLER(fchk)
{
    uint32_t ba[32], bb[32], r = 0;
    const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);
    LANES_S(m, {
        float a = F(A[l]), b = F(B[l]);
        int ea = (int)(A[l] >> 23 & 0xff), eb = (int)(B[l] >> 23 & 0xff);
        int slow = !isnormal(b) || !isfinite(a) || (a != 0 && !isnormal(a)) || (a != 0 && (ea - eb > 126 || ea - eb < -125));
        r |= (uint32_t)slow << l;
    });
    if (in->o[0].kind == SO_P) sass_set_pred(w, in->o[0].reg, r, m);
    return 0;
}

/* FRND[.FLOOR|.CEIL|.TRUNC] d, a (.F64 on doubles) */
HANDLER(frnd)
{
    if (in->width == 8) {
        double A[32], out[32];
        dsrc(x, w, &in->o[1], A);
        LANES_S(m, out[l] = in->sub == 1 ? floor(A[l]) : in->sub == 2 ? ceil(A[l]) : in->sub == 3 ? trunc(A[l]) : nearbyint(A[l]));
        dput(w, &in->o[0], out, m);
        return 0;
    }
    uint32_t ba[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba);
    LANES_S(m, {
        float a = F(A[l]);
        out[l] = FB(in->sub == 1 ? floorf(a) : in->sub == 2 ? ceilf(a) : in->sub == 3 ? truncf(a) : nearbyintf(a));
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* MUFU.op d, a */
enum { MU_RCP, MU_RSQ, MU_EX2, MU_LG2, MU_SIN, MU_COS, MU_SQRT, MU_TANH, MU_RCP64H, MU_RSQ64H };
HANDLER(mufu)
{
    uint32_t ba[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba);
    LANES_S(m, {
        float a = F(A[l]), r;
        switch (in->sub) {
        case MU_RCP: r = 1.0f / a; break;
        case MU_RSQ: r = 1.0f / sqrtf(a); break;
        case MU_EX2: r = exp2f(a); break;
        case MU_LG2: r = log2f(a); break;
        case MU_SIN: r = sinf(a); break;
        case MU_COS: r = cosf(a); break;
        case MU_SQRT: r = sqrtf(a); break;
        case MU_TANH: r = tanhf(a); break;
        case MU_RCP64H:
        case MU_RSQ64H: {
            /* the high word of 1/d (or 1/sqrt(d)) for the double whose high word is a */
            double dv = D((uint64_t)A[l] << 32);
            double q = in->sub == MU_RCP64H ? 1.0 / dv : 1.0 / sqrt(dv);
            out[l] = (uint32_t)(DB(q) >> 32);
            continue;
        }
        default: r = a; break;
        }
        out[l] = FB(r);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* DFMA / DMUL / DADD d, a, b[, c]; DMNMX d, a, b, P */
HANDLER(darith)
{
    double A[32], B[32], C[32], out[32];
    dsrc(x, w, &in->o[1], A);
    dsrc(x, w, &in->o[2], B);
    if (in->sub == 0) dsrc(x, w, &in->o[3], C);
    int old = fegetround(), mode = rmode(in);
    if (mode != old) fesetround(mode);
    LANES_S(m, out[l] = in->sub == 0 ? fma(A[l], B[l], C[l]) : in->sub == 1 ? A[l] * B[l] : A[l] + B[l]);
    if (mode != old) fesetround(old);
    dput(w, &in->o[0], out, m);
    return 0;
}

HANDLER(dmnmx)
{
    double A[32], B[32], out[32];
    dsrc(x, w, &in->o[1], A);
    dsrc(x, w, &in->o[2], B);
    uint32_t p = sass_pred(w, &in->o[3]);
    LANES_S(m, {
        double a = A[l], b = B[l];
        out[l] = a != a ? b : b != b ? a : (p >> l & 1) ? (a < b ? a : b) : (a > b ? a : b);
    });
    dput(w, &in->o[0], out, m);
    return 0;
}

/* ---- conversions ---- */

/* F2I[.FTZ].{U32,S32,U64,S64}[.F64|.F16].{TRUNC,FLOOR,CEIL}[.NTZ] d, a (.F16: the low half of a, or a.H1's high one) */
HANDLER(f2i)
{
    double A[32];
    if (in->sub2 == 1) {
        dsrc(x, w, &in->o[1], A);
    } else if (in->sub2 == 2) {     /* .F16: the source register's low half (.H1: its high half) */
        uint32_t ba[32];
        const uint32_t *S = sass_src(x, w, &in->o[1], ba);
        unsigned sh = in->o[1].half == 2 ? 16 : 0;
        for (int l = 0; l < 32; l++) A[l] = ptx_half_to_float((uint16_t)(S[l] >> sh));
    } else {
        uint32_t ba[32];
        const uint32_t *S = fsrc(x, w, &in->o[1], ba);
        for (int l = 0; l < 32; l++) A[l] = F(S[l]);
    }
    uint32_t lo[32], hi[32];
    int sgn = in->flags & SF_SIGNED, bits = in->width * 8;
    LANES_S(m, {
        double v = A[l];
        v = in->sub == 1 ? floor(v) : in->sub == 2 ? ceil(v) : in->sub == 3 ? nearbyint(v) : trunc(v);
        uint64_t r;
        if (v != v) r = 0;
        else if (sgn) {
            double mx = ldexp(1, bits - 1);
            int64_t i = v >= mx ? (int64_t)(mx - 1) : v < -mx ? (int64_t)-mx : (int64_t)v;
            if (bits == 64 && v >= mx) i = INT64_MAX;
            r = (uint64_t)i;
        } else {
            double mx = ldexp(1, bits);
            r = v <= 0 ? 0 : v >= mx ? (bits == 64 ? UINT64_MAX : (1ull << bits) - 1) : (uint64_t)v;
        }
        lo[l] = (uint32_t)r;
        hi[l] = (uint32_t)(r >> 32);
    });
    put(w, &in->o[0], lo, m);
    if (bits == 64 && in->o[0].kind == SO_R && in->o[0].reg != SASS_RZ) {
        uint32_t *d = w->r[in->o[0].reg + 1];
        LANES_S(m, d[l] = hi[l]);
    }
    return 0;
}

/* V (an integer's exact value) as a bf16 in the current rounding mode:
 * rounded once to 8 significant bits (through a float it could round twice
 * above 2^24). */
static uint16_t int_to_bf16(double v)
{
    if (v == 0) return 0;
    int e;
    double m = frexp(v, &e);
    float f = (float)ldexp(nearbyint(ldexp(m, 8)), e - 8);    /* 8 bits: exact in a float and in a bf16 */
    return ptx_float_to_bf16(f);
}

/* I2F[.F64|.F16|.BF16][.{U32,S32,U64,S64}][.RP|.RZ|.RM] d, a (.F16, .BF16:
 * the 16 bits in d's low half, the high half 0); I2FP.F32.{U32,S32}[.RZ] d, a */
HANDLER(i2f)
{
    uint32_t ba[32], bh[32], out[32];
    const uint32_t *A = sass_src(x, w, &in->o[1], ba), *H = NULL;
    int src64 = in->sub2, sgn = in->flags & SF_SIGNED, dst64 = in->width == 8;
    if (src64) {
        sopnd h = in->o[1];
        if (h.kind == SO_R && h.reg != SASS_RZ) h.reg++;
        else if (h.kind == SO_UR && h.reg != SASS_URZ) h.reg++;
        else if (h.kind == SO_CBANK) h.off += 4;
        else h.kind = SO_NONE;
        H = sass_src(x, w, &h, bh);
    }
    int old = fegetround(), mode = rmode(in);
    if (mode != old) fesetround(mode);
    if (dst64) {
        double out64[32];
        LANES_S(m, {
            uint64_t v = src64 ? (uint64_t)H[l] << 32 | A[l] : A[l];
            out64[l] = src64 ? (sgn ? (double)(int64_t)v : (double)v) : (sgn ? (double)(int32_t)A[l] : (double)A[l]);
        });
        if (mode != old) fesetround(old);
        dput(w, &in->o[0], out64, m);
        return 0;
    }
    if (in->sub) {                  /* .F16 (exact through a float: larger than 65504 is infinite) or .BF16 */
        LANES_S(m, {
            double v = sgn ? (double)(int32_t)A[l] : (double)A[l];
            if (src64) {
                uint64_t u = (uint64_t)H[l] << 32 | A[l];
                v = sgn ? (double)(int64_t)u : (double)u;
            }
            out[l] = in->sub == 1 ? ptx_float_to_half((float)v) : int_to_bf16(v);
        });
        if (mode != old) fesetround(old);
        put(w, &in->o[0], out, m);
        return 0;
    }
    LANES_S(m, {
        float f;
        if (src64) {
            uint64_t v = (uint64_t)H[l] << 32 | A[l];
            f = sgn ? (float)(int64_t)v : (float)v;
        } else {
            f = sgn ? (float)(int32_t)A[l] : (float)A[l];
        }
        out[l] = FB(f);
    });
    if (mode != old) fesetround(old);
    put(w, &in->o[0], out, m);
    return 0;
}

/* F2F.{F64.F32, F32.F64, F16.F32, F32.F16} d, a */
HANDLER(f2f)
{
    uint32_t out[32];
    int old = fegetround(), mode = rmode(in);
    if (mode != old) fesetround(mode);
    if (in->sub == 0) {             /* F64 <- F32 */
        uint32_t ba[32];
        const uint32_t *A = fsrc(x, w, &in->o[1], ba);
        double r[32];
        LANES_S(m, r[l] = F(A[l]));
        if (mode != old) fesetround(old);
        dput(w, &in->o[0], r, m);
        return 0;
    }
    if (in->sub == 1) {             /* F32 <- F64 */
        double A[32];
        dsrc(x, w, &in->o[1], A);
        LANES_S(m, out[l] = FB((float)A[l]));
    } else if (in->sub == 2) {      /* F16 <- F32 */
        uint32_t ba[32];
        const uint32_t *A = fsrc(x, w, &in->o[1], ba);
        LANES_S(m, out[l] = ptx_float_to_half(F(A[l])));
    } else {                        /* F32 <- F16 */
        uint32_t ba[32];
        const uint32_t *A = sass_src(x, w, &in->o[1], ba);
        int hi = in->o[1].half == 2;
        LANES_S(m, out[l] = FB(ptx_half_to_float((uint16_t)(hi ? A[l] >> 16 : A[l]))));
    }
    if (mode != old) fesetround(old);
    put(w, &in->o[0], out, m);
    return 0;
}

/* F2FP.{F16,BF16}.F32.PACK_AB d, a, b: d = {a (high half), b (low half)} */
HANDLER(f2fp)
{
    uint32_t ba[32], bb[32], out[32];
    const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);
    int bf = in->sub;
    LANES_S(m, {
        uint16_t h = bf ? ptx_float_to_bf16(F(A[l])) : ptx_float_to_half(F(A[l]));
        uint16_t lo = bf ? ptx_float_to_bf16(F(B[l])) : ptx_float_to_half(F(B[l]));
        out[l] = (uint32_t)h << 16 | lo;
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* ---- half pairs: HFMA2 d, a, b, c; HADD2 d, a, b; HMUL2 d, a, b ---- */

/* The two halves of operand O (an immediate pair "hi, lo" is two operands:
 * the decoder folded them into one with the bits). */
static void halves(const sctx *x, const swarp *w, const sopnd *o, float *lo, float *hi)
{
    uint32_t buf[32];
    const uint32_t *v = sass_src(x, w, o, buf);
    for (int l = 0; l < 32; l++) {
        uint32_t u = v[l];
        float a = ptx_half_to_float((uint16_t)u), b = ptx_half_to_float((uint16_t)(u >> 16));
        if (o->half == 1) b = a;            /* .H0_H0 */
        else if (o->half == 2) a = b;       /* .H1_H1 */
        if (o->abs) a = fabsf(a), b = fabsf(b);
        if (o->neg) a = -a, b = -b;
        lo[l] = a, hi[l] = b;
    }
}

HANDLER(harith)
{
    float al[32], ah[32], bl[32], bh[32], cl[32], ch[32];
    uint32_t out[32];
    halves(x, w, &in->o[1], al, ah);
    halves(x, w, &in->o[2], bl, bh);
    if (in->sub == 0) halves(x, w, &in->o[3], cl, ch);
    LANES_S(m, {
        float lo, hi;
        if (in->sub == 0) lo = fmaf(al[l], bl[l], cl[l]), hi = fmaf(ah[l], bh[l], ch[l]);
        else if (in->sub == 1) lo = al[l] + bl[l], hi = ah[l] + bh[l];
        else lo = al[l] * bl[l], hi = ah[l] * bh[l];
        /* .F32: one f32 result from the low halves, computed in f32
         * (ptxas's half-to-float conversion: HADD2.F32 d, -RZ, a.H0_H0) */
        out[l] = in->sub3 ? FB(lo) : (uint32_t)ptx_float_to_half(hi) << 16 | ptx_float_to_half(lo);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* HMNMX2 d, a, b, P: each half the minimum (P) or maximum (!P), a NaN
 * giving the other operand, as FMNMX */
HANDLER(hmnmx2)
{
    float al[32], ah[32], bl[32], bh[32];
    uint32_t out[32];
    halves(x, w, &in->o[1], al, ah);
    halves(x, w, &in->o[2], bl, bh);
    uint32_t p = sass_pred(w, &in->o[3]);
    LANES_S(m, {
        float r[2], a2[2] = {al[l], ah[l]}, b2[2] = {bl[l], bh[l]};
        for (int k = 0; k < 2; k++) {
            float a = a2[k], b = b2[k];
            if (a != a) r[k] = b;
            else if (b != b) r[k] = a;
            else r[k] = (p >> l & 1) ? (a < b ? a : b) : (a > b ? a : b);
        }
        out[l] = (uint32_t)ptx_float_to_half(r[1]) << 16 | ptx_float_to_half(r[0]);
    });
    put(w, &in->o[0], out, m);
    return 0;
}

/* ---- decoders ---- */

static int fcmp_of(const sraw *ri)
{
    static const char *const names[] = {"F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU",
                                        "GTU", "NEU", "GEU", "T"};
    for (int k = 0; k < 16; k++)
        if (sass_has_mod(ri, names[k])) return k;
    return -1;
}

/* FFMA, FMUL, FADD without .FTZ, .SAT or a rounding mode: straight into
 * the destination (the processor's FMA instruction when it has one) */
#define FPLAIN(name, attr, expr)                                                                    \
    attr static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)                           \
    {                                                                                              \
        uint32_t ba[32], bb[32], bc[32], out[32];                                                  \
        const uint32_t *A = fsrc(x, w, &in->o[1], ba), *B = fsrc(x, w, &in->o[2], bb);             \
        const uint32_t *C = in->nops > 3 ? fsrc(x, w, &in->o[3], bc) : NULL;                       \
        (void)C;                                                                                   \
        uint32_t *O = in->o[0].kind == SO_R && in->o[0].reg != SASS_RZ ? w->r[in->o[0].reg] : out; \
        LANES_S(m, O[l] = FB(expr));                                                               \
        if (O == out) put(w, &in->o[0], out, m);                                                   \
        return 0;                                                                                  \
    }
FPLAIN(fmul_plain, , F(A[l]) * F(B[l]))
FPLAIN(fadd_plain, , F(A[l]) + F(B[l]))
FPLAIN(ffma_plain, , fmaf(F(A[l]), F(B[l]), F(C[l])))
#if defined(__x86_64__) && defined(__GNUC__)
FPLAIN(ffma_plain_hw, __attribute__((target("fma"))), __builtin_fmaf(F(A[l]), F(B[l]), F(C[l])))
static sop_fn best_ffma(void) { return __builtin_cpu_supports("fma") ? ffma_plain_hw : ffma_plain; }
#else
static sop_fn best_ffma(void) { return ffma_plain; }
#endif

static uint8_t round_of(const sraw *ri)
{
    return sass_has_mod(ri, "RZ") ? 1 : sass_has_mod(ri, "RM") ? 2 : sass_has_mod(ri, "RP") ? 3 : 0;
}

DECODE(dec_farith)
{
    (void)p, (void)err, (void)cap;
    in->kind = SK_OP;
    in->sub = !strncmp(ri->op, "FFMA", 4) ? 0 : !strncmp(ri->op, "FMUL", 4) ? 1 : 2;
    in->sub3 = round_of(ri);
    if (sass_has_mod(ri, "FTZ")) in->flags |= SF_FTZ;
    if (sass_has_mod(ri, "SAT")) in->flags |= SF_SAT;
    in->fn = farith;
    if (!in->sub3 && !(in->flags & (SF_FTZ | SF_SAT)) && ri->nops == (in->sub == 0 ? 4u : 3u))
        in->fn = in->sub == 0 ? best_ffma() : in->sub == 1 ? fmul_plain : fadd_plain;
    return 0;
}

DECODE(dec_fsetp)
{
    in->kind = SK_OP;
    int c = fcmp_of(ri);
    if (c < 0) return sass_dec_fail(p, ri, err, cap, "needs a comparison");
    in->sub = (uint8_t)c;
    in->sub2 = sass_has_mod(ri, "AND") ? 0 : sass_has_mod(ri, "OR") ? 1 : 2;
    if (sass_has_mod(ri, "FTZ")) in->flags |= SF_FTZ;
    in->fn = ri->op[0] == 'D' ? dsetp : fsetp;
    return 0;
}

DECODE(dec_other)
{
    (void)p, (void)err, (void)cap;
    const char *b = ri->op;
    in->kind = SK_OP;
    if (!strncmp(b, "FMNMX", 5)) in->fn = fmnmx;
    else if (!strncmp(b, "FSEL", 4)) in->fn = fsel;
    else if (!strncmp(b, "FCHK", 4)) in->fn = fchk;
    else if (!strncmp(b, "FRND", 4)) {
        in->fn = frnd;
        in->width = sass_has_mod(ri, "F64") ? 8 : 4;
        in->sub = sass_has_mod(ri, "FLOOR") ? 1 : sass_has_mod(ri, "CEIL") ? 2 : sass_has_mod(ri, "TRUNC") ? 3 : 0;
    } else if (!strncmp(b, "MUFU", 4)) {
        static const char *const ops[] = {"RCP", "RSQ", "EX2", "LG2", "SIN", "COS", "SQRT", "TANH", "RCP64H", "RSQ64H"};
        for (int k = 0; k < 10; k++)
            if (sass_has_mod(ri, ops[k])) {
                in->sub = (uint8_t)k;
                in->fn = mufu;
            }
    } else if (!strncmp(b, "DFMA", 4) || !strncmp(b, "DMUL", 4) || !strncmp(b, "DADD", 4)) {
        in->sub = b[1] == 'F' ? 0 : b[1] == 'M' ? 1 : 2;
        in->sub3 = round_of(ri);
        in->fn = darith;
    } else if (!strncmp(b, "DMNMX", 5)) {
        in->fn = dmnmx;
    } else if (!strncmp(b, "F2I", 3)) {
        in->width = sass_has_mod(ri, "U64") || sass_has_mod(ri, "S64") ? 8 : 4;
        if (sass_has_mod(ri, "S32") || sass_has_mod(ri, "S64") || !(sass_has_mod(ri, "U32") || sass_has_mod(ri, "U64")))
            in->flags |= SF_SIGNED;
        in->sub = sass_has_mod(ri, "FLOOR") ? 1 : sass_has_mod(ri, "CEIL") ? 2 : sass_has_mod(ri, "TRUNC") ? 0 : 3;
        in->sub2 = sass_has_mod(ri, "F64") ? 1 : sass_has_mod(ri, "F16") ? 2 : 0;
        in->fn = f2i;
    } else if (!strncmp(b, "I2FP", 4) || !strncmp(b, "I2F", 3)) {
        in->width = sass_has_mod(ri, "F64") ? 8 : 4;
        in->sub2 = (uint8_t)(sass_has_mod(ri, "U64") || sass_has_mod(ri, "S64"));
        if (!(sass_has_mod(ri, "U32") || sass_has_mod(ri, "U64"))) in->flags |= SF_SIGNED;
        in->sub3 = round_of(ri);
        in->sub = sass_has_mod(ri, "F16") ? 1 : sass_has_mod(ri, "BF16") ? 2 : 0;
        if (sass_has_mod(ri, "U16") || sass_has_mod(ri, "S16") || sass_has_mod(ri, "U8") || sass_has_mod(ri, "S8")) return 0;
        in->fn = i2f;
    } else if (!strncmp(b, "F2FP", 4)) {
        in->sub = (uint8_t)sass_has_mod(ri, "BF16");
        in->fn = sass_has_mod(ri, "PACK_AB") ? f2fp : NULL;
    } else if (!strncmp(b, "F2F", 3)) {
        in->sub3 = round_of(ri);
        if (sass_has_mod(ri, "F64") && strstr(b, "F64.F32")) in->sub = 0;
        else if (strstr(b, "F32.F64")) in->sub = 1;
        else if (strstr(b, "F16.F32")) in->sub = 2;
        else if (strstr(b, "F32.F16")) in->sub = 3;
        else return 0;
        in->fn = f2f;
    } else if (!strncmp(b, "HFMA2", 5) || !strncmp(b, "HADD2", 5) || !strncmp(b, "HMUL2", 5)) {
        in->sub = b[1] == 'F' ? 0 : b[1] == 'A' ? 1 : 2;
        /* an immediate pair "hi, lo" (two operands) becomes one of those bits */
        unsigned want = in->sub == 0 ? 4 : 3;
        if (in->nops == want + 1 && in->o[want - 1].kind == SO_IMM && in->o[want].kind == SO_IMM) {
            float hi = in->o[want - 1].isfloat ? (float)in->o[want - 1].fval : (float)(int64_t)in->o[want - 1].imm;
            float lo = in->o[want].isfloat ? (float)in->o[want].fval : (float)(int64_t)in->o[want].imm;
            in->o[want - 1].imm = (uint64_t)ptx_float_to_half(hi) << 16 | ptx_float_to_half(lo);
            in->o[want - 1].isfloat = 0;
            in->o[want - 1].hex = 1;
            in->nops = (uint8_t)want;
        }
        if (sass_has_mod(ri, "BF16_V2")) return 0;
        in->sub3 = sass_has_mod(ri, "F32") ? 1 : 0;
        in->fn = harith;
    } else if (!strncmp(b, "HMNMX2", 6)) {
        if (in->nops != 4 || sass_has_mod(ri, "BF16_V2")) return 0;
        in->fn = hmnmx2;
    }
    return 0;
}

const sop_entry sass_ops_float[] = {
    {"FFMA", dec_farith}, {"FMUL", dec_farith}, {"FADD", dec_farith}, {"FSETP", dec_fsetp}, {"DSETP", dec_fsetp},
    {"FMNMX", dec_other}, {"FSEL", dec_other}, {"FCHK", dec_other}, {"FRND", dec_other}, {"MUFU", dec_other},
    {"DFMA", dec_other}, {"DMUL", dec_other}, {"DADD", dec_other}, {"DMNMX", dec_other}, {"F2I", dec_other},
    {"I2F", dec_other}, {"I2FP", dec_other}, {"F2F", dec_other}, {"F2FP", dec_other}, {"HFMA2", dec_other},
    {"HADD2", dec_other}, {"HMUL2", dec_other}, {"HMNMX2", dec_other}, {NULL, NULL},
};
