/* A listing alone: the parameters of each kernel from its mangled name,
 * written as a PTX module of empty entries, so the kernel front end reads
 * --args against them as it does against real PTX (the ABI lays kernel
 * parameters out the same from either).  A parameter whose size the name
 * does not give (a struct, an enum) or a kernel with a C name becomes a
 * marker parameter that --args refuses with a message saying so. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/kernel/demangle.h"
#include "sass.h"

/* The PTX parameter type of the C type T, or NULL. */
static const char *ptx_type_of(const char *t)
{
    size_t n = strlen(t);
    if (n && (t[n - 1] == '*' || t[n - 1] == '&')) return ".u64";
    static const struct {
        const char *c, *p;
    } map[] = {{"bool", ".u8"},
               {"char", ".u8"},
               {"signed char", ".s8"},
               {"unsigned char", ".u8"},
               {"short", ".u16"},
               {"unsigned short", ".u16"},
               {"int", ".u32"},
               {"unsigned int", ".u32"},
               {"long", ".u64"},
               {"unsigned long", ".u64"},
               {"long long", ".u64"},
               {"unsigned long long", ".u64"},
               {"float", ".f32"},
               {"double", ".f64"}};
    /* "const int" passes as int */
    if (!strncmp(t, "const ", 6)) t += 6;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].c, t)) return map[i].p;
    return NULL;
}

/* Append to the growing buffer. */
typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(sbuf *b, const char *fmt, ...)
{
    if (b->oom) return;
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)k + 1;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
}

char *sass_stub_ptx(const sass_listing *l, size_t *len, char *err, size_t cap)
{
    sbuf b = {malloc(4096), 0, 4096, 0};
    if (!b.s) goto oom;
    add(&b, "// parameters of %s's kernels from their mangled names (coalsim)\n.version 8.0\n.target %s\n"
            ".address_size 64\n",
        l->name, l->arch[0] ? l->arch : "sm_90");
    for (unsigned f = 0; f < l->nfuncs; f++) {
        const char *m = l->funcs[f].name;
        char d[1024];
        add(&b, ".visible .entry %s(", m);
        if (coalsim_demangle(m, d, sizeof d) != 0 || !strchr(d, '(')) {
            add(&b, ".param .b8 __coalsim_unknown_c_name[1]");
        } else {
            /* the parameter list: split at top-level commas */
            char *p = strchr(d, '(') + 1, *end = strrchr(d, ')');
            if (end) *end = '\0';
            int k = 0, depth = 0;
            char *start = p;
            if (!strcmp(p, "void")) p = start = p + 4;
            for (;; p++) {
                if (*p == '<' || *p == '(' || *p == '[') depth++;
                else if (*p == '>' || *p == ')' || *p == ']') depth--;
                if (*p && !(*p == ',' && depth == 0)) continue;
                char t[512];
                size_t tn = (size_t)(p - start);
                while (tn && start[0] == ' ') start++, tn--;
                while (tn && start[tn - 1] == ' ') tn--;
                if (tn) {
                    snprintf(t, sizeof t, "%.*s", (int)tn, start);
                    const char *pt = ptx_type_of(t);
                    if (pt) add(&b, "%s.param %s p%d", k ? ", " : "", pt, k);
                    else add(&b, "%s.param .b8 __coalsim_unknown_%d[1]", k ? ", " : "", k);
                    k++;
                }
                if (!*p) break;
                start = p + 1;
            }
        }
        add(&b, ")\n{\n\tret;\n}\n");
    }
    if (b.oom) goto oom;
    *len = b.n;
    return b.s;
oom:
    free(b.s);
    snprintf(err, cap, "%s: out of memory", l->name);
    return NULL;
}
