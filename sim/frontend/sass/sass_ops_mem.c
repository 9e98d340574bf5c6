/* SASS memory instructions: loads and stores of every space (LDG, STG, LDS,
 * STS, LDL, STL, LD, ST), the atomics and reductions (ATOMG, ATOMS, ATOM,
 * REDG, RED), and the warp requests they make: one request an instruction
 * with the lanes its predicate leaves on, as wide as the instruction (a
 * fused LDS.128 is one 16-byte request, as the hardware sees it).
 *
 * Addresses: global ones are the kernel's buffers (kmem), shared ones are
 * offsets in the block's shared window (the system's reserved bytes first,
 * as the hardware's 0x400), local ones are offsets below the stack top that
 * c[0x0][0x28] gives, generic ones fall in the shared window (SR_SWINHI), the
 * local window (c[0x0][0x20]) or global memory.  A misaligned address or one
 * outside them stops the kernel with an error, as it would the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/kernel/fbits.h"
#include "sass.h"

#define HANDLER(name) static int name(sctx *x, swarp *w, const sinst *in, uint32_t m)
#define DECODE(name) static int name(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap)

/* where local addresses are reported: word w of lane l at + (w * 32 + l) * 4 (as the PTX interpreter) */
#define LOCAL_REPORT 0x0000600000000000ull

enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_GENERIC };
enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_CAST, A_POPC_INC };
enum { T_U32, T_S32, T_U64, T_S64, T_F32, T_F64 };

/* sinst fields used here: sub = space, sub2 = atomic operation, sub3 = atomic type;
 * flags: SF_SIGNED for .S8/.S16 loads; width = bytes a lane.  o[] as written:
 * loads d, [a]; stores [a], v; atomics [P,] d, [a], b [, c]; reductions [a], b. */
#define MF_PDST 32             /* an atomic's first operand is a predicate */

/* place.space of a lane in another CTA's shared memory */
#define SPACE_DSHARED (-2)
#define FIRST_NONE (-100)

/* One lane's bytes. */
typedef struct {
    unsigned char *p;
    uint64_t report;
    int space;
} place;

static uint64_t lane_addr(const swarp *w, const sopnd *o, int sp, int l);

static int resolve(sctx *x, swarp *w, const sinst *in, int sp, uint64_t a, unsigned size, int l, place *pl)
{
    if (a % size)
        return sass_fail(x, in, "misaligned address 0x%llx for a %u-byte access (lane %d, warp %u)",
                         (unsigned long long)a, size, l, w->index);
    if (sp == SP_GENERIC) {
        if (a >> 32 == SASS_GEN_SHARED >> 32) sp = SP_SHARED, a &= 0xffffffffu;
        else if (a - SASS_GEN_LOCAL < SASS_LOCAL_TOP) sp = SP_LOCAL, a -= SASS_GEN_LOCAL;
        else sp = SP_GLOBAL;
    }
    switch (sp) {
    case SP_GLOBAL: {
        if (a >> 32 == SASS_B4_POISON || (a >> 48 == SASS_B4_POISON >> 16)) {
            uint64_t slot = (a & 0xffffffffu) / 8;
            const char *sym = slot < x->prog->nb4sym ? x->prog->b4sym[slot] : NULL;
            if (sym)
                return sass_fail(x, in, "the address 0x%llx is %s's (constant bank 4, c[0x4][0x%llx]), a variable the "
                                        "module gives: add --ptx FILE.cu or FILE.ptx (lane %d)",
                                 (unsigned long long)a, sym, (unsigned long long)(a & 0xffffffffu), l);
            return sass_fail(x, in,
                             "the address 0x%llx came from constant bank 4 (c[0x4][0x%llx]: a __device__ variable's or a "
                             "function's address), which this listing does not give: list the cubin with nvdisasm "
                             "without -c and add --ptx FILE.cu or FILE.ptx (lane %d)",
                             (unsigned long long)a, (unsigned long long)(a & 0xffffffffu), l);
        }
        uint64_t pn = a / KMEM_PAGE;
        unsigned ti = (unsigned)(pn % KMEM_TLB);
        unsigned char *page;
        if (x->tlb.tag[ti] == pn + 1) {
            page = x->tlb.page[ti];
        } else {
            int oom = 0;
            page = kmem_page(x->mem, &x->tlb, a, &oom);
            if (!page)
                return sass_fail(x, in, oom ? "out of memory" : "global address 0x%llx is outside every buffer (lane %d, warp %u)",
                                 (unsigned long long)a, l, w->index);
        }
        if (a < x->tlb.lo[ti] || a + size > x->tlb.hi[ti])
            return sass_fail(x, in, "global address 0x%llx is outside every buffer (lane %d, warp %u)",
                             (unsigned long long)a, l, w->index);
        pl->p = page + a % KMEM_PAGE;
        pl->report = a;
        pl->space = COALSIM_GLOBAL;
        return 0;
    }
    case SP_SHARED: {
        /* a shared::cluster address names its CTA by rank in bits 24 and up */
        uint64_t r = a >> SASS_CL_SHIFT, off = a & ((1u << SASS_CL_SHIFT) - 1);
        if (r >= x->ncta)
            return sass_fail(x, in, "shared address 0x%llx is in the CTA of rank %llu of a cluster of %u (lane %d, warp %u)",
                             (unsigned long long)a, (unsigned long long)r, x->ncta, l, w->index);
        if (off < x->prog->smem_reserved || off >= x->smem_bytes || x->smem_bytes - off < size)
            return sass_fail(x, in,
                             "shared address 0x%llx is outside the block's shared memory [0x%llx, 0x%llx) (lane %d, warp %u)",
                             (unsigned long long)a, (unsigned long long)x->prog->smem_reserved,
                             (unsigned long long)x->smem_bytes, l, w->index);
        pl->p = x->cta[r].smem + off;
        pl->report = a;
        /* another CTA's (distributed shared memory): requests of their own (access) */
        pl->space = r == x->cur ? COALSIM_SHARED : SPACE_DSHARED;
        return 0;
    }
    case SP_LOCAL: {
        if (a >= SASS_LOCAL_TOP || SASS_LOCAL_TOP - a < size)
            return sass_fail(x, in, "local address 0x%llx is above the stack's top 0x%llx (lane %d, warp %u)",
                             (unsigned long long)a, (unsigned long long)SASS_LOCAL_TOP, l, w->index);
        uint64_t need = SASS_LOCAL_TOP - a;
        if (need > w->local_cap) {
            /* the window [top - cap, top) grows downwards, as the stack does */
            uint64_t cap = w->local_cap ? w->local_cap : 256;
            while (cap < need) cap *= 2;
            if (cap > SASS_LOCAL_MAX)
                return sass_fail(x, in, "local address 0x%llx is %llu bytes below the stack's top, more than coalsim keeps "
                                 "(%llu) (lane %d)", (unsigned long long)a, (unsigned long long)need,
                                 (unsigned long long)SASS_LOCAL_MAX, l);
            uint8_t *nl = calloc(32, (size_t)cap);
            if (!nl) return sass_fail(x, in, "out of memory");
            for (unsigned k = 0; k < 32 && w->local; k++)
                memcpy(nl + (size_t)k * cap + (cap - w->local_cap), w->local + (size_t)k * w->local_cap, (size_t)w->local_cap);
            free(w->local);
            w->local = nl;
            w->local_cap = cap;
        }
        pl->p = w->local + (size_t)l * w->local_cap + (w->local_cap - (SASS_LOCAL_TOP - a));
        pl->report = LOCAL_REPORT + a / size * 32 * size + (uint64_t)l * size;
        pl->space = COALSIM_LOCAL;
        return 0;
    }
    default: return sass_fail(x, in, "unknown memory space");
    }
}

int sass_locate(sctx *x, swarp *w, const sinst *in, int shared, const sopnd *o, unsigned size, int l, unsigned char **p,
                uint64_t *report)
{
    int sp = shared ? SP_SHARED : SP_GLOBAL;
    place pl = {0};
    if (resolve(x, w, in, sp, lane_addr(w, o, sp, l), size, l, &pl) != 0) return -1;
    *p = pl.p, *report = pl.report;
    return 0;
}

uint64_t sass_lane_addr(const swarp *w, const sopnd *o, int l) { return lane_addr(w, o, SP_GLOBAL, l); }

int sass_global_at(sctx *x, swarp *w, const sinst *in, uint64_t a, unsigned size, int l, unsigned char **p)
{
    place pl = {0};
    if (resolve(x, w, in, SP_GLOBAL, a, size, l, &pl) != 0) return -1;
    *p = pl.p;
    return 0;
}

int sass_put(sctx *x, const swarp *w, const sinst *in, coalsim_request *r)
{
    r->block = x->block_id;
    r->warp = w->index;
    r->label = in->label;
    r->label_id = in->label_id;
    r->line = in->line;
    x->loop_seen++;
    if (x->sink.put(x->sink.ctx, r) != 0) {
        snprintf(x->err, sizeof x->err, "%s", "the analysis stopped (out of memory)");
        return -1;
    }
    if (w->loop_rec) sass_loop_request(x, w, r);
    return 0;
}

/* Lane L's address. */
static uint64_t lane_addr(const swarp *w, const sopnd *o, int sp, int l)
{
    uint64_t a = (uint64_t)o->off;
    if (o->reg != SASS_RZ) {
        uint64_t v = w->r[o->reg][l];
        if (o->wide) v += (uint64_t)w->r[o->reg + 1][l] << 32;
        a += o->scale ? v * o->scale : v;
    }
    if (o->ureg != SASS_URZ) {
        a += w->ur[o->ureg];
        if (o->wide && o->reg == SASS_RZ) a += (uint64_t)w->ur[o->ureg + 1] << 32;
    }
    if (sp == SP_SHARED || sp == SP_LOCAL) a &= 0xffffffffu;
    return a;
}

/* Resolve every lane of M and make the request(s): one, or one a space when
 * a generic access's lanes fall in several. */
static int access(sctx *x, swarp *w, const sinst *in, const sopnd *ao, coalsim_op op, unsigned size, uint32_t m,
                  unsigned char **p, int *spc)
{
    coalsim_request r;
    int sp = in->sub, first = FIRST_NONE, mixed = 0;
    /* an atomic's data type (sub3) sets the L2's rate for its lanes */
    r.atomic_float = (unsigned char)((op == COALSIM_ATOM || op == COALSIM_RED) && (in->sub3 == T_F32 || in->sub3 == T_F64));
    if (op == COALSIM_ATOM && in->sub2 == A_CAST && in->sub == SP_SHARED) r.atomic_float = 2;   /* ATOMS.CAST.SPIN */
    r.l2_only = (unsigned char)(op == COALSIM_LD && (in->flags & SF_L2_ONLY));
    if (sp == SP_GLOBAL) {
        /* the common case: lanes in the page of the lane before, or in the
         * worker's page cache; anything else through resolve() */
        uint64_t lo = 1, hi = 0;
        unsigned char *page = NULL;
        /* [R.64 + UR + off]: the base once, the register pair a lane */
        uint64_t base = (uint64_t)ao->off;
        if (ao->ureg != SASS_URZ) {
            base += w->ur[ao->ureg];
            if (ao->wide && ao->reg == SASS_RZ) base += (uint64_t)w->ur[ao->ureg + 1] << 32;
        }
        const uint32_t *R0 = ao->reg != SASS_RZ ? w->r[ao->reg] : NULL;
        const uint32_t *R1 = R0 && ao->wide ? w->r[ao->reg + 1] : NULL;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t a = base;
            if (R0) {
                uint64_t v = R1 ? ((uint64_t)R1[l] << 32 | R0[l]) : R0[l];
                a += ao->scale ? v * ao->scale : v;
            }
            r.addr[l] = a;
            spc[l] = COALSIM_GLOBAL;
            if (a >= lo && a + size <= hi && !(a & (size - 1))) {
                p[l] = page + a % KMEM_PAGE;
                continue;
            }
            uint64_t pn = a / KMEM_PAGE;
            unsigned ti = (unsigned)(pn % KMEM_TLB);
            if (x->tlb.tag[ti] == pn + 1 && a >= x->tlb.lo[ti] && a + size <= x->tlb.hi[ti] && !(a & (size - 1))) {
                page = x->tlb.page[ti], lo = x->tlb.lo[ti], hi = x->tlb.hi[ti];
                if (lo < pn * KMEM_PAGE) lo = pn * KMEM_PAGE;
                if (hi > pn * KMEM_PAGE + KMEM_PAGE) hi = pn * KMEM_PAGE + KMEM_PAGE;
                p[l] = page + a % KMEM_PAGE;
                continue;
            }
            place pl = {0};
            if (resolve(x, w, in, sp, a, size, l, &pl) != 0) return -1;
            p[l] = pl.p;
            lo = 1, hi = 0;
        }
        r.op = op;
        r.size = size;
        r.space = COALSIM_GLOBAL;
        r.active = m;
        return sass_put(x, w, in, &r);
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        place pl = {0};
        if (resolve(x, w, in, sp, lane_addr(w, ao, sp, l), size, l, &pl) != 0) return -1;
        p[l] = pl.p;
        r.addr[l] = pl.report;
        spc[l] = pl.space;
        if (first == FIRST_NONE) first = pl.space;
        else if (pl.space != first) mixed = 1;
    }
    r.op = op;
    r.size = size;
    uint32_t left = m;
    uint32_t remote = 0;
    for (uint32_t mm = m; first == SPACE_DSHARED || mixed ? mm : 0; mm &= mm - 1)
        if (spc[__builtin_ctz(mm)] == SPACE_DSHARED) remote |= mm & -mm;
    if (remote) {
        /* another CTA's shared memory: not the LSU's shared pipe but
         * requests of their own, with sectors as global memory's (ncu on the
         * H100: l1tex__t_*_pipe_lsu_mem_dshared_op_*, gpu/results/h100/cluster),
         * as the PTX interpreter counts them */
        unsigned k = op == COALSIM_LD ? 0 : op == COALSIM_ST ? 1 : 2;
        x->exec.dshared_requests[k]++;
        x->exec.dshared_sectors[k] += cluster_dshared_sectors(r.addr, remote, size);
        left &= ~remote;
    }
    while (left) {
        int s = spc[__builtin_ctz(left)];
        uint32_t mine = left;
        if (mixed) {
            mine = 0;
            for (uint32_t mm = left; mm; mm &= mm - 1)
                if (spc[__builtin_ctz(mm)] == s) mine |= mm & -mm;
        }
        left &= ~mine;
        r.space = (coalsim_space)s;
        r.active = mine;
        if (sass_put(x, w, in, &r) != 0) return -1;
    }
    return 0;
}

/* The registers of a multi-register value: R, R+1, ... (RZ stays RZ). */
static int reg_ok(const sopnd *o, unsigned n) { return o->kind == SO_R && (o->reg == SASS_RZ || o->reg + n <= SASS_RZ); }

HANDLER(load)
{
    unsigned size = in->width, words = size < 4 ? 1 : size / 4;
    unsigned char *p[32];
    int spc[32];
    if (access(x, w, in, &in->o[1], COALSIM_LD, size, m, p, spc) != 0) return -1;
    unsigned d = in->o[0].reg;
    if (d == SASS_RZ) return 0;
    if (size >= 4) {
        for (unsigned k = 0; k < words; k++) {
            uint32_t *D = w->r[d + k];
            LANES_S(m, memcpy(&D[l], p[l] + 4 * k, 4));
        }
    } else {
        uint32_t *D = w->r[d];
        int sgn = in->flags & SF_SIGNED;
        LANES_S(m, {
            uint32_t v = 0;
            memcpy(&v, p[l], size);
            if (sgn) v = size == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
            D[l] = v;
        });
    }
    return 0;
}

HANDLER(store)
{
    unsigned size = in->width, words = size < 4 ? 1 : size / 4;
    unsigned char *p[32];
    int spc[32];
    if (access(x, w, in, &in->o[0], COALSIM_ST, size, m, p, spc) != 0) return -1;
    unsigned s = in->o[1].reg;
    /* lanes in order: the highest lane wins a conflicting store, as on the GPU */
    LANES_S(m, {
        for (unsigned k = 0; k < words; k++) {
            uint32_t v = s == SASS_RZ ? 0 : w->r[s + k][l];
            memcpy(p[l] + 4 * k, &v, size < 4 ? size : 4);
        }
    });
    return 0;
}

/* ---- atomics ---- */

static uint64_t atomic_new(int op, int t, uint64_t old, uint64_t b, uint64_t c)
{
    int wide = t == T_U64 || t == T_S64 || t == T_F64, sgn = t == T_S32 || t == T_S64;
    uint64_t mask = wide ? ~0ull : 0xffffffffull;
    old &= mask, b &= mask, c &= mask;
    switch (op) {
    case A_ADD:
        if (t == T_F32) return f32_bits(f32_from_bits((uint32_t)old) + f32_from_bits((uint32_t)b));
        if (t == T_F64) return f64_bits(f64_from_bits(old) + f64_from_bits(b));
        return (old + b) & mask;
    case A_MIN:
        if (sgn) return wide ? ((int64_t)old < (int64_t)b ? old : b) : ((int32_t)old < (int32_t)b ? old : b);
        return old < b ? old : b;
    case A_MAX:
        if (sgn) return wide ? ((int64_t)old > (int64_t)b ? old : b) : ((int32_t)old > (int32_t)b ? old : b);
        return old > b ? old : b;
    case A_INC: return old >= b ? 0 : (old + 1) & mask;
    case A_DEC: return (old == 0 || old > b) ? b : (old - 1) & mask;
    case A_AND: return old & b;
    case A_OR: return old | b;
    case A_XOR: return old ^ b;
    case A_EXCH: return b;
    case A_CAS:
    case A_CAST: return old == b ? c : old;
    case A_POPC_INC: return (old + 1) & mask;
    default: return old;
    }
}

/* A 32- or 64-bit value of register operand O for lane L (pairs for 64). */
static uint64_t rval(const swarp *w, const sopnd *o, int wide, int l)
{
    if (o->kind == SO_IMM) return o->imm;
    if (o->kind != SO_R || o->reg == SASS_RZ) return 0;
    uint64_t v = w->r[o->reg][l];
    if (wide) v |= (uint64_t)w->r[o->reg + 1][l] << 32;
    return v;
}

/* The lanes of a shared compare-and-store pass (ATOMS.CAST.SPIN) of W on M
 * that neither compare nor store this pass (caswords.h's rule, the PTX
 * interpreter's too). */
static uint32_t cast_held(const swarp *w, const sopnd *ao, int wide, uint32_t m)
{
    unsigned size = wide ? 8 : 4;
    uint64_t word[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) word[__builtin_ctz(mm)] = lane_addr(w, ao, SP_SHARED, __builtin_ctz(mm)) / size;
    return cas_pass_held(word, m, size);
}

/* The first pass of W's add on lanes M (none of them failed the warp's pass
 * before): how many of its passes other warps' stores will make fail
 * (caswords.h; the PTX interpreter's spin_plan), into w->cas_extra. */
static int cast_plan(sctx *x, swarp *w, const sopnd *ao, uint32_t m)
{
    unsigned nwarps = (x->block[0] * x->block[1] * x->block[2] + 31) / 32;
    uint64_t word[32], wd[32];
    unsigned u[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) word[__builtin_ctz(mm)] = lane_addr(w, ao, SP_SHARED, __builtin_ctz(mm)) / 4;
    unsigned n = cas_words_group(word, m, wd, u);
    double extra;
    if (cas_words_plan(&x->cas, wd, u, n, w->index, nwarps, (size_t)(x->smem_bytes / 4) + 1, &extra) != 0)
        return sass_fail(x, NULL, "out of memory");
    w->cas_frac += extra;
    w->cas_extra = (uint32_t)w->cas_frac;
    w->cas_frac -= w->cas_extra;
    return 0;
}

HANDLER(atomic)
{
    int op = in->sub2, t = in->sub3, wide = in->width == 8, red = in->cs_op == COALSIM_RED;
    unsigned k = 0;
    const sopnd *pd = NULL, *d = NULL;
    if (in->flags & MF_PDST) pd = &in->o[k++];
    if (!red) d = &in->o[k++];
    const sopnd *ao = &in->o[k++], *bo = k < in->nops ? &in->o[k] : NULL, *co = k + 1 < in->nops ? &in->o[k + 1] : NULL;
    unsigned char *p[32];
    int spc[32];
    /* ATOMS.POPC.INC sums a warp's lanes on a word before it updates: a
     * reduction, as red.shared is (the shared model costs them apart) */
    if (access(x, w, in, ao, red || op == A_POPC_INC ? COALSIM_RED : COALSIM_ATOM, in->width, m, p, spc) != 0) return -1;
    uint64_t olds[32];
    uint32_t ok = 0, held = 0;
    if (op == A_CAST && in->sub == SP_SHARED) {
        /* a pass of ptxas's loop: its lanes wait for each other's words and
         * banks, and other warps' stores make some passes fail */
        if (!(m & w->cas_open) && cast_plan(x, w, ao, m) != 0) return -1;
        held = cast_held(w, ao, wide, m);
        if (w->cas_extra) w->cas_extra--, held = m;
    }
    /* CAS on a 64-bit pair: the compare value in b, b+1; the new one in c, c+1 */
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        if (held >> l & 1) {
            olds[l] = 0;             /* its bank was busy: no compare, no store */
            continue;
        }
        uint64_t b = op == A_POPC_INC ? 1 : bo ? rval(w, bo, wide, l) : 0, c = co ? rval(w, co, wide, l) : 0, old;
        if (spc[l] == COALSIM_GLOBAL) {
            if (!wide) {
                uint32_t *p32 = (uint32_t *)(void *)p[l], o = __atomic_load_n(p32, __ATOMIC_RELAXED), nv;
                do nv = (uint32_t)atomic_new(op, t, o, b, c);
                while (!__atomic_compare_exchange_n(p32, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
                old = o;
            } else {
                uint64_t *p64 = (uint64_t *)(void *)p[l], o = __atomic_load_n(p64, __ATOMIC_RELAXED), nv;
                do nv = atomic_new(op, t, o, b, c);
                while (!__atomic_compare_exchange_n(p64, &o, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
                old = o;
            }
        } else {
            old = 0;
            memcpy(&old, p[l], wide ? 8 : 4);
            uint64_t nv = atomic_new(op, t, old, b, c);
            memcpy(p[l], &nv, wide ? 8 : 4);
        }
        olds[l] = old;
        if ((op == A_CAS || op == A_CAST) && old == (b & (wide ? ~0ull : 0xffffffffull))) ok |= 1u << l;
    }
    if (op == A_CAST && in->sub == SP_SHARED) w->cas_open = m & ~ok;
    if (pd && pd->kind == SO_P) sass_set_pred(w, pd->reg, op == A_CAST ? ok : 0xffffffffu, m);
    if (d && d->kind == SO_P) {
        sass_set_pred(w, d->reg, ok, m);
    } else if (op == A_CAST && d && d->kind == SO_R && d->reg != SASS_RZ) {
        /* ATOMS.CAST.SPIN: 1 where the lane stored, 0 where it goes again
         * (ptxas's loop tests it: ISETP.EQ.U32.AND P, PT, R, 0x1) */
        LANES_S(m, {
            w->r[d->reg][l] = ok >> l & 1;
            if (wide) w->r[d->reg + 1][l] = 0;
        });
    } else if (d && d->kind == SO_R && d->reg != SASS_RZ) {
        LANES_S(m, {
            w->r[d->reg][l] = (uint32_t)olds[l];
            if (wide) w->r[d->reg + 1][l] = (uint32_t)(olds[l] >> 32);
        });
    }
    return 0;
}

/* ---- decoding ---- */

static unsigned width_of(const sraw *ri, int *sgn)
{
    *sgn = 0;
    if (sass_has_mod(ri, "128")) return 16;
    if (sass_has_mod(ri, "64")) return 8;
    if (sass_has_mod(ri, "U8")) return 1;
    if (sass_has_mod(ri, "S8")) return *sgn = 1, 1;
    if (sass_has_mod(ri, "U16")) return 2;
    if (sass_has_mod(ri, "S16")) return *sgn = 1, 2;
    return 4;
}

static int space_of(const char *op)
{
    switch (op[strcspn(op, ".") - 1]) {
    case 'G': return SP_GLOBAL;
    case 'S': return SP_SHARED;
    case 'L': return SP_LOCAL;
    default: return SP_GENERIC;
    }
}

static void counted(sinst *in, int sp, coalsim_op op)
{
    in->cs_op = (int8_t)op;
    in->cs_space = (int8_t)(sp == SP_SHARED ? COALSIM_SHARED : sp == SP_LOCAL ? COALSIM_LOCAL : COALSIM_GLOBAL);
    if (sp == SP_LOCAL && op > COALSIM_ST) in->cs_space = -1;
    /* a generic LD/ST (LD.E, ST.E) is none of ncu's op_global/op_shared
     * instructions (the CUDA samples' generic wmma fragments on the H100:
     * bf16TensorCoreGemm's async kernel 0 op_global_ld for 12288 LD.E) */
    if (sp == SP_GENERIC && op <= COALSIM_ST) in->cs_space = -1;
}

/* IN's generic address operand K: 64 bits (a register pair) */
static void wide_generic(sinst *in, unsigned k)
{
    sopnd *o = &in->o[k];
    if (o->kind == SO_MEM && o->reg != SASS_RZ && (unsigned)o->reg + 1 < SASS_RZ) o->wide = 1;
}

DECODE(dec_ldst)
{
    char base[16];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(ri->op, "."), ri->op);
    int is_load = base[0] == 'L', sgn, sp = space_of(ri->op);
    unsigned width = width_of(ri, &sgn);
    if (ri->nops != 2) return sass_dec_fail(p, ri, err, cap, "expected two operands");
    const sopnd *d = &ri->ops[is_load ? 0 : 1], *a = &ri->ops[is_load ? 1 : 0];
    if (a->kind != SO_MEM) return sass_dec_fail(p, ri, err, cap, "expected a memory operand");
    if (!reg_ok(d, width < 4 ? 1 : width / 4))
        return sass_dec_fail(p, ri, err, cap, "expected %s register%s", width > 4 ? "a run of" : "a",
                             width > 4 ? "s" : "");
    if (width > 4 && d->reg != SASS_RZ && d->reg % (width / 4))
        return sass_dec_fail(p, ri, err, cap, "a %u-byte access needs an aligned register run", width);
    /* a generic address is 64 bits: LD.E / ST.E [Ra] without desc[] take
     * the pair Ra, Ra+1 (the cluster kernels' shared-window addresses: the
     * compiler puts SR_SWINHI in Ra+1) */
    if (sp == SP_GENERIC) wide_generic(in, is_load ? 1 : 0);
    in->kind = SK_MEM;
    in->fn = is_load ? load : store;
    in->width = (uint8_t)width;
    in->sub = (uint8_t)sp;
    in->flags = sgn ? SF_SIGNED : 0;
    if (is_load && (sass_has_mod(ri, "MMIO") || (sass_has_mod(ri, "STRONG") && (sass_has_mod(ri, "GPU") ||
                                                                                  sass_has_mod(ri, "SYS")))))
        in->flags |= SF_L2_ONLY;
    counted(in, sp, is_load ? COALSIM_LD : COALSIM_ST);
    return 0;
}

static const struct {
    const char *mod;
    int op;
} atomic_ops[] = {{"ADD", A_ADD}, {"MIN", A_MIN}, {"MAX", A_MAX}, {"INC", A_INC}, {"DEC", A_DEC}, {"AND", A_AND},
                  {"OR", A_OR}, {"XOR", A_XOR}, {"EXCH", A_EXCH}, {"CAS", A_CAS}, {"CAST", A_CAST}};

DECODE(dec_atomic)
{
    int red = !strncmp(ri->op, "RED", 3), sp, op = -1, t = T_U32;
    sp = !strncmp(ri->op, "ATOMS", 5) ? SP_SHARED : !strncmp(ri->op, "ATOMG", 5) || !strncmp(ri->op, "REDG", 4) ? SP_GLOBAL
                                                                                                                 : SP_GENERIC;
    if (sass_has_mod(ri, "POPC") && sass_has_mod(ri, "INC")) op = A_POPC_INC;
    for (size_t i = 0; op < 0 && i < sizeof atomic_ops / sizeof atomic_ops[0]; i++)
        if (sass_has_mod(ri, atomic_ops[i].mod)) op = atomic_ops[i].op;
    if (op < 0) return sass_dec_fail(p, ri, err, cap, "an atomic operation coalsim does not know");
    if (sass_has_mod(ri, "F16x2") || sass_has_mod(ri, "BF16x2") || sass_has_mod(ri, "F16") || sass_has_mod(ri, "BF16"))
        return sass_dec_fail(p, ri, err, cap, "half-precision atomics are not supported");
    int wide = sass_has_mod(ri, "64") || sass_has_mod(ri, "F64") || sass_has_mod(ri, "S64") || sass_has_mod(ri, "U64");
    if (sass_has_mod(ri, "F32")) t = T_F32;
    else if (sass_has_mod(ri, "F64")) t = T_F64;
    else if (sass_has_mod(ri, "S32")) t = T_S32;
    else if (sass_has_mod(ri, "S64")) t = T_S64;
    else if (wide) t = T_U64;
    if (sass_has_mod(ri, "128")) return sass_dec_fail(p, ri, err, cap, "128-bit atomics are not supported");
    unsigned k = 0;
    if (!red && ri->nops > 0 && (ri->ops[0].kind == SO_P) && op != A_CAST) in->flags |= MF_PDST, k++;
    if (!red) k++;                      /* the destination */
    if (k >= ri->nops || ri->ops[k].kind != SO_MEM)
        return sass_dec_fail(p, ri, err, cap, "expected a memory operand as operand %u", k + 1);
    unsigned need = op == A_POPC_INC ? 0 : op == A_CAS || op == A_CAST ? 2 : 1;
    if (ri->nops < k + 1 + need) return sass_dec_fail(p, ri, err, cap, "expected %u value operand%s", need, need > 1 ? "s" : "");
    if (sp == SP_GENERIC) wide_generic(in, k);
    in->kind = SK_MEM;
    in->fn = atomic;
    in->width = wide ? 8 : 4;
    in->sub = (uint8_t)sp;
    in->sub2 = (uint8_t)op;
    in->sub3 = (uint8_t)t;
    counted(in, sp, red ? COALSIM_RED : COALSIM_ATOM);
    return 0;
}

const sop_entry sass_ops_mem[] = {
    {"LDG", dec_ldst}, {"STG", dec_ldst}, {"LDS", dec_ldst}, {"STS", dec_ldst}, {"LDL", dec_ldst},
    {"STL", dec_ldst}, {"LD", dec_ldst},  {"ST", dec_ldst},  {"ATOMG", dec_atomic}, {"ATOMS", dec_atomic},
    {"ATOM", dec_atomic}, {"REDG", dec_atomic}, {"RED", dec_atomic}, {NULL, NULL},
};
