/* Reading a SASS listing: cuobjdump -sass ("Function : name", absolute
 * branch targets) and nvdisasm ("//---- .text.name", labels, and with -g
 * "//## File ..., line N" before the instructions of each source line). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass.h"

typedef struct {
    sass_listing *l;
    char *err;
    size_t cap;
    unsigned line;
    /* nvdisasm labels of the current function: name -> address */
    char (*lname)[256];
    uint64_t *laddr;
    unsigned nlab, caplab;
    unsigned src_file, src_line;
} parser;

static int fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parser *ps, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->cap, "%s:%u: %s", ps->l->name, ps->line, msg);
    return -1;
}

static sass_func *new_func(parser *ps, const char *name, size_t n)
{
    sass_listing *l = ps->l;
    if (l->nfuncs == l->capfuncs) {
        unsigned cap = l->capfuncs ? l->capfuncs * 2 : 8;
        sass_func *f = realloc(l->funcs, cap * sizeof *f);
        if (!f) return NULL;
        l->funcs = f;
        l->capfuncs = cap;
    }
    sass_func *f = &l->funcs[l->nfuncs];
    memset(f, 0, sizeof *f);
    if (!(f->name = strndup(name, n))) return NULL;
    l->nfuncs++;
    ps->nlab = 0;
    ps->src_file = ps->src_line = 0;
    return f;
}

static const struct {
    const char *name;
    int id;
} sregs[] = {
    {"SR_TID.X", 0}, {"SR_TID.Y", 1}, {"SR_TID.Z", 2}, {"SR_CTAID.X", 3}, {"SR_CTAID.Y", 4}, {"SR_CTAID.Z", 5},
    {"SR_LANEID", 6}, {"SR_CLOCKLO", 7}, {"SR_CLOCKHI", 8}, {"SR_EQMASK", 9}, {"SR_LTMASK", 10}, {"SR_LEMASK", 11},
    {"SR_GTMASK", 12}, {"SR_GEMASK", 13}, {"SRZ", 14}, {"SR_CgaCtaId", 15}, {"SR_VIRTID", 16}, {"SR_WARPID", 17},
    {"SR_SMID", 18}, {"SR_GLOBALTIMERLO", 19}, {"SR_GLOBALTIMERHI", 20}, {"SR_TID", 21}, {"SR_CTAID", 22},
    {"SR_SWINHI", 23}, {"SR_SWINLO", 24}, {"SR_NSMID", 25}, {"SR_VIRTCFG", 26},
};

static int parse_num(const char *s, uint64_t *v, int *isf, double *fv)
{
    while (*s == ' ') s++;
    int neg = 0;
    if (*s == '-') neg = 1, s++;
    else if (*s == '+') s++;
    *isf = 0;
    if (!strcmp(s, "INF")) {
        *isf = 1;
        *fv = neg ? -1.0 / 0.0 : 1.0 / 0.0;
        return 0;
    }
    if (!strcmp(s, "QNAN") || !strcmp(s, "NAN")) {
        *isf = 1;
        *fv = 0.0 / 0.0;
        return 0;
    }
    char *end;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        unsigned long long x = strtoull(s, &end, 16);
        if (*end && *end != ' ') return -1;
        *v = neg ? 0 - (uint64_t)x : x;
        return 0;
    }
    if (!isdigit((unsigned char)*s)) return -1;
    int flt = strpbrk(s, ".eE") != NULL;
    if (flt) {
        double d = strtod(s, &end);
        if (*end && *end != ' ') return -1;
        *isf = 1;
        *fv = neg ? -d : d;
        return 0;
    }
    unsigned long long x = strtoull(s, &end, 10);
    if (*end && *end != ' ') return -1;
    *v = neg ? 0 - (uint64_t)x : x;
    return 0;
}

/* A register name at S: R12, RZ, UR4, URZ, P0, PT, UP0, UPT, B0, SB0.  Sets
 * kind and number; returns the characters read, 0 if none. */
static size_t reg_name(const char *s, uint8_t *kind, uint16_t *reg)
{
    size_t n = 0;
    if (s[0] == 'U' && s[1] == 'R' && s[2] == 'Z') *kind = SO_UR, *reg = SASS_URZ, n = 3;
    else if (s[0] == 'U' && s[1] == 'R' && isdigit((unsigned char)s[2])) *kind = SO_UR, *reg = (uint16_t)atoi(s + 2), n = 2;
    else if (s[0] == 'U' && s[1] == 'P' && s[2] == 'T') *kind = SO_UP, *reg = SASS_PT, n = 3;
    else if (s[0] == 'U' && s[1] == 'P' && isdigit((unsigned char)s[2])) *kind = SO_UP, *reg = (uint16_t)atoi(s + 2), n = 2;
    else if (s[0] == 'R' && s[1] == 'Z') *kind = SO_R, *reg = SASS_RZ, n = 2;
    else if (s[0] == 'R' && isdigit((unsigned char)s[1])) *kind = SO_R, *reg = (uint16_t)atoi(s + 1), n = 1;
    else if (s[0] == 'P' && s[1] == 'T') *kind = SO_P, *reg = SASS_PT, n = 2;
    else if (s[0] == 'P' && isdigit((unsigned char)s[1])) *kind = SO_P, *reg = (uint16_t)atoi(s + 1), n = 1;
    else if (s[0] == 'B' && isdigit((unsigned char)s[1])) *kind = SO_BAR, *reg = (uint16_t)atoi(s + 1), n = 1;
    /* DEPBAR.LE SB0, N: scoreboard 0 (the LDGSTS groups) */
    else if (s[0] == 'S' && s[1] == 'B' && isdigit((unsigned char)s[2])) *kind = SO_BAR, *reg = (uint16_t)atoi(s + 2), n = 2;
    else return 0;
    while (isdigit((unsigned char)s[n])) n++;
    if (isalnum((unsigned char)s[n]) || s[n] == '_') return 0;   /* a longer word */
    return n;
}

static uint64_t label_addr(parser *ps, const char *name, int *ok)
{
    for (unsigned i = 0; i < ps->nlab; i++)
        if (!strcmp(ps->lname[i], name)) {
            *ok = 1;
            return ps->laddr[i];
        }
    *ok = 0;
    return 0;
}

/* Inside [...]: R2.64 + UR4 + 0x10 in any order. */
static int parse_addr(parser *ps, const char *s, sopnd *o)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    o->reg = SASS_RZ;
    o->ureg = SASS_URZ;
    char *p = buf;
    int sign = 1;
    while (*p) {
        while (*p == ' ') p++;
        if (*p == '+') {
            p++;
            continue;
        }
        if (*p == '-') {
            sign = -sign;
            p++;
            continue;
        }
        if (!*p) break;
        uint8_t k;
        uint16_t r;
        size_t n = reg_name(p, &k, &r);
        if (n) {
            p += n;
            if (!strncmp(p, ".64", 3)) o->wide = 1, p += 3;
            if (!strncmp(p, ".U32", 4)) p += 4;
            /* sm_80's scaled index: [R92.X4] is R92 * 4 */
            if (k == SO_R && (!strncmp(p, ".X16", 4) || !strncmp(p, ".X4", 3) || !strncmp(p, ".X8", 3))) {
                o->scale = (uint8_t)atoi(p + 2);
                p += p[3] == '6' ? 4 : 3;
            }
            if (!strncmp(p, ".reuse", 6)) p += 6;
            if (k == SO_R) o->reg = r;
            else if (k == SO_UR) o->ureg = r;
            else return fail(ps, "bad register in address '%s'", s);
            continue;
        }
        char *end;
        uint64_t v = strtoull(p, &end, 0);
        if (end == p) return fail(ps, "bad address '%s'", s);
        o->off += sign * (int64_t)v;
        sign = 1;
        p = end;
    }
    return 0;
}

static int parse_operand(parser *ps, char *s, sopnd *o)
{
    memset(o, 0, sizeof *o);
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ') s[--n] = '\0';
    if (!n) return fail(ps, "an empty operand");
    /* HGMMA's descriptors: gdesc[URn] names URn..URn+3 (A's, then B's),
     * .tnspA / .tnspB an MN-major operand */
    if (!strncmp(s, "gdesc[", 6)) {
        uint8_t k;
        uint16_t r;
        size_t rn = reg_name(s + 6, &k, &r);
        if (!rn || k != SO_UR || s[6 + rn] != ']') return fail(ps, "bad descriptor operand '%s'", s);
        o->kind = SO_GDESC;
        o->reg = r;
        for (const char *t = s + 7 + rn; *t;) {
            if (!strncmp(t, ".tnspA", 6)) o->tnsp |= 1, t += 6;
            else if (!strncmp(t, ".tnspB", 6)) o->tnsp |= 2, t += 6;
            else return fail(ps, "bad descriptor operand '%s'", s);
        }
        return 0;
    }
    /* a warpgroup MMA's scoreboard group (HGMMA ..., gsb0; WARPGROUP.DEPBAR.LE gsb0, N) */
    if (!strcmp(s, "gsb0")) {
        o->kind = SO_GSB;
        return 0;
    }
    if (!strncmp(s, "desc[", 5)) {
        char *close = strchr(s, ']');
        if (!close || close[1] != '[') return fail(ps, "bad memory operand '%s'", s);
        uint8_t k;
        uint16_t r;
        if (reg_name(s + 5, &k, &r) && k == SO_UR) o->desc = r;
        s = close + 1;
    }
    if (s[0] == '[') {
        char *close = strrchr(s, ']');
        if (!close) return fail(ps, "bad memory operand '%s'", s);
        *close = '\0';
        o->kind = SO_MEM;
        return parse_addr(ps, s + 1, o);
    }
    if (s[0] == '`' && s[1] == '(') {
        size_t k = strcspn(s + 2, ")");
        o->kind = SO_TARGET;
        if (!(o->label = strndup(s + 2, k))) return fail(ps, "out of memory");
        return 0;
    }
    if (!strcmp(s, "PR")) {
        o->kind = SO_PR;
        return 0;
    }
    if (!strncmp(s, "SR", 2) && (s[2] == '_' || s[2] == 'Z')) {
        for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
            if (!strcmp(s, sregs[i].name)) {
                o->kind = SO_SREG;
                o->reg = (uint16_t)sregs[i].id;
                return 0;
            }
        return fail(ps, "unknown special register '%s'", s);
    }
    /* modifiers around a register or number: -, |..|, !, ~ */
    for (;;) {
        if (*s == '-' && !isdigit((unsigned char)s[1]) && s[1] != '.' && strncmp(s + 1, "INF", 3) && strncmp(s + 1, "QNAN", 4))
            o->neg = 1, s++;
        else if (*s == '!') o->not_ = 1, s++;
        else if (*s == '~') o->not_ = 1, s++;
        else if (*s == '|') {
            o->abs = 1;
            s++;
            char *bar = strchr(s, '|');
            if (bar) memmove(bar, bar + 1, strlen(bar));
        } else break;
    }
    if (s[0] == 'c' && s[1] == '[') {
        o->kind = SO_CBANK;
        char *b2 = strchr(s + 2, '[');
        if (!b2) return fail(ps, "bad constant operand '%s'", s);
        o->bank = (uint16_t)strtoul(s + 2, NULL, 0);
        char *close = strrchr(b2, ']');
        if (!close) return fail(ps, "bad constant operand '%s'", s);
        *close = '\0';
        sopnd a;
        memset(&a, 0, sizeof a);
        if (parse_addr(ps, b2 + 1, &a)) return -1;
        o->reg = a.reg;
        o->ureg = a.ureg;
        o->off = a.off;
        return 0;
    }
    uint8_t k;
    uint16_t r;
    size_t rn = reg_name(s, &k, &r);
    if (rn) {
        o->kind = k;
        o->reg = r;
        const char *rest = s + rn;
        while (*rest == '.') {
            if (!strncmp(rest, ".reuse", 6)) rest += 6;
            else if (!strncmp(rest, ".64", 3)) o->wide = 1, rest += 3;
            else if (!strncmp(rest, ".H0_H0", 6)) o->half = 1, rest += 6;
            else if (!strncmp(rest, ".H1_H1", 6)) o->half = 2, rest += 6;
            else if (!strncmp(rest, ".H0", 3)) o->half = 1, rest += 3;
            else if (!strncmp(rest, ".H1", 3)) o->half = 2, rest += 3;
            else if (!strncmp(rest, ".F32", 4)) o->half = 3, rest += 4;
            else if (!strncmp(rest, ".B1", 3) || !strncmp(rest, ".B2", 3) || !strncmp(rest, ".B3", 3) ||
                     !strncmp(rest, ".B0", 3))
                o->half = (uint8_t)(8 + rest[2] - '0'), rest += 3;
            else if (!strncmp(rest, ".U32", 4)) rest += 4;
            else if (!strncmp(rest, ".ROW", 4) || !strncmp(rest, ".COL", 4)) rest += 4;   /* IMMA's operand layouts */
            else break;
        }
        if (*rest && *rest != ' ') return fail(ps, "bad operand '%s'", s);
        return 0;
    }
    uint64_t v = 0;
    int isf = 0;
    double fv = 0;
    if (parse_num(s, &v, &isf, &fv) == 0) {
        o->kind = SO_IMM;
        o->hex = strstr(s, "0x") != NULL;
        o->isfloat = isf;
        if (isf) {
            o->fval = fv;
            float f = (float)fv;
            uint32_t u;
            memcpy(&u, &f, 4);
            o->imm = u;
        } else {
            o->imm = v;
        }
        return 0;
    }
    return fail(ps, "unknown operand '%s'", s);
}

static int add_label(parser *ps, const char *name, size_t n, uint64_t addr)
{
    if (ps->nlab == ps->caplab) {
        unsigned cap = ps->caplab ? ps->caplab * 2 : 32;
        char (*ln)[256] = realloc(ps->lname, cap * sizeof *ln);
        if (!ln) return -1;
        ps->lname = ln;
        uint64_t *la = realloc(ps->laddr, cap * sizeof *la);
        if (!la) return -1;
        ps->laddr = la;
        ps->caplab = cap;
    }
    if (n > 255) n = 255;
    memcpy(ps->lname[ps->nlab], name, n);
    ps->lname[ps->nlab][n] = '\0';
    ps->laddr[ps->nlab++] = addr;
    return 0;
}

static int parse_inst(parser *ps, sass_func *f, uint64_t addr, char *body)
{
    if (f->ninsts == f->cap) {
        unsigned cap = f->cap ? f->cap * 2 : 64;
        sraw *r = realloc(f->insts, cap * sizeof *r);
        if (!r) return fail(ps, "out of memory");
        f->insts = r;
        f->cap = cap;
    }
    sraw *ri = &f->insts[f->ninsts];
    memset(ri, 0, sizeof *ri);
    ri->addr = addr;
    ri->line = ps->line;
    ri->src_file = ps->src_file;
    ri->src_line = ps->src_line;
    ri->guard = -1;
    while (*body == ' ') body++;
    snprintf(ri->text, sizeof ri->text, "%s", body);
    for (size_t tl = strlen(ri->text); tl && (ri->text[tl - 1] == ' ' || ri->text[tl - 1] == '\t');) ri->text[--tl] = '\0';
    char *p = body;
    if (*p == '@') {
        p++;
        if (*p == '!') ri->guard_neg = 1, p++;
        uint8_t k;
        uint16_t r;
        size_t n = reg_name(p, &k, &r);
        if (!n || (k != SO_P && k != SO_UP)) return fail(ps, "bad guard in '%s'", ri->text);
        ri->guard = k == SO_P ? r : 8 + r;
        p += n;
        while (*p == ' ') p++;
    }
    size_t on = strcspn(p, " ");
    if (on >= sizeof ri->op) return fail(ps, "opcode too long: '%s'", ri->text);
    memcpy(ri->op, p, on);
    ri->op[on] = '\0';
    p += on;
    /* RET.REL.NODEC R2 0x0: an operand pair without a comma */
    if (!strncmp(ri->op, "RET", 3)) {
        char *sp = strchr(p + 1, ' ');
        if (sp && sp[1] && !strchr(p, ',')) *sp = ',';
    }
    /* operands: split on commas outside brackets and bars */
    int depth = 0;
    char *start = p;
    for (char *q = p;; q++) {
        if (*q == '[') depth++;
        else if (*q == ']') depth--;
        if ((*q == ',' && depth == 0) || !*q) {
            char save = *q;
            *q = '\0';
            char *t = start;
            while (*t == ' ') t++;
            if (*t) {
                if (ri->nops == SASS_MAX_OPS) return fail(ps, "too many operands in '%s'", ri->text);
                if (parse_operand(ps, t, &ri->ops[ri->nops++])) return -1;
            }
            if (!save) break;
            start = q + 1;
        }
    }
    f->ninsts++;
    return 0;
}

/* Resolve nvdisasm's labels in F (a function's own, or a function's name
 * for calls): a name missing is an error, except RET's, which names its
 * caller only for the reader. */
static int resolve(parser *ps, sass_func *f)
{
    for (unsigned i = 0; i < f->ninsts; i++)
        for (unsigned k = 0; k < f->insts[i].nops; k++) {
            sopnd *o = &f->insts[i].ops[k];
            if (o->kind != SO_TARGET || !o->label) continue;
            int ok;
            o->imm = label_addr(ps, o->label, &ok);
            if (!ok && strncmp(f->insts[i].op, "RET", 3) != 0) {
                ps->line = f->insts[i].line;
                fail(ps, "branch to an unknown label '%s'", o->label);
                free(o->label);
                o->label = NULL;
                return -1;
            }
            free(o->label);
            o->label = NULL;
        }
    return 0;
}

static sass_csec *new_csec(parser *ps, unsigned bank, const char *func)
{
    sass_listing *l = ps->l;
    sass_csec *c = realloc(l->csecs, (l->ncsecs + 1) * sizeof *c);
    if (!c) return NULL;
    l->csecs = c;
    c = &c[l->ncsecs];
    memset(c, 0, sizeof *c);
    c->bank = bank;
    if (func && !(c->func = strdup(func))) return NULL;
    l->ncsecs++;
    return c;
}

static int new_shared(parser *ps, const char *func)
{
    sass_listing *l = ps->l;
    void *n = realloc(l->shared, (l->nshared + 1) * sizeof *l->shared);
    if (!n) return -1;
    l->shared = n;
    l->shared[l->nshared].bytes = 0;
    if (!(l->shared[l->nshared].func = strdup(func))) return -1;
    return (int)l->nshared++;
}

static int put_bytes(sass_csec *c, uint64_t v, unsigned n)
{
    if (c->size + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        while (cap < c->size + n) cap *= 2;
        unsigned char *d = realloc(c->data, cap);
        if (!d) return -1;
        c->data = d;
        c->cap = cap;
    }
    for (unsigned i = 0; i < n; i++) c->data[c->size++] = (unsigned char)(v >> (8 * i));
    return 0;
}

/* A data line of a constant or shared section: ".byte 0x9a, 0x99", ".word ...",
 * ".dword ...", ".short ...", ".zero N" (after an optional address comment). */
static int add_data(parser *ps, const char *s, sass_csec *c, int shared)
{
    if (s[0] == '/' && s[1] == '*') {
        const char *e = strstr(s, "*/");
        if (!e) return 0;
        s = e + 2;
        while (*s == ' ' || *s == '\t') s++;
    }
    static const struct {
        const char *dir;
        unsigned bytes;
    } dirs[] = {{".byte", 1}, {".short", 2}, {".half", 2}, {".word", 4}, {".dword", 8}, {".quad", 8}, {".zero", 0}};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        size_t n = strlen(dirs[d].dir);
        if (strncmp(s, dirs[d].dir, n) || (s[n] != ' ' && s[n] != '\t')) continue;
        const char *q = s + n;
        if (!dirs[d].bytes) {
            uint64_t z = strtoull(q, NULL, 0);
            if (shared >= 0) ps->l->shared[shared].bytes += z;
            else
                for (uint64_t i = 0; i < z; i++)
                    if (put_bytes(c, 0, 1)) return fail(ps, "out of memory");
            return 0;
        }
        if (!c) return 0;
        for (;;) {
            while (*q == ' ' || *q == '\t' || *q == ',') q++;
            if (!*q || *q == '\r') break;
            char *e;
            uint64_t v = strtoull(q, &e, 0);
            if (e == q && (isalpha((unsigned char)*q) || *q == '_' || *q == '$')) {
                /* a symbol's address, filled in by the driver */
                size_t k = strcspn(q, " \t,\r");
                void *nr = realloc(c->relocs, (c->nrelocs + 1) * sizeof *c->relocs);
                if (!nr) return fail(ps, "out of memory");
                c->relocs = nr;
                c->relocs[c->nrelocs].off = c->size;
                if (!(c->relocs[c->nrelocs].sym = strndup(q, k))) return fail(ps, "out of memory");
                c->nrelocs++;
                if (put_bytes(c, 0, dirs[d].bytes)) return fail(ps, "out of memory");
                q += k;
                continue;
            }
            if (e == q) return fail(ps, "bad %s value in '%s'", dirs[d].dir, s);
            if (put_bytes(c, v, dirs[d].bytes)) return fail(ps, "out of memory");
            q = e;
        }
        return 0;
    }
    return 0;
}

sass_listing *sass_parse(const char *text, size_t len, const char *name, char *err, size_t cap)
{
    sass_listing *l = calloc(1, sizeof *l);
    parser ps0 = {.l = l, .err = err, .cap = cap}, *ps = &ps0;
    if (!l || !(l->name = strdup(name))) {
        free(l);
        snprintf(err, cap, "%s: out of memory", name);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, cap, "%s: NUL byte in the listing (give coalsim the text cuobjdump -sass or nvdisasm prints)",
                 name);
        sass_listing_free(l);
        return NULL;
    }
    sass_func *f = NULL;
    sass_csec *data = NULL;      /* in a constant section: its bytes */
    int shared = -1;             /* in a .nv.shared section: its entry */
    const char *p = text, *end = text + len;
    char line[1024];
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        ps->line++;
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        p = nl ? nl + 1 : end;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        char *fn;
        if ((fn = strstr(s, "Function : ")) != NULL) {
            if (f && resolve(ps, f)) goto bad;
            fn += 11;
            size_t k = strcspn(fn, " \t\r");
            if (!(f = new_func(ps, fn, k))) goto oom;
            continue;
        }
        if (!strncmp(s, "//--------------------- .text.", 30)) {
            if (f && resolve(ps, f)) goto bad;
            fn = s + 30;
            size_t k = strcspn(fn, " \t\r");
            if (!(f = new_func(ps, fn, k))) goto oom;
            data = NULL;
            shared = -1;
            continue;
        }
        if (!strncmp(s, "//--------------------- ", 24)) {
            /* another section (nvdisasm without -c): constant banks and
             * shared sizes are kept, the rest skipped */
            if (f && resolve(ps, f)) goto bad;
            f = NULL;
            data = NULL;
            shared = -1;
            char *sec = s + 24;
            sec[strcspn(sec, " \t\r")] = '\0';
            if (!strncmp(sec, ".nv.constant", 12) && isdigit((unsigned char)sec[12])) {
                if (!(data = new_csec(ps, (unsigned)atoi(sec + 12), sec[13] == '.' ? sec + 14 : NULL))) goto oom;
            } else if (!strncmp(sec, ".nv.shared.", 11)) {
                if ((shared = new_shared(ps, sec + 11)) < 0) goto oom;
            }
            continue;
        }
        if (data || shared >= 0) {
            if (add_data(ps, s, data, shared) != 0) goto bad;
            continue;
        }
        if (!strncmp(s, "code for sm_", 12)) {
            snprintf(l->arch, sizeof l->arch, "%.15s", s + 9);
            continue;
        }
        if (!strncmp(s, ".target", 7) && !l->arch[0]) {
            char *t = s + 7;
            while (*t == ' ' || *t == '\t') t++;
            snprintf(l->arch, sizeof l->arch, "%.15s", t);
            continue;
        }
        if (!strncmp(s, "//## File \"", 11)) {
            char *q = strchr(s + 11, '"');
            char *ln = q ? strstr(q, "line ") : NULL;
            if (q && ln) {
                size_t fl = (size_t)(q - (s + 11));
                unsigned idx = l->nfiles;
                for (unsigned i = 0; i < l->nfiles; i++)
                    if (strlen(l->files[i]) == fl && !strncmp(l->files[i], s + 11, fl)) idx = i;
                if (idx == l->nfiles) {
                    char **nf = realloc(l->files, (l->nfiles + 1) * sizeof *nf);
                    if (!nf) goto oom;
                    l->files = nf;
                    if (!(l->files[l->nfiles++] = strndup(s + 11, fl))) goto oom;
                }
                ps->src_file = idx + 1;
                ps->src_line = (unsigned)atoi(ln + 5);
            }
            continue;
        }
        /* nvdisasm's full listing: the registers ptxas gave the function */
        if (f && !strncmp(s, ".sectioninfo", 12)) {
            const char *r = strstr(s, "SHI_REGISTERS=");
            if (r) f->regs = (unsigned)atoi(r + 14);
            continue;
        }
        /* nvdisasm labels: ".L_x_3:", and function symbols ("$__internal_0_$...:") */
        size_t llen = strcspn(s, ": \t\r");
        if (f && llen && s[llen] == ':' && s[0] != '/' && strncmp(s, ".text.", 6) != 0 && strncmp(s, ".section", 8) != 0) {
            size_t k = llen;
            {
                uint64_t next_addr = 0;
                /* the label names the next instruction's address: read ahead */
                const char *q = p;
                while (q < end) {
                    const char *e2 = memchr(q, '\n', (size_t)(end - q));
                    const char *c = strstr(q, "/*");
                    if (c && (!e2 || c < e2) && c[2] && isxdigit((unsigned char)c[2])) {
                        next_addr = strtoull(c + 2, NULL, 16);
                        break;
                    }
                    q = e2 ? e2 + 1 : end;
                }
                if (add_label(ps, s, k, next_addr)) goto oom;
            }
            continue;
        }
        if (s[0] == '/' && s[1] == '*' && isxdigit((unsigned char)s[2])) {
            char *close = strstr(s, "*/");
            if (!close || !f) continue;
            uint64_t addr = strtoull(s + 2, NULL, 16);
            char *body = close + 2;
            char *semi = strchr(body, ';');
            if (!semi) continue;             /* the second encoding word */
            *semi = '\0';
            if (parse_inst(ps, f, addr, body)) goto bad;
        }
    }
    if (f && resolve(ps, f)) goto bad;
    free(ps->lname);
    free(ps->laddr);
    if (!l->nfuncs) {
        snprintf(err, cap, "%s: no function in this listing (is it cuobjdump -sass or nvdisasm output?)", name);
        sass_listing_free(l);
        return NULL;
    }
    return l;
oom:
    fail(ps, "out of memory");
bad:
    free(ps->lname);
    free(ps->laddr);
    sass_listing_free(l);
    return NULL;
}

void sass_listing_free(sass_listing *l)
{
    if (!l) return;
    for (unsigned i = 0; i < l->nfuncs; i++) {
        free(l->funcs[i].name);
        free(l->funcs[i].insts);
    }
    free(l->funcs);
    for (unsigned i = 0; i < l->nfiles; i++) free(l->files[i]);
    free(l->files);
    for (unsigned i = 0; i < l->ncsecs; i++) {
        free(l->csecs[i].func);
        free(l->csecs[i].data);
        for (unsigned r = 0; r < l->csecs[i].nrelocs; r++) free(l->csecs[i].relocs[r].sym);
        free(l->csecs[i].relocs);
    }
    free(l->csecs);
    for (unsigned i = 0; i < l->nshared; i++) free(l->shared[i].func);
    free(l->shared);
    free(l->name);
    free(l);
}
