/* Memory instructions: ld, st, atom, red on every state space, the generic
 * address windows (cvta, isspacep), and the requests they make.  A vector
 * access (.v2, .v4) is one request of its whole width, as on the GPU.  A
 * misaligned address, or one outside every buffer, the shared memory or a
 * thread's local memory, stops the kernel with an error, as it would the
 * GPU. */
#include <math.h>
#include <string.h>

#include "frontend/kernel/fbits.h"
#include "ptx.h"

#define HANDLER(name) static int name(pctx *x, pwarp *w, const pinst *in, uint32_t m)

/* where local addresses are reported: word w of lane l at + (w * 32 + l) * 4 */
#define LOCAL_REPORT 0x0000600000000000ull


/* One lane's place: where its bytes are and how it is reported. */
typedef struct {
    unsigned char *p;
    uint64_t report;
    int space;                 /* coalsim space, or -1 for param */
    int remote;                /* shared memory of another CTA of the cluster */
} place;

/* Resolve lane L's address A of SIZE bytes in space SP.  0, or -1 with the
 * error in X. */
static int locate(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, unsigned size, int l, place *pl)
{
    if (a % size)
        return ptx_fail(x, in, "misaligned address 0x%llx for a %u-byte access (lane %d, warp %u)",
                        (unsigned long long)a, size, l, w->index);
    int kernel_param = 0;
    if (sp == SP_GENERIC) {
        if (a - GEN_SHARED < GEN_WINDOW) sp = SP_SHARED, a -= GEN_SHARED;
        else if (a - GEN_LOCAL < GEN_WINDOW) sp = SP_LOCAL, a -= GEN_LOCAL;
        else if (a - GEN_CONST < GEN_WINDOW) sp = SP_CONST, a -= GEN_CONST;
        else if (a - GEN_PARAM < GEN_WINDOW) sp = SP_PARAM, a -= GEN_PARAM, kernel_param = 1;
        else sp = SP_GLOBAL;
    }
    switch (sp) {
    case SP_GLOBAL: {
        uint64_t pn = a / KMEM_PAGE;
        unsigned ti = (unsigned)(pn % KMEM_TLB);
        unsigned char *page;
        if (x->tlb.tag[ti] == pn + 1) {
            page = x->tlb.page[ti];
        } else {
            int oom = 0;
            page = kmem_page(x->mem, &x->tlb, a, &oom);
            if (!page)
                return ptx_fail(x, in, oom ? "out of memory" : "global address 0x%llx is outside every buffer (lane %d, warp %u)",
                                (unsigned long long)a, l, w->index);
        }
        if (a < x->tlb.lo[ti] || a + size > x->tlb.hi[ti])
            return ptx_fail(x, in, "global address 0x%llx is outside every buffer (lane %d, warp %u)",
                            (unsigned long long)a, l, w->index);
        pl->p = page + a % KMEM_PAGE;
        pl->report = a;
        pl->space = COALSIM_GLOBAL;
        return 0;
    }
    case SP_SHARED: {
        uint8_t *base = x->smem;
        uint64_t off = a;
        if (a >> CL_SHIFT) {
            /* another CTA's shared memory (.shared::cluster, mapa) */
            uint64_t r = (a >> CL_SHIFT) - 1;
            if (r >= x->ncta)
                return ptx_fail(x, in, "shared::cluster address 0x%llx is in the CTA of rank %llu; the cluster has %u "
                                "(lane %d, warp %u)", (unsigned long long)a, (unsigned long long)r, x->ncta, l, w->index);
            base = x->cta[r].smem;
            off = CL_OFFSET(a);
            pl->remote = r != x->cur;
        }
        if (off >= x->smem_bytes || x->smem_bytes - off < size)
            return ptx_fail(x, in, "shared address 0x%llx is beyond the block's %llu bytes of shared memory (lane %d, warp %u)",
                            (unsigned long long)a, (unsigned long long)x->smem_bytes, l, w->index);
        pl->p = base + off;
        pl->report = a;
        pl->space = COALSIM_SHARED;
        return 0;
    }
    case SP_LOCAL:
        if (a >= w->local_cap || w->local_cap - a < size)
            return ptx_fail(x, in, "local address 0x%llx is beyond the thread's local memory (lane %d, warp %u)",
                            (unsigned long long)a, l, w->index);
        pl->p = w->local + (size_t)l * w->local_cap + a;
        pl->report = LOCAL_REPORT + a / size * 32 * size + (uint64_t)l * size;
        pl->space = COALSIM_LOCAL;
        return 0;
    case SP_CONST:
        if (a >= x->prog->const_bytes || x->prog->const_bytes - a < size)
            return ptx_fail(x, in, "constant address 0x%llx is beyond the %llu bytes of .const variables (lane %d)",
                            (unsigned long long)a, (unsigned long long)x->prog->const_bytes, l);
        pl->p = x->prog->const_bank + a;
        pl->report = a;
        pl->space = COALSIM_CONST;
        return 0;
    case SP_PARAM: {
        /* a generic address of a parameter is the kernel's (cvta.param) */
        const pframe *fr = &w->frames[kernel_param ? 0 : w->depth - 1];
        if (a >= fr->fn->param_bytes || fr->fn->param_bytes - a < size)
            return ptx_fail(x, in, "parameter address 0x%llx is beyond the parameters (lane %d)", (unsigned long long)a, l);
        pl->p = fr->params + (size_t)l * fr->fn->param_bytes + a;
        pl->report = a;
        pl->space = -1;
        return 0;
    }
    default: return ptx_fail(x, in, "unknown state space");
    }
}

uint64_t ptx_lane_addr(const pwarp *w, const pinst *in, int l, int second)
{
    if (second) {
        uint64_t a = in->addr2_base + (uint64_t)in->off2;
        if (in->addr2_slot != UINT32_MAX) a += SLOT(w, in->addr2_slot)[l];
        return a;
    }
    uint64_t a = in->addr_base + (uint64_t)in->off;
    if (in->addr_slot != UINT32_MAX) a += SLOT(w, in->addr_slot)[l];
    if (in->addr_local_sym) a += w->frames[w->depth - 1].local_base;
    return a;
}

int ptx_locate(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, unsigned size, int l, unsigned char **p,
               uint64_t *report, int *space)
{
    place pl = {0};
    if (locate(x, w, in, sp, a, size, l, &pl) != 0) return -1;
    *p = pl.p, *report = pl.report, *space = pl.space;
    return 0;
}

static uint64_t lane_addr(const pwarp *w, const pinst *in, int l)
{
    uint64_t a = in->addr_base + (uint64_t)in->off;
    if (in->addr_slot != UINT32_MAX) a += SLOT(w, in->addr_slot)[l];
    if (in->addr_local_sym) a += w->frames[w->depth - 1].local_base;
    return a;
}

/* Where every lane of M goes: P[l] its bytes, R->addr[l] its reported
 * address, R->space the space when all lanes share it (else *MIXED is set
 * and SP[l] says each lane's, -1 for param).  0, or -1 with the error in X. */
static int gather(pctx *x, pwarp *w, const pinst *in, uint32_t m, unsigned size, unsigned char **p,
                  coalsim_request *r, int *mixed, int *sp)
{
    *mixed = 0;
    if (in->space == SP_GLOBAL) {
        /* the common case: global memory through the worker's page cache */
        const uint64_t *A = in->addr_slot != UINT32_MAX ? SLOT(w, in->addr_slot) : NULL;
        uint64_t base = in->addr_base + (uint64_t)in->off;
        /* the page of the lane before, and the addresses it may serve */
        uint64_t lo = 1, hi = 0;
        unsigned char *page = NULL;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t a = base + (A ? A[l] : 0);
            r->addr[l] = a;
            if (a >= lo && a + size <= hi && !(a & (size - 1))) {
                p[l] = page + a % KMEM_PAGE;
                continue;
            }
            uint64_t pn = a / KMEM_PAGE;
            unsigned ti = (unsigned)(pn % KMEM_TLB);
            if (x->tlb.tag[ti] == pn + 1 && a >= x->tlb.lo[ti] && a + size <= x->tlb.hi[ti] && !(a & (size - 1))) {
                page = x->tlb.page[ti], lo = x->tlb.lo[ti], hi = x->tlb.hi[ti];
                p[l] = page + a % KMEM_PAGE;
                continue;
            }
            place pl = {0};
            if (locate(x, w, in, SP_GLOBAL, a, size, l, &pl) != 0) return -1;
            p[l] = pl.p;
            r->addr[l] = a;
        }
        r->space = COALSIM_GLOBAL;
        return 0;
    }
    int first = -2;
    x->remote_lanes = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        place pl = {0};
        if (locate(x, w, in, in->space, lane_addr(w, in, l), size, l, &pl) != 0) return -1;
        p[l] = pl.p;
        r->addr[l] = pl.report;
        sp[l] = pl.space;
        x->remote_lanes |= (uint32_t)pl.remote << l;
        if (first == -2) first = pl.space;
        else if (pl.space != first) *mixed = 1;
    }
    r->space = (coalsim_space)(first < 0 ? 0 : first);
    if (first == -1 && !*mixed) *mixed = -1;     /* all param: no request */
    return 0;
}

/* Emit the request(s) of M: one, or one a space when the lanes of a generic
 * access fall in several (MIXED). */
static int emit(pctx *x, pwarp *w, const pinst *in, coalsim_op op, unsigned size, uint32_t m, coalsim_request *r,
                int mixed, const int *sp)
{
    if (mixed < 0) return 0;
    if (x->remote_lanes) {
        /* another CTA's shared memory (distributed shared memory): not the
         * LSU's shared pipe but requests of their own, with sectors as
         * global memory's (ncu on the H100: l1tex__t_*_pipe_lsu_mem_dshared_op_*,
         * gpu/results/h100/cluster) */
        uint32_t rl = x->remote_lanes & m;
        unsigned k = op == COALSIM_LD ? 0 : op == COALSIM_ST ? 1 : 2;
        x->exec.dshared_requests[k]++;
        x->exec.dshared_sectors[k] += cluster_dshared_sectors(r->addr, rl, size);
        m &= ~rl;
        x->remote_lanes = 0;
        if (!m) return 0;
        if (mixed) {
            for (uint32_t mm = rl; mm; mm &= mm - 1) ((int *)sp)[__builtin_ctz(mm)] = -1;
        }
    }
    r->op = op;
    r->size = size;
    r->block = x->block_id;
    r->warp = w->index;
    r->atomic_float = ptx_atomic_float(in, op);
    r->l2_only = (unsigned char)(op == COALSIM_LD && in->l2_only);
    r->label = in->label;
    r->label_id = in->label_id;
    r->line = in->line;
    if (!mixed) {
        r->active = m;
        if (in->sb_group > 1 && r->space == COALSIM_SHARED && x->sb_on) ptx_sched_joined(x, in, r);
        return ptx_put(x, w, in, r);
    }
    uint32_t left = m;
    while (left) {
        int s = sp[__builtin_ctz(left)];
        uint32_t mine = 0;
        for (uint32_t mm = left; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            if (sp[l] == s) mine |= 1u << l;
        }
        left &= ~mine;
        if (s < 0) continue;
        if (ptx_emit(x, w, in, op, (coalsim_space)s, size, mine, r->addr) != 0) return -1;
    }
    return 0;
}

static uint64_t load_bytes(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);           /* little-endian host */
    return v;
}

static uint64_t sext(uint64_t v, unsigned bytes)
{
    unsigned s = 64 - 8 * bytes;
    return bytes >= 8 ? v : (uint64_t)((int64_t)(v << s) >> s);
}

/* A 4-byte global load of a whole warp over several pages (a strided or
 * scattered read): each lane through the worker's page cache, read as it is
 * found.  1 if done, 0 if a lane's page is not cached (the general path
 * then makes it, or reports the error), -1 on error. */
static int ld_pages(pctx *x, pwarp *w, const pinst *in, coalsim_request *r, uint64_t base, const uint64_t *A, int sgn)
{
    uint32_t v[32];
    for (int l = 0; l < 32; l++) {
        /* the address from the register, not from the request just written */
        uint64_t a = base + A[l], pn = a / KMEM_PAGE;
        unsigned ti = (unsigned)(pn % KMEM_TLB);
        if (x->tlb.tag[ti] != pn + 1 || a < x->tlb.lo[ti] || a + 4 > x->tlb.hi[ti]) return 0;
        memcpy(&v[l], x->tlb.page[ti] + a % KMEM_PAGE, 4);
    }
    r->space = COALSIM_GLOBAL;
    if (emit(x, w, in, COALSIM_LD, 4, 0xffffffffu, r, 0, NULL) != 0) return -1;
    uint64_t *D = SLOT(w, in->v[0]);
    if (sgn)
        for (int l = 0; l < 32; l++) D[l] = (uint64_t)(int64_t)(int32_t)v[l];
    else
        for (int l = 0; l < 32; l++) D[l] = v[l];
    return 1;
}

/* The common load: every lane of the warp, global or shared, aligned, and
 * (global) inside one page of one buffer the worker's page cache holds.
 * The addresses are made, checked and read in whole-warp loops, with no
 * per-lane lookups.  1 if done, 0 if the general path must do it (which
 * also reports any error), -1 on error. */
static int ld_warp(pctx *x, pwarp *w, const pinst *in, unsigned esz, unsigned n, int sgn)
{
    unsigned size = esz * n;
    coalsim_request r;
    const uint64_t *A = in->addr_slot != UINT32_MAX ? SLOT(w, in->addr_slot) : NULL;
    uint64_t base = in->addr_base + (uint64_t)in->off, a0 = base + (A ? A[0] : 0), any = 0, diff = 0;
    /* OR and XOR only, so the loop vectorises: the bits any lane sets, and
     * the bits in which any lane differs from lane 0 */
    if (A) {
        for (int l = 0; l < 32; l++) {
            uint64_t a = base + A[l];
            r.addr[l] = a;
            any |= a;
            diff |= a ^ a0;
        }
    } else {
        for (int l = 0; l < 32; l++) r.addr[l] = base;
        any = base;
    }
    if (any & (size - 1)) return 0;
    const unsigned char *mem;
    uint64_t from;
    if (in->space == SP_GLOBAL) {
        /* one page (sizes are powers of two, so an aligned access stays in
         * its page), which its buffer covers whole */
        uint64_t pn = a0 / KMEM_PAGE;
        unsigned ti = (unsigned)(pn % KMEM_TLB);
        from = pn * KMEM_PAGE;
        if (diff >= KMEM_PAGE && n == 1 && esz == 4) return ld_pages(x, w, in, &r, base, A, sgn);
        if (diff >= KMEM_PAGE || x->tlb.tag[ti] != pn + 1 || x->tlb.lo[ti] != from || x->tlb.hi[ti] != from + KMEM_PAGE)
            return 0;
        mem = x->tlb.page[ti];
        r.space = COALSIM_GLOBAL;
    } else {
        /* no lane's address is above the OR of them all */
        if (any >= x->smem_bytes || x->smem_bytes - any < size) return 0;
        mem = x->smem, from = 0;
        r.space = COALSIM_SHARED;
    }
    if (emit(x, w, in, COALSIM_LD, size, 0xffffffffu, &r, 0, NULL) != 0) return -1;
    if (n == 1 && esz == 4 && (!A || !diff)) {
        /* one address (a broadcast): one read */
        uint32_t v;
        memcpy(&v, mem + (a0 - from), 4);
        uint64_t *D = SLOT(w, in->v[0]), d = sgn ? (uint64_t)(int64_t)(int32_t)v : v;
        for (int l = 0; l < 32; l++) D[l] = d;
        return 1;
    }
    if (n == 1 && esz == 4 && A) {
        /* the addresses again from the register (lane l reads it before
         * writing its result, so the two may be one slot), not from the
         * request just written */
        uint64_t *D = SLOT(w, in->v[0]);
        uint64_t bf = base - from;        /* + A[l]: the offset in MEM (modulo 2^64) */
        if (sgn)
            for (int l = 0; l < 32; l++) {
                int32_t v;
                memcpy(&v, mem + (bf + A[l]), 4);
                D[l] = (uint64_t)(int64_t)v;
            }
        else
            for (int l = 0; l < 32; l++) {
                uint32_t v;
                memcpy(&v, mem + (bf + A[l]), 4);
                D[l] = v;
            }
        return 1;
    }
    for (unsigned k = 0; k < n; k++) {
        uint64_t *D = SLOT(w, in->v[k]);
        const unsigned char *q = mem + k * esz;
        switch (esz * 2 + (sgn != 0)) {
        case 8:
            for (int l = 0; l < 32; l++) {
                uint32_t v;
                memcpy(&v, q + (r.addr[l] - from), 4);
                D[l] = v;
            }
            break;
        case 9:
            for (int l = 0; l < 32; l++) {
                int32_t v;
                memcpy(&v, q + (r.addr[l] - from), 4);
                D[l] = (uint64_t)(int64_t)v;
            }
            break;
        case 16:
        case 17:
            for (int l = 0; l < 32; l++) memcpy(&D[l], q + (r.addr[l] - from), 8);
            break;
        default:
            for (int l = 0; l < 32; l++) {
                uint64_t v = load_bytes(q + (r.addr[l] - from), esz);
                D[l] = sgn ? sext(v, esz) : v;
            }
        }
    }
    return 1;
}

HANDLER(ld)
{
    unsigned esz = ptype_bytes((ptype)in->type), n = in->nvec, size = esz * n;
    int sgn = ptype_signed((ptype)in->type), mixed, sp[32];
    if (m == 0xffffffffu && (in->space == SP_GLOBAL || in->space == SP_SHARED) && esz <= 8) {
        int rc = ld_warp(x, w, in, esz, n, sgn);
        if (rc) return rc < 0 ? -1 : 0;
    }
    unsigned char *p[32];
    coalsim_request r;
    if (gather(x, w, in, m, size, p, &r, &mixed, sp) != 0) return -1;
    if (in->space != SP_PARAM && emit(x, w, in, COALSIM_LD, size, m, &r, mixed, sp) != 0) return -1;
    if (n == 1 && esz == 4 && !sgn) {
        uint64_t *D = SLOT(w, in->v[0]);
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint32_t v;
            memcpy(&v, p[l], 4);
            D[l] = v;
        }
        return 0;
    }
    for (unsigned k = 0; k < n; k++) {
        uint64_t *D = SLOT(w, in->v[k]);
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t v = load_bytes(p[l] + k * esz, esz);
            D[l] = sgn ? sext(v, esz) : v;
        }
    }
    return 0;
}

HANDLER(st)
{
    unsigned esz = ptype_bytes((ptype)in->type), n = in->nvec, size = esz * n;
    int mixed, sp[32];
    unsigned char *p[32];
    coalsim_request r;
    if (gather(x, w, in, m, size, p, &r, &mixed, sp) != 0) return -1;
    if (in->space != SP_PARAM && emit(x, w, in, COALSIM_ST, size, m, &r, mixed, sp) != 0) return -1;
    /* lanes in order: the highest lane wins a conflicting store, as on the GPU */
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = SLOT(w, in->v[k])[l];
            memcpy(p[l] + k * esz, &v, esz);
        }
    }
    return 0;
}

/* ---- atomics ---- */

uint64_t ptx_atomic_new(int op, ptype t, uint64_t old, uint64_t b, uint64_t c)
{
    unsigned bytes = ptype_bytes(t);
    uint64_t mask = bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
    old &= mask, b &= mask, c &= mask;
    switch (op) {
    case A_ADD:
        if (t == PT_F32) return f32_bits(f32_from_bits((uint32_t)old) + f32_from_bits((uint32_t)b));
        if (t == PT_F64) return f64_bits(f64_from_bits(old) + f64_from_bits(b));
        if (t == PT_F16) return ptx_float_to_half(ptx_half_to_float((uint16_t)old) + ptx_half_to_float((uint16_t)b));
        if (t == PT_BF16) return ptx_float_to_bf16(ptx_bf16_to_float((uint16_t)old) + ptx_bf16_to_float((uint16_t)b));
        return (old + b) & mask;
    case A_MIN:
        if (ptype_signed(t)) return bytes == 8 ? ((int64_t)old < (int64_t)b ? old : b)
                                               : ((int32_t)old < (int32_t)b ? old : b);
        return old < b ? old : b;
    case A_MAX:
        if (ptype_signed(t)) return bytes == 8 ? ((int64_t)old > (int64_t)b ? old : b)
                                               : ((int32_t)old > (int32_t)b ? old : b);
        return old > b ? old : b;
    case A_INC: return old >= b ? 0 : (old + 1) & mask;
    case A_DEC: return (old == 0 || old > b) ? b : (old - 1) & mask;
    case A_AND: return old & b;
    case A_OR: return old | b;
    case A_XOR: return old ^ b;
    case A_EXCH: return b;
    case A_CAS: return old == b ? c : old;
    default: return old;
    }
}

/* The passes of a shared float add that fail because other warps of the
 * block store to the same words between a pass's load and its store, as
 * expected (caswords.h).  The expected part of a pass carries to the warp's
 * next add (a warp's cas_frac starts at 0 in each block's first). */
static int spin_plan(pctx *x, pwarp *w, uint32_t m, const uint64_t *addr)
{
    unsigned nwarps = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
    double extra = 0;
    uint64_t word[32], wd[32];
    unsigned u[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) word[__builtin_ctz(mm)] = CL_OFFSET(addr[__builtin_ctz(mm)]) / 4;
    unsigned n = cas_words_group(word, m, wd, u);
    if (cas_words_plan(&x->cas, wd, u, n, w->index, nwarps, (size_t)(x->smem_bytes / 4) + 1, &extra) != 0)
        return ptx_fail(x, NULL, "out of memory");
    w->cas_frac += extra;
    w->cas_extra = (uint32_t)w->cas_frac;
    w->cas_frac -= w->cas_extra;
    return 0;
}

/* A pass of a shared float add's compare-and-store loop (ptx_lower.c): a
 * lane wins where it is the lowest of the lanes M has on its word and on its
 * bank among its phase's lanes (caswords.h, cas_pass_held).  A winner adds b to
 * what the word holds and gets the old value in d; in->d (the flag) is 0 in
 * the winners, 1 in the others, which go again.  As ATOMS.CAST.SPIN on the
 * GPU: the others' compare fails, or their bank was busy. */
static int spin_pass(pctx *x, pwarp *w, const pinst *in, uint32_t m, unsigned char *const *p, const uint64_t *addr)
{
    ptype t = (ptype)in->type;
    unsigned size = ptype_bytes(t);
    const uint64_t *B = SLOT(w, in->b);
    uint64_t *F = SLOT(w, in->d), *D = SLOT(w, in->e);
    if (m && F[__builtin_ctz(m)] == PTX_CAS_FIRST && spin_plan(x, w, m, addr) != 0) return -1;
    if (w->cas_extra) {
        /* another warp stored to one of the words since this pass's load */
        w->cas_extra--;
        LANES(m, F[l] = 1);
        return 0;
    }
    uint64_t word[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) word[__builtin_ctz(mm)] = CL_OFFSET(addr[__builtin_ctz(mm)]) / size;
    uint32_t done = m & ~cas_pass_held(word, m, size);
    for (uint32_t mm = done; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t old = load_bytes(p[l], size), nv = ptx_atomic_new(A_ADD, t, old, B[l], 0);
        memcpy(p[l], &nv, size);
        D[l] = old;
    }
    LANES(m, F[l] = !(done >> l & 1));
    return 0;
}

HANDLER(atom)
{
    ptype t = (ptype)in->type;
    unsigned size = ptype_bytes(t);
    int red = in->flags & PF_RED;         /* red: no result */
    unsigned char *p[32];
    int mixed, sp[32];
    coalsim_request r;
    if (gather(x, w, in, m, size, p, &r, &mixed, sp) != 0) return -1;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm), s = mixed ? sp[l] : (int)r.space;
        if (mixed < 0 || s == COALSIM_CONST || s < 0)
            return ptx_fail(x, in, "an atomic on %s memory", s < 0 || mixed < 0 ? "parameter" : "constant");
        sp[l] = s;
    }
    /* ptxas combines the warp's lanes first and one lane sends the request
     * (ptx_agg.c), where every lane's address is the same */
    uint32_t rm = m;
    if (in->agg && !mixed && m) {
        uint64_t a0 = r.addr[__builtin_ctz(m)], diff = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1) diff |= r.addr[__builtin_ctz(mm)] ^ a0;
        if (!diff) rm = m & -m;
    }
    if (emit(x, w, in, red ? COALSIM_RED : COALSIM_ATOM, size, rm, &r, mixed, sp) != 0) return -1;
    if (in->spin) return spin_pass(x, w, in, m, p, r.addr);
    const uint64_t *B = SLOT(w, in->b), *C = SLOT(w, in->c);
    uint64_t *D = red ? NULL : SLOT(w, in->d);
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        uint64_t old;
        if (sp[l] == COALSIM_GLOBAL) {
            /* global memory is shared with the other workers' blocks */
            if (size == 4) {
                uint32_t *p32 = (uint32_t *)(void *)p[l], o = __atomic_load_n(p32, __ATOMIC_RELAXED), nv;
                do nv = (uint32_t)ptx_atomic_new(in->sub, t, o, B[l], C[l]);
                while (!__atomic_compare_exchange_n(p32, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
                old = o;
            } else if (size == 8) {
                uint64_t *p64 = (uint64_t *)(void *)p[l], o = __atomic_load_n(p64, __ATOMIC_RELAXED), nv;
                do nv = ptx_atomic_new(in->sub, t, o, B[l], C[l]);
                while (!__atomic_compare_exchange_n(p64, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
                old = o;
            } else {
                return ptx_fail(x, in, "a %u-byte atomic on global memory is not supported", size);
            }
        } else {
            old = load_bytes(p[l], size);
            uint64_t nv = ptx_atomic_new(in->sub, t, old, B[l], C[l]);
            memcpy(p[l], &nv, size);
        }
        if (D) D[l] = ptype_signed(t) ? sext(old, size) : old;
    }
    return 0;
}

/* ---- generic addresses ---- */

HANDLER(cvta_to)
{
    (void)x;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    uint64_t base = in->addr_base, mask = in->type == PT_U32 ? 0xffffffffull : ~0ull;
    LANES(m, D[l] = (A[l] - base) & mask);
    return 0;
}
HANDLER(cvta_from)
{
    (void)x;
    uint64_t *D = SLOT(w, in->d);
    const uint64_t *A = SLOT(w, in->a);
    uint64_t base = in->addr_base, mask = in->type == PT_U32 ? 0xffffffffull : ~0ull;
    LANES(m, D[l] = ((in->type == PT_U32 ? (uint32_t)A[l] : A[l]) + base) & mask);
    return 0;
}
HANDLER(isspacep)
{
    (void)x;
    const uint64_t *A = SLOT(w, in->a);
    uint32_t r = 0;
    uint64_t base = in->addr_base;
    LANES(m, {
        uint64_t a = A[l];
        int in_win = base ? a - base < GEN_WINDOW
                          : !(a - GEN_SHARED < GEN_WINDOW || a - GEN_LOCAL < GEN_WINDOW || a - GEN_CONST < GEN_WINDOW ||
                                   a - GEN_PARAM < GEN_WINDOW);
        r |= (uint32_t)in_win << l;
    });
    PRED(w, in->d) = (PRED(w, in->d) & ~m) | (r & m);
    return 0;
}

/* ---- decoding ---- */

#define DECODE(name) static int name(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)

static int space_of(const raw_inst *ri)
{
    for (unsigned k = 0; k < ri->nmods; k++) {
        const char *s = ri->mods[k];
        if (!strcmp(s, "global")) return SP_GLOBAL;
        if (!strcmp(s, "shared") || !strcmp(s, "shared::cta")) return SP_SHARED;
        if (!strcmp(s, "local")) return SP_LOCAL;
        if (!strcmp(s, "const")) return SP_CONST;
        if (!strcmp(s, "param") || !strcmp(s, "param::func") || !strcmp(s, "param::entry")) return SP_PARAM;
        if (!strncmp(s, "shared::cluster", 15)) return SP_SHARED;   /* the cluster's: addresses say whose (locate) */
    }
    return SP_GENERIC;
}

static int vec_of(const raw_inst *ri)
{
    if (ptx_has_mod(ri, "v2")) return 2;
    if (ptx_has_mod(ri, "v4")) return 4;
    if (ptx_has_mod(ri, "v8")) return 8;
    return 1;
}

static void counted(pinst *in, coalsim_op op)
{
    static const int8_t cs[SP_COUNT] = {COALSIM_GLOBAL, COALSIM_SHARED, COALSIM_LOCAL, -1, -1, COALSIM_GLOBAL};
    in->cs_space = cs[in->space];
    in->cs_op = (int8_t)op;
    if (in->space == SP_SHARED && op == COALSIM_RED) in->cs_op = COALSIM_ATOM;   /* ncu: shared reductions are atomics */
    if (in->space == SP_LOCAL && op > COALSIM_ST) in->cs_space = -1;
}

/* ptxas makes an access to .shared::cluster a generic one (LD.E, ST.E,
 * ATOM.E: gpu/results/h100/cluster's SASS), which ncu counts in neither
 * op_shared_* nor op_global_* */
static void cluster_counted(const raw_inst *ri, pinst *in)
{
    for (unsigned k = 0; k < ri->nmods; k++)
        if (!strcmp(ri->mods[k], "shared::cluster")) in->cs_space = -1;
}

/* The data operand (register or {vector}) at K into in->v[] */
static int data_operand(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, pinst *in, int is_dst, char *err,
                        size_t cap)
{
    const raw_operand *o = &ri->ops[k];
    ptype t = (ptype)in->type;
    if (o->kind == RO_VEC) {
        if (o->nvec != in->nvec) return ptx_dec_fail(p, ri, err, cap, "a vector of %u members for .v%u", o->nvec, in->nvec);
        for (unsigned i = 0; i < o->nvec; i++) {
            raw_inst tmp = *ri;
            tmp.ops[0] = (raw_operand){.kind = o->vec[i] ? RO_REG : RO_SINK, .name = o->vec[i]};
            tmp.nops = 1;
            if (is_dst ? ptx_dec_dst(f, &tmp, 0, &in->v[i], err, cap) : ptx_dec_src(p, f, &tmp, 0, t, &in->v[i], err, cap))
                return -1;
        }
        return 0;
    }
    if (in->nvec != 1) return ptx_dec_fail(p, ri, err, cap, ".v%u needs a {vector} operand", in->nvec);
    return is_dst ? ptx_dec_dst(f, ri, k, &in->v[0], err, cap) : ptx_dec_src(p, f, ri, k, t, &in->v[0], err, cap);
}

/* 1 if the load RI must see other SMs' stores, so L1 does not serve it
 * (ptxas makes these LDG.E.STRONG.GPU or .SYS): .volatile, the .cg and .cv
 * cache operators, .relaxed or .acquire at a scope wider than the CTA, .mmio. */
int ptx_load_l2_only(const raw_inst *ri)
{
    if (ptx_has_mod(ri, "volatile") || ptx_has_mod(ri, "cg") || ptx_has_mod(ri, "cv") || ptx_has_mod(ri, "mmio"))
        return 1;
    return (ptx_has_mod(ri, "relaxed") || ptx_has_mod(ri, "acquire")) &&
           (ptx_has_mod(ri, "gpu") || ptx_has_mod(ri, "sys") || ptx_has_mod(ri, "cluster"));
}

DECODE(dec_ld)
{
    int sp = space_of(ri);
    in->type = (uint8_t)ptx_mod_type(ri, 0);
    in->nvec = (uint8_t)vec_of(ri);
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands");
    if (sp == -2 || in->nvec == 8 || !ptype_bytes((ptype)in->type) || ptype_bytes((ptype)in->type) * in->nvec > 16) {
        in->kind = K_OP;
        return 0;                 /* unsupported: an error if it runs */
    }
    in->space = (uint8_t)sp;
    if (ptx_has_mod(ri, "volatile")) in->flags |= PF_VOLATILE;
    in->l2_only = (uint8_t)ptx_load_l2_only(ri);
    in->kind = sp == SP_PARAM ? K_OP : K_MEM;
    counted(in, COALSIM_LD);
    if (sp == SP_CONST) in->cs_space = -1;     /* not an LSU instruction */
    cluster_counted(ri, in);
    if (data_operand(p, f, ri, 0, in, 1, err, cap) || ptx_dec_addr(p, f, ri, 1, in, err, cap)) return -1;
    in->fn = ld;
    return 0;
}

DECODE(dec_st)
{
    int sp = space_of(ri);
    in->type = (uint8_t)ptx_mod_type(ri, 0);
    in->nvec = (uint8_t)vec_of(ri);
    if (ri->nops != 2) return ptx_dec_fail(p, ri, err, cap, "needs 2 operands");
    if (sp == -2 || sp == SP_CONST || in->nvec == 8 || !ptype_bytes((ptype)in->type) ||
        ptype_bytes((ptype)in->type) * in->nvec > 16) {
        in->kind = K_OP;
        return 0;
    }
    in->space = (uint8_t)sp;
    in->kind = sp == SP_PARAM ? K_OP : K_MEM;
    counted(in, COALSIM_ST);
    cluster_counted(ri, in);
    if (ptx_dec_addr(p, f, ri, 0, in, err, cap) || data_operand(p, f, ri, 1, in, 0, err, cap)) return -1;
    in->fn = st;
    return 0;
}

DECODE(dec_atom)
{
    static const char *const ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};
    int red = !strcmp(ri->opcode, "red");
    int sp = space_of(ri);
    ptype t = ptx_mod_type(ri, 0);
    int op = -1;
    for (unsigned k = 0; k < 10; k++)
        if (ptx_has_mod(ri, ops[k])) op = (int)k;
    in->kind = K_MEM;
    in->type = (uint8_t)t;
    if (op < 0) return ptx_dec_fail(p, ri, err, cap, "needs an operation (add, min, max, inc, dec, and, or, xor, exch, cas)");
    in->sub = (uint8_t)op;
    in->space = (uint8_t)(sp < 0 ? SP_GLOBAL : sp);
    counted(in, red ? COALSIM_RED : COALSIM_ATOM);
    cluster_counted(ri, in);
    if (ptx_has_mod(ri, "spin")) {
        /* a pass of ptx_lower.c's loop (ATOMS.CAST.SPIN): FLAG, [a], b, NEW, d */
        if (ri->nops != 5 || red || op != A_ADD || !ptype_float(t) || in->space != SP_SHARED)
            return ptx_dec_fail(p, ri, err, cap, "atom.shared.add.spin.f32/f64 needs 5 operands");
        if (ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_addr(p, f, ri, 1, in, err, cap) ||
            ptx_dec_src(p, f, ri, 2, t, &in->b, err, cap) || ptx_dec_src(p, f, ri, 3, t, &in->c, err, cap) ||
            ptx_dec_dst(f, ri, 4, &in->e, err, cap))
            return -1;
        in->spin = 1;
        in->fn = atom;
        return 0;
    }
    unsigned want = (red ? 2u : 3u) + (op == A_CAS);
    if (ri->nops != want) return ptx_dec_fail(p, ri, err, cap, "needs %u operands", want);
    unsigned k = 0;
    if (!red && ptx_dec_dst(f, ri, k++, &in->d, err, cap)) return -1;
    if (ptx_dec_addr(p, f, ri, k++, in, err, cap) || ptx_dec_src(p, f, ri, k++, t, &in->b, err, cap)) return -1;
    if (op == A_CAS && ptx_dec_src(p, f, ri, k++, t, &in->c, err, cap)) return -1;
    if (op != A_CAS) in->c = in->b;
    if (red) in->flags |= PF_RED;
    unsigned b = ptype_bytes(t);
    int ok = sp != -2 && sp != SP_CONST && sp != SP_PARAM && (b == 4 || b == 8) && t != PT_F16X2 && t != PT_BF16X2 &&
             ri->nmods < 8 && !ptx_has_mod(ri, "v2") && !ptx_has_mod(ri, "v4");
    if (ptype_float(t) && op != A_ADD && op != A_EXCH) ok = 0;
    if (ok) in->fn = atom;
    return 0;
}

DECODE(dec_cvta)
{
    int to = ptx_has_mod(ri, "to");
    int sp = space_of(ri);
    ptype t = ptx_mod_type(ri, 0);
    in->kind = K_OP;
    in->type = (uint8_t)t;
    if (ri->nops != 2 || ptx_dec_dst(f, ri, 0, &in->d, err, cap) || ptx_dec_src(p, f, ri, 1, t, &in->a, err, cap))
        return ri->nops != 2 ? ptx_dec_fail(p, ri, err, cap, "needs 2 operands") : -1;
    in->addr_base = sp == SP_SHARED ? GEN_SHARED : sp == SP_LOCAL ? GEN_LOCAL : sp == SP_CONST ? GEN_CONST
                  : sp == SP_PARAM ? GEN_PARAM : 0;
    if (sp < 0 || sp == SP_GENERIC) return 0;   /* unsupported */
    in->fn = to ? cvta_to : cvta_from;
    return 0;
}

DECODE(dec_isspacep)
{
    int sp = space_of(ri);
    in->kind = K_OP;
    if (ri->nops != 2 || ptx_dec_pred(f, ri, 0, &in->d, NULL, err, cap) || ptx_dec_src(p, f, ri, 1, PT_U64, &in->a, err, cap))
        return ri->nops != 2 ? ptx_dec_fail(p, ri, err, cap, "needs 2 operands") : -1;
    in->addr_base = sp == SP_SHARED ? GEN_SHARED : sp == SP_LOCAL ? GEN_LOCAL : sp == SP_CONST ? GEN_CONST
                  : sp == SP_PARAM ? GEN_PARAM : 0;
    if (sp < 0 || sp == SP_GENERIC) return 0;
    in->fn = isspacep;
    return 0;
}

const pop_entry ptx_ops_mem[] = {
    {"ld", dec_ld}, {"ldu", dec_ld}, {"st", dec_st}, {"atom", dec_atom}, {"red", dec_atom},
    {"cvta", dec_cvta}, {"isspacep", dec_isspacep}, {NULL, NULL},
};
