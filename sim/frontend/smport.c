/* A SM's port from L2 on a block's critical path (smport.h). */
#include <stdlib.h>

#include "frontend/smport.h"

#define SECTOR 32
#define SECTORS_MAX 64          /* a warp's request: 32 lanes of at most 16 bytes, each in at most 2 sectors */
#define SLOT_CYCLES 1           /* a calendar slot (a cycle: a slot keeps no order inside) */
#define CAL_FIRST 4096          /* calendar slots at first */
#define CAL_MAX (1u << 22)      /* at most (32 MB): 4 M cycles before times wrap */

int sm_port_alone(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem, uint64_t blocks,
                  unsigned sms)
{
    coalsim_occupancy occ;
    if (blocks <= sms) return 1;
    return lim && coalsim_occupancy_of(lim, threads, regs, smem, &occ) == 0 && occ.blocks <= 1;
}

int sm_port_init(sm_port *p, const coalsim_profile *profile, unsigned sms, uint64_t blocks, uint64_t l1_bytes,
                 int alone)
{
    *p = (sm_port){0};
    if (!alone || !profile || profile->l2_gbs <= 0 || !sms || !blocks || profile->sm_clock_mhz <= 0) return 0;
    double busy = blocks < sms ? (double)blocks : sms;   /* the SMs that run blocks */
    p->rate = profile->l2_gbs / busy / (profile->sm_clock_mhz * 1e-3);
    if (profile->l1_lines_per_cycle > 0 && p->rate > profile->l1_lines_per_cycle * 128)
        p->rate = profile->l1_lines_per_cycle * 128;
    uint32_t slots = 1;
    while ((uint64_t)slots * 2 * SECTOR <= l1_bytes && slots < (1u << 20)) slots *= 2;
    p->sector = calloc(slots, sizeof *p->sector);
    p->gen = calloc(slots, sizeof *p->gen);
    p->cal = calloc(CAL_FIRST, sizeof *p->cal);
    if (!p->sector || !p->gen || !p->cal) {
        sm_port_free(p);
        return -1;
    }
    p->mask = slots - 1;
    p->ncal = CAL_FIRST;
    return 0;
}

void sm_port_free(sm_port *p)
{
    free(p->sector);
    free(p->gen);
    free(p->cal);
    *p = (sm_port){0};
}

void sm_port_block(sm_port *p)
{
    if (++p->now == 0) {
        /* the block numbers wrapped: forget every slot */
        for (uint32_t i = 0; p->gen && i <= p->mask; i++) p->gen[i] = 0;
        for (uint32_t i = 0; p->cal && i < p->ncal; i++) p->cal[i] = 0;
        p->now = 1;
    }
}

unsigned sm_port_bytes(sm_port *p, const uint64_t *addr, uint32_t m, unsigned size, int bypass)
{
    uint64_t seen[SECTORS_MAX];
    unsigned n = 0, bytes = 0;
    if (!size || !p->rate) return 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        uint64_t a = addr[__builtin_ctz(mm)];
        for (uint64_t s = a / SECTOR; s <= (a + size - 1) / SECTOR; s++) {
            unsigned k = 0;
            while (k < n && seen[k] != s) k++;
            if (k < n) continue;
            if (n < SECTORS_MAX) seen[n++] = s;
            if (!bypass) {
                uint32_t slot = (uint32_t)(s ^ s >> 17) & p->mask;
                if (p->gen[slot] == p->now && p->sector[slot] == s + 1) continue;
                p->gen[slot] = p->now;
                p->sector[slot] = s + 1;
            }
            bytes += SECTOR;
        }
    }
    return bytes;
}

/* Calendar slot I (grown to hold it where memory allows, else wrapped). */
static uint64_t *cal_slot(sm_port *p, uint64_t i)
{
    if (i >= p->ncal && p->ncal < CAL_MAX) {
        uint64_t want = p->ncal;
        while (want <= i && want < CAL_MAX) want *= 2;
        uint64_t *c = realloc(p->cal, want * sizeof *c);
        if (c) {
            for (uint64_t k = p->ncal; k < want; k++) c[k] = 0;
            p->cal = c;
            p->ncal = (uint32_t)want;
        }
    }
    uint64_t *s = &p->cal[i & (p->ncal - 1)];
    if (*s >> 32 != p->now) *s = (uint64_t)p->now << 32;
    return s;
}

uint64_t sm_port_through(sm_port *p, uint64_t t, unsigned bytes)
{
    if (!bytes || !p->rate) return t;
    const double room = p->rate * SLOT_CYCLES;
    double left = bytes;
    for (uint64_t i = t / SLOT_CYCLES;; i++) {
        uint64_t *s = cal_slot(p, i);
        double used = (double)(uint32_t)*s, take = room - used < left ? room - used : left;
        if (take <= 0) continue;
        used += take;
        left -= take;
        *s = (*s >> 32) << 32 | (uint32_t)(used + 0.5);
        if (left <= 0) return (i + 1) * SLOT_CYCLES;
    }
}
