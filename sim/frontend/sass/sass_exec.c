/* The SASS interpreter: a block's warps in turns, each with a SIMT stack
 * (divergent lanes rejoin at the branch's immediate post-dominator, which is
 * where ptxas puts the BSYNC of its BSSY), calls with a return stack, and
 * barriers.  Every instruction a warp issues is counted, predicated off or
 * not, as smsp__inst_executed counts it. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/tmamerge.h"
#include "sass.h"


int sass_fail(sctx *x, const sinst *in, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (in)
        snprintf(x->err, sizeof x->err, "%s:%u: %s%s%s%s: block (%u,%u,%u): %s", x->prog->lst->name, in->line,
                 in->text ? in->text : "?", in->label ? " (" : "", in->label ? in->label : "", in->label ? ")" : "",
                 x->bx, x->by, x->bz, msg);
    else
        snprintf(x->err, sizeof x->err, "%s: block (%u,%u,%u): %s", x->prog->lst->name, x->bx, x->by, x->bz, msg);
    return -1;
}

/* ---- operands ---- */

static uint32_t sreg_value(const sctx *x, const swarp *w, unsigned id, unsigned lane)
{
    unsigned t = w->index * 32 + lane, bx = x->block[0], by = x->block[1];
    switch (id) {
    case 0: return t % bx;
    case 1: return t / bx % by;
    case 2: return t / (bx * by);
    case 3: return x->bx;
    case 4: return x->by;
    case 5: return x->bz;
    case 6: return lane;
    case 7: return (uint32_t)w->clock;
    case 8: return (uint32_t)(w->clock >> 32);
    case 9: return 1u << lane;
    case 10: return (1u << lane) - 1;
    case 11: return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
    case 12: return lane == 31 ? 0 : ~((2u << lane) - 1);
    case 13: return ~((1u << lane) - 1);
    case 14: return 0;                       /* SRZ */
    case 15: return w->cta;                  /* SR_CgaCtaId: the CTA's rank in its cluster */
    case 17: return w->index;
    case 18: return (uint32_t)(x->block_id % 132);
    case 19: return (uint32_t)w->clock;
    case 20: return (uint32_t)(w->clock >> 32);
    case 23: return (uint32_t)(SASS_GEN_SHARED >> 32);   /* SR_SWINHI */
    case 24: return (uint32_t)SASS_GEN_SHARED;
    case 25: return 132;
    default: return 0;
    }
}

static uint32_t cbank_read(const sctx *x, unsigned bank, uint64_t off)
{
    const sprog *p = x->prog;
    if (bank >= 8 || !p->bank[bank] || off + 4 > p->bank_size[bank]) return 0;
    uint32_t v;
    memcpy(&v, p->bank[bank] + off, 4);
    return v;
}

const uint32_t *sass_src(const sctx *x, const swarp *w, const sopnd *o, uint32_t *out)
{
    switch (o->kind) {
    case SO_R:
        if (o->reg != SASS_RZ) return w->r[o->reg];
        memset(out, 0, 32 * sizeof *out);
        return out;
    case SO_UR: {
        uint32_t v = o->reg == SASS_URZ ? 0 : w->ur[o->reg];
        for (int l = 0; l < 32; l++) out[l] = v;
        return out;
    }
    case SO_IMM:
        for (int l = 0; l < 32; l++) out[l] = (uint32_t)o->imm;
        return out;
    case SO_CBANK: {
        uint64_t base = (uint64_t)o->off + (o->ureg != SASS_URZ ? w->ur[o->ureg] : 0);
        if (o->reg == SASS_RZ) {
            uint32_t v = cbank_read(x, o->bank, base);
            for (int l = 0; l < 32; l++) out[l] = v;
        } else {
            for (int l = 0; l < 32; l++) out[l] = cbank_read(x, o->bank, base + w->r[o->reg][l]);
        }
        return out;
    }
    case SO_SREG:
        for (unsigned l = 0; l < 32; l++) out[l] = sreg_value(x, w, o->reg, l);
        return out;
    case SO_P: {
        uint32_t p = sass_pred(w, o);
        for (int l = 0; l < 32; l++) out[l] = p >> l & 1;
        return out;
    }
    default:
        memset(out, 0, 32 * sizeof *out);
        return out;
    }
}

uint32_t sass_pred(const swarp *w, const sopnd *o)
{
    uint32_t v;
    if (o->kind == SO_UP) v = o->reg == SASS_PT ? 0xffffffffu : (w->up[o->reg] ? 0xffffffffu : 0);
    else v = o->reg == SASS_PT ? 0xffffffffu : w->p[o->reg];
    return o->not_ ? ~v : v;
}

void sass_set_pred(swarp *w, unsigned p, uint32_t value, uint32_t m)
{
    if (p >= SASS_PT) return;
    w->p[p] = (w->p[p] & ~m) | (value & m);
}

/* ---- the SIMT stack and calls ---- */

static int push(swarp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->sp == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 16;
        sstack_entry *s = realloc(w->stack, cap * sizeof *s);
        if (!s) return -1;
        w->stack = s;
        w->cap = cap;
    }
    w->stack[w->sp++] = (sstack_entry){pc, rpc, mask, 0};
    return 0;
}

static void drop_lanes(swarp *w, uint32_t e, uint32_t from)
{
    for (uint32_t i = from; i < w->sp; i++) w->stack[i].mask &= ~e;
}

static int run_warp(sctx *x, swarp *w)
{
    const sprog *p = x->prog;
    for (unsigned budget = 1 << 14; budget; budget--) {
        uint32_t floor_sp = w->depth ? w->calls[w->depth - 1].sp : 0;
        if (w->sp == floor_sp) {
            if (w->depth == 0) {
                w->state = SW_DONE;
                return 0;
            }
            /* every lane of the callee returned or exited: the caller's entry
             * (its pc already past the call) goes on */
            w->depth--;
            continue;
        }
        sstack_entry *top = &w->stack[w->sp - 1];
        if (top->mask == 0 || top->pc == top->rpc) {
            /* a group of lanes that arrives at its BSYNC issues it then (the
             * warp issues it once a group, each lane once) */
            if (top->mask && !top->parent && top->rpc < p->ncode && p->code[top->rpc].kind == SK_NOP &&
                p->code[top->rpc].sub) {
                unsigned lanes = (unsigned)__builtin_popcount(top->mask), k;
                x->exec.inst_executed++;
                x->exec.thread_inst_executed += lanes;
                x->icount[2 * top->rpc]++;
                x->icount[2 * top->rpc + 1] += lanes;
                if (x->sb_on) sass_sched_issue(x, w, &p->code[top->rpc], top->mask);
                for (k = 0; k < w->narrived && w->arrived[k].pc != top->rpc; k++) {}
                if (k == w->narrived && k < sizeof w->arrived / sizeof w->arrived[0]) {
                    w->arrived[k].pc = top->rpc;
                    w->arrived[k].lanes = 0;
                    w->narrived++;
                }
                if (k < w->narrived) w->arrived[k].lanes |= top->mask;
            }
            w->sp--;
            continue;
        }
        if (top->pc >= p->ncode) return sass_fail(x, NULL, "ran past the end of the kernel (pc %u)", top->pc);
        const sinst *in = &p->code[top->pc];
        uint32_t mask = top->mask, m = mask;
        if (in->guard >= 0) {
            uint32_t g = in->guard < 8 ? (in->guard == SASS_PT ? 0xffffffffu : w->p[in->guard])
                                       : (in->guard - 8 == SASS_PT || w->up[in->guard - 8] ? 0xffffffffu : 0);
            m &= in->guard_neg ? ~g : g;
        }
        if (in->kind == SK_WAIT && m) {
            /* it may have to wait for other warps: asleep, not issued */
            int r = in->fn(x, w, in, m);
            if (r < 0) return -1;
            if (r > 0) {
                w->state = SW_WAIT;
                return 0;
            }
        }
        w->clock++;
        uint32_t issuing = mask;
        if (in->kind == SK_NOP && in->sub && w->narrived) {
            /* the rejoined warp's BSYNC: only lanes no group issued it for */
            for (unsigned k = 0; k < w->narrived; k++)
                if (w->arrived[k].pc == top->pc) {
                    issuing &= ~w->arrived[k].lanes;
                    w->arrived[k] = w->arrived[--w->narrived];
                    break;
                }
        }
        sass_loop_note(x, w, top->pc, mask, m);
        if (issuing) {
            unsigned lanes = issuing == 0xffffffffu ? 32 : (unsigned)__builtin_popcount(issuing);
            x->exec.inst_executed++;
            x->exec.thread_inst_executed += lanes;
            x->icount[2 * top->pc]++;
            x->icount[2 * top->pc + 1] += lanes;
            if (x->sb_on) sass_sched_issue(x, w, in, m);
        }
        switch (in->kind) {
        case SK_OP:
            if (m && in->fn(x, w, in, m) != 0) return -1;
            top = &w->stack[w->sp - 1];
            top->pc++;
            break;
        case SK_MEM:
            if (in->cs_space >= 0) {
                x->exec.inst_mem[in->cs_space][in->cs_op]++;
                x->exec.mem_inactive += !m;
            }
            if (m && in->fn(x, w, in, m) != 0) return -1;
            if (x->sb_smem_wf > 0) sass_sched_smem(x, w, in);
            w->stack[w->sp - 1].pc++;
            if (m && x->interleave) return 0;   /* as the PTX interpreter */
            break;
        case SK_NOP:
        case SK_WAIT: top->pc++; break;
        case SK_BRA:
        case SK_BRADIV: {
            uint32_t taken = m;
            if (in->sub == 1) taken &= sass_pred(w, &in->o[0]);   /* BRA Pp, target */
            if (in->kind == SK_BRADIV) {
                /* BRA.DIV: taken when the warp is not converged (some of its
                 * lanes that have not exited are not here) */
                uint32_t live = w->alive & ~w->exited;
                int converged = (mask & live) == live;
                taken = converged == (in->sub3 != 0) ? m : 0;     /* sub3: BRA.CONV */
            }
            uint32_t nt = mask & ~taken;
            if (!nt) {
                /* a loop's back edge: the warp may jump over iterations (sass_loop.c) */
                if (x->loop_on && in->kind == SK_BRA && in->target <= top->pc && sass_loop_backedge(x, w, top->pc) != 0)
                    return -1;
                top = &w->stack[w->sp - 1];
                top->pc = in->target;
            } else if (!taken) {
                top->pc++;
            } else {
                uint32_t r = in->reconv, fall = top->pc + 1;
                top->pc = r;
                top->parent = 1;
                if (push(w, fall, r, nt) != 0 || push(w, in->target, r, taken) != 0)
                    return sass_fail(x, in, "out of memory");
            }
            break;
        }
        case SK_CALL:
            top->pc++;
            if (!m) break;
            if (w->depth == SASS_MAX_DEPTH) return sass_fail(x, in, "calls nested deeper than %d", SASS_MAX_DEPTH);
            /* lanes that did not call wait at the return address, under the callee */
            w->calls[w->depth++] = (scall){top->pc, m, w->sp};
            if (push(w, in->target, p->ncode, m) != 0) return sass_fail(x, in, "out of memory");
            break;
        case SK_RET:
            if (!w->depth) goto do_exit;
            drop_lanes(w, m, w->calls[w->depth - 1].sp);
            if (mask & ~m) w->stack[w->sp - 1].pc++;
            break;
        case SK_EXIT:
        do_exit:
            w->exited |= m;
            drop_lanes(w, m, 0);
            for (unsigned d = 0; d < w->depth; d++) w->calls[d].mask &= ~m;
            if ((w->alive & ~w->exited) == 0) {
                w->state = SW_DONE;
                return 0;
            }
            if (mask & ~m) w->stack[w->sp - 1].pc++;
            break;
        case SK_BAR:
            top->pc++;
            if (m) {
                if (in->sub2) {
                    /* a barrier with a thread count: each warp arriving counts 32; the
                     * last arrival releases the warps waiting at it */
                    uint32_t ti[32], tn[32];
                    int l = __builtin_ctz(m);
                    unsigned id = sass_src(x, w, &in->o[0], ti)[l], n = sass_src(x, w, &in->o[1], tn)[l];
                    if (id > 15 || n == 0 || n % 32)
                        return sass_fail(x, in, "barrier %u with a count of %u threads (ids 0-15, counts multiples of 32)",
                                         id, n);
                    unsigned *arrived = &x->bar_arrived[w->cta][id];
                    if (32 * ++*arrived >= n) {
                        *arrived = 0;
                        unsigned wpb = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
                        swarp *cw = x->warps + (size_t)w->cta * wpb;
                        for (unsigned k = 0; k < wpb; k++)
                            if (cw[k].state == SW_BAR && cw[k].bar_counted == (int)id + 1)
                                cw[k].state = SW_RUN, cw[k].bar_counted = 0;
                        break;
                    }
                    if (in->sub) break;          /* BAR.ARV: on without waiting */
                    w->bar_counted = (int)id + 1;
                }
                w->state = SW_BAR;
                return 0;
            }
            break;
        case SK_UNSUPPORTED:
        default:
            if (m) return in->fn(x, w, in, m);
            top->pc++;
            break;
        }
    }
    return 0;
}

/* The block cannot go on: an error naming what each sleeping warp waits for. */
static int deadlock(sctx *x, swarp *warps, unsigned nwarps)
{
    char what[1024] = "";
    size_t n = 0;
    unsigned named = 0, asleep = 0, at_bar = 0;
    const sinst *first = NULL;
    for (unsigned k = 0; k < nwarps; k++) {
        swarp *w = &warps[k];
        at_bar += w->state == SW_BAR;
        if (w->state != SW_WAIT) continue;
        asleep++;
        const sinst *in = &x->prog->code[w->stack[w->sp - 1].pc];
        if (!first) first = in;
        if (named == 3 || n >= sizeof what - 200) continue;
        char d[300];
        sass_wait_describe(x, w, in, d, sizeof d);
        n += (size_t)snprintf(what + n, sizeof what - n, "%swarp %u at line %u waits for %s", named ? "; " : "", k,
                              in->line, d);
        named++;
    }
    return sass_fail(x, first, "deadlock: %u warp(s) wait and will never be woken (%u at a barrier): %s%s", asleep, at_bar,
                     what, asleep > named ? "; ..." : "");
}

void sass_select_cta(sctx *x, unsigned r)
{
    const scta *c = &x->cta[r];
    x->cur = r;
    x->block_id = c->block_id;
    x->bx = c->bx, x->by = c->by, x->bz = c->bz;
    x->smem = c->smem;
}

uint64_t sass_cluster_live(const sctx *x)
{
    uint64_t n = 0;
    unsigned wpb = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
    for (unsigned k = 0; k < wpb * x->ncta; k++) n += (unsigned)__builtin_popcount(x->warps[k].alive & ~x->warps[k].exited);
    return n;
}

/* The CTAs of cluster C (block C without clusters: frontend/cluster.h). */
static void place_ctas(sctx *x, uint64_t c)
{
    for (unsigned r = 0; r < x->ncta; r++) {
        scta *t = &x->cta[r];
        cluster_cta(x->grid, x->cdim, c, r, &t->bx, &t->by, &t->bz, &t->block_id);
        t->tma_loads = 0;
        memset(t->smem, 0, (size_t)x->smem_bytes);
    }
}

/* Open the BAR.SYNC of every CTA all of whose warps left wait at it.
 * Returns how many warps it let go. */
static unsigned open_barriers(sctx *x, unsigned wpb)
{
    swarp *all = x->warps;
    unsigned opened = 0;
    for (unsigned r = 0; r < x->ncta; r++) {
        swarp *cw = all + (size_t)r * wpb;
        unsigned waiting = 0, live = 0;
        for (unsigned k = 0; k < wpb; k++) waiting += cw[k].state == SW_BAR && !cw[k].bar_counted, live += cw[k].state != SW_DONE;
        if (!live || waiting != live) continue;
        if (x->sb_on) {
            x->warps = cw;           /* the time model sees one block's warps */
            sass_sched_barrier(x, wpb);
            x->warps = all;
        }
        for (unsigned k = 0; k < wpb; k++)
            if (cw[k].state == SW_BAR && !cw[k].bar_counted) cw[k].state = SW_RUN, opened++;
    }
    return opened;
}

int sass_run_block(sctx *x, uint64_t b)
{
    const sprog *p = x->prog;
    unsigned nthreads = x->block[0] * x->block[1] * x->block[2];
    unsigned wpb = (nthreads + 31) / 32;
    if (!x->ncta) {
        /* no clusters set up: one CTA, this worker's shared memory */
        x->cdim[0] = x->cdim[1] = x->cdim[2] = 1;
        x->ncta = 1;
        x->cta[0].smem = x->smem;
    }
    unsigned nwarps = wpb * x->ncta;
    place_ctas(x, b);
    x->cl = (cluster_bar){0};
    memset(x->bar_arrived, 0, sizeof x->bar_arrived);
    cas_words_block(&x->cas);
    if (x->nwarps < nwarps) {
        swarp *nw = realloc(x->warps, nwarps * sizeof *nw);
        if (!nw) return sass_fail(x, NULL, "out of memory");
        memset(nw + x->nwarps, 0, (nwarps - x->nwarps) * sizeof *nw);
        x->warps = nw;
        x->nwarps = nwarps;
    }
    swarp *warps = x->warps;
    for (unsigned k = 0; k < nwarps; k++) {
        swarp *w = &warps[k];
        memset(w->r, 0, (size_t)p->nregs * sizeof w->r[0]);
        memset(w->r[SASS_RZ], 0, sizeof w->r[SASS_RZ]);
        memset(w->ur, 0, sizeof w->ur);
        memset(w->p, 0, sizeof w->p);
        memset(w->up, 0, sizeof w->up);
        w->sp = 0;
        w->narrived = 0;
        w->depth = 0;
        w->exited = 0;
        w->state = SW_RUN;
        w->gmma_done = 0;
        w->clock = 0;
        w->index = k % wpb;
        w->cta = k / wpb;
        w->cl_arrived = 0;
        w->bar_counted = 0;
        w->cas_open = 0, w->cas_extra = 0, w->cas_frac = 0;
        sass_loop_block(w);
        if (w->local) memset(w->local, 0, (size_t)w->local_cap * 32);
        unsigned lanes = nthreads - w->index * 32 < 32 ? nthreads - w->index * 32 : 32;
        w->alive = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        if (push(w, 0, p->ncode, w->alive) != 0) return sass_fail(x, NULL, "out of memory");
        x->exec.warps_launched++;
    }
    x->exec.blocks += x->ncta;
    if (x->sb_on) sass_sched_block_start(x, nwarps);
    sass_select_cta(x, 0);
    int rc = 0;
    while (rc == 0) {
        uint64_t before = x->exec.inst_executed;
        for (unsigned k = 0; k < nwarps && rc == 0; k++)
            if (warps[k].state == SW_RUN) {
                if (x->ncta > 1) sass_select_cta(x, warps[k].cta);
                rc = run_warp(x, &warps[k]);
            }
        if (rc) break;
        unsigned live = 0, waiting = 0, asleep = 0;
        for (unsigned k = 0; k < nwarps; k++) {
            live += warps[k].state != SW_DONE;
            waiting += warps[k].state == SW_BAR;
            asleep += warps[k].state == SW_WAIT;
        }
        if (!live) break;
        unsigned opened = waiting ? open_barriers(x, wpb) : 0;
        if (!asleep) {
            if (opened) continue;
            /* every live warp at a barrier that cannot open: one CTA's warps
             * wait at its barrier while another CTA's have exited */
            if (x->exec.inst_executed == before) {
                if (x->ncta > 1) sass_select_cta(x, 0);
                return deadlock(x, warps, nwarps);
            }
            continue;
        }
        /* a pass in which no warp issued anything and no barrier opened,
         * every warp asleep or at a barrier: nothing will change */
        if (x->exec.inst_executed == before && !opened) {
            if (x->ncta > 1) sass_select_cta(x, 0);
            return deadlock(x, warps, nwarps);
        }
        for (unsigned k = 0; k < nwarps; k++)
            if (warps[k].state == SW_WAIT) warps[k].state = SW_RUN;
    }
    if (rc == 0 && x->sb_on) {
        swarp *all = x->warps;
        for (unsigned r = 0; r < x->ncta; r++) {
            x->warps = all + (size_t)r * wpb;
            sass_sched_block_end(x, wpb);
        }
        x->warps = all;
    }
    return rc;
}

void sass_ctx_free(sctx *x)
{
    sass_loop_free(x);
    cas_words_free(&x->cas);
    free(x->tma_merge);
    x->tma_merge = NULL;
    for (unsigned k = 0; k < x->nwarps; k++) {
        free(x->warps[k].stack);
        free(x->warps[k].local);
    }
    free(x->warps);
    x->warps = NULL;
    x->nwarps = 0;
    sm_port_free(&x->sb_smport);
    free(x->icount);
    x->icount = NULL;
}
