/* The tensor cores' arithmetic on fragments (mma.h). */
#include <math.h>
#include <string.h>

#include "frontend/mma.h"
#include "frontend/ptx/ptx.h"     /* the f16/bf16 conversions */

static const unsigned dims[MMA_SHAPES][3] = {{16, 8, 16}, {16, 8, 8}, {16, 8, 32}, {8, 8, 4}, {16, 8, 4}};

void mma_dims(mma_shape sh, unsigned *m, unsigned *n, unsigned *k)
{
    *m = dims[sh][0], *n = dims[sh][1], *k = dims[sh][2];
}

static unsigned bits_of(mma_kind k) { return k == MMA_F16 || k == MMA_BF16 ? 16 : k == MMA_S8 || k == MMA_U8 ? 8 : k == MMA_F64 ? 64 : 32; }

int mma_words(mma_shape sh, mma_kind k, mma_acc acc, unsigned *na, unsigned *nb, unsigned *nc)
{
    int ok = 0;
    switch (sh) {
    case MMA_16816: ok = ((k == MMA_F16 && (acc == MMA_ACC_F32 || acc == MMA_ACC_F16)) || (k == MMA_BF16 && acc == MMA_ACC_F32) ||
                          ((k == MMA_S8 || k == MMA_U8) && acc == MMA_ACC_S32)); break;
    case MMA_1688: ok = ((k == MMA_F16 && (acc == MMA_ACC_F32 || acc == MMA_ACC_F16)) ||
                         ((k == MMA_BF16 || k == MMA_TF32) && acc == MMA_ACC_F32)); break;
    case MMA_16832: ok = (k == MMA_S8 || k == MMA_U8) && acc == MMA_ACC_S32; break;
    case MMA_884: ok = k == MMA_F64 && acc == MMA_ACC_F64; break;
    case MMA_1684: ok = k == MMA_TF32 && acc == MMA_ACC_F32; break;
    default: break;
    }
    if (!ok) return -1;
    unsigned M = dims[sh][0], N = dims[sh][1], K = dims[sh][2], b = bits_of(k);
    *na = M * K / 32 * b / 32, *nb = K * N / 32 * b / 32;
    *nc = M * N / 32 * (acc == MMA_ACC_F16 ? 16 : acc == MMA_ACC_F64 ? 64 : 32) / 32;
    if (!*na) *na = 1;
    if (!*nb) *nb = 1;
    return 0;
}

/* A's and B's element E (in register order, low bits first) of lane T. */
static void frag_a(mma_shape sh, mma_kind kind, unsigned t, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = t >> 2, q = t & 3;
    switch (sh) {
    case MMA_16816:
        if (kind == MMA_S8 || kind == MMA_U8) *row = g + 8 * (e >= 4), *col = q * 4 + (e & 3);   /* 2 regs of 4 */
        else *row = g + 8 * ((e >> 1) & 1), *col = q * 2 + (e & 1) + 8 * (e >= 4);             /* 4 regs of 2 */
        return;
    case MMA_1688:
        if (kind == MMA_TF32) *row = g + 8 * (e & 1), *col = q + 4 * (e >= 2);
        else *row = g + 8 * (e >= 2), *col = q * 2 + (e & 1);
        return;
    case MMA_16832: *row = g + 8 * ((e >> 2) & 1), *col = q * 4 + (e & 3) + 16 * (e >= 8); return;
    case MMA_1684: *row = g + 8 * (e & 1), *col = q; return;
    default: *row = g, *col = q; return;     /* m8n8k4 f64 */
    }
}

static void frag_b(mma_shape sh, mma_kind kind, unsigned t, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = t >> 2, q = t & 3;
    *col = g;
    switch (sh) {
    case MMA_16816: *row = (kind == MMA_S8 || kind == MMA_U8) ? q * 4 + e : q * 2 + (e & 1) + 8 * (e >= 2); return;
    case MMA_1688: *row = kind == MMA_TF32 ? q + 4 * e : q * 2 + e; return;
    case MMA_16832: *row = q * 4 + (e & 3) + 16 * (e >= 4); return;
    default: *row = q; return;
    }
}

static void frag_c(mma_shape sh, unsigned t, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = t >> 2, q = t & 3;
    if (sh == MMA_884) *row = g, *col = q * 2 + e;
    else *row = g + 8 * (e >= 2), *col = q * 2 + (e & 1);
}

/* Element E of a lane's operand X (words), of BITS each. */
static uint64_t elem_bits(const uint32_t (*x)[32], unsigned lane, unsigned e, unsigned bits)
{
    if (bits == 64) return (uint64_t)x[2 * e][lane] | (uint64_t)x[2 * e + 1][lane] << 32;
    unsigned per = 32 / bits;
    uint32_t w = x[e / per][lane] >> (bits * (e % per));
    return bits == 32 ? w : w & ((1u << bits) - 1);
}

static double value(mma_kind k, uint64_t v)
{
    switch (k) {
    case MMA_F16: return ptx_half_to_float((uint16_t)v);
    case MMA_BF16: return ptx_bf16_to_float((uint16_t)v);
    case MMA_TF32: {
        uint32_t u = (uint32_t)v & 0xffffe000u;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case MMA_S8: return (int8_t)v;
    case MMA_U8: return (uint8_t)v;
    default: {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    }
}

static double acc_value(mma_acc acc, uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    switch (acc) {
    case MMA_ACC_F16: return ptx_half_to_float((uint16_t)v);
    case MMA_ACC_S32: return (int32_t)u;
    case MMA_ACC_F64: return value(MMA_F64, v);
    default: memcpy(&f, &u, 4); return f;
    }
}

/* A half's or bfloat16's value: the common normal numbers by bits, the
 * rest through the general conversion. */
static inline float h2f(uint32_t h, int bf)
{
    float f;
    uint32_t u;
    if (bf) {
        u = h << 16;
    } else {
        uint32_t e = h >> 10 & 0x1f;
        if (e == 0 || e == 31) return ptx_half_to_float((uint16_t)h);
        u = (h >> 15) << 31 | (e + 112) << 23 | (h & 0x3ff) << 13;
    }
    memcpy(&f, &u, 4);
    return f;
}

/* A double sum rounded once to a half (an f16 accumulator): rounded to odd
 * at float's 24 bits first, so that float -> half's round to nearest even
 * lands where rounding the double would (24 >= 11 + 2); (float)s alone
 * rounds twice and misses by an ulp when the float lands on a half's tie. */
static uint16_t d2h(double s)
{
    float f = (float)s;
    if ((double)f != s && f == f) {
        if (fabs((double)f) > fabs(s)) f = nextafterf(f, 0.0f);   /* truncated */
        uint32_t u;
        memcpy(&u, &f, 4);
        u |= 1;
        memcpy(&f, &u, 4);
    }
    return ptx_float_to_half(f);
}

/* m16n8k16 with f16 or bf16 inputs, what GEMMs run: the fragments decoded
 * register by register, and each row of D summed over k for its 8 columns
 * at once (independent sums the compiler vectorises; products of 11- or
 * 8-bit mantissas are exact in float, the sums are in double as the
 * general path's). */
static void run_16816(int bf, mma_acc acc, const uint32_t (*a)[32], const uint32_t (*b)[32], const uint32_t (*c)[32],
                      uint32_t (*d)[32])
{
    float A[16][16], B[16][8], C[16][8];
    for (unsigned t = 0; t < 32; t++) {
        unsigned g = t >> 2, q2 = 2 * (t & 3);
        for (unsigned r = 0; r < 4; r++) {
            uint32_t w = a[r][t];
            unsigned row = g + 8 * (r & 1), col = q2 + 8 * (r >> 1);
            A[row][col] = h2f(w & 0xffff, bf), A[row][col + 1] = h2f(w >> 16, bf);
        }
        for (unsigned r = 0; r < 2; r++) {
            uint32_t w = b[r][t];
            B[q2 + 8 * r][g] = h2f(w & 0xffff, bf), B[q2 + 8 * r + 1][g] = h2f(w >> 16, bf);
        }
        for (unsigned e = 0; e < 4; e++) {
            unsigned row = g + 8 * (e >> 1), col = q2 + (e & 1);
            if (acc == MMA_ACC_F16) C[row][col] = ptx_half_to_float((uint16_t)(c[e / 2][t] >> (16 * (e & 1))));
            else memcpy(&C[row][col], &c[e][t], 4);
        }
    }
    float D[16][8];
    uint16_t H[16][8];
    for (unsigned r = 0; r < 16; r++) {
        double s[8];
        for (unsigned n = 0; n < 8; n++) s[n] = C[r][n];
        for (unsigned kk = 0; kk < 16; kk++) {
            float x = A[r][kk];
            for (unsigned n = 0; n < 8; n++) s[n] += (double)(x * B[kk][n]);   /* the product is exact */
        }
        if (acc == MMA_ACC_F16)
            for (unsigned n = 0; n < 8; n++) H[r][n] = d2h(s[n]);
        else
            for (unsigned n = 0; n < 8; n++) D[r][n] = (float)s[n];
    }
    for (unsigned t = 0; t < 32; t++) {
        unsigned g = t >> 2, q2 = 2 * (t & 3);
        if (acc == MMA_ACC_F16) {
            d[0][t] = (uint32_t)H[g][q2] | (uint32_t)H[g][q2 + 1] << 16;
            d[1][t] = (uint32_t)H[g + 8][q2] | (uint32_t)H[g + 8][q2 + 1] << 16;
        } else {
            memcpy(&d[0][t], &D[g][q2], 4), memcpy(&d[1][t], &D[g][q2 + 1], 4);
            memcpy(&d[2][t], &D[g + 8][q2], 4), memcpy(&d[3][t], &D[g + 8][q2 + 1], 4);
        }
    }
}

void mma_run(mma_shape sh, mma_kind k, mma_acc acc, int sat, const uint32_t (*a)[32], const uint32_t (*b)[32],
             const uint32_t (*c)[32], uint32_t (*d)[32])
{
    if (sh == MMA_16816 && (k == MMA_F16 || k == MMA_BF16) && (acc == MMA_ACC_F32 || acc == MMA_ACC_F16)) {
        run_16816(k == MMA_BF16, acc, a, b, c, d);
        return;
    }
    unsigned M = dims[sh][0], N = dims[sh][1], K = dims[sh][2], bits = bits_of(k);
    unsigned cbits = acc == MMA_ACC_F16 ? 16 : acc == MMA_ACC_F64 ? 64 : 32;
    unsigned ne_a = M * K / 32, ne_b = K * N / 32, ne_c = M * N / 32;
    double A[16][32], B[32][8], C[16][8];
    for (unsigned t = 0; t < 32; t++) {
        unsigned r, cc;
        for (unsigned e = 0; e < ne_a; e++) frag_a(sh, k, t, e, &r, &cc), A[r][cc] = value(k, elem_bits(a, t, e, bits));
        for (unsigned e = 0; e < ne_b; e++) frag_b(sh, k, t, e, &r, &cc), B[r][cc] = value(k, elem_bits(b, t, e, bits));
        for (unsigned e = 0; e < ne_c; e++) frag_c(sh, t, e, &r, &cc), C[r][cc] = acc_value(acc, elem_bits(c, t, e, cbits));
    }
    uint32_t out[8][32];
    memset(out, 0, sizeof out);
    for (unsigned t = 0; t < 32; t++)
        for (unsigned e = 0; e < ne_c; e++) {
            unsigned r, cc;
            frag_c(sh, t, e, &r, &cc);
            if (acc == MMA_ACC_S32) {
                int64_t s = (int64_t)C[r][cc];
                for (unsigned kk = 0; kk < K; kk++) s += (int64_t)A[r][kk] * (int64_t)B[kk][cc];
                int32_t v = sat ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s) : (int32_t)(uint32_t)(uint64_t)s;
                out[e][t] = (uint32_t)v;
                continue;
            }
            double s = C[r][cc];
            for (unsigned kk = 0; kk < K; kk++) s += A[r][kk] * B[kk][cc];
            if (acc == MMA_ACC_F64) {
                uint64_t u;
                memcpy(&u, &s, 8);
                out[2 * e][t] = (uint32_t)u, out[2 * e + 1][t] = (uint32_t)(u >> 32);
            } else if (acc == MMA_ACC_F16) {
                out[e / 2][t] |= (uint32_t)d2h(s) << (16 * (e % 2));
            } else {
                float f = (float)s;
                memcpy(&out[e][t], &f, 4);
            }
        }
    unsigned nd = ne_c * cbits / 32;
    for (unsigned r = 0; r < nd; r++) memcpy(d[r], out[r], sizeof out[r]);
}

void mma_ldsm(const uint16_t (*rows)[8], unsigned n, int trans, uint32_t (*regs)[32])
{
    for (unsigned k = 0; k < n; k++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned r = t / 4, c = 2 * (t % 4);
            const uint16_t (*m)[8] = rows + 8 * k;
            regs[k][t] = trans ? (uint32_t)m[c][r] | (uint32_t)m[c + 1][r] << 16 : (uint32_t)m[r][c] | (uint32_t)m[r][c + 1] << 16;
        }
}

void mma_stsm(const uint32_t (*regs)[32], unsigned n, int trans, uint16_t (*rows)[8])
{
    for (unsigned k = 0; k < n; k++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned r = t / 4, c = 2 * (t % 4);
            uint16_t (*m)[8] = rows + 8 * k;
            uint16_t lo = (uint16_t)regs[k][t], hi = (uint16_t)(regs[k][t] >> 16);
            if (trans) m[c][r] = lo, m[c + 1][r] = hi;
            else m[r][c] = lo, m[r][c + 1] = hi;
        }
}

void mma_movm(const uint32_t a[32], uint32_t d[32])
{
    uint16_t e[8][8];
    for (unsigned t = 0; t < 32; t++) e[t / 4][2 * (t % 4)] = (uint16_t)a[t], e[t / 4][2 * (t % 4) + 1] = (uint16_t)(a[t] >> 16);
    for (unsigned t = 0; t < 32; t++) {
        unsigned r = t / 4, c = 2 * (t % 4);
        d[t] = (uint32_t)e[c][r] | (uint32_t)e[c + 1][r] << 16;
    }
}
