/* Loops sampled inside a block (issue 30; see ptx.h's ptx_loop_backedge).
 *
 * A grid-stride loop (reduce6: 8192 iterations a warp at 2^28 ints) costs
 * its block's whole run however few blocks a sample takes.  Once a warp has
 * run LOOP_WARM iterations of a loop whose control flow and addresses
 * follow induction variables, it jumps: those registers move on by K
 * iterations at once, and the K iterations count as K more of the one it
 * last ran, instruction by instruction.  Then it runs on, and the last
 * iterations (where a branch goes otherwise: the loop's exit, a bounds
 * check) run as they would.
 *
 * The loop qualifies (once, per back edge) when
 *   - its body has only data instructions, plain loads and stores (global,
 *     shared, local) and branches: no barrier, call, atomic, asynchronous
 *     copy or matrix instruction;
 *   - every register that a control decision or an address depends on
 *     anywhere in the function (the slice: addresses, the guards of memory
 *     instructions and branches, and what computes them, transitively) and
 *     that the body writes is made by integer add, sub, mul, mad, shl, mov,
 *     cvt or cvta, and every such predicate by an integer setp of one
 *     result;
 * and a warp jumps when, over its last three iterations,
 *   - each of those registers moved by the same amount both times (per lane),
 *     and each of those predicates kept its value;
 *   - every address moved by whole 128-byte lines (so each skipped
 *     request has the last one's sectors, lines and banks exactly);
 *   - the setps' operands, moving so, keep every predicate's value (and stay
 *     in their type's range) for more than LOOP_MARGIN + LOOP_MIN_JUMP
 *     further iterations: it jumps that far less LOOP_MARGIN.
 * What the jump adds: the instruction counts (per instruction), the memory
 * instructions' counts, and the skipped requests' own counts (requests,
 * threads, bytes, sectors, lines, wavefronts: the recorded iteration's, K
 * times; pctx.loop_skip), which the analysis adds per access
 * (coalsim_analysis_extrapolate_loops), with the sectors of stores whose
 * address moves (each stored line goes out once); and the warp's time on
 * the scoreboard, moved on by the iterations' mean.  What is not kept: the
 * values of the registers outside the slice (sums: a sampled launch's
 * results are not computed anyway), and the skipped requests' effect on
 * the caches, which the analysis extrapolates by access.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend/loopjump.h"
#include "ptx.h"

#define LOOP_WARM 3          /* iterations a warp runs (two deltas) before it may jump */
#define LOOP_MARGIN 2        /* iterations it runs before the first one where a branch goes otherwise */
#define LOOP_MIN_JUMP 8      /* a jump over fewer is not worth the bookkeeping */
#define LOOP_TRACE 2048      /* an iteration's instructions, at most */
#define LOOP_VARS 48         /* the slice's registers and predicates a body may write */
#define LOOP_LINE 128
#define LOOP_MOST ((int64_t)1 << 24)  /* iterations a jump skips at most (the next may skip more) */

typedef struct ploop_info {
    uint32_t head, tail;              /* the body: instructions head .. tail (the back edge) */
    uint32_t nv, np;
    uint32_t v[LOOP_VARS];            /* the slice's registers the body writes */
    uint8_t vbits[LOOP_VARS];         /* their width (bits) */
    uint32_t p[LOOP_VARS];            /* the slice's predicates the body writes */
    uint32_t psetp[LOOP_VARS];        /* and the setp that writes each */
} ploop_info;

typedef struct ploop_ent {
    uint32_t pc, mask, m;
    uint64_t c[LOOP_COUNTS];      /* its requests' counts (loopjump.h's LOOP_*) */
} ploop_ent;

typedef struct ploop {
    const pfunc *fn;
    uint32_t tail, depth, sp, mask;
    uint32_t iters;                   /* back edges in a row */
    uint32_t wait;                    /* back edges to let pass before trying again */
    unsigned fails;
    int bad;                          /* the iteration recorded (pwarp.loop_rec) left the body or was too long */
    uint32_t ntr;
    ploop_ent tr[LOOP_TRACE];
    uint64_t t[3];
    uint64_t snap[3][LOOP_VARS][32];
    uint32_t psnap[3][LOOP_VARS];
} ploop;

#define NEVER ((ploop_info *)1)

static int is_op(const pinst *in, const char *const *names)
{
    for (; *names; names++) {
        size_t n = strlen(*names);
        if (!strncmp(in->text, *names, n) && (in->text[n] == '.' || !in->text[n])) return 1;
    }
    return 0;
}

/* The function's slice (a bitset of its scoreboard slots: registers, then
 * predicates): what an address or a control decision depends on. */
static uint64_t *slice_of(pctx *x, const pfunc *f)
{
    if (f->index < 0 || (size_t)f->index >= x->loop_nfuncs) return NULL;
    if (x->loop_slice[f->index]) return x->loop_slice[f->index];
    uint32_t n = f->nslots + f->npreds, words = (n + 63) / 64;
    uint64_t *s = calloc(words ? words : 1, sizeof *s);
    if (!s) return NULL;
#define ADD(v) ((v) < n && !(s[(v) / 64] >> ((v) % 64) & 1) ? (s[(v) / 64] |= 1ull << ((v) % 64), changed = 1) : 0)
#define HAS(v) ((v) < n && (s[(v) / 64] >> ((v) % 64) & 1))
    int changed = 0;
    for (uint32_t i = 0; i < f->ncode; i++) {
        const pinst *in = &f->code[i];
        if (in->kind == K_OP) continue;
        if (in->guard >= 0) ADD(f->nslots + (uint32_t)in->guard);
        if (in->kind == K_MEM) {
            if (in->addr_slot != UINT32_MAX) ADD(in->addr_slot);
        } else if (in->kind != K_BRA && in->kind != K_NOP) {
            for (unsigned k = 0; k < in->sb_nsrc; k++) ADD(in->sb_src[k]);
        }
    }
    do {
        changed = 0;
        for (uint32_t i = 0; i < f->ncode; i++) {
            const pinst *in = &f->code[i];
            int in_slice = 0;
            for (unsigned k = 0; k < in->sb_ndst; k++) in_slice |= HAS(in->sb_dst[k]);
            if (!in_slice) continue;
            for (unsigned k = 0; k < in->sb_nsrc; k++) ADD(in->sb_src[k]);
            if (in->guard >= 0) ADD(f->nslots + (uint32_t)in->guard);
        }
    } while (changed);
    x->loop_slice[f->index] = s;
    return s;
}

/* The loop whose back edge is F's instruction TAIL, or NEVER. */
static const ploop_info *build(pctx *x, const pfunc *f, uint32_t tail)
{
    static const char *const affine[] = {"add", "sub", "mul", "mad", "shl", "mov", "cvt", "cvta", "neg", NULL};
    static const char *const plain[] = {"ld", "st", "ldu", NULL};
    static const char *const apart[] = {"wmma", "mma", "wgmma", "cp", "mbarrier", "ldmatrix", "stmatrix", "elect",
                                        "setmaxnreg", "fence", "griddepcontrol", "tcgen05", "membar", NULL};
    const pinst *b = &f->code[tail];
    uint64_t *s = slice_of(x, f);
    if (!s || b->target > tail) return NEVER;
    uint32_t n = f->nslots + f->npreds;
    ploop_info *li = calloc(1, sizeof *li);
    if (!li) return NEVER;
    li->head = b->target, li->tail = tail;
    for (uint32_t i = li->head; i <= tail; i++) {
        const pinst *in = &f->code[i];
        switch (in->kind) {
        case K_OP:
            if (is_op(in, apart) || (in->sb_flags & (SB_ASYNC | SB_ASYNC_COMMIT | SB_ASYNC_WAIT))) goto never;
            break;
        case K_MEM:
            if (!is_op(in, plain) || in->cs_space < 0 || ptx_sched_queued(in) || in->sb_group > 1 || in->space == SP_GENERIC ||
                (in->cs_space != COALSIM_GLOBAL && in->cs_space != COALSIM_SHARED && in->cs_space != COALSIM_LOCAL))
                goto never;
            break;
        case K_BRA: case K_NOP: break;
        default: goto never;
        }
        for (unsigned k = 0; k < in->sb_ndst; k++) {
            uint32_t d = in->sb_dst[k];
            if (d >= n || !HAS(d)) continue;
            if (d >= f->nslots) {
                /* a predicate: an integer setp's only result, unguarded */
                int cmp, sgn;
                unsigned bits;
                if (in->guard >= 0 || ptx_setp_int(in, &cmp, &bits, &sgn) != 0) goto never;
                uint32_t p = d - f->nslots, j = 0;
                while (j < li->np && li->p[j] != p) j++;
                if (j < li->np) goto never;             /* written twice in the body */
                if (li->np == LOOP_VARS) goto never;
                li->p[li->np] = p, li->psetp[li->np++] = i;
                continue;
            }
            /* mul.hi, add.sat and a float's conversion are not steps of a line */
            if (in->kind != K_OP || !is_op(in, affine) || ptype_float((ptype)in->type) ||
                ptype_float((ptype)in->type2) || (in->flags & (PF_HI | PF_SAT)))
                goto never;
            unsigned bits = 8 * ptype_bytes((ptype)in->type);
            if (in->flags & PF_WIDE) bits *= 2;
            if (!bits || bits > 64) bits = 64;
            uint32_t j = 0;
            while (j < li->nv && li->v[j] != d) j++;
            if (j == li->nv) {
                if (li->nv == LOOP_VARS) goto never;
                li->v[li->nv] = d, li->vbits[li->nv++] = (uint8_t)bits;
            } else if (bits > li->vbits[j]) {
                li->vbits[j] = (uint8_t)bits;
            }
        }
    }
    return li;
never:
    free(li);
    return NEVER;
#undef ADD
#undef HAS
}

static const ploop_info *info_of(pctx *x, const pfunc *f, uint32_t pc)
{
    size_t ci = (size_t)f->count_base + pc;
    if (ci >= x->nmemo) return NULL;
    if (!x->loop_info[ci]) x->loop_info[ci] = (ploop_info *)build(x, f, pc);
    return x->loop_info[ci] == NEVER ? NULL : x->loop_info[ci];
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The delta of variable J of LI on lane L over the last iteration (DELTA)
 * or 0 for a slot the body does not write. */
static int var_index(const ploop_info *li, uint32_t slot)
{
    for (uint32_t j = 0; j < li->nv; j++)
        if (li->v[j] == slot) return (int)j;
    return -1;
}

/* How many iterations warp W may jump now (0: none), its registers'
 * deltas into D. */
static int64_t plan(const pwarp *w, const ploop *lp, const ploop_info *li, uint64_t (*d)[32])
{
    const pframe *fr = &w->frames[w->depth - 1];
    const pfunc *f = fr->fn;
    unsigned a = (lp->iters - 3) % 3, b = (lp->iters - 2) % 3, c = (lp->iters - 1) % 3;
    uint32_t mask = lp->mask;
    for (uint32_t j = 0; j < li->nv; j++) {
        uint64_t mk = loop_mask_of(li->vbits[j]);
        for (uint32_t mm = mask; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t d1 = (lp->snap[b][j][l] - lp->snap[a][j][l]) & mk, d2 = (lp->snap[c][j][l] - lp->snap[b][j][l]) & mk;
            if (d1 != d2) return 0;
            d[j][l] = d2;
        }
    }
    for (uint32_t j = 0; j < li->np; j++)
        if (((lp->psnap[a][j] ^ lp->psnap[b][j]) | (lp->psnap[b][j] ^ lp->psnap[c][j])) & mask) return 0;
    /* addresses move by whole lines */
    for (uint32_t e = 0; e < lp->ntr; e++) {
        const pinst *in = &f->code[lp->tr[e].pc];
        if (in->kind != K_MEM || !lp->tr[e].m) continue;
        int j = in->addr_slot == UINT32_MAX ? -1 : var_index(li, in->addr_slot);
        for (uint32_t mm = j < 0 ? 0 : lp->tr[e].m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if ((int64_t)(loop_value_of(d[j][l], li->vbits[j], 1) % LOOP_LINE)) return 0;
        }
    }
    /* how long every predicate keeps its value */
    int64_t t = LOOP_FAR;
    for (uint32_t j = 0; j < li->np; j++) {
        const pinst *s = &f->code[li->psetp[j]];
        uint32_t m = 0;
        for (uint32_t e = 0; e < lp->ntr; e++)
            if (lp->tr[e].pc == li->psetp[j]) m |= lp->tr[e].m;
        if (!m) continue;               /* not run in these iterations, nor in the ones skipped */
        int cmp, sgn;
        unsigned bits;
        if (ptx_setp_int(s, &cmp, &bits, &sgn) != 0) return 0;
        int ja = var_index(li, s->a), jb = var_index(li, s->b);
        const uint64_t *A = fr->regs + (size_t)s->a * 32, *B = fr->regs + (size_t)s->b * 32;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            __int128 da = ja < 0 ? 0 : loop_value_of(d[ja][l], li->vbits[ja], 1);
            __int128 db = jb < 0 ? 0 : loop_value_of(d[jb][l], li->vbits[jb], 1);
            t = min64(t, loop_flips(cmp, bits, sgn, loop_value_of(A[l], bits, sgn), da, loop_value_of(B[l], bits, sgn), db));
        }
    }
    if (t >= LOOP_FAR || t <= LOOP_MARGIN + LOOP_MIN_JUMP) return 0;    /* no exit in sight: run it */
    /* a jump at a time keeps the scoreboard's cycles within their 40 bits */
    return t - LOOP_MARGIN < LOOP_MOST ? t - LOOP_MARGIN : LOOP_MOST;
}

/* Whether store IN's address moves from iteration to iteration on a lane
 * of M (its skipped stores then write lines of their own). */
static int stores_move(const ploop_info *li, const pinst *in, uint32_t m, uint64_t (*d)[32])
{
    int j = in->addr_slot == UINT32_MAX ? -1 : var_index(li, in->addr_slot);
    for (uint32_t mm = j < 0 ? 0 : m; mm; mm &= mm - 1)
        if (d[j][__builtin_ctz(mm)] & loop_mask_of(li->vbits[j])) return 1;
    return 0;
}

/* Move warp W on by K iterations of the last one. */
static void jump(pctx *x, pwarp *w, ploop *lp, const ploop_info *li, int64_t k, uint64_t (*d)[32])
{
    pframe *fr = &w->frames[w->depth - 1];
    const pfunc *f = fr->fn;
    uint64_t uk = (uint64_t)k;
    for (uint32_t j = 0; j < li->nv; j++) {
        uint64_t *R = fr->regs + (size_t)li->v[j] * 32, mk = loop_mask_of(li->vbits[j]);
        for (uint32_t mm = lp->mask; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t old = R[l], low = (old + uk * d[j][l]) & mk, up = old & ~mk;
            /* the upper bits as the handlers leave them: zero, the sign, or as they were */
            if (mk != ~0ull && up == (~mk & (uint64_t)-(int64_t)(old >> (li->vbits[j] - 1) & 1)) && up)
                R[l] = low | (~mk & (uint64_t)-(int64_t)(low >> (li->vbits[j] - 1) & 1));
            else
                R[l] = up | low;
        }
    }
    /* the counts of the iterations skipped: the last one's, K times */
    uint64_t *ic = x->icount + 2 * (size_t)f->count_base;
    for (uint32_t e = 0; e < lp->ntr; e++) {
        const ploop_ent *t = &lp->tr[e];
        const pinst *in = &f->code[t->pc];
        ic[2 * t->pc] += uk;
        ic[2 * t->pc + 1] += uk * (uint64_t)__builtin_popcount(t->mask);
        if (in->kind == K_MEM && in->cs_space >= 0) {
            x->exec.inst_mem[in->cs_space][in->cs_op] += uk;
            if (!t->m) x->exec.mem_inactive += uk;
        }
        uint64_t *sk = &x->loop_skip[LOOP_COUNTS * ((size_t)f->count_base + t->pc)];
        for (int c = 0; c < LOOP_WRITTEN; c++) sk[c] += uk * t->c[c];
        if (in->kind == K_MEM && in->cs_op == COALSIM_ST && t->m && stores_move(li, in, t->m, d))
            sk[LOOP_WRITTEN] += uk * t->c[LOOP_SECTORS];
        /* as a sample's windows count them (grid.c's tally) */
        x->loop_fig[0] += (double)k * (double)t->c[LOOP_REQUESTS];
        if (coalsim_space_has_sectors((coalsim_space)in->cs_space)) x->loop_fig[1] += (double)k * (double)t->c[LOOP_SECTORS];
        else if (in->cs_space == COALSIM_SHARED) x->loop_fig[2] += (double)k * (double)t->c[LOOP_WAVEFRONTS];
        if (x->sb_on) {
            unsigned c = in->sb_cls;
            x->sb_count[c] += uk;
            w->sb_quarters += uk * x->sb_quarters[c];
            for (int p = 0; p < COALSIM_PIPES; p++) w->sb_pq[p] += uk * x->sb_pipe_q[c][p];
            /* a branch ptxas predicates, taken: what it jumped over still issues */
            if (in->kind == K_BRA && (in->sb_flags & SB_IFCONV) && e + 1 < lp->ntr && lp->tr[e + 1].pc == in->target)
                for (uint32_t i = t->pc + 1; i < in->target && i < f->ncode; i++) {
                    unsigned c2 = f->code[i].sb_cls;
                    if (f->code[i].kind == K_MEM && f->code[i].cs_space >= 0) x->exec.mem_inactive += uk;
                    x->sb_count[c2] += uk;
                    w->sb_quarters += uk * x->sb_quarters[c2];
                    for (int p = 0; p < COALSIM_PIPES; p++) w->sb_pq[p] += uk * x->sb_pipe_q[c2][p];
                }
        }
    }
    w->clock += uk * lp->ntr;
    w->sb_iter += (unsigned)uk;
    x->loop_jumps++;
    x->loop_iters += uk;
    x->loop_insts += uk * lp->ntr;
    if (!x->sb_on) return;
    /* the warp's time: on by the iterations' mean (cycles and loads on the path apart) */
    unsigned a = (lp->iters - 3) % 3, c = (lp->iters - 1) % 3;
    uint64_t cyc = ((lp->t[c] >> 24) - (lp->t[a] >> 24)) / 2, loads = ((lp->t[c] & PTX_SB_LOADS_MASK) - (lp->t[a] & PTX_SB_LOADS_MASK)) / 2;
    if (lp->t[c] < lp->t[a]) return;
    uint64_t by = (uk * cyc << 24) + uk * loads;
    w->sb_t += by, w->sb_end += by, w->sb_floor += by, w->sb_lds_ready += by;
    w->sb_stored[0] += by, w->sb_stored[1] += by;
    for (unsigned i = 0; i < PTX_HOIST; i++) w->sb_ring[i] += by;
    for (uint32_t i = 0; i < f->nslots + f->npreds && fr->sb; i++) fr->sb[i] += by;
}

/* ---- the warp's side ---- */

static uint64_t warp_time(const pwarp *w) { return w->sb_t > w->sb_end ? w->sb_t : w->sb_end; }

int ptx_loop_backedge(pctx *x, pwarp *w, uint32_t pc)
{
    pframe *fr = &w->frames[w->depth - 1];
    const pfunc *f = fr->fn;
    const ploop_info *li = info_of(x, f, pc);
    if (!li) return 0;
    ploop *lp = w->loop;
    if (!lp && !(lp = w->loop = calloc(1, sizeof *lp))) return ptx_fail(x, &f->code[pc], "out of memory");
    uint32_t mask = fr->stack[fr->sp - 1].mask;
    if (lp->fn != f || lp->tail != pc || lp->depth != w->depth || lp->sp != fr->sp || lp->mask != mask) {
        lp->fn = f, lp->tail = pc, lp->depth = w->depth, lp->sp = fr->sp, lp->mask = mask;
        lp->iters = lp->wait = lp->fails = 0;
    } else if (lp->bad || (lp->iters && !w->loop_rec)) {
        lp->iters = 0;
    }
    w->loop_rec = 0;
    if (lp->wait) {
        lp->wait--;
        lp->iters = 0;
        return 0;
    }
    unsigned s = lp->iters % 3;
    for (uint32_t j = 0; j < li->nv; j++) memcpy(lp->snap[s][j], fr->regs + (size_t)li->v[j] * 32, sizeof lp->snap[s][j]);
    for (uint32_t j = 0; j < li->np; j++) lp->psnap[s][j] = fr->preds[li->p[j]];
    lp->t[s] = warp_time(w);
    lp->iters++;
    if (lp->iters >= LOOP_WARM) {
        uint64_t d[LOOP_VARS][32];
        int64_t k = plan(w, lp, li, d);
        if (k > 0) {
            jump(x, w, lp, li, k, d);
            lp->iters = 0;
            return 0;
        }
        /* not yet (or not here): try again after a while, less often each time */
        lp->wait = loop_back_off(&lp->fails);
        lp->iters = 0;
        return 0;
    }
    w->loop_rec = 1, lp->bad = 0, lp->ntr = 0;
    return 0;
}

void ptx_loop_note_slow(pwarp *w, uint32_t pc, uint32_t mask, uint32_t m)
{
    ploop *lp = w->loop;
    if (w->depth != lp->depth || pc < lp->fn->code[lp->tail].target || pc > lp->tail || lp->ntr == LOOP_TRACE) {
        lp->bad = 1;
        w->loop_rec = 0;
        return;
    }
    lp->tr[lp->ntr++] = (ploop_ent){.pc = pc, .mask = mask, .m = m};
}

void ptx_loop_request(const pwarp *w, const coalsim_request *r, const coalsim_result *res)
{
    ploop *lp = w->loop;
    (void)r;
    if (lp->ntr) loop_count_request(lp->tr[lp->ntr - 1].c, res);
}

void ptx_loop_block(pwarp *w)
{
    w->loop_rec = 0;
    if (!w->loop) return;
    w->loop->fn = NULL;
    w->loop->iters = 0;
}

void ptx_loop_free(pctx *x)
{
    for (size_t i = 0; x->loop_info && i < x->nmemo; i++)
        if (x->loop_info[i] != NEVER) free(x->loop_info[i]);
    free(x->loop_info);
    for (size_t i = 0; x->loop_slice && i < x->loop_nfuncs; i++) free(x->loop_slice[i]);
    free(x->loop_slice);
    free(x->loop_skip);
    x->loop_info = NULL, x->loop_slice = NULL, x->loop_skip = NULL;
    for (unsigned k = 0; k < x->nwarps && x->warps; k++) {
        free(x->warps[k].loop);
        x->warps[k].loop = NULL;
    }
}

int ptx_loop_setup(pctx *x, size_t nfuncs)
{
    x->loop_nfuncs = nfuncs;
    x->loop_info = calloc(x->nmemo + 1, sizeof *x->loop_info);
    x->loop_slice = calloc(nfuncs + 1, sizeof *x->loop_slice);
    x->loop_skip = calloc(LOOP_COUNTS * (x->nmemo + 1), sizeof *x->loop_skip);
    if (!x->loop_info || !x->loop_slice || !x->loop_skip) return -1;
    x->loop_on = 1;
    return 0;
}
