/* Decoding a listing's function: each instruction's base opcode picks its
 * decoder (sass_ops_*.c), branch targets become instruction indices, and
 * memory instructions get their access labels ("saxpy.cu:15:LDG.E@0d0"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass.h"

int sass_dec_fail(const sprog *p, const sraw *ri, char *err, size_t cap, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, cap, "%s:%u: %s: %s", p->lst->name, ri->line, ri->text, msg);
    return -1;
}

int sass_has_mod(const sraw *ri, const char *mod)
{
    size_t n = strlen(mod);
    for (const char *s = strchr(ri->op, '.'); s; s = strchr(s + 1, '.'))
        if (!strncmp(s + 1, mod, n) && (s[1 + n] == '.' || s[1 + n] == '\0')) return 1;
    return 0;
}

static const sop_entry *find_op(const char *base)
{
    const sop_entry *tabs[] = {sass_ops_int, sass_ops_float, sass_ops_mem, sass_ops_misc, sass_ops_matrix, sass_ops_async};
    for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++)
        for (const sop_entry *e = tabs[t]; e->name; e++)
            if (!strcmp(e->name, base)) return e;
    return NULL;
}

/* An instruction the interpreter cannot run is an error when a warp
 * issues it (one on a path no warp takes changes nothing). */
static int unsupported(sctx *x, swarp *w, const sinst *in, uint32_t m)
{
    (void)w, (void)m;
    return sass_fail(x, in, "%s", in->why ? in->why : "this SASS instruction is not supported by coalsim's interpreter");
}

static const char *keep(sprog *p, const char *s)
{
    if (p->nlabels == p->caplabels) {
        unsigned cap = p->caplabels ? p->caplabels * 2 : 64;
        char **l = realloc(p->labels, cap * sizeof *l);
        if (!l) return NULL;
        p->labels = l;
        p->caplabels = cap;
    }
    char *d = strdup(s);
    if (!d) return NULL;
    p->labels[p->nlabels++] = d;
    return d;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int sass_prog_build(sprog *p, const sass_listing *l, int fi, char *err, size_t cap)
{
    memset(p, 0, sizeof *p);
    p->lst = l;
    p->entry = fi;
    const sass_func *f = &l->funcs[fi];
    p->code = calloc(f->ninsts + 1, sizeof *p->code);
    if (!p->code) {
        snprintf(err, cap, "%s: out of memory", l->name);
        return -1;
    }
    p->ncode = f->ninsts;
    for (unsigned i = 0; i < f->ninsts; i++) {
        const sraw *ri = &f->insts[i];
        sinst *in = &p->code[i];
        in->line = ri->line;
        in->addr = ri->addr;
        in->src_file = (uint16_t)ri->src_file;
        in->src_line = ri->src_line;
        in->guard = (int8_t)ri->guard;
        in->guard_neg = (uint8_t)ri->guard_neg;
        in->cs_space = in->cs_op = -1;
        in->nops = (uint8_t)ri->nops;
        memcpy(in->o, ri->ops, sizeof in->o);
        if (!(in->text = keep(p, ri->text))) goto oom;
        char base[64];
        snprintf(base, sizeof base, "%s", ri->op);
        base[strcspn(base, ".")] = '\0';
        const sop_entry *e = find_op(base);
        if (!e) {
            char why[160];
            snprintf(why, sizeof why, "the opcode %s is not supported by coalsim's interpreter", base);
            in->kind = SK_UNSUPPORTED;
            in->fn = unsupported;
            if (!(in->why = keep(p, why))) goto oom;
            continue;
        }
        char why[400];
        if (sass_check_mods(p, ri, base, why, sizeof why) != 0 || e->decode(p, ri, in, why, sizeof why) != 0) {
            /* the message without its "FILE:LINE: text: " (sass_fail adds them) */
            const char *w = why, *c = strstr(why, ri->text);
            if (c) w = c + strlen(ri->text) + 2;
            in->kind = SK_UNSUPPORTED;
            in->fn = unsupported;
            if (!(in->why = keep(p, w))) goto oom;
            continue;
        }
        if (!in->fn && in->kind != SK_NOP && in->kind != SK_BRA && in->kind != SK_BRADIV && in->kind != SK_CALL &&
            in->kind != SK_RET && in->kind != SK_EXIT && in->kind != SK_BAR) {
            in->kind = SK_UNSUPPORTED;
            in->fn = unsupported;
        }
        sass_sched_decode(ri, in);
        if (in->kind == SK_MEM) {
            char lab[300];
            if (ri->src_line && ri->src_file)
                snprintf(lab, sizeof lab, "%s:%u:%s@%04llx", base_name(l->files[ri->src_file - 1]), ri->src_line, ri->op,
                         (unsigned long long)ri->addr);
            else
                snprintf(lab, sizeof lab, "%s@%04llx", ri->op, (unsigned long long)ri->addr);
            if (!(in->label = keep(p, lab))) goto oom;
            in->label_id = p->nlabels;
        }
    }
    /* the registers the code names, with room for 64- and 128-bit runs */
    p->nregs = 1;
    for (uint32_t i = 0; i < p->ncode; i++)
        for (unsigned k = 0; k < p->code[i].nops; k++) {
            const sopnd *o = &p->code[i].o[k];
            unsigned run = k == 0 && p->code[i].rrun ? p->code[i].rrun : 4u;
            if ((o->kind == SO_R || o->kind == SO_MEM || o->kind == SO_CBANK) && o->reg != SASS_RZ &&
                o->reg + run > p->nregs)
                p->nregs = o->reg + run;
        }
    if (p->nregs > SASS_RZ) p->nregs = SASS_RZ;
    /* branch and call targets: addresses to indices */
    for (uint32_t i = 0; i < p->ncode; i++) {
        sinst *in = &p->code[i];
        if (in->kind != SK_BRA && in->kind != SK_BRADIV && in->kind != SK_CALL) continue;
        uint64_t a = in->target;     /* the decoders put the address here */
        uint32_t lo = 0, hi = p->ncode;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (p->code[mid].addr < a) lo = mid + 1;
            else hi = mid;
        }
        if (lo >= p->ncode || p->code[lo].addr != a)
            return sass_dec_fail(p, &f->insts[i], err, cap, "branches to 0x%llx, which is no instruction of %s",
                                 (unsigned long long)a, f->name);
        in->target = lo;
    }
    if (sass_cfg_reconv(p) != 0) goto oom;
    return 0;
oom:
    snprintf(err, cap, "%s: out of memory", l->name);
    return -1;
}

void sass_prog_free(sprog *p)
{
    free(p->code);
    for (unsigned i = 0; i < p->nlabels; i++) free(p->labels[i]);
    free(p->labels);
    for (int b = 0; b < 8; b++) free(p->bank[b]);
    free(p->b4sym);
    memset(p, 0, sizeof *p);
}
