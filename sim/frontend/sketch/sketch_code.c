/* Kernel sketches: expressions compiled to code for a whole warp
 * (sketch_vm.c runs it).  Each operation works on slots of 32 lanes.
 * Params, blockDim and gridDim are constants, and constant subexpressions
 * are folded, through sk_eval itself so that a folded value is the value the
 * language defines; a subexpression that would fail (1 / 0) is left to fail
 * at run time, where and when sk_eval would.  && || ?: narrow a mask for
 * their right-hand parts: only a lane that would evaluate an operation can
 * fail it.  Every operation writes a temporary none of its operands is in,
 * so the machine's loops may take their slots as restrict. */
#include <stdlib.h>
#include <string.h>

#include "sketch.h"

#define TEMP 0x80000000u       /* a temporary's number while compiling */
#define UNI 0x40000000u        /* a uniform value's number while compiling */
#define MAXTEMPS 4096          /* temporaries alive at once: far more than any expression nests */

typedef struct {
    coalsim_sketch *sk;
    sk_err *er;
    unsigned char used[MAXTEMPS];   /* temporaries holding a value still to be read */
    uint32_t masks;            /* mask slots in use */
    int64_t *kval;             /* constants' values, for reuse */
    sk_op *pro;                /* the block prologue: operations on uniform values */
    size_t npro, cappro;
} cc;

/* What an expression compiled to: a constant, or a slot; UNI: the same in
 * every lane of a block (blockIdx, and what is made of it and constants). */
typedef struct {
    int is_const;
    int64_t k;
    uint32_t slot;
    int uni;
} val;

static int uniform(const val *v) { return v->is_const || v->uni; }

static int emit(cc *c, uint32_t op, uint32_t d, uint32_t a, uint32_t b, uint32_t x)
{
    coalsim_sketch *sk = c->sk;
    if (sk->ncode == sk->capcode) {
        size_t cap = sk->capcode ? sk->capcode * 2 : 256;
        sk_op *code = realloc(sk->code, cap * sizeof *code);
        if (!code) return sk_fail(c->er, 0, 0, "out of memory");
        sk->code = code;
        sk->capcode = cap;
    }
    sk->code[sk->ncode++] = (sk_op){op, d, a, b, x};
    return 0;
}

/* A free temporary for an operation's result: never one of its operands,
 * so that each operation reads and writes distinct slots. */
static int temp(cc *c, const sk_expr *e, uint32_t *d)
{
    for (uint32_t i = 0; i < MAXTEMPS; i++)
        if (!c->used[i]) {
            c->used[i] = 1;
            if (i + 1 > c->sk->ntemps) c->sk->ntemps = i + 1;
            return *d = TEMP | i, 0;
        }
    return sk_fail(c->er, e->line, e->col, "expression too deep");
}

/* The operand V has been read. */
static void done(cc *c, const val *v)
{
    if (!v->is_const && (v->slot & TEMP)) c->used[v->slot & ~TEMP] = 0;
}

/* The slot of constant K (one a value). */
static int konst(cc *c, int64_t k, uint32_t *slot)
{
    coalsim_sketch *sk = c->sk;
    for (uint32_t i = sk->nkonst; i-- > 0 && i + 64 >= sk->nkonst;)   /* the last few: enough to share most */
        if (c->kval[i] == k) return *slot = SK_SLOT_KONST(sk) + i, 0;
    if (sk->nkonst == sk->capkonst) {
        uint32_t cap = sk->capkonst ? sk->capkonst * 2 : 16;
        int64_t(*kv)[SK_W] = realloc(sk->konst, cap * sizeof *kv);
        if (kv) sk->konst = kv;
        int64_t *vals = kv ? realloc(c->kval, cap * sizeof *vals) : NULL;
        if (!vals) return sk_fail(c->er, 0, 0, "out of memory");
        c->kval = vals;
        sk->capkonst = cap;
    }
    for (int l = 0; l < SK_W; l++) sk->konst[sk->nkonst][l] = k;
    c->kval[sk->nkonst] = k;
    *slot = SK_SLOT_KONST(sk) + sk->nkonst++;
    return 0;
}

static int as_slot(cc *c, val *v)
{
    if (!v->is_const) return 0;
    return konst(c, v->k, &v->slot);
}

/* Fold node E over constant operands through sk_eval: 1 with *out, 0 if it
 * would fail. */
static int fold(cc *c, const sk_expr *e, const val *a, const val *b, int64_t *out)
{
    sk_expr na = {.kind = E_NUM, .num = a->k}, nb = {.kind = E_NUM, .num = b ? b->k : 0}, n = *e;
    n.a = &na, n.b = &nb;
    char buf[8];
    sk_err scratch = {"", buf, sizeof buf, 0};
    sk_view v = {.sk = c->sk};
    return sk_eval(&v, &n, 0, out, &scratch) == 0;
}

static uint32_t binop(int op)
{
    switch (op) {
    case '+': return OP_ADD;
    case '-': return OP_SUB;
    case '*': return OP_MUL;
    case '/': return OP_DIV;
    case '%': return OP_MOD;
    case T_SHL: return OP_SHL;
    case T_SHR: return OP_SHR;
    case '<': return OP_LT;
    case '>': return OP_GT;
    case T_LE: return OP_LE;
    case T_GE: return OP_GE;
    case T_EQ: return OP_EQ;
    case T_NE: return OP_NE;
    case '&': return OP_AND;
    case '^': return OP_XOR;
    default: return OP_OR;
    }
}

static int gen(cc *c, const sk_expr *e, val *out);

/* Code for E under a mask narrowed to the lanes where COND is (NZ) non-zero
 * or (!NZ) zero; skipped when no lane is left. */
static int gen_masked(cc *c, const sk_expr *e, uint32_t cond, int nz, val *out)
{
    uint32_t m = c->masks++, at = (uint32_t)c->sk->ncode;
    if (m + 1 > c->sk->nmasks) c->sk->nmasks = m + 1;
    if (emit(c, nz ? OP_MPUSH_NZ : OP_MPUSH_Z, 0, cond, 0, m) || gen(c, e, out) || as_slot(c, out) ||
        emit(c, OP_MPOP, 0, 0, 0, m))
        return -1;
    c->sk->code[at].b = (uint32_t)c->sk->ncode - 1;   /* where MPUSH jumps when no lane is left */
    c->masks--;
    return 0;
}

/* OP on uniform operands A, B (slots), X as a value of the block prologue,
 * shared with an identical one there: *OUT. */
static int hoist(cc *c, uint32_t op, uint32_t a, uint32_t b, uint32_t x, val *out)
{
    for (size_t i = 0; i < c->npro; i++)
        if (c->pro[i].op == op && c->pro[i].a == a && c->pro[i].b == b && c->pro[i].c == x)
            return *out = (val){0, 0, c->pro[i].d, 1}, 0;
    if (c->npro == c->cappro) {
        size_t cap = c->cappro ? 2 * c->cappro : 16;
        sk_op *pro = realloc(c->pro, cap * sizeof *pro);
        if (!pro) return sk_fail(c->er, 0, 0, "out of memory");
        c->pro = pro;
        c->cappro = cap;
    }
    uint32_t d = UNI | c->sk->nuni++;
    c->pro[c->npro++] = (sk_op){op, d, a, b, x};
    return *out = (val){0, 0, d, 1}, 0;
}

/* An operation that cannot fail: all but / % << >>, which cannot either by
 * a constant that works. */
static int cannot_fail(uint32_t op, const val *b)
{
    if (op == OP_DIV || op == OP_MOD) return b && b->is_const && b->k != 0;
    if (op == OP_SHL || op == OP_SHR) return b && b->is_const && (uint64_t)b->k <= 63;
    return 1;
}

/* An operation on A (and B) into a new temporary: *OUT.  On uniform
 * operands it goes to the block prologue instead, if it cannot fail. */
static int op2(cc *c, const sk_expr *e, uint32_t op, val *a, val *b, uint32_t x, val *out)
{
    uint32_t d = 0;
    if (uniform(a) && (!b || uniform(b)) && cannot_fail(op, b)) {
        if (as_slot(c, a) || (b && as_slot(c, b))) return -1;
        return hoist(c, op, a->slot, b ? b->slot : a->slot, x, out);
    }
    if (temp(c, e, &d) || emit(c, op, d, a->slot, b ? b->slot : a->slot, x)) return -1;
    done(c, a);
    if (b) done(c, b);
    *out = (val){0, 0, d, 0};
    return 0;
}

static int gen_logic(cc *c, const sk_expr *e, val *out)
{
    val a, b;
    int is_and = e->op == T_AND;
    if (gen(c, e->a, &a)) return -1;
    if (a.is_const && (is_and ? !a.k : a.k)) {   /* the right side is never evaluated */
        *out = (val){1, is_and ? 0 : 1, 0, 0};
        return 0;
    }
    if (a.is_const) {                            /* the value is the right side's truth */
        if (gen(c, e->b, &b)) return -1;
        if (b.is_const) return *out = (val){1, b.k != 0, 0, 0}, 0;
        return op2(c, e, OP_LAND, &b, NULL, 0, out);
    }
    if (gen_masked(c, e->b, a.slot, is_and, &b)) return -1;
    return op2(c, e, is_and ? OP_LAND : OP_LOR, &a, &b, 0, out);
}

static int gen(cc *c, const sk_expr *e, val *out)
{
    coalsim_sketch *sk = c->sk;
    val a, b, x;
    int64_t k;
    switch (e->kind) {
    case E_NUM: return *out = (val){1, e->num, 0, 0}, 0;
    case E_VAR:
        if (sk->is_param[e->var]) return *out = (val){1, sk->param[e->var], 0, 0}, 0;
        return *out = (val){0, 0, (uint32_t)e->var, 0}, 0;
    case E_BUILTIN:
        if (e->var < B_BID) return *out = (val){0, 0, SK_SLOT_TID(sk) + (uint32_t)e->var, 0}, 0;
        if (e->var < B_BDIM) return *out = (val){0, 0, SK_SLOT_BID(sk) + (uint32_t)(e->var - B_BID), 1}, 0;
        return *out = (val){1, e->var < B_GDIM ? sk->block[e->var - B_BDIM] : sk->grid[e->var - B_GDIM], 0, 0}, 0;
    case E_UN:
        if (gen(c, e->a, &a)) return -1;
        if (a.is_const && fold(c, e, &a, NULL, &k)) return *out = (val){1, k, 0, 0}, 0;
        if (e->op == '+') return *out = a, 0;
        return op2(c, e, e->op == '-' ? OP_NEG : e->op == '~' ? OP_NOT : OP_LNOT, &a, NULL, 0, out);
    case E_COND: {
        if (gen(c, e->a, &a)) return -1;
        if (a.is_const) return gen(c, a.k ? e->b : e->c, out);
        uint32_t d = 0;
        if (gen_masked(c, e->b, a.slot, 1, &x) || gen_masked(c, e->c, a.slot, 0, &b)) return -1;
        if (uniform(&a) && uniform(&x) && uniform(&b)) return hoist(c, OP_SEL, a.slot, x.slot, b.slot, out);
        if (temp(c, e, &d) || emit(c, OP_SEL, d, a.slot, x.slot, b.slot)) return -1;
        done(c, &a), done(c, &x), done(c, &b);
        return *out = (val){0, 0, d, 0}, 0;
    }
    default: break;
    }
    if (e->op == T_AND || e->op == T_OR) return gen_logic(c, e, out);
    if (gen(c, e->a, &a) || gen(c, e->b, &b)) return -1;
    if (a.is_const && b.is_const && fold(c, e, &a, &b, &k)) return *out = (val){1, k, 0, 0}, 0;
    if (as_slot(c, &a)) return -1;
    if ((e->op == '/' || e->op == '%' || e->op == '*') && b.is_const && b.k > 0 && !(b.k & (b.k - 1)))   /* by 2^k */
        return op2(c, e, e->op == '/' ? OP_DIVP2 : e->op == '%' ? OP_MODP2 : OP_MULP2, &a, NULL,
                   (uint32_t)__builtin_ctzll((uint64_t)b.k), out);
    if (e->op == '*' && a.is_const && a.k > 0 && !(a.k & (a.k - 1)) && !b.is_const)   /* 2^k * x */
        return op2(c, e, OP_MULP2, &b, NULL, (uint32_t)__builtin_ctzll((uint64_t)a.k), out);
    if (as_slot(c, &b)) return -1;
    return op2(c, e, binop(e->op), &a, &b, 0, out);
}

/* Compile E into *code.  Its value's temporary stays taken until the
 * statement is compiled: a statement reads all its values at the end. */
static int compile_expr(cc *c, const sk_expr *e, sk_code *code)
{
    val v;
    code->first = (uint32_t)c->sk->ncode;
    if (gen(c, e, &v) || as_slot(c, &v)) return -1;
    code->end = (uint32_t)c->sk->ncode;
    code->slot = v.slot;
    return 0;
}

static void relocate(coalsim_sketch *sk, uint32_t *slot)
{
    if (*slot & TEMP) *slot = SK_SLOT_TEMP(sk) + (*slot & ~TEMP);
    else if (*slot & UNI) *slot = SK_SLOT_UNI(sk) + (*slot & ~UNI);
}

/* Mark in READ the variables E reads. */
static void reads(const sk_expr *e, unsigned char *read)
{
    for (; e; e = e->kind == E_UN ? e->a : NULL) {
        if (e->kind == E_VAR) read[e->var] = 1;
        if (e->kind == E_BIN || e->kind == E_COND) {
            reads(e->a, read);
            reads(e->b, read);
            reads(e->c, read);
        }
    }
}

/* Which variables a warp must start at 0: all but those whose first use is
 * an assignment outside any if or for (every lane still running passes
 * it; a lane that returned reads nothing again).  Lanes outside the mask
 * keep whatever the warp before left; nothing reads them. */
static void find_resets(coalsim_sketch *sk)
{
    unsigned char seen[SK_MAXVARS] = {0};
    int depth_end = 0;                           /* statements before it are nested */
    for (int i = 0; i < sk->nst; i++) {
        const sk_stmt *t = &sk->st[i];
        unsigned char before[SK_MAXVARS] = {0}, after[SK_MAXVARS] = {0};   /* read before / after it writes */
        if (t->kind == S_FOR) {
            reads(t->init, before);
            reads(t->e, after), reads(t->step, after);
        } else {
            reads(t->e, before);
            for (int k = 0; k < t->nidx; k++) reads(t->idx[k], before);
        }
        for (int v = 0; v < sk->nvars; v++)
            if (before[v] && !seen[v]) seen[v] = 1, sk->reset[v] = 1;
        if ((t->kind == S_ASSIGN || t->kind == S_FOR) && !seen[t->var]) {
            seen[t->var] = 1;
            sk->reset[t->var] = i < depth_end;   /* nested: only some lanes write it */
        }
        for (int v = 0; v < sk->nvars; v++)
            if (after[v] && !seen[v]) seen[v] = 1, sk->reset[v] = 1;
        if ((t->kind == S_IF || t->kind == S_FOR) && t->body_end > depth_end) depth_end = t->body_end;
    }
    for (int v = 0; v < sk->nvars; v++)
        if (sk->is_param[v]) sk->reset[v] = 0;
}

int sk_compile(coalsim_sketch *sk, sk_err *er)
{
    find_resets(sk);
    cc *c = calloc(1, sizeof *c);
    if (!c) return sk_fail(er, 0, 0, "out of memory");
    c->sk = sk, c->er = er;
    int rc = 0;
    for (int i = 0; i < sk->nst && rc == 0; i++) {
        sk_stmt *t = &sk->st[i];
        memset(c->used, 0, sizeof c->used);
        if (t->kind == S_ASSIGN || t->kind == S_IF) rc = compile_expr(c, t->e, &t->c_e);
        if (t->kind == S_FOR)
            rc = compile_expr(c, t->init, &t->c_init) || compile_expr(c, t->e, &t->c_e) ||
                 compile_expr(c, t->step, &t->c_step);
        for (int k = 0; t->kind == S_ACCESS && k < t->nidx && rc == 0; k++) rc = compile_expr(c, t->idx[k], &t->c_idx[k]);
    }
    /* the block prologue after all statements' code */
    sk->prologue.first = sk->prologue.end = (uint32_t)sk->ncode;
    for (size_t i = 0; i < c->npro && rc == 0; i++) {
        const sk_op *o = &c->pro[i];
        rc = emit(c, o->op, o->d, o->a, o->b, o->c);
    }
    sk->prologue.end = (uint32_t)sk->ncode;
    free(c->pro);
    free(c->kval);
    free(c);
    if (rc) return -1;
    for (size_t i = 0; i < sk->ncode; i++) {
        sk_op *o = &sk->code[i];
        relocate(sk, &o->d), relocate(sk, &o->a), relocate(sk, &o->b);
        if (o->op == OP_SEL) relocate(sk, &o->c);
    }
    for (int i = 0; i < sk->nst; i++) {
        sk_stmt *t = &sk->st[i];
        relocate(sk, &t->c_e.slot), relocate(sk, &t->c_init.slot), relocate(sk, &t->c_step.slot);
        for (int k = 0; k < t->nidx; k++) relocate(sk, &t->c_idx[k].slot);
    }
    return 0;
}
