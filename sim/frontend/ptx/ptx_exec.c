/* The SIMT interpreter: a block's warps run in turns (a warp runs until it
 * reaches a barrier or exits; where the order of the requests is reported,
 * the cache model and the per-request report, also until it issues a memory
 * instruction, so warps' requests interleave as on the GPU; the counts do
 * not depend on the order, and a warp that keeps its registers in the host's
 * caches runs faster), each warp with a stack of call frames and each
 * frame with a reconvergence stack: a divergent branch runs its taken lanes,
 * then its other lanes, up to the branch's immediate post-dominator, where
 * they continue together. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

int ptx_fail(pctx *x, const pinst *in, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ptx_module *m = x->prog->mod;
    /* where: the PTX's line in a .ptx; the user's source line where a .cu
     * was compiled (the module has the .cu's name, and the PTX's line is no
     * line of it) */
    char src[128] = "";
    if (in && in->src_file && in->src_file <= m->nfiles && m->files[in->src_file - 1]) {
        const char *f = m->files[in->src_file - 1], *base = strrchr(f, '/');
        snprintf(src, sizeof src, "%.100s:%u", base ? base + 1 : f, in->src_line);
    }
    size_t nl = strlen(m->name);
    int ptx_file = nl >= 4 && !strcmp(m->name + nl - 4, ".ptx");
    const char *text = in && in->text ? in->text : "?";
    if (in && ptx_file) {
        const char *at = in->label ? in->label : src;   /* a memory instruction's access label says both */
        snprintf(x->err, sizeof x->err, "%s:%u: %s%s%s%s: block (%u,%u,%u): %s", m->name, in->line, text,
                 *at ? " (" : "", at, *at ? ")" : "", x->bx, x->by, x->bz, msg);
    }
    else if (in && *src)
        snprintf(x->err, sizeof x->err, "%s: %s (PTX line %u): block (%u,%u,%u): %s", src, text, in->line, x->bx, x->by,
                 x->bz, msg);
    else if (in)
        snprintf(x->err, sizeof x->err, "%s (PTX line %u): %s: block (%u,%u,%u): %s", m->name, in->line, text, x->bx,
                 x->by, x->bz, msg);
    else
        snprintf(x->err, sizeof x->err, "%s: block (%u,%u,%u): %s", x->prog->mod->name, x->bx, x->by, x->bz, msg);
    return -1;
}

static uint64_t special_value(const pctx *x, const pwarp *w, sreg r, unsigned lane)
{
    unsigned t = w->index * 32 + lane;
    unsigned bx = x->block[0], by = x->block[1];
    switch (r) {
    case SR_TID_X: return t % bx;
    case SR_TID_Y: return t / bx % by;
    case SR_TID_Z: return t / (bx * by);
    case SR_NTID_X: return x->block[0];
    case SR_NTID_Y: return x->block[1];
    case SR_NTID_Z: return x->block[2];
    case SR_CTAID_X: return x->bx;
    case SR_CTAID_Y: return x->by;
    case SR_CTAID_Z: return x->bz;
    case SR_NCTAID_X: return x->grid[0];
    case SR_NCTAID_Y: return x->grid[1];
    case SR_NCTAID_Z: return x->grid[2];
    case SR_LANEID: return lane;
    case SR_WARPID: return w->index;
    case SR_NWARPID: return 64;
    case SR_SMID: return x->block_id % 132;
    case SR_NSMID: return 132;
    case SR_GRIDID: return 1;
    case SR_LANEMASK_EQ: return 1u << lane;
    case SR_LANEMASK_LE: return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
    case SR_LANEMASK_LT: return (1u << lane) - 1;
    case SR_LANEMASK_GE: return ~((1u << lane) - 1) & 0xffffffffu;
    case SR_LANEMASK_GT: return lane == 31 ? 0 : ~((2u << lane) - 1) & 0xffffffffu;
    case SR_CLOCK: return (uint32_t)w->clock;
    case SR_CLOCK64:
    case SR_GLOBALTIMER: return w->clock;
    case SR_DYN_SMEM: return x->smem_bytes - x->prog->static_smem;
    case SR_TOTAL_SMEM: return x->smem_bytes;
    case SR_CLUSTER_CTARANK: return w->cta;
    case SR_CLUSTER_NCTARANK: return x->ncta;
    case SR_CLUSTER_CTAID_X: return w->cta % x->cdim[0];
    case SR_CLUSTER_CTAID_Y: return w->cta / x->cdim[0] % x->cdim[1];
    case SR_CLUSTER_CTAID_Z: return w->cta / (x->cdim[0] * x->cdim[1]);
    case SR_CLUSTER_NCTAID_X: return x->cdim[0];
    case SR_CLUSTER_NCTAID_Y: return x->cdim[1];
    case SR_CLUSTER_NCTAID_Z: return x->cdim[2];
    case SR_CLUSTERID_X: return x->bx / x->cdim[0];
    case SR_CLUSTERID_Y: return x->by / x->cdim[1];
    case SR_CLUSTERID_Z: return x->bz / x->cdim[2];
    case SR_NCLUSTERID_X: return x->grid[0] / x->cdim[0];
    case SR_NCLUSTERID_Y: return x->grid[1] / x->cdim[1];
    case SR_NCLUSTERID_Z: return x->grid[2] / x->cdim[2];
    case SR_IS_EXPLICIT_CLUSTER: return (uint64_t)x->explicit_cluster;
    default: return 0;
    }
}

/* Make room for LANES' local memory up to TOP bytes a lane. */
static int local_reserve(pwarp *w, uint64_t top)
{
    if (top <= w->local_cap) return 0;
    uint64_t cap = w->local_cap ? w->local_cap : 256;
    while (cap < top) cap *= 2;
    uint8_t *n = calloc(32, (size_t)cap);
    if (!n) return -1;
    for (int l = 0; l < 32 && w->local; l++) memcpy(n + (size_t)l * cap, w->local + (size_t)l * w->local_cap, (size_t)w->local_cap);
    free(w->local);
    w->local = n;
    w->local_cap = cap;
    return 0;
}

/* Grow *P to hold N bytes (keeping nothing). */
static int reserve(void **p, size_t *cap, size_t n)
{
    if (n <= *cap) return 0;
    void *q = malloc(n);
    if (!q) return -1;
    free(*p);
    *p = q;
    *cap = n;
    return 0;
}

/* Push a frame of FN for lanes MASK; the caller fills its parameters.  A
 * frame's buffers stay with the warp, so the next block's warps reuse them. */
static pframe *push_frame(pctx *x, pwarp *w, const pfunc *fn, uint32_t mask, uint64_t local_base)
{
    if (w->depth == PTX_MAX_DEPTH) return NULL;
    pframe *fr = &w->frames[w->depth];
    size_t pb = fn->param_bytes ? fn->param_bytes : 1;
    if (reserve((void **)&fr->regs, &fr->regs_cap, (size_t)fn->nslots * 32 * sizeof *fr->regs) != 0 ||
        reserve((void **)&fr->preds, &fr->preds_cap, fn->npreds * sizeof *fr->preds) != 0 ||
        reserve((void **)&fr->params, &fr->params_cap, 32 * pb) != 0 ||
        local_reserve(w, local_base + fn->local_bytes) != 0 ||
        (x->sb_on && reserve((void **)&fr->sb, &fr->sb_cap, ((size_t)fn->nslots + fn->npreds) * sizeof *fr->sb) != 0))
        return NULL;
    /* the scoreboard: the callee's values are ready when it starts */
    if (x->sb_on) memset(fr->sb, 0, ((size_t)fn->nslots + fn->npreds) * sizeof *fr->sb);
    if (!fr->stack) {
        fr->cap = 8;
        if (!(fr->stack = malloc(fr->cap * sizeof *fr->stack))) return NULL;
    }
    fr->fn = fn;
    fr->called = mask;
    fr->call_pc = 0;
    memset(fr->preds, 0, fn->npreds * sizeof *fr->preds);
    memset(fr->params, 0, 32 * pb);
    memset(fr->regs, 0, (size_t)fn->const_first * 32 * sizeof *fr->regs);
    for (uint32_t k = 0; k < fn->nconsts; k++) {
        uint64_t *s = fr->regs + (size_t)(fn->const_first + k) * 32, v = fn->consts[k];
        for (int l = 0; l < 32; l++) s[l] = v;
    }
    for (uint32_t k = 0; k < fn->nspecials; k++) {
        uint64_t *s = fr->regs + (size_t)(fn->special_first + k) * 32;
        for (unsigned l = 0; l < 32; l++) s[l] = special_value(x, w, (sreg)fn->specials[k], l);
    }
    fr->local_base = local_base;
    fr->stack[0] = (simt_entry){0, fn->ncode, mask};
    fr->sp = 1;
    w->depth++;
    return fr;
}

static void pop_frame(pwarp *w) { w->depth--; }

static int simt_push(pframe *fr, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (fr->sp == fr->cap) {
        uint32_t cap = fr->cap * 2;
        simt_entry *s = realloc(fr->stack, cap * sizeof *s);
        if (!s) return -1;
        fr->stack = s;
        fr->cap = cap;
    }
    fr->stack[fr->sp++] = (simt_entry){pc, rpc, mask};
    return 0;
}

/* Lanes E leave frame FR (ret) or the kernel (exit, every frame). */
static void drop_lanes(pframe *fr, uint32_t e)
{
    for (uint32_t i = 0; i < fr->sp; i++) fr->stack[i].mask &= ~e;
}

/* Refresh the clock special registers of the top frame. */
static void tick(pctx *x, pwarp *w)
{
    pframe *fr = &w->frames[w->depth - 1];
    const pfunc *fn = fr->fn;
    for (uint32_t k = 0; k < fn->nspecials; k++) {
        sreg r = (sreg)fn->specials[k];
        if (r == SR_CLOCK || r == SR_CLOCK64 || r == SR_GLOBALTIMER) {
            uint64_t *s = fr->regs + (size_t)(fn->special_first + k) * 32;
            for (unsigned l = 0; l < 32; l++) s[l] = special_value(x, w, r, l);
        }
    }
}

/* Return to the caller: copy the results of the lanes that came back. */
static void return_to_caller(pwarp *w)
{
    pframe *cal = &w->frames[w->depth - 1];
    pframe *caller = &w->frames[w->depth - 2];
    const pinst *ci = &caller->fn->code[caller->stack[caller->sp - 1].pc];
    const pfunc *cf = cal->fn;
    uint32_t back = cal->called & ~w->exited;
    for (uint32_t k = 0; k < ci->call_nrets; k++) {
        const pcall_arg *a = &caller->fn->calls[ci->call_rets + k];
        for (uint32_t m = back; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            memcpy(caller->params + (size_t)l * caller->fn->param_bytes + a->caller_off,
                   cal->params + (size_t)l * cf->param_bytes + cf->ret_off[k], a->bytes);
        }
    }
    pop_frame(w);
    w->frames[w->depth - 1].stack[w->frames[w->depth - 1].sp - 1].pc++;
}

/* The string at global address A into OUT (as much as is readable). */
static void read_string(pctx *x, uint64_t a, char *out, size_t cap)
{
    size_t n = 0;
    for (; n + 1 < cap; n++, a++) {
        int oom;
        unsigned char *page = kmem_page(x->mem, &x->tlb, a, &oom);
        if (!page || !page[a % KMEM_PAGE]) break;
        out[n] = (char)page[a % KMEM_PAGE];
    }
    out[n] = '\0';
    if (!n) snprintf(out, cap, "?");
}

/* N bytes at lane L's generic address A into DST.  0, or -1 if A is in no
 * memory. */
static int read_generic(pctx *x, pwarp *w, int l, uint64_t a, void *dst, size_t n)
{
    if (a - GEN_LOCAL < GEN_WINDOW) {
        a -= GEN_LOCAL;
        if (a > w->local_cap || w->local_cap - a < n) return -1;
        memcpy(dst, w->local + (size_t)l * w->local_cap + a, n);
        return 0;
    }
    if (a - GEN_SHARED < GEN_WINDOW) {
        a -= GEN_SHARED;
        if (a > x->smem_bytes || x->smem_bytes - a < n) return -1;
        memcpy(dst, x->smem + a, n);
        return 0;
    }
    if (a - GEN_CONST < GEN_WINDOW) {
        a -= GEN_CONST;
        if (a > x->prog->const_bytes || x->prog->const_bytes - a < n) return -1;
        memcpy(dst, x->prog->const_bank + a, n);
        return 0;
    }
    return kmem_read(x->mem, a, dst, n);
}

/* Device printf: lane L's vprintf(FMT, ARGS) formatted as the GPU's printf
 * does (each argument at the next offset aligned to its size: 4-byte
 * integers and chars, 8-byte longs, pointers and doubles) into X's printer. */
static void device_printf(pctx *x, pwarp *w, int l, uint64_t fmt_addr, uint64_t args)
{
    char fmt[1024], out[4096], spec[64];
    read_string(x, fmt_addr, fmt, sizeof fmt);
    size_t n = 0, off = 0;
    for (const char *p = fmt; *p && n + 1 < sizeof out;) {
        if (*p != '%') {
            out[n++] = *p++;
            continue;
        }
        if (p[1] == '%') {
            out[n++] = '%';
            p += 2;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        size_t k = strspn(p + 1, "-+ #0123456789.*") + 1;
        int longs = 0;
        const char *len = p + k;
        while (*len == 'l' || *len == 'h' || *len == 'z' || *len == 'j' || *len == 't') longs += *len == 'l' || *len == 'z' || *len == 'j' || *len == 't' ? 2 : 0, len++;
        char conv = *len;
        if (!conv || (size_t)(len - p) + 3 > sizeof spec) break;
        size_t sl = (size_t)(p + k - p);
        memcpy(spec, p, sl);
        int is_float = strchr("fFeEgGaA", conv) != NULL, is_ptr = conv == 's' || conv == 'p';
        unsigned size = is_float || is_ptr || longs ? 8 : 4;
        off = (off + size - 1) / size * size;
        uint64_t v = 0;
        if (read_generic(x, w, l, args + off, &v, size) != 0) v = 0;
        off += size;
        int wrote = 0;
        size_t room = sizeof out - n;
        if (is_float) {
            double d;
            memcpy(&d, &v, 8);
            spec[sl] = conv, spec[sl + 1] = '\0';
            wrote = snprintf(out + n, room, spec, d);
        } else if (conv == 's') {
            char str[1024];
            read_string(x, v, str, sizeof str);
            spec[sl] = 's', spec[sl + 1] = '\0';
            wrote = snprintf(out + n, room, spec, str);
        } else if (conv == 'p') {
            spec[sl] = 'p', spec[sl + 1] = '\0';
            wrote = snprintf(out + n, room, spec, (void *)(uintptr_t)v);
        } else if (strchr("diouxXc", conv)) {
            spec[sl] = 'l', spec[sl + 1] = 'l', spec[sl + 2] = conv, spec[sl + 3] = '\0';
            if (conv == 'c') wrote = snprintf(out + n, room, "%c", (int)(unsigned char)v);
            else if (conv == 'd' || conv == 'i')
                wrote = snprintf(out + n, room, spec, size == 8 ? (long long)v : (long long)(int32_t)v);
            else wrote = snprintf(out + n, room, spec, size == 8 ? (unsigned long long)v : (unsigned long long)(uint32_t)v);
        } else {
            break;      /* a conversion printf does not have: the GPU prints up to it */
        }
        if (wrote > 0) n += (size_t)wrote < room ? (size_t)wrote : room - 1;
        p = len + 1;
    }
    x->print(x->print_ctx, out, n);
}

static int do_call(pctx *x, pwarp *w, pframe *fr, const pinst *in, uint32_t m)
{
    const pfunc *callee = x->prog->funcs[in->target];
    if (!callee && !strcmp(x->prog->mod->funcs[in->target].name, "__assertfail")) {
        /* assert() failed: __assertfail(message, file, line, function, size) */
        char msg[160] = "?", file[160] = "?";
        unsigned line = 0;
        int l = __builtin_ctz(m);
        if (in->call_nargs >= 3) {
            uint64_t pm, pf;
            const uint8_t *base = fr->params + (size_t)l * fr->fn->param_bytes;
            memcpy(&pm, base + fr->fn->calls[in->call_args].caller_off, 8);
            memcpy(&pf, base + fr->fn->calls[in->call_args + 1].caller_off, 8);
            memcpy(&line, base + fr->fn->calls[in->call_args + 2].caller_off, 4);
            read_string(x, pm, msg, sizeof msg);
            read_string(x, pf, file, sizeof file);
        }
        return ptx_fail(x, in, "assertion '%s' failed (%s:%u), lane %d of warp %u", msg, file, line, l, w->index);
    }
    if (!callee) {
        /* vprintf(format, arguments): each lane's line to the printer, in
         * lane order; it returns 0 */
        if (x->print && in->call_nargs >= 2)
            for (uint32_t mm = m; mm; mm &= mm - 1) {
                int l = __builtin_ctz(mm);
                uint64_t pf, pa;
                const uint8_t *base = fr->params + (size_t)l * fr->fn->param_bytes;
                memcpy(&pf, base + fr->fn->calls[in->call_args].caller_off, 8);
                memcpy(&pa, base + fr->fn->calls[in->call_args + 1].caller_off, 8);
                device_printf(x, w, l, pf, pa);
            }
        for (uint32_t k = 0; k < in->call_nrets; k++) {
            const pcall_arg *a = &fr->fn->calls[in->call_rets + k];
            for (uint32_t mm = m; mm; mm &= mm - 1)
                memset(fr->params + (size_t)__builtin_ctz(mm) * fr->fn->param_bytes + a->caller_off, 0, a->bytes);
        }
        fr->stack[fr->sp - 1].pc++;
        return 0;
    }
    pframe *cal = push_frame(x, w, callee, m, fr->local_base + fr->fn->local_bytes);
    if (!cal && w->depth == PTX_MAX_DEPTH) return ptx_fail(x, in, "calls nested deeper than %d (recursion?)", PTX_MAX_DEPTH);
    if (!cal) return ptx_fail(x, in, "out of memory");
    fr = &w->frames[w->depth - 2];
    for (uint32_t k = 0; k < in->call_nargs; k++) {
        const pcall_arg *a = &fr->fn->calls[in->call_args + k];
        uint32_t n = a->bytes;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            memcpy(cal->params + (size_t)l * callee->param_bytes + callee->param_off[k],
                   fr->params + (size_t)l * fr->fn->param_bytes + a->caller_off, n);
        }
    }
    return 0;
}

static const int8_t none = -1;

/* A memory instruction issued with lanes M: counted by space and op, and
 * apart when no lane is on (it takes a data-pipe wavefront all the same). */
static inline void count_mem(pctx *x, const pinst *in, uint32_t m)
{
    if (in->cs_space == none) return;
    x->exec.inst_mem[in->cs_space][in->cs_op]++;
    x->exec.mem_inactive += !m;
}

/* Run warp W until it yields (after a memory instruction), waits at a
 * barrier or is done.  0, or -1 with X->err. */
static int run_warp(pctx *x, pwarp *w)
{
    if (w->depth && w->frames[w->depth - 1].fn->nspecials) tick(x, w);
    for (unsigned budget = 1 << 14; budget; budget--) {
        pframe *fr = &w->frames[w->depth - 1];
        if (fr->sp == 0) {
            /* every lane of this frame returned or exited */
            if (w->depth == 1) {
                w->state = W_DONE;
                return 0;
            }
            return_to_caller(w);
            continue;
        }
        simt_entry *top = &fr->stack[fr->sp - 1];
        if (top->mask == 0 || top->pc == top->rpc) {
            fr->sp--;
            continue;
        }
        const pinst *in = &fr->fn->code[top->pc];
        uint32_t mask = top->mask, m = mask;
        unsigned lanes = mask == 0xffffffffu ? 32 : (unsigned)__builtin_popcount(mask);
        int straight = in->kind == K_OP || (in->kind == K_MEM && !x->interleave);
        if (straight && !x->sb_on) {
            /* a run of data instructions (and memory ones, where a warp need
             * not yield after them): one tight loop up to the next
             * instruction of another kind or the reconvergence point */
            const pinst *code = fr->fn->code;
            uint64_t *ic = &x->icount[2 * (size_t)fr->fn->count_base];
            uint32_t pc = top->pc, rpc = top->rpc, first = pc;
            do {
                m = mask;
                if (in->guard >= 0) {
                    uint32_t p = fr->preds[in->guard];
                    m &= in->guard_neg ? ~p : p;
                }
                ic[2 * pc]++;
                ic[2 * pc + 1] += lanes;
                ptx_loop_note(w, pc, mask, m);
                if (in->kind == K_MEM) count_mem(x, in, m);
                if (m && in->fn(x, w, in, m) != 0) return -1;
                in = &code[++pc];
            } while (pc != rpc && (in->kind == K_OP || (in->kind == K_MEM && !x->interleave)));
            w->clock += pc - first;
            top->pc = pc;
            continue;
        }
        if (in->guard >= 0) {
            uint32_t p = fr->preds[in->guard];
            m &= in->guard_neg ? ~p : p;
        }
        if (in->kind == K_WAIT && m) {
            /* a wait runs when what it waits for is there; until then the
             * warp sleeps here, issuing nothing (the GPU's try_wait
             * suspends the warp for a while: the retries it may count are
             * timing, not the program) */
            int r = in->fn(x, w, in, m);
            if (r < 0) return -1;
            if (r > 0) {
                w->state = W_WAIT;
                return 0;
            }
        }
        w->clock++;
        if (x->sb_on) {
            /* issue when the operands are ready and the basic block's issue
             * cursor has come; results ready a latency later (ptx_sched.c) */
            if ((in->sb_flags & SB_LEADER) && !w->sb_join) {
                uint64_t b = w->sb_end > w->sb_t ? w->sb_end : w->sb_t, wait = b;
                /* ptxas put the block's uses of values still on their way
                 * from an earlier block's loads near its top (ptx_sched.c) */
                for (uint32_t k = 0; k < in->sb_nuses; k++) {
                    uint64_t r = fr->sb[fr->fn->sb_uses[in->sb_uses + k]];
                    if (r > wait && (r & PTX_SB_LOADS_MASK) > (b & PTX_SB_LOADS_MASK)) wait = r;
                }
                w->sb_t = wait;
            }
            w->sb_join = (in->sb_flags & SB_UNROLL) && ++w->sb_iter % PTX_UNROLL != 0;
            const uint64_t *rd = fr->sb;
            uint64_t t = w->sb_t;
            for (unsigned k = 0; k < in->sb_nsrc; k++) t = rd[in->sb_src[k]] > t ? rd[in->sb_src[k]] : t;
            /* one ring of the last PTX_HOIST issue times serves both
             * limits: the one PTX_WINDOW back, and the latest of those
             * that fall out of it (sb_floor) */
            uint64_t back = w->sb_ring[(w->sb_head + PTX_HOIST - PTX_WINDOW) % PTX_HOIST];
            if (!(in->sb_flags & SB_LOAD) && back > t) t = back;
            uint64_t *oldest = &w->sb_ring[w->sb_head];
            if (*oldest > w->sb_floor) w->sb_floor = *oldest;
            *oldest = t;
            w->sb_head = (w->sb_head + 1) % PTX_HOIST;
            if (w->sb_floor > t) t = w->sb_floor;
            if ((in->sb_flags & SB_LD_GLOBAL) && w->sb_stored[0] > t) t = w->sb_stored[0];
            if ((in->sb_flags & SB_LD_SHARED) && w->sb_stored[1] > t) t = w->sb_stored[1];
            if ((in->sb_flags & SB_ST_GLOBAL) && t > w->sb_stored[0]) w->sb_stored[0] = t;
            if ((in->sb_flags & SB_ST_SHARED) && t > w->sb_stored[1]) w->sb_stored[1] = t;
            if (in->sb_flags & (SB_ASYNC | SB_ASYNC_COMMIT | SB_ASYNC_WAIT)) {
                ptx_sched_async(x, w, in, m, &t);
                /* the instructions after a wait issue after it (DEPBAR stalls the warp) */
                if ((in->sb_flags & SB_ASYNC_WAIT) && t > w->sb_t) w->sb_t = t;
            }
            if (in->kind == K_OP) {
                /* wgmma.wait_group: the warp issues nothing more until its older groups are done */
                uint64_t g = t;
                ptx_sched_gmma(w, in, &g);
                if (g > t) t = g, w->sb_t = g > w->sb_t ? g : w->sb_t;
            }
            if (in->kind == K_WAIT && x->sb_wait_until > t) {
                /* an mbarrier's phase completes when its last arrival and copy are in; the warp and what
                 * follows issue after that */
                t = x->sb_wait_until;
                if (t > w->sb_t) w->sb_t = t;
            }
            x->sb_wait_until = 0;
            x->sb_now = t;
            unsigned c = in->sb_cls;
            uint64_t issue = ptx_sched_issue(x, w, c);
            w->sb_t += issue;
            if (t + issue > w->sb_end) w->sb_end = t + issue;
            w->sb_quarters += x->sb_quarters[c];
            for (int i = 0; i < COALSIM_PIPES; i++) w->sb_pq[i] += x->sb_pipe_q[c][i];
            x->sb_count[c]++;
            uint64_t ready = in->sb_lane_bytes && in->sb_ndst ? ptx_sched_port(x, w, in, m, t) : t + x->sb_lat[c];
            ready = ptx_sched_tensor(x, w, in, t, ready);
            for (unsigned k = 0; k < in->sb_ndst; k++) fr->sb[in->sb_dst[k]] = ready;
        }
        uint64_t *ic = &x->icount[2 * ((size_t)fr->fn->count_base + top->pc)];
        ic[0]++;
        ic[1] += lanes;
        ptx_loop_note(w, top->pc, mask, m);
        switch (in->kind) {
        case K_OP:
            if (m && in->fn(x, w, in, m) != 0) return -1;
            if (x->sb_smem_wf > 0) ptx_sched_smem(x, w, fr->sb, in);
            top->pc++;
            break;
        case K_MEM:
            count_mem(x, in, m);
            if (m && in->fn(x, w, in, m) != 0) return -1;
            if (x->sb_smem_wf > 0) ptx_sched_smem(x, w, fr->sb, in);
            fr->stack[fr->sp - 1].pc++;
            /* let the next warp issue, where the order of the requests is
             * seen (the cache model, the per-request report) */
            if (m && x->interleave) return 0;
            break;
        case K_NOP: case K_WAIT: top->pc++; break;
        case K_BRA: {
            uint32_t nt = mask & ~m;
            w->async_open = 0;
            if (!nt) {
                if (x->sb_on && (in->sb_flags & SB_IFCONV)) ptx_sched_skipped(x, w, fr->fn, top->pc + 1, in->target);
                /* a loop's back edge: the warp may jump over iterations (ptx_loop.c) */
                if (x->loop_on && in->target <= top->pc && ptx_loop_backedge(x, w, top->pc) != 0) return -1;
                top->pc = in->target;
            } else if (!m) {
                top->pc++;
            } else {
                uint32_t r = in->reconv, fall = top->pc + 1;
                top->pc = r;
                if (simt_push(fr, fall, r, nt) != 0 || simt_push(fr, in->target, r, m) != 0)
                    return ptx_fail(x, in, "out of memory");
            }
            break;
        }
        case K_CALL:
            if (!m) {
                top->pc++;
                break;
            }
            if (do_call(x, w, fr, in, m) != 0) return -1;
            break;
        case K_RET:
            if (w->depth == 1) goto do_exit;
            drop_lanes(fr, m);
            if (mask & ~m) fr->stack[fr->sp - 1].pc++;
            break;
        case K_EXIT:
        do_exit:
            w->exited |= m;
            for (unsigned d = 0; d < w->depth; d++) drop_lanes(&w->frames[d], m);
            if ((w->alive & ~w->exited) == 0) {
                w->state = W_DONE;
                return 0;
            }
            if (mask & ~m) fr->stack[fr->sp - 1].pc++;
            break;
        case K_BAR:
            top->pc++;
            if (m) {
                if (in->b != UINT32_MAX) {
                    /* a barrier with a thread count: each warp arriving counts 32; the
                     * last arrival releases the warps waiting at it */
                    unsigned id = (unsigned)SLOT(w, in->a)[__builtin_ctz(m)], n = (unsigned)SLOT(w, in->b)[__builtin_ctz(m)];
                    if (id > 15 || n == 0 || n % 32)
                        return ptx_fail(x, in, "barrier %u with a count of %u threads (ids 0-15, counts multiples of 32)", id, n);
                    unsigned *arrived = &x->bar_arrived[w->cta][id];
                    if (32 * ++*arrived >= n) {
                        *arrived = 0;
                        unsigned wpb = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
                        pwarp *cw = x->warps + (size_t)w->cta * wpb;
                        for (unsigned k = 0; k < wpb; k++)
                            if (cw[k].state == W_BAR && cw[k].bar_counted == (int)id + 1) cw[k].state = W_RUN, cw[k].bar_counted = 0;
                        break;
                    }
                    if (in->sub) break;          /* bar.arrive: on without waiting */
                    w->bar_counted = (int)id + 1;
                }
                w->state = W_BAR;
                return 0;
            }
            break;
        case K_TRAP:
            if (m) return ptx_fail(x, in, "the kernel executed trap (an assertion failed?)");
            top->pc++;
            break;
        case K_UNSUPPORTED:
        default:
            if (m) return in->fn(x, w, in, m);
            top->pc++;
            break;
        }
    }
    return 0;
}

/* Every warp left waits for another: the error names the first asleep
 * warp's wait (its instruction and what its mbarrier lacks) and the
 * others'. */
static int deadlock(pctx *x, pwarp *warps, unsigned nwarps)
{
    char what[512] = "", others[256] = "";
    const pinst *first = NULL;
    size_t n = 0;
    for (unsigned k = 0; k < nwarps; k++) {
        pwarp *w = &warps[k];
        if (w->state == W_DONE) continue;
        pframe *fr = &w->frames[w->depth - 1];
        const pinst *in = &fr->fn->code[fr->stack[fr->sp - 1].pc - (w->state == W_BAR)];
        if (!first && w->state == W_WAIT) {
            first = in;
            if (ptx_mbarrier_describe(x, w, in, what, sizeof what) != 0) return -1;
            snprintf(others, sizeof others, "warp %u waits for %.200s", k, what);
            n = strlen(others);
            continue;
        }
        if (n < sizeof others - 64)
            n += (size_t)snprintf(others + n, sizeof others - n, "; warp %u %s (PTX line %u)", k,
                                  w->state == W_BAR ? "waits at a barrier" : "waits on an mbarrier", in->line);
    }
    return ptx_fail(x, first, "deadlock in block %llu: %s", (unsigned long long)x->block_id, others);
}

void ptx_select_cta(pctx *x, unsigned r)
{
    const pcta *c = &x->cta[r];
    x->cur = r;
    x->block_id = c->block_id;
    x->bx = c->bx, x->by = c->by, x->bz = c->bz;
    x->smem = c->smem;
}

uint64_t ptx_cluster_live(const pctx *x)
{
    uint64_t n = 0;
    unsigned wpb = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
    for (unsigned k = 0; k < wpb * x->ncta; k++) n += (unsigned)__builtin_popcount(x->warps[k].alive & ~x->warps[k].exited);
    return n;
}

/* The CTAs of cluster C (block C without clusters): clusters tile the grid,
 * rank r of a cluster at x + y * dimx + z * dimx * dimy within it. */
static void place_ctas(pctx *x, uint64_t c)
{
    x->cluster_id = c;
    for (unsigned r = 0; r < x->ncta; r++) {
        pcta *t = &x->cta[r];
        cluster_cta(x->grid, x->cdim, c, r, &t->bx, &t->by, &t->bz, &t->block_id);
        t->tma_loads = 0;
        memset(t->smem, 0, (size_t)x->smem_bytes);
    }
}

/* Open the bar.sync of every CTA all of whose warps left wait at it.
 * Returns how many warps it let go. */
static unsigned open_barriers(pctx *x, unsigned wpb)
{
    pwarp *all = x->warps;
    unsigned opened = 0;
    for (unsigned r = 0; r < x->ncta; r++) {
        pwarp *cw = all + (size_t)r * wpb;
        unsigned waiting = 0, live = 0;
        for (unsigned k = 0; k < wpb; k++) waiting += cw[k].state == W_BAR && !cw[k].bar_counted, live += cw[k].state != W_DONE;
        if (!live || waiting != live) continue;
        if (x->sb_on) {
            x->warps = cw;           /* the time model sees one block's warps */
            ptx_sched_barrier(x, wpb);
            x->warps = all;
        }
        for (unsigned k = 0; k < wpb; k++)
            if (cw[k].state == W_BAR && !cw[k].bar_counted) cw[k].state = W_RUN, opened++;
    }
    return opened;
}

int ptx_run_block(pctx *x, uint64_t b)
{
    const ptx_program *p = x->prog;
    const pfunc *entry = p->funcs[p->entry];
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
    x->sb_mbar.n = 0;
    sm_port_block(&x->sb_smport);
    memset(x->bar_arrived, 0, sizeof x->bar_arrived);
    cas_words_block(&x->cas);
    if (x->nwarps < nwarps) {
        pwarp *nw = realloc(x->warps, nwarps * sizeof *nw);
        if (!nw) return ptx_fail(x, NULL, "out of memory");
        memset(nw + x->nwarps, 0, (nwarps - x->nwarps) * sizeof *nw);
        x->warps = nw;
        x->nwarps = nwarps;
    }
    pwarp *warps = x->warps;
    int rc = 0;
    for (unsigned k = 0; k < nwarps && rc == 0; k++) {
        pwarp *w = &warps[k];
        w->depth = 0;
        w->exited = w->carry = 0;
        w->state = W_RUN;
        w->clock = 0;
        w->sb_t = w->sb_end = w->sb_quarters = 0;
        memset(w->sb_pq, 0, sizeof w->sb_pq);
        w->sb_iter = 0, w->sb_join = 0, w->sb_head = 0;
        memset(w->sb_ring, 0, sizeof w->sb_ring);
        w->sb_floor = w->sb_lds_ready = 0;
        w->sb_async = (async_groups){0};
        w->sb_gmma = (async_groups){0};
        w->async_open = 0;
        w->sb_stored[0] = w->sb_stored[1] = 0;
        w->index = k % wpb;
        w->cta = k / wpb;
        w->cl_arrived = 0;
        w->bar_counted = 0;
        w->gmma_done = 0;
        w->sb_tma = (tma_rounds){0};
        w->cas_extra = 0, w->cas_frac = 0;
        ptx_loop_block(w);
        ptx_select_cta(x, w->cta);
        if (w->local) memset(w->local, 0, (size_t)w->local_cap * 32);
        unsigned lanes = nthreads - w->index * 32 < 32 ? nthreads - w->index * 32 : 32;
        w->alive = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        pframe *fr = push_frame(x, w, entry, w->alive, 0);
        if (!fr) {
            rc = ptx_fail(x, NULL, "out of memory");
            break;
        }
        for (unsigned l = 0; l < 32; l++) memcpy(fr->params + (size_t)l * entry->param_bytes, x->kparams, entry->param_bytes);
        x->exec.warps_launched++;
    }
    x->exec.blocks += x->ncta;
    x->sb_bar = 0;
    /* turns until every warp is done; a barrier opens when every warp of
     * its CTA that is not done waits at it; a warp asleep at an mbarrier
     * (or barrier.cluster) tries again each turn, and a turn in which no
     * warp issued anything and no barrier opened is a deadlock */
    while (rc == 0) {
        unsigned waiting = 0, asleep = 0, live = 0;
        uint64_t issued = 0;
        for (unsigned k = 0; k < nwarps; k++) issued -= warps[k].clock;
        for (unsigned k = 0; k < nwarps && rc == 0; k++)
            if (warps[k].state == W_RUN) {
                if (x->ncta > 1) ptx_select_cta(x, warps[k].cta);
                rc = run_warp(x, &warps[k]);
            }
        if (rc) break;
        for (unsigned k = 0; k < nwarps; k++) {
            issued += warps[k].clock;
            waiting += warps[k].state == W_BAR;
            asleep += warps[k].state == W_WAIT;
            live += warps[k].state != W_DONE;
        }
        if (!live) break;
        unsigned opened = waiting ? open_barriers(x, wpb) : 0;
        if ((asleep || waiting) && !issued && !opened) {
            if (x->ncta > 1) ptx_select_cta(x, 0);
            rc = deadlock(x, warps, nwarps);
            break;
        }
        for (unsigned k = 0; asleep && k < nwarps; k++)
            if (warps[k].state == W_WAIT) warps[k].state = W_RUN;
    }
    if (rc == 0 && x->sb_on) {
        pwarp *all = x->warps;
        for (unsigned r = 0; r < x->ncta; r++) {
            x->warps = all + (size_t)r * wpb;
            ptx_sched_block_end(x, wpb);
        }
        x->warps = all;
    }
    return rc;
}

void ptx_ctx_free(pctx *x)
{
    ptx_loop_free(x);
    cas_words_free(&x->cas);
    for (unsigned k = 0; k < x->nwarps; k++) {
        pwarp *w = &x->warps[k];
        for (unsigned d = 0; d < PTX_MAX_DEPTH; d++) {
            free(w->frames[d].regs), free(w->frames[d].preds), free(w->frames[d].params), free(w->frames[d].stack);
            free(w->frames[d].sb);
        }
        free(w->local);
    }
    free(x->warps);
    x->warps = NULL;
    x->nwarps = 0;
    free(x->icount);
    x->icount = NULL;
    sm_port_free(&x->sb_smport);
    free(x->tma_merge);
    x->tma_merge = NULL;
    for (size_t k = 0; k < x->nmemo && x->memo; k++) free(x->memo[k]);
    free(x->memo);
    x->memo = NULL;
    x->nmemo = 0;
}

void ptx_request(const pctx *x, const pwarp *w, const pinst *in, coalsim_op op, coalsim_space sp, unsigned size,
                 uint32_t m, const uint64_t *a, coalsim_request *r)
{
    r->op = op;
    r->space = sp;
    r->size = size;
    r->block = x->block_id;
    r->warp = w->index;
    r->active = m;
    r->label = in->label;
    r->label_id = in->label_id;
    r->line = in->line;
    r->atomic_float = ptx_atomic_float(in, op);
    r->l2_only = (unsigned char)(op == COALSIM_LD && in->l2_only);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        r->addr[l] = a[l];
    }
}

int ptx_emit(pctx *x, const pwarp *w, const pinst *in, coalsim_op op, coalsim_space sp, unsigned size, uint32_t m,
             const uint64_t *a)
{
    coalsim_request r;
    ptx_request(x, w, in, op, sp, size, m, a, &r);
    if (in->sb_group > 1 && sp == COALSIM_SHARED && x->sb_on) ptx_sched_joined(x, in, &r);
    return ptx_put(x, w, in, &r);
}

int ptx_put_result(pctx *x, const coalsim_request *r, const coalsim_result *res)
{
    int rc = x->sink.put_modelled ? x->sink.put_modelled(x->sink.ctx, r, res) : x->sink.put(x->sink.ctx, r);
    if (rc != 0) {
        snprintf(x->err, sizeof x->err, "%s", "the analysis stopped (out of memory)");
        return -1;
    }
    return 0;
}

typedef struct ptx_memo {
    coalsim_request r;
    coalsim_result res;
} ptx_memo;

int ptx_put(pctx *x, const pwarp *w, const pinst *in, const coalsim_request *r)
{
    int rc;
    x->loop_seen++;
    const pfunc *fn = w->frames[w->depth - 1].fn;
    size_t k = (size_t)fn->count_base + (size_t)(in - fn->code);
    /* shared requests only: the bank model costs more than the comparison;
     * the global model's evenly spaced case costs less */
    if (r->space == COALSIM_SHARED && x->sink.put_modelled && x->memo && k < x->nmemo) {
        ptx_memo *mm = x->memo[k];
        if (!mm && !(mm = x->memo[k] = calloc(1, sizeof *mm))) {
            snprintf(x->err, sizeof x->err, "%s", "out of memory");
            return -1;
        }
        if (!coalsim_model_repeats(x->arch, &mm->r, r)) coalsim_model(x->arch, r, &mm->res);
        mm->r = *r;                 /* what the next one is compared with */
        if (x->sb_on && x->sb_smport.smem.room && ptx_sched_queued(in)) x->sb_smem_wf += mm->res.wavefronts;
        rc = x->sink.put_modelled(x->sink.ctx, r, &mm->res);
        if (w->loop_rec) ptx_loop_request(w, r, &mm->res);
    } else {
        if (r->space == COALSIM_SHARED && x->sb_on && x->sb_smport.smem.room && ptx_sched_queued(in) &&
            x->sink.put_modelled) {
            coalsim_result res;      /* modelled once, for the calendar and the sink */
            coalsim_model(x->arch, r, &res);
            x->sb_smem_wf += res.wavefronts;
            rc = x->sink.put_modelled(x->sink.ctx, r, &res);
            if (w->loop_rec) ptx_loop_request(w, r, &res);
        } else {
            rc = x->sink.put(x->sink.ctx, r);
            if (w->loop_rec && x->arch) {
                coalsim_result res;      /* what the iterations a jump skips will count */
                coalsim_model(x->arch, r, &res);
                ptx_loop_request(w, r, &res);
            }
        }
    }
    if (rc != 0) {
        snprintf(x->err, sizeof x->err, "%s", "the analysis stopped (out of memory)");
        return -1;
    }
    return 0;
}
