/* The text report, for people: a table a memory space, one sentence an
 * access saying why, totals with the ncu metrics they predict, and with
 * --hier the caches, DRAM and the time. */
#include <string.h>

#include "coalsim.h"
#include "totals.h"
#include "report_source.h"
#include "writers.h"

static const char *const metric_units[COALSIM_SPACES] = {
    [COALSIM_GLOBAL] = "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum",
    [COALSIM_SHARED] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum",
    [COALSIM_LOCAL] = "l1tex__t_sectors_pipe_lsu_mem_local_op_%s.sum",
    [COALSIM_CONST] = NULL,
};
static const char *const metric_reqs[COALSIM_SPACES] = {
    [COALSIM_GLOBAL] = "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum",
    [COALSIM_SHARED] = "smsp__inst_executed_op_shared_%s.sum",
    [COALSIM_LOCAL] = "l1tex__t_requests_pipe_lsu_mem_local_op_%s.sum",
    [COALSIM_CONST] = NULL,
};

static void arch_line(FILE *out, const coalsim_arch *a)
{
    fprintf(out, "arch %s: warp %u, %u-byte sectors, %u-byte lines, %u banks x %u bytes", a->name, a->warp_size,
            a->sector_bytes, a->line_bytes, a->banks, a->bank_width);
    if (a->bank_width == 8) fprintf(out, " (%u-bit mode)", a->bank_mode);
}

/* One table of sector rows (global or local memory). */
static void sector_table(FILE *out, const coalsim_arch *a, const coalsim_stats *st, coalsim_space sp, int w, int opw)
{
    if (sp == COALSIM_GLOBAL)
        fprintf(out, "\nGlobal memory (sectors: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum)\n");
    else
        fprintf(out, "\nLocal memory (sectors: l1tex__t_sectors_pipe_lsu_mem_local_op_{ld,st}.sum)\n");
    fprintf(out, "  %-*s  %-*s  size  requests   threads  sectors/req  ideal/req  efficiency  lines/req\n", w, "access",
            opw, "op");
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        if (ac->space != sp) continue;
        fprintf(out, "  %-*s  %-*s  %4u  %8llu  %8llu  %11.2f  %9.2f  %9.1f%%  %9.2f\n", w, ac->label, opw,
                coalsim_op_name(ac->op), ac->size, (unsigned long long)ac->requests,
                (unsigned long long)ac->active_threads, totals_per(ac->sectors, ac->requests),
                totals_per(ac->ideal_sectors, ac->requests), 100.0 * coalsim_access_gmem_efficiency(ac, a),
                totals_per(ac->lines, ac->requests));
    }
}

/* One table of wavefront rows (shared memory, or the constant cache's passes). */
static void wavefront_table(FILE *out, const coalsim_stats *st, coalsim_space sp, int w, int opw)
{
    if (sp == COALSIM_SHARED) {
        fprintf(out, "\nShared memory (wavefronts: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum)\n");
        fprintf(out, "  %-*s  %-*s  size  requests   threads  wavefronts/req  ideal/req  efficiency  worst conflict\n",
                w, "access", opw, "op");
    } else {
        fprintf(out, "\nConstant memory (passes through the constant cache, one a distinct address)\n");
        fprintf(out, "  %-*s  %-*s  size  requests   threads      passes/req  ideal/req  efficiency  distinct addresses\n",
                w, "access", opw, "op");
    }
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        if (ac->space != sp) continue;
        char worst[48];
        if (sp == COALSIM_CONST)
            snprintf(worst, sizeof worst, "up to %u", ac->max_ways);
        else if (ac->max_ways > 1)
            snprintf(worst, sizeof worst, "%u-way (bank %u)", ac->max_ways, ac->worst_bank);
        else
            snprintf(worst, sizeof worst, "none");
        fprintf(out, "  %-*s  %-*s  %4u  %8llu  %8llu  %14.2f  %9.2f  %9.1f%%  %s\n", w, ac->label, opw,
                coalsim_op_name(ac->op), ac->size, (unsigned long long)ac->requests,
                (unsigned long long)ac->active_threads, totals_per(ac->wavefronts, ac->requests),
                totals_per(ac->ideal_wavefronts, ac->requests), 100.0 * coalsim_access_smem_efficiency(ac), worst);
    }
}

/* Where ncu counts the matrix and async-copy ops (gpu/probes/matrix.cu), or NULL. */
static const char *matrix_metrics(coalsim_space sp, int op)
{
    switch (op) {
    case COALSIM_LDSM: return "smsp__inst_executed_op_ldsm.sum; wavefronts in l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    case COALSIM_STSM: return "wavefronts in l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum (no instruction counter of its own)";
    case COALSIM_LDGSTS:
        return sp == COALSIM_GLOBAL ? "l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ldgsts_cache_access.sum, also in ..._op_ld.sum"
                                    : "in l1tex__data_pipe_lsu_wavefronts_mem_shared.sum (no op_ counter of its own)";
    case COALSIM_LDGSTS_BYPASS: return "in l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld.sum (no counter of its own)";
    case COALSIM_BULK_LD: case COALSIM_BULK_ST:
        return "the Tensor Memory Accelerator, not the LSU: no l1tex__t_*_pipe_lsu counter (its sectors reach L2: --hier)";
    default: return NULL;
    }
}

static void totals_text(FILE *out, const coalsim_arch *a, const coalsim_stats *st, size_t n)
{
    total t[COALSIM_SPACES][COALSIM_OPS];
    totals_sum(st, t);
    if (n) fprintf(out, "\nTotals\n");
    static const coalsim_space order[COALSIM_SPACES] = {COALSIM_GLOBAL, COALSIM_SHARED, COALSIM_LOCAL, COALSIM_CONST};
    for (int k = 0; k < COALSIM_SPACES; k++) {
        coalsim_space sp = order[k];
        for (int op = 0; op < COALSIM_OPS; op++) {
            const total *x = &t[sp][op];
            const char *o = coalsim_op_name((coalsim_op)op);
            if (!x->requests) continue;
            fprintf(out, "  %s %s: %llu requests, ", coalsim_space_name(sp), o, (unsigned long long)x->requests);
            if (coalsim_space_has_sectors(sp))
                fprintf(out, "%llu sectors (ideal %llu), efficiency %.1f%%\n", (unsigned long long)x->units,
                        (unsigned long long)x->ideal,
                        x->units ? 100.0 * (double)x->bytes / ((double)x->units * a->sector_bytes) : 0.0);
            else if (sp == COALSIM_SHARED)
                fprintf(out, "%llu wavefronts (ideal %llu), %llu from bank conflicts\n", (unsigned long long)x->units,
                        (unsigned long long)x->ideal, (unsigned long long)(x->units - x->ideal));
            else
                fprintf(out, "%llu passes (ideal %llu)\n", (unsigned long long)x->units, (unsigned long long)x->ideal);
            const char *own = matrix_metrics(sp, op);
            if (own) {
                fprintf(out, "    ncu: %s\n", own);
                continue;
            }
            if (!metric_reqs[sp]) continue;
            /* ncu counts shared reductions with the atomics */
            const char *mo = sp == COALSIM_SHARED && op == COALSIM_RED ? "atom" : o;
            fprintf(out, "    ncu: ");
            fprintf(out, metric_reqs[sp], mo);
            fprintf(out, ", ");
            fprintf(out, metric_units[sp], mo);
            fprintf(out, "\n");
        }
    }
}

static void exec_text(FILE *out, const coalsim_exec *e)
{
    uint64_t mem = 0;
    for (int sp = 0; sp < COALSIM_SPACES; sp++)
        for (int op = 0; op < COALSIM_OPS; op++) mem += e->inst_mem[sp][op];
    fprintf(out, "\nExecuted (%s instructions: ", e->isa ? e->isa : "?");
    if (e->isa && strcmp(e->isa, "PTX") == 0)
        fprintf(out, "ptxas fuses, splits and predicates some, so the GPU's count differs)\n");
    else
        fprintf(out, "as the GPU issues them)\n");
    fprintf(out, "  %llu blocks, %llu warps, %llu warp instructions (%llu memory), %llu thread instructions\n",
            (unsigned long long)e->blocks, (unsigned long long)e->warps_launched, (unsigned long long)e->inst_executed,
            (unsigned long long)mem, (unsigned long long)e->thread_inst_executed);
    fprintf(out, "    ncu: smsp__warps_launched.sum, smsp__inst_executed.sum, smsp__thread_inst_executed.sum\n");
    if (e->inst_mma[0] || e->inst_mma[1] || e->inst_mma[2]) {
        fprintf(out, "  %llu tensor-pipe instructions: %llu HMMA (ptxas's HFMA2.MMA moves too, as ncu counts them), %llu IMMA, %llu DMMA\n",
                (unsigned long long)(e->inst_mma[0] + e->inst_mma[1] + e->inst_mma[2]), (unsigned long long)e->inst_mma[0],
                (unsigned long long)e->inst_mma[1], (unsigned long long)e->inst_mma[2]);
        fprintf(out, "    ncu: sm__inst_executed_pipe_tensor_op_{hmma,imma,dmma}.sum\n");
    }
    if (e->inst_gmma) {
        fprintf(out, "  %llu warpgroup MMA instructions (wgmma.mma_async, a warp each)\n", (unsigned long long)e->inst_gmma);
        fprintf(out, "    ncu: sm__inst_executed_pipe_tensor_op_gmma.sum\n");
    }
    if (e->bulk_copies)
        fprintf(out, "  %llu bulk copies (TMA, cp.async.bulk): %llu bytes into shared memory, %llu bytes out\n",
                (unsigned long long)e->bulk_copies, (unsigned long long)e->bulk_bytes_in,
                (unsigned long long)e->bulk_bytes_out);
}

/* The time of a kernel run (exectime.c): the total, the bound, each term. */
static void time_text(FILE *out, const coalsim_time *tm)
{
    fprintf(out, "\nPredicted time: %.1f us, %s-bound (launch %.1f us + the largest of the terms below)\n", tm->total_us,
            tm->bound, tm->launch_us);
    if (tm->profile[0])
        fprintf(out, "  profile %s: the default for --hier on the hopper preset (--profile h100|h200|FILE names one)\n",
                tm->profile);
    if (tm->l2 && !strcmp(tm->l2, "warm"))
        fprintf(out, "  L2 warm: the second of two launches back to back, as a cudaEvent loop times it "
                     "(cold, as ncu times it: %.1f us)\n", tm->cold_us);
    else if (tm->l2 && !strcmp(tm->l2, "inherited"))
        fprintf(out, "  L2 as the launch before it left it (the program's own events time it so)\n");
    else if (tm->l2 && tm->l2_unknown)
        fprintf(out, "  L2 cold: the launch before it was sampled, so what it left in L2 is not known "
                     "(--sample off runs it whole)\n");
    else if (tm->l2)
        fprintf(out, "  L2 cold: none of its data in L2 at the start, as ncu times it "
                     "(a loop of launches back to back: --l2 warm)\n");
    fprintf(out, "  the busiest SM:  issue %.1f us  pipe %.1f (%s)  L1/shared %.1f  blocks' paths %.1f  block starts %.1f\n",
            tm->issue_us, tm->pipe_us, tm->pipe, tm->smem_us, tm->path_us, tm->dispatch_us);
    fprintf(out, "  the device:      DRAM %.1f us (back to back: %.1f)  L2 %.1f  atomics in L2 %.1f\n",
            tm->dram_us, tm->dram_b2b_us, tm->l2_us, tm->atomic_us);
    fprintf(out, "  occupancy: %u blocks (%u warps) a SM, limited by %s; %u registers a thread (%s); %.2f waves;\n"
                 "  a global load on the paths %.0f ns (loads served by L1 %llu, L2 %llu, DRAM %llu)\n",
            tm->occupancy_blocks, tm->occupancy_warps, tm->occupancy_limit, tm->regs,
            !tm->regs_from ? "not known" : !strcmp(tm->regs_from, "estimate") ? "estimated from the PTX: no ptxas, --regs N sets it"
                                                                             : tm->regs_from,
            tm->waves, tm->load_ns, (unsigned long long)tm->loads[COALSIM_LV_L1],
            (unsigned long long)tm->loads[COALSIM_LV_L2], (unsigned long long)tm->loads[COALSIM_LV_DRAM]);
}

static void hier_text(FILE *out, const coalsim_stats *st, const coalsim_report_extra *ex)
{
    const coalsim_hier_cfg *cfg = ex->hier;
    const coalsim_time *tm = ex->time;
    uint64_t dirty = ex->dirty;
    coalsim_hier_counts t;
    coalsim_stats_hier_total(st, &t);
    int w = 6;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        int l = (int)strlen(coalsim_stats_get(st, i)->label);
        if (l > w) w = l;
    }
    fprintf(out, "\nMemory hierarchy, approximately: %u SMs x %llu KiB L1, %llu MiB L2, %u-byte DRAM fetch;\n"
                 "blocks run one after another, round-robin over the SMs (the GPU overlaps them)\n",
            cfg->sms, (unsigned long long)(cfg->l1_bytes >> 10), (unsigned long long)(cfg->l2_bytes >> 20), cfg->fetch);
    fprintf(out, "  %-*s  op  L1 wavefronts  L1 sectors  L1 hit%%  L2 sectors  L2 hit%%     DRAM read\n", w, "access");
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        const coalsim_hier_counts *h = &ac->hier;
        if (!coalsim_space_has_sectors(ac->space)) continue;
        fprintf(out, "  %-*s  %s  %13llu  %10llu  %6.1f%%  %10llu  %6.1f%%  %12llu\n", w, ac->label,
                coalsim_op_name(ac->op), (unsigned long long)ac->lines, (unsigned long long)h->l1_sectors,
                coalsim_op_reads(ac->op) && h->l1_sectors ? 100.0 * h->l1_hits / h->l1_sectors : 0.0,
                (unsigned long long)h->l2_sectors,
                coalsim_op_reads(ac->op) && h->l2_sectors ? 100.0 * h->l2_hits / h->l2_sectors : 0.0,
                (unsigned long long)h->dram_read);
    }
    /* DRAM writes happen when a dirty line leaves L2, whichever access evicts
     * it, so they are given in total only */
    fprintf(out, "  total: %llu L1 wavefronts (one a 128-byte line a request touches), %llu L1 sectors,\n"
                 "         %llu L2 sectors, DRAM %llu bytes read, %llu written during the kernel,\n"
                 "         %llu dirty bytes left in L2 (written back after it)\n"
                 "    ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum, lts__t_sectors_srcunit_tex_op_{read,write}.sum,\n"
                 "         dram__bytes_read.sum, dram__bytes_write.sum\n",
            (unsigned long long)totals_lines(st), (unsigned long long)t.l1_sectors, (unsigned long long)t.l2_sectors,
            (unsigned long long)t.dram_read, (unsigned long long)t.dram_write, (unsigned long long)dirty);
    if (t.dram_read)
        fprintf(out, "  DRAM reads, 64 bytes each, by their place in a 256-byte piece read close together:\n"
                     "         %llu 1st, %llu 2nd, %llu 3rd, %llu 4th (a lone read costs more than a stream's)\n",
                (unsigned long long)t.dram_piece_nth[0], (unsigned long long)t.dram_piece_nth[1],
                (unsigned long long)t.dram_piece_nth[2], (unsigned long long)t.dram_piece_nth[3]);
    if (t.inflight_dram || t.inflight_l2)
        fprintf(out, "  load sectors that hit a line another warp's load of the same step was still fetching:\n"
                     "         %llu from DRAM, %llu from L2 (they wait as long as that load)\n",
                (unsigned long long)t.inflight_dram, (unsigned long long)t.inflight_l2);
    if (tm && tm->exec_modelled) {
        time_text(out, tm);
        return;
    }
    if (tm) {
        fprintf(out, "  predicted time: %.1f us = launch %.1f + the largest of DRAM %.1f, L2 %.1f,\n"
                     "    L1 data pipe %.1f (busiest SM), latency %.1f us (busiest SM): %s-bound\n",
                tm->total_us, tm->launch_us, tm->dram_us, tm->l2_us, tm->l1_us, tm->latency_us, tm->bound);
        if (tm->profile[0])
            fprintf(out, "    profile %s: the default for --hier on the hopper preset (--profile h100|h200|FILE names one)\n",
                    tm->profile);
        if (tm->latency_modelled)
            fprintf(out, "    latency: %u blocks of %u warps at once a SM, up to %u load%s a round trip, a block's\n"
                         "    slowest warp's round trip x%.2f the mean; DRAM round trips x%.2f their unloaded time at\n"
                         "    the bandwidth this time implies (16 loads: %.0f ns)\n",
                    tm->resident_blocks, tm->block_warps, tm->mlp, tm->mlp == 1 ? "" : "s", tm->block_tail,
                    tm->dram_slowdown, tm->dram_round_trip_ns);
        else
            fprintf(out, "    (no latencies in this profile: no latency term)\n");
    }
}

/* A sampled launch: what ran, the factor, each figure's error. */
static void sample_text(FILE *out, const coalsim_sample *s, int timed)
{
    fprintf(out, "sampled: %llu of %llu blocks ran (%llu windows of up to %llu consecutive blocks of the launch's %llu:\n"
                 "  the first, the last and others evenly between); every count below is theirs x%.4g.\n"
                 "  Estimated error (95%%, from how much the windows differ):",
            (unsigned long long)s->run, (unsigned long long)s->blocks, (unsigned long long)s->windows_run,
            (unsigned long long)s->window, (unsigned long long)s->windows, s->factor);
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) {
        fprintf(out, "%s %s ", f ? "," : "", coalsim_sample_fig_name((coalsim_sample_fig)f));
        if (s->estimate[f] <= 0) fprintf(out, "-");
        else if (s->error[f] < 0) fprintf(out, "unknown");
        else fprintf(out, "+-%.2f%%", 100 * s->error[f]);
    }
    fprintf(out, ".\n");
    if (s->loop_jumps)
        fprintf(out, "  Loops: warps jumped over %llu iterations (%.0f warp instructions) whose addresses moved by whole\n"
                     "  lines, each counted as the last one the warp ran (requests x%.4g: exact counts; their caches'\n"
                     "  hits and the time extrapolated).\n",
                (unsigned long long)s->loop_iters, s->loop_insts, s->loop_factor);
    fprintf(out, "  %s--sample off runs every block.\n", timed ? "The time is each SM's sampled load extrapolated.  " : "");
}

void report_text(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                 const coalsim_report_extra *ex)
{
    size_t n = coalsim_stats_count(st);
    int w = 6, opw = 2;
    int has[COALSIM_SPACES] = {0};
    for (size_t i = 0; i < n; i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        int l = (int)strlen(ac->label), ol = (int)strlen(coalsim_op_name(ac->op));
        if (l > w) w = l;
        if (ol > opw) opw = ol;
        has[ac->space] = 1;
    }
    fprintf(out, "coalsim %s: %s\n", COALSIM_VERSION, name);
    arch_line(out, a);
    fprintf(out, "\n");
    if (ex && ex->sample) sample_text(out, ex->sample, ex->time != NULL);
    if (n == 0) fprintf(out, "\nno memory accesses in this trace\n");
    if (has[COALSIM_GLOBAL]) sector_table(out, a, st, COALSIM_GLOBAL, w, opw);
    if (has[COALSIM_LOCAL]) sector_table(out, a, st, COALSIM_LOCAL, w, opw);
    if (has[COALSIM_SHARED]) wavefront_table(out, st, COALSIM_SHARED, w, opw);
    if (has[COALSIM_CONST]) wavefront_table(out, st, COALSIM_CONST, w, opw);
    if (n) fprintf(out, "\nWhy (each access's fullest request)\n");
    for (size_t i = 0; i < n; i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        char why[320];
        coalsim_explain(a, &ac->sample, &ac->sample_result, why, sizeof why);
        fprintf(out, "  %-*s  %s %s: %s\n", w, ac->label, coalsim_op_name(ac->op), coalsim_space_name(ac->space), why);
    }
    totals_text(out, a, st, n);
    if (ex && ex->exec) exec_text(out, ex->exec);
    if (ex && ex->exec && ex->source) report_source_text(out, ex->exec, st);
    if (ex && ex->hier) hier_text(out, st, ex);
}

int coalsim_report_request(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res)
{
    fprintf(out, "line %lu: block %llu warp %llu  %s %s %s %uB  %u lane%s, %u bytes: ", r->line,
            (unsigned long long)r->block, (unsigned long long)r->warp, r->label, coalsim_op_name(r->op),
            coalsim_space_name(r->space), r->size, res->active_threads, res->active_threads == 1 ? "" : "s",
            res->requested_bytes);
    if (coalsim_space_has_sectors(r->space))
        fprintf(out, "%u sector%s (ideal %u), %u line%s, efficiency %.1f%%\n", res->sectors,
                res->sectors == 1 ? "" : "s", res->ideal_sectors, res->lines, res->lines == 1 ? "" : "s",
                res->sectors ? 100.0 * res->requested_bytes / ((double)res->sectors * a->sector_bytes) : 0.0);
    else if (r->space == COALSIM_CONST)
        fprintf(out, "%u pass%s (ideal %u)\n", res->wavefronts, res->wavefronts == 1 ? "" : "es", res->ideal_wavefronts);
    else if (res->max_ways > 1)
        fprintf(out, "%u wavefront%s (ideal %u), %u-way conflict on bank %u\n", res->wavefronts,
                res->wavefronts == 1 ? "" : "s", res->ideal_wavefronts, res->max_ways, res->worst_bank);
    else
        fprintf(out, "%u wavefront%s (ideal %u), no conflict\n", res->wavefronts, res->wavefronts == 1 ? "" : "s",
                res->ideal_wavefronts);
    return ferror(out) ? -1 : 0;
}

int coalsim_report_request_hier(FILE *out, const coalsim_request *r, const coalsim_hier_counts *d)
{
    if (!coalsim_space_has_sectors(r->space)) return 0;
    if (coalsim_op_reads(r->op))
        fprintf(out, "    hierarchy: L1 %llu sector%s (%llu hit%s), L2 %llu sector%s (%llu hit%s), DRAM %llu bytes read\n",
                (unsigned long long)d->l1_sectors, d->l1_sectors == 1 ? "" : "s", (unsigned long long)d->l1_hits,
                d->l1_hits == 1 ? "" : "s", (unsigned long long)d->l2_sectors, d->l2_sectors == 1 ? "" : "s",
                (unsigned long long)d->l2_hits, d->l2_hits == 1 ? "" : "s", (unsigned long long)d->dram_read);
    else
        fprintf(out, "    hierarchy: L1 %llu sector%s, L2 %llu sector%s, DRAM %llu bytes read, %llu written (evictions)\n",
                (unsigned long long)d->l1_sectors, d->l1_sectors == 1 ? "" : "s", (unsigned long long)d->l2_sectors,
                d->l2_sectors == 1 ? "" : "s", (unsigned long long)d->dram_read, (unsigned long long)d->dram_write);
    return ferror(out) ? -1 : 0;
}
