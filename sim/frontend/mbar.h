/* The mbarrier object (PTX ISA "Parallel Synchronization and Communication
 * Instructions: mbarrier"), as both interpreters keep it in shared memory:
 * an 8-byte object with a phase, the arrivals the phase still waits for,
 * the count it was made with and a transaction count of bytes still to
 * come.  A phase completes when its arrivals and its bytes are both down
 * to zero: the phase flips, the pending count is the made count again.
 * Its bytes here (the GPU's are opaque, so a kernel only reaches them
 * through mbarrier instructions):
 *
 *   bit 63 phase | 62 made | 40..61 transaction count (signed) | 20..39 count | 0..19 pending
 *
 * The GPU's own word, as SASS initialises it (SYNCS.EXCH.64 of the value
 * ptxas computes for mbarrier.init: gpu/results/h100/hopper/sass.txt), is
 * (2^20 - count) << 1 in the low 32 bits and (2^20 - count) << 11 in the
 * high 32; mbar_from_init reads the count back from it. */
#ifndef COALSIM_MBAR_H
#define COALSIM_MBAR_H

#include <stdint.h>
#include <string.h>

#define MB_MAX_COUNT ((1u << 20) - 1)
#define MB_MAX_TX ((1 << 20) - 1)

typedef struct mbar {
    unsigned pending, count, phase, made;
    int64_t tx;
} mbar;

static inline mbar mb_get(const unsigned char *p)
{
    uint64_t s;
    memcpy(&s, p, 8);
    mbar b;
    b.pending = (unsigned)(s & 0xfffff);
    b.count = (unsigned)(s >> 20 & 0xfffff);
    int64_t tx = (int64_t)(s >> 40 & 0x3fffff);
    b.tx = tx >= (1 << 21) ? tx - (1 << 22) : tx;
    b.made = (unsigned)(s >> 62 & 1);
    b.phase = (unsigned)(s >> 63);
    return b;
}

static inline void mb_put(unsigned char *p, const mbar *b)
{
    uint64_t s = (uint64_t)b->pending | (uint64_t)b->count << 20 | ((uint64_t)b->tx & 0x3fffff) << 40 |
                 (uint64_t)b->made << 62 | (uint64_t)b->phase << 63;
    memcpy(p, &s, 8);
}

/* A phase whose arrivals and bytes are all in completes. */
static inline void mb_settle(mbar *b)
{
    if (b->pending == 0 && b->tx == 0) {
        b->phase ^= 1;
        b->pending = b->count;
    }
}

/* The count of the GPU's initial mbarrier word WORD (see above), or 0 if
 * WORD is not one. */
static inline unsigned mbar_from_init(uint64_t word)
{
    uint32_t lo = (uint32_t)word, hi = (uint32_t)(word >> 32);
    uint32_t v = lo >> 1;
    if ((lo & 1) || v > (1u << 20) || v == 0 || hi != v << 11) return 0;
    unsigned count = (1u << 20) - v;
    return count >= 1 && count <= MB_MAX_COUNT ? count : 0;
}

#endif
