/* Floating-point instructions and conversions: f32 and f64 arithmetic,
 * the special functions (approximate on the GPU, exact here: the values
 * differ in the last bits, never the addresses a kernel computes from them
 * in practice), f16/bf16 scalars and pairs, comparisons' helpers and cvt.
 * Round-to-nearest is C's own; other rounding modes go through fenv. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "frontend/kernel/fbits.h"
#include "ptx.h"

/* lane-loop handlers are built for AVX2 too (wide.h) */
#define HANDLER(name) COALSIM_WIDE static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define UNUSED (void)x

/* registers hold raw bits: a 32-bit float in the low half */
static inline float F(uint64_t v) { return f32_from_bits((uint32_t)v); }
static inline uint64_t FB(float f) { return f32_bits(f); }
static inline double D(uint64_t v) { return f64_from_bits(v); }
static inline uint64_t DB(double d) { return f64_bits(d); }

/* ---- f16 and bf16 ---- */

float ptx_half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, mant = h & 0x3ff, u;
    if (e == 0) {
        if (!mant) {
            u = s;
        } else {          /* subnormal */
            e = 113;
            while (!(mant & 0x400)) mant <<= 1, e--;
            u = s | e << 23 | (mant & 0x3ff) << 13;
        }
    } else if (e == 31) {
        u = s | 0x7f800000u | mant << 13;
    } else {
        u = s | (e + 112) << 23 | mant << 13;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t ptx_float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, mant = u & 0x7fffff;
    if (e == 0xff) return (uint16_t)(s | 0x7c00 | (mant ? 0x200 : 0));
    int ex = (int)e - 127 + 15;
    if (ex >= 31) return (uint16_t)(s | 0x7c00);
    if (ex <= 0) {
        if (ex < -10) return (uint16_t)s;
        mant |= 0x800000;
        unsigned shift = (unsigned)(14 - ex);
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(s | h);
    }
    uint32_t h = (uint32_t)ex << 10 | mant >> 13, rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(s | h);
}

float ptx_bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t ptx_float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

/* ---- f32 / f64 arithmetic ---- */

#define FBIN(name, expr)                                                        \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *Dd = SLOT(w, in->d);                                          \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        LANES(m, { float a = F(A[l]), b = F(B[l]); Dd[l] = FB(expr); });       \
        return 0;                                                               \
    }
#define DBIN(name, expr)                                                        \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *Dd = SLOT(w, in->d);                                          \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        LANES(m, { double a = D(A[l]), b = D(B[l]); Dd[l] = DB(expr); });      \
        return 0;                                                               \
    }
#define FUN(name, expr)                                                         \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *Dd = SLOT(w, in->d);                                          \
        const uint64_t *A = SLOT(w, in->a);                                     \
        LANES(m, { float a = F(A[l]); Dd[l] = FB(expr); });                     \
        return 0;                                                               \
    }
#define DUN(name, expr)                                                         \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *Dd = SLOT(w, in->d);                                          \
        const uint64_t *A = SLOT(w, in->a);                                     \
        LANES(m, { double a = D(A[l]); Dd[l] = DB(expr); });                    \
        return 0;                                                               \
    }

/* PTX min/max: a NaN operand gives the other one */
static inline float fmin_ptx(float a, float b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline float fmax_ptx(float a, float b) { return a != a ? b : b != b ? a : a > b ? a : b; }
static inline double dmin_ptx(double a, double b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline double dmax_ptx(double a, double b) { return a != a ? b : b != b ? a : a > b ? a : b; }
static inline float sat01(float v) { return v != v ? 0.0f : v < 0 ? 0.0f : v > 1 ? 1.0f : v; }

FBIN(fadd, a + b)
FBIN(fsub, a - b)
FBIN(fmul, a * b)
FBIN(fdiv, a / b)
FBIN(ffmin, fmin_ptx(a, b))
FBIN(ffmax, fmax_ptx(a, b))
FBIN(fcopysign, copysignf(b, a))
FBIN(fadd_sat, sat01(a + b))
FBIN(fsub_sat, sat01(a - b))
FBIN(fmul_sat, sat01(a * b))
DBIN(dadd, a + b)
DBIN(dsub, a - b)
DBIN(dmul, a * b)
DBIN(ddiv, a / b)
DBIN(dmin, dmin_ptx(a, b))
DBIN(dmax, dmax_ptx(a, b))
DBIN(dcopysign, copysign(b, a))
FUN(fneg, -a)
FUN(fabs_, fabsf(a))
FUN(fsqrt, sqrtf(a))
FUN(frsqrt, 1.0f / sqrtf(a))
FUN(frcp, 1.0f / a)
FUN(fex2, exp2f(a))
FUN(flg2, log2f(a))
FUN(fsin, sinf(a))
FUN(fcos, cosf(a))
FUN(ftanh, tanhf(a))
DUN(dneg, -a)
DUN(dabs, fabs(a))
DUN(dsqrt, sqrt(a))
DUN(drsqrt, 1.0 / sqrt(a))
DUN(drcp, 1.0 / a)
HANDLER(ffma)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, Dd[l] = FB(fmaf(F(A[l]), F(B[l]), F(C[l]))));
    return 0;
}
#if defined(__x86_64__) && defined(__GNUC__)
/* The same with the processor's FMA instruction, chosen when it has one:
 * fmaf is otherwise a library call a lane. */
__attribute__((target("avx2,fma"))) static int ffma_hw(pctx *x, pwarp *w, const pinst *in, uint32_t m)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, Dd[l] = FB(__builtin_fmaf(F(A[l]), F(B[l]), F(C[l]))));
    return 0;
}
static pop_fn best_ffma(void) { return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2") ? ffma_hw : ffma; }
#else
static pop_fn best_ffma(void) { return ffma; }
#endif
/* rounding modifiers (cvt, fma) */
enum { R_NONE, R_RN, R_RZ, R_RM, R_RP, R_RNI, R_RZI, R_RMI, R_RPI };

/* a b + c rounded once in direction R (R_RZ, R_RM, R_RP), without the
 * floating-point environment: the product is exact in double, the sum's
 * error exact by Knuth's TwoSum, and the nearest float stepped one place
 * where it lies on the wrong side of the exact value.  (expf's code rounds
 * its range reduction down: fma.rm.f32.) */
static float fma_directed(float a, float b, float c, int r)
{
    double p = (double)a * (double)b, s = p + (double)c, bb = s - p;
    double e = (p - (s - bb)) + ((double)c - bb);             /* a b + c = s + e exactly */
    float f = (float)s;
    if (s != s || isinf(s)) return f;
    double d = ((double)f - s) - e;                           /* the sign of f - (a b + c) */
    int up = d < 0, down = d > 0, neg = s < 0 || (s == 0 && e < 0);
    if (r == R_RM && down) f = nextafterf(f, -INFINITY);
    else if (r == R_RP && up) f = nextafterf(f, INFINITY);
    else if (r == R_RZ && ((!neg && down) || (neg && up))) f = nextafterf(f, 0.0f);
    return f;
}
HANDLER(ffma_dir)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, Dd[l] = FB(fma_directed(F(A[l]), F(B[l]), F(C[l]), in->sub)));
    return 0;
}
HANDLER(ffma_sat)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, Dd[l] = FB(sat01(fmaf(F(A[l]), F(B[l]), F(C[l])))));
    return 0;
}
HANDLER(dfma)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, Dd[l] = DB(fma(D(A[l]), D(B[l]), D(C[l]))));
    return 0;
}
/* testp.op.T p, a */
HANDLER(testp)
{
    UNUSED;
    const uint64_t *A = SLOT(w, in->a);
    uint32_t r = 0;
    int dbl = in->type == PT_F64;
    LANES(m, {
        double v = dbl ? D(A[l]) : (double)F(A[l]);
        int c = dbl ? fpclassify(D(A[l])) : fpclassify(F(A[l]));
        int t = in->sub == 0 ? c != FP_NAN && c != FP_INFINITE : in->sub == 1 ? c == FP_INFINITE
              : in->sub == 2 ? c != FP_NAN : in->sub == 3 ? c == FP_NAN : in->sub == 4 ? c == FP_NORMAL
              : c == FP_SUBNORMAL;
        (void)v;
        r |= (uint32_t)t << l;
    });
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (r & m);
    return 0;
}

/* ---- half precision: scalars (low 16 bits) and pairs ---- */

#define HBIN(name, expr)                                                        \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *Dd = SLOT(w, in->d);                                          \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        int bf = in->type == PT_BF16 || in->type == PT_BF16X2;                  \
        unsigned n = in->type == PT_F16X2 || in->type == PT_BF16X2 ? 2 : 1;     \
        LANES(m, {                                                              \
            uint64_t r = 0;                                                     \
            for (unsigned k = 0; k < n; k++) {                                  \
                uint16_t ha = (uint16_t)(A[l] >> (16 * k)), hb = (uint16_t)(B[l] >> (16 * k)); \
                float a = bf ? ptx_bf16_to_float(ha) : ptx_half_to_float(ha);   \
                float b = bf ? ptx_bf16_to_float(hb) : ptx_half_to_float(hb);   \
                float v = (expr);                                               \
                r |= (uint64_t)(bf ? ptx_float_to_bf16(v) : ptx_float_to_half(v)) << (16 * k); \
            }                                                                   \
            Dd[l] = r;                                                          \
        });                                                                     \
        return 0;                                                               \
    }
HBIN(hadd, a + b)
HBIN(hsub, a - b)
HBIN(hmul, a * b)
HBIN(hmin, fmin_ptx(a, b))
HBIN(hmax, fmax_ptx(a, b))
HBIN(hneg, -a + 0 * b)
HBIN(habs, fabsf(a) + 0 * b)
HANDLER(hfma)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    int bf = in->type == PT_BF16 || in->type == PT_BF16X2;
    unsigned n = in->type == PT_F16X2 || in->type == PT_BF16X2 ? 2 : 1;
    LANES(m, {
        uint64_t r = 0;
        for (unsigned k = 0; k < n; k++) {
            uint16_t ha = (uint16_t)(A[l] >> (16 * k)), hb = (uint16_t)(B[l] >> (16 * k)), hc = (uint16_t)(C[l] >> (16 * k));
            float a = bf ? ptx_bf16_to_float(ha) : ptx_half_to_float(ha);
            float b = bf ? ptx_bf16_to_float(hb) : ptx_half_to_float(hb);
            float c = bf ? ptx_bf16_to_float(hc) : ptx_half_to_float(hc);
            float v = fmaf(a, b, c);
            r |= (uint64_t)(bf ? ptx_float_to_bf16(v) : ptx_float_to_half(v)) << (16 * k);
        }
        Dd[l] = r;
    });
    return 0;
}

/* ---- cvt ---- */


static double round_int(double v, int r)
{
    switch (r) {
    case R_RZI: return trunc(v);
    case R_RMI: return floor(v);
    case R_RPI: return ceil(v);
    default: return nearbyint(v);     /* RNI: to nearest even (the default fenv mode) */
    }
}

/* A value of type T as a double (integers exactly up to 2^53, and int64
 * beyond that through long double rounding is not needed here: only used
 * for int->float conversions of 64-bit values, done apart below). */
static double as_double(uint64_t v, ptype t)
{
    switch (t) {
    case PT_F32: return F(v);
    case PT_F64: return D(v);
    case PT_F16: return ptx_half_to_float((uint16_t)v);
    case PT_BF16: return ptx_bf16_to_float((uint16_t)v);
    case PT_S8: return (int8_t)v;
    case PT_S16: return (int16_t)v;
    case PT_S32: return (int32_t)v;
    case PT_S64: return (double)(int64_t)v;
    case PT_U8: return (uint8_t)v;
    case PT_U16: return (uint16_t)v;
    case PT_U32: return (uint32_t)v;
    default: return (double)v;
    }
}

static uint64_t int_bits(uint64_t v, ptype t)
{
    unsigned b = ptype_bytes(t);
    return b >= 8 ? v : v & ((1ull << (8 * b)) - 1);
}

/* Sign- or zero-extend V of source type S to 64 bits. */
static uint64_t extend(uint64_t v, ptype s)
{
    switch (s) {
    case PT_S8: return (uint64_t)(int64_t)(int8_t)v;
    case PT_S16: return (uint64_t)(int64_t)(int16_t)v;
    case PT_S32: return (uint64_t)(int64_t)(int32_t)v;
    default: return int_bits(v, s);
    }
}

/* Clamp the integer V (of source type S, extended) into D's range. */
static uint64_t sat_int(uint64_t v, ptype s, ptype d)
{
    int ss = ptype_signed(s), ds = ptype_signed(d);
    unsigned db = ptype_bytes(d) * 8;
    if (ss) {
        int64_t x = (int64_t)v;
        int64_t lo = ds ? (db == 64 ? INT64_MIN : -(1ll << (db - 1))) : 0;
        int64_t hi = ds ? (db == 64 ? INT64_MAX : (1ll << (db - 1)) - 1) : (db == 64 ? INT64_MAX : (int64_t)((1ull << db) - 1));
        if (x < lo) x = lo;
        if (!ds && db == 64 && x < 0) x = 0;
        if (x > hi) x = hi;
        return int_bits((uint64_t)x, d);
    }
    uint64_t hi = ds ? (db == 64 ? (uint64_t)INT64_MAX : (1ull << (db - 1)) - 1) : (db == 64 ? UINT64_MAX : (1ull << db) - 1);
    return int_bits(v > hi ? hi : v, d);
}

/* Float F (a double here) to integer type T: NaN gives 0, out of range clamps. */
static uint64_t float_to_int(double f, ptype t)
{
    if (f != f) return 0;
    unsigned b = ptype_bytes(t) * 8;
    if (ptype_signed(t)) {
        double lo = -ldexp(1, (int)b - 1), hi = ldexp(1, (int)b - 1);
        if (f <= lo) return int_bits((uint64_t)(b == 64 ? INT64_MIN : -(1ll << (b - 1))), t);
        if (f >= hi) return int_bits(b == 64 ? (uint64_t)INT64_MAX : (1ull << (b - 1)) - 1, t);
        return int_bits((uint64_t)(int64_t)f, t);
    }
    if (f <= 0) return 0;
    if (f >= ldexp(1, (int)b)) return b == 64 ? UINT64_MAX : (1ull << b) - 1;
    return (uint64_t)f;
}

static uint64_t to_float_bits(double v, ptype d)
{
    switch (d) {
    case PT_F32: return FB((float)v);
    case PT_F64: return DB(v);
    case PT_F16: return ptx_float_to_half((float)v);
    case PT_BF16: return ptx_float_to_bf16((float)v);
    default: return 0;
    }
}

static int fenv_mode(int r)
{
    switch (r) {
    case R_RZ: return FE_TOWARDZERO;
    case R_RM: return FE_DOWNWARD;
    case R_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

HANDLER(cvt)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    ptype dt = (ptype)in->type, st = (ptype)in->type2;
    int rnd = in->sub, sat = in->flags & PF_SAT;
    int df = ptype_float(dt), sf = ptype_float(st);
    int mode = fenv_mode(rnd), old = fegetround();
    if (mode != old) fesetround(mode);
    LANES(m, {
        uint64_t a = A[l], r;
        if (!df && !sf) {
            uint64_t e = extend(a, st);
            r = sat ? sat_int(e, st, dt) : int_bits(e, dt);
        } else if (!df) {
            double v = as_double(a, st);
            if (rnd >= R_RNI) v = round_int(v, rnd);
            r = float_to_int(v, dt);
        } else if (!sf) {
            /* 64-bit integers: convert in the current rounding mode */
            if (st == PT_U64) r = dt == PT_F64 ? DB((double)a) : dt == PT_F32 ? FB((float)a) : to_float_bits((double)a, dt);
            else if (st == PT_S64) r = dt == PT_F64 ? DB((double)(int64_t)a) : dt == PT_F32 ? FB((float)(int64_t)a)
                                                  : to_float_bits((double)(int64_t)a, dt);
            else if (dt == PT_F32) r = FB((float)as_double(a, st));
            else r = to_float_bits(as_double(a, st), dt);
        } else {
            double v = as_double(a, st);
            if (rnd >= R_RNI) v = round_int(v, rnd);
            if (sat) v = v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
            if (dt == PT_F32 && st == PT_F64) r = FB((float)D(a));
            else r = to_float_bits(v, dt);
            if (sat && dt == PT_F32) r = FB(sat01(F(r)));
        }
        Dd[l] = r;
    });
    if (mode != old) fesetround(old);
    return 0;
}
/* cvt.rn.f16x2.f32 d, a, b: d = {a (high half), b (low half)} */
HANDLER(cvt_pack_h2)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    int bf = in->type == PT_BF16X2;
    LANES(m, {
        uint16_t hi = bf ? ptx_float_to_bf16(F(A[l])) : ptx_float_to_half(F(A[l]));
        uint16_t lo = bf ? ptx_float_to_bf16(F(B[l])) : ptx_float_to_half(F(B[l]));
        Dd[l] = (uint64_t)hi << 16 | lo;
    });
    return 0;
}

/* cvt.rna{.satfinite}.tf32.f32 d, a: a rounded to tf32's 10 mantissa bits,
 * to nearest with ties away from zero (the low 13 bits zero); NaN and
 * infinity as they are. */
HANDLER(cvt_tf32)
{
    UNUSED;
    uint64_t *Dd = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    LANES(m, {
        uint32_t u = (uint32_t)A[l];
        if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
        Dd[l] = u;
    });
    return 0;
}

/* ---- decoding ---- */

#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

static int need(ptx_program *p, const raw_inst *ri, unsigned n, char *err, size_t cap)
{
    if (ri->nops != n) return ptx_dec_fail(p, ri, err, cap, "needs %u operands, has %u", n, ri->nops);
    return 0;
}

static int srcs(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, unsigned n, ptype t, char *err, size_t cap)
{
    if (need(p, ri, n + 1, err, cap) || ptx_dec_dst(f, ri, 0, &in->d, err, cap)) return -1;
    uint32_t *s[3] = {&in->a, &in->b, &in->c};
    for (unsigned k = 0; k < n; k++)
        if (ptx_dec_src(p, f, ri, k + 1, t, s[k], err, cap)) return -1;
    return 0;
}

static int rounding(const raw_inst *ri)
{
    static const char *const names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    for (int r = 1; r <= R_RPI; r++)
        if (ptx_has_mod(ri, names[r])) return r;
    return R_NONE;
}

static int half_type(ptype t) { return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2; }

DECODE(dec_fbin)
{
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (srcs(p, f, ri, in, 2, half_type(t) ? PT_B32 : t, err, cap)) return -1;
    int r = rounding(ri), sat = ptx_has_mod(ri, "sat");
    if (r != R_NONE && r != R_RN && strcmp(ri->opcode, "div") != 0) return 0;   /* directed rounding: unsupported */
    const char *op = ri->opcode;
    if (half_type(t)) {
        in->fn = !strcmp(op, "add") ? hadd : !strcmp(op, "sub") ? hsub : !strcmp(op, "mul") ? hmul
               : !strcmp(op, "min") ? hmin : !strcmp(op, "max") ? hmax : NULL;
        if (sat) in->fn = NULL;
        return 0;
    }
    if (t == PT_F32) {
        in->fn = !strcmp(op, "add") ? (sat ? fadd_sat : fadd) : !strcmp(op, "sub") ? (sat ? fsub_sat : fsub)
               : !strcmp(op, "mul") ? (sat ? fmul_sat : fmul) : !strcmp(op, "div") ? fdiv
               : !strcmp(op, "min") ? ffmin : !strcmp(op, "max") ? ffmax : !strcmp(op, "copysign") ? fcopysign : NULL;
        if (!strcmp(op, "div") && r != R_NONE && r != R_RN) in->fn = NULL;
    } else if (t == PT_F64) {
        in->fn = !strcmp(op, "add") ? dadd : !strcmp(op, "sub") ? dsub : !strcmp(op, "mul") ? dmul
               : !strcmp(op, "div") ? ddiv : !strcmp(op, "min") ? dmin : !strcmp(op, "max") ? dmax
               : !strcmp(op, "copysign") ? dcopysign : NULL;
        if (sat || (!strcmp(op, "div") && r != R_NONE && r != R_RN)) in->fn = NULL;
    }
    if (ptx_has_mod(ri, "NaN") || ptx_has_mod(ri, "xorsign") || ptx_has_mod(ri, "abs")) in->fn = NULL;
    return 0;
}

DECODE(dec_fma)
{
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (srcs(p, f, ri, in, 3, half_type(t) ? PT_B32 : t, err, cap)) return -1;
    int r = rounding(ri), sat = ptx_has_mod(ri, "sat");
    if (r == R_RZ || r == R_RM || r == R_RP) {
        /* directed rounding: f32 without .sat (expf's fma.rm.f32) */
        in->sub = (uint8_t)r;
        if (t == PT_F32 && !sat) in->fn = ffma_dir;
        return 0;
    }
    if (r != R_NONE && r != R_RN) return 0;
    if (half_type(t)) in->fn = sat || ptx_has_mod(ri, "relu") ? NULL : hfma;
    else if (t == PT_F32) in->fn = sat ? ffma_sat : best_ffma();
    else if (t == PT_F64) in->fn = sat ? NULL : dfma;
    return 0;
}

DECODE(dec_fun)
{
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (srcs(p, f, ri, in, 1, half_type(t) ? PT_B32 : t, err, cap)) return -1;
    const char *op = ri->opcode;
    int r = rounding(ri);
    if (r != R_NONE && r != R_RN) return 0;
    if (half_type(t)) {
        /* neg and abs of halves: the sign bits */
        if (!strcmp(op, "neg") || !strcmp(op, "abs")) {
            in->b = in->a;
            in->fn = !strcmp(op, "neg") ? hneg : habs;
        }
        return 0;
    }
    if (t == PT_F32)
        in->fn = !strcmp(op, "neg") ? fneg : !strcmp(op, "abs") ? fabs_ : !strcmp(op, "sqrt") ? fsqrt
               : !strcmp(op, "rsqrt") ? frsqrt : !strcmp(op, "rcp") ? frcp : !strcmp(op, "ex2") ? fex2
               : !strcmp(op, "lg2") ? flg2 : !strcmp(op, "sin") ? fsin : !strcmp(op, "cos") ? fcos
               : !strcmp(op, "tanh") ? ftanh : NULL;
    else if (t == PT_F64)
        in->fn = !strcmp(op, "neg") ? dneg : !strcmp(op, "abs") ? dabs : !strcmp(op, "sqrt") ? dsqrt
               : !strcmp(op, "rsqrt") ? drsqrt : !strcmp(op, "rcp") ? drcp : NULL;
    return 0;
}

DECODE(dec_testp)
{
    static const char *const ops[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (need(p, ri, 2, err, cap) || ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) ||
        ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap))
        return -1;
    for (unsigned k = 0; k < 6; k++)
        if (ptx_has_mod(ri, ops[k])) {
            in->sub = (uint8_t)k;
            in->fn = t == PT_F32 || t == PT_F64 ? testp : NULL;
        }
    return 0;
}

DECODE(dec_cvt)
{
    ptype dt = ptx_mod_type(ri, 0), st = ptx_mod_type(ri, 1);
    if (ptx_has_mod(ri, "tf32") && dt == PT_F32 && st == PT_NONE) {   /* tf32 is no ptype: the one type is the source */
        in->kind = K_OP;
        if (srcs(p, f, ri, in, 1, PT_F32, err, cap)) return -1;
        in->fn = ptx_has_mod(ri, "rna") ? cvt_tf32 : NULL;               /* .rn, .rz (sm_90's): not yet */
        return 0;
    }
    if (dt == PT_NONE || st == PT_NONE) return ptx_dec_fail(p, ri, err, cap, "needs two types");
    in->kind = K_OP;
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)st;
    in->sub = (uint8_t)rounding(ri);
    if (ptx_has_mod(ri, "sat")) in->flags |= PF_SAT;
    if ((dt == PT_F16X2 || dt == PT_BF16X2) && st == PT_F32) {
        if (srcs(p, f, ri, in, 2, PT_F32, err, cap)) return -1;
        in->fn = ptx_has_mod(ri, "relu") || ptx_has_mod(ri, "satfinite") ? NULL : cvt_pack_h2;
        return 0;
    }
    if (srcs(p, f, ri, in, 1, st, err, cap)) return -1;
    if (!ptype_bytes(dt) || !ptype_bytes(st) || dt == PT_F16X2 || st == PT_F16X2 || dt == PT_BF16X2 || st == PT_BF16X2)
        return 0;
    if (ptx_has_mod(ri, "relu") || ptx_has_mod(ri, "satfinite") || ptx_has_mod(ri, "rna")) return 0;
    in->fn = cvt;
    return 0;
}

const pop_entry ptx_ops_float[] = {
    {"add", dec_fbin}, {"sub", dec_fbin}, {"mul", dec_fbin}, {"div", dec_fbin}, {"min", dec_fbin},
    {"max", dec_fbin}, {"copysign", dec_fbin}, {"fma", dec_fma}, {"mad", dec_fma}, {"neg", dec_fun},
    {"abs", dec_fun}, {"sqrt", dec_fun}, {"rsqrt", dec_fun}, {"rcp", dec_fun}, {"ex2", dec_fun},
    {"lg2", dec_fun}, {"sin", dec_fun}, {"cos", dec_fun}, {"tanh", dec_fun}, {"testp", dec_testp},
    {"cvt", dec_cvt}, {NULL, NULL},
};
