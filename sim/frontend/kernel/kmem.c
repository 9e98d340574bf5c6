/* A kernel's global memory (see kmem.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../gpu/outside/fill.h"     /* the 16- and 64-bit fills, one definition with the GPU launcher */
#include "kmem.h"
#include "readfile.h"

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t kfill_word(const kfill *f, uint64_t i)
{
    switch (f->kind) {
    case KF_IOTA: return (uint32_t)(uint64_t)((double)i * f->step);
    case KF_IOTAF: {
        float v = (float)((double)i * f->step);
        uint32_t u;
        memcpy(&u, &v, 4);
        return u;
    }
    case KF_RANDOM: {
        uint64_t h = mix(mix(f->seed) ^ i);
        float v = (float)(h >> 40) * (1.0f / 16777216.0f);
        uint32_t u;
        memcpy(&u, &v, 4);
        return u;
    }
    case KF_RANDINT: return (uint32_t)(mix(mix(f->seed) ^ i) % f->n);
    case KF_RANDOMH: return coalsim_fill_word_wide(COALSIM_FILL_RANDOMH, f->seed, i);
    case KF_RANDOMBF: return coalsim_fill_word_wide(COALSIM_FILL_RANDOMBF, f->seed, i);
    case KF_RANDOMD: return coalsim_fill_word_wide(COALSIM_FILL_RANDOMD, f->seed, i);
    case KF_FILE:
    case KF_BYTES: {
        uint32_t u = 0;
        for (unsigned k = 0; k < 4; k++)
            if (i * 4 + k < f->nbytes) u |= (uint32_t)f->bytes[i * 4 + k] << (8 * k);
        return u;
    }
    case KF_ZERO:
    default: return 0;
    }
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-') return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end || errno) return -1;
    *v = x;
    return 0;
}

int kfill_parse(const char *s, kfill *f, char *err, size_t cap)
{
    memset(f, 0, sizeof *f);
    f->step = 1;
    if (!strcmp(s, "zero")) return 0;
    if (!strncmp(s, "iotaf", 5) && (s[5] == '\0' || s[5] == ':')) {
        f->kind = KF_IOTAF;
        if (s[5] == ':') {
            char *end;
            f->step = strtod(s + 6, &end);
            if (*end || end == s + 6) goto bad;
        }
        return 0;
    }
    if (!strncmp(s, "iota", 4) && (s[4] == '\0' || s[4] == ':')) {
        f->kind = KF_IOTA;
        uint64_t st;
        if (s[4] == ':') {
            if (parse_u64(s + 5, &st)) goto bad;
            f->step = (double)st;
        }
        return 0;
    }
    if (!strncmp(s, "random:", 7)) {
        f->kind = KF_RANDOM;
        if (parse_u64(s + 7, &f->seed)) goto bad;
        return 0;
    }
    static const struct { const char *name; kfill_kind kind; } wide[] = {
        {"randomh:", KF_RANDOMH}, {"randombf:", KF_RANDOMBF}, {"randomd:", KF_RANDOMD}};
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++)
        if (!strncmp(s, wide[k].name, strlen(wide[k].name))) {
            f->kind = wide[k].kind;
            if (parse_u64(s + strlen(wide[k].name), &f->seed)) goto bad;
            return 0;
        }
    if (!strncmp(s, "randint:", 8)) {
        f->kind = KF_RANDINT;
        char tmp[64];
        const char *colon = strchr(s + 8, ':');
        if (!colon || (size_t)(colon - (s + 8)) >= sizeof tmp) goto bad;
        memcpy(tmp, s + 8, (size_t)(colon - (s + 8)));
        tmp[colon - (s + 8)] = '\0';
        if (parse_u64(tmp, &f->seed) || parse_u64(colon + 1, &f->n) || f->n == 0) goto bad;
        return 0;
    }
    if (!strncmp(s, "file:", 5)) {
        f->kind = KF_FILE;
        size_t n = 0;
        errno = 0;
        unsigned char *b = (unsigned char *)kfile_read(s + 5, &n);
        if (!b) {
            snprintf(err, cap, "cannot read '%s': %s", s + 5, errno ? strerror(errno) : "out of memory");
            return -1;
        }
        f->bytes = b;
        f->nbytes = n;
        return 0;
    }
bad:
    snprintf(err, cap, "fill '%s' is not zero, iota[:STEP], iotaf[:STEP], random:SEED, randint:SEED:N, randomh:SEED, randombf:SEED, "
             "randomd:SEED or file:PATH", s);
    return -1;
}

int kmem_init(kmem *m)
{
    memset(m, 0, sizeof *m);
    m->next_base = KMEM_BASE;
    m->next_var = KMEM_VAR_BASE;
    m->root = calloc((size_t)1 << KMEM_LEVEL_BITS, sizeof *m->root);
    return m->root ? 0 : -1;
}

void kmem_free(kmem *m)
{
    if (!m->root) return;
    size_t n = (size_t)1 << KMEM_LEVEL_BITS;
    for (size_t a = 0; a < n; a++) {
        void **l2 = m->root[a];
        if (!l2) continue;
        for (size_t b = 0; b < n; b++) {
            void **l3 = l2[b];
            if (!l3) continue;
            for (size_t c = 0; c < n; c++) free(l3[c]);
            free(l3);
        }
        free(l2);
    }
    free(m->root);
    for (size_t i = 0; i < m->nbufs; i++) {
        free(m->bufs[i].name);
        free(m->bufs[i].fill.bytes);
    }
    free(m->bufs);
    memset(m, 0, sizeof *m);
}

static kbuf *new_buf(kmem *m, const char *name)
{
    if (m->nbufs == m->capbufs) {
        size_t cap = m->capbufs ? m->capbufs * 2 : 8;
        kbuf *b = realloc(m->bufs, cap * sizeof *b);
        if (!b) return NULL;
        m->bufs = b;
        m->capbufs = cap;
    }
    kbuf *b = &m->bufs[m->nbufs];
    memset(b, 0, sizeof *b);
    if (!(b->name = strdup(name))) return NULL;
    m->nbufs++;
    return b;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

uint64_t kmem_add(kmem *m, const char *name, uint64_t size, kfill *f)
{
    kbuf *b = new_buf(m, name);
    if (!b) return 0;
    b->base = m->next_base;
    b->sized = size != 0;
    b->size = size ? size : KMEM_UNSIZED;
    b->fill = *f;
    memset(f, 0, sizeof *f);
    m->next_base = align_up(b->base + b->size, KMEM_GAP);
    return b->base;
}

uint64_t kmem_next_base(const kmem *m, uint64_t size)
{
    (void)size;
    return m->next_base;
}

uint64_t kmem_add_host(kmem *m, const char *name, uint64_t size, unsigned char *host)
{
    kfill f = {.kind = KF_ZERO};
    if ((uint64_t)(uintptr_t)host != m->next_base) return 0;
    uint64_t base = kmem_add(m, name, size, &f);
    if (base) m->bufs[m->nbufs - 1].host = host;
    return base;
}

uint64_t kmem_add_var(kmem *m, const char *name, uint64_t size, unsigned align, const unsigned char *init)
{
    kbuf *b = new_buf(m, name);
    if (!b) return 0;
    b->base = align_up(m->next_var, align < 256 ? 256 : align);
    b->sized = 1;
    b->size = size ? size : 1;
    b->fill.kind = KF_ZERO;
    if (init) {
        b->fill.kind = KF_BYTES;
        if (!(b->fill.bytes = malloc(size))) return 0;
        memcpy(b->fill.bytes, init, size);
        b->fill.nbytes = size;
    }
    m->next_var = b->base + b->size;
    return b->base;
}

const kbuf *kmem_find(const kmem *m, uint64_t addr, uint64_t n)
{
    for (size_t i = 0; i < m->nbufs; i++) {
        const kbuf *b = &m->bufs[i];
        if (addr >= b->base && addr - b->base < b->size && n <= b->size - (addr - b->base)) return b;
    }
    return NULL;
}

const kbuf *kmem_buffer(const kmem *m, const char *name)
{
    for (size_t i = 0; i < m->nbufs; i++)
        if (!strcmp(m->bufs[i].name, name)) return &m->bufs[i];
    return NULL;
}

/* Fill PAGE (number PN) from the buffers it overlaps. */
static void fill_page(const kmem *m, uint64_t pn, unsigned char *page)
{
    uint64_t lo = pn * KMEM_PAGE, hi = lo + KMEM_PAGE;
    for (size_t i = 0; i < m->nbufs; i++) {
        const kbuf *b = &m->bufs[i];
        uint64_t s = lo > b->base ? lo : b->base, e = hi < b->base + b->size ? hi : b->base + b->size;
        if (s >= e || b->fill.kind == KF_ZERO) continue;
        /* word by word: buffers are 256-byte aligned, so words do not straddle pages */
        for (uint64_t a = s & ~3ull; a < e; a += 4) {
            uint32_t w = kfill_word(&b->fill, (a - b->base) / 4);
            for (unsigned k = 0; k < 4; k++)
                if (a + k >= s && a + k < e) page[a + k - lo] = (unsigned char)(w >> (8 * k));
        }
    }
}

/* The entry at IDX of TABLE, made (N zeroed pointers, or a filled page
 * when PN is set) if missing; NULL if memory runs out. */
static void *child(void **table, size_t idx, size_t n, kmem *m, uint64_t pn, int page)
{
    void *c = __atomic_load_n(&table[idx], __ATOMIC_ACQUIRE);
    if (c) return c;
    void *fresh = page ? calloc(1, KMEM_PAGE) : calloc(n, sizeof(void *));
    if (!fresh) return NULL;
    if (page) fill_page(m, pn, fresh);
    void *expected = NULL;
    if (__atomic_compare_exchange_n(&table[idx], &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&m->held, page ? KMEM_PAGE : n * sizeof(void *), __ATOMIC_RELAXED);
        return fresh;
    }
    free(fresh);              /* another worker made it first */
    return expected;
}

unsigned char *kmem_page(kmem *m, kmem_tlb *t, uint64_t addr, int *oom)
{
    uint64_t pn = addr / KMEM_PAGE, key = pn + 1;
    unsigned ti = (unsigned)(pn % KMEM_TLB);
    if (t && t->tag[ti] == key) return t->page[ti];
    *oom = 0;
    const kbuf *b = kmem_find(m, addr, 1);
    if (!b || addr >> KMEM_ADDR_BITS) return NULL;
    if (b->host) {
        /* the process's own memory: the page is where it is */
        uint64_t lo = pn * KMEM_PAGE, hi = lo + KMEM_PAGE;
        unsigned char *page = b->host + (lo - b->base);
        if (t) {
            t->tag[ti] = key;
            t->page[ti] = page;
            t->lo[ti] = lo;
            t->hi[ti] = hi < b->base + b->size ? hi : b->base + b->size;
        }
        return page;
    }
    size_t n = (size_t)1 << KMEM_LEVEL_BITS, mask = n - 1;
    void **l2 = child(m->root, (size_t)(pn >> (2 * KMEM_LEVEL_BITS)) & mask, n, m, 0, 0);
    void **l3 = l2 ? child(l2, (size_t)(pn >> KMEM_LEVEL_BITS) & mask, n, m, 0, 0) : NULL;
    unsigned char *page = l3 ? child(l3, (size_t)pn & mask, n, m, pn, 1) : NULL;
    if (!page) {
        *oom = 1;
        return NULL;
    }
    if (t) {
        uint64_t lo = pn * KMEM_PAGE, hi = lo + KMEM_PAGE;
        t->tag[ti] = key;
        t->page[ti] = page;
        t->lo[ti] = lo > b->base ? lo : b->base;
        t->hi[ti] = hi < b->base + b->size ? hi : b->base + b->size;
    }
    return page;
}

int kmem_read(kmem *m, uint64_t addr, void *dst, size_t n)
{
    unsigned char *d = dst;
    while (n) {
        int oom;
        unsigned char *page = kmem_page(m, NULL, addr, &oom);
        if (!page) return -1;
        size_t off = (size_t)(addr % KMEM_PAGE), k = KMEM_PAGE - off < n ? KMEM_PAGE - off : n;
        memcpy(d, page + off, k);
        d += k, addr += k, n -= k;
    }
    return 0;
}

int kmem_write(kmem *m, uint64_t addr, const void *src, size_t n)
{
    const unsigned char *s = src;
    while (n) {
        int oom;
        unsigned char *page = kmem_page(m, NULL, addr, &oom);
        if (!page) return -1;
        size_t off = (size_t)(addr % KMEM_PAGE), k = KMEM_PAGE - off < n ? KMEM_PAGE - off : n;
        memcpy(page + off, s, k);
        s += k, addr += k, n -= k;
    }
    return 0;
}

int kmem_release(kmem *m, uint64_t base)
{
    size_t i = 0;
    while (i < m->nbufs && m->bufs[i].base != base) i++;
    if (i == m->nbufs) return -1;
    kbuf b = m->bufs[i];
    memmove(&m->bufs[i], &m->bufs[i + 1], (m->nbufs - i - 1) * sizeof *m->bufs);
    m->nbufs--;
    /* its pages are its own (buffers start on KMEM_GAP boundaries) */
    size_t n = (size_t)1 << KMEM_LEVEL_BITS, mask = n - 1;
    for (uint64_t pn = b.base / KMEM_PAGE; pn * KMEM_PAGE < b.base + b.size && b.sized && !b.host; pn++) {
        void **l2 = m->root[(pn >> (2 * KMEM_LEVEL_BITS)) & mask];
        void **l3 = l2 ? l2[(pn >> KMEM_LEVEL_BITS) & mask] : NULL;
        if (!l3) continue;
        free(l3[pn & mask]);
        l3[pn & mask] = NULL;
    }
    free(b.name);
    free(b.fill.bytes);
    return 0;
}

uint64_t kmem_footprint(const kmem *m)
{
    uint64_t n = 0;
    for (size_t i = 0; i < m->nbufs; i++)
        if (!m->bufs[i].host) n += m->bufs[i].size;
    return n;
}

uint64_t kmem_held(const void *m) { return __atomic_load_n(&((const kmem *)m)->held, __ATOMIC_RELAXED); }
