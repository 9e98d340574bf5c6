/* Kernel sketches: expressions.  Parsed with C's precedence into trees, and
 * evaluated one lane at a time the way the language defines them: in 64-bit
 * two's complement, left operand first, && || ?: short-circuiting, division
 * truncating toward zero.  The vector code (sketch_code.c) must agree with
 * sk_eval on every value; the runner asks sk_eval for the exact error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sketch.h"

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

static const char *const builtin_names[B_COUNT] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
                                                   "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
                                                   "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z"};

/* NAME.COMPONENT after NAME was read: a built-in. */
static sk_expr *builtin(sk_parser *s, const char *name, int col)
{
    char full[48], comp[8];
    s->p++;
    if (!sk_ident(s, comp, sizeof comp)) return sk_fail(s->er, s->line, sk_col(s), "expected x, y or z"), NULL;
    snprintf(full, sizeof full, "%s.%s", name, comp);
    for (int i = 0; i < B_COUNT; i++)
        if (!strcmp(full, builtin_names[i])) {
            sk_expr *e = sk_node(s, E_BUILTIN);
            if (e) e->var = i;
            return e;
        }
    return sk_fail(s->er, s->line, col, "unknown built-in '%s'", full), NULL;
}

static sk_expr *primary(sk_parser *s)
{
    sk_skip_ws(s);
    int col = sk_col(s);
    char c = *s->p;
    if (c == '(') {
        s->p++;
        sk_expr *e = sk_parse_expr(s);
        sk_skip_ws(s);
        if (!e) return NULL;
        if (*s->p != ')') return sk_fail(s->er, s->line, sk_col(s), "expected ')'"), NULL;
        s->p++;
        return e;
    }
    if (c == '-' || c == '+' || c == '~' || c == '!') {
        s->p++;
        sk_expr *e = sk_node(s, E_UN);
        if (!e) return NULL;
        e->op = c;
        e->a = primary(s);
        return e->a ? e : NULL;
    }
    if (c >= '0' && c <= '9') {
        sk_expr *e = sk_node(s, E_NUM);
        if (!e) return NULL;
        char *end;
        e->num = (int64_t)strtoll(s->p, &end, 0);
        s->p = end;
        while (*s->p == 'u' || *s->p == 'U' || *s->p == 'l' || *s->p == 'L') s->p++;   /* C suffixes */
        char n = *s->p;
        if ((n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z') || n == '_' || (n >= '0' && n <= '9'))
            return sk_fail(s->er, s->line, col, "bad number"), NULL;
        return e;
    }
    char name[SK_MAXNAME];
    if (!sk_ident(s, name, sizeof name))
        return sk_fail(s->er, s->line, col, "expected a number, a name or '('"), NULL;
    if (*s->p == '.') return builtin(s, name, col);
    int v = sk_find_var(s->sk, name);
    if (v < 0) return sk_fail(s->er, s->line, col, "unknown variable '%s'", name), NULL;
    sk_expr *e = sk_node(s, E_VAR);
    if (!e) return NULL;
    e->var = v;
    return e;
}

static sk_expr *binary(sk_parser *s, int minprec)
{
    sk_expr *lhs = primary(s);
    while (lhs) {
        int len, op = sk_peek_op(s, &len);
        if (!op || prec(op) < minprec) break;
        int col = sk_col(s);
        s->p += len;
        sk_expr *rhs = binary(s, prec(op) + 1);
        if (!rhs) return NULL;
        sk_expr *e = sk_node(s, E_BIN);
        if (!e) return NULL;
        e->op = op, e->a = lhs, e->b = rhs, e->col = col;
        lhs = e;
    }
    return lhs;
}

sk_expr *sk_parse_expr(sk_parser *s)
{
    sk_expr *c = binary(s, 1);
    sk_skip_ws(s);
    if (c && *s->p == '?') {
        s->p++;
        sk_expr *e = sk_node(s, E_COND);
        if (!e) return NULL;
        e->a = c;
        e->b = sk_parse_expr(s);
        sk_skip_ws(s);
        if (!e->b) return NULL;
        if (*s->p != ':') return sk_fail(s->er, s->line, sk_col(s), "expected ':'"), NULL;
        s->p++;
        e->c = sk_parse_expr(s);
        return e->c ? e : NULL;
    }
    return c;
}

/* The linear block number of V's block, as division errors name it (x and y
 * only, as they always have). */
static long long div_block(const sk_view *v) { return (long long)(v->bid[0] + v->bid[1] * v->sk->grid[0]); }

int sk_eval(const sk_view *v, const sk_expr *e, int lane, int64_t *out, sk_err *er)
{
    int64_t x, y;
    switch (e->kind) {
    case E_NUM: *out = e->num; return 0;
    case E_VAR: *out = v->val[e->var][lane]; return 0;
    case E_BUILTIN: {
        unsigned t = v->tid0 + (unsigned)lane, i = (unsigned)e->var;
        int64_t bx = v->sk->block[0], by = v->sk->block[1];
        if (i == 0) *out = t % bx;
        else if (i == 1) *out = t / bx % by;
        else if (i == 2) *out = t / (bx * by);
        else if (i < 6) *out = v->bid[i - 3];
        else if (i < 9) *out = v->sk->block[i - 6];
        else *out = v->sk->grid[i - 9];
        return 0;
    }
    case E_UN:
        if (sk_eval(v, e->a, lane, &x, er)) return -1;
        *out = e->op == '-' ? (int64_t)(0 - (uint64_t)x) : e->op == '~' ? ~x : e->op == '!' ? !x : x;
        return 0;
    case E_COND:
        if (sk_eval(v, e->a, lane, &x, er)) return -1;
        return sk_eval(v, x ? e->b : e->c, lane, out, er);
    default: break;
    }
    if (sk_eval(v, e->a, lane, &x, er)) return -1;
    if (e->op == T_AND && !x) return *out = 0, 0;
    if (e->op == T_OR && x) return *out = 1, 0;
    if (sk_eval(v, e->b, lane, &y, er)) return -1;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (e->op) {
    case '+': *out = (int64_t)(ux + uy); break;
    case '-': *out = (int64_t)(ux - uy); break;
    case '*': *out = (int64_t)(ux * uy); break;
    case '/': case '%':
        if (y == 0)
            return sk_fail(er, e->line, e->col, "division by zero (thread %u of block %lld)", v->tid0 + lane,
                           div_block(v));
        if (x == INT64_MIN && y == -1) *out = e->op == '/' ? x : 0;
        else *out = e->op == '/' ? x / y : x % y;
        break;
    case T_SHL: case T_SHR:
        if (y < 0 || y > 63) return sk_fail(er, e->line, e->col, "shift by %lld", (long long)y);
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
    default: return sk_fail(er, e->line, e->col, "bad operator");
    }
    return 0;
}
