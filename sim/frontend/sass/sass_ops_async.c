/* Hopper's asynchronous path on the SASS interpreter: mbarriers (SYNCS),
 * tensor and bulk copies (UTMALDG, UTMASTG, UBLKCP), warpgroup MMAs
 * (HGMMA, IGMMA, QGMMA with WARPGROUP.ARRIVE / DEPBAR) and the warp
 * specialisation around them (ELECT, USETMAXREG).  The objects and the
 * arithmetic are the PTX interpreter's (frontend/mbar.h, tmabox.h,
 * gmma.h); what is here is how SASS names them, read from the H100's
 * listings of gpu/hopper/hopper.cu (gpu/results/h100/hopper/sass.txt)
 * against their PTX:
 *
 *   SYNCS.EXCH.64 URZ, [a], URv       mbarrier.init: URv:URv+1 is the GPU's initial word
 *                                     ((2^20 - count) << 1, << 11: frontend/mbar.h)
 *   SYNCS.ARRIVE.TRANS64 Rd, [a], Rb  arrive.expect_tx b (one arrival, b bytes expected); Rd:Rd+1 the state,
 *                                     the phase arrived in at bit 31 of Rd+1 (what TRYWAIT takes);
 *                  .A1T0              a plain arrive (Rb is RZ);
 *                  .A0TX              complete_tx b (no arrival);
 *                  .ART0              Rb arrivals at once (mbarrier.arrive's count), no bytes;
 *                  .RED               the same with no state returned (Rd is RZ)
 *   SYNCS.PHASECHK.TRANS64.TRYWAIT Pd, [a], Rb   try_wait.parity: bit 31 of Rb is the parity
 *   UTMALDG.nD [URs], [URm]           URs: shared destination, URs+1 the mbarrier, URs+2.. the
 *                                     coordinates; URm:URm+1 the tensor map's generic address
 *   UTMALDG.nD.MULTICAST [URs], [URm], URc   the same into each CTA of the cluster whose bit
 *                                     of URc >> 16 is set (ctaMask), at the same offset
 *   UTMASTG.nD [URs], [URm]           URs: shared source, URs+1.. the coordinates
 *   UBLKCP.S.G [URs], [URg], URn      global URg:URg+1 to shared URs (URs+1 the mbarrier),
 *                                     (URn & 0xffff) x 16 bytes
 *   UBLKCP.G.S [URg], [URs], URn      shared URs to global URg:URg+1
 *   HGMMA.64xNxK.ACC[.TYPE] Rd, [Ra,] gdesc[URx][.tnspA][.tnspB], Rc[, UPp][, gsb0]
 *                                     wgmma.mma_async: A's descriptor URx:URx+1 (or A in
 *                                     Ra..Ra+3), B's URx+2:URx+3; D in Rd.. (gmma.h's order);
 *                                     UPp the scale-d predicate (none: 1); gsb0 closes its
 *                                     group, WARPGROUP.DEPBAR.LE gsb0, N waits for it
 *   ELECT Pd, URd, Pm                 one lane (the lowest) of those with Pm: Pd there, URd its lane
 *
 * Shared addresses are shared::cluster ones (the CTA's rank in the cluster
 * in bits 24 and up: ULEA UR, SR_CgaCtaId, off, 0x18); with no clusters
 * that rank is 0.  A __grid_constant__ tensor map is read through the
 * generic address c[0x0][0x198] gives the parameters (SASS_GEN_CBANK0).
 *
 * As on the PTX interpreter, a copy happens when the instruction runs and
 * completes its bytes on its mbarrier at once; a warp whose TRYWAIT finds
 * the phase not complete sleeps until other warps have moved (and if none
 * can, the block is deadlocked: an error naming what each warp waits for);
 * a warpgroup's HGMMA is computed when its fourth warp arrives.  TRYWAIT
 * that waited returns true, so a kernel's retry loop after it runs no
 * iteration (on the GPU it may run a few). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/gmma.h"
#include "frontend/mbar.h"
#include "frontend/tmabox.h"
#include "frontend/tmamerge.h"
#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)

/* in->sub for SYNCS.ARRIVE: the arrivals and what Rb's bytes do */
enum { AR_EXPECT, AR_PLAIN, AR_COMPLETE, AR_COUNT };
/* in->sub2 for HGMMA */
#define GM_REG_A 1
#define GM_SCALE_PRED 2      /* the scale-d predicate is an operand (in->sub3: its index) */
#define GM_GSB 4             /* gsb0: closes its group */
#define GM_SAT 8

/* ---- shared memory and the mbarriers ---- */

/* Shared::cluster address A for N bytes of warp W: *P, in the shared
 * memory of the CTA whose rank bits 24 and up give.  0, or -1 with the
 * GPU's error (no such CTA; outside the block's shared memory). */
static int shared_at(sctx *x, swarp *w, const sinst *in, uint64_t a, uint64_t n, unsigned char **p)
{
    a &= 0xffffffffu;
    uint64_t r = a >> SASS_CL_SHIFT, off = a & ((1u << SASS_CL_SHIFT) - 1);
    if (r >= x->ncta)
        return sass_fail(x, in, "shared address 0x%llx is in the CTA of rank %llu of a cluster of %u (warp %u)",
                         (unsigned long long)a, (unsigned long long)r, x->ncta, w->index);
    if (off < x->prog->smem_reserved || off >= x->smem_bytes || x->smem_bytes - off < n)
        return sass_fail(x, in, "shared bytes [0x%llx, 0x%llx) are outside the block's shared memory [0x%llx, 0x%llx) "
                         "(warp %u)", (unsigned long long)off, (unsigned long long)(off + n),
                         (unsigned long long)x->prog->smem_reserved, (unsigned long long)x->smem_bytes, w->index);
    *p = x->cta[r].smem + off;
    return 0;
}

/* The mbarrier at shared address A: *P its bytes, *B the object (made: an
 * error if not). */
static int mb_at(sctx *x, swarp *w, const sinst *in, uint64_t a, unsigned char **p, mbar *b)
{
    if (a % 8)
        return sass_fail(x, in, "misaligned mbarrier address 0x%llx (8-byte aligned; warp %u)", (unsigned long long)a,
                         w->index);
    if (shared_at(x, w, in, a, 8, p) != 0) return -1;
    *b = mb_get(*p);
    if (!b->made)
        return sass_fail(x, in, "the mbarrier at shared 0x%llx is used before it was initialised (warp %u)",
                         (unsigned long long)(a & 0xffffff), w->index);
    return 0;
}

/* The mbarrier at shared A has something in at packed time T (the time model's). */
static void sb_mark(sctx *x, uint64_t a, uint64_t t)
{
    if (x->sb_on) mbar_times_mark(&x->sb_mbar, a & 0xffffff, t);
}

static uint64_t sb_ready(const sctx *x, uint64_t a) { return mbar_times_ready(&x->sb_mbar, a & 0xffffff); }

/* BYTES of the mbarrier at A's transaction count are in at READY. */
static int mb_complete(sctx *x, swarp *w, const sinst *in, uint64_t a, uint64_t bytes, uint64_t ready)
{
    unsigned char *p;
    mbar b;
    if (mb_at(x, w, in, a, &p, &b) != 0) return -1;
    sb_mark(x, a, ready);
    b.tx -= (int64_t)bytes;
    if (b.tx < -MB_MAX_TX)
        return sass_fail(x, in, "the mbarrier at shared 0x%llx has more bytes completed than it can count (warp %u)",
                         (unsigned long long)(a & 0xffffff), w->index);
    mb_settle(&b);
    mb_put(p, &b);
    return 0;
}

/* The first lane of M (the uniform datapath's instructions run once a warp; their errors name
 * that lane, and a copy's, which no lane owns, lane 0). */
static int lead(uint32_t m) { return __builtin_ctz(m); }

/* SYNCS.EXCH.64 URZ, [a], URv: mbarrier.init */
HANDLER(mb_init)
{
    uint64_t a = sass_lane_addr(w, &in->o[1], lead(m)) & 0xffffffffu;
    unsigned v = in->o[2].reg;
    uint64_t word = v == SASS_URZ ? 0 : (uint64_t)w->ur[v] | (uint64_t)w->ur[v + 1] << 32;
    unsigned count = mbar_from_init(word);
    if (!count)
        return sass_fail(x, in, "SYNCS.EXCH.64 of 0x%016llx, which is not an mbarrier's initial word (coalsim reads "
                         "SYNCS.EXCH.64 as mbarrier.init only; warp %u)", (unsigned long long)word, w->index);
    if (a % 8)
        return sass_fail(x, in, "misaligned mbarrier address 0x%llx (8-byte aligned; warp %u)", (unsigned long long)a,
                         w->index);
    unsigned char *p;
    if (shared_at(x, w, in, a, 8, &p) != 0) return -1;
    mbar b = {.pending = count, .count = count, .made = 1};
    mb_put(p, &b);
    return 0;
}

/* Lane L's mbarrier, IN's operand 1: *A its shared address, *P its bytes, *B the object. */
static int lane_mb(sctx *x, swarp *w, const sinst *in, int l, uint64_t *a, unsigned char **p, mbar *b)
{
    *a = sass_lane_addr(w, &in->o[1], l) & 0xffffffffu;
    return mb_at(x, w, in, *a, p, b);
}

/* SYNCS.ARRIVE.TRANS64{.RED}{.A1T0|.A0TX} Rd, [a], Rb: a lane at a time, in lane order */
HANDLER(mb_arrive)
{
    uint32_t tmp[32];
    const uint32_t *B = sass_src(x, w, &in->o[2], tmp);
    unsigned d = in->o[0].reg;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t a;
        unsigned char *p;
        mbar b;
        if (lane_mb(x, w, in, l, &a, &p, &b) != 0) return -1;
        uint64_t v = B[l];
        if (in->sub == AR_COUNT && (v == 0 || v > b.pending))
            return sass_fail(x, in, "an arrival of %llu on the mbarrier at shared 0x%llx, which waits for %u in this "
                             "phase (lane %d, warp %u)", (unsigned long long)v, (unsigned long long)a, b.pending, l,
                             w->index);
        if (in->sub != AR_PLAIN && in->sub != AR_COUNT && v > (uint64_t)MB_MAX_TX)
            return sass_fail(x, in, "a transaction count of %llu bytes (at most 2^20-1; lane %d, warp %u)",
                             (unsigned long long)v, l, w->index);
        if (in->sub == AR_EXPECT) b.tx += (int64_t)v;
        if (in->sub == AR_COMPLETE) b.tx -= (int64_t)v;
        if (b.tx > MB_MAX_TX || b.tx < -MB_MAX_TX)
            return sass_fail(x, in, "the mbarrier at shared 0x%llx expects more bytes than it can count (lane %d, warp %u)",
                             (unsigned long long)a, l, w->index);
        if (in->sub != AR_COMPLETE) {
            if (b.pending == 0)
                return sass_fail(x, in, "an arrival on the mbarrier at shared 0x%llx, which waits for none in this phase "
                                 "(lane %d, warp %u)", (unsigned long long)a, l, w->index);
            /* the state, a register pair: the phase it arrived in at bit 31 of the high word (where
             * TRYWAIT reads a parity: libcu++'s cuda::barrier waits on it), and in the low word the
             * PTX interpreter's (phase, and the arrivals the phase waited for) */
            if (d != SASS_RZ) {
                w->r[d][l] = b.phase | (uint32_t)b.pending << 1;
                if (d + 1 < SASS_RZ) w->r[d + 1][l] = (uint32_t)b.phase << 31;
            }
            b.pending -= in->sub == AR_COUNT ? (unsigned)v : 1;
            sb_mark(x, a, x->sb_now);
        }
        mb_settle(&b);
        mb_put(p, &b);
    }
    return 0;
}

/* SYNCS.PHASECHK.TRANS64.TRYWAIT Pd, [a], Rb: 1 (the warp sleeps) until the
 * phase of parity bit 31 of Rb has completed for every lane; then Pd */
HANDLER(mb_trywait)
{
    uint32_t tmp[32];
    const uint32_t *B = sass_src(x, w, &in->o[2], tmp);
    uint32_t done = 0;
    uint64_t ready = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t a;
        unsigned char *p;
        mbar b;
        if (lane_mb(x, w, in, l, &a, &p, &b) != 0) return -1;
        if (b.phase != B[l] >> 31) done |= 1u << l;
        uint64_t r = sb_ready(x, a);
        if (r > ready) ready = r;
    }
    if (done != m) return 1;
    sass_set_pred(w, in->o[0].reg, done, m);
    /* it issues when what completed the phase is in */
    if (x->sb_on && ready > w->sb_t) w->sb_t = ready;
    return 0;
}

/* ---- the cluster's barrier ---- */

/* UCGABAR_ARV: barrier.cluster.arrive (frontend/cluster.h) */
HANDLER(cl_arrive)
{
    if (cluster_bar_arrive(&x->cl, &w->cl_arrived, (unsigned)__builtin_popcount(m), sass_cluster_live(x)) != 0)
        return sass_fail(x, in, "UCGABAR_ARV again before its UCGABAR_WAIT (warp %u of CTA rank %u)", w->index, w->cta);
    return 0;
}

/* UCGABAR_WAIT: barrier.cluster.wait; 1 (the warp sleeps) until the phase its arrive joined completes */
HANDLER(cl_wait)
{
    (void)in, (void)m;
    return cluster_bar_wait(&x->cl, &w->cl_arrived, sass_cluster_live(x));
}

void sass_wait_describe(sctx *x, swarp *w, const sinst *in, char *buf, size_t cap)
{
    if (in->fn == cl_wait) {
        snprintf(buf, cap, "the cluster's barrier (UCGABAR_WAIT: %llu of %llu threads arrived)",
                 (unsigned long long)x->cl.count, (unsigned long long)sass_cluster_live(x));
        return;
    }
    if (in->fn != mb_trywait) {
        snprintf(buf, cap, "the other warps of its warpgroup at %s", in->text);
        return;
    }
    uint32_t m = w->stack[w->sp - 1].mask;
    int l = m ? __builtin_ctz(m) : 0;
    uint64_t a = sass_lane_addr(w, &in->o[1], l) & 0xffffffffu;
    uint32_t tmp[32];
    unsigned parity = sass_src(x, w, &in->o[2], tmp)[l] >> 31;
    unsigned char *p;
    uint64_t r = a >> SASS_CL_SHIFT, off = a & ((1u << SASS_CL_SHIFT) - 1);
    if (r >= x->ncta || a % 8 || off < x->prog->smem_reserved || off + 8 > x->smem_bytes) {
        snprintf(buf, cap, "the mbarrier at shared 0x%llx", (unsigned long long)a);
        return;
    }
    p = x->cta[r].smem + off;
    mbar b = mb_get(p);
    snprintf(buf, cap, "the mbarrier at shared 0x%llx for the phase of parity %u to complete (it is in phase parity %u, "
             "waiting for %u of %u arrivals and %lld bytes)", (unsigned long long)a, parity, b.phase, b.pending, b.count,
             (long long)b.tx);
}

/* ---- copies ---- */

/* The requests of a copy's global side: 16-byte pieces, up to 32 a request. */
typedef struct bulk_q {
    sctx *x;
    swarp *w;
    const sinst *in;
    coalsim_request r;
    unsigned n;
} bulk_q;

static void q_start(bulk_q *q, sctx *x, swarp *w, const sinst *in, coalsim_op op)
{
    memset(&q->r, 0, sizeof q->r);
    q->x = x, q->w = w, q->in = in, q->n = 0;
    q->r.op = op;
    q->r.space = COALSIM_GLOBAL;
    q->r.size = 16;
}

static int q_flush(bulk_q *q)
{
    if (!q->n) return 0;
    q->r.active = q->n == 32 ? 0xffffffffu : (1u << q->n) - 1;
    q->n = 0;
    return sass_put(q->x, q->w, q->in, &q->r);
}

static int q_piece(void *c, uint64_t a)
{
    bulk_q *q = c;
    q->r.addr[q->n++] = a & ~15ull;
    return q->n == 32 ? q_flush(q) : 0;
}

static int q_global(void *c, uint64_t a, unsigned n, unsigned char **p, uint64_t *report)
{
    bulk_q *q = c;
    *report = a;
    return sass_global_at(q->x, q->w, q->in, a, n, 0, p);
}

/* When a tensor copy of BYTES warp W issues now is in: the producer's
 * copies move sb_tma_window bytes a round of sb_tma_round (the PTX
 * interpreter's rule, ptx_sched_tma_ready); without the keys a load's
 * latency. */
static uint64_t tma_ready(sctx *x, swarp *w, uint64_t bytes)
{
    if (!x->sb_on) return 0;
    if (!x->sb_tma_round) return x->sb_now + x->sb_load_lat;
    return tma_rounds_ready(&w->sb_tma, x->sb_now, bytes, x->sb_tma_round, x->sb_tma_window);
}

/* The 128-byte tensor map at generic address A: the parameters' window
 * (a __grid_constant__ map) or global memory. */
static int read_tmap(sctx *x, swarp *w, const sinst *in, uint64_t a, tmap *t)
{
    unsigned char bytes[TMAP_BYTES];
    if (a % 64)
        return sass_fail(x, in, "misaligned tensor map address 0x%llx (64-byte aligned; warp %u)", (unsigned long long)a,
                         w->index);
    const sprog *p = x->prog;
    if (a >= SASS_GEN_CBANK0 && a - SASS_GEN_CBANK0 + TMAP_BYTES <= p->bank_size[0]) {
        memcpy(bytes, p->bank[0] + (a - SASS_GEN_CBANK0), TMAP_BYTES);
    } else {
        for (unsigned k = 0; k < TMAP_BYTES; k += 16) {
            unsigned char *g;
            if (sass_global_at(x, w, in, a + k, 16, 0, &g) != 0) return -1;
            memcpy(bytes + k, g, 16);
        }
    }
    if (tmap_decode(bytes, t) != 0)
        return sass_fail(x, in, "the tensor map at 0x%llx was not made by cuTensorMapEncodeTiled (coalsim's driver) or "
                         "--args' tensor-map syntax (warp %u)", (unsigned long long)a, w->index);
    return 0;
}

static uint64_t ur64(const swarp *w, unsigned r) { return r == SASS_URZ ? 0 : (uint64_t)w->ur[r] | (uint64_t)w->ur[r + 1] << 32; }
static uint32_t ur32(const swarp *w, unsigned r) { return r == SASS_URZ ? 0 : w->ur[r]; }

/* UTMALDG.nD / UTMASTG.nD [URs], [URm]: once a warp (the uniform datapath);
 * in->sub 1 for the store, in->width the rank */
HANDLER(tma)
{
    (void)m;
    int store = in->sub;
    unsigned s = in->o[0].ureg, rank = in->width;
    tmap t;
    if (read_tmap(x, w, in, ur64(w, in->o[1].ureg), &t) != 0) return -1;
    if (t.rank != rank)
        return sass_fail(x, in, "a %uD tensor copy with a tensor map of rank %u (warp %u)", rank, t.rank, w->index);
    int64_t coord[TMAP_MAX_RANK];
    unsigned c0 = s + (store ? 1 : 2);
    for (unsigned d = 0; d < rank; d++) coord[d] = (int32_t)ur32(w, c0 + d);
    uint64_t sh = ur32(w, s), bytes = tmap_box_bytes(&t);
    if (sh % 128)
        return sass_fail(x, in, "misaligned shared address 0x%llx for a tensor copy (128-byte aligned; warp %u)",
                         (unsigned long long)sh, w->index);
    /* the CTAs it lands in: the address's, or with .MULTICAST those of the
     * mask (operand 2's high half), each at the same offset */
    uint64_t off = sh & ((1u << SASS_CL_SHIFT) - 1), mb = ur32(w, s + 1) & ((1u << SASS_CL_SHIFT) - 1);
    uint32_t mask = 1u << (sh >> SASS_CL_SHIFT & 31);
    int multicast = in->nops > 2;
    if (multicast) {
        mask = ur32(w, in->o[2].reg) >> 16;     /* ctaMask in the high half (0x30000: CTAs 0 and 1) */
        if (!mask || mask >> x->ncta)
            return sass_fail(x, in, "a multicast to CTAs 0x%04x of a cluster of %u (warp %u)", mask, x->ncta, w->index);
    }
    bulk_q q;
    q_start(&q, x, w, in, store ? COALSIM_BULK_ST : COALSIM_BULK_LD);
    /* a box another SM of its merge domain asked for as the same load is read from L2 once (tmamerge.h) */
    int shared_read = 0;
    if (!store) {
        if (!x->tma_merge) {
            if (!(x->tma_merge = malloc(sizeof *x->tma_merge))) return sass_fail(x, in, "out of memory");
            tma_merge_init(x->tma_merge);
        }
        shared_read = tma_merge_shared(x->tma_merge, x->block_id, x->cta[x->cur].tma_loads++,
                                       tma_merge_box(t.base, t.rank, coord, t.box));
    }
    uint64_t written = 0, ready = store ? 0 : tma_ready(x, w, bytes);
    unsigned nd = 0;
    for (unsigned r = 0; r < SASS_MAX_CLUSTER; r++) {
        if (!(mask >> r & 1)) continue;
        uint64_t at = (uint64_t)r << SASS_CL_SHIFT;
        unsigned char *sp;
        if (shared_at(x, w, in, at | off, t.swizzle ? (bytes + 127) & ~127ull : bytes, &sp) != 0) return -1;
        /* the global side is read once, however many CTAs receive it */
        tma_io io = {&q, q_global, shared_read || nd ? NULL : q_piece, NULL};
        if (tma_box(&t, coord, sp, (uint32_t)off, store, &io, &written) != 0) return -1;
        if (!store && mb_complete(x, w, in, at | mb, bytes, ready) != 0) return -1;
        nd++;
    }
    if (q_flush(&q) != 0) return -1;
    x->exec.bulk_copies++;
    if (store) x->exec.bulk_bytes_out += written;
    else x->exec.bulk_bytes_in += bytes * nd;    /* in each CTA that receives it (ncu, H100: gpu/results/h100/cluster) */
    if (multicast) x->exec.bulk_bytes_multicast += bytes * nd;
    return 0;
}

/* UBLKCP.S.G [URs], [URg], URn and UBLKCP.G.S [URg], [URs], URn: once a
 * warp; in->sub 1 for the store (shared to global) */
HANDLER(bulk)
{
    (void)m;
    int store = in->sub;
    unsigned so = store ? 1 : 0, go = store ? 0 : 1;
    uint32_t nw = ur32(w, in->o[2].reg);
    if (nw >> 16)
        return sass_fail(x, in, "a bulk copy size word 0x%x with bits above 16 set, which coalsim does not read (warp %u)",
                         nw, w->index);
    uint64_t n = (uint64_t)nw * 16, sh = ur32(w, in->o[so].ureg), gl = ur64(w, in->o[go].ureg);
    if (sh % 16 || gl % 16)
        return sass_fail(x, in, "a bulk copy of %llu bytes between shared 0x%llx and 0x%llx: addresses must be multiples "
                         "of 16 (misaligned address; warp %u)", (unsigned long long)n, (unsigned long long)sh,
                         (unsigned long long)gl, w->index);
    unsigned char *sp = NULL;
    if (n && shared_at(x, w, in, sh, n, &sp) != 0) return -1;
    bulk_q q;
    q_start(&q, x, w, in, store ? COALSIM_BULK_ST : COALSIM_BULK_LD);
    for (uint64_t o = 0; o < n; o += 16) {
        unsigned char *gp;
        if (sass_global_at(x, w, in, gl + o, 16, 0, &gp) != 0) return -1;
        if (store) memcpy(gp, sp + o, 16);
        else memcpy(sp + o, gp, 16);
        if (q_piece(&q, gl + o) != 0) return -1;
    }
    if (q_flush(&q) != 0) return -1;
    if (!store && mb_complete(x, w, in, ur32(w, in->o[0].ureg + 1), n, x->sb_on ? x->sb_now + x->sb_load_lat : 0) != 0)
        return -1;
    x->exec.bulk_copies++;
    if (store) x->exec.bulk_bytes_out += n ? ((gl + n + 31) / 32 - gl / 32) * 32 : 0;
    else x->exec.bulk_bytes_in += n;
    return 0;
}

/* ---- warpgroup MMA ---- */

/* Warp O's 16 rows of IN's product. */
static int gmma_warp(sctx *x, swarp *o, const sinst *in)
{
    gmma_inst g = {.ta = (gmma_type)(in->sub & 15), .tb = (gmma_type)(in->sub >> 4), .acc = (gmma_acc)in->sub3,
                   .n = in->width * 8u, .reg_a = (in->sub2 & GM_REG_A) != 0, .sat = (in->sub2 & GM_SAT) != 0,
                   .scale_d = 1};
    unsigned k = g.reg_a ? 2 : 1;          /* the descriptor operand */
    g.trans_a = (in->o[k].tnsp & 1) != 0, g.trans_b = (in->o[k].tnsp & 2) != 0;
    if (in->sub2 & GM_SCALE_PRED) {
        const sopnd *po = &in->o[in->nops - ((in->sub2 & GM_GSB) ? 2 : 1)];
        int v = po->reg == SASS_PT ? 1 : o->up[po->reg] != 0;
        g.scale_d = po->not_ ? !v : v;
    }
    unsigned u = in->o[k].reg;
    if (!g.reg_a) g.da = ur64(o, u);
    g.db = ur64(o, u + 2);
    const char *why = (!g.reg_a ? gmma_desc_check(g.da) : NULL);
    if (!why) why = gmma_desc_check(g.db);
    if (why) return sass_fail(x, in, "%s (warp %u)", why, o->index);
    unsigned nd = gmma_dregs(g.acc, g.n), dr = in->o[0].reg, cr = in->o[k + 1].reg;
    static _Thread_local uint32_t areg[4][32], d[128][32];
    if (g.reg_a)
        for (unsigned r = 0; r < 4; r++) memcpy(areg[r], o->r[in->o[1].reg + r], sizeof areg[r]);
    for (unsigned i = 0; i < nd; i++)      /* Rc = RZ: a zero accumulator (with !UPT, whose D = A B) */
        if (cr == SASS_RZ) memset(d[i], 0, sizeof d[i]);
        else memcpy(d[i], o->r[cr + i], sizeof d[i]);
    uint32_t bad = 0;
    why = gmma_warp_rows(&g, o->index % 4, x->smem, x->smem_bytes, areg, d, &bad);
    if (why)
        return sass_fail(x, in, "%s: shared 0x%x, the block has %llu bytes (warp %u)", why, bad,
                         (unsigned long long)x->smem_bytes, o->index);
    for (unsigned i = 0; i < nd; i++) memcpy(o->r[dr + i], d[i], sizeof d[i]);
    return 0;
}

/* HGMMA, IGMMA, QGMMA: the warpgroup's four warps meet at it (the first
 * three sleep), and the last to come computes all four's rows at once from
 * shared memory as it is then (ptx_ops_wgmma.c says why).  1: wait. */
HANDLER(gmma)
{
    if (m != 0xffffffffu && m != w->alive)
        return sass_fail(x, in, "a warpgroup MMA with lanes of the warp off (mask 0x%08x; warp %u)", m, w->index);
    if (!w->gmma_done) {
        unsigned nwarps = (x->block[0] * x->block[1] * x->block[2] + 31) / 32, base = w->index / 4 * 4, nw = nwarps - base < 4 ? nwarps - base : 4;
        swarp *g = x->warps + (size_t)w->cta * nwarps + base;     /* its CTA's warps */
        for (unsigned j = 0; j < nw; j++) {
            swarp *o = &g[j];
            if (o == w || o->state == SW_DONE) continue;
            if (o->state != SW_WAIT || &x->prog->code[o->stack[o->sp - 1].pc] != in) return 1;
        }
        for (unsigned j = 0; j < nw; j++) {
            swarp *o = &g[j];
            if (o->state == SW_DONE) continue;
            if (gmma_warp(x, o, in) != 0) return -1;
            o->gmma_done = 1;
        }
    }
    w->gmma_done = 0;
    unsigned n = in->width * 8u;
    gmma_type t = (gmma_type)(in->sub & 15);
    unsigned k = gmma_k(t), eb = gmma_type_bytes(t);
    x->exec.inst_gmma++;
    /* a warpgroup reads its A (unless in registers) and B once: a quarter a warp (ncu, H100) */
    x->exec.gmma_smem_bytes += ((in->sub2 & GM_REG_A) ? 0 : 64u * k * eb / 4) + n * k * eb / 4;
    return 0;
}

/* ---- the rest ---- */

/* ELECT Pd, URd, Pm: the lowest lane of M with Pm */
HANDLER(elect)
{
    (void)x;
    uint32_t from = m & sass_pred(w, &in->o[2]);
    uint32_t one = from ? from & -from : 0;
    if (in->o[0].kind == SO_P && in->o[0].reg != SASS_PT) sass_set_pred(w, in->o[0].reg, one, m);
    if (in->o[1].kind == SO_UR && in->o[1].reg != SASS_URZ) w->ur[in->o[1].reg] = one ? (uint32_t)__builtin_ctz(one) : 0;
    return 0;
}

/* USETMAXREG.TRY_ALLOC UPd, n: registers are not modelled a warp, so the
 * allocation succeeds */
HANDLER(setmaxreg)
{
    (void)x, (void)m;
    if (in->o[0].kind == SO_UP && in->o[0].reg != SASS_PT) w->up[in->o[0].reg] = 1;
    return 0;
}

HANDLER(async_nop)
{
    (void)x, (void)w, (void)in, (void)m;
    return 0;
}

/* ---- decoding ---- */

static int ops_are(const sprog *p, const sraw *ri, const char *kinds, char *err, size_t cap)
{
    /* kinds: one letter an operand: R register, U uniform register, P predicate, M memory, I immediate,
     * Q uniform predicate */
    size_t n = strlen(kinds);
    int ok = ri->nops == n;
    for (unsigned k = 0; ok && k < n; k++) {
        int kd = ri->ops[k].kind;
        ok = (kinds[k] == 'R' && kd == SO_R) || (kinds[k] == 'U' && kd == SO_UR) || (kinds[k] == 'P' && kd == SO_P) ||
             (kinds[k] == 'M' && kd == SO_MEM) || (kinds[k] == 'I' && kd == SO_IMM) || (kinds[k] == 'Q' && kd == SO_UP);
    }
    if (!ok) return sass_dec_fail(p, ri, err, cap, "operands not of the form coalsim knows for %s", ri->op);
    return 0;
}

/* a memory operand of uniform registers only: [URn] */
static int uniform_mem(const sprog *p, const sraw *ri, unsigned k, char *err, size_t cap)
{
    const sopnd *o = &ri->ops[k];
    if (o->kind != SO_MEM || o->reg != SASS_RZ || o->ureg == SASS_URZ || o->off)
        return sass_dec_fail(p, ri, err, cap, "operand %u must be [URn]", k + 1);
    return 0;
}

DECODE(dec_syncs)
{
    in->kind = SK_OP;
    if (sass_has_mod(ri, "EXCH")) {
        if (!sass_has_mod(ri, "64") || ops_are(p, ri, "UMU", err, cap)) return -1;
        if (ri->ops[0].reg != SASS_URZ)
            return sass_dec_fail(p, ri, err, cap, "SYNCS.EXCH.64 that reads back the mbarrier's word is not supported");
        in->fn = mb_init;
        return 0;
    }
    if (sass_has_mod(ri, "ARRIVE")) {
        if (!sass_has_mod(ri, "TRANS64") || ops_are(p, ri, "RMR", err, cap)) return -1;
        in->sub = sass_has_mod(ri, "A1T0")   ? AR_PLAIN
                  : sass_has_mod(ri, "A0TX") ? AR_COMPLETE
                  : sass_has_mod(ri, "ART0") ? AR_COUNT
                                             : AR_EXPECT;
        in->fn = mb_arrive;
        return 0;
    }
    if (sass_has_mod(ri, "PHASECHK")) {
        if (!sass_has_mod(ri, "TRYWAIT") || ops_are(p, ri, "PMR", err, cap)) return -1;
        in->kind = SK_WAIT;
        in->fn = mb_trywait;
        return 0;
    }
    return sass_dec_fail(p, ri, err, cap, "this SYNCS form is not supported by coalsim's interpreter");
}

DECODE(dec_utma)
{
    int store = !strncmp(ri->op, "UTMASTG", 7);
    int multicast = sass_has_mod(ri, "MULTICAST");
    if (multicast && store) return sass_dec_fail(p, ri, err, cap, "a tensor store has no multicast");
    if (sass_has_mod(ri, "IM2COL")) return sass_dec_fail(p, ri, err, cap, "im2col tensor copies are not supported");
    unsigned rank = 0;
    for (unsigned d = 1; d <= TMAP_MAX_RANK; d++) {
        char m[4];
        snprintf(m, sizeof m, "%uD", d);
        if (sass_has_mod(ri, m)) rank = d;
    }
    if (!rank) return sass_dec_fail(p, ri, err, cap, "a tensor copy needs its rank (.1D .. .5D)");
    if (ri->nops != 2 + (unsigned)multicast || uniform_mem(p, ri, 0, err, cap) || uniform_mem(p, ri, 1, err, cap))
        return -1;
    if (multicast && ri->ops[2].kind != SO_UR)
        return sass_dec_fail(p, ri, err, cap, "a multicast tensor copy's CTA mask must be a uniform register");
    in->kind = SK_MEM;
    in->cs_space = COALSIM_GLOBAL;
    in->cs_op = store ? COALSIM_BULK_ST : COALSIM_BULK_LD;
    in->sub = (uint8_t)store;
    in->width = (uint8_t)rank;
    in->fn = tma;
    return 0;
}

DECODE(dec_ublkcp)
{
    int store = sass_has_mod(ri, "G") && !strncmp(ri->op, "UBLKCP.G.S", 10);
    if (!store && strncmp(ri->op, "UBLKCP.S.G", 10))
        return sass_dec_fail(p, ri, err, cap, "this bulk copy direction is not supported (UBLKCP.S.G and .G.S are)");
    if (ri->nops != 3 || uniform_mem(p, ri, 0, err, cap) || uniform_mem(p, ri, 1, err, cap) || ri->ops[2].kind != SO_UR)
        return sass_dec_fail(p, ri, err, cap, "operands not of the form [URa], [URb], URn");
    in->kind = SK_MEM;
    in->cs_space = COALSIM_GLOBAL;
    in->cs_op = store ? COALSIM_BULK_ST : COALSIM_BULK_LD;
    in->sub = (uint8_t)store;
    in->fn = bulk;
    return 0;
}

/* HGMMA.64xNxK.ACC{.TYPE}, IGMMA.64xNxK.ATYPE.BTYPE{.SAT}, QGMMA.64xNxK.ACC.ATYPE.BTYPE */
DECODE(dec_gmma)
{
    char ops[64];
    snprintf(ops, sizeof ops, "%s", ri->op);
    char *mods[8];
    unsigned nm = 0;
    for (char *s = strchr(ops, '.'); s && nm < 8; s = strchr(s + 1, '.')) {
        *s = '\0';
        mods[nm++] = s + 1;
    }
    unsigned M = 0, N = 0, K = 0;
    if (nm < 2 || sscanf(mods[0], "%ux%ux%u", &M, &N, &K) != 3 || M != 64 || N < 8 || N > 256 || N % 8)
        return sass_dec_fail(p, ri, err, cap, "a warpgroup MMA's shape must be 64xNxK, N 8..256 a multiple of 8");
    static const char *const tn[GMMA_TYPES] = {"F16", "BF16", "TF32", "E4M3", "E5M2", "S8", "U8"};
    gmma_type ta = GMMA_F16, tb = GMMA_F16;
    gmma_acc acc = GMMA_ACC_F32;
    int sat = 0, ntype = 0;
    gmma_type ty[2] = {GMMA_F16, GMMA_F16};
    for (unsigned i = 1; i < nm; i++) {
        int found = -1;
        for (int t = 0; t < GMMA_TYPES; t++)
            if (!strcmp(mods[i], tn[t])) found = t;
        if (!strcmp(mods[i], "SAT")) sat = 1;
        else if (ops[0] != 'I' && i == 1 && (!strcmp(mods[i], "F32") || !strcmp(mods[i], "F16")))
            acc = mods[i][1] == '3' ? GMMA_ACC_F32 : GMMA_ACC_F16;
        else if (found >= 0 && ntype < 2) ty[ntype++] = (gmma_type)found;
        else return sass_dec_fail(p, ri, err, cap, "the modifier .%s of %s is not supported", mods[i], ops);
    }
    if (ops[0] == 'H') {
        if (ntype > 1) return sass_dec_fail(p, ri, err, cap, "HGMMA takes one input type");
        ta = tb = ntype ? ty[0] : GMMA_F16;
        if (ta != GMMA_F16 && ta != GMMA_BF16 && ta != GMMA_TF32)
            return sass_dec_fail(p, ri, err, cap, "HGMMA's inputs are F16, BF16 or TF32");
    } else {
        if (ntype != 2) return sass_dec_fail(p, ri, err, cap, "%s needs A's and B's types", ops);
        ta = ty[0], tb = ty[1];
        int eight = ops[0] == 'I' ? (ta == GMMA_S8 || ta == GMMA_U8) && (tb == GMMA_S8 || tb == GMMA_U8)
                                  : (ta == GMMA_E4M3 || ta == GMMA_E5M2) && (tb == GMMA_E4M3 || tb == GMMA_E5M2);
        if (!eight) return sass_dec_fail(p, ri, err, cap, "%s's types do not match it", ops);
        if (ops[0] == 'I') acc = GMMA_ACC_S32;
    }
    if (K != gmma_k(ta)) return sass_dec_fail(p, ri, err, cap, "K of %u does not match the input type (K %u)", K, gmma_k(ta));
    if (sat && ops[0] != 'I') return sass_dec_fail(p, ri, err, cap, ".SAT is for IGMMA");
    /* operands: Rd, [Ra,] gdesc[URx], Rc [, UPp] [, gsb0] */
    unsigned k = 1;
    int reg_a = ri->nops > 1 && ri->ops[1].kind == SO_R;
    if (reg_a) k = 2;
    if (ri->ops[0].kind != SO_R || ri->nops <= k + 1 || ri->ops[k].kind != SO_GDESC || ri->ops[k + 1].kind != SO_R)
        return sass_dec_fail(p, ri, err, cap, "operands not of the form Rd, [Ra,] gdesc[URx], Rc");
    if (reg_a && (ri->ops[k].tnsp & 1)) return sass_dec_fail(p, ri, err, cap, "A in registers cannot be transposed");
    if ((ri->ops[k].tnsp) && gmma_type_bytes(ta) != 2)
        return sass_dec_fail(p, ri, err, cap, "only 16-bit operands may be MN-major");
    in->sub2 = 0;
    for (unsigned j = k + 2; j < ri->nops; j++) {
        if (ri->ops[j].kind == SO_UP && !(in->sub2 & GM_SCALE_PRED) && !(in->sub2 & GM_GSB)) in->sub2 |= GM_SCALE_PRED;
        else if (ri->ops[j].kind == SO_GSB && j == ri->nops - 1) in->sub2 |= GM_GSB;
        else return sass_dec_fail(p, ri, err, cap, "operand %u is not a scale-d predicate or gsb0", j + 1);
    }
    unsigned nd = gmma_dregs(acc, N);
    if (ri->ops[0].reg + nd > SASS_RZ || (ri->ops[k + 1].reg != SASS_RZ && ri->ops[k + 1].reg + nd > SASS_RZ) ||
        (reg_a && ri->ops[1].reg + 4u > SASS_RZ))
        return sass_dec_fail(p, ri, err, cap, "the accumulator's registers run past R254");
    in->kind = SK_WAIT;
    in->fn = gmma;
    in->sub = (uint8_t)(ta | tb << 4);
    in->sub3 = (uint8_t)acc;
    in->sub2 |= (uint8_t)((reg_a ? GM_REG_A : 0) | (sat ? GM_SAT : 0));
    in->width = (uint8_t)(N / 8);
    in->rrun = (uint16_t)nd;
    return 0;
}

DECODE(dec_warpgroup)
{
    (void)err, (void)cap;
    in->kind = SK_OP;
    in->fn = async_nop;
    if (sass_has_mod(ri, "ARRIVE")) return 0;
    if (sass_has_mod(ri, "DEPBAR") && ri->nops == 2 && ri->ops[0].kind == SO_GSB && ri->ops[1].kind == SO_IMM) {
        in->sub = 1;
        return 0;
    }
    return sass_dec_fail(p, ri, err, cap, "this WARPGROUP form is not supported by coalsim's interpreter");
}

DECODE(dec_elect)
{
    if (ops_are(p, ri, "PUP", err, cap)) return -1;
    in->kind = SK_OP;
    in->fn = elect;
    return 0;
}

DECODE(dec_setmaxreg)
{
    in->kind = SK_OP;
    if (sass_has_mod(ri, "TRY_ALLOC")) {
        if (ops_are(p, ri, "QI", err, cap)) return -1;
        in->fn = setmaxreg;
        return 0;
    }
    if (sass_has_mod(ri, "DEALLOC") || sass_has_mod(ri, "RELEASE")) {
        in->fn = async_nop;
        return 0;
    }
    return sass_dec_fail(p, ri, err, cap, "this USETMAXREG form is not supported by coalsim's interpreter");
}

DECODE(dec_nop_async)
{
    (void)p, (void)ri, (void)err, (void)cap;
    in->kind = SK_OP;
    in->fn = async_nop;
    return 0;
}

/* UCGABAR_ARV, UCGABAR_WAIT: barrier.cluster's arrive and wait */
DECODE(dec_cluster)
{
    if (ri->nops) return sass_dec_fail(p, ri, err, cap, "takes no operands");
    int wait = !strncmp(ri->op, "UCGABAR_WAIT", 12);
    in->kind = wait ? SK_WAIT : SK_OP;
    in->fn = wait ? cl_wait : cl_arrive;
    return 0;
}

const sop_entry sass_ops_async[] = {
    {"SYNCS", dec_syncs}, {"UTMALDG", dec_utma}, {"UTMASTG", dec_utma}, {"UBLKCP", dec_ublkcp},
    {"HGMMA", dec_gmma}, {"IGMMA", dec_gmma}, {"QGMMA", dec_gmma}, {"WARPGROUP", dec_warpgroup},
    {"ELECT", dec_elect}, {"USETMAXREG", dec_setmaxreg}, {"UTMACMDFLUSH", dec_nop_async},
    {"CGAERRBAR", dec_nop_async},
    {"UCGABAR_ARV", dec_cluster}, {"UCGABAR_WAIT", dec_cluster},
    {NULL, NULL},
};
