/* Integer, bit, predicate and move instructions.  Each handler is a loop
 * over the lanes of the mask, specialised by type when decoded, so no type
 * is looked at while a kernel runs.  Results are stored zero-extended to 64
 * bits; a signed reader sign-extends for itself. */
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "frontend/kernel/fbits.h"
#include "ptx.h"

/* lane-loop handlers are built for AVX2 too (wide.h) */
#define HANDLER(name) COALSIM_WIDE static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define UNUSED (void)x

/* ---- generated binary, unary and ternary ops ---- */

#define BIN(name, T, U, expr)                                                   \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *D = SLOT(w, in->d);                                           \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        LANES(m, {                                                              \
            T a = (T)A[l], b = (T)B[l];                                         \
            D[l] = (uint64_t)(U)(expr);                                         \
        });                                                                     \
        return 0;                                                               \
    }
#define UN(name, T, U, expr)                                                    \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *D = SLOT(w, in->d);                                           \
        const uint64_t *A = SLOT(w, in->a);                                     \
        LANES(m, {                                                              \
            T a = (T)A[l];                                                      \
            D[l] = (uint64_t)(U)(expr);                                         \
        });                                                                     \
        return 0;                                                               \
    }
#define TER(name, T, U, expr)                                                   \
    HANDLER(name)                                                               \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *D = SLOT(w, in->d);                                           \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c); \
        LANES(m, {                                                              \
            T a = (T)A[l], b = (T)B[l], c = (T)C[l];                            \
            D[l] = (uint64_t)(U)(expr);                                         \
        });                                                                     \
        return 0;                                                               \
    }

/* the same op for 16, 32 and 64 bits, unsigned arithmetic (wraps) */
#define BIN_W(op, expr)                                                         \
    BIN(op##_16, uint16_t, uint16_t, expr)                                      \
    BIN(op##_32, uint32_t, uint32_t, expr)                                      \
    BIN(op##_64, uint64_t, uint64_t, expr)
#define BIN_S(op, expr)                                                         \
    BIN(op##_s16, int16_t, uint16_t, expr)                                      \
    BIN(op##_s32, int32_t, uint32_t, expr)                                      \
    BIN(op##_s64, int64_t, uint64_t, expr)

BIN_W(add, a + b)
BIN_W(sub, a - b)
BIN_W(mul, a * b)
BIN_W(and, a & b)
BIN_W(or, a | b)
BIN_W(xor, a ^ b)
BIN_W(umin, a < b ? a : b)
BIN_W(umax, a > b ? a : b)
BIN_S(smin, a < b ? a : b)
BIN_S(smax, a > b ? a : b)
/* division by zero: what the GPU gives (all ones; the dividend for rem) */
BIN_W(udiv, b ? a / b : (__typeof__(a))~(__typeof__(a))0)
BIN_W(urem, b ? a % b : a)
BIN(sdiv_s16, int16_t, uint16_t, b ? (b == -1 ? (int16_t)(0 - (uint16_t)a) : a / b) : -1)
BIN(sdiv_s32, int32_t, uint32_t, b ? (b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b) : -1)
BIN(sdiv_s64, int64_t, uint64_t, b ? (b == -1 ? (int64_t)(0ull - (uint64_t)a) : a / b) : -1)
BIN(srem_s16, int16_t, uint16_t, b ? (b == -1 ? 0 : a % b) : a)
BIN(srem_s32, int32_t, uint32_t, b ? (b == -1 ? 0 : a % b) : a)
BIN(srem_s64, int64_t, uint64_t, b ? (b == -1 ? 0 : a % b) : a)
/* shifts: an amount of the width or more shifts everything out */
BIN(shl_16, uint32_t, uint16_t, b >= 16 ? 0 : (uint16_t)a << b)
BIN(shl_32, uint32_t, uint32_t, b >= 32 ? 0 : (uint32_t)a << b)
HANDLER(shl_64)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    LANES(m, { uint32_t b = (uint32_t)B[l]; D[l] = b >= 64 ? 0 : A[l] << b; });
    return 0;
}
BIN(shr_u16, uint32_t, uint16_t, b >= 16 ? 0 : (uint16_t)a >> b)
BIN(shr_u32, uint32_t, uint32_t, b >= 32 ? 0 : (uint32_t)a >> b)
HANDLER(shr_u64)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    LANES(m, { uint32_t b = (uint32_t)B[l]; D[l] = b >= 64 ? 0 : A[l] >> b; });
    return 0;
}
HANDLER(shr_s16)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    LANES(m, { uint32_t b = (uint32_t)B[l]; int16_t a = (int16_t)A[l]; D[l] = (uint16_t)(a >> (b > 15 ? 15 : b)); });
    return 0;
}
HANDLER(shr_s32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    LANES(m, { uint32_t b = (uint32_t)B[l]; int32_t a = (int32_t)A[l]; D[l] = (uint32_t)(a >> (b > 31 ? 31 : b)); });
    return 0;
}
HANDLER(shr_s64)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    LANES(m, { uint32_t b = (uint32_t)B[l]; int64_t a = (int64_t)A[l]; D[l] = (uint64_t)(a >> (b > 63 ? 63 : b)); });
    return 0;
}
/* mul.hi, mul.wide */
BIN(mulhi_u16, uint32_t, uint16_t, (uint16_t)a * (uint32_t)(uint16_t)b >> 16)
BIN(mulhi_s16, int32_t, uint16_t, (int16_t)a * (int32_t)(int16_t)b >> 16)
BIN(mulhi_u32, uint64_t, uint32_t, (uint32_t)a * (uint64_t)(uint32_t)b >> 32)
BIN(mulhi_s32, int64_t, uint32_t, (int64_t)(int32_t)a * (int32_t)b >> 32)
BIN(mulhi_u64, uint64_t, uint64_t, (uint64_t)((unsigned __int128)a * b >> 64))
BIN(mulhi_s64, int64_t, uint64_t, (int64_t)((__int128)a * b >> 64))
BIN(mulwide_u16, uint32_t, uint32_t, (uint32_t)(uint16_t)a * (uint16_t)b)
BIN(mulwide_s16, int32_t, uint32_t, (int32_t)(int16_t)a * (int16_t)b)
/* The same with a constant second operand (ptx_int_with_imm). */
#define BIN_IMM(name, T, U, expr)                                               \
    HANDLER(name##_imm)                                                         \
    {                                                                           \
        UNUSED;                                                                 \
        uint64_t *D = SLOT(w, in->d);                                           \
        const uint64_t *A = SLOT(w, in->a);                                     \
        const T b = (T)in->imm;                                                 \
        LANES(m, {                                                              \
            T a = (T)A[l];                                                      \
            D[l] = (uint64_t)(U)(expr);                                         \
        });                                                                     \
        return 0;                                                               \
    }
BIN_IMM(add_32, uint32_t, uint32_t, a + b)
BIN_IMM(add_64, uint64_t, uint64_t, a + b)
BIN_IMM(mulwide_u32, uint64_t, uint64_t, (uint64_t)(uint32_t)a * (uint32_t)b)

/* mul.wide.u32 makes most array addresses: x86's pmuludq is exactly it
 * (GCC's vectoriser multiplies all 64 bits of the masked lanes instead) */
HANDLER(mulwide_u32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
#ifdef __SSE2__
    if (m == 0xffffffffu) {
        for (int l = 0; l < 32; l += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(A + l));
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(B + l));
            _mm_storeu_si128((__m128i *)(void *)(D + l), _mm_mul_epu32(a, b));
        }
        return 0;
    }
#endif
    LANES(m, D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l]);
    return 0;
}
BIN(mulwide_s32, int64_t, uint64_t, (int64_t)(int32_t)a * (int32_t)b)
BIN(mul24lo_u32, uint32_t, uint32_t, (a & 0xffffff) * (b & 0xffffff))
BIN(mul24lo_s32, int32_t, uint32_t, (uint32_t)(((int32_t)((uint32_t)a << 8) >> 8) * ((int32_t)((uint32_t)b << 8) >> 8)))
/* mad */
TER(mad_16, uint16_t, uint16_t, a * b + c)
TER(mad_32, uint32_t, uint32_t, a * b + c)
TER(mad_64, uint64_t, uint64_t, a * b + c)
TER(madhi_u32, uint64_t, uint32_t, ((uint32_t)a * (uint64_t)(uint32_t)b >> 32) + (uint32_t)c)
TER(madhi_s32, int64_t, uint32_t, ((int64_t)(int32_t)a * (int32_t)b >> 32) + (int32_t)c)
TER(madhi_u64, uint64_t, uint64_t, (uint64_t)((unsigned __int128)a * b >> 64) + c)
TER(madhi_s64, int64_t, uint64_t, (int64_t)((__int128)a * b >> 64) + c)
TER(madwide_u16, uint32_t, uint32_t, (uint32_t)(uint16_t)a * (uint16_t)b + c)
TER(madwide_s16, int32_t, uint32_t, (int32_t)(int16_t)a * (int16_t)b + c)
HANDLER(madwide_u32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
    return 0;
}
HANDLER(madwide_s32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    LANES(m, D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l] + (int64_t)C[l]));
    return 0;
}
TER(mad24lo_u32, uint32_t, uint32_t, (a & 0xffffff) * (b & 0xffffff) + c)
TER(mad24lo_s32, int32_t, uint32_t, (uint32_t)(((int32_t)((uint32_t)a << 8) >> 8) * ((int32_t)((uint32_t)b << 8) >> 8)) + (uint32_t)c)
/* saturating 32-bit signed add/sub/mad */
static uint32_t sat32(int64_t v) { return (uint32_t)(int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v); }
BIN(addsat_s32, int64_t, uint32_t, sat32((int64_t)(int32_t)a + (int32_t)b))
BIN(subsat_s32, int64_t, uint32_t, sat32((int64_t)(int32_t)a - (int32_t)b))
/* unary */
UN(not_16, uint16_t, uint16_t, ~a)
UN(not_32, uint32_t, uint32_t, ~a)
UN(not_64, uint64_t, uint64_t, ~a)
UN(cnot_16, uint16_t, uint16_t, a == 0)
UN(cnot_32, uint32_t, uint32_t, a == 0)
UN(cnot_64, uint64_t, uint64_t, a == 0)
UN(neg_16, uint16_t, uint16_t, 0 - a)
UN(neg_32, uint32_t, uint32_t, 0u - a)
UN(neg_64, uint64_t, uint64_t, 0ull - a)
UN(abs_s16, int16_t, uint16_t, a < 0 ? (uint16_t)(0 - (uint16_t)a) : (uint16_t)a)
UN(abs_s32, int32_t, uint32_t, a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
UN(abs_s64, int64_t, uint64_t, a < 0 ? 0ull - (uint64_t)a : (uint64_t)a)
UN(popc_32, uint32_t, uint32_t, __builtin_popcount(a))
UN(popc_64, uint64_t, uint32_t, __builtin_popcountll(a))
UN(clz_32, uint32_t, uint32_t, a ? __builtin_clz(a) : 32)
UN(clz_64, uint64_t, uint32_t, a ? __builtin_clzll(a) : 64)
static uint32_t rev32(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(v);
}
UN(brev_32, uint32_t, uint32_t, rev32(a))
UN(brev_64, uint64_t, uint64_t, (uint64_t)rev32((uint32_t)a) << 32 | rev32((uint32_t)(a >> 32)))
/* bfind: the position of the most significant non-sign bit, 0xffffffff if none */
UN(bfind_u32, uint32_t, uint32_t, a ? (uint32_t)(31 - __builtin_clz(a)) : 0xffffffffu)
UN(bfind_s32, int32_t, uint32_t, (a < 0 ? ~a : a) ? (uint32_t)(31 - __builtin_clz((uint32_t)(a < 0 ? ~a : a))) : 0xffffffffu)
UN(bfind_u64, uint64_t, uint32_t, a ? (uint32_t)(63 - __builtin_clzll(a)) : 0xffffffffu)
UN(bfind_s64, int64_t, uint32_t, (a < 0 ? ~a : a) ? (uint32_t)(63 - __builtin_clzll((uint64_t)(a < 0 ? ~a : a))) : 0xffffffffu)
/* bfind.shiftamt: the left shift that takes that bit to the top (__ffs is brev, then this), 0xffffffff if none */
UN(bfind_sa_u32, uint32_t, uint32_t, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu)
UN(bfind_sa_s32, int32_t, uint32_t, (a < 0 ? ~a : a) ? (uint32_t)__builtin_clz((uint32_t)(a < 0 ? ~a : a)) : 0xffffffffu)
UN(bfind_sa_u64, uint64_t, uint32_t, a ? (uint32_t)__builtin_clzll(a) : 0xffffffffu)
UN(bfind_sa_s64, int64_t, uint32_t, (a < 0 ? ~a : a) ? (uint32_t)__builtin_clzll((uint64_t)(a < 0 ? ~a : a)) : 0xffffffffu)
/* bfe d, a, pos, len; bfi d, f, b, pos, len */
static uint64_t bfe(uint64_t a, unsigned width, int sgn, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint64_t sign = 0;
    if (sgn) {
        unsigned top = pos + len - 1 < width ? pos + len - 1 : width - 1;
        sign = len == 0 ? 0 : (a >> top) & 1;
    }
    uint64_t r = 0;
    for (unsigned i = 0; i < width; i++) {
        uint64_t bit = (i < len && pos + i < width) ? (a >> (pos + i)) & 1 : sign;
        r |= bit << i;
    }
    return width == 64 ? r : r & ((1ull << width) - 1);
}
TER(bfe_u32, uint64_t, uint32_t, bfe((uint32_t)a, 32, 0, (uint32_t)b, (uint32_t)c))
TER(bfe_s32, uint64_t, uint32_t, bfe((uint32_t)a, 32, 1, (uint32_t)b, (uint32_t)c))
TER(bfe_u64, uint64_t, uint64_t, bfe(a, 64, 0, (uint32_t)b, (uint32_t)c))
TER(bfe_s64, uint64_t, uint64_t, bfe(a, 64, 1, (uint32_t)b, (uint32_t)c))
static uint64_t bfi(uint64_t f, uint64_t b, unsigned width, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    for (unsigned i = 0; i < len && pos + i < width; i++) b = (b & ~(1ull << (pos + i))) | (((f >> i) & 1) << (pos + i));
    return width == 64 ? b : b & ((1ull << width) - 1);
}
HANDLER(bfi_32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c), *E = SLOT(w, in->e);
    LANES(m, D[l] = bfi((uint32_t)A[l], (uint32_t)B[l], 32, (uint32_t)C[l], (uint32_t)E[l]));
    return 0;
}
HANDLER(bfi_64)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c), *E = SLOT(w, in->e);
    LANES(m, D[l] = bfi(A[l], B[l], 64, (uint32_t)C[l], (uint32_t)E[l]));
    return 0;
}
/* prmt: pick bytes of {b, a} by the selector (default mode, and the named modes) */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t v = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    static const uint16_t named[6][4] = {
        {0x3210, 0x4321, 0x5432, 0x6543}, /* f4e */
        {0x0123, 0x7012, 0x6701, 0x5670}, /* b4e */
        {0x0000, 0x1111, 0x2222, 0x3333}, /* rc8 */
        {0x3210, 0x3211, 0x3222, 0x3333}, /* ecl */
        {0x3210, 0x2100, 0x1000, 0x0000}, /* ecr (as documented) */
        {0x1010, 0x3232, 0x1010, 0x3232}, /* rc16 */
    };
    if (mode) {
        uint16_t sel = named[mode - 1][c & 3];
        for (int k = 0; k < 4; k++) r |= (uint32_t)((v >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
        return r;
    }
    for (int k = 0; k < 4; k++) {
        unsigned s = (c >> (4 * k)) & 0xf;
        uint32_t byte = (uint32_t)(v >> (8 * (s & 7))) & 0xff;
        if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * k);
    }
    return r;
}
HANDLER(prmt_32)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    unsigned mode = in->sub;
    LANES(m, D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], mode));
    return 0;
}
/* sad: |a - b| + c */
TER(sad_u32, uint32_t, uint32_t, (a > b ? a - b : b - a) + c)
TER(sad_s32, int32_t, uint32_t, (uint32_t)(a > b ? (uint32_t)a - (uint32_t)b : (uint32_t)b - (uint32_t)a) + (uint32_t)c)

/* ---- carry chains: add.cc, addc, sub.cc, subc, mad.lo/hi.cc, madc ----
 * in->sub: bit 0 takes the carry in, bit 1 writes the carry out; in->sub2: 0
 * add, 1 subtract (the carry is then a borrow: d = a - (b + CF)), 2 mad.lo,
 * 3 mad.hi; in->type's width 4 or 8 bytes. */
HANDLER(carry_op)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    int wide = ptype_bytes((ptype)in->type) == 8, cin = in->sub & 1, cout = in->sub & 2;
    uint32_t cf = w->carry, ncf = cf;
    LANES(m, {
        unsigned __int128 a = wide ? A[l] : (uint32_t)A[l], b = wide ? B[l] : (uint32_t)B[l];
        unsigned __int128 c = wide ? C[l] : (uint32_t)C[l], ci = cin ? (cf >> l & 1) : 0, t;
        unsigned bits = wide ? 64 : 32;
        int out;
        switch (in->sub2) {
        case 1:
            t = a - (b + ci);
            out = a < b + ci;
            break;
        case 2: {
            unsigned __int128 p = (a * b) & (((unsigned __int128)1 << bits) - 1);
            t = p + c + ci;
            out = (int)(t >> bits & 1);
            break;
        }
        case 3: {
            unsigned __int128 p = (a * b) >> bits;
            t = p + c + ci;
            out = (int)(t >> bits & 1);
            break;
        }
        default:
            t = a + b + ci;
            out = (int)(t >> bits & 1);
            break;
        }
        D[l] = wide ? (uint64_t)t : (uint32_t)t;
        ncf = (ncf & ~(1u << l)) | ((uint32_t)out << l);
    });
    if (cout) w->carry = ncf;
    return 0;
}

/* ---- moves ---- */

HANDLER(mov_any)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    uint64_t mask = in->sub >= 64 ? ~0ull : (1ull << in->sub) - 1;
    LANES(m, D[l] = A[l] & mask);
    return 0;
}
/* mov.b64 d, {lo, hi}; mov.b32 d, {lo, hi} (16-bit halves) */
HANDLER(mov_pack)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    unsigned half = in->sub, n = in->nvec;
    uint64_t hm = half >= 64 ? ~0ull : (1ull << half) - 1;
    LANES(m, {
        uint64_t v = 0;
        for (unsigned k = 0; k < n; k++) v |= (SLOT(w, in->v[k])[l] & hm) << (half * k);
        D[l] = v;
    });
    return 0;
}
/* mov.b64 {lo, hi}, s */
HANDLER(mov_unpack)
{
    UNUSED;
    const uint64_t *A = SLOT(w, in->a);
    unsigned half = in->sub, n = in->nvec;
    uint64_t hm = half >= 64 ? ~0ull : (1ull << half) - 1;
    uint64_t src[32];
    LANES(m, src[l] = A[l]);
    for (unsigned k = 0; k < n; k++) {
        uint64_t *D = SLOT(w, in->v[k]);
        LANES(m, D[l] = (src[l] >> (half * k)) & hm);
    }
    return 0;
}
/* mov.pred, and the predicate logic */
HANDLER(mov_pred)
{
    UNUSED;
    uint32_t a = PRED(w, in->a) ^ (in->npred_neg & 1 ? ~0u : 0);
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (a & m);
    return 0;
}
/* mov.pred d, IMM (0 false, anything else true): nvcc writes it for a condition it folded */
HANDLER(mov_pred_imm)
{
    UNUSED;
    uint32_t a = in->sub ? ~0u : 0;
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (a & m);
    return 0;
}
/* mov.pred d, %is_explicit_cluster: a predicate special register, held as a value */
HANDLER(mov_pred_val)
{
    UNUSED;
    const uint64_t *A = SLOT(w, in->a);
    uint32_t a = 0;
    LANES(m, a |= (uint32_t)(A[l] != 0) << l);
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (a & m);
    return 0;
}
HANDLER(pred_logic)
{
    UNUSED;
    uint32_t a = PRED(w, in->a) ^ (in->npred_neg & 1 ? ~0u : 0);
    uint32_t b = in->sub == 3 ? 0 : PRED(w, in->b) ^ (in->npred_neg & 2 ? ~0u : 0);
    uint32_t r = in->sub == 0 ? a & b : in->sub == 1 ? a | b : in->sub == 2 ? a ^ b : ~a;
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (r & m);
    return 0;
}
/* the address of a .local variable: the frame's base plus its offset */
HANDLER(mov_local)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    uint64_t v = w->frames[w->depth - 1].local_base + in->addr_base;
    LANES(m, D[l] = v);
    return 0;
}
/* selp d, a, b, p */
HANDLER(selp)
{
    UNUSED;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);
    uint32_t p = PRED(w, in->c);
    LANES(m, D[l] = (p >> l & 1) ? A[l] : B[l]);
    return 0;
}

/* ---- comparisons ---- */

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN, C_COUNT };
static const char *const cmp_names[C_COUNT] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                               "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

static int cmp_of(const raw_inst *ri)
{
    for (unsigned k = 0; k < ri->nmods; k++)
        for (int c = 0; c < C_COUNT; c++)
            if (!strcmp(ri->mods[k], cmp_names[c])) return c;
    return -1;
}

/* The lanes of M where the comparison holds, for integers of type T. */
#define ICMP(name, T)                                                           \
    static uint32_t name(const pwarp *w, const pinst *in, uint32_t m)           \
    {                                                                           \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        uint32_t r = 0;                                                         \
        switch (in->sub) {                                                      \
        case C_EQ: LANES(m, r |= (uint32_t)((T)A[l] == (T)B[l]) << l); break;   \
        case C_NE: LANES(m, r |= (uint32_t)((T)A[l] != (T)B[l]) << l); break;   \
        case C_LT: case C_LO: LANES(m, r |= (uint32_t)((T)A[l] < (T)B[l]) << l); break; \
        case C_LE: case C_LS: LANES(m, r |= (uint32_t)((T)A[l] <= (T)B[l]) << l); break; \
        case C_GT: case C_HI: LANES(m, r |= (uint32_t)((T)A[l] > (T)B[l]) << l); break; \
        case C_GE: case C_HS: LANES(m, r |= (uint32_t)((T)A[l] >= (T)B[l]) << l); break; \
        default: break;                                                         \
        }                                                                       \
        return r;                                                               \
    }
ICMP(cmp_u16, uint16_t)
ICMP(cmp_s16, int16_t)
ICMP(cmp_u32, uint32_t)
ICMP(cmp_s32, int32_t)
ICMP(cmp_u64, uint64_t)
ICMP(cmp_s64, int64_t)

#define FCMP(name, T, GET)                                                      \
    static uint32_t name(const pwarp *w, const pinst *in, uint32_t m)           \
    {                                                                           \
        const uint64_t *A = SLOT(w, in->a), *B = SLOT(w, in->b);                \
        uint32_t r = 0;                                                         \
        int c = in->sub;                                                        \
        LANES(m, {                                                              \
            T a = GET(A[l]), b = GET(B[l]);                                     \
            int un = a != a || b != b, v;                                       \
            switch (c) {                                                        \
            case C_EQ: v = !un && a == b; break;                                \
            case C_NE: v = !un && a != b; break;                                \
            case C_LT: v = !un && a < b; break;                                 \
            case C_LE: v = !un && a <= b; break;                                \
            case C_GT: v = !un && a > b; break;                                 \
            case C_GE: v = !un && a >= b; break;                                \
            case C_EQU: v = un || a == b; break;                                \
            case C_NEU: v = un || a != b; break;                                \
            case C_LTU: v = un || a < b; break;                                 \
            case C_LEU: v = un || a <= b; break;                                \
            case C_GTU: v = un || a > b; break;                                 \
            case C_GEU: v = un || a >= b; break;                                \
            case C_NUM: v = !un; break;                                         \
            case C_NAN: v = un; break;                                          \
            default: v = 0; break;                                              \
            }                                                                   \
            r |= (uint32_t)v << l;                                              \
        });                                                                     \
        return r;                                                               \
    }
static inline float f32_of(uint64_t v) { return f32_from_bits((uint32_t)v); }
static inline float f16_of(uint64_t v) { return ptx_half_to_float((uint16_t)v); }
FCMP(cmp_f32, float, f32_of)
FCMP(cmp_f64, double, f64_from_bits)
FCMP(cmp_f16, float, f16_of)

typedef uint32_t (*cmp_fn)(const pwarp *w, const pinst *in, uint32_t m);

static cmp_fn cmp_for(ptype t)
{
    switch (t) {
    case PT_U16: case PT_B16: return cmp_u16;
    case PT_S16: return cmp_s16;
    case PT_U32: case PT_B32: return cmp_u32;
    case PT_S32: return cmp_s32;
    case PT_U64: case PT_B64: return cmp_u64;
    case PT_S64: return cmp_s64;
    case PT_F32: return cmp_f32;
    case PT_F64: return cmp_f64;
    case PT_F16: return cmp_f16;
    default: return NULL;
    }
}

/* setp.cmp[.bool].T p[|q], a, b[, {!}c]: in->e holds the comparison's index
 * in a small table (handlers cannot keep a function pointer of their own) */
static const cmp_fn cmp_table[] = {cmp_u16, cmp_s16, cmp_u32, cmp_s32, cmp_u64, cmp_s64, cmp_f32, cmp_f64, cmp_f16};

HANDLER(setp)
{
    UNUSED;
    uint32_t r = cmp_table[in->type2](w, in, m);
    if (in->sub2) {           /* 1 and, 2 or, 3 xor with predicate c */
        uint32_t c = PRED(w, in->c) ^ (in->npred_neg & 4 ? ~0u : 0);
        uint32_t p = in->sub2 == 1 ? r & c : in->sub2 == 2 ? r | c : r ^ c;
        uint32_t q = in->sub2 == 1 ? ~r & c : in->sub2 == 2 ? ~r | c : ~r ^ c;
        PRED(w, in->d) = (PRED(w, in->d) & ~m) | (p & m);
        if (in->d2 != UINT32_MAX) PRED(w, in->d2) = (PRED(w, in->d2) & ~m) | (q & m);
        return 0;
    }
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (r & m);
    if (in->d2 != UINT32_MAX) PRED(w, in->d2) = (PRED(w, in->d2) & ~m) | (~r & m);
    return 0;
}
int ptx_setp_int(const pinst *in, int *cmp, unsigned *bits, int *sgn)
{
    static const unsigned width[6] = {16, 16, 32, 32, 64, 64};
    if (in->fn != setp || in->sub2 || in->d2 != UINT32_MAX || in->type2 > 5) return -1;
    *bits = width[in->type2];
    *sgn = in->type2 & 1;
    switch (in->sub) {
    case C_EQ: *cmp = 0; return 0;
    case C_NE: *cmp = 1; return 0;
    case C_LT: case C_LO: *cmp = 2; return 0;
    case C_LE: case C_LS: *cmp = 3; return 0;
    case C_GT: case C_HI: *cmp = 4; return 0;
    case C_GE: case C_HS: *cmp = 5; return 0;
    default: return -1;
    }
}

/* set.cmp.dtype.stype d, a, b: all ones (integer) or 1.0 (float) where true */
HANDLER(set)
{
    UNUSED;
    uint32_t r = cmp_table[in->type2](w, in, m);
    uint64_t *D = SLOT(w, in->d);
    uint64_t yes = in->type == PT_F32 ? 0x3f800000u : 0xffffffffu;
    LANES(m, D[l] = (r >> l & 1) ? yes : 0);
    return 0;
}

static int table_index(cmp_fn f)
{
    for (size_t i = 0; i < sizeof cmp_table / sizeof cmp_table[0]; i++)
        if (cmp_table[i] == f) return (int)i;
    return -1;
}

/* ---- decoding ---- */

#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

static int need_ops(ptx_program *p, const raw_inst *ri, unsigned n, char *err, size_t cap)
{
    if (ri->nops != n) return ptx_dec_fail(p, ri, err, cap, "needs %u operands, has %u", n, ri->nops);
    return 0;
}

/* d, then N sources of types T[k] into a, b, c, e */
static int dec_n(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, unsigned n, const ptype *t, char *err, size_t cap)
{
    if (need_ops(p, ri, n + 1, err, cap) || ptx_dec_dst(f, ri, 0, &in->d, err, cap)) return -1;
    uint32_t *src[4] = {&in->a, &in->b, &in->c, &in->e};
    for (unsigned k = 0; k < n; k++)
        if (ptx_dec_src(p, f, ri, k + 1, t[k], src[k], err, cap)) return -1;
    return 0;
}

static int width_of(ptype t)
{
    unsigned b = ptype_bytes(t);
    return b == 2 ? 0 : b == 4 ? 1 : b == 8 ? 2 : -1;
}

typedef struct {
    const char *name;
    pop_fn w[3];             /* 16, 32, 64 bits */
    pop_fn s[3];             /* signed variants, where they differ */
} int_op;

static const int_op int_ops[] = {
    {"add", {add_16, add_32, add_64}, {add_16, add_32, add_64}},
    {"sub", {sub_16, sub_32, sub_64}, {sub_16, sub_32, sub_64}},
    {"and", {and_16, and_32, and_64}, {and_16, and_32, and_64}},
    {"or", {or_16, or_32, or_64}, {or_16, or_32, or_64}},
    {"xor", {xor_16, xor_32, xor_64}, {xor_16, xor_32, xor_64}},
    {"min", {umin_16, umin_32, umin_64}, {smin_s16, smin_s32, smin_s64}},
    {"max", {umax_16, umax_32, umax_64}, {smax_s16, smax_s32, smax_s64}},
    {"div", {udiv_16, udiv_32, udiv_64}, {sdiv_s16, sdiv_s32, sdiv_s64}},
    {"rem", {urem_16, urem_32, urem_64}, {srem_s16, srem_s32, srem_s64}},
    {"shl", {shl_16, shl_32, shl_64}, {shl_16, shl_32, shl_64}},
    {"shr", {shr_u16, shr_u32, shr_u64}, {shr_s16, shr_s32, shr_s64}},
    {NULL, {0}, {0}},
};

static int float_ops_decode(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap);

/* add.cc addc sub.cc subc mad.lo.cc mad.hi.cc madc.lo/hi: extended-precision arithmetic */
DECODE(dec_carry)
{
    ptype t = ptx_mod_type(ri, 0);
    const char *op = ri->opcode;
    int mad = !strncmp(op, "mad", 3);
    int cin = !strcmp(op, "addc") || !strcmp(op, "subc") || !strcmp(op, "madc");
    in->kind = K_OP;
    in->type = (uint8_t)t;
    in->sub = (uint8_t)(cin | (ptx_has_mod(ri, "cc") ? 2 : 0));
    in->sub2 = (uint8_t)(!strncmp(op, "sub", 3) ? 1 : mad ? (ptx_has_mod(ri, "hi") ? 3 : 2) : 0);
    ptype ts[3] = {t, t, t};
    if (dec_n(p, f, ri, in, mad ? 3 : 2, ts, err, cap)) return -1;
    if (!mad) in->c = in->b;
    unsigned b = ptype_bytes(t);
    if ((b == 4 || b == 8) && !ptype_float(t) && !ptx_has_mod(ri, "wide")) in->fn = carry_op;
    return 0;
}

/* add sub and or xor min max div rem shl shr: integer forms here, floats in ops_float.c */
DECODE(dec_binary)
{
    if (ptx_has_mod(ri, "cc")) return dec_carry(p, f, ri, in, err, cap);
    ptype t = ptx_mod_type(ri, 0);
    if (t == PT_PRED && (!strcmp(ri->opcode, "and") || !strcmp(ri->opcode, "or") || !strcmp(ri->opcode, "xor"))) {
        int na = 0, nb = 0;
        if (need_ops(p, ri, 3, err, cap) || ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) ||
            ptx_dec_pred(f, ri, 1, &in->a, &na, err, cap) || ptx_dec_pred(f, ri, 2, &in->b, &nb, err, cap))
            return -1;
        in->npred_neg = (uint8_t)(na | nb << 1);
        in->sub = !strcmp(ri->opcode, "and") ? 0 : !strcmp(ri->opcode, "or") ? 1 : 2;
        in->kind = K_OP;
        in->fn = pred_logic;
        return 0;
    }
    if (ptype_float(t)) return float_ops_decode(p, f, ri, in, err, cap);
    int wi = width_of(t);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    int shift = !strcmp(ri->opcode, "shl") || !strcmp(ri->opcode, "shr");
    ptype ts[2] = {t, shift ? PT_U32 : t};
    if (dec_n(p, f, ri, in, 2, ts, err, cap)) return -1;
    if (wi < 0) return 0;          /* no handler: unsupported when run */
    for (const int_op *o = int_ops; o->name; o++)
        if (!strcmp(o->name, ri->opcode)) {
            int sat = ptx_has_mod(ri, "sat") && t == PT_S32, cc = ptx_has_mod(ri, "cc");
            in->fn = ptype_signed(t) ? o->s[wi] : o->w[wi];
            if (sat) in->fn = !strcmp(ri->opcode, "add") ? addsat_s32 : !strcmp(ri->opcode, "sub") ? subsat_s32 : NULL;
            if (cc) in->fn = NULL;                          /* carry chains: not supported */
            if (!strcmp(o->name, "add") && !sat && !cc) in->fn_imm = wi == 1 ? add_32_imm : wi == 2 ? add_64_imm : NULL;
            return 0;
        }
    return 0;
}

DECODE(dec_mul)
{
    if (ptx_has_mod(ri, "cc") && !strcmp(ri->opcode, "mad")) return dec_carry(p, f, ri, in, err, cap);
    ptype t = ptx_mod_type(ri, 0);
    if (ptype_float(t)) return float_ops_decode(p, f, ri, in, err, cap);
    int mad = !strcmp(ri->opcode, "mad") || !strcmp(ri->opcode, "mad24");
    int is24 = !strcmp(ri->opcode, "mul24") || !strcmp(ri->opcode, "mad24");
    int wide = ptx_has_mod(ri, "wide"), hi = ptx_has_mod(ri, "hi");
    ptype ts[3] = {t, t, wide ? (t == PT_S32 ? PT_S64 : t == PT_U32 ? PT_U64 : t == PT_S16 ? PT_S32 : PT_U32) : t};
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (dec_n(p, f, ri, in, mad ? 3 : 2, ts, err, cap)) return -1;
    int s = ptype_signed(t), wi = width_of(t);
    if (wi < 0) return 0;
    if (ptx_has_mod(ri, "cc")) return 0;
    if (is24) {
        if (hi || wi != 1) return 0;
        in->fn = mad ? (s ? mad24lo_s32 : mad24lo_u32) : (s ? mul24lo_s32 : mul24lo_u32);
        return 0;
    }
    if (!mad) {
        static const pop_fn lo[3] = {mul_16, mul_32, mul_64};
        static const pop_fn hiu[3] = {mulhi_u16, mulhi_u32, mulhi_u64}, his[3] = {mulhi_s16, mulhi_s32, mulhi_s64};
        static const pop_fn wu[3] = {mulwide_u16, mulwide_u32, NULL}, ws[3] = {mulwide_s16, mulwide_s32, NULL};
        in->fn = wide ? (s ? ws[wi] : wu[wi]) : hi ? (s ? his[wi] : hiu[wi]) : lo[wi];
        if (wide && !s && wi == 1) in->fn_imm = mulwide_u32_imm;
        return 0;
    }
    static const pop_fn lo[3] = {mad_16, mad_32, mad_64};
    static const pop_fn hiu[3] = {NULL, madhi_u32, madhi_u64}, his[3] = {NULL, madhi_s32, madhi_s64};
    static const pop_fn wu[3] = {madwide_u16, madwide_u32, NULL}, ws[3] = {madwide_s16, madwide_s32, NULL};
    in->fn = wide ? (s ? ws[wi] : wu[wi]) : hi ? (s ? his[wi] : hiu[wi]) : lo[wi];
    if (ptx_has_mod(ri, "sat")) in->fn = NULL;      /* mad.hi.sat: not supported */
    return 0;
}

DECODE(dec_unary)
{
    ptype t = ptx_mod_type(ri, 0);
    if (t == PT_PRED && !strcmp(ri->opcode, "not")) {
        int na = 0;
        if (need_ops(p, ri, 2, err, cap) || ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) ||
            ptx_dec_pred(f, ri, 1, &in->a, &na, err, cap))
            return -1;
        in->npred_neg = (uint8_t)na;
        in->sub = 3;
        in->kind = K_OP;
        in->fn = pred_logic;
        return 0;
    }
    if (ptype_float(t)) return float_ops_decode(p, f, ri, in, err, cap);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    ptype ts[1] = {t};
    if (dec_n(p, f, ri, in, 1, ts, err, cap)) return -1;
    int wi = width_of(t), s = ptype_signed(t);
    const char *op = ri->opcode;
    if (!strcmp(op, "not")) {
        static const pop_fn v[3] = {not_16, not_32, not_64};
        in->fn = wi >= 0 ? v[wi] : NULL;
    } else if (!strcmp(op, "cnot")) {
        static const pop_fn v[3] = {cnot_16, cnot_32, cnot_64};
        in->fn = wi >= 0 ? v[wi] : NULL;
    } else if (!strcmp(op, "neg")) {
        static const pop_fn v[3] = {neg_16, neg_32, neg_64};
        in->fn = wi >= 0 ? v[wi] : NULL;
    } else if (!strcmp(op, "abs")) {
        static const pop_fn v[3] = {abs_s16, abs_s32, abs_s64};
        in->fn = wi >= 0 && s ? v[wi] : NULL;
    } else if (!strcmp(op, "popc")) {
        in->fn = wi == 1 ? popc_32 : wi == 2 ? popc_64 : NULL;
    } else if (!strcmp(op, "clz")) {
        in->fn = wi == 1 ? clz_32 : wi == 2 ? clz_64 : NULL;
    } else if (!strcmp(op, "brev")) {
        in->fn = wi == 1 ? brev_32 : wi == 2 ? brev_64 : NULL;
    } else if (!strcmp(op, "bfind")) {
        if (ptx_has_mod(ri, "shiftamt"))
            in->fn = wi == 1 ? (s ? bfind_sa_s32 : bfind_sa_u32) : wi == 2 ? (s ? bfind_sa_s64 : bfind_sa_u64) : NULL;
        else
            in->fn = wi == 1 ? (s ? bfind_s32 : bfind_u32) : wi == 2 ? (s ? bfind_s64 : bfind_u64) : NULL;
    }
    return 0;
}

DECODE(dec_bfe)
{
    ptype t = ptx_mod_type(ri, 0);
    ptype ts[3] = {t, PT_U32, PT_U32};
    in->kind = K_OP;
    if (dec_n(p, f, ri, in, 3, ts, err, cap)) return -1;
    int s = ptype_signed(t), wi = width_of(t);
    in->fn = wi == 1 ? (s ? bfe_s32 : bfe_u32) : wi == 2 ? (s ? bfe_s64 : bfe_u64) : NULL;
    return 0;
}

DECODE(dec_bfi)
{
    ptype t = ptx_mod_type(ri, 0);
    ptype ts[4] = {t, t, PT_U32, PT_U32};
    in->kind = K_OP;
    if (dec_n(p, f, ri, in, 4, ts, err, cap)) return -1;
    int wi = width_of(t);
    in->fn = wi == 1 ? bfi_32 : wi == 2 ? bfi_64 : NULL;
    return 0;
}

DECODE(dec_prmt)
{
    ptype ts[3] = {PT_B32, PT_B32, PT_B32};
    in->kind = K_OP;
    if (dec_n(p, f, ri, in, 3, ts, err, cap)) return -1;
    static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (unsigned k = 0; k < 6; k++)
        if (ptx_has_mod(ri, modes[k])) in->sub = (uint8_t)(k + 1);
    in->fn = prmt_32;
    return 0;
}

DECODE(dec_sad)
{
    ptype t = ptx_mod_type(ri, 0);
    ptype ts[3] = {t, t, t};
    in->kind = K_OP;
    if (dec_n(p, f, ri, in, 3, ts, err, cap)) return -1;
    in->fn = t == PT_U32 ? sad_u32 : t == PT_S32 ? sad_s32 : NULL;
    return 0;
}

DECODE(dec_selp)
{
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    if (need_ops(p, ri, 4, err, cap) || ptx_dec_dst(f, ri, 0, &in->d, err, cap) ||
        ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap) || ptx_dec_src(p, f, ri, 2, t, &in->b, err, cap) ||
        ptx_dec_pred(f, ri, 3, &in->c, NULL, err, cap))
        return -1;
    in->fn = selp;
    return 0;
}

DECODE(dec_setp)
{
    ptype t = ptx_mod_type(ri, 0);
    int c = cmp_of(ri);
    if (c < 0) return ptx_dec_fail(p, ri, err, cap, "needs a comparison (eq, ne, lt, ...)");
    in->kind = K_OP;
    in->sub = (uint8_t)c;
    in->sub2 = ptx_has_mod(ri, "and") ? 1 : ptx_has_mod(ri, "or") ? 2 : ptx_has_mod(ri, "xor") ? 3 : 0;
    unsigned n = in->sub2 ? 4 : 3;
    if (need_ops(p, ri, n, err, cap)) return -1;
    const raw_operand *o = &ri->ops[0];
    if (o->kind != RO_REG) return ptx_dec_fail(p, ri, err, cap, "the result must be a predicate");
    if (ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap)) return -1;
    in->d2 = UINT32_MAX;
    if (o->name2) {
        raw_inst tmp = *ri;
        tmp.ops[0].name = o->name2;
        tmp.ops[0].name2 = NULL;
        if (ptx_dec_pred(f, &tmp, 0, &in->d2, NULL, err, cap)) return -1;
    }
    if (ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap) || ptx_dec_src(p, f, ri, 2, t, &in->b, err, cap)) return -1;
    if (in->sub2) {
        int neg = 0;
        if (ptx_dec_pred(f, ri, 3, &in->c, &neg, err, cap)) return -1;
        in->npred_neg = (uint8_t)(neg ? 4 : 0);
    }
    cmp_fn cf = cmp_for(t);
    if (!cf) return 0;
    int fl = ptype_float(t);
    if (!fl && c >= C_EQU) return ptx_dec_fail(p, ri, err, cap, "an unordered comparison of integers");
    if (fl && c >= C_LO && c <= C_HS) return ptx_dec_fail(p, ri, err, cap, "an unsigned comparison of floats");
    in->type2 = (uint8_t)table_index(cf);
    in->fn = setp;
    return 0;
}

DECODE(dec_set)
{
    ptype dt = ptx_mod_type(ri, 0), st = ptx_mod_type(ri, 1);
    int c = cmp_of(ri);
    if (c < 0) return ptx_dec_fail(p, ri, err, cap, "needs a comparison");
    in->kind = K_OP;
    in->sub = (uint8_t)c;
    ptype ts[2] = {st, st};
    if (dec_n(p, f, ri, in, 2, ts, err, cap)) return -1;
    cmp_fn cf = cmp_for(st);
    if (!cf || ptx_has_mod(ri, "and") || ptx_has_mod(ri, "or") || ptx_has_mod(ri, "xor")) return 0;
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)table_index(cf);
    in->fn = set;
    return 0;
}

DECODE(dec_mov)
{
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    if (need_ops(p, ri, 2, err, cap)) return -1;
    if (t == PT_PRED) {
        int na = 0;
        if (ri->ops[1].kind == RO_IMM) {
            if (ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap)) return -1;
            in->sub = ri->ops[1].imm != 0; /* nvcc writes true as -1 */
            in->fn = mov_pred_imm;
            return 0;
        }
        if (ri->ops[1].kind == RO_REG && ri->ops[1].name && !strcmp(ri->ops[1].name, "%is_explicit_cluster")) {
            if (ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) || ptx_dec_src(p, f, ri, 1, PT_U32, &in->a, err, cap))
                return -1;
            in->fn = mov_pred_val;
            return 0;
        }
        if (ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) || ptx_dec_pred(f, ri, 1, &in->a, &na, err, cap)) return -1;
        in->npred_neg = (uint8_t)na;
        in->fn = mov_pred;
        return 0;
    }
    unsigned bits = ptype_bytes(t) * 8;
    if (!bits) return ptx_dec_fail(p, ri, err, cap, "needs a type");
    const raw_operand *d = &ri->ops[0], *s = &ri->ops[1];
    if (s->kind == RO_VEC || d->kind == RO_VEC) {
        const raw_operand *v = s->kind == RO_VEC ? s : d;
        if (v->nvec != 2 && v->nvec != 4) return ptx_dec_fail(p, ri, err, cap, "a vector of 2 or 4 members");
        in->nvec = (uint8_t)v->nvec;
        in->sub = (uint8_t)(bits / v->nvec);
        for (unsigned k = 0; k < v->nvec; k++) {
            raw_inst tmp = *ri;
            tmp.ops[0] = (raw_operand){.kind = v->vec[k] ? RO_REG : RO_SINK, .name = v->vec[k]};
            tmp.nops = 1;
            if (s->kind == RO_VEC ? ptx_dec_src(p, f, &tmp, 0, PT_B64, &in->v[k], err, cap)
                                  : ptx_dec_dst(f, &tmp, 0, &in->v[k], err, cap))
                return -1;
        }
        if (s->kind == RO_VEC) {
            if (ptx_dec_dst(f, ri, 0, &in->d, err, cap)) return -1;
            in->fn = mov_pack;
        } else {
            if (ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap)) return -1;
            in->fn = mov_unpack;
        }
        return 0;
    }
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap)) return -1;
    /* the address of a .local variable depends on the call frame */
    if (s->kind == RO_REG && s->name[0] != '%') {
        for (unsigned vi = 0; vi < p->mod->nvars; vi++) {
            const ptx_var *v = &p->mod->vars[vi];
            if (v->space == SP_LOCAL && (v->func == f->index || v->func < 0) && !strcmp(v->name, s->name)) {
                pinst tmp = *in;
                raw_inst r2 = *ri;
                r2.ops[1] = (raw_operand){.kind = RO_ADDR, .name = s->name};
                if (ptx_dec_addr(p, f, &r2, 1, &tmp, err, cap)) return -1;
                in->addr_base = tmp.addr_base;
                in->fn = mov_local;
                return 0;
            }
        }
    }
    if (ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap)) return -1;
    in->sub = (uint8_t)bits;
    in->fn = mov_any;
    return 0;
}

const pop_entry ptx_ops_int[] = {
    {"add", dec_binary}, {"sub", dec_binary}, {"and", dec_binary}, {"or", dec_binary}, {"xor", dec_binary},
    {"min", dec_binary}, {"max", dec_binary}, {"div", dec_binary}, {"rem", dec_binary}, {"shl", dec_binary},
    {"shr", dec_binary}, {"mul", dec_mul}, {"mad", dec_mul}, {"mul24", dec_mul}, {"mad24", dec_mul},
    {"not", dec_unary}, {"cnot", dec_unary}, {"neg", dec_unary}, {"abs", dec_unary}, {"popc", dec_unary},
    {"clz", dec_unary}, {"brev", dec_unary}, {"bfind", dec_unary}, {"bfe", dec_bfe}, {"bfi", dec_bfi},
    {"prmt", dec_prmt}, {"sad", dec_sad}, {"selp", dec_selp}, {"setp", dec_setp}, {"set", dec_set},
    {"mov", dec_mov}, {"addc", dec_carry}, {"subc", dec_carry}, {"madc", dec_carry}, {NULL, NULL},
};

/* Float forms of the shared mnemonics are decoded by ops_float.c's table. */
static int float_ops_decode(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    for (const pop_entry *e = ptx_ops_float; e->name; e++)
        if (!strcmp(e->name, ri->opcode)) return e->decode(p, f, ri, in, err, cap);
    in->kind = K_OP;
    return 0;
}

