/* Kernel sketches: the program parser, one function per statement kind.
 *   grid X [Y [Z]]            block X [Y [Z]]        param NAME = EXPR
 *   global|shared TYPE NAME[D1][D2]...               (arrays)
 *   NAME = EXPR               (a per-thread variable)
 *   ld|st NAME[EXPR]... [as LABEL]
 *   if (EXPR) ... [else ...] end      for (V = EXPR; EXPR; V OP= EXPR) ... end
 *   return                    sync (no effect on the trace)
 * Each returns 0, or -1 after sk_fail; the caller skips to the next line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sketch.h"

typedef struct {
    sk_parser *s;
    const char *const *sets;
    int stack[64], depth;         /* open if / for statements */
    int col;                      /* where the statement starts */
} prog;

/* Evaluate E (lane 0 of the first warp of block 0) while parsing. */
static int parse_value(sk_parser *s, const sk_expr *e, int64_t *x)
{
    sk_view v = {.sk = s->sk, .val = s->val};
    return sk_eval(&v, e, 0, x, s->er);
}

static unsigned type_size(const char *t)
{
    static const struct { const char *name; unsigned size; } types[] = {
        {"char", 1}, {"uchar", 1}, {"int8", 1}, {"short", 2}, {"half", 2}, {"int16", 2}, {"int", 4},
        {"unsigned", 4}, {"float", 4}, {"int32", 4}, {"long", 8}, {"double", 8}, {"int64", 8}, {"float2", 8},
        {"int2", 8}, {"float4", 16}, {"int4", 16}, {"double2", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(t, types[i].name)) return types[i].size;
    return 0;
}

/* A character the statement needs at the cursor (after white space). */
static int expect(sk_parser *s, char c)
{
    sk_skip_ws(s);
    if (*s->p != c) return sk_fail(s->er, s->line, sk_col(s), "expected '%c'", c);
    s->p++;
    return 0;
}

/* grid / block: "(A[, B[, C]])" or "A [B [C]]" into v[3] (missing ones 1). */
static int dims3(sk_parser *s, int64_t v[3])
{
    v[0] = v[1] = v[2] = 1;
    sk_skip_ws(s);
    int paren = *s->p == '(';
    if (paren) s->p++;
    for (int k = 0; k < 3; k++) {
        sk_skip_ws(s);
        if (*s->p == ')' || *s->p == '\n' || *s->p == '\0' || *s->p == '#') break;
        sk_expr *e = sk_parse_expr(s);
        int64_t x;
        if (!e || parse_value(s, e, &x)) return -1;
        if (x < 1 || x > (1 << 24)) return sk_fail(s->er, e->line, e->col, "a dimension must be 1 to 16777216");
        v[k] = x;
        sk_skip_ws(s);
        if (*s->p == ',') s->p++;
    }
    if (paren) {
        if (*s->p != ')') return sk_fail(s->er, s->line, sk_col(s), "expected ')'");
        s->p++;
    }
    return sk_line_end(s);
}

static int param_stmt(prog *g)
{
    sk_parser *s = g->s;
    char name[SK_MAXNAME];
    if (!sk_ident(s, name, sizeof name)) return sk_fail(s->er, s->line, sk_col(s), "expected a name");
    sk_skip_ws(s);
    if (*s->p != '=') return sk_fail(s->er, s->line, sk_col(s), "expected '='");
    s->p++;
    int v = sk_add_var(s, name);
    if (v < 0) return -1;
    sk_expr *e = sk_parse_expr(s);
    int64_t x;
    if (!e || parse_value(s, e, &x)) return -1;
    /* --set NAME=VALUE overrides; the last one given wins */
    for (const char *const *o = g->sets; o && *o; o++) {
        size_t n = strlen(name);
        if (!strncmp(*o, name, n) && (*o)[n] == '=') {
            char *end;
            x = strtoll(*o + n + 1, &end, 0);
            if (*end || end == *o + n + 1) return sk_fail(s->er, s->line, 0, "--set %s: not an integer", *o);
        }
    }
    for (int l = 0; l < SK_W; l++) s->val[v][l] = x;
    s->sk->is_param[v] = 1;
    s->sk->param[v] = x;
    return sk_line_end(s);
}

static int array_stmt(prog *g, coalsim_space space)
{
    sk_parser *s = g->s;
    coalsim_sketch *sk = s->sk;
    if (sk->narr == SK_MAXARRAYS) return sk_fail(s->er, s->line, g->col, "too many arrays");
    sk_array *a = &sk->arr[sk->narr];
    char type[16];
    sk_skip_ws(s);
    int tcol = sk_col(s);
    if (!sk_ident(s, type, sizeof type) || !(a->size = type_size(type)))
        return sk_fail(s->er, s->line, tcol, "expected an element type (char short int float long double float2 float4 ...)");
    if (!sk_ident(s, a->name, sizeof a->name)) return sk_fail(s->er, s->line, sk_col(s), "expected the array's name");
    a->space = space;
    sk_skip_ws(s);
    while (*s->p == '[') {
        s->p++;
        if (a->ndims == SK_MAXDIMS) return sk_fail(s->er, s->line, sk_col(s), "at most %d dimensions", SK_MAXDIMS);
        sk_expr *e = sk_parse_expr(s);
        int64_t x;
        if (!e || parse_value(s, e, &x)) return -1;
        if (x < 1 || x > ((int64_t)1 << 40)) return sk_fail(s->er, e->line, e->col, "bad dimension %lld", (long long)x);
        a->dims[a->ndims++] = x;
        sk_skip_ws(s);
        if (*s->p != ']') return sk_fail(s->er, s->line, sk_col(s), "expected ']'");
        s->p++;
        sk_skip_ws(s);
    }
    if (!a->ndims) return sk_fail(s->er, s->line, sk_col(s), "an array needs [dimensions]");
    sk->narr++;
    return sk_line_end(s);
}

static int access_stmt(prog *g, sk_stmt *t, coalsim_op op)
{
    sk_parser *s = g->s;
    coalsim_sketch *sk = s->sk;
    char name[SK_MAXNAME];
    t->kind = S_ACCESS;
    t->op = op;
    sk_skip_ws(s);
    int acol = sk_col(s);
    if (!sk_ident(s, name, sizeof name)) return sk_fail(s->er, s->line, acol, "expected an array");
    t->arr = -1;
    for (int i = 0; i < sk->narr; i++)          /* the last array of that name */
        if (!strcmp(sk->arr[i].name, name)) t->arr = i;
    if (t->arr < 0) return sk_fail(s->er, s->line, acol, "unknown array '%s'", name);
    if ((op == COALSIM_LDSM || op == COALSIM_STSM) && sk->arr[t->arr].space != COALSIM_SHARED)
        return sk_fail(s->er, s->line, acol, "%s reads rows of shared memory; '%s' is global", op == COALSIM_LDSM ? "ldsm" : "stsm",
                       name);
    sk_skip_ws(s);
    while (*s->p == '[') {
        s->p++;
        if (t->nidx == SK_MAXDIMS) return sk_fail(s->er, s->line, sk_col(s), "too many indices");
        sk_skip_ws(s);
        t->idxcol[t->nidx] = sk_col(s);
        if (!(t->idx[t->nidx] = sk_parse_expr(s))) return -1;
        t->nidx++;
        sk_skip_ws(s);
        if (*s->p != ']') return sk_fail(s->er, s->line, sk_col(s), "expected ']'");
        s->p++;
        sk_skip_ws(s);
    }
    int nd = sk->arr[t->arr].ndims;
    if (t->nidx != nd)
        return sk_fail(s->er, s->line, acol, "%s has %d dimension%s, indexed with %d", name, nd, nd == 1 ? "" : "s",
                       t->nidx);
    snprintf(t->label, sizeof t->label, "%s", name);
    char as[8];
    const char *save = s->p;
    if (sk_ident(s, as, sizeof as) && !strcmp(as, "as")) {
        if (!sk_ident(s, t->label, sizeof t->label)) return sk_fail(s->er, s->line, sk_col(s), "expected a label");
    } else {
        s->p = save;
    }
    sk->nst++;
    return sk_line_end(s);
}

/* The step of "for (V = ...; ...; V OP= EXPR)" as V's next value. */
static int for_step(sk_parser *s, sk_stmt *t, const char *v)
{
    static const struct { const char *text; int op; } steps[] = {
        {"+=", '+'}, {"-=", '-'}, {"*=", '*'}, {"/=", '/'}, {"<<=", T_SHL}, {">>=", T_SHR},
    };
    char v2[SK_MAXNAME];
    int ok = sk_ident(s, v2, sizeof v2) && !strcmp(v, v2), k = -1;
    if (ok) {
        sk_skip_ws(s);
        for (size_t i = 0; i < sizeof steps / sizeof steps[0] && k < 0; i++)
            if (!strncmp(s->p, steps[i].text, strlen(steps[i].text))) k = (int)i;
    }
    if (k < 0)
        return sk_fail(s->er, s->line, sk_col(s), "the step must be '%s += EXPR' (or -=, *=, /=, <<=, >>=)", v);
    sk_expr *var = &t->step_var, *next = &t->step_op;
    *var = (sk_expr){.kind = E_VAR, .var = t->var, .line = s->line, .col = sk_col(s)};
    *next = (sk_expr){.kind = E_BIN, .op = steps[k].op, .a = var, .line = s->line, .col = sk_col(s)};
    s->p += strlen(steps[k].text);
    if (!(next->b = sk_parse_expr(s))) return -1;
    t->step = next;
    return 0;
}

static int for_head(prog *g, sk_stmt *t)
{
    sk_parser *s = g->s;
    char v[SK_MAXNAME];
    t->kind = S_FOR;
    if (!sk_ident(s, v, sizeof v)) return sk_fail(s->er, s->line, sk_col(s), "expected the loop variable");
    if ((t->var = sk_add_var(s, v)) < 0) return -1;
    if (s->sk->is_param[t->var]) return sk_fail(s->er, s->line, g->col, "'%s' is a param", v);
    if (expect(s, '=') || !(t->init = sk_parse_expr(s)) || expect(s, ';') || !(t->e = sk_parse_expr(s)) ||
        expect(s, ';'))
        return -1;
    return for_step(s, t, v);
}

/* if (EXPR) / for (...): opens a body that "end" closes. */
static int block_stmt(prog *g, sk_stmt *t, int is_if)
{
    sk_parser *s = g->s;
    if (expect(s, '(')) return -1;
    if (is_if) {
        t->kind = S_IF;
        t->else_start = -1;
        if (!(t->e = sk_parse_expr(s))) return -1;
    } else if (for_head(g, t)) {
        return -1;
    }
    if (expect(s, ')')) return -1;
    if (g->depth == 64) return sk_fail(s->er, s->line, g->col, "nested too deeply");
    g->stack[g->depth++] = s->sk->nst;
    t->body = s->sk->nst + 1;
    s->sk->nst++;
    return sk_line_end(s);
}

static int else_stmt(prog *g)
{
    sk_parser *s = g->s;
    sk_stmt *open = g->depth ? &s->sk->st[g->stack[g->depth - 1]] : NULL;
    if (!open || open->kind != S_IF || open->else_start >= 0) return sk_fail(s->er, s->line, g->col, "'else' without 'if'");
    open->else_start = s->sk->nst;
    return sk_line_end(s);
}

static int end_stmt(prog *g)
{
    sk_parser *s = g->s;
    if (!g->depth) return sk_fail(s->er, s->line, g->col, "'end' without 'if' or 'for'");
    s->sk->st[g->stack[--g->depth]].body_end = s->sk->nst;
    return sk_line_end(s);
}

/* NAME = EXPR */
static int assign_stmt(prog *g, sk_stmt *t, const char *word)
{
    sk_parser *s = g->s;
    sk_skip_ws(s);
    if (*s->p != '=' || s->p[1] == '=') return sk_fail(s->er, s->line, g->col, "unknown statement '%s'", word);
    s->p++;
    t->kind = S_ASSIGN;
    sk_expr *e = sk_parse_expr(s);
    if (!e || (t->var = sk_add_var(s, word)) < 0) return -1;
    if (s->sk->is_param[t->var]) return sk_fail(s->er, s->line, g->col, "'%s' is a param", word);
    t->e = e;
    s->sk->nst++;
    return sk_line_end(s);
}

/* One line's statement (the line is not blank). */
static int statement(prog *g)
{
    sk_parser *s = g->s;
    coalsim_sketch *sk = s->sk;
    char word[SK_MAXNAME];
    g->col = sk_col(s);
    if (!sk_ident(s, word, sizeof word)) return sk_fail(s->er, s->line, g->col, "expected a statement");
    if (sk->nst == SK_MAXSTMT) return sk_fail(s->er, s->line, g->col, "too many statements (at most %d)", SK_MAXSTMT);
    sk_stmt *t = &sk->st[sk->nst];
    memset(t, 0, sizeof *t);
    t->line = s->line;
    t->col = g->col;
    if (!strcmp(word, "grid")) return dims3(s, sk->grid);
    if (!strcmp(word, "block")) return dims3(s, sk->block);
    if (!strcmp(word, "param")) return param_stmt(g);
    if (!strcmp(word, "global")) return array_stmt(g, COALSIM_GLOBAL);
    if (!strcmp(word, "shared")) return array_stmt(g, COALSIM_SHARED);
    if (!strcmp(word, "ld")) return access_stmt(g, t, COALSIM_LD);
    if (!strcmp(word, "st")) return access_stmt(g, t, COALSIM_ST);
    if (!strcmp(word, "ldsm")) return access_stmt(g, t, COALSIM_LDSM);
    if (!strcmp(word, "stsm")) return access_stmt(g, t, COALSIM_STSM);
    if (!strcmp(word, "if")) return block_stmt(g, t, 1);
    if (!strcmp(word, "for")) return block_stmt(g, t, 0);
    if (!strcmp(word, "else")) return else_stmt(g);
    if (!strcmp(word, "end")) return end_stmt(g);
    if (!strcmp(word, "return") || !strcmp(word, "sync")) {
        t->kind = word[0] == 'r' ? S_RETURN : S_SYNC;
        sk->nst++;
        return sk_line_end(s);
    }
    return assign_stmt(g, t, word);
}

/* Bases: global arrays 256-byte aligned, one after another as cudaMalloc
 * would give them; shared arrays from offset 0, each aligned to 16. */
static void place_arrays(coalsim_sketch *sk)
{
    uint64_t gl = 0x7f3a00000000ull, sh = 0;
    for (int i = 0; i < sk->narr; i++) {
        sk_array *a = &sk->arr[i];
        uint64_t bytes = a->size;
        for (int k = 0; k < a->ndims; k++) bytes *= (uint64_t)a->dims[k];
        if (a->space == COALSIM_GLOBAL) {
            a->base = gl;
            gl = (gl + bytes + 255) / 256 * 256;
        } else {
            a->base = sh;
            sh = (sh + bytes + 15) / 16 * 16;
            /* a trace's shared addresses stay below 4 GiB */
            a->check_shared = bytes > 0xffffffffull || a->base > 0xffffffffull - bytes;
        }
    }
}

/* Access statements with the same label text share one label pointer. */
static void unify_labels(coalsim_sketch *sk)
{
    for (int i = 0; i < sk->nst; i++) {
        sk_stmt *t = &sk->st[i];
        if (t->kind != S_ACCESS) continue;
        t->ulabel = t->label;
        for (int j = 0; j < i; j++)
            if (sk->st[j].kind == S_ACCESS && !strcmp(sk->st[j].label, t->label)) {
                t->ulabel = sk->st[j].ulabel;
                break;
            }
    }
}

int sk_parse_program(sk_parser *s, const char *text, const char *const *sets)
{
    coalsim_sketch *sk = s->sk;
    prog g = {.s = s, .sets = sets};
    s->p = text;
    s->line = 0;
    while (*s->p && !s->er->failed) {
        s->line++;
        s->line_start = s->p;
        sk_skip_ws(s);
        if (*s->p != '#' && *s->p != '\n' && *s->p != '\0') statement(&g);
        while (*s->p && *s->p != '\n') s->p++;
        if (*s->p == '\n') s->p++;
    }
    if (s->er->failed) return -1;
    if (g.depth) {
        const sk_stmt *open = &sk->st[g.stack[g.depth - 1]];
        return sk_fail(s->er, open->line, 0, "'%s' without 'end'", open->kind == S_IF ? "if" : "for");
    }
    /* params are constants: a variable assigned before it became one is not */
    for (int i = 0; i < sk->nst; i++) {
        const sk_stmt *t = &sk->st[i];
        if ((t->kind == S_ASSIGN || t->kind == S_FOR) && sk->is_param[t->var])
            return sk_fail(s->er, t->line, t->col, "'%s' is a param", sk->vars[t->var]);
    }
    place_arrays(sk);
    unify_labels(sk);
    uint64_t threads = (uint64_t)sk->block[0] * (uint64_t)sk->block[1] * (uint64_t)sk->block[2];
    if ((int64_t)threads > 1024) return sk_fail(s->er, 1, 0, "a block of %lld threads (at most 1024)", (long long)threads);
    sk->threads = (int64_t)threads > 0 ? (unsigned)threads : 0;
    sk->warps = (sk->threads + SK_W - 1) / SK_W;
    uint64_t gxy = (uint64_t)sk->grid[0] * (uint64_t)sk->grid[1], gz = (uint64_t)sk->grid[2];
    sk->blocks = gz > UINT64_MAX / gxy ? UINT64_MAX : gxy * gz;   /* more than 2^64 blocks never end anyway */
    return 0;
}
