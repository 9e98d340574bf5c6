/* The time of a kernel run, from what it executed (time model v2).
 *
 * The SMs run the blocks; the busiest SM has nsm = ceil(blocks / SMs) of
 * them, and holds B at once (occupancy.c: registers, shared memory, warps,
 * blocks).  Its time is the largest of what it must push through each of
 * its resources and what its blocks' critical paths take, wave after wave:
 *
 *   issue     its blocks' warp instructions / issue_per_cycle
 *   pipe      the busiest pipe: its instructions / pipe_NAME
 *   L1/shared its L1 data pipe: shared wavefronts and lines that hit at the
 *             per-cycle rates, scattered lines that miss at the scatter rates;
 *             with DRAM, as a closed queue of the blocks it holds (they use
 *             the two one stretch after another)
 *   dispatch  its blocks started one after another, block_ns each
 *   latency   waves = ceil(nsm / B) times a block's time: its critical path
 *             (coalsim_exec; where a SM holds one block at a time, a load's
 *             bytes wait for the SM's port there: smport.h) with each global load
 *             on it taking the latency of where the loads were served (L1,
 *             L2, DRAM: lat_*_ns, the DRAM one growing with the bandwidth in
 *             use: dram_loaded), the
 *             block waiting for its slowest warp (block_tail over sqrt(k)
 *             of its k load waits: round trips vary apart), plus its start,
 *             plus what the blocks a SM holds add where they are in the
 *             same stretch between barriers at once (started block_ns
 *             apart, they share the schedulers and pipes as far as their
 *             stretches overlap: coalsim_exec_phase);
 *             or, if longer, the blocks it holds through its busiest pipe
 *             where their matrix work queues for it (a closed queue:
 *             closed_queue), or its blocks through the SM's one dispatcher in
 *             steady state, or its
 *             warps through their schedulers, each warp's stalls and its
 *             issue (the busiest of issue and pipe) as a closed queue
 *
 * and, for the whole device, DRAM and L2 traffic at their rates and the
 * global atomics: the busiest L2 atomic unit's requests one after another
 * (atomic_pass_ns a sector, atomic_int_ns or atomic_same_ns a lane on a busy word),
 * and all their sectors through L2's atomic units (atomic_sector_ns).  The
 * kernel's time is the launch (launch_b2b_us: what a launch adds among
 * back-to-back launches) plus the largest of these.  The DRAM latency in
 * the latency term is the one at the bandwidth the result implies: the
 * latency term falls as the time grows, so the consistent time is found by
 * bisection. */
#include <math.h>
#include <string.h>

#include "coalsim.h"
#include "model/exectime.h"

typedef struct {
    const coalsim_profile *p;
    const coalsim_exec *e;
    const coalsim_time *t;
    double clk;                 /* cycles a ns */
    double waves, k, tail, load_bytes;
    double nsm;                 /* the busiest SM's blocks */
    unsigned resident;          /* blocks it holds at once */
    double path;                /* a block's path without its loads' latency, cycles */
    double max_path, max_k;     /* the slowest block's, and its loads */
    double held;                /* blocks the busiest SM holds at once */
    double busy;                /* a block's work at the SM's busiest pipe (data or execution), cycles; 0: none queues */
    double dram_bytes;
    double batch;               /* the loads a warp issues a round trip on its path (load_cycles) */
    double sched_warps;         /* warps a scheduler holds at once */
    double sched_all;           /* warps a scheduler runs in all */
    double warp_issue;          /* a warp's cycles on its scheduler (issue or busiest pipe) */
} lat_term;

/* A global load's latency on the paths (cycles) when DRAM moves GBS.  A
 * load on a block's path is the one its warp waits for.  Where a warp
 * issues one load a round trip (its loads over the path's: BATCH), that is
 * any of the launch's loads: their mean by the level that served them.
 * Where it issues several, it waits for the slowest, one that missed L1
 * where one of them did: the mean of the loads that did, weighted by the
 * chance that one of a round trip's did (L1's where none did).  FDTD3d (held-out
 * round 11) waits a DRAM round trip every z step among L1-served halo
 * loads: at the mean of all its loads (163 ns) it ran 0.59-0.65x of the
 * H100's and H200's time, at the misses' 0.96-1.03x; scan_naive's warps
 * load once, 94% from L1, and take the mean (1.02x; 1.18x at the misses'). */
static double load_cycles(const lat_term *L, double gbs)
{
    const coalsim_profile *p = L->p;
    const uint64_t *n = L->t->loads;
    double all = (double)(n[COALSIM_LV_L1] + n[COALSIM_LV_L2] + n[COALSIM_LV_DRAM]);
    double dram = p->lat_ns[COALSIM_LV_DRAM];
    /* the loaded curve is of 16-load round trips: scaled to one load */
    if (p->loaded_points && p->lat16_ns[COALSIM_LV_DRAM] > 0)
        dram *= timing_loaded_ns(p, gbs) / p->loaded_ns[0];
    if (!all) return dram * L->clk;
    double l1 = (double)n[COALSIM_LV_L1] * p->lat_ns[COALSIM_LV_L1];
    double missed = (double)(n[COALSIM_LV_L2] + n[COALSIM_LV_DRAM]);
    double miss = (double)n[COALSIM_LV_L2] * p->lat_ns[COALSIM_LV_L2] + (double)n[COALSIM_LV_DRAM] * dram;
    if (L->batch <= 1 || missed == 0) return (l1 + miss) / all * L->clk;
    /* a round trip of BATCH loads waits for a miss where one of them
     * missed: 1 - (1 - f)^BATCH of the time, F the launch's share of
     * misses (HeCBench interleave's SoA loop, two loads a round trip, 4 k
     * of 8.4 M loads from L2: at the misses' mean 7.3x of the H100's time) */
    double f = missed / all, any = 1 - pow(1 - f, L->batch);
    return (any * miss / missed + (1 - any) * (n[COALSIM_LV_L1] ? l1 / (double)n[COALSIM_LV_L1] : 0)) * L->clk;
}

/* Jobs a cycle through a closed queueing network solved exactly by mean
 * value analysis: N jobs, each DELAY cycles on its own and then D[i]
 * cycles at each of K queues in turn.  Far from the knee it is
 * N / (DELAY + sum D) or 1 / max D; near it jobs wait in line and the
 * network does less than either says.  The model's four:
 *   blocks with matrix work through the SM's busiest pipe (DELAY: the rest
 *   of a block's path, D: its share of the pipe's work): LeetCUDA's
 *   FlashAttention-2 forwards, 2-4 blocks of 4 warps a SM, whose paths
 *   had the shared data and tensor pipes to themselves: 0.69-0.97x of the
 *   H100's time, 0.76-1.09x with the queue;
 *   blocks through the SM's one dispatcher (DELAY: a block's life, D: its
 *   start): haxpy, 8 blocks a SM of about 1060-cycle lives and 156-cycle
 *   starts, took 453 us on the H100 where the larger of the two said 317;
 *   warps through their scheduler (DELAY: a warp's stalls, D: its issue):
 *   nbody, one block of 8 warps a SM, 2 warps a scheduler, issues every 3.6
 *   cycles a warp on the H100 where its stalls alone say 2.6, 0.3 of it
 *   "not selected" in ncu's words;
 *   blocks through the L1 data pipe and DRAM (no DELAY; the blocks a SM
 *   holds, in phase, load a tile, then work on it): transpose2, 2 blocks of
 *   32 warps a SM, L1 307 us and DRAM 195 us, took 416 us. */
#define QUEUES_MAX 2     /* the most queues (K) a caller passes: D has K of them */

static double closed_queue(double n, double delay, const double *d, int k)
{
    unsigned jobs = n < 1 ? 1 : (unsigned)lround(n);
    double q[QUEUES_MAX] = {0}, x = 0;
    for (unsigned j = 1; j <= jobs; j++) {
        double r[QUEUES_MAX] = {0}, all = delay;
        for (int i = 0; i < k; i++) all += r[i] = d[i] * (1 + q[i]);
        x = all > 0 ? j / all : 0;
        for (int i = 0; i < k; i++) q[i] = x * r[i];
    }
    return x;
}

/* The latency term (cycles) if the kernel takes T cycles: wave after wave
 * of its blocks (the last wave's tail counted whole), and no less than
 * the steady state of the blocks through the dispatcher, nor than that
 * of the warps through their scheduler (a block's time is each of its
 * warps' stalls and issue). */
static double latency_at(const lat_term *L, double t)
{
    double gbs = t > 0 ? L->dram_bytes / (t / L->clk) : 0;
    double ld = load_cycles(L, gbs);
    double start = L->p->block_ns * L->clk;
    double block = L->path + L->k * ld + (L->tail - 1) * ld * sqrt(L->k) + start;
    double waves = L->waves * block;
    /* no launch is done before its slowest block (where blocks exit at
     * once, as a GEMM's past the matrix's edge, the mean says less) */
    double slowest = L->max_path + L->max_k * ld + (L->tail - 1) * ld * sqrt(L->max_k) + start;
    if (slowest > waves) waves = slowest;
    /* the blocks the SM holds at once through its busiest pipe: each holds
     * it for its share of the pipe's work, and runs the rest of its path
     * on its own (a closed queue: where the pipe is all a block does, they
     * take it one after another; where it is little, they overlap) */
    if (L->held > 1 && L->busy > 0) {
        double rest = block - L->busy > 0 ? block - L->busy : 0;
        double x = closed_queue(L->held, rest, &L->busy, 1);
        if (x > 0 && L->nsm / x > waves) waves = L->nsm / x;
    }
    if (start > 0 && L->resident) {
        double x = closed_queue(L->resident, block - start, &start, 1);
        if (x > 0 && L->nsm / x > waves) waves = L->nsm / x;
    }
    if (L->warp_issue > 0 && L->sched_warps > 0) {
        double waiting = block - L->warp_issue > 0 ? block - L->warp_issue : 0;
        double x = closed_queue(L->sched_warps, waiting, &L->warp_issue, 1);
        if (x > 0 && L->sched_all / x > waves) waves = L->sched_all / x;
    }
    return waves;
}

void coalsim_exec_path_max(coalsim_exec *e, double cycles, double loads)
{
    double was = e->path_max_cycles + e->path_max_loads * COALSIM_PATH_LOAD_CYCLES;
    if (cycles + loads * COALSIM_PATH_LOAD_CYCLES > was) e->path_max_cycles = cycles, e->path_max_loads = loads;
}

void coalsim_exec_phase(coalsim_exec *e, double busiest, double all, double lat, double stagger)
{
    double one = busiest > lat ? busiest : lat;
    for (int r = 2; r <= COALSIM_PHASE_BLOCKS; r++) {
        double n = stagger > 0 && 1 + one / stagger < r ? 1 + one / stagger : r;
        double t = n * all / 4;
        t = t > one ? t : one;
        e->path_phase[r - 1] += t - one;
    }
}

void exectime_finish(const coalsim_profile *p, const coalsim_sm_limits *lim, unsigned sms, const coalsim_exec *e,
                     const coalsim_hier_counts *c, uint64_t dirty, uint64_t l2_bytes, coalsim_time *out)
{
    if (!p->sm_clock_mhz || !e->path_blocks || !e->block_threads || !sms) return;
    const double clk = p->sm_clock_mhz * 1e-3;
    coalsim_occupancy occ;
    if (coalsim_occupancy_of(lim, e->block_threads, e->regs, e->smem_block, &occ) != 0) occ.blocks = 1, occ.warps = 1;
    const double blocks = (double)e->path_blocks, nsm = ceil(blocks / sms), share = nsm / blocks;
    const double held = occ.blocks < nsm ? occ.blocks : nsm;  /* blocks the busiest SM holds at once */
    out->exec_modelled = 1;
    out->occupancy_blocks = occ.blocks;
    out->occupancy_warps = occ.warps;
    out->occupancy_limit = occ.limit;
    out->regs = e->regs;
    out->regs_from = e->regs_from;
    out->waves = blocks / ((double)sms * occ.blocks);
    /* the busiest SM's throughput terms, in cycles */
    double all = 0, pipe = 0;
    out->pipe = coalsim_pipe_name(COALSIM_PIPE_FMA);
    for (int i = 0; i < COALSIM_PIPES; i++) {
        all += e->pipe_inst[i];
        double rate = p->pipe_per_cycle[i];
        if (rate > 0 && e->pipe_inst[i] * share / rate > pipe) {
            pipe = e->pipe_inst[i] * share / rate;
            out->pipe = coalsim_pipe_name((coalsim_pipe)i);
        }
    }
    double issue = p->issue_per_cycle > 0 ? all * share / p->issue_per_cycle : 0;
    double data = out->data_cycles_sm;
    if (p->smem_wavefronts_per_cycle > 0) data -= e->smem_wavefronts_saved * share / p->smem_wavefronts_per_cycle;
    /* a memory instruction with no lane on takes a wavefront of the L1 data
     * pipe all the same (gpu/probes/pred_off.cu: LDS, STS or LDG with every
     * lane off go at one a cycle a SM, as with every lane on, and ncu counts
     * a data-pipe wavefront for each) */
    if (p->smem_wavefronts_per_cycle > 0) data += (double)e->mem_inactive * share / p->smem_wavefronts_per_cycle;
    if (data < 0) data = 0;
    double dispatch = nsm * p->block_ns * clk;
    /* L2's atomic units: the busiest line's requests one after another
     * (timing.c's count_atomics), and every sector of every atomic request
     * at the units' measured rate (coalesced reductions of 4 sectors each: 67
     * sectors a ns on the H100; a histogram of random bins, 22 sectors a
     * request, runs at that rate) */
    double atomic = out->atomic_line_ns * clk;
    if ((double)out->atomic_sectors * p->atomic_sector_ns * clk > atomic)
        atomic = (double)out->atomic_sectors * p->atomic_sector_ns * clk;
    /* the time's DRAM is this launch's own traffic (what the cache model
     * counted: warm, the inherited dirty lines' write-backs among it); a
     * cold launch starts after a flush, as Nsight Compute replays it, with
     * nothing dirty to write back (held-out round 11: launches of 67-134 MB
     * that write ran 1.23-1.40x faster under ncu than with the previous
     * launch's write-back added).  Reported beside it: the same launch
     * behind an identical one with no flush between, whose dirty lines it
     * writes back while it runs unless the data fits in L2 and stays */
    double write_gbs = 1.0 / (2.0 / p->dram_copy_gbs - 1.0 / p->dram_read_gbs);
    uint64_t writes = c->dram_write, b2b_writes = writes;
    if (l2_bytes && c->dram_read + c->dram_write + dirty > l2_bytes) b2b_writes += dirty;
    out->dram_b2b_us = timing_dram_read_us(p, c) + (double)b2b_writes / (write_gbs * 1e3);
    double dram = out->dram_us * 1e3 * clk, l2 = out->l2_us * 1e3 * clk;
    /* the blocks a SM holds at once, in phase, use its L1 data pipe and its
     * share of DRAM one stretch after another: a closed queue of them over
     * the two overlaps them less than the larger of the two says */
    double both = 0;
    if (data > 0 && dram > 0) {
        double d2[2] = {data / nsm, dram / nsm};
        double x = closed_queue(held, 0, d2, 2);
        if (x > 0) both = nsm / x;
    }
    /* the latency term */
    lat_term L = {.p = p, .e = e, .t = out, .clk = clk};
    L.waves = ceil(nsm / occ.blocks);
    L.nsm = nsm;
    L.resident = occ.blocks;
    L.k = e->path_loads / blocks;
    {
        double warps = blocks * (double)((e->block_threads + 31) / 32);
        const uint64_t *n = out->loads;
        double loads = (double)(n[COALSIM_LV_L1] + n[COALSIM_LV_L2] + n[COALSIM_LV_DRAM]);
        L.batch = L.k > 0 && warps > 0 ? loads / warps / L.k : 1;
    }
    /* the blocks of a wave start together and stay in phase: where their
     * stretches between barriers are issue-bound, they issue one after
     * another on the SM's schedulers */
    double inphase = held;
    if (inphase > COALSIM_PHASE_BLOCKS) inphase = COALSIM_PHASE_BLOCKS;
    L.path = (e->path_cycles + (inphase >= 1 ? e->path_phase[(int)inphase - 1] : 0)) / blocks;
    L.max_path = e->path_max_cycles;
    /* where the blocks' matrix work queues for the SM's pipes (smport.h),
     * the blocks it holds share the busiest of them, the L1 data pipe or
     * an execution pipe; kernels of plain LDS/STS and FMAs do not queue so:
     * sgemm3 and matrixMul's 32x32 tiles went from 1.05x of the H100's time
     * to 1.18x when they did */
    L.held = held;
    if (e->pipe_inst[COALSIM_PIPE_TENSOR] > 0) L.busy = (data > pipe ? data : pipe) / nsm;
    L.max_k = e->path_max_loads;
    L.tail = timing_tail_factor(p, (e->block_threads + 31) / 32);
    L.dram_bytes = (double)(c->dram_read + writes);
    /* the warps on each of the SM's 4 schedulers */
    double block_warps = (double)((e->block_threads + 31) / 32);
    L.sched_warps = held * block_warps / 4;
    L.sched_all = nsm * block_warps / 4;
    if (L.sched_all > 0) L.warp_issue = (issue > pipe ? issue : pipe) / L.sched_all;
    double fixed = issue;
    const char *bound = "issue";
    struct {
        double v;
        const char *name;
    } terms[] = {{pipe, "pipe"}, {data, "L1/shared"}, {dispatch, "launch/tail"}, {atomic, "atomics"},
                 {dram, "DRAM"}, {l2, "L2"}, {both, data > dram ? "L1/shared" : "DRAM"}};
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        if (terms[i].v > fixed) fixed = terms[i].v, bound = terms[i].name;
    /* T = max(fixed, latency(T)); latency falls as T grows */
    double t = fixed;
    if (latency_at(&L, fixed) > fixed) {
        double lo = fixed, hi = latency_at(&L, fixed);
        for (int i = 0; i < 80 && hi - lo > 1e-9 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (latency_at(&L, mid) > mid) lo = mid;
            else hi = mid;
        }
        t = hi;
        bound = "latency";
    }
    double lat = latency_at(&L, t);
    out->load_ns = load_cycles(&L, t > 0 ? L.dram_bytes / (t / clk) : 0) / clk;
    out->issue_us = issue / clk / 1e3;
    out->pipe_us = pipe / clk / 1e3;
    out->smem_us = data / clk / 1e3;
    out->path_us = lat / clk / 1e3;
    out->dispatch_us = dispatch / clk / 1e3;
    out->atomic_us = atomic / clk / 1e3;
    out->launch_us = p->launch_b2b_us > 0 ? p->launch_b2b_us : p->launch_us;
    out->total_us = out->launch_us + t / clk / 1e3;
    if (out->launch_us > t / clk / 1e3) bound = "launch/tail";
    out->bound = bound;
}
