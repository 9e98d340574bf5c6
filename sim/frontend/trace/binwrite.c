/* Writing binary traces (docs/binary-format.md): labels defined once, then
 * one block per warp request with its lane addresses delta-coded. */
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

struct coalsim_bwriter {
    FILE *out;
    unsigned warp;
    int header_done, failed;
    char **labels;              /* defined labels, by id */
    uint64_t *label_addr;       /* per label: first lane address of its last request */
    size_t nlabels, cap;
    size_t *slot;               /* hash of labels: id + 1, 0 = empty */
    size_t nslot;
    uint64_t prev_block, prev_warp, nreq;
};

coalsim_bwriter *coalsim_bwriter_new(FILE *out, unsigned warp_size)
{
    coalsim_bwriter *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->nslot = 64;
    w->slot = calloc(w->nslot, sizeof *w->slot);
    if (!w->slot) {
        free(w);
        return NULL;
    }
    w->out = out;
    w->warp = warp_size;
    return w;
}

void coalsim_bwriter_free(coalsim_bwriter *w)
{
    if (!w) return;
    for (size_t i = 0; i < w->nlabels; i++) free(w->labels[i]);
    free(w->labels);
    free(w->label_addr);
    free(w->slot);
    free(w);
}

static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

static int grow_slots(coalsim_bwriter *w)
{
    size_t n = w->nslot * 2;
    size_t *slot = calloc(n, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < w->nlabels; i++) {
        size_t h = hash(w->labels[i]) & (n - 1);
        while (slot[h]) h = (h + 1) & (n - 1);
        slot[h] = i + 1;
    }
    free(w->slot);
    w->slot = slot;
    w->nslot = n;
    return 0;
}

static unsigned char *put_varint(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (unsigned char)v;
    return p;
}

static uint64_t zigzag(int64_t v) { return (uint64_t)v << 1 ^ (uint64_t)(v >> 63); }

/* The label's id, defined (written) first if new; -1 if memory runs out. */
static long label_id(coalsim_bwriter *w, const char *label)
{
    size_t h = hash(label) & (w->nslot - 1);
    while (w->slot[h]) {
        if (strcmp(w->labels[w->slot[h] - 1], label) == 0) return (long)w->slot[h] - 1;
        h = (h + 1) & (w->nslot - 1);
    }
    if (w->nlabels == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        char **l = realloc(w->labels, cap * sizeof *l);
        if (!l) return -1;
        w->labels = l;
        uint64_t *a = realloc(w->label_addr, cap * sizeof *a);
        if (!a) return -1;
        w->label_addr = a;
        w->cap = cap;
    }
    char *copy = strdup(label);
    if (!copy) return -1;
    size_t len = strlen(label);
    unsigned char head[12], *p = head;
    *p++ = 'L';
    p = put_varint(p, len);
    fwrite(head, 1, (size_t)(p - head), w->out);
    fwrite(label, 1, len, w->out);
    w->labels[w->nlabels] = copy;
    w->label_addr[w->nlabels] = 0;
    w->slot[h] = ++w->nlabels;
    if (w->nlabels * 2 > w->nslot && grow_slots(w) != 0) return -1;
    return (long)w->nlabels - 1;
}

int coalsim_bwriter_put(coalsim_bwriter *w, const coalsim_request *r)
{
    if (w->failed) return -1;
    if (!w->header_done) {
        unsigned char h[12] = {'C', 'O', 'A', 'L', 'S', 'I', 'M', 'B', 1, (unsigned char)w->warp, 0, 0};
        fwrite(h, 1, sizeof h, w->out);
        w->header_done = 1;
    }
    long id = label_id(w, r->label);
    if (id < 0) return w->failed = 1, -1;
    unsigned char buf[1 + 3 * 10 + 4 + 32 * 10], *p = buf;
    unsigned log2size = (unsigned)__builtin_ctz(r->size);
    *p++ = 'R';
    /* op and space: low bits in 0 and 1, the others in 5 and 7 (op) and 6 (space); version 1 files held only
     * ld/st, global/shared.  cp.async requests need their destinations too: a trace cannot hold them */
    if (r->op > COALSIM_STSM) return w->failed = 1, -1;
    *p++ = (unsigned char)(((unsigned)r->op & 1) | ((unsigned)r->space & 1) << 1 | log2size << 2 |
                           ((unsigned)r->op >> 1 & 1) << 5 | ((unsigned)r->space >> 1) << 6 | ((unsigned)r->op >> 2) << 7);
    p = put_varint(p, (uint64_t)id);
    p = put_varint(p, zigzag((int64_t)(r->block - w->prev_block)));
    p = put_varint(p, zigzag((int64_t)(r->warp - w->prev_warp)));
    for (int k = 0; k < 4; k++) *p++ = (unsigned char)(r->active >> 8 * k);
    uint64_t prev = w->label_addr[id];
    int first = 1;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        /* aligned addresses: the difference is a whole number of lanes' sizes */
        p = put_varint(p, zigzag((int64_t)(r->addr[l] - prev) / (int64_t)r->size));
        if (first) w->label_addr[id] = r->addr[l], first = 0;
        prev = r->addr[l];
    }
    w->prev_block = r->block;
    w->prev_warp = r->warp;
    w->nreq++;
    if (fwrite(buf, 1, (size_t)(p - buf), w->out) != (size_t)(p - buf)) return w->failed = 1, -1;
    return 0;
}

int coalsim_bwriter_finish(coalsim_bwriter *w)
{
    if (w->failed) return -1;
    if (!w->header_done) {
        unsigned char h[12] = {'C', 'O', 'A', 'L', 'S', 'I', 'M', 'B', 1, (unsigned char)w->warp, 0, 0};
        fwrite(h, 1, sizeof h, w->out);
        w->header_done = 1;
    }
    unsigned char buf[12], *p = buf;
    *p++ = 'E';
    p = put_varint(p, w->nreq);
    fwrite(buf, 1, (size_t)(p - buf), w->out);
    return fflush(w->out) == 0 && !ferror(w->out) ? 0 : -1;
}
