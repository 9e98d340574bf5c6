/* TMA tile loads that share an L2 read (tmamerge.h). */
#include "tmamerge.h"

#include <string.h>

void tma_merge_init(tma_merge *m)
{
    m->domain = UINT64_MAX;
    m->used = 0;
    m->epoch = 1;
    memset(m->ep, 0, sizeof m->ep);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}

uint64_t tma_merge_box(uint64_t base, unsigned rank, const int64_t *coord, const unsigned *box)
{
    uint64_t h = mix(0, base);
    for (unsigned d = 0; d < rank; d++) h = mix(mix(h, (uint64_t)coord[d]), box[d]);
    return h;
}

int tma_merge_shared(tma_merge *m, uint64_t block, uint64_t seq, uint64_t box)
{
    uint64_t domain = block / TMA_MERGE_CTAS;
    if (domain != m->domain) {
        if (++m->epoch == 0) {                /* wrapped: clear once in 2^32 domains */
            memset(m->ep, 0, sizeof m->ep);
            m->epoch = 1;
        }
        m->domain = domain, m->used = 0;
    }
    uint64_t k = mix(box, seq);
    unsigned i = (unsigned)(k & (TMA_MERGE_SLOTS - 1));
    while (m->ep[i] == m->epoch) {
        if (m->key[i] == k) return 1;
        i = (i + 1) & (TMA_MERGE_SLOTS - 1);
    }
    if (m->used >= TMA_MERGE_SLOTS / 2) return 0;   /* half full: read on its own */
    m->ep[i] = m->epoch;
    m->key[i] = k;
    m->used++;
    return 0;
}
