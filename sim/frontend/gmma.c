/* Warpgroup MMA: descriptors, element values, one warp's product.  See gmma.h. */
#include "gmma.h"

#include <math.h>
#include <string.h>

#include "frontend/ptx/ptx.h"
#include "frontend/tmap.h"

unsigned gmma_type_bytes(gmma_type t)
{
    return t == GMMA_F16 || t == GMMA_BF16 ? 2 : t == GMMA_TF32 ? 4 : 1;
}

unsigned gmma_k(gmma_type t)
{
    return 32 / gmma_type_bytes(t);
}

const char *gmma_desc_check(uint64_t desc)
{
    if (desc >> 49 & 7) return "a wgmma descriptor with a base offset (bits 49-51) is not supported";
    return NULL;
}

uint32_t gmma_elem_addr(uint64_t desc, int mn_major, unsigned eb, unsigned mn, unsigned k)
{
    uint32_t start = (uint32_t)(desc & 0x3fff) << 4, lbo = (uint32_t)(desc >> 16 & 0x3fff) << 4,
             sbo = (uint32_t)(desc >> 32 & 0x3fff) << 4;
    unsigned layout = (unsigned)(desc >> 62);          /* 0 none, 1 128B, 2 64B, 3 32B */
    static const tmap_swizzle sw[4] = {TMAP_SWIZZLE_NONE, TMAP_SWIZZLE_128B, TMAP_SWIZZLE_64B, TMAP_SWIZZLE_32B};
    static const unsigned width[4] = {1, 8, 4, 2};
    unsigned W = width[layout];
    uint32_t a;
    if (!mn_major) {
        unsigned kb = k * eb;
        a = layout == 0 ? start + (mn % 8) * 16 + (mn / 8) * sbo + (kb / 16) * lbo + kb % 16
                        : start + (mn % 8) * 16 * W + (mn / 8) * sbo + kb;
    } else {
        unsigned T = 16 / eb, c = mn / T;
        a = layout == 0 ? start + c * sbo + (k % 8) * 16 + (k / 8) * lbo + (mn % T) * eb
                        : start + (mn % T) * eb + (c % W) * 16 + (c / W) * lbo + (k % 8) * 16 * W + (k / 8) * sbo;
    }
    return tmap_swizzle_addr(sw[layout], a);
}

/* e4m3: no infinities, S.1111.111 is NaN; e5m2: a half's top byte */
static double e4m3(uint32_t v)
{
    unsigned s = v >> 7 & 1, e = v >> 3 & 15, f = v & 7;
    if (e == 15 && f == 7) return NAN;
    double m = e ? ldexp(1.0 + f / 8.0, (int)e - 7) : ldexp(f / 8.0, -6);
    return s ? -m : m;
}

double gmma_value(gmma_type t, uint32_t bits)
{
    switch (t) {
    case GMMA_F16: return ptx_half_to_float((uint16_t)bits);
    case GMMA_BF16: return ptx_bf16_to_float((uint16_t)bits);
    case GMMA_TF32: {
        uint32_t u = bits & 0xffffe000u;      /* the tensor cores read tf32's 19 bits */
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case GMMA_E4M3: return e4m3(bits & 0xff);
    case GMMA_E5M2: return ptx_half_to_float((uint16_t)((bits & 0xff) << 8));
    case GMMA_S8: return (int8_t)bits;
    default: return (uint8_t)bits;
    }
}

/* a double rounded once to a half: to odd at float's 24 bits, then to
 * nearest even (as mma.c's d2h) */
static uint16_t to_half(double s)
{
    float f = (float)s;
    if ((double)f != s && f == f) {
        if (fabs((double)f) > fabs(s)) f = nextafterf(f, 0.0f);
        uint32_t u;
        memcpy(&u, &f, 4);
        u |= 1;
        memcpy(&f, &u, 4);
    }
    return ptx_float_to_half(f);
}

void gmma_run(gmma_acc acc, unsigned n, unsigned k, const double *a, const double *b, int scale_d, int sat,
              const uint32_t *c, uint32_t *d)
{
    for (unsigned r = 0; r < 16; r++)
        for (unsigned j = 0; j < n; j++) {
            uint32_t cv = c[r * n + j];
            if (acc == GMMA_ACC_S32) {
                int64_t s = scale_d ? (int32_t)cv : 0;
                for (unsigned q = 0; q < k; q++) s += (int64_t)a[r * k + q] * (int64_t)b[q * n + j];
                int32_t v = sat ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s)
                                : (int32_t)(uint32_t)(uint64_t)s;
                d[r * n + j] = (uint32_t)v;
                continue;
            }
            double s = 0;
            if (scale_d) {
                if (acc == GMMA_ACC_F16) {
                    s = ptx_half_to_float((uint16_t)cv);
                } else {
                    float f;
                    memcpy(&f, &cv, 4);
                    s = f;
                }
            }
            for (unsigned q = 0; q < k; q++) s += a[r * k + q] * b[q * n + j];
            if (acc == GMMA_ACC_F16) {
                d[r * n + j] = to_half(s);
            } else {
                float f = (float)s;
                memcpy(&d[r * n + j], &f, 4);
            }
        }
}

unsigned gmma_dregs(gmma_acc acc, unsigned n) { return acc == GMMA_ACC_F16 ? n / 4 : n / 2; }

const char *gmma_warp_rows(const gmma_inst *g, unsigned rank, const unsigned char *smem, uint64_t smem_bytes,
                           const uint32_t (*areg)[32], uint32_t (*d)[32], uint32_t *bad)
{
    gmma_type t = g->ta, tb = g->tb;
    unsigned n = g->n, k = gmma_k(t), eb = gmma_type_bytes(t), nd = gmma_dregs(g->acc, n);
    static _Thread_local double A[16 * 32], B[32 * 256];
    static _Thread_local uint32_t C[16 * 256], D[16 * 256];
    double sa = g->neg_a ? -1.0 : 1.0, sb = g->neg_b ? -1.0 : 1.0;
    if (g->reg_a) {
        for (int lane = 0; lane < 32; lane++) {
            unsigned gr = (unsigned)lane / 4, q = (unsigned)lane % 4;
            for (unsigned r = 0; r < 4; r++) {
                uint32_t v = areg[r][lane];
                unsigned row = gr + 8 * (r % 2);
                if (eb == 2) {
                    unsigned col = 2 * q + 8 * (r / 2);
                    A[row * k + col] = sa * gmma_value(t, v & 0xffff), A[row * k + col + 1] = sa * gmma_value(t, v >> 16);
                } else if (eb == 4) {
                    A[row * k + q + 4 * (r / 2)] = sa * gmma_value(t, v);
                } else {
                    for (unsigned b = 0; b < 4; b++) A[row * k + 4 * q + 16 * (r / 2) + b] = sa * gmma_value(t, v >> (8 * b));
                }
            }
        }
    } else {
        for (unsigned r = 0; r < 16; r++)
            for (unsigned c = 0; c < k; c++) {
                uint32_t a = gmma_elem_addr(g->da, g->trans_a, eb, 16 * rank + r, c), v = 0;
                if ((uint64_t)a + eb > smem_bytes) {
                    *bad = a;
                    return "a wgmma operand element is beyond the block's shared memory";
                }
                memcpy(&v, smem + a, eb);
                A[r * k + c] = sa * gmma_value(t, v);
            }
    }
    for (unsigned c = 0; c < k; c++)
        for (unsigned j = 0; j < n; j++) {
            uint32_t a = gmma_elem_addr(g->db, g->trans_b, eb, j, c), v = 0;
            if ((uint64_t)a + eb > smem_bytes) {
                *bad = a;
                return "a wgmma operand element is beyond the block's shared memory";
            }
            memcpy(&v, smem + a, eb);
            B[c * n + j] = sb * gmma_value(tb, v);
        }
    /* D's registers to and from [row][column] */
    for (int lane = 0; lane < 32; lane++) {
        unsigned gr = (unsigned)lane / 4, q = (unsigned)lane % 4;
        for (unsigned i = 0; i < nd; i++) {
            uint32_t v = d[i][lane];
            if (g->acc == GMMA_ACC_F16) {
                unsigned row = gr + 8 * (i % 2), col = 8 * (i / 2) + 2 * q;
                C[row * n + col] = v & 0xffff, C[row * n + col + 1] = v >> 16;
            } else {
                C[(gr + 8 * ((i % 4) / 2)) * n + 8 * (i / 4) + 2 * q + i % 2] = v;
            }
        }
    }
    gmma_run(g->acc, n, k, A, B, g->scale_d, g->sat, C, D);
    for (int lane = 0; lane < 32; lane++) {
        unsigned gr = (unsigned)lane / 4, q = (unsigned)lane % 4;
        for (unsigned i = 0; i < nd; i++) {
            uint32_t v;
            if (g->acc == GMMA_ACC_F16) {
                unsigned row = gr + 8 * (i % 2), col = 8 * (i / 2) + 2 * q;
                v = (D[row * n + col] & 0xffff) | (D[row * n + col + 1] & 0xffff) << 16;
            } else {
                v = D[(gr + 8 * ((i % 4) / 2)) * n + 8 * (i / 4) + 2 * q + i % 2];
            }
            d[i][lane] = v;
        }
    }
    return NULL;
}
