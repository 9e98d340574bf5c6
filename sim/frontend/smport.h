/* A SM's port from L2, as both interpreters' schedulers (ptx_sched.c,
 * sass_sched.c) put it on a block's critical path: a warp's global load
 * (or cp.async) is in a latency after it issues plus the time its bytes
 * wait for and take through the port.  The port moves L2's read bandwidth
 * over the SMs that run the launch's blocks, at most a line a cycle (what
 * the SM's L1 data pipe moves, l1_lines_per_cycle: too generous, as
 * gpu/probes/sm_fill.cu measured since: a SM alone takes in about 32 KiB a
 * microsecond with that much in flight); it is a calendar of the block's
 * cycles, each slot holding what the port moves in it, so a load takes the room its block's earlier
 * loads left, whichever order the interpreter ran the warps in (it runs a
 * warp ahead until it waits).  A load's bytes are the distinct 32-byte
 * sectors its lanes touch that the block has not brought in already: a
 * direct-mapped record of the block's sectors, an L1's worth, stands for
 * the SM's L1 (what hits there does not come through the port; cp.async.cg,
 * ld.global.cg/.cv and LDGSTS.BYPASS, which skip L1, always do).  A one-stage
 * tile pipeline thus waits for its whole tile: the H100 ran cuda_hgemm's
 * one-stage cp.async HGEMM at 2048^3 in 93 us, two stages in 64, three or
 * four in 43.  The wait is on a SM's critical path only where the SM
 * holds one block at a time: with more, the others' work fills it (the
 * time's L2, DRAM and L1 terms bound the port then), and counting it there
 * made the SGEMMs and reductions of gpu/outside/launches.list that hold 2-8
 * blocks a SM 4-14% slower than the H100 ran them. */
#ifndef COALSIM_SMPORT_H
#define COALSIM_SMPORT_H

#include <stdint.h>

#include "coalsim.h"

typedef struct sm_port {
    double rate;                /* bytes the port moves a cycle (0: no port) */
    uint64_t *sector;           /* each record slot's sector + 1 (0: empty) */
    uint32_t *gen;              /* and the block it came in for */
    uint32_t mask;              /* record slots - 1 */
    uint64_t *cal;              /* calendar slots: block << 32 | bytes moved in it */
    uint32_t ncal;              /* calendar slots (a power of 2; times past them wrap) */
    uint32_t now;               /* the block running */
} sm_port;

/* Whether a SM of LIM holds BLOCKS blocks of THREADS threads, REGS
 * registers a thread (0: not known) and SMEM bytes of shared memory one at
 * a time on a GPU of SMS SMs: the occupancy is one block, or there are no
 * more blocks than SMs. */
int sm_port_alone(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem, uint64_t blocks,
                  unsigned sms);
/* Set P up for a launch of BLOCKS blocks on a GPU of SMS SMs with L1_BYTES
 * of L1 each, timed with PROFILE; ALONE: sm_port_alone's answer (0, a
 * profile without L2's bandwidth or NULL: no port).  0, or -1 if memory
 * runs out. */
int sm_port_init(sm_port *p, const coalsim_profile *profile, unsigned sms, uint64_t blocks, uint64_t l1_bytes,
                 int alone);
void sm_port_free(sm_port *p);
/* A block starts: it has brought in nothing, and its port is free. */
void sm_port_block(sm_port *p);
/* The bytes a load of SIZE bytes a lane at ADDR[l] for the lanes of M
 * brings through the port; BYPASS: it skips L1. */
unsigned sm_port_bytes(sm_port *p, const uint64_t *addr, uint32_t m, unsigned size, int bypass);
/* BYTES issued at cycle T: the cycle they are through the port (T when
 * BYTES is 0).  The calendar only grows: if memory runs out, the slots it
 * has wrap. */
uint64_t sm_port_through(sm_port *p, uint64_t t, unsigned bytes);

#endif
