/* The sketch runner as it was before sketches were compiled (commit
 * 552799f's sim/frontend/sketch.c, lane by lane through expression trees,
 * writing text), kept as a test oracle only: the compiled runner must give
 * the same trace and the same errors for any sketch in the old language
 * (tests/check_sketch_oracle.c, tests/fuzz/fuzz_sketch.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "sketch_oracle.h"

#define MAXVARS 64
#define MAXARRAYS 32
#define MAXSTMT 512
#define MAXDIMS 4
#define W 32

/* ---- expressions ---- */
enum { E_NUM, E_VAR, E_BUILTIN, E_UN, E_BIN, E_COND };
typedef struct expr {
    int kind, op;                 /* op: operator token for E_UN / E_BIN */
    int64_t num;
    int var;                      /* E_VAR: variable index; E_BUILTIN: 0..11 */
    struct expr *a, *b, *c;
    int line, col;
} expr;

typedef struct {
    char name[32];
    int space;                    /* COALSIM_GLOBAL / COALSIM_SHARED */
    unsigned size;
    int ndims;
    int64_t dims[MAXDIMS];
    uint64_t base;
} array;

enum { S_ASSIGN, S_ACCESS, S_IF, S_FOR, S_RETURN, S_SYNC };
typedef struct {
    int kind, line;
    int var;                      /* S_ASSIGN / S_FOR loop variable */
    expr *e;                      /* S_ASSIGN value, S_IF / S_FOR condition */
    expr *init, *step;            /* S_FOR */
    int arr;                      /* S_ACCESS */
    coalsim_op op;
    int nidx;
    expr *idx[MAXDIMS];
    int idxcol[MAXDIMS];          /* where each index expression starts */
    char label[COALSIM_MAX_LABEL + 1];
    int body, body_end;           /* S_IF / S_FOR: statements [body, body_end) */
    int else_start;               /* S_IF: else part [else_start, body_end), or -1 */
} stmt;

typedef struct {
    const char *name;
    char *err;
    size_t errcap;
    int failed;
    /* program */
    char vars[MAXVARS][32];
    int nvars;
    int is_param[MAXVARS];
    expr *param_val[MAXVARS];
    array arr[MAXARRAYS];
    int narr;
    stmt st[MAXSTMT];
    int nst;
    int64_t grid[3], block[3];
    /* parsing */
    const char *p, *line_start;
    int line;
    expr *pool;
    size_t npool, cappool;
    /* running */
    int64_t val[MAXVARS][W];
    int64_t bidx[3];
    unsigned tid0;                /* linear thread index of lane 0 of the warp */
    FILE *out;
    uint64_t records, max_records;
} sk;

static int sfail(sk *s, int line, int col, const char *fmt, ...)
{
    if (s->failed) return -1;
    int n = col > 0 ? snprintf(s->err, s->errcap, "%s:%d:%d: ", s->name, line, col)
                    : snprintf(s->err, s->errcap, "%s:%d: ", s->name, line);
    if (n < 0 || (size_t)n >= s->errcap) n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err + n, s->errcap - (size_t)n, fmt, ap);
    va_end(ap);
    s->failed = 1;
    return -1;
}

static int col_of(const sk *s) { return (int)(s->p - s->line_start) + 1; }

static expr *node(sk *s, int kind)
{
    if (s->npool == s->cappool) {
        /* expressions are never freed one by one: a pool per sketch */
        sfail(s, s->line, col_of(s), "sketch too large (more than %zu expression nodes)", s->cappool);
        return NULL;
    }
    expr *e = &s->pool[s->npool++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = s->line;
    e->col = col_of(s);
    return e;
}

static void skip_ws(sk *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\r') s->p++;
}

static int is_id(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'); }

/* Read an identifier into buf; 0 if none. */
static int ident(sk *s, char *buf, size_t cap)
{
    skip_ws(s);
    size_t n = 0;
    if (!is_id(*s->p) || (*s->p >= '0' && *s->p <= '9')) return 0;
    while (is_id(*s->p)) {
        if (n + 1 < cap) buf[n++] = *s->p;
        s->p++;
    }
    buf[n] = '\0';
    return 1;
}

static int find_var(const sk *s, const char *name)
{
    for (int i = 0; i < s->nvars; i++)
        if (!strcmp(s->vars[i], name)) return i;
    return -1;
}

static int add_var(sk *s, const char *name)
{
    int v = find_var(s, name);
    if (v >= 0) return v;
    if (s->nvars == MAXVARS) return sfail(s, s->line, col_of(s), "too many variables (at most %d)", MAXVARS);
    snprintf(s->vars[s->nvars], sizeof s->vars[0], "%s", name);
    return s->nvars++;
}

/* Operators: two-character ones coded as 256 + first, 512 + first... */
enum { T_SHL = 300, T_SHR, T_LE, T_GE, T_EQ, T_NE, T_AND, T_OR };

static int peek_op(sk *s, int *len)
{
    skip_ws(s);
    const char *p = s->p;
    *len = 2;
    if (p[0] == '<' && p[1] == '<') return T_SHL;
    if (p[0] == '>' && p[1] == '>') return T_SHR;
    if (p[0] == '<' && p[1] == '=') return T_LE;
    if (p[0] == '>' && p[1] == '=') return T_GE;
    if (p[0] == '=' && p[1] == '=') return T_EQ;
    if (p[0] == '!' && p[1] == '=') return T_NE;
    if (p[0] == '&' && p[1] == '&') return T_AND;
    if (p[0] == '|' && p[1] == '|') return T_OR;
    *len = 1;
    if (strchr("+-*/%<>&|^", p[0]) && p[0]) return (unsigned char)p[0];
    return 0;
}

static int prec(int op)
{
    switch (op) {
    case '*': case '/': case '%': return 10;
    case '+': case '-': return 9;
    case T_SHL: case T_SHR: return 8;
    case '<': case '>': case T_LE: case T_GE: return 7;
    case T_EQ: case T_NE: return 6;
    case '&': return 5;
    case '^': return 4;
    case '|': return 3;
    case T_AND: return 2;
    case T_OR: return 1;
    default: return 0;
    }
}

static expr *parse_expr(sk *s);

static const char *const builtin_names[12] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
                                              "blockIdx.z", "blockDim.x", "blockDim.y", "blockDim.z", "gridDim.x",
                                              "gridDim.y", "gridDim.z"};

static expr *primary(sk *s)
{
    skip_ws(s);
    int col = col_of(s);
    char c = *s->p;
    if (c == '(') {
        s->p++;
        expr *e = parse_expr(s);
        skip_ws(s);
        if (!e) return NULL;
        if (*s->p != ')') return sfail(s, s->line, col_of(s), "expected ')'"), NULL;
        s->p++;
        return e;
    }
    if (c == '-' || c == '+' || c == '~' || c == '!') {
        s->p++;
        expr *e = node(s, E_UN);
        if (!e) return NULL;
        e->op = c;
        e->a = primary(s);
        return e->a ? e : NULL;
    }
    if (c >= '0' && c <= '9') {
        expr *e = node(s, E_NUM);
        if (!e) return NULL;
        char *end;
        e->num = (int64_t)strtoll(s->p, &end, 0);
        s->p = end;
        while (*s->p == 'u' || *s->p == 'U' || *s->p == 'l' || *s->p == 'L') s->p++;   /* C suffixes */
        if (is_id(*s->p)) return sfail(s, s->line, col, "bad number"), NULL;
        return e;
    }
    char name[32];
    if (!ident(s, name, sizeof name)) return sfail(s, s->line, col, "expected a number, a name or '('"), NULL;
    if (*s->p == '.') {
        char full[48], comp[8];
        s->p++;
        if (!ident(s, comp, sizeof comp)) return sfail(s, s->line, col_of(s), "expected x, y or z"), NULL;
        snprintf(full, sizeof full, "%s.%s", name, comp);
        for (int i = 0; i < 12; i++)
            if (!strcmp(full, builtin_names[i])) {
                expr *e = node(s, E_BUILTIN);
                if (!e) return NULL;
                e->var = i;
                return e;
            }
        return sfail(s, s->line, col, "unknown built-in '%s'", full), NULL;
    }
    int v = find_var(s, name);
    if (v < 0) return sfail(s, s->line, col, "unknown variable '%s'", name), NULL;
    expr *e = node(s, E_VAR);
    if (!e) return NULL;
    e->var = v;
    return e;
}

static expr *binary(sk *s, int minprec)
{
    expr *lhs = primary(s);
    while (lhs) {
        int len, op = peek_op(s, &len);
        if (!op || prec(op) < minprec) break;
        int col = col_of(s);
        s->p += len;
        expr *rhs = binary(s, prec(op) + 1);
        if (!rhs) return NULL;
        expr *e = node(s, E_BIN);
        if (!e) return NULL;
        e->op = op, e->a = lhs, e->b = rhs, e->col = col;
        lhs = e;
    }
    return lhs;
}

static expr *parse_expr(sk *s)
{
    expr *c = binary(s, 1);
    skip_ws(s);
    if (c && *s->p == '?') {
        s->p++;
        expr *e = node(s, E_COND);
        if (!e) return NULL;
        e->a = c;
        e->b = parse_expr(s);
        skip_ws(s);
        if (!e->b) return NULL;
        if (*s->p != ':') return sfail(s, s->line, col_of(s), "expected ':'"), NULL;
        s->p++;
        e->c = parse_expr(s);
        return e->c ? e : NULL;
    }
    return c;
}

/* Evaluate for one lane; -1 on error (division by zero, bad shift). */
static int eval(sk *s, const expr *e, int lane, int64_t *out)
{
    int64_t x, y;
    switch (e->kind) {
    case E_NUM: *out = e->num; return 0;
    case E_VAR: *out = s->val[e->var][lane]; return 0;
    case E_BUILTIN: {
        unsigned t = s->tid0 + (unsigned)lane, i = (unsigned)e->var;
        int64_t bx = s->block[0], by = s->block[1];
        if (i == 0) *out = t % bx;
        else if (i == 1) *out = t / bx % by;
        else if (i == 2) *out = t / (bx * by);
        else if (i < 6) *out = s->bidx[i - 3];
        else if (i < 9) *out = s->block[i - 6];
        else *out = s->grid[i - 9];
        return 0;
    }
    case E_UN:
        if (eval(s, e->a, lane, &x)) return -1;
        *out = e->op == '-' ? (int64_t)(0 - (uint64_t)x) : e->op == '~' ? ~x : e->op == '!' ? !x : x;
        return 0;
    case E_COND:
        if (eval(s, e->a, lane, &x)) return -1;
        return eval(s, x ? e->b : e->c, lane, out);
    default: break;
    }
    if (eval(s, e->a, lane, &x)) return -1;
    if (e->op == T_AND && !x) return *out = 0, 0;
    if (e->op == T_OR && x) return *out = 1, 0;
    if (eval(s, e->b, lane, &y)) return -1;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (e->op) {
    case '+': *out = (int64_t)(ux + uy); break;
    case '-': *out = (int64_t)(ux - uy); break;
    case '*': *out = (int64_t)(ux * uy); break;
    case '/': case '%':
        if (y == 0) return sfail(s, e->line, e->col, "division by zero (thread %u of block %lld)", s->tid0 + lane,
                                 (long long)(s->bidx[0] + s->bidx[1] * s->grid[0]));
        if (x == INT64_MIN && y == -1) *out = e->op == '/' ? x : 0;
        else *out = e->op == '/' ? x / y : x % y;
        break;
    case T_SHL: case T_SHR:
        if (y < 0 || y > 63) return sfail(s, e->line, e->col, "shift by %lld", (long long)y);
        *out = e->op == T_SHL ? (int64_t)(ux << y) : x >> y;
        break;
    case '<': *out = x < y; break;
    case '>': *out = x > y; break;
    case T_LE: *out = x <= y; break;
    case T_GE: *out = x >= y; break;
    case T_EQ: *out = x == y; break;
    case T_NE: *out = x != y; break;
    case '&': *out = x & y; break;
    case '^': *out = x ^ y; break;
    case '|': *out = x | y; break;
    case T_AND: *out = y != 0; break;
    case T_OR: *out = y != 0; break;
    default: return sfail(s, e->line, e->col, "bad operator");
    }
    return 0;
}

/* ---- statements ---- */

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

/* The rest of the line must be empty (or a comment). */
static int line_end(sk *s)
{
    skip_ws(s);
    if (*s->p == '#' || *s->p == '\n' || *s->p == '\0') return 0;
    return sfail(s, s->line, col_of(s), "unexpected '%c'", *s->p);
}

/* Parse "(A[, B[, C]])" or "A [B [C]]" into v[3] (missing ones 1). */
static int dims3(sk *s, int64_t v[3])
{
    v[0] = v[1] = v[2] = 1;
    skip_ws(s);
    int paren = *s->p == '(';
    if (paren) s->p++;
    for (int k = 0; k < 3; k++) {
        skip_ws(s);
        if (*s->p == ')' || *s->p == '\n' || *s->p == '\0' || *s->p == '#') break;
        expr *e = parse_expr(s);
        if (!e) return -1;
        int64_t x;
        if (eval(s, e, 0, &x)) return -1;
        if (x < 1 || x > (1 << 24)) return sfail(s, e->line, e->col, "a dimension must be 1 to 16777216");
        v[k] = x;
        skip_ws(s);
        if (*s->p == ',') s->p++;
    }
    if (paren) {
        if (*s->p != ')') return sfail(s, s->line, col_of(s), "expected ')'");
        s->p++;
    }
    return line_end(s);
}

static int parse_program(sk *s, const char *text, const char *const *sets)
{
    int stack[64], depth = 0;
    s->p = text;
    s->line = 0;
    while (*s->p && !s->failed) {
        s->line++;
        s->line_start = s->p;
        char word[32];
        skip_ws(s);
        if (*s->p == '#' || *s->p == '\n' || *s->p == '\0') goto next;
        int col = col_of(s);
        if (!ident(s, word, sizeof word)) {
            sfail(s, s->line, col, "expected a statement");
            break;
        }
        if (s->nst == MAXSTMT) {
            sfail(s, s->line, col, "too many statements (at most %d)", MAXSTMT);
            break;
        }
        stmt *t = &s->st[s->nst];
        memset(t, 0, sizeof *t);
        t->line = s->line;
        if (!strcmp(word, "grid") || !strcmp(word, "block")) {
            dims3(s, !strcmp(word, "grid") ? s->grid : s->block);
        } else if (!strcmp(word, "param")) {
            char name[32];
            if (!ident(s, name, sizeof name)) { sfail(s, s->line, col_of(s), "expected a name"); break; }
            skip_ws(s);
            if (*s->p != '=') { sfail(s, s->line, col_of(s), "expected '='"); break; }
            s->p++;
            int v = add_var(s, name);
            if (v < 0) break;
            expr *e = parse_expr(s);
            if (!e) break;
            int64_t x;
            if (eval(s, e, 0, &x)) break;
            /* --set NAME=VALUE overrides */
            for (const char *const *o = sets; o && *o; o++) {
                size_t n = strlen(name);
                if (!strncmp(*o, name, n) && (*o)[n] == '=') {
                    char *end;
                    x = strtoll(*o + n + 1, &end, 0);
                    if (*end || end == *o + n + 1) { sfail(s, s->line, 0, "--set %s: not an integer", *o); break; }
                }
            }
            for (int l = 0; l < W; l++) s->val[v][l] = x;
            s->is_param[v] = 1;
            line_end(s);
        } else if (!strcmp(word, "global") || !strcmp(word, "shared")) {
            char type[16];
            array *a = &s->arr[s->narr];
            if (s->narr == MAXARRAYS) { sfail(s, s->line, col, "too many arrays"); break; }
            skip_ws(s);
            int tcol = col_of(s);
            if (!ident(s, type, sizeof type) || !(a->size = type_size(type))) {
                sfail(s, s->line, tcol, "expected an element type (char short int float long double float2 float4 ...)");
                break;
            }
            if (!ident(s, a->name, sizeof a->name)) { sfail(s, s->line, col_of(s), "expected the array's name"); break; }
            a->space = word[0] == 'g' ? COALSIM_GLOBAL : COALSIM_SHARED;
            skip_ws(s);
            while (*s->p == '[') {
                s->p++;
                if (a->ndims == MAXDIMS) { sfail(s, s->line, col_of(s), "at most %d dimensions", MAXDIMS); break; }
                expr *e = parse_expr(s);
                int64_t x;
                if (!e || eval(s, e, 0, &x)) break;
                if (x < 1 || x > ((int64_t)1 << 40)) { sfail(s, e->line, e->col, "bad dimension %lld", (long long)x); break; }
                a->dims[a->ndims++] = x;
                skip_ws(s);
                if (*s->p != ']') { sfail(s, s->line, col_of(s), "expected ']'"); break; }
                s->p++;
                skip_ws(s);
            }
            if (!s->failed && !a->ndims) sfail(s, s->line, col_of(s), "an array needs [dimensions]");
            if (!s->failed) s->narr++, line_end(s);
        } else if (!strcmp(word, "ld") || !strcmp(word, "st") || !strcmp(word, "ldsm") || !strcmp(word, "stsm")) {
            char name[32];
            t->kind = S_ACCESS;
            t->op = word[0] == 'l' ? COALSIM_LD : COALSIM_ST;
            if (word[2]) t->op = word[0] == 'l' ? COALSIM_LDSM : COALSIM_STSM;
            skip_ws(s);
            int acol = col_of(s);
            if (!ident(s, name, sizeof name)) { sfail(s, s->line, acol, "expected an array"); break; }
            t->arr = -1;
            for (int i = 0; i < s->narr; i++)
                if (!strcmp(s->arr[i].name, name)) t->arr = i;
            if (t->arr < 0) { sfail(s, s->line, acol, "unknown array '%s'", name); break; }
            if ((t->op == COALSIM_LDSM || t->op == COALSIM_STSM) && s->arr[t->arr].space != COALSIM_SHARED) {
                sfail(s, s->line, acol, "%s reads rows of shared memory; '%s' is global", t->op == COALSIM_LDSM ? "ldsm" : "stsm", name);
                break;
            }
            skip_ws(s);
            while (*s->p == '[' && !s->failed) {
                s->p++;
                if (t->nidx == MAXDIMS) { sfail(s, s->line, col_of(s), "too many indices"); break; }
                skip_ws(s);
                t->idxcol[t->nidx] = col_of(s);
                t->idx[t->nidx] = parse_expr(s);
                if (!t->idx[t->nidx]) break;
                t->nidx++;
                skip_ws(s);
                if (*s->p != ']') { sfail(s, s->line, col_of(s), "expected ']'"); break; }
                s->p++;
                skip_ws(s);
            }
            if (s->failed) break;
            if (t->nidx != s->arr[t->arr].ndims) {
                sfail(s, s->line, acol, "%s has %d dimension%s, indexed with %d", name, s->arr[t->arr].ndims,
                      s->arr[t->arr].ndims == 1 ? "" : "s", t->nidx);
                break;
            }
            snprintf(t->label, sizeof t->label, "%s", name);
            char as[8];
            const char *save = s->p;
            if (ident(s, as, sizeof as) && !strcmp(as, "as")) {
                if (!ident(s, t->label, sizeof t->label)) { sfail(s, s->line, col_of(s), "expected a label"); break; }
            } else {
                s->p = save;
            }
            s->nst++;
            line_end(s);
        } else if (!strcmp(word, "if") || !strcmp(word, "for")) {
            skip_ws(s);
            if (*s->p != '(') { sfail(s, s->line, col_of(s), "expected '('"); break; }
            s->p++;
            if (word[0] == 'i') {
                t->kind = S_IF;
                t->else_start = -1;
                if (!(t->e = parse_expr(s))) break;
            } else {
                char v[32];
                t->kind = S_FOR;
                if (!ident(s, v, sizeof v)) { sfail(s, s->line, col_of(s), "expected the loop variable"); break; }
                if ((t->var = add_var(s, v)) < 0) break;
                skip_ws(s);
                if (*s->p != '=') { sfail(s, s->line, col_of(s), "expected '='"); break; }
                s->p++;
                if (!(t->init = parse_expr(s))) break;
                skip_ws(s);
                if (*s->p != ';') { sfail(s, s->line, col_of(s), "expected ';'"); break; }
                s->p++;
                if (!(t->e = parse_expr(s))) break;
                skip_ws(s);
                if (*s->p != ';') { sfail(s, s->line, col_of(s), "expected ';'"); break; }
                s->p++;
                char v2[32];
                if (!ident(s, v2, sizeof v2) || strcmp(v, v2)) {
                    sfail(s, s->line, col_of(s), "the step must be '%s += EXPR' or '%s -= EXPR'", v, v);
                    break;
                }
                skip_ws(s);
                int neg = *s->p == '-';
                if ((s->p[0] != '+' && s->p[0] != '-') || s->p[1] != '=') {
                    sfail(s, s->line, col_of(s), "the step must be '%s += EXPR' or '%s -= EXPR'", v, v);
                    break;
                }
                s->p += 2;
                if (!(t->step = parse_expr(s))) break;
                if (neg) {
                    expr *e = node(s, E_UN);
                    if (!e) break;
                    e->op = '-', e->a = t->step, t->step = e;
                }
            }
            skip_ws(s);
            if (*s->p != ')') { sfail(s, s->line, col_of(s), "expected ')'"); break; }
            s->p++;
            if (depth == 64) { sfail(s, s->line, col, "nested too deeply"); break; }
            stack[depth++] = s->nst;
            t->body = s->nst + 1;
            s->nst++;
            line_end(s);
        } else if (!strcmp(word, "else")) {
            if (!depth || s->st[stack[depth - 1]].kind != S_IF || s->st[stack[depth - 1]].else_start >= 0) {
                sfail(s, s->line, col, "'else' without 'if'");
                break;
            }
            s->st[stack[depth - 1]].else_start = s->nst;
            line_end(s);
        } else if (!strcmp(word, "end")) {
            if (!depth) { sfail(s, s->line, col, "'end' without 'if' or 'for'"); break; }
            s->st[stack[--depth]].body_end = s->nst;
            line_end(s);
        } else if (!strcmp(word, "return") || !strcmp(word, "sync")) {
            t->kind = word[0] == 'r' ? S_RETURN : S_SYNC;
            s->nst++;
            line_end(s);
        } else {
            /* NAME = EXPR */
            skip_ws(s);
            if (*s->p != '=' || s->p[1] == '=') { sfail(s, s->line, col, "unknown statement '%s'", word); break; }
            s->p++;
            t->kind = S_ASSIGN;
            expr *e = parse_expr(s);
            if (!e) break;
            if ((t->var = add_var(s, word)) < 0) break;
            if (s->is_param[t->var]) { sfail(s, s->line, col, "'%s' is a param", word); break; }
            t->e = e;
            s->nst++;
            line_end(s);
        }
    next:
        while (*s->p && *s->p != '\n') s->p++;
        if (*s->p == '\n') s->p++;
    }
    if (!s->failed && depth) sfail(s, s->st[stack[depth - 1]].line, 0, "'%s' without 'end'",
                                   s->st[stack[depth - 1]].kind == S_IF ? "if" : "for");
    return s->failed ? -1 : 0;
}

/* Run statements [from, to) for the lanes in *mask; lanes that return leave
 * *mask.  *brk is unused (no break statement). */
static int run(sk *s, int from, int to, uint32_t *mask)
{
    for (int i = from; i < to && *mask && !s->failed;) {
        stmt *t = &s->st[i];
        switch (t->kind) {
        case S_ASSIGN:
            for (int l = 0; l < W; l++)
                if (*mask >> l & 1 && eval(s, t->e, l, &s->val[t->var][l])) return -1;
            i++;
            break;
        case S_SYNC: i++; break;
        case S_RETURN: *mask = 0; return 0;
        case S_ACCESS: {
            const array *a = &s->arr[t->arr];
            char rowerr[200] = "";       /* ldsm/stsm: the first lane's bad row, raised once every lane's index is checked */
            for (int l = 0; l < W; l++) {
                if (!(*mask >> l & 1)) continue;
                int64_t off = 0;
                for (int k = 0; k < t->nidx; k++) {
                    int64_t x;
                    if (eval(s, t->idx[k], l, &x)) return -1;
                    if (x < 0 || x >= a->dims[k])
                        return sfail(s, t->line, t->idxcol[k],
                                     "index %lld is outside %s's dimension %d of %lld (thread %u of block %lld)",
                                     (long long)x, a->name, k + 1, (long long)a->dims[k], s->tid0 + l,
                                     (long long)(s->bidx[0] + s->bidx[1] * s->grid[0] + s->bidx[2] * s->grid[0] * s->grid[1]));
                    off = off * a->dims[k] + x;
                }
                if (s->max_records && s->records == s->max_records)
                    return sfail(s, t->line, 0, "the sketch makes more than %llu records", (unsigned long long)s->max_records);
                s->records++;
                uint64_t addr = a->base + (uint64_t)off * a->size;
                unsigned size = a->size;
                if (t->op == COALSIM_LDSM || t->op == COALSIM_STSM) {
                    uint64_t bytes = a->size;
                    for (int k = 0; k < a->ndims; k++) bytes *= (uint64_t)a->dims[k];
                    size = 16;
                    if ((addr % 16 || addr - a->base + 16 > bytes) && !rowerr[0])
                        snprintf(rowerr, sizeof rowerr, "%s row at 0x%llx is not 16 aligned bytes inside %s (thread %u of block %lld)",
                                 t->op == COALSIM_LDSM ? "ldsm" : "stsm", (unsigned long long)addr, a->name,
                                 s->tid0 + (unsigned)l,
                                 (long long)(s->bidx[0] + s->bidx[1] * s->grid[0] + s->bidx[2] * s->grid[0] * s->grid[1]));
                }
                static const char *const opw[] = {"ld", "st", "atom", "red", "ldsm", "stsm"};
                fprintf(s->out, "%s %s %u %s %lld %u 0x%llx\n", opw[t->op],
                        a->space == COALSIM_GLOBAL ? "global" : "shared", size, t->label,
                        (long long)(s->bidx[0] + s->bidx[1] * s->grid[0] + s->bidx[2] * s->grid[0] * s->grid[1]),
                        s->tid0 + (unsigned)l, (unsigned long long)addr);
            }
            if (rowerr[0]) return sfail(s, t->line, 0, "%s", rowerr);
            i++;
            break;
        }
        case S_IF: {
            uint32_t yes = 0, no = 0;
            for (int l = 0; l < W; l++) {
                if (!(*mask >> l & 1)) continue;
                int64_t x;
                if (eval(s, t->e, l, &x)) return -1;
                if (x) yes |= 1u << l;
                else no |= 1u << l;
            }
            int mid = t->else_start >= 0 ? t->else_start : t->body_end;
            uint32_t y0 = yes, n0 = no;
            if (yes && run(s, t->body, mid, &yes)) return -1;
            if (no && t->else_start >= 0 && run(s, t->else_start, t->body_end, &no)) return -1;
            /* lanes that returned inside leave the whole kernel */
            *mask &= ~((y0 & ~yes) | (n0 & ~no));
            i = t->body_end;
            break;
        }
        case S_FOR: {
            uint32_t live = *mask;
            for (int l = 0; l < W; l++)
                if (live >> l & 1 && eval(s, t->init, l, &s->val[t->var][l])) return -1;
            for (unsigned long trips = 0;; trips++) {
                uint32_t go = 0;
                for (int l = 0; l < W; l++) {
                    int64_t x;
                    if (!(live >> l & 1)) continue;
                    if (eval(s, t->e, l, &x)) return -1;
                    if (x) go |= 1u << l;
                }
                if (!go) break;
                if (trips > 1000000ul) return sfail(s, t->line, 0, "the loop runs more than a million times in one warp");
                uint32_t before = go;
                if (run(s, t->body, t->body_end, &go)) return -1;
                *mask &= ~(before & ~go);          /* returned inside the loop */
                live = go;
                for (int l = 0; l < W; l++) {
                    int64_t d;
                    if (!(live >> l & 1)) continue;
                    if (eval(s, t->step, l, &d)) return -1;
                    s->val[t->var][l] = (int64_t)((uint64_t)s->val[t->var][l] + (uint64_t)d);
                }
            }
            i = t->body_end;
            break;
        }
        }
    }
    return s->failed ? -1 : 0;
}

int sketch_oracle(const char *text, const char *name, const char *const *sets, FILE *out, uint64_t max_records,
                  char *err, size_t errcap)
{
    sk *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errcap, "%s: out of memory", name);
        return -1;
    }
    s->name = name;
    s->err = err;
    s->errcap = errcap;
    s->cappool = 65536;
    s->pool = calloc(s->cappool, sizeof *s->pool);
    s->grid[0] = s->grid[1] = s->grid[2] = s->block[0] = s->block[1] = s->block[2] = 1;
    s->out = out;
    s->max_records = max_records;
    int rc = -1;
    if (!s->pool) {
        snprintf(err, errcap, "%s: out of memory", name);
        goto done;
    }
    if (parse_program(s, text, sets) != 0) goto done;
    /* bases: global arrays 256-byte aligned, one after another as cudaMalloc
     * would give them; shared arrays from offset 0, each aligned to 16 */
    uint64_t g = 0x7f3a00000000ull, sh = 0;
    for (int i = 0; i < s->narr; i++) {
        array *a = &s->arr[i];
        uint64_t bytes = a->size;
        for (int k = 0; k < a->ndims; k++) bytes *= (uint64_t)a->dims[k];
        if (a->space == COALSIM_GLOBAL) {
            a->base = g;
            g = (g + bytes + 255) / 256 * 256;
        } else {
            a->base = sh;
            sh = (sh + bytes + 15) / 16 * 16;
        }
    }
    int64_t threads = s->block[0] * s->block[1] * s->block[2];
    if (threads > 1024) {
        sfail(s, 1, 0, "a block of %lld threads (at most 1024)", (long long)threads);
        goto done;
    }
    fprintf(out, "# generated by coalsim sketch from %s\n", name);
    for (int64_t bz = 0; bz < s->grid[2] && !s->failed; bz++)
        for (int64_t by = 0; by < s->grid[1] && !s->failed; by++)
            for (int64_t bx = 0; bx < s->grid[0] && !s->failed; bx++) {
                s->bidx[0] = bx, s->bidx[1] = by, s->bidx[2] = bz;
                for (int64_t w = 0; w * W < threads && !s->failed; w++) {
                    s->tid0 = (unsigned)(w * W);
                    uint32_t mask = threads - w * W >= W ? 0xffffffffu : (1u << (threads - w * W)) - 1;
                    /* variables start at 0 in every warp; params keep their value */
                    for (int v = 0; v < s->nvars; v++)
                        if (!s->is_param[v]) memset(s->val[v], 0, sizeof s->val[v]);
                    run(s, 0, s->nst, &mask);
                }
            }
    rc = s->failed ? -1 : 0;
    if (!rc && ferror(out)) {
        snprintf(err, errcap, "%s: cannot write the trace", name);
        rc = -1;
    }
done:
    free(s->pool);
    free(s);
    return rc;
}
