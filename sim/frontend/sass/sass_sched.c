/* A SASS block's critical path when it runs alone on a SM (coalsim_exec's
 * path_* fields), from the registers its instructions really read and write:
 *
 *   a warp    issues in order: an instruction issues when its source
 *             registers and predicates are ready, and no sooner than one
 *             cycle after the warp's previous instruction; a stalled one
 *             holds back the ones after it (what the hardware does; the PTX
 *             side, ptx_sched.c, has to guess what ptxas reorders, here
 *             ptxas has already done it).  Its results are ready the
 *             latency of its class later (sass_pipe.c's class, the
 *             profile's lat_* cycles: coalsim_lat_cycles, as the PTX side).
 *             A global or local load's latency is COALSIM_PATH_LOAD_CYCLES
 *             and the loads on the path are counted apart; times are packed
 *             as cycle << 24 | loads so the latest operand brings its load
 *             count with it in one comparison (as ptx_sched.c does).
 *   a block   a barrier opens when its last warp arrives and the busiest
 *             sub-partition (warp w issues on w % 4, one instruction a
 *             cycle) has issued what its warps issued since the last one,
 *             plus lat_bar; the block's path is its last warp's or its
 *             busiest sub-partition's, whichever is later.
 *
 * Predicated-off instructions issue (they take their cycle and wait for
 * their operands: the scoreboard does not know the predicate) but write
 * nothing. */
#include <string.h>

#include "frontend/mma.h"
#include "sass.h"

#define LOADS_BITS 24
#define CYC(c) ((uint64_t)(c) << LOADS_BITS)
#define LOADS_MASK ((1ull << LOADS_BITS) - 1)

/* ---- decode: the slots an instruction reads and writes ---- */

static void add(uint16_t *list, uint8_t *n, unsigned cap, unsigned slot)
{
    for (unsigned k = 0; k < *n; k++)
        if (list[k] == slot) return;
    if (*n < cap) list[(*n)++] = (uint16_t)slot;
}

/* Operand O's slots (SPAN registers of a run from an R or UR) into the
 * sources or, with DST, the destinations. */
static void slots(sinst *in, const sopnd *o, unsigned span, int dst)
{
    uint16_t *l = dst ? in->sb_dst : in->sb_src;
    uint8_t *n = dst ? &in->sb_ndst : &in->sb_nsrc;
    unsigned cap = dst ? SASS_SB_DSTS : SASS_SB_SRCS;
    switch (o->kind) {
    case SO_R:
        if (o->reg == SASS_RZ) break;
        for (unsigned k = 0; k < span && o->reg + k < SASS_RZ; k++) add(l, n, cap, o->reg + k);
        break;
    case SO_UR:
        if (o->reg == SASS_URZ) break;
        for (unsigned k = 0; k < span && o->reg + k < SASS_URZ; k++) add(l, n, cap, SASS_SB_UR + o->reg + k);
        break;
    case SO_P:
        if (o->reg < SASS_PT) add(l, n, cap, SASS_SB_P + o->reg);
        break;
    case SO_UP:
        if (o->reg < SASS_PT) add(l, n, cap, SASS_SB_UP + o->reg);
        break;
    case SO_PR:
        for (unsigned p = 0; p < SASS_PT; p++) add(l, n, cap, SASS_SB_P + p);
        break;
    case SO_MEM:      /* [R2.64+UR4+off]: the address registers are read */
        if (o->reg != SASS_RZ)
            for (unsigned k = 0; k < (o->wide ? 2u : 1u) && o->reg + k < SASS_RZ; k++)
                add(in->sb_src, &in->sb_nsrc, SASS_SB_SRCS, o->reg + k);
        if (o->ureg != SASS_URZ) add(in->sb_src, &in->sb_nsrc, SASS_SB_SRCS, SASS_SB_UR + o->ureg);
        break;
    case SO_CBANK:    /* c[0x0][R2+off], c[0x0][UR4+off] */
        if (o->reg != SASS_RZ) add(in->sb_src, &in->sb_nsrc, SASS_SB_SRCS, o->reg);
        if (o->ureg != SASS_URZ) add(in->sb_src, &in->sb_nsrc, SASS_SB_SRCS, SASS_SB_UR + o->ureg);
        break;
    default: break;
    }
}

void sass_sched_decode(const sraw *ri, sinst *in)
{
    unsigned pipe;
    int lat;
    in->pipe_known = (uint8_t)sass_pipe_of(ri->op, &pipe, &lat);
    in->pipe = (uint8_t)pipe;
    in->lat = (int8_t)lat;
    in->sb_nsrc = in->sb_ndst = 0;
    int gmma = in->fn && (!strncmp(ri->op, "HGMMA", 5) || !strncmp(ri->op, "IGMMA", 5) || !strncmp(ri->op, "QGMMA", 5));
    in->async = !strncmp(ri->op, "LDGSTS", 6) ? SASS_ASYNC_COPY : !strncmp(ri->op, "LDGDEPBAR", 9) ? SASS_ASYNC_COMMIT
              : !strncmp(ri->op, "DEPBAR", 6) ? SASS_ASYNC_WAIT
              : gmma ? (ri->nops && ri->ops[ri->nops - 1].kind == SO_GSB ? SASS_ASYNC_GMMA_COMMIT : SASS_ASYNC_GMMA)
              : !strncmp(ri->op, "WARPGROUP.DEPBAR", 16) ? SASS_ASYNC_GMMA_WAIT : SASS_ASYNC_NONE;
    if (in->guard >= 0 && in->guard % 8 != SASS_PT)
        add(in->sb_src, &in->sb_nsrc, SASS_SB_SRCS, in->guard < 8 ? SASS_SB_P + in->guard : SASS_SB_UP + in->guard - 8);
    if (gmma) {
        /* a warpgroup MMA reads its descriptors (and A's registers); its
         * accumulators are its group's (WARPGROUP.DEPBAR waits for them),
         * so that the next HGMMA into them does not wait */
        for (unsigned k = 1; k < in->nops; k++) {
            const sopnd *o = &in->o[k];
            if (o->kind == SO_GDESC) {
                sopnd u = *o;
                u.kind = SO_UR;
                slots(in, &u, 4, 0);
            } else if (o->kind == SO_R && k == 1) {
                slots(in, o, 4, 0);
            } else if (o->kind == SO_UP) {
                slots(in, o, 1, 0);
            }
        }
        return;
    }
    /* what writes: operations, loads and atomics (not stores, reductions,
     * control) */
    int writes = in->kind == SK_OP || in->kind == SK_WAIT ||
                 (in->kind == SK_MEM && in->cs_op != COALSIM_ST && in->cs_op != COALSIM_RED);
    /* how many of the leading operands are results: the first; after a
     * predicate its second too (ISETP P0, PT; SHFL.IDX PT, R3; LOP3.LUT P0,
     * RZ; PLOP3 P0, PT); after a register the carry-out predicates (IADD3
     * R0, P0, P1; LEA R4, P0), one for VOTE (VOTE.ANY R0, PT, P1) */
    unsigned ndst = 0;
    if (writes && in->nops) {
        ndst = 1;
        const sopnd *o = in->o;
        if ((o[0].kind == SO_P || o[0].kind == SO_UP) && in->nops > 1 &&
            (o[1].kind == SO_P || o[1].kind == SO_UP || o[1].kind == SO_R))
            ndst = 2;
        else if ((o[0].kind == SO_R || o[0].kind == SO_UR))
            while (ndst < in->nops && ndst < 3 && (o[ndst].kind == SO_P || o[ndst].kind == SO_UP) &&
                   !(ndst == 2 && !strncmp(ri->op, "VOTE", 4)))
                ndst++;
    }
    /* register runs: a memory instruction's data (width bytes a lane), an
     * FP64 operation's operands, IMAD.WIDE's result and addend, a .64 or
     * .128 result, CS2R's pair */
    if (in->fn && (!strncmp(ri->op, "HMMA", 4) || !strncmp(ri->op, "IMMA", 4) || !strncmp(ri->op, "DMMA", 4))) {
        /* d, a, b, c: runs of registers (mma.h's words) */
        unsigned na, nb, nc;
        if (mma_words((mma_shape)in->sub, (mma_kind)in->sub2, (mma_acc)in->sub3, &na, &nb, &nc) == 0) {
            unsigned span[4] = {nc, na, nb, nc};
            for (unsigned k = 0; k < 4 && k < in->nops; k++) slots(in, &in->o[k], span[k], k == 0);
            return;
        }
    }
    if (in->fn && (!strncmp(ri->op, "LDSM", 4) || !strncmp(ri->op, "STSM", 4))) {
        int st = ri->op[0] == 'S';
        slots(in, &in->o[st ? 1 : 0], in->sub, !st);
        slots(in, &in->o[st ? 0 : 1], 1, 0);
        return;
    }
    if (!strncmp(ri->op, "LDGSTS", 6)) {
        for (unsigned k = 0; k < in->nops; k++) slots(in, &in->o[k], 1, 0);
        return;
    }
    int mem = in->kind == SK_MEM, fp64 = ri->op[0] == 'D' && strncmp(ri->op, "DEPBAR", 6) != 0 && strncmp(ri->op, "DMMA", 4) != 0;
    unsigned data = mem && in->width > 4 ? in->width / 4u : 1;
    unsigned res = sass_has_mod(ri, "128") ? 4 : sass_has_mod(ri, "64") || fp64 ? 2 : 1;
    if (!strncmp(ri->op, "IMAD.WIDE", 9) || (!strncmp(ri->op, "CS2R", 4) && !sass_has_mod(ri, "32"))) res = 2;
    if (mem) res = data;
    for (unsigned k = 0; k < in->nops; k++) {
        const sopnd *o = &in->o[k];
        unsigned span = 1;
        if (k < ndst) span = k == 0 ? res : 1;
        else if (mem) span = data;
        else if (fp64 || (k == 3 && !strncmp(ri->op, "IMAD.WIDE", 9))) span = 2;
        slots(in, o, span, k < ndst);
    }
}

/* ---- execute ---- */

int sass_sched_setup(sctx *x, const coalsim_profile *p, unsigned sms, uint64_t l1_bytes, unsigned held)
{
    x->sb_on = p != NULL;
    x->sb_stagger = p ? p->block_ns * p->sm_clock_mhz * 1e-3 : 0;
    uint64_t blocks = (uint64_t)x->grid[0] * x->grid[1] * x->grid[2];
    if (sm_port_init(&x->sb_smport, p, sms, blocks, l1_bytes, held) != 0) return -1;
    for (int i = 0; i < COALSIM_PIPES; i++) x->sb_pipe_rate[i] = p ? p->pipe_per_cycle[i] : 0;
    for (int l = 0; l < COALSIM_LATS; l++) x->sb_lat[l] = CYC((uint64_t)(coalsim_lat_cycles(p, (coalsim_lat)l) + 0.5));
    x->sb_load_lat = CYC(COALSIM_PATH_LOAD_CYCLES) + 1;
    x->sb_bar_lat = x->sb_lat[COALSIM_LAT_BAR];
    /* tensor copies in rounds, wgmma at the tensor clock (ptx_sched.c's keys) */
    x->sb_tma_round = 0, x->sb_tma_window = 0, x->sb_gmma_cycles = 1;
    if (p && p->tma_round_ns > 0 && p->tma_round_bytes >= 1) {
        x->sb_tma_round = CYC((uint64_t)(p->tma_round_ns * p->sm_clock_mhz * 1e-3 + 0.5));
        x->sb_tma_window = (uint64_t)p->tma_round_bytes;
    }
    if (p && p->tensor_clock_mhz > 0 && p->sm_clock_mhz > p->tensor_clock_mhz) x->sb_gmma_cycles = p->sm_clock_mhz / p->tensor_clock_mhz;
    return 0;
}

void sass_sched_block_start(sctx *x, unsigned nwarps)
{
    for (unsigned k = 0; k < nwarps; k++) {
        swarp *w = &x->warps[k];
        memset(w->sb_ready, 0, sizeof w->sb_ready);
        w->sb_t = w->sb_issued = 0;
        memset(w->sb_pipe, 0, sizeof w->sb_pipe);
        w->sb_async = (async_groups){0};
        w->sb_gmma = (async_groups){0};
        w->sb_tma = (tma_rounds){0};
    }
    x->sb_bar = 0;
    x->sb_mbar.n = 0;
    sm_port_block(&x->sb_smport);
}

/* When an LDG or LDGSTS issued at T with lanes M is in: a load's latency
 * after T plus the time its bytes wait for and take through the SM's port
 * from L2 (smport.h). */
static uint64_t port(sctx *x, swarp *w, const sinst *in, uint32_t m, uint64_t t)
{
    uint64_t ready = t + x->sb_load_lat;
    int ldgsts = in->cs_op == COALSIM_LDGSTS || in->cs_op == COALSIM_LDGSTS_BYPASS;
    if (in->kind != SK_MEM || in->cs_space != COALSIM_GLOBAL || !(in->cs_op == COALSIM_LD || ldgsts) ||
        !x->sb_smport.rate || !m)
        return ready;
    /* the global address: LDGSTS's second operand, a load's memory operand */
    const sopnd *ao = NULL;
    for (unsigned k = ldgsts ? 1 : 0; k < in->nops && !ao; k++)
        if (in->o[k].kind == SO_MEM) ao = &in->o[k];
    if (!ao) return ready;
    uint64_t a[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) a[__builtin_ctz(mm)] = sass_lane_addr(w, ao, __builtin_ctz(mm));
    unsigned bytes = sm_port_bytes(&x->sb_smport, a, m, in->width,
                                   in->cs_op == COALSIM_LDGSTS_BYPASS || (in->flags & SF_L2_ONLY));
    uint64_t c = t >> LOADS_BITS;
    return ready + CYC(sm_port_through(&x->sb_smport, c, bytes) - c);
}

/* An HGMMA (IGMMA, QGMMA) warp W issues at T: it holds its warp's
 * sub-partition tensor pipe N/2 cycles at the tensor clock, as many
 * HMMA.16816 as the profile's pipe does in them (its pipe class counted
 * one), on the launch's pipe term and on the block's path; its group is done
 * when its last one is (ptx_sched_tensor's rule for wgmma). */
static void gmma(sctx *x, swarp *w, const sinst *in, uint64_t t)
{
    double units = in->width * x->sb_pipe_rate[COALSIM_PIPE_TENSOR] * x->sb_gmma_cycles;   /* width: N / 8 */
    if (units > 1) x->exec.pipe_inst[COALSIM_PIPE_TENSOR] += units - 1;
    uint64_t v = t + x->sb_lat[COALSIM_LAT_MMA];
    if (x->sb_smport.tensor[0].room) {
        uint64_t r = CYC(sm_port_tensor(&x->sb_smport, 4 * w->cta + w->index % 4, t >> LOADS_BITS, units)) + (t & LOADS_MASK);
        if (r > v) v = r;
    }
    async_copy(&w->sb_gmma, v);
    if (in->async == SASS_ASYNC_GMMA_COMMIT) async_commit(&w->sb_gmma);
}

/* LDGSTS, LDGDEPBAR, DEPBAR.LE SB0, N at issue time *T (asyncgroups.h):
 * the copy arrives when a load would. */
static void async_step(sctx *x, swarp *w, const sinst *in, uint32_t m, uint64_t *t)
{
    switch (in->async) {
    case SASS_ASYNC_COPY: async_copy(&w->sb_async, port(x, w, in, m, *t)); break;
    case SASS_ASYNC_COMMIT: async_commit(&w->sb_async); break;
    case SASS_ASYNC_WAIT: {
        uint64_t n = in->nops && in->o[in->nops - 1].kind == SO_IMM ? in->o[in->nops - 1].imm : 0;
        uint64_t ready = async_wait(&w->sb_async, n);
        if (ready > *t) *t = ready;
        break;
    }
    case SASS_ASYNC_GMMA:
    case SASS_ASYNC_GMMA_COMMIT: gmma(x, w, in, *t); break;
    case SASS_ASYNC_GMMA_WAIT: {
        uint64_t n = in->nops && in->o[in->nops - 1].kind == SO_IMM ? in->o[in->nops - 1].imm : 0;
        uint64_t ready = async_wait(&w->sb_gmma, n);
        if (ready > *t) *t = ready;
        break;
    }
    default: break;
    }
}

void sass_sched_issue(sctx *x, swarp *w, const sinst *in, uint32_t m)
{
    uint64_t t = w->sb_t;
    for (unsigned k = 0; k < in->sb_nsrc; k++)
        if (w->sb_ready[in->sb_src[k]] > t) t = w->sb_ready[in->sb_src[k]];
    if (in->async) async_step(x, w, in, m, &t);
    w->sb_t = t + CYC(1);
    w->sb_issued++;
    if (in->pipe < COALSIM_PIPES) w->sb_pipe[in->pipe]++;
    x->sb_now = t;
    if (!m || !in->sb_ndst) return;
    uint64_t r = in->lat == SASS_LAT_LOAD ? port(x, w, in, m, t) : in->lat >= 0 ? t + x->sb_lat[in->lat] : t + CYC(1);
    if (in->pipe == COALSIM_PIPE_TENSOR && x->sb_smport.tensor[0].room) {
        /* the sub-partition's tensor pipe, behind the block's other warps (smport.h) */
        uint64_t v = CYC(sm_port_tensor(&x->sb_smport, 4 * w->cta + w->index % 4, t >> LOADS_BITS, 1.0)) + (t & LOADS_MASK);
        if (v > r) r = v;
    }
    for (unsigned k = 0; k < in->sb_ndst; k++) w->sb_ready[in->sb_dst[k]] = r;
}

int sass_sched_shared(sctx *x, const coalsim_request *r)
{
    if (!x->sb_on || !x->sb_smport.smem.room || !x->arch || !x->sink.put_modelled) return x->sink.put(x->sink.ctx, r);
    /* modelled once, for the calendar and the sink */
    coalsim_result res;
    coalsim_model(x->arch, r, &res);
    x->sb_smem_wf += res.wavefronts;
    return x->sink.put_modelled(x->sink.ctx, r, &res);
}

void sass_sched_smem(sctx *x, swarp *w, const sinst *in)
{
    double wf = x->sb_smem_wf;
    x->sb_smem_wf = 0;
    uint64_t t = x->sb_now, r = sm_port_smem(&x->sb_smport, t >> LOADS_BITS, wf);
    if (!r) return;
    uint64_t v = CYC(r) + (t & LOADS_MASK);
    for (unsigned k = 0; k < in->sb_ndst; k++)
        if (v > w->sb_ready[in->sb_dst[k]]) w->sb_ready[in->sb_dst[k]] = v;
}

/* The later of A and the busiest sub-partition's issue since the barrier
 * that opened at x->sb_bar. */
static uint64_t with_issue(sctx *x, unsigned nwarps, uint64_t a)
{
    uint64_t q[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < nwarps; k++) q[k % 4] += x->warps[k].sb_issued;
    uint64_t m = q[0] > q[1] ? q[0] : q[1], m2 = q[2] > q[3] ? q[2] : q[3];
    m = m > m2 ? m : m2;
    /* the block's stretch on the SM's schedulers, or its busiest pipe if slower */
    double all = (double)(q[0] + q[1] + q[2] + q[3]);
    for (int i = 0; i < COALSIM_PIPES; i++) {
        double n = 0;
        for (unsigned k = 0; k < nwarps; k++) n += (double)x->warps[k].sb_pipe[i];
        if (x->sb_pipe_rate[i] > 0 && 4 * n / x->sb_pipe_rate[i] > all) all = 4 * n / x->sb_pipe_rate[i];
    }
    coalsim_exec_phase(&x->exec, (double)m, all,
                       (double)(a >> LOADS_BITS) - (double)(x->sb_bar >> LOADS_BITS), x->sb_stagger);
    /* issue-bound since the barrier: the loads on the path are the ones
     * before it */
    uint64_t t = x->sb_bar + CYC(m);
    return (t >> LOADS_BITS) > (a >> LOADS_BITS) ? t : a;
}

void sass_sched_barrier(sctx *x, unsigned nwarps)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < nwarps; k++)
        if (x->warps[k].state != SW_DONE && x->warps[k].sb_t > t) t = x->warps[k].sb_t;
    t = with_issue(x, nwarps, t) + x->sb_bar_lat;
    x->sb_bar = t;
    for (unsigned k = 0; k < nwarps; k++) {
        x->warps[k].sb_issued = 0;
        memset(x->warps[k].sb_pipe, 0, sizeof x->warps[k].sb_pipe);
        if (x->warps[k].state != SW_DONE) x->warps[k].sb_t = t;
    }
}

void sass_sched_block_end(sctx *x, unsigned nwarps)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < nwarps; k++)
        if (x->warps[k].sb_t > t) t = x->warps[k].sb_t;
    t = with_issue(x, nwarps, t);
    double loads = (double)(t & LOADS_MASK);
    x->exec.path_cycles += (double)(t >> LOADS_BITS) - loads * COALSIM_PATH_LOAD_CYCLES;
    x->exec.path_loads += loads;
    x->exec.path_blocks++;
    coalsim_exec_path_max(&x->exec, (double)(t >> LOADS_BITS) - loads * COALSIM_PATH_LOAD_CYCLES, loads);
}
