/* The PTX tokenizer: identifiers (%r1, $L__BB0_2, _Z3addPKf), dot-words
 * (.global, .f32), numbers (decimal, 0x hex, 0f/0d float bits, decimal
 * floats), strings and punctuation; comments are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->p = text;
    lx->end = text + len;
    lx->line = 1;
    ptx_lex_advance(lx);
}

static int ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%'; }
static int ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void lex_fail(ptx_lexer *lx, const char *why)
{
    if (!lx->failed) snprintf(lx->err, sizeof lx->err, "%u: %s", lx->line, why);
    lx->failed = 1;
}

void ptx_lex_advance(ptx_lexer *lx)
{
    token *t = &lx->cur;
    memset(t, 0, sizeof *t);
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' || *p == '\v')) {
            if (*p == '\n') lx->line++;
            p++;
            t->space_before = 1;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n') p++;
            t->space_before = 1;
            continue;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') lx->line++;
                p++;
            }
            if (p + 1 >= end) {
                lex_fail(lx, "unterminated comment");
                p = end;
            } else {
                p += 2;
            }
            t->space_before = 1;
            continue;
        }
        break;
    }
    t->line = lx->line;
    t->s = p;
    if (p >= end) {
        t->kind = TK_EOF;
        lx->p = p;
        return;
    }
    char c = *p;
    const char *dig = p + 1;
    while (dig < end && *dig >= '0' && *dig <= '9') dig++;
    /* a modifier, or one that starts with digits (.2d: cp.async.bulk.tensor's dimensions) */
    int digit_mod = c == '.' && dig > p + 1 && dig < end && ident_start(*dig) && *dig != 'e' && *dig != 'E';
    if (c == '.' && p + 1 < end && ident_char(p[1]) && (!(p[1] >= '0' && p[1] <= '9') || digit_mod)) {
        p++;
        while (p < end && ident_char(*p)) p++;
        /* a qualified modifier: .shared::cta, .L2::128B, .L2::cache_hint */
        while (p + 2 < end && p[0] == ':' && p[1] == ':' && ident_char(p[2])) {
            p += 2;
            while (p < end && ident_char(*p)) p++;
        }
        t->kind = TK_DIR;
    } else if (ident_start(c)) {
        while (p < end && ident_char(*p)) p++;
        t->kind = TK_IDENT;
    } else if (c >= '0' && c <= '9') {
        if (c == '0' && p + 1 < end && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
            unsigned digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
            t->kind = digits == 8 ? TK_F32 : TK_F64;
            p += 2;
            uint64_t v = 0;
            unsigned n = 0;
            while (p < end && hexval(*p) >= 0) v = v << 4 | (uint64_t)hexval(*p++), n++;
            if (n != digits) lex_fail(lx, "a float literal needs 8 (0f) or 16 (0d) hex digits");
            t->ival = v;
        } else if (c == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            uint64_t v = 0;
            unsigned n = 0;
            while (p < end && hexval(*p) >= 0) v = v << 4 | (uint64_t)hexval(*p++), n++;
            if (n == 0 || n > 16) lex_fail(lx, "bad hex number");
            t->kind = TK_INT;
            t->ival = v;
        } else if (c == '0' && p + 1 < end && (p[1] == 'b' || p[1] == 'B')) {
            p += 2;
            uint64_t v = 0;
            while (p < end && (*p == '0' || *p == '1')) v = v << 1 | (uint64_t)(*p++ - '0');
            t->kind = TK_INT;
            t->ival = v;
        } else {
            const char *s = p;
            while (p < end && *p >= '0' && *p <= '9') p++;
            if (p < end && (*p == '.' || *p == 'e' || *p == 'E') && !(p + 1 < end && *p == '.' && ident_start(p[1]))) {
                char buf[64];
                if (*p == '.') p++;
                while (p < end && ((*p >= '0' && *p <= '9') || *p == 'e' || *p == 'E' ||
                                   ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E'))))
                    p++;
                size_t n = (size_t)(p - s) < sizeof buf - 1 ? (size_t)(p - s) : sizeof buf - 1;
                memcpy(buf, s, n);
                buf[n] = '\0';
                t->kind = TK_FLOAT;
                t->fval = strtod(buf, NULL);
            } else {
                uint64_t v = 0;
                int octal = s[0] == '0' && p - s > 1;
                for (const char *q = s; q < p; q++) {
                    if (octal && *q > '7') lex_fail(lx, "bad octal number");
                    v = v * (octal ? 8 : 10) + (uint64_t)(*q - '0');
                }
                t->kind = TK_INT;
                t->ival = v;
            }
            if (p < end && (*p == 'U' || *p == 'u')) p++;   /* PTX allows a U suffix */
        }
    } else if (c == '"') {
        p++;
        while (p < end && *p != '"' && *p != '\n') p++;
        if (p >= end || *p != '"') lex_fail(lx, "unterminated string");
        else p++;
        t->kind = TK_STRING;
    } else {
        p++;
        t->kind = TK_PUNCT;
    }
    t->len = (unsigned)(p - t->s);
    lx->p = p;
}

int ptx_tok_is(const token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

/* ---- types ---- */

static const char *const type_names[PT_COUNT] = {
    [PT_NONE] = "", [PT_B8] = "b8", [PT_B16] = "b16", [PT_B32] = "b32", [PT_B64] = "b64", [PT_B128] = "b128",
    [PT_U8] = "u8", [PT_U16] = "u16", [PT_U32] = "u32", [PT_U64] = "u64",
    [PT_S8] = "s8", [PT_S16] = "s16", [PT_S32] = "s32", [PT_S64] = "s64",
    [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16", [PT_BF16X2] = "bf16x2", [PT_F32] = "f32",
    [PT_F64] = "f64", [PT_PRED] = "pred",
};

ptype ptype_parse(const char *s)
{
    for (int t = 1; t < PT_COUNT; t++)
        if (!strcmp(s, type_names[t])) return (ptype)t;
    return PT_NONE;
}

const char *ptype_name(ptype t) { return (unsigned)t < PT_COUNT ? type_names[t] : "?"; }

unsigned ptype_bytes(ptype t)
{
    switch (t) {
    case PT_B8: case PT_U8: case PT_S8: return 1;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: return 2;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2: case PT_BF16X2: return 4;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 8;
    case PT_B128: return 16;
    default: return 0;
    }
}

int ptype_signed(ptype t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }

int ptype_float(ptype t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2 || t == PT_F32 || t == PT_F64;
}
