/* Hopper's asynchronous data movement: mbarriers, bulk copies and tensor
 * copies (the Tensor Memory Accelerator), their groups, and the warp
 * specialisation instructions that go with them (setmaxnreg).
 *
 * mbarrier: the object is frontend/mbar.h's.
 *
 * Copies happen when the instruction runs, and complete their bytes on the
 * mbarrier at once: a kernel that waits for them finds them there, and one
 * that reads its tile without waiting has a race on the GPU, not here.  A
 * warp whose mbarrier.try_wait finds the phase not complete sleeps (its
 * state W_WAIT, the instruction not yet executed) until other warps have
 * moved; if none can, the block is deadlocked, which is an error naming
 * the waiting warps and their barriers (ptx_exec.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/mbar.h"
#include "frontend/tmabox.h"
#include "frontend/tmamerge.h"
#include "frontend/tmap.h"
#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)
#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

/* ---- the mbarrier object (frontend/mbar.h) ---- */

/* The mbarrier lane L names at address A (in IN's space): *P its 8 bytes,
 * *REPORT its shared address.  0, or -1 with the GPU's error. */
static int mb_at(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, int l, unsigned char **p, uint64_t *report)
{
    int space;
    if (ptx_locate(x, w, in, sp, a, 8, l, p, report, &space) != 0) return -1;
    if (space != COALSIM_SHARED)
        return ptx_fail(x, in, "lane %d's mbarrier address 0x%llx is not in shared memory (warp %u)", l,
                        (unsigned long long)a, w->index);
    return 0;
}

static int mb_made(pctx *x, const pwarp *w, const pinst *in, const mbar *b, uint64_t rep, int l)
{
    if (b->made) return 0;
    return ptx_fail(x, in, "the mbarrier at shared 0x%llx is used before mbarrier.init (lane %d, warp %u)",
                    (unsigned long long)rep, l, w->index);
}

/* ---- the mbarriers in the time model ---- */

static uint64_t mb_key(const pctx *x, uint64_t a)
{
    uint64_t r = a >> CL_SHIFT ? (a >> CL_SHIFT) - 1 : x->cur;
    return r << 32 | CL_OFFSET(a);
}

/* The mbarrier at shared address A has something in at scoreboard time T. */
static void sb_mark(pctx *x, uint64_t a, uint64_t t)
{
    if (x->sb_on) mbar_times_mark(&x->sb_mbar, mb_key(x, a), t);
}

static uint64_t sb_ready(const pctx *x, uint64_t a) { return mbar_times_ready(&x->sb_mbar, mb_key(x, a)); }

/* Complete BYTES of the transaction count of the mbarrier at shared address A;
 * the bytes are in at READY (scoreboard time). */
static int mb_complete_tx(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, int l, uint64_t bytes, uint64_t ready)
{
    unsigned char *p;
    uint64_t rep;
    if (mb_at(x, w, in, sp, a, l, &p, &rep) != 0) return -1;
    mbar b = mb_get(p);
    if (mb_made(x, w, in, &b, rep, l) != 0) return -1;
    sb_mark(x, a, ready);
    b.tx -= (int64_t)bytes;
    if (b.tx < -MB_MAX_TX)
        return ptx_fail(x, in, "the mbarrier at shared 0x%llx has more bytes completed than it can count (lane %d, warp %u)",
                        (unsigned long long)rep, l, w->index);
    mb_settle(&b);
    mb_put(p, &b);
    return 0;
}

/* in->sub: what it does; in->sub2: MBF_* */
enum { MB_INIT, MB_INVAL, MB_EXPECT_TX, MB_COMPLETE_TX, MB_ARRIVE, MB_TEST_WAIT, MB_TRY_WAIT };
#define MBF_EXPECT 1     /* arrive.expect_tx */
#define MBF_PARITY 2     /* test_wait.parity / try_wait.parity */
#define MBF_DROP 4       /* arrive_drop */
#define MBF_TOKEN 8      /* arrive writes a state (d is not '_') */

static uint64_t lane_value(const pwarp *w, uint32_t slot, int l, uint64_t dflt)
{
    return slot == UINT32_MAX ? dflt : SLOT(w, slot)[l];
}

/* init, inval, expect_tx, complete_tx, arrive{.expect_tx}, arrive_drop: a
 * lane at a time, in lane order.  a: the count or byte operand (or
 * UINT32_MAX); d: arrive's state. */
HANDLER(mbarrier)
{
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        unsigned char *p;
        uint64_t rep, v = lane_value(w, in->a, l, 1);
        if (mb_at(x, w, in, in->space, ptx_lane_addr(w, in, l, 0), l, &p, &rep) != 0) return -1;
        mbar b = mb_get(p);
        if (in->sub == MB_INIT) {
            if (v == 0 || v > MB_MAX_COUNT)
                return ptx_fail(x, in, "mbarrier.init with a count of %llu (1 to 2^20-1; lane %d, warp %u)",
                                (unsigned long long)v, l, w->index);
            b = (mbar){.pending = (unsigned)v, .count = (unsigned)v, .made = 1};
            mb_put(p, &b);
            continue;
        }
        if (in->sub == MB_INVAL) {
            memset(p, 0, 8);
            continue;
        }
        if (mb_made(x, w, in, &b, rep, l) != 0) return -1;
        if (in->sub == MB_EXPECT_TX || in->sub == MB_COMPLETE_TX || (in->sub2 & MBF_EXPECT)) {
            if (v > (uint64_t)MB_MAX_TX)
                return ptx_fail(x, in, "a transaction count of %llu bytes (at most 2^20-1; lane %d, warp %u)",
                                (unsigned long long)v, l, w->index);
            b.tx += in->sub == MB_COMPLETE_TX ? -(int64_t)v : (int64_t)v;
            if (b.tx > MB_MAX_TX || b.tx < -MB_MAX_TX)
                return ptx_fail(x, in, "the mbarrier at shared 0x%llx expects more bytes than it can count (lane %d, warp %u)",
                                (unsigned long long)rep, l, w->index);
        }
        if (in->sub == MB_ARRIVE) {
            unsigned n = (in->sub2 & MBF_EXPECT) ? 1 : (unsigned)v;
            sb_mark(x, ptx_lane_addr(w, in, l, 0), x->sb_now);
            if (n > b.pending)
                return ptx_fail(x, in, "%u arrivals on the mbarrier at shared 0x%llx, which waits for %u more in this "
                                "phase (lane %d, warp %u)", n, (unsigned long long)rep, b.pending, l, w->index);
            /* the state: bit 0 the phase it arrived in (test_wait's), bits 1..20 the arrivals the phase
             * waited for when it came (mbarrier.pending_count's: the H100 gives 4 and 3 for arrivals
             * of 1 and 2 on a barrier of 4, gpu/results/h100/bulk_reduce) */
            if (in->sub2 & MBF_TOKEN) SLOT(w, in->d)[l] = b.phase | (uint64_t)b.pending << 1;
            b.pending -= n;
            if (in->sub2 & MBF_DROP) b.count -= n < b.count ? n : b.count;
        }
        mb_settle(&b);
        mb_put(p, &b);
    }
    return 0;
}

/* mbarrier.pending_count.b64 count, state: the arrivals the phase waited
 * for when the arrival that made STATE came */
HANDLER(mbarrier_pending)
{
    (void)x;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        SLOT(w, in->d)[l] = SLOT(w, in->a)[l] >> 1 & 0xfffff;
    }
    return 0;
}

/* test_wait and try_wait{.parity} p, [a], state|parity: whether the phase
 * the state names (or the last phase of that parity) has completed.  A
 * try_wait that finds it has not returns 1 (the warp waits and runs it
 * again later) and changes nothing. */
HANDLER(mbarrier_wait)
{
    uint32_t done = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        unsigned char *p;
        uint64_t rep;
        if (mb_at(x, w, in, in->space, ptx_lane_addr(w, in, l, 0), l, &p, &rep) != 0) return -1;
        mbar b = mb_get(p);
        if (mb_made(x, w, in, &b, rep, l) != 0) return -1;
        unsigned named = (unsigned)(SLOT(w, in->a)[l] & 1);
        if (b.phase != named) done |= 1u << l;
    }
    if (in->sub == MB_TRY_WAIT && done != m) return 1;
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | done;
    if (in->sub == MB_TRY_WAIT && x->sb_on)
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            uint64_t r = sb_ready(x, ptx_lane_addr(w, in, __builtin_ctz(mm), 0));
            if (r > x->sb_wait_until) x->sb_wait_until = r;
        }
    return 0;
}

static int cluster_wait(pctx *x, pwarp *w, const pinst *in, uint32_t m);

int ptx_mbarrier_describe(pctx *x, pwarp *w, const pinst *in, char *buf, size_t cap)
{
    if (in->fn == cluster_wait) {
        snprintf(buf, cap, "the cluster's barrier (barrier.cluster.wait: %llu of %llu threads arrived)",
                 (unsigned long long)x->cl.count, (unsigned long long)ptx_cluster_live(x));
        return 0;
    }
    if (in->fn != mbarrier_wait) {
        snprintf(buf, cap, "the other warps of its warpgroup at %s", in->text);
        return 0;
    }
    uint32_t m = w->frames[w->depth - 1].stack[w->frames[w->depth - 1].sp - 1].mask;
    int l = m ? __builtin_ctz(m) : 0;
    unsigned char *p;
    uint64_t rep;
    if (mb_at(x, w, in, in->space, ptx_lane_addr(w, in, l, 0), l, &p, &rep) != 0) return -1;
    mbar b = mb_get(p);
    snprintf(buf, cap, "the mbarrier at shared 0x%llx for the phase of parity %u to complete (it is in phase parity %u, "
             "waiting for %u of %u arrivals and %lld bytes)", (unsigned long long)rep, (unsigned)(SLOT(w, in->a)[l] & 1),
             b.phase, b.pending, b.count, (long long)b.tx);
    return 0;
}

/* cp.async.mbarrier.arrive{.noinc}.b64 [a]: the lane's earlier cp.async
 * copies are done already, so it is the arrive-on at once; without .noinc
 * the pending count is raised by one first, so nothing changes. */
HANDLER(cp_async_arrive)
{
    if (!in->sub) return 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        unsigned char *p;
        uint64_t rep;
        if (mb_at(x, w, in, in->space, ptx_lane_addr(w, in, l, 0), l, &p, &rep) != 0) return -1;
        mbar b = mb_get(p);
        if (mb_made(x, w, in, &b, rep, l) != 0) return -1;
        if (b.pending == 0)
            return ptx_fail(x, in, "an arrival on the mbarrier at shared 0x%llx, which waits for none (lane %d, warp %u)",
                            (unsigned long long)rep, l, w->index);
        b.pending--;
        mb_settle(&b);
        mb_put(p, &b);
    }
    return 0;
}

/* ---- bulk copies ---- */

/* The requests of a bulk copy's global side: 16-byte pieces, up to 32 a
 * request, in the order they are moved. */
typedef struct bulk_req {
    coalsim_request r;
    unsigned n;
} bulk_req;

static int bulk_flush(pctx *x, const pwarp *w, const pinst *in, bulk_req *q)
{
    if (!q->n) return 0;
    q->r.active = q->n == 32 ? 0xffffffffu : (1u << q->n) - 1;
    q->n = 0;
    return ptx_put(x, w, in, &q->r);
}

static int bulk_piece(pctx *x, const pwarp *w, const pinst *in, bulk_req *q, uint64_t a)
{
    if (!q) return 0;            /* a multicast's further destinations: read once */
    q->r.addr[q->n++] = a & ~15ull;
    return q->n == 32 ? bulk_flush(x, w, in, q) : 0;
}

static void bulk_start(pctx *x, const pwarp *w, const pinst *in, coalsim_op op, bulk_req *q)
{
    uint64_t none[32] = {0};
    ptx_request(x, w, in, op, COALSIM_GLOBAL, 16, 0, none, &q->r);
    q->n = 0;
}

/* Shared memory [A, A + N) of lane L: *P.  0, or -1 with the GPU's error. */
static int shared_span(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, uint64_t n, int l, unsigned char **p)
{
    int space;
    uint64_t rep;
    if (ptx_locate(x, w, in, sp, a, 16, l, p, &rep, &space) != 0) return -1;
    if (space != COALSIM_SHARED)
        return ptx_fail(x, in, "lane %d's address 0x%llx is not in shared memory (warp %u)", l, (unsigned long long)a,
                        w->index);
    if (CL_OFFSET(rep) + n > x->smem_bytes)
        return ptx_fail(x, in, "a %llu-byte copy at shared 0x%llx runs past the block's %llu bytes of shared memory "
                        "(lane %d, warp %u)", (unsigned long long)n, (unsigned long long)rep,
                        (unsigned long long)x->smem_bytes, l, w->index);
    return 0;
}

/* The CTAs a copy lands in: the executing one, or with .multicast::cluster
 * those of the lane's ctaMask (in->e), each at the same shared offset.
 * *N of them into RANKS (-1: the executing CTA's own address).  0, or -1
 * with the error. */
static int destinations(pctx *x, pwarp *w, const pinst *in, int l, int *ranks, unsigned *n)
{
    *n = 0;
    if (!in->nvec) {
        ranks[(*n)++] = -1;
        return 0;
    }
    uint32_t mask = (uint32_t)SLOT(w, in->e)[l] & 0xffff;
    if (!mask || mask >> x->ncta)
        return ptx_fail(x, in, "a multicast to CTAs 0x%04x of a cluster of %u (lane %d, warp %u)", mask, x->ncta, l,
                        w->index);
    for (unsigned r = 0; r < x->ncta; r++)
        if (mask >> r & 1) ranks[(*n)++] = (int)r;
    return 0;
}

/* Address A (shared or an mbarrier) moved to the CTA of rank R (-1: as it is). */
static uint64_t in_cta(uint64_t a, int r)
{
    return r < 0 ? a : (uint64_t)(r + 1) << CL_SHIFT | CL_OFFSET(a);
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 * and cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size: sub 1
 * for the store (shared to global); b: the size slot; c: the mbarrier's
 * address slot (or UINT32_MAX) and imm its constant part. */
HANDLER(bulk_copy)
{
    int store = in->sub;
    bulk_req q;
    bulk_start(x, w, in, store ? COALSIM_BULK_ST : COALSIM_BULK_LD, &q);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t n = SLOT(w, in->b)[l];
        uint64_t dst = ptx_lane_addr(w, in, l, 0), src = ptx_lane_addr(w, in, l, 1);
        uint64_t sh = store ? src : dst, gl = store ? dst : src;
        if (n % 16 || sh % 16 || gl % 16)
            return ptx_fail(x, in, "a bulk copy of %llu bytes from 0x%llx to 0x%llx: sizes and addresses must be multiples "
                            "of 16 (misaligned address; lane %d, warp %u)", (unsigned long long)n,
                            (unsigned long long)src, (unsigned long long)dst, l, w->index);
        int ranks[PTX_MAX_CLUSTER];
        unsigned nd;
        if (destinations(x, w, in, l, ranks, &nd) != 0) return -1;
        for (unsigned d = 0; d < nd; d++) {
            unsigned char *sp;
            if (n && shared_span(x, w, in, store ? SP_SHARED : in->space, in_cta(sh, ranks[d]), n, l, &sp) != 0) return -1;
            for (uint64_t o = 0; o < n; o += 16) {
                unsigned char *gp;
                uint64_t rep;
                int space;
                if (ptx_locate(x, w, in, SP_GLOBAL, gl + o, 16, l, &gp, &rep, &space) != 0) return -1;
                if (store) memcpy(gp, sp + o, 16);
                else memcpy(sp + o, gp, 16);
                if (bulk_piece(x, w, in, d == 0 ? &q : NULL, rep) != 0) return -1;   /* read once, however many receive it */
            }
            /* the bytes arrive a global load's latency after the copy issues */
            if (!store && mb_complete_tx(x, w, in, in->space, in_cta(in->imm + SLOT(w, in->c)[l], ranks[d]), l, n,
                                         ptx_sched_load_ready(x)) != 0)
                return -1;
        }
        x->exec.bulk_copies++;
        if (store) x->exec.bulk_bytes_out += n ? ((gl + n + 31) / 32 - gl / 32) * 32 : 0;
        else x->exec.bulk_bytes_in += n * nd;          /* each receiving CTA counts it (ncu, H100) */
        if (in->nvec) x->exec.bulk_bytes_multicast += n * nd;
    }
    return bulk_flush(x, w, in, &q);
}

/* ---- bulk reductions ---- */

/* Element DST becomes OP(DST, SRC), of type T (EB bytes); GLOBAL: memory
 * the other workers' blocks share, so atomically (an element of 1 or 2
 * bytes through the aligned word that holds it). */
static void reduce_elem(unsigned char *dst, const unsigned char *src, unsigned eb, int op, ptype t, int global)
{
    uint64_t b = 0;
    memcpy(&b, src, eb);
    if (!global) {
        uint64_t o = 0;
        memcpy(&o, dst, eb);
        uint64_t nv = ptx_atomic_new(op, t, o, b, b);
        memcpy(dst, &nv, eb);
        return;
    }
    if (eb == 8) {
        uint64_t *p = (uint64_t *)(void *)dst, o = __atomic_load_n(p, __ATOMIC_RELAXED), nv;
        do nv = ptx_atomic_new(op, t, o, b, b);
        while (!__atomic_compare_exchange_n(p, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        return;
    }
    uintptr_t a = (uintptr_t)dst;
    uint32_t *p = (uint32_t *)(a & ~(uintptr_t)3), o = __atomic_load_n(p, __ATOMIC_RELAXED), nv;
    unsigned sh = (unsigned)(a & 3) * 8;
    uint32_t mask = eb >= 4 ? ~0u : ((1u << (8 * eb)) - 1) << sh;
    do {
        uint64_t v = ptx_atomic_new(op, t, (o & mask) >> sh, b, b);
        nv = (o & ~mask) | ((uint32_t)(v << sh) & mask);
    } while (!__atomic_compare_exchange_n(p, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

/* cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [dst], [src], size
 * and cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.OP.TYPE
 * [dst], [src], size, [mbar]: each element of [dst, dst + size) becomes OP
 * of it and the source's.  sub 1: the global destination; sub2: OP; type:
 * TYPE; b: the size slot; c + imm: the mbarrier. */
HANDLER(bulk_reduce)
{
    int to_global = in->sub;
    ptype t = (ptype)in->type;
    unsigned eb = ptype_bytes(t);
    bulk_req q;
    bulk_start(x, w, in, COALSIM_BULK_ST, &q);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t n = SLOT(w, in->b)[l];
        uint64_t dst = ptx_lane_addr(w, in, l, 0), src = ptx_lane_addr(w, in, l, 1);
        if (n % 16 || dst % 16 || src % 16)
            return ptx_fail(x, in, "a bulk reduction of %llu bytes from 0x%llx into 0x%llx: sizes and addresses must be "
                            "multiples of 16 (misaligned address; lane %d, warp %u)", (unsigned long long)n,
                            (unsigned long long)src, (unsigned long long)dst, l, w->index);
        if (!n) continue;
        unsigned char *sp, *dp;
        if (shared_span(x, w, in, SP_SHARED, src, n, l, &sp) != 0) return -1;
        if (!to_global) {
            if (shared_span(x, w, in, in->space, dst, n, l, &dp) != 0) return -1;
            for (uint64_t o = 0; o < n; o += eb) reduce_elem(dp + o, sp + o, eb, in->sub2, t, 0);
            if (mb_complete_tx(x, w, in, in->space, in->imm + SLOT(w, in->c)[l], l, n, ptx_sched_load_ready(x)) != 0)
                return -1;
            x->exec.bulk_copies++;
            x->exec.bulk_bytes_red_dshared += n;
            continue;
        }
        for (uint64_t o = 0; o < n; o += 16) {
            uint64_t rep;
            int space;
            if (ptx_locate(x, w, in, SP_GLOBAL, dst + o, 16, l, &dp, &rep, &space) != 0) return -1;
            for (unsigned e = 0; e < 16; e += eb) reduce_elem(dp + e, sp + o + e, eb, in->sub2, t, 1);
            if (bulk_piece(x, w, in, &q, rep) != 0) return -1;
        }
        x->exec.bulk_copies++;
        x->exec.bulk_bytes_red += ((dst + n + 31) / 32 - dst / 32) * 32;
    }
    return bulk_flush(x, w, in, &q);
}

/* ---- tensor copies ---- */

/* The tensor map at generic (or parameter-space) address A of lane L. */
static int read_tmap(pctx *x, pwarp *w, const pinst *in, uint64_t a, int l, tmap *t)
{
    unsigned char bytes[TMAP_BYTES];
    int sp = in->sub2 ? SP_PARAM : SP_GENERIC;
    if (a % 64)
        return ptx_fail(x, in, "misaligned tensor map address 0x%llx (64-byte aligned; lane %d, warp %u)",
                        (unsigned long long)a, l, w->index);
    for (unsigned k = 0; k < TMAP_BYTES; k += 64) {
        unsigned char *p;
        uint64_t rep;
        int space;
        if (ptx_locate(x, w, in, sp, a + k, 64, l, &p, &rep, &space) != 0) return -1;
        memcpy(bytes + k, p, 64);
    }
    if (tmap_decode(bytes, t) != 0)
        return ptx_fail(x, in, "lane %d's tensor map at 0x%llx was not made by cuTensorMapEncodeTiled (coalsim's driver) "
                        "or --args' tensor-map syntax (warp %u)", l, (unsigned long long)a, w->index);
    return 0;
}

/* The element type of a tensor map's elements, for a reduction. */
static ptype tmap_ptype(tmap_type t)
{
    switch (t) {
    case TMAP_U8: return PT_U8;
    case TMAP_U16: return PT_U16;
    case TMAP_U32: return PT_U32;
    case TMAP_S32: return PT_S32;
    case TMAP_U64: return PT_U64;
    case TMAP_S64: return PT_S64;
    case TMAP_F16: return PT_F16;
    case TMAP_F64: return PT_F64;
    case TMAP_BF16: return PT_BF16;
    default: return PT_F32;
    }
}

/* One tensor copy of lane L (tmabox.h), through the interpreter's memory:
 * global pieces go to Q (NULL: not reported). */
typedef struct box_ctx {
    pctx *x;
    pwarp *w;
    const pinst *in;
    int l;
    bulk_req *q;
    tmap_type type;            /* the map's elements (a reduction's type) */
} box_ctx;

static int box_global(void *c, uint64_t a, unsigned n, unsigned char **p, uint64_t *report)
{
    box_ctx *b = c;
    int space;
    return ptx_locate(b->x, b->w, b->in, SP_GLOBAL, a, n, b->l, p, report, &space);
}

static int box_piece(void *c, uint64_t report)
{
    box_ctx *b = c;
    return bulk_piece(b->x, b->w, b->in, b->q, report);
}

static void box_reduce(void *c, unsigned char *dst, const unsigned char *src, unsigned eb)
{
    box_ctx *b = c;
    reduce_elem(dst, src, eb, (int)b->in->imm, tmap_ptype(b->type), 1);
}

static int tensor_box(pctx *x, pwarp *w, const pinst *in, const tmap *t, const int64_t *coord, unsigned char *smem,
                      uint32_t sh, int store, int l, bulk_req *q, uint64_t *written)
{
    box_ctx b = {x, w, in, l, q, t->type};
    tma_io io = {&b, box_global, q ? box_piece : NULL, box_reduce};
    return tma_box(t, coord, smem, sh, store, &io, written);
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst], [tmap, {c..}], [mbar]
 * and cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tmap, {c..}], [src],
 * cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group [tmap, {c..}], [src].
 * sub 1: the store, 2: the reduction (imm: OP).  The tensor map's address: addr2 (sub2 1: a kernel
 * parameter's name, so parameter space); coordinates: xslots; the
 * shared address: addr; the mbarrier: c + imm. */
HANDLER(tensor_copy)
{
    int store = in->sub;
    bulk_req q;
    bulk_start(x, w, in, store ? COALSIM_BULK_ST : COALSIM_BULK_LD, &q);
    const uint32_t *xs = ptx_xslots(w, in);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        tmap t;
        if (read_tmap(x, w, in, ptx_lane_addr(w, in, l, 1), l, &t) != 0) return -1;
        if (t.rank != in->nxs)
            return ptx_fail(x, in, "a %ud tensor copy with a tensor map of rank %u (lane %d, warp %u)", in->nxs, t.rank, l,
                            w->index);
        int64_t coord[TMAP_MAX_RANK];
        for (unsigned d = 0; d < t.rank; d++) coord[d] = (int32_t)SLOT(w, xs[d])[l];
        uint64_t sh = ptx_lane_addr(w, in, l, 0), bytes = tmap_box_bytes(&t);
        if (sh % 128)
            return ptx_fail(x, in, "misaligned shared address 0x%llx for a tensor copy (128-byte aligned; lane %d, warp %u)",
                            (unsigned long long)sh, l, w->index);
        int ranks[PTX_MAX_CLUSTER];
        unsigned nd;
        if (destinations(x, w, in, l, ranks, &nd) != 0) return -1;
        uint64_t written = 0, ready = store ? 0 : ptx_sched_tma_ready(x, w, bytes);
        /* a box another SM of its merge domain asked for as the same load is read from L2 once (tmamerge.h) */
        bulk_req *rq = &q;
        if (!store) {
            if (!x->tma_merge) {
                x->tma_merge = malloc(sizeof *x->tma_merge);
                if (!x->tma_merge) return ptx_fail(x, in, "out of memory");
                tma_merge_init(x->tma_merge);
            }
            uint64_t box = tma_merge_box(t.base, t.rank, coord, t.box);
            if (tma_merge_shared(x->tma_merge, x->block_id, x->cta[x->cur].tma_loads++, box)) rq = NULL;
        }
        for (unsigned d = 0; d < nd; d++) {
            /* a swizzle moves 16-byte pieces within their 128-byte row */
            unsigned char *sp;
            if (shared_span(x, w, in, in->space, in_cta(sh, ranks[d]), t.swizzle ? (bytes + 127) & ~127ull : bytes, l, &sp) != 0)
                return -1;
            /* the global side is read once, however many CTAs receive it */
            if (tensor_box(x, w, in, &t, coord, sp, (uint32_t)CL_OFFSET(sh), store, l, d == 0 ? rq : NULL, &written) != 0)
                return -1;
            if (!store && mb_complete_tx(x, w, in, in->space, in_cta(in->imm + SLOT(w, in->c)[l], ranks[d]), l, bytes, ready) != 0)
                return -1;
        }
        x->exec.bulk_copies++;
        if (store == 2) x->exec.bulk_bytes_red += written;
        else if (store) x->exec.bulk_bytes_out += written;
        else x->exec.bulk_bytes_in += bytes * nd;     /* the whole box, its zero-filled part too, in each CTA that
                                                         receives it (ncu, H100: gpu/results/h100/{hopper,cluster}) */
        if (in->nvec) x->exec.bulk_bytes_multicast += bytes * nd;
    }
    return bulk_flush(x, w, in, &q);
}

/* commit_group, wait_group{.read}, fences, setmaxnreg: the copies are done
 * already; registers are not modelled per warp */
HANDLER(async_nop)
{
    (void)x, (void)w, (void)in, (void)m;
    return 0;
}

/* ---- decoding ---- */

static int shared_or_generic(const raw_inst *ri)
{
    for (unsigned k = 0; k < ri->nmods; k++) {
        /* shared::cluster: a block is a cluster of one here, so its shared
         * memory is the cluster's */
        if (!strcmp(ri->mods[k], "shared") || !strncmp(ri->mods[k], "shared::", 8)) return SP_SHARED;
    }
    return SP_GENERIC;
}

/* a register or constant operand K of type T into *SLOT, or UINT32_MAX when absent */
static int opt_src(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, ptype t, uint32_t *slot, char *err, size_t cap)
{
    *slot = UINT32_MAX;
    if (k >= ri->nops) return 0;
    return ptx_dec_src(p, f, ri, k, t, slot, err, cap);
}

/* the mbarrier address operand K into in->c (a register slot) + in->imm */
static int mbar_operand(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, pinst *in, char *err, size_t cap)
{
    pinst tmp = *in;
    if (ptx_dec_addr(p, f, ri, k, &tmp, err, cap)) return -1;
    if (tmp.addr_local_sym) return ptx_dec_fail(p, ri, err, cap, "the mbarrier must be in shared memory");
    in->imm = tmp.addr_base + (uint64_t)tmp.off;
    if (tmp.addr_slot == UINT32_MAX) {
        /* a constant address: a zero register and the constant */
        return ptx_dec_src(p, f, &(raw_inst){.nops = 1, .ops = {{.kind = RO_IMM, .imm = 0}}, .line = ri->line}, 0,
                           PT_U64, &in->c, err, cap);
    }
    in->c = tmp.addr_slot;
    return 0;
}

DECODE(dec_mbarrier)
{
    static const struct { const char *mod; int sub; } ops[] = {
        {"init", MB_INIT}, {"inval", MB_INVAL}, {"expect_tx", MB_EXPECT_TX}, {"complete_tx", MB_COMPLETE_TX},
        {"arrive", MB_ARRIVE}, {"arrive_drop", MB_ARRIVE}, {"test_wait", MB_TEST_WAIT}, {"try_wait", MB_TRY_WAIT},
    };
    int sub = -1;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0] && sub < 0; k++)
        if (ri->nmods && !strcmp(ri->mods[0], ops[k].mod)) sub = ops[k].sub;
    in->kind = K_OP;
    in->space = (uint8_t)shared_or_generic(ri);
    in->a = in->d = UINT32_MAX;
    if (sub < 0 && ri->nmods && !strcmp(ri->mods[0], "pending_count")) {
        /* mbarrier.pending_count.b64 count, state */
        if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands (count, state)");
        if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, PT_U64, &in->a, err, cap)) return -1;
        in->fn = mbarrier_pending;
        return 0;
    }
    if (sub < 0) return 0;                  /* another form: an error naming it if it runs */
    in->sub = (uint8_t)sub;
    if (!strcmp(ri->mods[0], "arrive_drop")) in->sub2 |= MBF_DROP;
    if (sub == MB_ARRIVE && ri->nmods > 1 && !strcmp(ri->mods[1], "expect_tx")) in->sub2 |= MBF_EXPECT;
    if (ptx_has_mod(ri, "parity")) in->sub2 |= MBF_PARITY;
    switch (sub) {
    case MB_INIT: case MB_EXPECT_TX: case MB_COMPLETE_TX:
        if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands ([mbar], count)");
        if (ptx_dec_addr(p, f, ri, 0, in, err, cap) || ptx_dec_src(p, f, ri, 1, PT_U32, &in->a, err, cap)) return -1;
        in->fn = mbarrier;
        return 0;
    case MB_INVAL:
        if (ri->nops != 1) return ptx_dec_fail(p, ri, err, cap, "needs 1 operand ([mbar])");
        if (ptx_dec_addr(p, f, ri, 0, in, err, cap)) return -1;
        in->fn = mbarrier;
        return 0;
    case MB_ARRIVE:
        if (ri->nops < 2 || ri->nops > 3) return ptx_dec_fail(p, ri, err, cap, "needs 2 or 3 operands (state, [mbar]{, count})");
        if (ri->ops[0].kind != RO_SINK) {
            if (ptx_dec_dst(f, ri, 0, &in->d, err, cap)) return -1;
            in->sub2 |= MBF_TOKEN;
        }
        if ((in->sub2 & MBF_EXPECT) && ri->nops != 3)
            return ptx_dec_fail(p, ri, err, cap, "mbarrier.arrive.expect_tx needs a byte count");
        if (ptx_dec_addr(p, f, ri, 1, in, err, cap) || opt_src(p, f, ri, 2, PT_U32, &in->a, err, cap)) return -1;
        in->fn = mbarrier;
        return 0;
    default:     /* test_wait, try_wait */
        if (ri->nops < 3 || ri->nops > 4)
            return ptx_dec_fail(p, ri, err, cap, "needs 3 or 4 operands (p, [mbar], state or parity{, time limit})");
        if (ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) || ptx_dec_addr(p, f, ri, 1, in, err, cap) ||
            ptx_dec_src(p, f, ri, 2, (in->sub2 & MBF_PARITY) ? PT_U32 : PT_B64, &in->a, err, cap))
            return -1;
        if (sub == MB_TRY_WAIT) in->kind = K_WAIT;
        in->fn = mbarrier_wait;
        return 0;
    }
}

static int has_prefix_mod(const raw_inst *ri, const char *prefix)
{
    for (unsigned k = 0; k < ri->nmods; k++)
        if (!strncmp(ri->mods[k], prefix, strlen(prefix))) return 1;
    return 0;
}

/* cp.async.bulk{.tensor.Nd}..., cp.async.bulk.commit_group / wait_group,
 * cp.async.mbarrier.arrive.  Returns 1 if RI is none of them (plain
 * cp.async, ptx_ops_matrix.c). */
/* cp.reduce.async.bulk{.tensor.Nd}...: decoded as the copy it is shaped
 * like (without .reduce and the operation), then given its operation. */
static int dec_reduce_bulk(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    static const char *const ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
    static const int codes[] = {A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR};
    raw_inst c = *ri;
    c.nmods = 0;
    int op = -1;
    for (unsigned k = 1; k < ri->nmods; k++) {
        int is_op = 0;
        for (unsigned o = 0; o < 8; o++)
            if (!strcmp(ri->mods[k], ops[o])) op = codes[o], is_op = 1;
        if (!is_op && strcmp(ri->mods[k], "noftz")) memcpy(c.mods[c.nmods++], ri->mods[k], sizeof c.mods[0]);
    }
    if (op < 0) return ptx_dec_fail(p, ri, err, cap, "needs an operation (add, min, max, inc, dec, and, or, xor)");
    int tensor = ptx_has_mod(ri, "tensor");
    ptype t = tensor ? PT_NONE : ptx_mod_type(ri, 0);
    if (!tensor) {
        unsigned b = ptype_bytes(t);
        if (b != 2 && b != 4 && b != 8) return ptx_dec_fail(p, ri, err, cap, "needs a type (.b32, .u32, .s32, .u64, .s64, .f16, .bf16, .f32, .f64, ...)");
        if ((ptype_float(t) && op != A_ADD) || (b == 2 && !ptype_float(t)))
            return ptx_dec_fail(p, ri, err, cap, "a bulk reduction of .%s data does not take this operation", ri->mods[ri->nmods - 1]);
    }
    int rc = ptx_dec_bulk(p, f, &c, in, err, cap);
    if (rc != 0) return rc;
    if (!in->fn) return 0;                 /* a form the copy does not support: its error if it runs */
    if (tensor) {
        in->sub = 2;
        in->imm = (int64_t)op;
        return 0;
    }
    int to_global = in->sub;               /* the copy's store: into global memory */
    if (!to_global && (ptype_float(t) || ptype_bytes(t) == 2))
        return ptx_dec_fail(p, ri, err, cap, "a bulk reduction into shared memory takes .b32, .u32, .s32, .b64 or .u64 data");
    in->type = (uint8_t)t;
    in->sub2 = (uint8_t)op;
    if (!to_global) in->kind = K_OP;       /* shared to shared: no global side */
    in->fn = bulk_reduce;
    return 0;
}

int ptx_dec_bulk(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    if (ri->nmods >= 3 && !strcmp(ri->mods[0], "reduce") && !strcmp(ri->mods[1], "async") && !strcmp(ri->mods[2], "bulk"))
        return dec_reduce_bulk(p, f, ri, in, err, cap);
    if (ri->nmods >= 2 && !strcmp(ri->mods[0], "async") && !strcmp(ri->mods[1], "mbarrier")) {
        /* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [mbar] */
        in->kind = K_OP;
        in->space = (uint8_t)shared_or_generic(ri);
        in->sub = (uint8_t)ptx_has_mod(ri, "noinc");
        if (ri->nops != 1) return ptx_dec_fail(p, ri, err, cap, "needs 1 operand ([mbar])");
        if (ptx_dec_addr(p, f, ri, 0, in, err, cap)) return -1;
        in->fn = cp_async_arrive;
        return 0;
    }
    if (ri->nmods < 2 || strcmp(ri->mods[0], "async") || strcmp(ri->mods[1], "bulk")) return 1;
    in->kind = K_OP;
    if (ptx_has_mod(ri, "commit_group") || ptx_has_mod(ri, "wait_group")) {
        if (ptx_has_mod(ri, "wait_group") && (ri->nops != 1 || ri->ops[0].kind != RO_IMM))
            return ptx_dec_fail(p, ri, err, cap, "cp.async.bulk.wait_group needs a constant group count");
        in->fn = async_nop;
        return 0;
    }
    if (ptx_has_mod(ri, "prefetch")) {
        in->fn = async_nop;          /* an L2 prefetch: no value changes (and no traffic modelled) */
        return 0;
    }
    int tensor = ptx_has_mod(ri, "tensor");
    unsigned kdir = tensor ? 4 : 2;          /* cp.async.bulk{.tensor.Nd}.DST.SRC */
    int store = ri->nmods > kdir && !strcmp(ri->mods[kdir], "global");
    in->kind = K_MEM;
    in->cs_space = COALSIM_GLOBAL;
    in->cs_op = store ? COALSIM_BULK_ST : COALSIM_BULK_LD;
    in->space = SP_SHARED;
    in->sub = (uint8_t)store;
    in->addr2_slot = UINT32_MAX;
    in->b = in->c = UINT32_MAX;
    int ok_mods = store ? has_prefix_mod(ri, "bulk_group") : has_prefix_mod(ri, "mbarrier::complete_tx");
    if (!ok_mods || has_prefix_mod(ri, "im2col") || (store && has_prefix_mod(ri, "multicast")))
        return 0;                     /* unsupported: an error naming it if it runs */
    int multicast = has_prefix_mod(ri, "multicast::cluster");
    if (!tensor) {
        /* [dst], [src], size{, [mbar]}{, policy} */
        unsigned want = store ? 3 : 4;
        if (ri->nops < want) return ptx_dec_fail(p, ri, err, cap, "needs %u operands", want);
        pinst src = *in;
        if (ptx_dec_addr(p, f, ri, 1, &src, err, cap) || ptx_dec_addr(p, f, ri, 0, in, err, cap) ||
            ptx_dec_src(p, f, ri, 2, PT_U32, &in->b, err, cap))
            return -1;
        if (src.addr_local_sym || in->addr_local_sym) return ptx_dec_fail(p, ri, err, cap, "a bulk copy of local memory");
        in->addr2_slot = src.addr_slot, in->off2 = src.off, in->addr2_base = src.addr_base;
        if (!store && mbar_operand(p, f, ri, 3, in, err, cap)) return -1;
        if (multicast && (ri->nops < 5 || ptx_dec_src(p, f, ri, 4, PT_U16, &in->e, err, cap))) return -1;
        in->nvec = (uint8_t)multicast;    /* nvec: 1 for a multicast (in->e its ctaMask) */
        in->fn = bulk_copy;
        return 0;
    }
    /* the tensor: .1d .. .5d, tile mode */
    unsigned dims = 0;
    for (unsigned k = 1; k <= TMAP_MAX_RANK; k++) {
        char d[4];
        snprintf(d, sizeof d, "%ud", k);
        if (ptx_has_mod(ri, d)) dims = k;
    }
    if (!dims) return ptx_dec_fail(p, ri, err, cap, "a tensor copy needs .1d to .5d");
    unsigned kt = store ? 0 : 1;                  /* the [tmap, {coords}] operand */
    if (ri->nops < (store ? 2u : 3u)) return ptx_dec_fail(p, ri, err, cap, "needs %u operands", store ? 2 : 3);
    const raw_operand *o = &ri->ops[kt];
    if (o->kind != RO_ADDR || !o->vec) return ptx_dec_fail(p, ri, err, cap, "operand %u must be [tensorMap, {coordinates}]", kt + 1);
    if (o->nvec != dims) return ptx_dec_fail(p, ri, err, cap, "a .%ud tensor copy takes %u coordinates, not %u", dims, dims, o->nvec);
    pinst tm = *in;
    if (ptx_dec_addr(p, f, ri, kt, &tm, err, cap) || ptx_dec_addr(p, f, ri, store ? 1 : 0, in, err, cap)) return -1;
    in->addr2_slot = tm.addr_slot, in->off2 = tm.off, in->addr2_base = tm.addr_base;
    /* [param_name, ...]: the parameter itself, in parameter space */
    if (o->name && tm.addr_slot == UINT32_MAX)
        for (unsigned k = 0; k < f->src->nparams; k++)
            if (!strcmp(f->src->params[k].name, o->name)) in->sub2 = 1;
    raw_inst tmp = *ri;
    tmp.ops[0] = (raw_operand){.kind = RO_VEC, .nvec = o->nvec, .vec = o->vec};
    tmp.nops = 1;
    unsigned got;
    in->xs = f->nxslots;
    if (ptx_dec_xslots(p, f, &tmp, 0, 0, PT_S32, &got, err, cap)) return -1;
    in->nxs = got;
    if (!store && mbar_operand(p, f, ri, 2, in, err, cap)) return -1;
    if (multicast && (ri->nops < 4 || ptx_dec_src(p, f, ri, 3, PT_U16, &in->e, err, cap))) return -1;
    in->nvec = (uint8_t)multicast;
    in->fn = tensor_copy;
    return 0;
}

/* ---- clusters ---- */

/* mapa{.shared::cluster}.u32/.u64 d, a, rank: the address of A's byte in
 * the CTA of that rank (generic without .shared::cluster) */
HANDLER(mapa)
{
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a), *R = SLOT(w, in->b);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t r = R[l] & 0xffffffffu, a = A[l];
        if (r >= x->ncta)
            return ptx_fail(x, in, "mapa to the CTA of rank %llu; the cluster has %u (lane %d, warp %u)",
                            (unsigned long long)r, x->ncta, l, w->index);
        if (in->space == SP_GENERIC) {
            if (a - GEN_SHARED >= GEN_WINDOW)
                return ptx_fail(x, in, "mapa of 0x%llx, which is not a shared-memory address (lane %d, warp %u)",
                                (unsigned long long)a, l, w->index);
            D[l] = GEN_SHARED + in_cta(a - GEN_SHARED, (int)r);
        } else {
            D[l] = in_cta(a, (int)r) & (in->type == PT_U32 ? 0xffffffffull : ~0ull);
        }
    }
    return 0;
}

/* getctarank{.shared::cluster}.u32 d, a: the rank of the CTA whose shared
 * memory A is in (generic without .shared::cluster) */
HANDLER(getctarank)
{
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t a = A[l];
        if (in->space == SP_GENERIC) {
            if (a - GEN_SHARED >= GEN_WINDOW)
                return ptx_fail(x, in, "getctarank of 0x%llx, which is not a shared-memory address (lane %d, warp %u)",
                                (unsigned long long)a, l, w->index);
            a -= GEN_SHARED;
        }
        D[l] = a >> CL_SHIFT ? (a >> CL_SHIFT) - 1 : x->cur;
    }
    return 0;
}

/* barrier.cluster.arrive{.release|.relaxed}{.aligned} (frontend/cluster.h) */
HANDLER(cluster_arrive)
{
    if (cluster_bar_arrive(&x->cl, &w->cl_arrived, (unsigned)__builtin_popcount(m), ptx_cluster_live(x)) != 0)
        return ptx_fail(x, in, "barrier.cluster.arrive again before its barrier.cluster.wait (warp %u)", w->index);
    return 0;
}

/* barrier.cluster.wait{.acquire}{.aligned}: 1 (the warp sleeps) until the
 * phase its arrive joined completes */
HANDLER(cluster_wait)
{
    (void)in, (void)m;
    return cluster_bar_wait(&x->cl, &w->cl_arrived, ptx_cluster_live(x));
}

DECODE(dec_mapa)
{
    in->kind = K_OP;
    ptype t = ptx_mod_type(ri, 0);
    in->type = (uint8_t)t;
    in->space = (uint8_t)(ptx_has_mod(ri, "shared::cluster") ? SP_SHARED : SP_GENERIC);
    if (ri->nops != 3) return ptx_dec_fail(p, ri, err, cap, "needs 3 operands (d, a, rank)");
    if (t != PT_U32 && t != PT_U64) return ptx_dec_fail(p, ri, err, cap, "mapa takes .u32 or .u64");
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap) ||
        ptx_dec_src(p, f, ri, 2, PT_U32, &in->b, err, cap))
        return -1;
    in->fn = mapa;
    return 0;
}

DECODE(dec_getctarank)
{
    in->kind = K_OP;
    in->space = (uint8_t)(ptx_has_mod(ri, "shared::cluster") ? SP_SHARED : SP_GENERIC);
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands (d, a)");
    if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, PT_U64, &in->a, err, cap)) return -1;
    in->fn = getctarank;
    return 0;
}

DECODE(dec_barrier)
{
    (void)p, (void)f, (void)err, (void)cap;
    in->kind = K_OP;
    if (!ptx_has_mod(ri, "cluster")) return 0;
    if (ptx_has_mod(ri, "arrive")) {
        in->fn = cluster_arrive;
    } else if (ptx_has_mod(ri, "wait")) {
        in->kind = K_WAIT;
        in->fn = cluster_wait;
    }
    return 0;
}

DECODE(dec_setmaxnreg)
{
    (void)f;
    in->kind = K_OP;
    if (ri->nops != 1 || ri->ops[0].kind != RO_IMM)
        return ptx_dec_fail(p, ri, err, cap, "setmaxnreg needs a constant register count");
    uint64_t n = ri->ops[0].imm;
    if (n < 24 || n > 256 || n % 8) return ptx_dec_fail(p, ri, err, cap, "setmaxnreg's count must be a multiple of 8 from 24 to 256");
    in->fn = async_nop;
    return 0;
}

const pop_entry ptx_ops_async[] = {
    {"mbarrier", dec_mbarrier}, {"setmaxnreg", dec_setmaxnreg}, {"mapa", dec_mapa}, {"getctarank", dec_getctarank},
    {"barrier", dec_barrier},
    {NULL, NULL},
};
