/* Comparing the compiled sketch runner with the old one (sketch_oracle.c)
 * on one sketch: shared by the Check suite and the fuzzer.  Header-only so
 * that each includes it once. */
#ifndef COALSIM_SKETCH_COMPARE_H
#define COALSIM_SKETCH_COMPARE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "sketch_oracle.h"

typedef struct {
    coalsim_request *r;
    char (*label)[COALSIM_MAX_LABEL + 1];
    size_t n, cap;
} cmp_reqs;

static int cmp_keep(void *ctx, const coalsim_request *r)
{
    cmp_reqs *k = ctx;
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        coalsim_request *nr = realloc(k->r, cap * sizeof *nr);
        if (nr) k->r = nr;
        char(*nl)[COALSIM_MAX_LABEL + 1] = nr ? realloc(k->label, cap * sizeof *nl) : NULL;
        if (!nl) return -1;
        k->label = nl;
        k->cap = cap;
    }
    k->r[k->n] = *r;
    snprintf(k->label[k->n], sizeof k->label[0], "%s", r->label);
    k->r[k->n].label = NULL;                   /* k->label[i] (the table moves as it grows) */
    k->n++;
    return 0;
}

static void cmp_free(cmp_reqs *k)
{
    free(k->r);
    free(k->label);
    memset(k, 0, sizeof *k);
}

/* Why two request lists differ, or NULL if they do not. */
static const char *cmp_diff(const cmp_reqs *a, const cmp_reqs *b, char *why, size_t cap)
{
    if (a->n != b->n) {
        snprintf(why, cap, "%zu requests vs %zu", a->n, b->n);
        return why;
    }
    for (size_t i = 0; i < a->n; i++) {
        const coalsim_request *p = &a->r[i], *q = &b->r[i];
        int same = p->op == q->op && p->space == q->space && p->size == q->size && p->block == q->block &&
                   p->warp == q->warp && p->active == q->active && p->line == q->line && !strcmp(a->label[i], b->label[i]);
        for (int l = 0; same && l < 32; l++) same = !(p->active >> l & 1) || p->addr[l] == q->addr[l];
        if (!same) {
            snprintf(why, cap, "request %zu: line %lu vs %lu, block %llu vs %llu, warp %llu vs %llu, %s vs %s, lanes %08x vs %08x",
                     i, p->line, q->line, (unsigned long long)p->block, (unsigned long long)q->block,
                     (unsigned long long)p->warp, (unsigned long long)q->warp, a->label[i], b->label[i], p->active, q->active);
            return why;
        }
    }
    return NULL;
}

/* Known, intended differences: the old runner rejects a step the language
 * has since gained, lets a param be assigned before its declaration, and
 * writes shared addresses past 4 GiB that only the reader then refuses. */
static int cmp_intended(const char *old_err, const char *new_err)
{
    return (old_err && strstr(old_err, "the step must be")) || (new_err && strstr(new_err, "is a param")) ||
           (new_err && strstr(new_err, "beyond the 4 GiB shared window"));
}

/* Compare the old and the new runner on TEXT (with SETS), requests grouped
 * by WARP lanes.  NULL if they agree, else why not (in WHY). */
static const char *cmp_sketch(const char *text, const char *const *sets, unsigned warp, uint64_t max_records, char *why,
                              size_t cap)
{
    char olderr[600] = "", newerr[600] = "";
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return "out of memory";
    int orc = sketch_oracle(text, "k.sketch", sets, m, max_records, olderr, sizeof olderr);
    fclose(m);
    cmp_reqs old = {0}, now = {0};
    if (orc == 0) {                           /* the old trace, read back */
        FILE *f = fmemopen(buf, len ? len : 1, "r");
        coalsim_reader *rd = f ? coalsim_reader_new(f, "k.sketch", warp) : NULL;
        int rc = rd ? coalsim_reader_drain(rd, (coalsim_sink){cmp_keep, &old, NULL}) : -1;
        if (rc != 0) {
            orc = -1;
            snprintf(olderr, sizeof olderr, "%s", rd ? coalsim_reader_error(rd) : "out of memory");
        }
        coalsim_reader_free(rd);
        if (f) fclose(f);
    }
    int nrc = -1;
    coalsim_sketch *sk = coalsim_sketch_compile(text, "k.sketch", sets, newerr, sizeof newerr);
    if (sk) {
        coalsim_sketch_opts o = {.warp_size = warp, .max_records = max_records};
        nrc = coalsim_sketch_run(sk, &o, (coalsim_sink){cmp_keep, &now, NULL}, newerr, sizeof newerr);
    }
    const char *res = NULL;
    if (cmp_intended(orc ? olderr : NULL, nrc ? newerr : NULL)) {
        res = NULL;
    } else if (orc != 0 || nrc != 0) {
        if (orc == 0 || nrc == 0 || strcmp(olderr, newerr) != 0) {
            snprintf(why, cap, "old: %s / new: %s", orc ? olderr : "ok", nrc ? newerr : "ok");
            res = why;
        }
    } else {
        res = cmp_diff(&old, &now, why, cap);
    }
    /* the trace as executed, written as text: the old runner's bytes */
    if (!res && sk && orc == 0 && nrc == 0) {
        char *tb = NULL;
        size_t tl = 0;
        FILE *t = open_memstream(&tb, &tl);
        cmp_reqs raw = {0};
        coalsim_sketch_opts o = {.warp_size = 0, .max_records = max_records};
        if (t && coalsim_sketch_run(sk, &o, (coalsim_sink){cmp_keep, &raw, NULL}, newerr, sizeof newerr) == 0) {
            fprintf(t, "# generated by coalsim sketch from k.sketch\n");
            for (size_t i = 0; i < raw.n; i++) {
                raw.r[i].label = raw.label[i];
                coalsim_text_write(t, &raw.r[i], 32);
            }
        }
        if (t) fclose(t);
        if (!tb || tl != len || memcmp(tb, buf, len) != 0) {
            snprintf(why, cap, "the text trace differs (%zu bytes vs %zu)", tl, len);
            res = why;
        }
        free(tb);
        cmp_free(&raw);
    }
    coalsim_sketch_free(sk);
    cmp_free(&old);
    cmp_free(&now);
    free(buf);
    return res;
}

#endif
