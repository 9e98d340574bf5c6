/* Kernel sketches: the machine that runs compiled code (sketch_code.c) for
 * a whole warp.  Each operation is one tight loop over the 32 lanes (the
 * compiler vectorises most).  Lanes outside the mask compute something
 * harmless (a division by zero gives 0 there) that nothing reads; only a
 * lane in the mask can fail an operation. */
#include <string.h>

#include "sketch.h"

/* Operations on whole slots.  The compiler never makes an operation write
 * a slot it reads, so the slots can be restrict and the loops vectorise. */
#define U(v) ((uint64_t)(v))
#define LANE_OP(name, x)                                                                                               \
    static void name(int64_t *restrict D, const int64_t *restrict A, const int64_t *restrict B)                        \
    {                                                                                                                  \
        (void)B;                                                                                                       \
        for (int l = 0; l < SK_W; l++) D[l] = (x);                                                                     \
    }
LANE_OP(v_neg, (int64_t)(0 - U(A[l])))
LANE_OP(v_not, ~A[l])
LANE_OP(v_lnot, !A[l])
LANE_OP(v_add, (int64_t)(U(A[l]) + U(B[l])))
LANE_OP(v_sub, (int64_t)(U(A[l]) - U(B[l])))
LANE_OP(v_mul, (int64_t)(U(A[l]) * U(B[l])))
/* a lane not evaluated may divide by 0 or -1 (any value, unread): no trap */
LANE_OP(v_div, B[l] == 0 ? 0 : B[l] == -1 ? (int64_t)(0 - U(A[l])) : A[l] / B[l])
LANE_OP(v_mod, B[l] == 0 || B[l] == -1 ? 0 : A[l] % B[l])
LANE_OP(v_shl, U(B[l]) > 63 ? 0 : (int64_t)(U(A[l]) << B[l]))
LANE_OP(v_shr, U(B[l]) > 63 ? 0 : A[l] >> B[l])
LANE_OP(v_lt, A[l] < B[l])
LANE_OP(v_gt, A[l] > B[l])
LANE_OP(v_le, A[l] <= B[l])
LANE_OP(v_ge, A[l] >= B[l])
LANE_OP(v_eq, A[l] == B[l])
LANE_OP(v_ne, A[l] != B[l])
LANE_OP(v_and, A[l] & B[l])
LANE_OP(v_xor, A[l] ^ B[l])
LANE_OP(v_or, A[l] | B[l])
LANE_OP(v_land, (A[l] != 0) & (B[l] != 0))
LANE_OP(v_lor, (A[l] != 0) | (B[l] != 0))

static void v_sel(int64_t *restrict D, const int64_t *restrict A, const int64_t *restrict B, const int64_t *restrict C)
{
    for (int l = 0; l < SK_W; l++) D[l] = A[l] ? B[l] : C[l];
}

/* Truncating toward zero: a negative dividend is biased up by 2^k - 1. */
static void v_divp2(int64_t *restrict D, const int64_t *restrict A, unsigned k)
{
    uint64_t bias = ((uint64_t)1 << k) - 1;
    for (int l = 0; l < SK_W; l++) D[l] = (int64_t)(U(A[l]) + (U(A[l] >> 63) & bias)) >> k;
}

static void v_modp2(int64_t *restrict D, const int64_t *restrict A, unsigned k)
{
    uint64_t bias = ((uint64_t)1 << k) - 1;
    for (int l = 0; l < SK_W; l++) D[l] = (int64_t)(U(A[l]) - (U((int64_t)(U(A[l]) + (U(A[l] >> 63) & bias)) >> k) << k));
}

static void v_mulp2(int64_t *restrict D, const int64_t *restrict A, unsigned k)
{
    for (int l = 0; l < SK_W; l++) D[l] = (int64_t)(U(A[l]) << k);
}

/* The lanes where X[l] is zero, or outside 0..63. */
static uint32_t lanes_where_zero(const int64_t *x)
{
    uint32_t m = 0;
    for (int l = 0; l < SK_W; l++) m |= (uint32_t)(x[l] == 0) << l;
    return m;
}

static uint32_t lanes_bad_shift(const int64_t *x)
{
    uint32_t m = 0;
    for (int l = 0; l < SK_W; l++) m |= (uint32_t)(U(x[l]) > 63) << l;
    return m;
}

int sk_vm(const coalsim_sketch *sk, const sk_slots *s, const sk_code *c, uint32_t mask)
{
    static void (*const lane_ops[])(int64_t *restrict, const int64_t *restrict, const int64_t *restrict) = {
        [OP_NEG] = v_neg, [OP_NOT] = v_not, [OP_LNOT] = v_lnot, [OP_ADD] = v_add, [OP_SUB] = v_sub,
        [OP_MUL] = v_mul, [OP_DIV] = v_div, [OP_MOD] = v_mod, [OP_SHL] = v_shl, [OP_SHR] = v_shr,
        [OP_LT] = v_lt, [OP_GT] = v_gt, [OP_LE] = v_le, [OP_GE] = v_ge, [OP_EQ] = v_eq, [OP_NE] = v_ne,
        [OP_AND] = v_and, [OP_XOR] = v_xor, [OP_OR] = v_or, [OP_LAND] = v_land, [OP_LOR] = v_lor,
    };
    for (uint32_t i = c->first; i < c->end; i++) {
        const sk_op *o = &sk->code[i];
        int64_t *D = s->slot[o->d];
        const int64_t *A = s->slot[o->a];
        switch (o->op) {
        case OP_DIV: case OP_MOD:
            if (lanes_where_zero(s->slot[o->b]) & mask) return -1;
            lane_ops[o->op](D, A, s->slot[o->b]);
            break;
        case OP_SHL: case OP_SHR:
            if (lanes_bad_shift(s->slot[o->b]) & mask) return -1;
            lane_ops[o->op](D, A, s->slot[o->b]);
            break;
        case OP_SEL: v_sel(D, A, s->slot[o->b], s->slot[o->c]); break;
        case OP_DIVP2: v_divp2(D, A, o->c); break;
        case OP_MODP2: v_modp2(D, A, o->c); break;
        case OP_MULP2: v_mulp2(D, A, o->c); break;
        case OP_MPUSH_NZ:
        case OP_MPUSH_Z: {
            uint32_t z = lanes_where_zero(A);
            s->mask[o->c] = mask;
            mask &= o->op == OP_MPUSH_NZ ? ~z : z;
            if (!mask) i = o->b - 1;             /* to the MPOP */
            break;
        }
        case OP_MPOP: mask = s->mask[o->c]; break;
        default: lane_ops[o->op](D, A, s->slot[o->b]); break;
        }
    }
    return 0;
}
