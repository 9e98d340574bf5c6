/* Decoding: a function's raw statements become pinst[] with every operand a
 * slot, every branch an instruction index and every memory instruction an
 * access label ("file.cu:30:ld.global.f32").  Variables get their addresses:
 * .shared in the block's shared memory, .const in the constant bank, .global
 * in global memory, .local and .param in a call frame. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

/* ---- names -> slots: a small open-addressing map a function ---- */

typedef struct {
    const char *name;
    uint32_t val;
    int kind;                 /* NK_* */
} nentry;

enum { NK_REG = 1, NK_PRED, NK_LABEL, NK_VAR };

typedef struct {
    nentry *e;
    size_t n, used;
} nmap;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static nentry *nmap_find(const nmap *m, const char *name)
{
    if (!m->n) return NULL;
    size_t h = (size_t)hash_str(name) & (m->n - 1);
    while (m->e[h].name) {
        if (!strcmp(m->e[h].name, name)) return &m->e[h];
        h = (h + 1) & (m->n - 1);
    }
    return NULL;
}

static int nmap_put(nmap *m, const char *name, int kind, uint32_t val)
{
    if ((m->used + 1) * 2 > m->n) {
        size_t n = m->n ? m->n * 2 : 64;
        nentry *e = calloc(n, sizeof *e);
        if (!e) return -1;
        for (size_t i = 0; i < m->n; i++)
            if (m->e[i].name) {
                size_t h = (size_t)hash_str(m->e[i].name) & (n - 1);
                while (e[h].name) h = (h + 1) & (n - 1);
                e[h] = m->e[i];
            }
        free(m->e);
        m->e = e;
        m->n = n;
    }
    size_t h = (size_t)hash_str(name) & (m->n - 1);
    while (m->e[h].name) {
        if (!strcmp(m->e[h].name, name)) {
            m->e[h].kind = kind, m->e[h].val = val;
            return 0;
        }
        h = (h + 1) & (m->n - 1);
    }
    m->e[h] = (nentry){name, val, kind};
    m->used++;
    return 0;
}

/* The decoder's state for one function (pfunc.dec while it is decoded). */
typedef struct {
    nmap names;
    char (*regnames)[72];     /* register names made from %r<N> declarations, owned */
    size_t nregnames;
    uint64_t *consts;         /* constant slot values */
    uint32_t nconsts, capconsts;
    uint32_t special_slot[SR_COUNT];   /* 0: not used yet; else slot + 1 */
    uint8_t special_of[SR_COUNT];      /* the sreg of special slot k */
    uint32_t nspecials;
    uint32_t nregs;           /* register slots */
    uint32_t npreds;
    uint32_t param_top;       /* per-lane param area used so far */
    uint64_t local_top;
    pcall_arg *calls;
    uint32_t ncalls, capcalls;
    ptx_program *p;
    uint32_t *param_var_off;  /* per module variable: its offset when it is a call-site .param of this function */
    uint64_t *local_var_off;  /* per module variable: its offset when it is a .local of this function */
    uint32_t *decl_first;     /* per register declaration: its first slot (or predicate) */
    uint32_t *decl_name;      /* per register declaration: its first name in regnames */
    struct undo {
        const char *name;
        int kind;             /* the binding it replaced (0: none) */
        uint32_t val;
        unsigned depth;
    } *undo;
    size_t nundo, capundo;
} dstate;

#define DS(f) ((dstate *)(f)->dec)

/* Bind NAME in the scope at DEPTH, remembering what it shadows. */
static int bind(dstate *ds, const char *name, int kind, uint32_t val, unsigned depth)
{
    if (ds->nundo == ds->capundo) {
        size_t cap = ds->capundo ? ds->capundo * 2 : 64;
        struct undo *u = realloc(ds->undo, cap * sizeof *u);
        if (!u) return -1;
        ds->undo = u;
        ds->capundo = cap;
    }
    nentry *e = nmap_find(&ds->names, name);
    ds->undo[ds->nundo++] = (struct undo){name, e ? e->kind : 0, e ? e->val : 0, depth};
    return nmap_put(&ds->names, name, kind, val);
}

/* Bind the labels of the scope that starts at instruction FROM (those of
 * its nested scopes are bound when those open) at DEPTH. */
static int bind_labels(dstate *ds, const ptx_func *src, unsigned from, const uint32_t *label_ni, unsigned depth)
{
    unsigned nest = 0;
    for (unsigned i = from; i < src->ninsts; i++) {
        const raw_inst *ri = &src->insts[i];
        if (ri->pseudo == RP_OPEN) {
            nest++;
        } else if (ri->pseudo == RP_CLOSE) {
            if (nest == 0) break;
            nest--;
        } else if (!ri->pseudo && ri->label && nest == 0 && bind(ds, ri->label, NK_LABEL, label_ni[i], depth) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Leave the scope at DEPTH: its names get back what they shadowed. */
static int unbind(dstate *ds, unsigned depth)
{
    while (ds->nundo && ds->undo[ds->nundo - 1].depth >= depth && depth > 0) {
        struct undo *u = &ds->undo[--ds->nundo];
        if (nmap_put(&ds->names, u->name, u->kind, u->val) != 0) return -1;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int system_header(const char *path)
{
    return !strncmp(path, "/usr/", 5) || strstr(path, "/cuda/") || strstr(path, "/cuda-") ||
           strstr(path, "/targets/x86_64-linux/include/") || strstr(path, "/clang/");
}

/* The user's source line of RI: its .loc, or the line a CUDA or system
 * header's line was inlined into (which says more).  1 with *FILE (an index
 * of m->files) and *LINE set, or 0 where there is none. */
static int user_line(const ptx_module *m, const raw_inst *ri, unsigned *file, unsigned *line)
{
    unsigned f = ri->file, l = ri->src_line;
    if (ri->inl_line && f < m->nfiles && m->files[f] && system_header(m->files[f])) f = ri->inl_file, l = ri->inl_line;
    if (!l || f >= m->nfiles || !m->files[f]) return 0;
    *file = f, *line = l;
    return 1;
}

int ptx_dec_fail(const ptx_program *p, const raw_inst *ri, char *err, size_t cap, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char op[160];
    int n = snprintf(op, sizeof op, "%s", ri->opcode);
    for (unsigned k = 0; k < ri->nmods && n < (int)sizeof op; k++) n += snprintf(op + n, sizeof op - (size_t)n, ".%s", ri->mods[k]);
    /* where, as ptx_exec.c's errors say it: the PTX's line in a .ptx; where a
     * .cu was compiled (the module has its name), the user's source line from
     * .loc and the PTX's line beside it, which is no line of the .cu */
    const ptx_module *m = p->mod;
    size_t nl = strlen(m->name);
    if (nl >= 4 && !strcmp(m->name + nl - 4, ".ptx"))
        snprintf(err, cap, "%s:%u: %s: %s", m->name, ri->line, op, msg);
    else {
        unsigned file, line;
        if (user_line(m, ri, &file, &line))
            snprintf(err, cap, "%.100s:%u: %s (PTX line %u): %s", base_name(m->files[file]), line, op, ri->line, msg);
        else
            snprintf(err, cap, "%s (PTX line %u): %s: %s", m->name, ri->line, op, msg);
    }
    return -1;
}

int ptx_has_mod(const raw_inst *ri, const char *mod)
{
    for (unsigned k = 0; k < ri->nmods; k++)
        if (!strcmp(ri->mods[k], mod)) return 1;
    return 0;
}

ptype ptx_mod_type(const raw_inst *ri, unsigned nth)
{
    for (unsigned k = 0; k < ri->nmods; k++) {
        ptype t = ptype_parse(ri->mods[k]);
        if (t != PT_NONE && nth-- == 0) return t;
    }
    return PT_NONE;
}

/* ---- special registers ---- */

static const struct {
    const char *name;
    sreg r;
} sregs[] = {
    {"%tid.x", SR_TID_X}, {"%tid.y", SR_TID_Y}, {"%tid.z", SR_TID_Z},
    {"%ntid.x", SR_NTID_X}, {"%ntid.y", SR_NTID_Y}, {"%ntid.z", SR_NTID_Z},
    {"%ctaid.x", SR_CTAID_X}, {"%ctaid.y", SR_CTAID_Y}, {"%ctaid.z", SR_CTAID_Z},
    {"%nctaid.x", SR_NCTAID_X}, {"%nctaid.y", SR_NCTAID_Y}, {"%nctaid.z", SR_NCTAID_Z},
    {"%laneid", SR_LANEID}, {"%warpid", SR_WARPID}, {"%nwarpid", SR_NWARPID}, {"%smid", SR_SMID},
    {"%nsmid", SR_NSMID}, {"%gridid", SR_GRIDID}, {"%lanemask_eq", SR_LANEMASK_EQ},
    {"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_lt", SR_LANEMASK_LT}, {"%lanemask_ge", SR_LANEMASK_GE},
    {"%lanemask_gt", SR_LANEMASK_GT}, {"%clock", SR_CLOCK}, {"%clock64", SR_CLOCK64},
    {"%globaltimer", SR_GLOBALTIMER}, {"%dynamic_smem_size", SR_DYN_SMEM}, {"%total_smem_size", SR_TOTAL_SMEM},
    {"%cluster_ctarank", SR_CLUSTER_CTARANK}, {"%cluster_nctarank", SR_CLUSTER_NCTARANK},
    {"%cluster_ctaid.x", SR_CLUSTER_CTAID_X}, {"%cluster_ctaid.y", SR_CLUSTER_CTAID_Y},
    {"%cluster_ctaid.z", SR_CLUSTER_CTAID_Z}, {"%cluster_nctaid.x", SR_CLUSTER_NCTAID_X},
    {"%cluster_nctaid.y", SR_CLUSTER_NCTAID_Y}, {"%cluster_nctaid.z", SR_CLUSTER_NCTAID_Z},
    {"%clusterid.x", SR_CLUSTERID_X}, {"%clusterid.y", SR_CLUSTERID_Y}, {"%clusterid.z", SR_CLUSTERID_Z},
    {"%nclusterid.x", SR_NCLUSTERID_X}, {"%nclusterid.y", SR_NCLUSTERID_Y}, {"%nclusterid.z", SR_NCLUSTERID_Z},
    {"%is_explicit_cluster", SR_IS_EXPLICIT_CLUSTER},
    {"%tid", SR_COUNT}, /* a vector special register: only through .x/.y/.z */
};

#define TAG_CONST 0x40000000u
#define TAG_SPECIAL 0x20000000u
#define TAG_MASK 0x0fffffffu

static uint32_t special_slot(pfunc *f, sreg r)
{
    dstate *ds = DS(f);
    if (!ds->special_slot[r]) {
        ds->special_of[ds->nspecials] = (uint8_t)r;
        ds->special_slot[r] = ++ds->nspecials;
    }
    return TAG_SPECIAL | (ds->special_slot[r] - 1);
}

static int const_slot(pfunc *f, uint64_t v, uint32_t *slot)
{
    dstate *ds = DS(f);
    for (uint32_t k = 0; k < ds->nconsts; k++)
        if (ds->consts[k] == v) {
            *slot = TAG_CONST | k;
            return 0;
        }
    if (ds->nconsts == ds->capconsts) {
        uint32_t cap = ds->capconsts ? ds->capconsts * 2 : 32;
        uint64_t *c = realloc(ds->consts, cap * sizeof *c);
        if (!c) return -1;
        ds->consts = c;
        ds->capconsts = cap;
    }
    ds->consts[ds->nconsts] = v;
    *slot = TAG_CONST | ds->nconsts++;
    return 0;
}

/* ---- symbols ---- */

/* The module variable NAME visible in function FI (its own first), or -1. */
static int find_var(const ptx_module *m, const char *name, int fi)
{
    int found = -1;
    for (unsigned i = 0; i < m->nvars; i++)
        if (!strcmp(m->vars[i].name, name)) {
            if (m->vars[i].func == fi) return (int)i;
            if (m->vars[i].func == -1) found = (int)i;
        }
    return found;
}

/* ---- operands ---- */

static const raw_operand *opnd(const raw_inst *ri, unsigned k) { return k < ri->nops ? &ri->ops[k] : NULL; }

/* A register's slot (or predicate index), or -1 if NAME is not a register. */
static int reg_of(pfunc *f, const char *name, int want_pred, uint32_t *v)
{
    nentry *e = nmap_find(&DS(f)->names, name);
    if (!e || (e->kind != NK_REG && e->kind != NK_PRED)) return -1;
    if ((e->kind == NK_PRED) != want_pred) return -2;
    *v = e->val;
    return 0;
}

static ptx_program *prog_of(pfunc *f) { return DS(f)->p; }

int ptx_dec_reg(pfunc *f, const char *name, uint32_t *v, int *is_pred)
{
    if (reg_of(f, name, 0, v) == 0) {
        *is_pred = 0;
        return 0;
    }
    if (reg_of(f, name, 1, v) == 0) {
        *is_pred = 1;
        return 0;
    }
    return -1;
}

int ptx_dec_dst(pfunc *f, const raw_inst *ri, unsigned k, uint32_t *slot, char *err, size_t cap)
{
    const raw_operand *o = opnd(ri, k);
    if (o && o->kind == RO_SINK) {
        /* '_': a scratch slot no one reads */
        nentry *e = nmap_find(&DS(f)->names, "%_sink");
        *slot = e->val;
        return 0;
    }
    if (!o || o->kind != RO_REG) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u must be a register", k + 1);
    int rc = reg_of(f, o->name, 0, slot);
    if (rc == -2) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u: '%s' is a predicate", k + 1, o->name);
    if (rc < 0) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u: '%s' is not a declared register", k + 1, o->name);
    return 0;
}

int ptx_dec_pred(pfunc *f, const raw_inst *ri, unsigned k, uint32_t *idx, int *neg, char *err, size_t cap)
{
    const raw_operand *o = opnd(ri, k);
    if (!o || o->kind != RO_REG) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u must be a predicate", k + 1);
    int rc = reg_of(f, o->name, 1, idx);
    if (rc < 0) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u: '%s' is not a declared predicate", k + 1, o->name);
    if (neg) *neg = o->neg;
    else if (o->neg) return ptx_dec_fail(prog_of(f), ri, err, cap, "operand %u cannot be negated", k + 1);
    return 0;
}

/* An immediate as bits of type T. */
static int imm_bits(const raw_operand *o, ptype t, uint64_t *v)
{
    unsigned n = ptype_bytes(t);
    if (o->kind == RO_IMM) {
        if (t == PT_F32) {
            float x = (float)(int64_t)o->imm;
            uint32_t u;
            memcpy(&u, &x, 4);
            *v = u;
        } else if (t == PT_F64) {
            double x = (double)(int64_t)o->imm;
            memcpy(v, &x, 8);
        } else {
            *v = n >= 8 ? o->imm : o->imm & ((1ull << (8 * n)) - 1);
        }
        return 0;
    }
    double d;
    if (o->kind == RO_FIMM && o->fimm_bytes == 4) {
        uint32_t u = (uint32_t)o->imm;
        float x;
        memcpy(&x, &u, 4);
        d = x;
    } else if (o->kind == RO_FIMM) {
        memcpy(&d, &o->imm, 8);
    } else {
        d = o->fval;
    }
    if (o->kind == RO_FIMM && ((o->fimm_bytes == 4 && t == PT_F32) || (o->fimm_bytes == 8 && t == PT_F64)) ) {
        *v = o->imm;
        return 0;
    }
    if (t == PT_F32) {
        float x = (float)d;
        uint32_t u;
        memcpy(&u, &x, 4);
        *v = u;
        return 0;
    }
    if (t == PT_F64) {
        memcpy(v, &d, 8);
        return 0;
    }
    if (t == PT_F16) {
        *v = ptx_float_to_half((float)d);
        return 0;
    }
    if (o->kind == RO_FIMM && !ptype_float(t) && ptype_bytes(t) == o->fimm_bytes) {
        *v = o->imm;          /* mov.b32 %r, 0f3F800000: the bits */
        return 0;
    }
    return -1;
}

static int symbol_value(ptx_program *p, pfunc *f, const char *name, uint64_t *v, int *local);

int ptx_dec_src(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, ptype t, uint32_t *slot, char *err, size_t cap)
{
    const raw_operand *o = opnd(ri, k);
    if (!o) return ptx_dec_fail(p, ri, err, cap, "missing operand %u", k + 1);
    if (o->kind == RO_IMM || o->kind == RO_FIMM || o->kind == RO_FLOAT) {
        uint64_t v;
        if (imm_bits(o, t == PT_NONE ? PT_B64 : t, &v) != 0)
            return ptx_dec_fail(p, ri, err, cap, "operand %u: a float constant where a .%s is needed", k + 1, ptype_name(t));
        if (const_slot(f, v, slot) != 0) return ptx_dec_fail(p, ri, err, cap, "out of memory");
        return 0;
    }
    if (o->kind != RO_REG) return ptx_dec_fail(p, ri, err, cap, "operand %u must be a register or a constant", k + 1);
    /* a register may be named without '%' (inline asm's "r0") */
    if (o->name[0] != '%' && reg_of(f, o->name, 0, slot) == 0) return 0;
    if (o->name[0] != '%' && reg_of(f, o->name, 1, slot) == 0)
        return ptx_dec_fail(p, ri, err, cap, "operand %u: '%s' is a predicate", k + 1, o->name);
    if (o->name[0] == '%') {
        for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
            if (!strcmp(o->name, sregs[i].name)) {
                if (sregs[i].r == SR_COUNT) break;
                *slot = special_slot(f, sregs[i].r);
                return 0;
            }
        int rc = reg_of(f, o->name, 0, slot);
        if (rc == 0) return 0;
        if (rc == -2) return ptx_dec_fail(p, ri, err, cap, "operand %u: '%s' is a predicate", k + 1, o->name);
        if (!strncmp(o->name, "%envreg", 7) || !strncmp(o->name, "%pm", 3))
            return ptx_dec_fail(p, ri, err, cap, "the special register '%s' is not supported", o->name);
        return ptx_dec_fail(p, ri, err, cap, "operand %u: '%s' is not a declared register", k + 1, o->name);
    }
    /* a symbol: its address; WARP_SZ is PTX's name for the warp size */
    uint64_t v;
    int local = 0;
    if (!strcmp(o->name, "WARP_SZ")) {
        if (const_slot(f, 32, slot) != 0) return ptx_dec_fail(p, ri, err, cap, "out of memory");
        return 0;
    }
    if (symbol_value(p, f, o->name, &v, &local) != 0)
        return ptx_dec_fail(p, ri, err, cap, "operand %u: unknown symbol '%s'", k + 1, o->name);
    if (local) return ptx_dec_fail(p, ri, err, cap, "the address of the local variable '%s' is only supported in mov", o->name);
    if (const_slot(f, v, slot) != 0) return ptx_dec_fail(p, ri, err, cap, "out of memory");
    return 0;
}

/* The address of NAME in its own space: a kernel or function parameter or a
 * call-site .param (offset in the frame's param area), a variable (shared
 * offset, constant-bank offset, global address, or with *LOCAL set the
 * offset in the frame's local variables). */
static int symbol_value(ptx_program *p, pfunc *f, const char *name, uint64_t *v, int *local)
{
    dstate *ds = DS(f);
    *local = 0;
    const ptx_func *src = f->src;
    for (unsigned i = 0; i < src->nparams; i++)
        if (!strcmp(src->params[i].name, name)) {
            *v = f->param_off[i];
            return 0;
        }
    for (unsigned i = 0; i < src->nrets; i++)
        if (!strcmp(src->rets[i].name, name)) {
            *v = f->ret_off[i];
            return 0;
        }
    nentry *e = nmap_find(&ds->names, name);
    int vi = e && e->kind == NK_VAR ? (int)e->val : find_var(p->mod, name, -1);
    if (vi < 0) return -1;
    const ptx_var *var = &p->mod->vars[vi];
    if (var->space == SP_PARAM && var->func == f->index) {
        *v = ds->param_var_off[vi];
        return 0;
    }
    if (var->space == SP_LOCAL) {
        *v = ds->local_var_off[vi];
        *local = 1;
        return 0;
    }
    *v = p->var_addr[vi];
    return 0;
}

int ptx_dec_addr(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, pinst *in, char *err, size_t cap)
{
    const raw_operand *o = opnd(ri, k);
    if (!o || o->kind != RO_ADDR) return ptx_dec_fail(p, ri, err, cap, "operand %u must be an address [...]", k + 1);
    in->off = o->off;
    in->addr_slot = UINT32_MAX;
    in->addr_base = 0;
    in->addr_local_sym = 0;
    if (!o->name) return 0;
    uint32_t slot;
    if (reg_of(f, o->name, 0, &slot) == 0) {
        in->addr_slot = slot;
        return 0;
    }
    uint64_t v;
    int local;
    if (symbol_value(p, f, o->name, &v, &local) != 0)
        return ptx_dec_fail(p, ri, err, cap, "unknown register or symbol '%s' in the address", o->name);
    in->addr_base = v;
    in->addr_local_sym = local;
    return 0;
}

/* ---- access labels ---- */

/* "file.cu:30:ld.global.f32", "kernels.cuh:259@293:ld.shared.u32" when
 * inlined, "kernel.ptx:LINE:..." without line information; "~2", "~3" for
 * the second and third instruction that would get the same label (labels
 * are trace-format labels: no spaces, no '#'). */
static const char *make_label(ptx_program *p, const raw_inst *ri)
{
    char buf[400], op[160];
    int n = snprintf(op, sizeof op, "%s", ri->opcode);
    for (unsigned k = 0; k < ri->nmods && n < (int)sizeof op; k++) n += snprintf(op + n, sizeof op - (size_t)n, ".%s", ri->mods[k]);
    const ptx_module *m = p->mod;
    raw_inst loc = *ri;
    /* a line inside a CUDA or system header says less than the user's line
     * it was inlined into */
    if (loc.inl_line && loc.file < m->nfiles && m->files[loc.file] && system_header(m->files[loc.file]))
        loc.file = loc.inl_file, loc.src_line = loc.inl_line, loc.inl_file = loc.inl_line = 0;
    ri = &loc;
    if (ri->src_line && ri->file < m->nfiles && m->files[ri->file]) {
        const char *fname = base_name(m->files[ri->file]);
        if (ri->inl_line && ri->inl_file < m->nfiles && m->files[ri->inl_file] && ri->inl_file == ri->file)
            snprintf(buf, sizeof buf, "%s:%u@%u:%s", fname, ri->src_line, ri->inl_line, op);
        else if (ri->inl_line && ri->inl_file < m->nfiles && m->files[ri->inl_file])
            snprintf(buf, sizeof buf, "%s:%u@%s:%u:%s", fname, ri->src_line, base_name(m->files[ri->inl_file]),
                     ri->inl_line, op);
        else
            snprintf(buf, sizeof buf, "%s:%u:%s", fname, ri->src_line, op);
    } else {
        snprintf(buf, sizeof buf, "%s:%u:%s", base_name(m->name), ri->line, op);
    }
    /* labels are at most COALSIM_MAX_LABEL bytes and have no spaces */
    buf[COALSIM_MAX_LABEL - 4] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '#') *c = '_';
    size_t len = strlen(buf);
    unsigned same = 0;
    for (unsigned i = 0; i < p->nlabels; i++) {
        const char *l = p->labels[i];
        if (!strncmp(l, buf, len) && (l[len] == '\0' || l[len] == '~')) same++;
    }
    if (same) snprintf(buf + len, sizeof buf - len, "~%u", same + 1);
    if (p->nlabels == p->caplabels) {
        unsigned capl = p->caplabels ? p->caplabels * 2 : 32;
        char **nl = realloc(p->labels, capl * sizeof *nl);
        if (!nl) return NULL;
        p->labels = nl;
        p->caplabels = capl;
    }
    char *d = strdup(buf);
    if (!d) return NULL;
    p->labels[p->nlabels++] = d;
    return d;
}

/* ---- the opcode tables ---- */

static const pop_entry *find_op(const char *name)
{
    const pop_entry *tabs[] = {ptx_ops_int, ptx_ops_float, ptx_ops_mem, ptx_ops_warp, ptx_ops_matrix, ptx_ops_wmma,
                               ptx_ops_async, ptx_ops_wgmma};
    for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++)
        for (const pop_entry *e = tabs[t]; e->name; e++)
            if (!strcmp(e->name, name)) return e;
    return NULL;
}

/* IN's source line: the user's, not a header's it was inlined from */
static void source_line(const ptx_program *p, const raw_inst *ri, pinst *in)
{
    unsigned file, line;
    if (user_line(p->mod, ri, &file, &line)) in->src_file = file + 1, in->src_line = line;
}

static int unsupported(pctx *x, pwarp *w, const pinst *in, uint32_t m)
{
    (void)w, (void)m;
    return ptx_fail(x, in, "this instruction is not supported by coalsim's PTX interpreter");
}

static const char *op_text(ptx_program *p, const raw_inst *ri)
{
    char op[200];
    int n = snprintf(op, sizeof op, "%s", ri->opcode);
    for (unsigned k = 0; k < ri->nmods && n < (int)sizeof op; k++) n += snprintf(op + n, sizeof op - (size_t)n, ".%s", ri->mods[k]);
    if (p->nlabels == p->caplabels) {
        unsigned capl = p->caplabels ? p->caplabels * 2 : 32;
        char **nl = realloc(p->labels, capl * sizeof *nl);
        if (!nl) return NULL;
        p->labels = nl;
        p->caplabels = capl;
    }
    char *d = strdup(op);
    if (!d) return NULL;
    /* kept with the labels so that it is freed with them, but never matched:
     * a label always has a ':' and opcodes never do */
    p->labels[p->nlabels++] = d;
    return d;
}

static int decode_control(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap);

int ptx_decode_inst(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    memset(in, 0, sizeof *in);
    in->line = ri->line;
    in->guard = -1;
    in->addr_slot = UINT32_MAX;
    in->text = op_text(p, ri);
    if (!in->text) return ptx_dec_fail(p, ri, err, cap, "out of memory");
    if (ri->guard) {
        uint32_t g;
        if (reg_of(f, ri->guard, 1, &g) != 0)
            return ptx_dec_fail(p, ri, err, cap, "guard '%s' is not a declared predicate", ri->guard);
        in->guard = (int16_t)g;
        in->guard_neg = (uint8_t)ri->guard_neg;
    }
    int rc = decode_control(p, f, ri, in, err, cap);
    if (rc == 0) ptx_sched_decode(f, ri, in);
    if (rc <= 0) return rc;       /* a control instruction, decoded (0) or wrong (-1) */
    const pop_entry *e = find_op(ri->opcode);
    if (!e) {
        in->kind = K_UNSUPPORTED;
        in->fn = unsupported;
        source_line(p, ri, in);   /* its error names it */
        return 0;
    }
    if (e->decode(p, f, ri, in, err, cap) != 0) return -1;
    if (!in->fn) {
        in->kind = K_UNSUPPORTED;
        in->fn = unsupported;
    }
    source_line(p, ri, in);
    if (in->kind == K_MEM) {
        if (!(in->label = make_label(p, ri))) return ptx_dec_fail(p, ri, err, cap, "out of memory");
        in->label_id = p->nlabels;       /* the label's place in p->labels, + 1 */
    }
    ptx_sched_decode(f, ri, in);
    return 0;
}

/* ---- control instructions (decoded here; executed by ptx_exec.c) ---- */

static int label_index(pfunc *f, const char *name, uint32_t *idx)
{
    nentry *e = nmap_find(&DS(f)->names, name);
    if (!e || e->kind != NK_LABEL) return -1;
    *idx = e->val;
    return 0;
}

static int add_call_args(pfunc *f, const raw_operand *list, uint32_t *first, uint32_t *n, ptx_program *p,
                         const raw_inst *ri, char *err, size_t cap)
{
    dstate *ds = DS(f);
    *first = ds->ncalls;
    *n = 0;
    if (!list) return 0;
    for (unsigned k = 0; k < list->nvec; k++) {
        const char *name = list->vec[k];
        nentry *e = name ? nmap_find(&ds->names, name) : NULL;
        int vi = e && e->kind == NK_VAR ? (int)e->val : -1;
        if (vi < 0 || p->mod->vars[vi].space != SP_PARAM || p->mod->vars[vi].func != f->index)
            return ptx_dec_fail(p, ri, err, cap, "call argument '%s' is not a .param of this function", name ? name : "_");
        if (ds->ncalls == ds->capcalls) {
            uint32_t c = ds->capcalls ? ds->capcalls * 2 : 16;
            pcall_arg *a = realloc(ds->calls, c * sizeof *a);
            if (!a) return ptx_dec_fail(p, ri, err, cap, "out of memory");
            ds->calls = a;
            ds->capcalls = c;
        }
        ds->calls[ds->ncalls++] = (pcall_arg){ds->param_var_off[vi], (uint32_t)p->mod->vars[vi].bytes};
        (*n)++;
    }
    return 0;
}

/* 1: not a control instruction; 0: decoded; -1: error. */
static int decode_control(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap)
{
    const char *op = ri->opcode;
    if (!strcmp(op, "bra") || !strcmp(op, "brx")) {
        if (!strcmp(op, "brx")) return ptx_dec_fail(p, ri, err, cap, "indirect branches (brx.idx) are not supported");
        in->kind = K_BRA;
        if (ptx_has_mod(ri, "uni")) in->flags |= PF_UNI;
        if (ri->nops != 1 || ri->ops[0].kind != RO_REG || label_index(f, ri->ops[0].name, &in->target) != 0)
            return ptx_dec_fail(p, ri, err, cap, "bra needs a label of this function");
        return 0;
    }
    if (!strcmp(op, "ret")) {
        in->kind = K_RET;
        return 0;
    }
    if (!strcmp(op, "exit")) {
        in->kind = K_EXIT;
        return 0;
    }
    if (!strcmp(op, "trap") || !strcmp(op, "brkpt")) {
        in->kind = K_TRAP;
        return 0;
    }
    if (!strcmp(op, "membar") || !strcmp(op, "fence") || !strcmp(op, "nanosleep") || !strcmp(op, "pmevent") ||
        !strcmp(op, "prefetch") || !strcmp(op, "prefetchu") || !strcmp(op, "griddepcontrol") ||
        (!strcmp(op, "bar") && ptx_has_mod(ri, "warp")) || !strcmp(op, "discard")) {
        in->kind = K_NOP;        /* ordering and hints: our memory is sequentially consistent within a block */
        return 0;
    }
    if (!strcmp(op, "barrier") && ptx_has_mod(ri, "cluster")) return 1;   /* barrier.cluster: ptx_ops_async.c */
    if (!strcmp(op, "bar") || !strcmp(op, "barrier")) {
        /* bar{.cta}.sync|arrive a{, b}: barrier a (0-15), b threads (all the CTA's without) */
        if (ptx_has_mod(ri, "red")) return ptx_dec_fail(p, ri, err, cap, "bar.red is not supported");
        in->kind = K_BAR;
        in->sub = (uint8_t)ptx_has_mod(ri, "arrive");
        in->a = in->b = UINT32_MAX;
        if (ri->nops > 2) return ptx_dec_fail(p, ri, err, cap, "a barrier takes an id and a thread count at most");
        if (ri->nops > 0 && ptx_dec_src(p, f, ri, 0, PT_U32, &in->a, err, cap)) return -1;
        if (ri->nops > 1 && ptx_dec_src(p, f, ri, 1, PT_U32, &in->b, err, cap)) return -1;
        if (in->sub && in->b == UINT32_MAX) return ptx_dec_fail(p, ri, err, cap, "bar.arrive needs a thread count");
        return 0;
    }
    if (!strcmp(op, "call")) {
        /* call[.uni] [(rets),] func [, (args)] */
        in->kind = K_CALL;
        unsigned k = 0;
        const raw_operand *rets = NULL, *args = NULL;
        if (k < ri->nops && ri->ops[k].kind == RO_LIST) rets = &ri->ops[k++];
        if (k >= ri->nops || ri->ops[k].kind != RO_REG) return ptx_dec_fail(p, ri, err, cap, "call needs a function name");
        const char *callee = ri->ops[k++].name;
        if (k < ri->nops && ri->ops[k].kind == RO_LIST) args = &ri->ops[k++];
        if (k < ri->nops) return ptx_dec_fail(p, ri, err, cap, "indirect calls (through a prototype) are not supported");
        int fi = ptx_find_func(p->mod, callee);
        if (fi < 0) {
            if (reg_of(f, callee, 0, &in->target) == 0)
                return ptx_dec_fail(p, ri, err, cap, "indirect calls (through a register) are not supported");
            return ptx_dec_fail(p, ri, err, cap, "call of an unknown function '%s'", callee);
        }
        in->target = (uint32_t)fi;
        if (add_call_args(f, args, &in->call_args, &in->call_nargs, p, ri, err, cap) ||
            add_call_args(f, rets, &in->call_rets, &in->call_nrets, p, ri, err, cap))
            return -1;
        const ptx_func *cf = &p->mod->funcs[fi];
        if (!cf->has_body && strcmp(cf->name, "vprintf") != 0 && strcmp(cf->name, "__assertfail") != 0)
            return ptx_dec_fail(p, ri, err, cap, "call of '%s', which has no body in this PTX (a library function?)",
                                cf->name);
        if (cf->has_body && (in->call_nargs != cf->nparams || in->call_nrets != cf->nrets))
            return ptx_dec_fail(p, ri, err, cap, "call of '%s' with %u arguments and %u results; it takes %u and %u",
                                cf->name, in->call_nargs, in->call_nrets, cf->nparams, cf->nrets);
        return 0;
    }
    return 1;
}

/* ---- a function ---- */

static uint32_t align32(uint32_t x, uint32_t a) { return a ? (x + a - 1) / a * a : x; }

static int retag(pfunc *f, uint32_t *s)
{
    if (*s == UINT32_MAX) return 0;
    if (*s & TAG_CONST) *s = f->const_first + (*s & TAG_MASK);
    else if (*s & TAG_SPECIAL) *s = f->special_first + (*s & TAG_MASK);
    return 0;
}

/* Slots that hold predicates rather than registers, by kind of instruction,
 * are left alone by retag: the ops files mark them in npred_neg's high bits?
 * No: predicate operands are indices below npreds and never tagged, so
 * retagging touches only tagged values. */

static pfunc *decode_function(ptx_program *p, int fi, char *err, size_t cap)
{
    const ptx_module *m = p->mod;
    const ptx_func *src = &m->funcs[fi];
    pfunc *f = calloc(1, sizeof *f);
    dstate *ds = calloc(1, sizeof *ds);
    uint32_t *label_ni = NULL;
    if (!f || !ds) {
        free(f), free(ds);
        snprintf(err, cap, "%s: out of memory", m->name);
        return NULL;
    }
    f->index = fi;
    f->src = src;
    f->dec = ds;
    ds->p = p;
    ds->param_var_off = calloc(m->nvars + 1, sizeof *ds->param_var_off);
    ds->local_var_off = calloc(m->nvars + 1, sizeof *ds->local_var_off);
    f->param_off = calloc(src->nparams + 1, sizeof *f->param_off);
    f->ret_off = calloc(src->nrets + 1, sizeof *f->ret_off);
    if (!ds->param_var_off || !ds->local_var_off || !f->param_off || !f->ret_off) goto oom;
    /* registers: every declaration its own slots (or predicates); names are
     * bound as the declarations come, scope by scope, below */
    size_t nnames = 1;
    for (unsigned i = 0; i < src->nregs; i++) nnames += src->regs[i].count ? src->regs[i].count : 1;
    ds->regnames = calloc(nnames, sizeof *ds->regnames);
    ds->decl_first = calloc(src->nregs + 1, sizeof *ds->decl_first);
    ds->decl_name = calloc(src->nregs + 1, sizeof *ds->decl_name);
    if (!ds->regnames || !ds->decl_first || !ds->decl_name) goto oom;
    for (unsigned i = 0; i < src->nregs; i++) {
        const ptx_reg_decl *r = &src->regs[i];
        unsigned n = r->count ? r->count : 1;
        ds->decl_name[i] = (uint32_t)ds->nregnames;
        ds->decl_first[i] = r->type == PT_PRED ? ds->npreds : ds->nregs;
        for (unsigned k = 0; k < n; k++) {
            char *name = ds->regnames[ds->nregnames++];
            if (r->count) snprintf(name, 72, "%s%u", r->prefix, k);
            else snprintf(name, 72, "%s", r->prefix);
        }
        if (r->type == PT_PRED) ds->npreds += n;
        else ds->nregs += n;
    }
    if (nmap_put(&ds->names, "%_sink", NK_REG, ds->nregs++)) goto oom;
    /* labels: the index of the next instruction; bound scope by scope
     * below (inline asm blocks each have their own: two inlined copies of
     * one asm block both say "DONE:") */
    uint32_t ni = 0;
    label_ni = calloc(src->ninsts + 1, sizeof *label_ni);
    if (!label_ni) goto oom;
    for (unsigned i = 0; i < src->ninsts; i++) {
        if (src->insts[i].pseudo) continue;
        if (src->insts[i].label) label_ni[i] = ni;
        else ni++;
    }
    if (bind_labels(ds, src, 0, label_ni, 0) != 0) goto oom;
    /* the param area: inputs, returns, then the call-site .params; and the .local variables */
    uint32_t top = 0;
    for (unsigned i = 0; i < src->nparams; i++) {
        top = align32(top, src->params[i].align);
        f->param_off[i] = top;
        top += (uint32_t)src->params[i].bytes;
    }
    for (unsigned i = 0; i < src->nrets; i++) {
        top = align32(top, src->rets[i].align);
        f->ret_off[i] = top;
        top += (uint32_t)src->rets[i].bytes;
    }
    uint64_t ltop = 0;
    for (unsigned vi = 0; vi < m->nvars; vi++) {
        const ptx_var *v = &m->vars[vi];
        if (v->func != fi) continue;
        if (v->space == SP_PARAM) {
            top = align32(top, v->align);
            ds->param_var_off[vi] = top;
            top += (uint32_t)v->bytes;
        } else if (v->space == SP_LOCAL) {
            uint64_t a = v->align ? v->align : 1;
            ltop = (ltop + a - 1) / a * a;
            ds->local_var_off[vi] = ltop;
            ltop += v->bytes;
        }
    }
    f->param_bytes = align32(top, 8);
    f->local_bytes = (ltop + 15) / 16 * 16;
    /* instructions */
    f->code = calloc(ni + 1, sizeof *f->code);
    if (!f->code) goto oom;
    f->ncode = ni;
    ni = 0;
    unsigned depth = 0;
    for (unsigned i = 0; i < src->ninsts; i++) {
        const raw_inst *ri = &src->insts[i];
        if (ri->pseudo == RP_OPEN) {
            depth++;
            if (bind_labels(ds, src, i + 1, label_ni, depth) != 0) goto oom;
        } else if (ri->pseudo == RP_CLOSE) {
            if (unbind(ds, depth) != 0) goto oom;
            if (depth) depth--;
        } else if (ri->pseudo == RP_REGS) {
            for (unsigned d = ri->first; d < ri->first + ri->count; d++) {
                const ptx_reg_decl *r = &src->regs[d];
                unsigned n = r->count ? r->count : 1;
                for (unsigned k = 0; k < n; k++)
                    if (bind(ds, ds->regnames[ds->decl_name[d] + k], r->type == PT_PRED ? NK_PRED : NK_REG,
                             ds->decl_first[d] + k, depth) != 0)
                        goto oom;
            }
        } else if (ri->pseudo == RP_VARS) {
            for (unsigned v = ri->first; v < ri->first + ri->count; v++)
                if (bind(ds, m->vars[v].name, NK_VAR, v, depth) != 0) goto oom;
        } else if (!ri->label) {
            if (ptx_decode_inst(p, f, ri, &f->code[ni], err, cap) != 0) goto fail;
            ni++;
        }
    }
    /* constants and specials after the registers */
    f->const_first = ds->nregs;
    f->nconsts = ds->nconsts;
    f->consts = ds->consts;
    ds->consts = NULL;
    f->special_first = f->const_first + f->nconsts;
    f->nspecials = ds->nspecials;
    f->specials = malloc(ds->nspecials + 1);
    if (!f->specials) goto oom;
    memcpy(f->specials, ds->special_of, ds->nspecials);
    f->nslots = f->special_first + f->nspecials;
    f->npreds = ds->npreds ? ds->npreds : 1;
    for (uint32_t i = 0; i < f->nxslots; i++) retag(f, &f->xslots[i]);     /* constants among them: {0, %r1} */
    for (uint32_t i = 0; i < f->ncode; i++) {
        pinst *in = &f->code[i];
        retag(f, &in->d), retag(f, &in->d2), retag(f, &in->a), retag(f, &in->b), retag(f, &in->c), retag(f, &in->e);
        for (int k = 0; k < 4; k++) retag(f, &in->v[k]);
        retag(f, &in->addr_slot);
        /* a constant second operand (add, mul.wide: indices and loop
         * counters): the handler that reads one lane array fewer */
        if (in->kind == K_OP && in->fn_imm && in->b >= f->const_first && in->b < f->const_first + f->nconsts) {
            in->fn = in->fn_imm;
            in->imm = f->consts[in->b - f->const_first];
        }
    }
    f->calls = ds->calls;
    f->ncalls = ds->ncalls;
    ds->calls = NULL;
    int sm = !strncmp(m->target, "sm_", 3) ? atoi(m->target + 3) : 0;
    if (ptx_sched_fix(f) != 0 || ptx_cfg_reconv(f) != 0 || ptx_agg_atomics(f, fi == p->entry, sm) != 0) goto oom;
    free(ds->names.e);
    free(ds->regnames);
    free(ds->param_var_off);
    free(ds->local_var_off);
    free(ds->decl_first);
    free(ds->decl_name);
    free(ds->undo);
    free(ds);
    free(label_ni);
    f->dec = NULL;
    return f;
oom:
    snprintf(err, cap, "%s: out of memory", m->name);
fail:
    free(label_ni);
    free(ds->decl_first);
    free(ds->decl_name);
    free(ds->undo);
    free(ds->names.e);
    free(ds->regnames);
    free(ds->consts);
    free(ds->calls);
    free(ds->param_var_off);
    free(ds->local_var_off);
    free(ds);
    free(f->code);
    free(f->sb_uses);
    free(f->param_off);
    free(f->ret_off);
    free(f->specials);
    free(f);
    return NULL;
}

static void free_function(pfunc *f)
{
    if (!f) return;
    free(f->code);
    free(f->sb_uses);
    free(f->consts);
    free(f->specials);
    free(f->param_off);
    free(f->ret_off);
    free(f->calls);
    free(f->xslots);
    free(f);
}

/* ---- the program ---- */

/* Mark the functions reachable from FI (calls by name). */
static void reach(const ptx_module *m, int fi, unsigned char *seen)
{
    if (seen[fi]) return;
    seen[fi] = 1;
    const ptx_func *f = &m->funcs[fi];
    for (unsigned i = 0; i < f->ninsts; i++) {
        const raw_inst *ri = &f->insts[i];
        if (ri->label || strcmp(ri->opcode, "call")) continue;
        for (unsigned k = 0; k < ri->nops; k++)
            if (ri->ops[k].kind == RO_REG) {
                int c = ptx_find_func(m, ri->ops[k].name);
                if (c >= 0) reach(m, c, seen);
            }
    }
}

/* 1 if a reachable function names module variable NAME. */
static int referenced(const ptx_module *m, const unsigned char *seen, const char *name)
{
    for (unsigned fi = 0; fi < m->nfuncs; fi++) {
        if (!seen[fi]) continue;
        const ptx_func *f = &m->funcs[fi];
        for (unsigned i = 0; i < f->ninsts; i++)
            for (unsigned k = 0; k < f->insts[i].nops; k++) {
                const raw_operand *o = &f->insts[i].ops[k];
                if (o->name && !strcmp(o->name, name)) return 1;
            }
    }
    return 0;
}

int ptx_program_build(ptx_program *p, const ptx_module *m, int entry, kmem *mem, const uint64_t *placed, char *err,
                      size_t cap)
{
    memset(p, 0, sizeof *p);
    p->mod = m;
    p->entry = entry;
    p->mem = mem;
    unsigned char *seen = calloc(m->nfuncs + 1, 1);
    p->funcs = calloc(m->nfuncs + 1, sizeof *p->funcs);
    p->var_addr = calloc(m->nvars + 1, sizeof *p->var_addr);
    if (!seen || !p->funcs || !p->var_addr) {
        free(seen);
        snprintf(err, cap, "%s: out of memory", m->name);
        return -1;
    }
    reach(m, entry, seen);
    /* shared: the variables the kernel can reach, then the dynamic (extern) array */
    /* sm_80 and later keep the first 1 KiB of a block's shared memory for
     * the system: variables start after it (the H100's captured shared
     * addresses start at 1024) */
    int sm = 0;
    if (!strncmp(m->target, "sm_", 3)) sm = atoi(m->target + 3);
    uint64_t smem = sm >= 80 ? PTX_SMEM_RESERVED : 0, cbank = 0, dyn_align = 16;
    p->smem_reserved = smem;
    for (unsigned vi = 0; vi < m->nvars; vi++) {
        const ptx_var *v = &m->vars[vi];
        uint64_t a = v->align ? v->align : 1;
        if (v->space == SP_SHARED && !v->is_extern && ((v->func >= 0 && seen[v->func]) ||
                                                      (v->func < 0 && referenced(m, seen, v->name)))) {
            smem = (smem + a - 1) / a * a;
            p->var_addr[vi] = smem;
            smem += v->bytes;
        } else if (v->space == SP_SHARED && v->is_extern) {
            if (a > dyn_align) dyn_align = a;
        } else if (v->space == SP_CONST) {
            cbank = (cbank + a - 1) / a * a;
            p->var_addr[vi] = cbank;
            cbank += v->bytes;
        }
    }
    smem = (smem + dyn_align - 1) / dyn_align * dyn_align;
    for (unsigned vi = 0; vi < m->nvars; vi++)
        if (m->vars[vi].space == SP_SHARED && m->vars[vi].is_extern) p->var_addr[vi] = smem;
    p->static_smem = smem;
    p->const_bytes = cbank;
    p->const_bank = calloc(cbank + 16, 1);
    if (!p->const_bank) {
        free(seen);
        snprintf(err, cap, "%s: out of memory", m->name);
        return -1;
    }
    for (unsigned vi = 0; vi < m->nvars; vi++) {
        const ptx_var *v = &m->vars[vi];
        if (v->space == SP_CONST && v->init) memcpy(p->const_bank + p->var_addr[vi], v->init, v->bytes);
        if (v->space == SP_GLOBAL) {
            p->var_addr[vi] = placed ? placed[vi] : kmem_add_var(mem, v->name, v->bytes, v->align, v->init);
            if (!p->var_addr[vi]) {
                free(seen);
                snprintf(err, cap, "%s: out of memory", m->name);
                return -1;
            }
        }
    }
    for (unsigned fi = 0; fi < m->nfuncs; fi++) {
        if (!seen[fi] || !m->funcs[fi].has_body) continue;
        if (!(p->funcs[fi] = decode_function(p, (int)fi, err, cap))) {
            free(seen);
            return -1;
        }
    }
    free(seen);
    return 0;
}

void ptx_program_free(ptx_program *p)
{
    if (p->funcs)
        for (unsigned i = 0; i < p->mod->nfuncs; i++) free_function(p->funcs[i]);
    free(p->funcs);
    free(p->var_addr);
    free(p->const_bank);
    for (unsigned i = 0; i < p->nlabels; i++) free(p->labels[i]);
    free(p->labels);
    memset(p, 0, sizeof *p);
}
