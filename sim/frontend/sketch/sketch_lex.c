/* Kernel sketches: errors, and the lexer's pieces (white space, names,
 * operators, the end of a line) that the parsers share. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sketch.h"

int sk_fail(sk_err *er, int line, int col, const char *fmt, ...)
{
    if (er->failed) return -1;
    int n = line <= 0  ? snprintf(er->buf, er->cap, "%s: ", er->name)
            : col > 0  ? snprintf(er->buf, er->cap, "%s:%d:%d: ", er->name, line, col)
                       : snprintf(er->buf, er->cap, "%s:%d: ", er->name, line);
    if (n < 0 || (size_t)n >= er->cap) n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(er->buf + n, er->cap - (size_t)n, fmt, ap);
    va_end(ap);
    er->failed = 1;
    return -1;
}

int sk_col(const sk_parser *s) { return (int)(s->p - s->line_start) + 1; }

void sk_skip_ws(sk_parser *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\r') s->p++;
}

static int is_id(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'); }

/* An identifier into buf (cut to cap - 1 bytes); 0 if there is none. */
int sk_ident(sk_parser *s, char *buf, size_t cap)
{
    sk_skip_ws(s);
    size_t n = 0;
    if (!is_id(*s->p) || (*s->p >= '0' && *s->p <= '9')) return 0;
    while (is_id(*s->p)) {
        if (n + 1 < cap) buf[n++] = *s->p;
        s->p++;
    }
    buf[n] = '\0';
    return 1;
}

/* The binary operator at the cursor (its length in *len), or 0. */
int sk_peek_op(sk_parser *s, int *len)
{
    sk_skip_ws(s);
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
    if (p[0] && strchr("+-*/%<>&|^", p[0])) return (unsigned char)p[0];
    return 0;
}

/* The rest of the line must be empty (or a comment). */
int sk_line_end(sk_parser *s)
{
    sk_skip_ws(s);
    if (*s->p == '#' || *s->p == '\n' || *s->p == '\0') return 0;
    return sk_fail(s->er, s->line, sk_col(s), "unexpected '%c'", *s->p);
}

int sk_find_var(const coalsim_sketch *sk, const char *name)
{
    for (int i = 0; i < sk->nvars; i++)
        if (!strcmp(sk->vars[i], name)) return i;
    return -1;
}

int sk_add_var(sk_parser *s, const char *name)
{
    coalsim_sketch *sk = s->sk;
    int v = sk_find_var(sk, name);
    if (v >= 0) return v;
    if (sk->nvars == SK_MAXVARS) return sk_fail(s->er, s->line, sk_col(s), "too many variables (at most %d)", SK_MAXVARS);
    snprintf(sk->vars[sk->nvars], sizeof sk->vars[0], "%s", name);
    return sk->nvars++;
}

/* A new expression node at the cursor; expressions live in one pool per
 * sketch and are never freed one by one. */
sk_expr *sk_node(sk_parser *s, int kind)
{
    coalsim_sketch *sk = s->sk;
    if (sk->npool == SK_MAXNODES) {
        sk_fail(s->er, s->line, sk_col(s), "sketch too large (more than %d expression nodes)", SK_MAXNODES);
        return NULL;
    }
    sk_expr *e = &sk->pool[sk->npool++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = s->line;
    e->col = sk_col(s);
    return e;
}
