/* A growing map from 64-bit keys (addresses, line numbers) to sums, for the
 * time model's atomics: what each address or line of a launch was asked
 * for.  Open addressing, at most half full; all zero is an empty map. */
#ifndef COALSIM_KEYMAP_H
#define COALSIM_KEYMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct keymap {
    uint64_t *key;
    double *val;
    unsigned char *used;
    size_t cap, n;
} keymap;

static inline size_t keymap_hash(uint64_t k, size_t cap) { return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1); }

/* Add V to KEY's sum and return the new sum through *SUM.  0, or -1 if
 * memory runs out (the map is then as it was). */
static inline int keymap_add(keymap *m, uint64_t key, double v, double *sum)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *k = malloc(cap * sizeof *k);
        double *x = malloc(cap * sizeof *x);
        unsigned char *u = calloc(cap, 1);
        if (!k || !x || !u) {
            free(k), free(x), free(u);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->used[i]) continue;
            size_t j = keymap_hash(m->key[i], cap);
            while (u[j]) j = (j + 1) & (cap - 1);
            k[j] = m->key[i], x[j] = m->val[i], u[j] = 1;
        }
        free(m->key), free(m->val), free(m->used);
        m->key = k, m->val = x, m->used = u, m->cap = cap;
    }
    size_t j = keymap_hash(key, m->cap);
    while (m->used[j] && m->key[j] != key) j = (j + 1) & (m->cap - 1);
    if (!m->used[j]) m->used[j] = 1, m->key[j] = key, m->val[j] = 0, m->n++;
    *sum = m->val[j] += v;
    return 0;
}

/* KEY's sum, 0 if it has none. */
static inline double keymap_get(const keymap *m, uint64_t key)
{
    if (!m->cap) return 0;
    size_t j = keymap_hash(key, m->cap);
    while (m->used[j] && m->key[j] != key) j = (j + 1) & (m->cap - 1);
    return m->used[j] ? m->val[j] : 0;
}

static inline void keymap_free(keymap *m)
{
    free(m->key), free(m->val), free(m->used);
    *m = (keymap){0};
}

#endif
