/* What a block queues for on its SM, as both interpreters' schedulers
 * (ptx_sched.c, sass_sched.c) put it on the block's critical path:
 * calendars of the block's cycles for the SM's port from L2 (a block that
 * holds its SM alone), its shared-memory data pipe and its four tensor
 * pipes (any block).
 *
 * The port: a warp's global load (or cp.async) is in a latency after it
 * issues plus the time its bytes wait for and take through the port.  The
 * port moves L2's read bandwidth over the SMs that run the launch's
 * blocks, at most a line a cycle (what the SM's L1 data pipe moves,
 * l1_lines_per_cycle; gpu/probes/sm_depth.cu measured 104 bytes a cycle for
 * a SM alone, 45-49 with 66 SMs at it, 31-39 with all 132).  A load's bytes
 * are the distinct 32-byte sectors its lanes touch that the block has not
 * brought in already: a direct-mapped record of the block's sectors, an
 * L1's worth, stands for the SM's L1 (what hits there does not come
 * through the port; cp.async.cg, ld.global.cg/.cv and LDGSTS.BYPASS, which
 * skip L1, always do).  A one-stage tile pipeline thus waits for its whole
 * tile: the H100 ran cuda_hgemm's one-stage cp.async HGEMM at 2048^3 in
 * 93 us, two stages in 64, three or four in 43.
 *
 * The shared data pipe: a matrix fragment's shared request (ldmatrix,
 * stmatrix, wmma.load/store; LDSM, STSM) takes slots for its wavefronts at
 * the profile's smem_wavefronts_per_cycle, and its data is in the shared
 * latency after its last one.  Plain LDS and STS do not queue so: the
 * warps of sgemm2DBlocktiling (64 blocks, one a SM) alternate LDS and 64
 * FMAs, and the H100 serves one warp's LDS while others run their FMAs;
 * a calendar filled warp by warp, in the order the interpreter runs them,
 * made it 1.39x of the H100's time (1.08x without).  The tensor pipes: an MMA takes its
 * sub-partition's pipe (warp k runs on sub-partition k % 4) for its
 * HMMA.16816s at a quarter of the profile's pipe_tensor rate, and its
 * result is in the MMA latency after it starts.  So the 8 warps of a
 * one-stage HGEMM that all read their fragments after one barrier get them
 * one after another, and then run their MMAs two to a pipe: cuda_hgemm's
 * one-stage kernels went from 0.62-0.77x of the H100's time to 0.85-1.02x.
 *
 * The port is on a SM's critical path only where the SM holds one block
 * at a time: with more, the others' work fills the waits (the time's L2,
 * DRAM, L1 and pipe terms bound them then), and counting the port there
 * made the SGEMMs and reductions of gpu/outside/launches.list that hold
 * 2-8 blocks a SM 4-14% slower than the H100 ran them.  The shared data
 * pipe and tensor pipes are on it for any block: its own warps queue there
 * at the pipes' whole rate, and what the other blocks a SM holds take of
 * them is the time model's (exectime.c: the blocks through the SM's
 * busiest pipe, a closed queue).  As calendars at 1/R of the rate (R
 * blocks in phase throughout) they made tensor.list's conflicting-ldmatrix
 * GEMM, bound by the data pipe, 1.41x of the H100's time: blocks fall out
 * of phase where a pipe is all they wait for. */
#ifndef COALSIM_SMPORT_H
#define COALSIM_SMPORT_H

#include <stdint.h>

#include "coalsim.h"

/* A calendar of a block's cycles for one of the SM's resources: each slot
 * (a cycle) holds how much of the resource's rate is taken in it, so a
 * request takes the room the block's earlier ones left, whichever order
 * the interpreter ran the warps in. */
typedef struct sm_cal {
    uint32_t room;              /* what a slot holds, in 1/1024ths of a unit (0: no calendar) */
    uint32_t n;                 /* slots (a power of 2; times past them wrap) */
    uint64_t *slot;             /* block << 32 | what is taken in it */
    uint32_t now;               /* the block running */
    uint64_t full_from, full_to;   /* slots known to be full (a hint: the queue's head) */
} sm_cal;

#define SM_PORT_CTAS 16          /* the CTAs of a cluster, each on its own SM */

typedef struct sm_port {
    double rate;                /* bytes the port moves a cycle (0: no port, and no calendars) */
    uint64_t *sector;           /* each record slot's sector + 1 (0: empty) */
    uint32_t *gen;              /* and the block it came in for */
    uint32_t mask;              /* record slots - 1 */
    uint32_t now;               /* the block running */
    sm_cal l2;                  /* the port: bytes */
    sm_cal smem;                /* the shared-memory data pipe: wavefronts */
    sm_cal tensor[4 * SM_PORT_CTAS];   /* each sub-partition's tensor pipe: HMMA.16816s, four a CTA of a
                                          cluster (its SM's); past the first CTA's, made at first use */
    double tensor_rate;         /* a sub-partition's tensor pipe rate (HMMA.16816s a cycle) */
    double smem_lat;            /* cycles from a shared request's last wavefront to its data */
    double tensor_lat;          /* cycles from an MMA's last slot on the pipe to its result */
} sm_port;

/* How many blocks of a launch of BLOCKS blocks of THREADS threads, REGS
 * registers a thread (0: not known) and SMEM bytes of shared memory the
 * busiest SM of LIM holds at once on a GPU of SMS SMs: the smaller of its
 * occupancy and its share of the blocks (1: one at a time; 0: not known). */
unsigned sm_port_held(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem, uint64_t blocks,
                      unsigned sms);
/* Set P up for a launch of BLOCKS blocks on a GPU of SMS SMs with L1_BYTES
 * of L1 each, timed with PROFILE; HELD: sm_port_held's answer (0, a
 * profile without L2's bandwidth or NULL: no calendars; 1: the port too).
 * 0, or -1 if memory runs out. */
int sm_port_init(sm_port *p, const coalsim_profile *profile, unsigned sms, uint64_t blocks, uint64_t l1_bytes,
                 unsigned held);
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
/* A shared-memory request of WAVEFRONTS issued at cycle T: the cycle its
 * data is in (T + the latency where the pipe is free; 0 with no calendars). */
uint64_t sm_port_smem(sm_port *p, uint64_t t, double wavefronts);
/* An MMA of UNITS HMMA.16816s' time on sub-partition SMSP's tensor pipe
 * (4 * the CTA's rank in its cluster + the sub-partition: each CTA of a
 * cluster has its own SM) issued at cycle T: the cycle its result is in (0
 * with no calendars, or if memory runs out). */
uint64_t sm_port_tensor(sm_port *p, unsigned smsp, uint64_t t, double units);

#endif
