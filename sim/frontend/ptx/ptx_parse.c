/* The PTX parser: module directives, variables with their initial values,
 * functions with their parameters, registers and statements.  Instructions
 * are kept raw (opcode, modifiers, operands) and decoded only when run. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

struct ptx_arena_chunk {
    ptx_arena_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

typedef struct {
    ptx_lexer lx;
    ptx_module *m;
    char *err;
    size_t errcap;
    unsigned loc_file, loc_line, inl_file, inl_line;
} parser;

static void *arena_alloc(ptx_module *m, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ptx_arena_chunk *c = m->arena;
    if (!c || c->used + n > c->cap) {
        size_t cap = n > 65536 ? n : 65536;
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->next = m->arena;
        c->used = 0;
        c->cap = cap;
        m->arena = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

static const char *arena_str(ptx_module *m, const char *s, size_t n)
{
    char *d = arena_alloc(m, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

const char *ptx_module_str(ptx_module *m, const char *s) { return arena_str(m, s, strlen(s)); }

static int fail(parser *ps, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *ps, unsigned line, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->errcap, "%s:%u: %s", ps->m->name, line, msg);
    return -1;
}

#define CUR (&ps->lx.cur)
static void next(parser *ps) { ptx_lex_advance(&ps->lx); }
static int lexfail(parser *ps)
{
    snprintf(ps->err, ps->errcap, "%s:%s", ps->m->name, ps->lx.err);
    return -1;
}
#define CHECKLEX() do { if (ps->lx.failed) return lexfail(ps); } while (0)

static int is_punct(const token *t, char c) { return t->kind == TK_PUNCT && t->s[0] == c; }

static int expect(parser *ps, char c)
{
    CHECKLEX();
    if (!is_punct(CUR, c)) return fail(ps, CUR->line, "expected '%c', found '%.*s'", c, (int)(CUR->len > 40 ? 40 : CUR->len), CUR->s);
    next(ps);
    return 0;
}

static const char *tok_str(parser *ps, const token *t) { return arena_str(ps->m, t->s, t->len); }

/* A token's text into BUF (for messages). */
static const char *show(const token *t, char *buf, size_t cap)
{
    if (t->kind == TK_EOF) return "the end of the file";
    snprintf(buf, cap, "%.*s", (int)(t->len > 60 ? 60 : t->len), t->s);
    return buf;
}

static int int_tok(parser *ps, uint64_t *v)
{
    CHECKLEX();
    int neg = 0;
    if (is_punct(CUR, '-')) neg = 1, next(ps);
    if (CUR->kind != TK_INT) {
        char b[64];
        return fail(ps, CUR->line, "expected a number, found '%s'", show(CUR, b, sizeof b));
    }
    *v = neg ? 0 - (uint64_t)CUR->ival : CUR->ival;
    next(ps);
    return 0;
}

/* ---- declarations ---- */

static ptx_var *new_var(parser *ps)
{
    ptx_module *m = ps->m;
    if (m->nvars == m->capvars) {
        unsigned cap = m->capvars ? m->capvars * 2 : 16;
        ptx_var *v = realloc(m->vars, cap * sizeof *v);
        if (!v) return NULL;
        m->vars = v;
        m->capvars = cap;
    }
    ptx_var *v = &m->vars[m->nvars++];
    memset(v, 0, sizeof *v);
    return v;
}

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) p[k] = (unsigned char)(v >> (8 * k));
}

/* An initializer's values, flattened, into V->init (V->type's element size). */
static int parse_init(parser *ps, ptx_var *v)
{
    unsigned esz = ptype_bytes(v->type);
    if (!esz) return fail(ps, CUR->line, "an initializer needs a sized type");
    uint64_t n = v->bytes / esz, k = 0;
    if (!v->bytes) return fail(ps, CUR->line, "an initializer for an array of unknown size");
    v->init = calloc(1, (size_t)v->bytes);
    if (!v->init) return fail(ps, CUR->line, "out of memory");
    int depth = 0;
    do {
        CHECKLEX();
        if (is_punct(CUR, '{')) {
            depth++;
            next(ps);
            continue;
        }
        if (is_punct(CUR, '}')) {
            depth--;
            next(ps);
        } else if (is_punct(CUR, ',')) {
            next(ps);
            continue;
        } else {
            int neg = 0;
            if (is_punct(CUR, '-')) neg = 1, next(ps);
            uint64_t bits;
            if (CUR->kind == TK_INT) {
                bits = neg ? 0 - (uint64_t)CUR->ival : CUR->ival;
                if (v->type == PT_F32) {
                    float f = neg ? -(float)CUR->ival : (float)CUR->ival;
                    uint32_t u;
                    memcpy(&u, &f, 4);
                    bits = u;
                } else if (v->type == PT_F64) {
                    double f = neg ? -(double)CUR->ival : (double)CUR->ival;
                    memcpy(&bits, &f, 8);
                }
            } else if (CUR->kind == TK_F32 || CUR->kind == TK_F64) {
                bits = CUR->ival;
                if (neg) bits ^= CUR->kind == TK_F32 ? 0x80000000ull : 0x8000000000000000ull;
                if (CUR->kind == TK_F32 && v->type == PT_F64) {
                    float f;
                    uint32_t u = (uint32_t)bits;
                    memcpy(&f, &u, 4);
                    double d = f;
                    memcpy(&bits, &d, 8);
                }
            } else if (CUR->kind == TK_FLOAT) {
                double d = neg ? -CUR->fval : CUR->fval;
                if (v->type == PT_F32) {
                    float f = (float)d;
                    uint32_t u;
                    memcpy(&u, &f, 4);
                    bits = u;
                } else {
                    memcpy(&bits, &d, 8);
                }
            } else {
                char b[64];
                return fail(ps, CUR->line, "initializer value '%s' is not a number (addresses of symbols are not supported)",
                            show(CUR, b, sizeof b));
            }
            if (k >= n) return fail(ps, CUR->line, "more initial values than the variable holds");
            put_le(v->init + k * esz, bits, esz);
            k++;
            next(ps);
        }
    } while (depth > 0);
    return 0;
}

/* After the state space: [.align N] [.vN] .type name[dims] [= init] (, name...)? ; */
static int parse_var(parser *ps, pspace sp, int is_extern, int func)
{
    unsigned align = 0, vec = 1;
    ptype type = PT_NONE;
    for (;;) {
        CHECKLEX();
        if (CUR->kind != TK_DIR) break;
        char d[32];
        snprintf(d, sizeof d, "%.*s", (int)(CUR->len - 1 > 30 ? 30 : CUR->len - 1), CUR->s + 1);
        next(ps);
        if (!strcmp(d, "align")) {
            uint64_t a;
            if (int_tok(ps, &a)) return -1;
            align = (unsigned)a;
        } else if (!strcmp(d, "v2") || !strcmp(d, "v4") || !strcmp(d, "v8")) {
            vec = (unsigned)(d[1] - '0');
        } else if (ptype_parse(d) != PT_NONE) {
            type = ptype_parse(d);
        } else if (!strcmp(d, "ptr") || !strcmp(d, "global") || !strcmp(d, "shared") || !strcmp(d, "const") ||
                   !strcmp(d, "local") || !strcmp(d, "attribute")) {
            if (!strcmp(d, "attribute")) {          /* .attribute(.managed) */
                while (!is_punct(CUR, ')') && CUR->kind != TK_EOF) next(ps);
                next(ps);
            }
        } else {
            return fail(ps, CUR->line, "unknown variable qualifier '.%s'", d);
        }
    }
    if (type == PT_NONE) return fail(ps, CUR->line, "a variable needs a type");
    for (;;) {
        CHECKLEX();
        if (CUR->kind != TK_IDENT) {
            char b[64];
            return fail(ps, CUR->line, "expected a variable name, found '%s'", show(CUR, b, sizeof b));
        }
        ptx_var *v = new_var(ps);
        if (!v) return fail(ps, CUR->line, "out of memory");
        v->name = tok_str(ps, CUR);
        v->space = sp;
        v->type = type;
        v->align = align ? align : ptype_bytes(type) * vec;
        v->is_extern = is_extern;
        v->line = CUR->line;
        v->func = func;
        v->bytes = (uint64_t)ptype_bytes(type) * vec;
        next(ps);
        /* register-style names with a count, as in .param .b32 p<2> (rare) */
        while (is_punct(CUR, '[')) {
            next(ps);
            if (is_punct(CUR, ']')) {
                v->bytes = 0;          /* extern array: size from the launch */
                next(ps);
                continue;
            }
            uint64_t n;
            if (int_tok(ps, &n) || expect(ps, ']')) return -1;
            v->bytes *= n;
        }
        if (is_punct(CUR, '=')) {
            next(ps);
            if (parse_init(ps, v)) return -1;
        }
        if (is_punct(CUR, ',')) {
            next(ps);
            continue;
        }
        return expect(ps, ';');
    }
}

/* .reg [.vN] .type name[<N>] (, name[<N>])* ; */
static int parse_reg(parser *ps, ptx_func *f)
{
    ptype type = PT_NONE;
    while (CUR->kind == TK_DIR) {
        char d[32];
        snprintf(d, sizeof d, "%.*s", (int)(CUR->len - 1 > 30 ? 30 : CUR->len - 1), CUR->s + 1);
        if (ptype_parse(d) != PT_NONE) type = ptype_parse(d);
        else if (strcmp(d, "v2") && strcmp(d, "v4")) return fail(ps, CUR->line, "unknown register qualifier '.%s'", d);
        else return fail(ps, CUR->line, "vector registers are not supported");
        next(ps);
    }
    if (type == PT_NONE) return fail(ps, CUR->line, "a register declaration needs a type");
    for (;;) {
        CHECKLEX();
        if (CUR->kind != TK_IDENT) {
            char b[64];
            return fail(ps, CUR->line, "expected a register name, found '%s'", show(CUR, b, sizeof b));
        }
        ptx_reg_decl *r = realloc(f->regs, (f->nregs + 1) * sizeof *r);
        if (!r) return fail(ps, CUR->line, "out of memory");
        f->regs = r;
        r = &f->regs[f->nregs++];
        r->prefix = tok_str(ps, CUR);
        r->type = type;
        r->count = 0;
        next(ps);
        if (is_punct(CUR, '<')) {
            next(ps);
            uint64_t n;
            if (int_tok(ps, &n) || expect(ps, '>')) return -1;
            r->count = (unsigned)n;
        }
        if (is_punct(CUR, ',')) {
            next(ps);
            continue;
        }
        return expect(ps, ';');
    }
}

/* One parameter: .param .type [.ptr .space .align N] name[[N]] (or .reg .type name). */
static int parse_param(parser *ps, ptx_param *p)
{
    memset(p, 0, sizeof *p);
    if (!(CUR->kind == TK_DIR && (ptx_tok_is(CUR, ".param") || ptx_tok_is(CUR, ".reg")))) {
        char b[64];
        return fail(ps, CUR->line, "expected .param, found '%s'", show(CUR, b, sizeof b));
    }
    next(ps);
    while (CUR->kind == TK_DIR) {
        char d[32];
        snprintf(d, sizeof d, "%.*s", (int)(CUR->len - 1 > 30 ? 30 : CUR->len - 1), CUR->s + 1);
        next(ps);
        if (!strcmp(d, "align")) {
            uint64_t a;
            if (int_tok(ps, &a)) return -1;
            p->align = (unsigned)a;
        } else if (ptype_parse(d) != PT_NONE) {
            p->type = ptype_parse(d);
        }   /* .ptr .global .shared ...: the pointer's space does not change the value */
    }
    if (CUR->kind != TK_IDENT) {
        char b[64];
        return fail(ps, CUR->line, "expected a parameter name, found '%s'", show(CUR, b, sizeof b));
    }
    p->name = tok_str(ps, CUR);
    next(ps);
    p->bytes = ptype_bytes(p->type);
    if (is_punct(CUR, '[')) {
        next(ps);
        uint64_t n;
        if (int_tok(ps, &n) || expect(ps, ']')) return -1;
        p->bytes *= n;
        p->is_array = 1;
    }
    if (!p->align) p->align = ptype_bytes(p->type) ? ptype_bytes(p->type) : 1;
    return 0;
}

static int parse_params(parser *ps, ptx_param **out, unsigned *n)
{
    if (expect(ps, '(')) return -1;
    while (!is_punct(CUR, ')')) {
        CHECKLEX();
        ptx_param *p = realloc(*out, (*n + 1) * sizeof *p);
        if (!p) return fail(ps, CUR->line, "out of memory");
        *out = p;
        if (parse_param(ps, &p[*n])) return -1;
        (*n)++;
        if (is_punct(CUR, ',')) next(ps);
        else if (!is_punct(CUR, ')')) {
            char b[64];
            return fail(ps, CUR->line, "expected ',' or ')', found '%s'", show(CUR, b, sizeof b));
        }
    }
    next(ps);
    return 0;
}

/* ---- statements ---- */

static raw_inst *new_inst(parser *ps, ptx_func *f)
{
    if (f->ninsts == f->capinsts) {
        unsigned cap = f->capinsts ? f->capinsts * 2 : 64;
        raw_inst *r = realloc(f->insts, cap * sizeof *r);
        if (!r) return NULL;
        f->insts = r;
        f->capinsts = cap;
    }
    raw_inst *r = &f->insts[f->ninsts++];
    memset(r, 0, sizeof *r);
    r->file = ps->loc_file;
    r->src_line = ps->loc_line;
    r->inl_file = ps->inl_file;
    r->inl_line = ps->inl_line;
    return r;
}

/* A register or symbol name: an identifier with an adjacent .x/.y/.z (%tid.x). */
static const char *name_tok(parser *ps)
{
    char buf[300];
    size_t n = (size_t)(CUR->len < 250 ? CUR->len : 250);
    memcpy(buf, CUR->s, n);
    next(ps);
    while (CUR->kind == TK_DIR && !CUR->space_before && n + CUR->len < sizeof buf - 1) {
        memcpy(buf + n, CUR->s, CUR->len);
        n += CUR->len;
        next(ps);
    }
    return arena_str(ps->m, buf, n);
}

/* A {list} or (list) of registers ('_' for none) at the current '{' or '(' into O's vec. */
static int parse_list(parser *ps, raw_operand *o)
{
    unsigned line = CUR->line;
    char close = is_punct(CUR, '{') ? '}' : ')';
    next(ps);
    const char *names[256];
    unsigned n = 0;
    while (!is_punct(CUR, close)) {
        CHECKLEX();
        if (CUR->kind == TK_EOF) return fail(ps, line, "unterminated operand list");
        if (is_punct(CUR, ',')) {
            next(ps);
            continue;
        }
        if (n == 256) return fail(ps, CUR->line, "too many operands in a list");
        if (CUR->kind == TK_IDENT && ptx_tok_is(CUR, "_")) {
            names[n++] = NULL;
            next(ps);
        } else if (CUR->kind == TK_IDENT) {
            names[n++] = name_tok(ps);
        } else if (CUR->kind == TK_INT) {
            /* a constant member ({0, %r1}: a tensor copy's coordinates): "#VALUE" */
            char b[32];
            int bl = snprintf(b, sizeof b, "#%llu", (unsigned long long)CUR->ival);
            names[n++] = arena_str(ps->m, b, (size_t)bl);
            next(ps);
        } else {
            char b[64];
            return fail(ps, CUR->line, "expected a register in the list, found '%s'", show(CUR, b, sizeof b));
        }
    }
    next(ps);
    o->nvec = n;
    o->vec = arena_alloc(ps->m, (n ? n : 1) * sizeof *o->vec);
    if (!o->vec) return fail(ps, line, "out of memory");
    memcpy(o->vec, names, n * sizeof *names);
    return 0;
}

static int parse_operand(parser *ps, raw_operand *o)
{
    CHECKLEX();
    memset(o, 0, sizeof *o);
    if (is_punct(CUR, '[')) {
        next(ps);
        o->kind = RO_ADDR;
        if (CUR->kind == TK_IDENT) o->name = name_tok(ps);
        int sign = 1, have = o->name != NULL;
        while (!is_punct(CUR, ']')) {
            CHECKLEX();
            if (is_punct(CUR, ',') && o->name && !o->vec) {
                /* [tensorMap, {c0, c1, ...}]: cp.async.bulk.tensor's coordinates */
                next(ps);
                if (!is_punct(CUR, '{')) return fail(ps, CUR->line, "expected '{' after ',' in an address");
                if (parse_list(ps, o)) return -1;
                continue;
            }
            if (is_punct(CUR, '+')) {
                next(ps);
                continue;
            }
            if (is_punct(CUR, '-')) {
                sign = -sign;
                next(ps);
                continue;
            }
            if (CUR->kind != TK_INT || (have && sign == 0)) {
                char b[64];
                return fail(ps, CUR->line, "bad address: '%s'", show(CUR, b, sizeof b));
            }
            o->off += sign * (int64_t)CUR->ival;
            sign = 1;
            have = 1;
            next(ps);
        }
        next(ps);
        return 0;
    }
    if (is_punct(CUR, '{') || is_punct(CUR, '(')) {
        o->kind = is_punct(CUR, '{') ? RO_VEC : RO_LIST;
        return parse_list(ps, o);
    }
    if (is_punct(CUR, '!')) {
        o->neg = 1;
        next(ps);
    }
    int neg = 0;
    if (is_punct(CUR, '-')) {
        neg = 1;
        next(ps);
    }
    switch (CUR->kind) {
    case TK_IDENT:
        if (ptx_tok_is(CUR, "_")) {
            o->kind = RO_SINK;
            next(ps);
            if (is_punct(CUR, '|')) {      /* elect.sync _|p */
                next(ps);
                if (CUR->kind != TK_IDENT) return fail(ps, CUR->line, "expected a predicate after '|'");
                o->name2 = name_tok(ps);
            }
            return 0;
        }
        o->kind = RO_REG;
        o->name = name_tok(ps);
        if (is_punct(CUR, '|')) {
            next(ps);
            if (CUR->kind != TK_IDENT) return fail(ps, CUR->line, "expected a predicate after '|'");
            o->name2 = name_tok(ps);
        }
        return 0;
    case TK_INT:
        o->kind = RO_IMM;
        o->imm = neg ? 0 - (uint64_t)CUR->ival : CUR->ival;
        next(ps);
        return 0;
    case TK_F32:
    case TK_F64:
        o->kind = RO_FIMM;
        o->fimm_bytes = CUR->kind == TK_F32 ? 4 : 8;
        o->imm = CUR->ival ^ (neg ? (CUR->kind == TK_F32 ? 0x80000000ull : 0x8000000000000000ull) : 0);
        next(ps);
        return 0;
    case TK_FLOAT:
        o->kind = RO_FLOAT;
        o->fval = neg ? -CUR->fval : CUR->fval;
        next(ps);
        return 0;
    default: {
        char b[64];
        return fail(ps, CUR->line, "unexpected '%s' in an operand", show(CUR, b, sizeof b));
    }
    }
}

static int parse_instruction(parser *ps, ptx_func *f)
{
    raw_inst *ri = new_inst(ps, f);
    if (!ri) return fail(ps, CUR->line, "out of memory");
    ri->line = CUR->line;
    if (is_punct(CUR, '@')) {
        next(ps);
        if (is_punct(CUR, '!')) ri->guard_neg = 1, next(ps);
        if (CUR->kind != TK_IDENT) return fail(ps, CUR->line, "expected a predicate after '@'");
        ri->guard = name_tok(ps);
    }
    if (CUR->kind != TK_IDENT) {
        char b[64];
        return fail(ps, CUR->line, "expected an instruction, found '%s'", show(CUR, b, sizeof b));
    }
    if (CUR->len >= sizeof ri->opcode) return fail(ps, CUR->line, "unknown instruction '%.*s'", (int)CUR->len, CUR->s);
    memcpy(ri->opcode, CUR->s, CUR->len);
    next(ps);
    while (CUR->kind == TK_DIR && !CUR->space_before) {
        if (ri->nmods == PTX_MAX_MODS || CUR->len - 1 >= sizeof ri->mods[0])
            return fail(ps, CUR->line, "too many or too long modifiers on '%s'", ri->opcode);
        memcpy(ri->mods[ri->nmods++], CUR->s + 1, CUR->len - 1);
        next(ps);
    }
    while (!is_punct(CUR, ';')) {
        CHECKLEX();
        if (CUR->kind == TK_EOF) return fail(ps, ri->line, "missing ';' after '%s'", ri->opcode);
        if (ri->nops == PTX_MAX_OPS) return fail(ps, CUR->line, "too many operands for '%s'", ri->opcode);
        if (parse_operand(ps, &ri->ops[ri->nops++])) return -1;
        if (is_punct(CUR, ',')) next(ps);
        else if (!is_punct(CUR, ';')) {
            char b[64];
            return fail(ps, CUR->line, "expected ',' or ';' after an operand of '%s', found '%s'", ri->opcode,
                        show(CUR, b, sizeof b));
        }
    }
    next(ps);
    return 0;
}

/* .loc FILE LINE COL [, function_name SYM[+N]] [, inlined_at FILE LINE COL] */
static int parse_loc(parser *ps)
{
    uint64_t file, line, col;
    if (int_tok(ps, &file) || int_tok(ps, &line) || int_tok(ps, &col)) return -1;
    (void)col;
    ps->loc_file = (unsigned)file;
    ps->loc_line = (unsigned)line;
    ps->inl_file = ps->inl_line = 0;
    while (is_punct(CUR, ',')) {
        next(ps);
        if (ptx_tok_is(CUR, "function_name")) {
            next(ps);
            next(ps);
            if (is_punct(CUR, '+')) {
                next(ps);
                next(ps);
            }
        } else if (ptx_tok_is(CUR, "inlined_at")) {
            next(ps);
            uint64_t f2, l2, c2;
            if (int_tok(ps, &f2) || int_tok(ps, &l2) || int_tok(ps, &c2)) return -1;
            ps->inl_file = (unsigned)f2;
            ps->inl_line = (unsigned)l2;
        } else {
            return fail(ps, CUR->line, "unknown .loc attribute");
        }
    }
    return 0;
}

static int skip_to_semicolon(parser *ps)
{
    while (!is_punct(CUR, ';')) {
        CHECKLEX();
        if (CUR->kind == TK_EOF) return fail(ps, CUR->line, "missing ';'");
        next(ps);
    }
    next(ps);
    return 0;
}

static int parse_body(parser *ps, ptx_func *f, int fi)
{
    int depth = 1;
    next(ps);                     /* the '{' */
    while (depth > 0) {
        CHECKLEX();
        token *t = CUR;
        if (t->kind == TK_EOF) return fail(ps, f->line, "function '%s' has no closing '}'", f->name);
        if (is_punct(t, '{') || is_punct(t, '}')) {
            int open = is_punct(t, '{');
            depth += open ? 1 : -1;
            if (depth > 0) {
                raw_inst *ri = new_inst(ps, f);
                if (!ri) return fail(ps, t->line, "out of memory");
                ri->pseudo = open ? RP_OPEN : RP_CLOSE;
                ri->line = t->line;
            }
            next(ps);
        } else if (t->kind == TK_DIR) {
            unsigned line = t->line;
            if (ptx_tok_is(t, ".reg")) {
                next(ps);
                unsigned first = f->nregs;
                if (parse_reg(ps, f)) return -1;
                raw_inst *ri = new_inst(ps, f);
                if (!ri) return fail(ps, line, "out of memory");
                ri->pseudo = RP_REGS;
                ri->line = line;
                ri->first = first;
                ri->count = f->nregs - first;
            } else if (ptx_tok_is(t, ".loc")) {
                next(ps);
                if (parse_loc(ps)) return -1;
            } else if (ptx_tok_is(t, ".pragma")) {
                next(ps);
                if (skip_to_semicolon(ps)) return -1;
            } else if (ptx_tok_is(t, ".local") || ptx_tok_is(t, ".shared") || ptx_tok_is(t, ".param") ||
                       ptx_tok_is(t, ".const") || ptx_tok_is(t, ".global")) {
                pspace sp = ptx_tok_is(t, ".local") ? SP_LOCAL : ptx_tok_is(t, ".shared") ? SP_SHARED
                          : ptx_tok_is(t, ".param") ? SP_PARAM : ptx_tok_is(t, ".const") ? SP_CONST : SP_GLOBAL;
                next(ps);
                unsigned first = ps->m->nvars;
                if (parse_var(ps, sp, 0, fi)) return -1;
                raw_inst *ri = new_inst(ps, f);
                if (!ri) return fail(ps, line, "out of memory");
                ri->pseudo = RP_VARS;
                ri->line = line;
                ri->first = first;
                ri->count = ps->m->nvars - first;
            } else if (ptx_tok_is(t, ".callprototype")) {
                if (skip_to_semicolon(ps)) return -1;
            } else {
                return fail(ps, line, "unknown directive '%.*s' in a function", (int)t->len, t->s);
            }
        } else if (t->kind == TK_IDENT) {
            /* a label is an identifier followed by ':' */
            const char *save = ps->lx.p;
            unsigned saveline = ps->lx.line;
            token keep = *t;
            next(ps);
            if (is_punct(CUR, ':')) {
                raw_inst *ri = new_inst(ps, f);
                if (!ri) return fail(ps, keep.line, "out of memory");
                ri->line = keep.line;
                ri->label = tok_str(ps, &keep);
                next(ps);
                continue;
            }
            /* not a label: rewind to the identifier and parse an instruction */
            ps->lx.p = save;
            ps->lx.line = saveline;
            ps->lx.cur = keep;
            if (parse_instruction(ps, f)) return -1;
        } else if (is_punct(t, '@')) {
            if (parse_instruction(ps, f)) return -1;
        } else {
            char b[64];
            return fail(ps, t->line, "unexpected '%s' in a function", show(t, b, sizeof b));
        }
    }
    f->has_body = 1;
    return 0;
}

static int parse_function(parser *ps, int is_entry)
{
    ptx_module *m = ps->m;
    if (m->nfuncs == m->capfuncs) {
        unsigned cap = m->capfuncs ? m->capfuncs * 2 : 8;
        ptx_func *nf = realloc(m->funcs, cap * sizeof *nf);
        if (!nf) return fail(ps, CUR->line, "out of memory");
        m->funcs = nf;
        m->capfuncs = cap;
    }
    int fi = (int)m->nfuncs;
    ptx_func *f = &m->funcs[m->nfuncs++];
    memset(f, 0, sizeof *f);
    f->is_entry = is_entry;
    f->line = CUR->line;
    if (!is_entry && is_punct(CUR, '(')) {
        if (parse_params(ps, &f->rets, &f->nrets)) return -1;
    }
    if (CUR->kind != TK_IDENT) {
        char b[64];
        return fail(ps, CUR->line, "expected a function name, found '%s'", show(CUR, b, sizeof b));
    }
    f->name = tok_str(ps, CUR);
    next(ps);
    if (is_punct(CUR, '(') && parse_params(ps, &f->params, &f->nparams)) return -1;
    /* performance directives until the body or ';' */
    while (!is_punct(CUR, '{') && !is_punct(CUR, ';')) {
        CHECKLEX();
        if (CUR->kind == TK_EOF) return fail(ps, f->line, "function '%s' has no body", f->name);
        if (ptx_tok_is(CUR, ".maxntid") || ptx_tok_is(CUR, ".reqntid") || ptx_tok_is(CUR, ".reqnctapercluster")) {
            unsigned *dst = ptx_tok_is(CUR, ".maxntid") ? f->maxntid : ptx_tok_is(CUR, ".reqntid") ? f->reqntid : f->reqncluster;
            next(ps);
            for (int k = 0; k < 3; k++) {
                uint64_t v;
                if (int_tok(ps, &v)) return -1;
                dst[k] = (unsigned)v;
                if (!is_punct(CUR, ',')) break;
                next(ps);
            }
            continue;
        }
        next(ps);
    }
    if (is_punct(CUR, ';')) {
        next(ps);
        return 0;
    }
    ps->loc_file = ps->loc_line = ps->inl_file = ps->inl_line = 0;
    if (parse_body(ps, f, fi)) return -1;
    return ptx_lower_shared_fadd(m, f, ps->err, ps->errcap);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *name, char *err, size_t cap)
{
    ptx_module *m = calloc(1, sizeof *m);
    if (!m || !(m->name = strdup(name))) {
        free(m);
        snprintf(err, cap, "%s: out of memory", name);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, cap, "%s: NUL byte in the PTX (is this a PTX file?)", name);
        ptx_module_free(m);
        return NULL;
    }
    parser ps0 = {.m = m, .err = err, .errcap = cap}, *ps = &ps0;
    ptx_lex_init(&ps->lx, text, len);
    int is_extern = 0;
    while (CUR->kind != TK_EOF) {
        if (ps->lx.failed) {
            lexfail(ps);
            goto bad;
        }
        token *t = CUR;
        unsigned line = t->line;
        if (t->kind != TK_DIR) {
            char b[64];
            fail(ps, line, "unexpected '%s' at the top level", show(t, b, sizeof b));
            goto bad;
        }
        if (ptx_tok_is(t, ".version")) {
            next(ps);
            char v[32];
            snprintf(v, sizeof v, "%.*s", (int)(CUR->len > 30 ? 30 : CUR->len), CUR->s);
            if (sscanf(v, "%u.%u", &m->version_major, &m->version_minor) != 2) {
                fail(ps, line, "bad .version '%s'", v);
                goto bad;
            }
            next(ps);
        } else if (ptx_tok_is(t, ".target")) {
            next(ps);
            snprintf(m->target, sizeof m->target, "%.*s", (int)(CUR->len > 30 ? 30 : CUR->len), CUR->s);
            next(ps);
            while (is_punct(CUR, ',')) next(ps), next(ps);
        } else if (ptx_tok_is(t, ".address_size")) {
            next(ps);
            uint64_t a;
            if (int_tok(ps, &a)) goto bad;
            if (a != 64) {
                fail(ps, line, ".address_size %llu: only 64-bit PTX is supported", (unsigned long long)a);
                goto bad;
            }
        } else if (ptx_tok_is(t, ".file")) {
            next(ps);
            uint64_t n;
            if (int_tok(ps, &n)) goto bad;
            if (CUR->kind != TK_STRING || n > 100000) {
                fail(ps, line, "bad .file directive");
                goto bad;
            }
            if (n >= m->nfiles) {
                char **nf = realloc(m->files, (n + 1) * sizeof *nf);
                if (!nf) {
                    fail(ps, line, "out of memory");
                    goto bad;
                }
                for (unsigned k = m->nfiles; k <= n; k++) nf[k] = NULL;
                m->files = nf;
                m->nfiles = (unsigned)n + 1;
            }
            free(m->files[n]);
            m->files[n] = strndup(CUR->s + 1, CUR->len - 2);
            next(ps);
            while (is_punct(CUR, ',')) next(ps), next(ps);   /* timestamp, size */
        } else if (ptx_tok_is(t, ".section")) {
            /* debug sections: skip to the matching brace */
            while (!is_punct(CUR, '{') && CUR->kind != TK_EOF) next(ps);
            int depth = 0;
            do {
                if (is_punct(CUR, '{')) depth++;
                else if (is_punct(CUR, '}')) depth--;
                next(ps);
            } while (depth > 0 && CUR->kind != TK_EOF);
        } else if (ptx_tok_is(t, ".visible") || ptx_tok_is(t, ".weak") || ptx_tok_is(t, ".common")) {
            next(ps);
            continue;
        } else if (ptx_tok_is(t, ".extern")) {
            is_extern = 1;
            next(ps);
            continue;
        } else if (ptx_tok_is(t, ".entry") || ptx_tok_is(t, ".func")) {
            int entry = ptx_tok_is(t, ".entry");
            next(ps);
            if (parse_function(ps, entry)) goto bad;
        } else if (ptx_tok_is(t, ".global") || ptx_tok_is(t, ".const") || ptx_tok_is(t, ".shared") ||
                   ptx_tok_is(t, ".local")) {
            pspace sp = ptx_tok_is(t, ".global") ? SP_GLOBAL : ptx_tok_is(t, ".const") ? SP_CONST
                      : ptx_tok_is(t, ".shared") ? SP_SHARED : SP_LOCAL;
            next(ps);
            if (parse_var(ps, sp, is_extern, -1)) goto bad;
        } else if (ptx_tok_is(t, ".pragma")) {
            next(ps);
            if (skip_to_semicolon(ps)) goto bad;
        } else if (ptx_tok_is(t, ".alias")) {
            fail(ps, line, ".alias is not supported");
            goto bad;
        } else {
            fail(ps, line, "unknown directive '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
            goto bad;
        }
        is_extern = 0;
    }
    if (ps->lx.failed) {
        lexfail(ps);
        goto bad;
    }
    return m;
bad:
    ptx_module_free(m);
    return NULL;
}

void ptx_module_free(ptx_module *m)
{
    if (!m) return;
    for (unsigned i = 0; i < m->nvars; i++) free(m->vars[i].init);
    free(m->vars);
    for (unsigned i = 0; i < m->nfuncs; i++) {
        free(m->funcs[i].params);
        free(m->funcs[i].rets);
        free(m->funcs[i].regs);
        free(m->funcs[i].insts);
    }
    free(m->funcs);
    for (unsigned i = 0; i < m->nfiles; i++) free(m->files[i]);
    free(m->files);
    for (ptx_arena_chunk *c = m->arena, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(m->name);
    free(m);
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    /* a function may be declared (a prototype) before it is defined */
    int found = -1;
    for (unsigned i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name)) {
            if (m->funcs[i].has_body) return (int)i;
            if (found < 0) found = (int)i;
        }
    return found;
}
