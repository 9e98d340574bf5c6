/* A growing map from 64-bit keys (addresses, line numbers) to sums, for the
 * time model's atomics: what each address or line of a launch was asked
 * for.  Open addressing, at most half full, a key and its sum side by side
 * (one cache line a look-up: a launch of coalesced atomics asks for
 * millions of addresses); all zero is an empty map.  Keys up to 2^64 - 2. */
#ifndef COALSIM_KEYMAP_H
#define COALSIM_KEYMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct keyslot {
    uint64_t key1;            /* the key + 1; 0: empty */
    double val;
} keyslot;

typedef struct keymap {
    keyslot *slot;
    size_t cap, n;
} keymap;

static inline size_t keymap_hash(uint64_t k, size_t cap) { return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1); }

/* Add V to KEY's sum and return the new sum through *SUM.  0, or -1 if
 * memory runs out (the map is then as it was). */
static inline int keymap_add(keymap *m, uint64_t key, double v, double *sum)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        keyslot *s = calloc(cap, sizeof *s);
        if (!s) return -1;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->slot[i].key1) continue;
            size_t j = keymap_hash(m->slot[i].key1 - 1, cap);
            while (s[j].key1) j = (j + 1) & (cap - 1);
            s[j] = m->slot[i];
        }
        free(m->slot);
        m->slot = s, m->cap = cap;
    }
    size_t j = keymap_hash(key, m->cap);
    while (m->slot[j].key1 && m->slot[j].key1 != key + 1) j = (j + 1) & (m->cap - 1);
    if (!m->slot[j].key1) m->slot[j] = (keyslot){key + 1, 0}, m->n++;
    *sum = m->slot[j].val += v;
    return 0;
}

/* KEY's slot, or NULL if it has none. */
static inline const keyslot *keymap_find(const keymap *m, uint64_t key)
{
    if (!m->cap) return NULL;
    size_t j = keymap_hash(key, m->cap);
    while (m->slot[j].key1 && m->slot[j].key1 != key + 1) j = (j + 1) & (m->cap - 1);
    return m->slot[j].key1 ? &m->slot[j] : NULL;
}

/* Whether KEY has a sum. */
static inline int keymap_has(const keymap *m, uint64_t key) { return keymap_find(m, key) != NULL; }

/* KEY's sum, 0 if it has none. */
static inline double keymap_get(const keymap *m, uint64_t key)
{
    const keyslot *s = keymap_find(m, key);
    return s ? s->val : 0;
}

static inline void keymap_free(keymap *m)
{
    free(m->slot);
    *m = (keymap){0};
}

#endif
