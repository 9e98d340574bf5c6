/* What a block queues for on its SM: the port from L2 (a lone block), the
 * shared data pipe, the tensor pipes (smport.h). */
#include <stdlib.h>

#include "frontend/smport.h"

#define SECTOR 32
#define SECTORS_MAX 64          /* a warp's request: 32 lanes of at most 16 bytes, each in at most 2 sectors */
#define SLOT_CYCLES 1           /* a calendar slot (a cycle: a slot keeps no order inside) */
#define CAL_FIRST 4096          /* calendar slots at first */
#define CAL_MAX (1u << 22)      /* at most (32 MB a calendar): 4 M cycles before times wrap */

unsigned sm_port_held(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem, uint64_t blocks,
                      unsigned sms)
{
    coalsim_occupancy occ;
    if (!sms || !blocks) return 0;
    if (blocks <= sms) return 1;
    if (!lim || coalsim_occupancy_of(lim, threads, regs, smem, &occ) != 0 || !occ.blocks) return 0;
    uint64_t nsm = (blocks + sms - 1) / sms;   /* the busiest SM's blocks */
    return occ.blocks < nsm ? occ.blocks : (unsigned)nsm;
}

static int cal_init(sm_cal *c, double rate)
{
    c->room = (uint32_t)(rate * SLOT_CYCLES * 1024 + 0.5);
    if (!c->room) c->room = 1;
    c->n = CAL_FIRST;
    c->slot = calloc(CAL_FIRST, sizeof *c->slot);
    return c->slot ? 0 : -1;
}

static void cal_free(sm_cal *c)
{
    free(c->slot);
    *c = (sm_cal){0};
}

int sm_port_init(sm_port *p, const coalsim_profile *profile, unsigned sms, uint64_t blocks, uint64_t l1_bytes,
                 unsigned held)
{
    *p = (sm_port){0};
    if (!held || !profile || profile->l2_gbs <= 0 || !sms || !blocks || profile->sm_clock_mhz <= 0) return 0;
    uint32_t slots = 1;
    int bad = 0;
    if (held == 1) {
        double busy = blocks < sms ? (double)blocks : sms;   /* the SMs that run blocks */
        p->rate = profile->l2_gbs / busy / (profile->sm_clock_mhz * 1e-3);
        if (profile->l1_lines_per_cycle > 0 && p->rate > profile->l1_lines_per_cycle * 128)
            p->rate = profile->l1_lines_per_cycle * 128;
        while ((uint64_t)slots * 2 * SECTOR <= l1_bytes && slots < (1u << 20)) slots *= 2;
        p->sector = calloc(slots, sizeof *p->sector);
        p->gen = calloc(slots, sizeof *p->gen);
        bad = !p->sector || !p->gen || cal_init(&p->l2, p->rate) != 0;
    }
    /* the shared data pipe and the tensor pipes, where the profile has
     * them, for the block's own warps (what the other blocks the SM holds
     * take of them: exectime.c) */
    if (!bad && profile->smem_wavefronts_per_cycle > 0) {
        bad = cal_init(&p->smem, profile->smem_wavefronts_per_cycle) != 0;
        p->smem_lat = coalsim_lat_cycles(profile, COALSIM_LAT_SMEM) - 1 / profile->smem_wavefronts_per_cycle;
    }
    double mma = profile->pipe_per_cycle[COALSIM_PIPE_TENSOR];
    for (int k = 0; k < 4 && !bad && mma > 0; k++) bad = cal_init(&p->tensor[k], mma / 4) != 0;
    p->tensor_rate = mma / 4;
    if (mma > 0) p->tensor_lat = coalsim_lat_cycles(profile, COALSIM_LAT_MMA) - 4 / mma;
    if (bad) {
        sm_port_free(p);
        return -1;
    }
    p->mask = slots - 1;
    return 0;
}

void sm_port_free(sm_port *p)
{
    free(p->sector);
    free(p->gen);
    cal_free(&p->l2);
    cal_free(&p->smem);
    for (int k = 0; k < 4 * SM_PORT_CTAS; k++) cal_free(&p->tensor[k]);
    *p = (sm_port){0};
}

static void cal_block(sm_cal *c, uint32_t now)
{
    c->now = now;
    c->full_from = c->full_to = 0;
    if (now == 1)
        for (uint32_t i = 0; c->slot && i < c->n; i++) c->slot[i] = 0;
}

void sm_port_block(sm_port *p)
{
    if (++p->now == 0) {
        /* the block numbers wrapped: forget every slot */
        for (uint32_t i = 0; p->gen && i <= p->mask; i++) p->gen[i] = 0;
        p->now = 1;
    }
    cal_block(&p->l2, p->now);
    cal_block(&p->smem, p->now);
    for (int k = 0; k < 4 * SM_PORT_CTAS; k++) cal_block(&p->tensor[k], p->now);
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
static uint64_t *cal_slot(sm_cal *c, uint64_t i)
{
    if (i >= c->n && c->n < CAL_MAX) {
        uint64_t want = c->n;
        while (want <= i && want < CAL_MAX) want *= 2;
        uint64_t *g = realloc(c->slot, want * sizeof *g);
        if (g) {
            for (uint64_t k = c->n; k < want; k++) g[k] = 0;
            c->slot = g;
            c->n = (uint32_t)want;
        }
    }
    uint64_t *s = &c->slot[i & (c->n - 1)];
    if (*s >> 32 != c->now) *s = (uint64_t)c->now << 32;
    return s;
}

/* AMOUNT (in 1/1024ths) asked for at cycle T: the cycle after the slot
 * that holds its last part.  The full slots from the queue's head on are
 * skipped at once (full_from..full_to), so a long queue costs no walk. */
static uint64_t cal_through(sm_cal *c, uint64_t t, uint64_t amount)
{
    for (uint64_t i = t / SLOT_CYCLES;; i++) {
        if (i >= c->full_from && i < c->full_to) i = c->full_to;
        uint64_t *s = cal_slot(c, i);
        uint32_t used = (uint32_t)*s, take = c->room - used;
        if (take > amount) take = (uint32_t)amount;
        used += take;
        amount -= take;
        *s = (*s >> 32) << 32 | used;
        if (used >= c->room) {
            /* the run of full slots grows, or a new one starts here */
            if (i == c->full_to) c->full_to = i + 1;
            else if (i + 1 == c->full_from) c->full_from = i;
            else if (i > c->full_to) c->full_from = i, c->full_to = i + 1;
        }
        if (!amount) return (i + 1) * SLOT_CYCLES;
    }
}

uint64_t sm_port_through(sm_port *p, uint64_t t, unsigned bytes)
{
    if (!bytes || !p->rate) return t;
    return cal_through(&p->l2, t, (uint64_t)bytes * 1024);
}

uint64_t sm_port_smem(sm_port *p, uint64_t t, double wavefronts)
{
    if (!p->smem.room || wavefronts <= 0) return 0;
    uint64_t a = (uint64_t)(wavefronts * 1024 + 0.5);
    return cal_through(&p->smem, t, a ? a : 1) + (uint64_t)(p->smem_lat + 0.5);
}

uint64_t sm_port_tensor(sm_port *p, unsigned smsp, uint64_t t, double units)
{
    sm_cal *c = &p->tensor[smsp % (4 * SM_PORT_CTAS)];
    if (!p->tensor[0].room || units <= 0) return 0;
    if (!c->slot) {
        if (cal_init(c, p->tensor_rate) != 0) return 0;
        c->now = p->now;
    }
    uint64_t a = (uint64_t)(units * 1024 + 0.5);
    return cal_through(c, t, a ? a : 1) + (uint64_t)(p->tensor_lat + 0.5);
}
