/* A small Itanium C++ demangler for kernel names: enough to turn
 * _Z22sgemm_shared_mem_blockILi32EEviiifPKfS1_fPf into
 * sgemm_shared_mem_block<32>(int, int, int, float, float const*, float const*, float, float*)
 * so that users can name a kernel as they wrote it.  Names it cannot read
 * come back as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

typedef struct {
    const char *p, *end;
    char *out;
    size_t n, cap;
    int bad;
    /* substitution candidates: start and length in the output */
    size_t sub_at[64], sub_len[64];
    unsigned nsub;
    /* template arguments of the function, for T_ */
    size_t targ_at[16], targ_len[16];
    unsigned ntarg;
} dm;

static void put(dm *d, const char *s, size_t n)
{
    if (d->n + n + 1 > d->cap) {
        d->bad = 1;
        return;
    }
    memcpy(d->out + d->n, s, n);
    d->n += n;
    d->out[d->n] = '\0';
}
static void puts_(dm *d, const char *s) { put(d, s, strlen(s)); }

static int number(dm *d, long *v)
{
    int neg = 0;
    if (d->p < d->end && *d->p == 'n') neg = 1, d->p++;
    if (d->p >= d->end || *d->p < '0' || *d->p > '9') return -1;
    long x = 0;
    while (d->p < d->end && *d->p >= '0' && *d->p <= '9') x = x * 10 + (*d->p++ - '0');
    *v = neg ? -x : x;
    return 0;
}

static void add_sub(dm *d, size_t at)
{
    if (d->nsub < 64) d->sub_at[d->nsub] = at, d->sub_len[d->nsub++] = d->n - at;
}

static int type(dm *d);

static const char *builtin(char c)
{
    switch (c) {
    case 'v': return "void";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'w': return "wchar_t";
    default: return NULL;
    }
}

static int source_name(dm *d)
{
    long len;
    if (number(d, &len) || len <= 0 || d->end - d->p < len) return -1;
    put(d, d->p, (size_t)len);
    d->p += len;
    return 0;
}

static int template_args(dm *d, int record);

/* S_, S0_, ...: a substitution */
static int substitution(dm *d)
{
    d->p++;                       /* 'S' */
    if (d->p >= d->end) return -1;
    unsigned idx = 0;
    if (*d->p == '_') {
        d->p++;
    } else {
        unsigned v = 0;
        while (d->p < d->end && *d->p != '_') {
            char c = *d->p++;
            v = v * 36 + (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 0);
        }
        if (d->p >= d->end) return -1;
        d->p++;
        idx = v + 1;
    }
    if (idx >= d->nsub) return -1;
    char tmp[256];
    size_t n = d->sub_len[idx] < sizeof tmp ? d->sub_len[idx] : sizeof tmp - 1;
    memcpy(tmp, d->out + d->sub_at[idx], n);
    put(d, tmp, n);
    return 0;
}

static int unqualified_or_nested(dm *d, int record_args)
{
    if (d->p < d->end && *d->p == 'N') {
        d->p++;
        while (d->p < d->end && (*d->p == 'K' || *d->p == 'V' || *d->p == 'r')) d->p++;
        int first = 1;
        size_t at = d->n;
        while (d->p < d->end && *d->p != 'E') {
            if (*d->p == 'I') {
                if (template_args(d, record_args)) return -1;
                add_sub(d, at);
                continue;
            }
            if (!first) puts_(d, "::");
            if (*d->p == 'S') {
                if (d->p + 1 < d->end && d->p[1] == 't') {
                    d->p += 2;
                    puts_(d, "std");
                    continue;
                }
                if (substitution(d)) return -1;
            } else if (source_name(d)) {
                return -1;
            }
            first = 0;
            add_sub(d, at);
        }
        if (d->p >= d->end) return -1;
        d->p++;
        return 0;
    }
    size_t at = d->n;
    if (source_name(d)) return -1;
    if (d->p < d->end && *d->p == 'I') {
        add_sub(d, at);
        if (template_args(d, record_args)) return -1;
    }
    return 0;
}

static int template_args(dm *d, int record)
{
    d->p++;                       /* 'I' */
    puts_(d, "<");
    int first = 1;
    while (d->p < d->end && *d->p != 'E') {
        if (!first) puts_(d, ", ");
        first = 0;
        size_t at = d->n;
        if (*d->p == 'L') {       /* a literal: L type value E */
            d->p++;
            if (d->p >= d->end) return -1;
            char t = *d->p++;
            long v;
            if (number(d, &v)) return -1;
            if (t == 'b') puts_(d, v ? "true" : "false");
            else {
                char buf[32];
                snprintf(buf, sizeof buf, "%ld%s", v, t == 'j' ? "u" : t == 'l' ? "l" : t == 'm' ? "ul" : "");
                puts_(d, buf);
            }
            if (d->p >= d->end || *d->p != 'E') return -1;
            d->p++;
        } else if (type(d)) {
            return -1;
        }
        if (record && d->ntarg < 16) d->targ_at[d->ntarg] = at, d->targ_len[d->ntarg++] = d->n - at;
    }
    if (d->p >= d->end) return -1;
    d->p++;
    puts_(d, ">");
    return 0;
}

static int type(dm *d)
{
    if (d->p >= d->end) return -1;
    char c = *d->p;
    const char *b = builtin(c);
    if (b) {
        d->p++;
        puts_(d, b);
        return 0;
    }
    size_t at = d->n;
    if (c == 'P' || c == 'R' || c == 'K' || c == 'V') {
        d->p++;
        if (type(d)) return -1;
        puts_(d, c == 'P' ? "*" : c == 'R' ? "&" : c == 'K' ? " const" : " volatile");
        add_sub(d, at);
        return 0;
    }
    if (c == 'S') {
        if (d->p + 1 < d->end && d->p[1] == 't') {
            d->p += 2;
            puts_(d, "std::");
            if (source_name(d)) return -1;
            add_sub(d, at);
            return 0;
        }
        return substitution(d);
    }
    if (c == 'T') {
        d->p++;
        long idx = 0;
        if (d->p < d->end && *d->p != '_' && number(d, &idx)) return -1;
        if (d->p >= d->end || *d->p != '_') return -1;
        d->p++;
        if (*d->p != '_' && d->p[-2] != 'T') idx++;
        unsigned k = (unsigned)(d->p[-2] == 'T' ? 0 : idx);
        if (k >= d->ntarg) return -1;
        char tmp[128];
        size_t n = d->targ_len[k] < sizeof tmp ? d->targ_len[k] : sizeof tmp - 1;
        memcpy(tmp, d->out + d->targ_at[k], n);
        put(d, tmp, n);
        add_sub(d, at);
        return 0;
    }
    if ((c >= '0' && c <= '9') || c == 'N') {
        if (unqualified_or_nested(d, 0)) return -1;
        add_sub(d, at);
        return 0;
    }
    return -1;
}

int coalsim_demangle(const char *mangled, char *out, size_t cap)
{
    if (cap < 2) return -1;
    size_t len = strlen(mangled);
    if (len < 3 || strncmp(mangled, "_Z", 2) != 0) {
        snprintf(out, cap, "%s", mangled);
        return -1;
    }
    dm d = {.p = mangled + 2, .end = mangled + len, .out = out, .cap = cap};
    out[0] = '\0';
    if (unqualified_or_nested(&d, 1)) goto fail;
    /* a template function's return type comes first: read it and drop it */
    if (d.n && out[d.n - 1] == '>') {
        size_t keep = d.n;
        if (type(&d)) goto fail;
        d.n = keep;
        out[d.n] = '\0';
    }
    puts_(&d, "(");
    int first = 1;
    if (d.p < d.end && *d.p == 'v' && d.p + 1 == d.end) d.p++;
    while (d.p < d.end) {
        if (!first) puts_(&d, ", ");
        if (type(&d)) goto fail;
        first = 0;
    }
    puts_(&d, ")");
    if (d.bad) goto fail;
    return 0;
fail:
    snprintf(out, cap, "%s", mangled);
    return -1;
}

/* The name before any template arguments or parameters: "sgemm_shared_mem_block". */
void coalsim_demangled_base(const char *demangled, char *out, size_t cap)
{
    size_t n = strcspn(demangled, "<(");
    if (n >= cap) n = cap - 1;
    memcpy(out, demangled, n);
    out[n] = '\0';
}
