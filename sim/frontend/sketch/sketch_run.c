/* Kernel sketches: running a block, warp by warp, statement by statement,
 * each statement for all the warp's active lanes at once (the SIMT model:
 * a divergent if runs both parts under masks, a loop goes round while any
 * lane is in it).  An access becomes a request that is grouped with the
 * requests before it exactly as a reader of the sketch's trace would group
 * its records (same op, space, size, label, block and warp; a lane seen again
 * starts the next request), and numbered with the trace line of its first
 * record.
 *
 * Errors: when the vector code, a bounds check or the record limit sees
 * that some lane fails, the statement is gone through again lane by lane
 * with sk_eval, in the order the language defines, to name the first error. */
#include <stdlib.h>
#include <string.h>

#include "popcount.h"
#include "sketch.h"

struct sk_worker {
    const coalsim_sketch *sk;
    sk_err er;
    int64_t (*var)[SK_W];         /* variables, params set once */
    int64_t (*temp)[SK_W];
    int64_t (*uni)[SK_W];         /* the block prologue's values */
    int64_t bid[3][SK_W];         /* blockIdx, the same in every lane */
    int64_t bidx[3];
    sk_slots slots;
    unsigned tid0;                /* thread of lane 0 of the warp running */
    uint64_t block;               /* linear block number */
    /* requests */
    coalsim_sink sink;
    unsigned ws;                  /* the reader's warp size, 0: as executed */
    coalsim_request req[2];       /* the pending one (cur, if have) and the next */
    coalsim_request raw;          /* an access before it is cut into the reader's warps */
    int cur, have;
    uint64_t line;                /* of the next record */
    uint64_t records, max_records;
};

sk_worker *sk_worker_new(const coalsim_sketch *sk, unsigned warp_size, uint64_t max_records)
{
    sk_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    uint32_t nslots = SK_SLOT_UNI(sk) + sk->nuni;
    w->sk = sk;
    w->ws = warp_size;
    w->max_records = max_records;
    w->var = calloc((size_t)sk->nvars + 1, sizeof *w->var);
    w->temp = calloc((size_t)sk->ntemps + 1, sizeof *w->temp);
    w->uni = calloc((size_t)sk->nuni + 1, sizeof *w->uni);
    w->slots.slot = calloc(nslots, sizeof *w->slots.slot);
    w->slots.mask = calloc((size_t)sk->nmasks + 1, sizeof *w->slots.mask);
    if (!w->var || !w->temp || !w->uni || !w->slots.slot || !w->slots.mask) {
        sk_worker_free(w);
        return NULL;
    }
    for (int v = 0; v < sk->nvars; v++) {
        w->slots.slot[v] = w->var[v];
        if (sk->is_param[v])
            for (int l = 0; l < SK_W; l++) w->var[v][l] = sk->param[v];
    }
    for (uint32_t k = 0; k < 3; k++) w->slots.slot[SK_SLOT_BID(sk) + k] = w->bid[k];
    for (uint32_t k = 0; k < sk->nkonst; k++) w->slots.slot[SK_SLOT_KONST(sk) + k] = (int64_t *)sk->konst[k];
    for (uint32_t k = 0; k < sk->ntemps; k++) w->slots.slot[SK_SLOT_TEMP(sk) + k] = w->temp[k];
    for (uint32_t k = 0; k < sk->nuni; k++) w->slots.slot[SK_SLOT_UNI(sk) + k] = w->uni[k];
    w->line = 1;
    return w;
}

void sk_worker_free(sk_worker *w)
{
    if (!w) return;
    free(w->var);
    free(w->temp);
    free(w->uni);
    free(w->slots.slot);
    free(w->slots.mask);
    free(w);
}

void sk_worker_lines(sk_worker *w, uint64_t first) { w->line = first; }
uint64_t sk_worker_records(const sk_worker *w) { return w->records; }

/* ---- errors, lane by lane ---- */

static sk_view view(const sk_worker *w)
{
    return (sk_view){w->sk, w->var, {w->bidx[0], w->bidx[1], w->bidx[2]}, w->tid0};
}

/* E for the lanes of MASK in order: the first error. */
static int replay_expr(sk_worker *w, int line, const sk_expr *e, uint32_t mask)
{
    sk_view v = view(w);
    int64_t x;
    for (uint32_t m = mask; m; m &= m - 1)
        if (sk_eval(&v, e, __builtin_ctz(m), &x, &w->er)) return -1;
    return sk_fail(&w->er, line, 0, "internal error: the lanes disagree on an error");
}

/* An access for the lanes of MASK in order: indices, bounds, the record limit. */
static int replay_access(sk_worker *w, const sk_stmt *t, uint32_t mask)
{
    const coalsim_sketch *sk = w->sk;
    const sk_array *a = &sk->arr[t->arr];
    sk_view v = view(w);
    uint64_t records = w->records;
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (int k = 0; k < t->nidx; k++) {
            int64_t x;
            if (sk_eval(&v, t->idx[k], l, &x, &w->er)) return -1;
            if (x < 0 || x >= a->dims[k])
                return sk_fail(&w->er, t->line, t->idxcol[k],
                               "index %lld is outside %s's dimension %d of %lld (thread %u of block %lld)", (long long)x,
                               a->name, k + 1, (long long)a->dims[k], w->tid0 + (unsigned)l, (long long)w->block);
        }
        if (w->max_records && records == w->max_records)
            return sk_fail(&w->er, t->line, 0, "the sketch makes more than %llu records",
                           (unsigned long long)w->max_records);
        records++;
    }
    return sk_fail(&w->er, t->line, 0, "internal error: the lanes disagree on an error");
}

/* ---- requests ---- */

static int put(sk_worker *w, const coalsim_request *r)
{
    if (w->sink.put(w->sink.ctx, r) != 0) {
        w->er.failed = 1;                        /* the sink's own error stands */
        return -1;
    }
    return 0;
}

/* S (the spare buffer), whose first record is at LINE, joins the pending
 * request record by record, as a reader would, up to a lane the pending one
 * has already; from there it starts the next request. */
static int merge(sk_worker *w, coalsim_request *s, uint64_t line)
{
    coalsim_request *p = &w->req[w->cur];
    uint32_t m = s->active;
    if (w->have && p->label == s->label && p->block == s->block && p->warp == s->warp && p->op == s->op &&
        p->space == s->space && p->size == s->size) {
        uint32_t seen = p->active & m;
        uint32_t join = seen ? m & ((1u << __builtin_ctz(seen)) - 1) : m;
        for (uint32_t j = join; j; j &= j - 1) p->addr[__builtin_ctz(j)] = s->addr[__builtin_ctz(j)];
        p->active |= join;
        if (!seen) return 0;
        if (put(w, p)) return -1;
        s->active = m & ~join;
        s->line = line + popcount32(join);
    } else {
        if (w->have && put(w, p)) return -1;
        s->line = line;
        w->have = 1;
    }
    w->cur ^= 1;
    return 0;
}

/* The access in RAW (a 32-lane sketch warp) cut into the reader's warps of
 * WS lanes, each piece merged in turn. */
static int merge_cut(sk_worker *w, const coalsim_request *raw)
{
    uint64_t t0 = w->tid0, ws = w->ws, line = w->line;
    for (uint64_t rw = t0 / ws; rw * ws < t0 + SK_W; rw++) {
        coalsim_request *s = &w->req[w->cur ^ 1];
        int64_t off = (int64_t)(rw * ws) - (int64_t)t0;        /* the sketch lane of reader lane 0 */
        uint32_t m = 0;
        for (unsigned rl = 0; rl < ws; rl++) {
            int64_t l = off + rl;
            if (l < 0 || l >= SK_W || !(raw->active >> l & 1)) continue;
            m |= 1u << rl;
            s->addr[rl] = raw->addr[l];
        }
        if (!m) continue;
        s->op = raw->op, s->space = raw->space, s->size = raw->size, s->label = raw->label, s->atomic_float = 0;
        s->l2_only = 0;
        s->block = raw->block, s->warp = rw, s->active = m;
        if (merge(w, s, line)) return -1;
        line += popcount32(m);
    }
    return 0;
}

/* The lanes with an index outside A's dimensions. */
static uint32_t lanes_outside(const sk_array *a, const int64_t *const *x, int nidx)
{
    uint32_t bad = 0;
    for (int k = 0; k < nidx; k++)
        for (int l = 0; l < SK_W; l++) bad |= (uint32_t)((uint64_t)x[k][l] >= (uint64_t)a->dims[k]) << l;
    return bad;
}

static int access(sk_worker *w, const sk_stmt *t, uint32_t mask)
{
    const coalsim_sketch *sk = w->sk;
    const sk_array *a = &sk->arr[t->arr];
    const int64_t *x[SK_MAXDIMS];
    uint64_t outside = 0;                        /* some lane's index is outside (maybe an inactive lane's) */
    for (int k = 0; k < t->nidx; k++) {
        if (sk_vm(sk, &w->slots, &t->c_idx[k], mask)) return replay_access(w, t, mask);
        x[k] = w->slots.slot[t->c_idx[k].slot];
        uint64_t dim = (uint64_t)a->dims[k];
        for (int l = 0; l < SK_W; l++) outside |= (uint64_t)x[k][l] >= dim;
    }
    unsigned n = popcount32(mask);
    if ((outside && lanes_outside(a, x, t->nidx) & mask) || (w->max_records && w->records + n > w->max_records))
        return replay_access(w, t, mask);
    coalsim_request *s = w->ws == SK_W || !w->ws ? &w->req[w->cur ^ 1] : &w->raw;
    uint64_t off[SK_W], base = a->base;
    unsigned sh = (unsigned)__builtin_ctz(a->size);   /* 1 to 16 bytes: a shift */
    for (int l = 0; l < SK_W; l++) off[l] = (uint64_t)x[0][l];
    for (int k = 1; k < t->nidx; k++)
        for (int l = 0; l < SK_W; l++) off[l] = off[l] * (uint64_t)a->dims[k] + (uint64_t)x[k][l];
    for (int l = 0; l < SK_W; l++) s->addr[l] = base + (off[l] << sh);
    if (a->check_shared)
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (s->addr[l] > 0xffffffffull - (a->size - 1))
                return sk_fail(&w->er, t->line, 0,
                               "shared address 0x%llx is beyond the 4 GiB shared window (thread %u of block %lld)",
                               (unsigned long long)s->addr[l], w->tid0 + (unsigned)l, (long long)w->block);
        }
    unsigned size = a->size;
    if (t->op == COALSIM_LDSM || t->op == COALSIM_STSM) {
        /* a lane gives the address of a 16-byte row (ldmatrix / stmatrix): aligned, inside the array */
        uint64_t bytes = a->size;
        for (int k = 0; k < a->ndims; k++) bytes *= (uint64_t)a->dims[k];
        size = 16;
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (s->addr[l] % 16 || s->addr[l] - base + 16 > bytes)
                return sk_fail(&w->er, t->line, 0, "%s row at 0x%llx is not 16 aligned bytes inside %s (thread %u of block %lld)",
                               t->op == COALSIM_LDSM ? "ldsm" : "stsm", (unsigned long long)s->addr[l], a->name,
                               w->tid0 + (unsigned)l, (long long)w->block);
        }
    }
    s->op = t->op, s->space = a->space, s->size = size, s->label = t->ulabel, s->atomic_float = 0;
    s->l2_only = 0;
    s->block = w->block, s->warp = w->tid0 / SK_W, s->active = mask;
    int rc;
    if (w->ws == SK_W) {
        rc = merge(w, s, w->line);
    } else if (w->ws) {
        rc = merge_cut(w, s);
    } else {
        s->line = w->line;                       /* as executed */
        rc = put(w, s);
    }
    w->line += n;
    w->records += n;
    return rc;
}

/* ---- statements ---- */

/* D = S in the lanes of MASK. */
static void store(int64_t *d, const int64_t *s, uint32_t mask)
{
    if (d == s) return;                          /* x = x */
    if (mask == 0xffffffffu) {
        memcpy(d, s, SK_W * sizeof *d);
        return;
    }
    for (int l = 0; l < SK_W; l++) d[l] = (mask >> l & 1) ? s[l] : d[l];
}

static int run(sk_worker *w, int from, int to, uint32_t *mask);

static int run_for(sk_worker *w, const sk_stmt *t, uint32_t *mask)
{
    const coalsim_sketch *sk = w->sk;
    int64_t **slot = w->slots.slot;
    uint32_t live = *mask;
    if (sk_vm(sk, &w->slots, &t->c_init, live)) return replay_expr(w, t->line, t->init, live);
    store(w->var[t->var], slot[t->c_init.slot], live);
    for (unsigned long trips = 0;; trips++) {
        if (sk_vm(sk, &w->slots, &t->c_e, live)) return replay_expr(w, t->line, t->e, live);
        uint32_t go = sk_nonzero(slot[t->c_e.slot]) & live;
        if (!go) return 0;
        if (trips > SK_MAXTRIPS) return sk_fail(&w->er, t->line, 0, "the loop runs more than a million times in one warp");
        uint32_t before = go;
        if (run(w, t->body, t->body_end, &go)) return -1;
        *mask &= ~(before & ~go);                /* returned inside the loop */
        live = go;
        if (sk_vm(sk, &w->slots, &t->c_step, live)) return replay_expr(w, t->line, t->step, live);
        store(w->var[t->var], slot[t->c_step.slot], live);
    }
}

/* Statements [from, to) for the lanes in *mask; lanes that return leave it. */
static int run(sk_worker *w, int from, int to, uint32_t *mask)
{
    const coalsim_sketch *sk = w->sk;
    for (int i = from; i < to && *mask;) {
        const sk_stmt *t = &sk->st[i];
        switch (t->kind) {
        case S_ASSIGN:
            if (sk_vm(sk, &w->slots, &t->c_e, *mask)) return replay_expr(w, t->line, t->e, *mask);
            store(w->var[t->var], w->slots.slot[t->c_e.slot], *mask);
            i++;
            break;
        case S_SYNC: i++; break;
        case S_RETURN: *mask = 0; return 0;
        case S_ACCESS:
            if (access(w, t, *mask)) return -1;
            i++;
            break;
        case S_IF: {
            if (sk_vm(sk, &w->slots, &t->c_e, *mask)) return replay_expr(w, t->line, t->e, *mask);
            uint32_t yes = sk_nonzero(w->slots.slot[t->c_e.slot]) & *mask, no = *mask & ~yes;
            int mid = t->else_start >= 0 ? t->else_start : t->body_end;
            uint32_t y0 = yes, n0 = no;
            if (yes && run(w, t->body, mid, &yes)) return -1;
            if (no && t->else_start >= 0 && run(w, t->else_start, t->body_end, &no)) return -1;
            *mask &= ~((y0 & ~yes) | (n0 & ~no));   /* lanes that returned inside leave the kernel */
            i = t->body_end;
            break;
        }
        case S_FOR:
            if (run_for(w, t, mask)) return -1;
            i = t->body_end;
            break;
        }
    }
    return 0;
}

int sk_run_block(sk_worker *w, uint64_t b, coalsim_sink sink, char *err, size_t cap)
{
    const coalsim_sketch *sk = w->sk;
    uint64_t gx = (uint64_t)sk->grid[0], gxy = gx * (uint64_t)sk->grid[1];
    w->er = (sk_err){sk->name, err, cap, 0};
    w->sink = sink;
    w->block = b;
    w->bidx[0] = (int64_t)(b % gx), w->bidx[1] = (int64_t)(b / gx % (uint64_t)sk->grid[1]), w->bidx[2] = (int64_t)(b / gxy);
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < SK_W; l++) w->bid[k][l] = w->bidx[k];
    sk_vm(sk, &w->slots, &sk->prologue, 0xffffffffu);   /* cannot fail: nothing there can */
    for (unsigned wp = 0; wp < sk->warps; wp++) {
        w->tid0 = wp * SK_W;
        unsigned left = sk->threads - w->tid0;
        uint32_t mask = left >= SK_W ? 0xffffffffu : (1u << left) - 1;
        for (int v = 0; v < sk->nvars; v++)         /* variables start at 0 in every warp */
            if (sk->reset[v]) memset(w->var[v], 0, sizeof w->var[v]);
        for (uint32_t k = 0; k < 3; k++) w->slots.slot[SK_SLOT_TID(sk) + k] = sk->tid[wp][k];
        if (run(w, 0, sk->nst, &mask)) {
            w->have = 0;
            return -1;
        }
    }
    if (w->have && put(w, &w->req[w->cur])) {
        w->have = 0;
        return -1;
    }
    w->have = 0;
    return 0;
}
