/* The JSON report, for scripts: one object a trace or kernel with its
 * accesses, totals, predicted ncu metrics and, when asked, the hierarchy,
 * the time and the requests one by one. */
#include <string.h>

#include "coalsim.h"
#include "totals.h"
#include "report_source.h"
#include "writers.h"

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* WAVEFRONTS: the L1 data pipe's, one a 128-byte line a request touches (the
 * time model's L1 term). */
static void json_hier_counts(FILE *out, uint64_t wavefronts, const coalsim_hier_counts *h)
{
    fprintf(out, "\"l1_wavefronts\": %llu, ", (unsigned long long)wavefronts);
    fprintf(out, "\"l1_sectors\": %llu, \"l1_hit_sectors\": %llu, \"l2_sectors\": %llu, \"l2_hit_sectors\": %llu, "
                 "\"dram_read_bytes\": %llu",
            (unsigned long long)h->l1_sectors, (unsigned long long)h->l1_hits, (unsigned long long)h->l2_sectors,
            (unsigned long long)h->l2_hits, (unsigned long long)h->dram_read);
}

static void json_hier(FILE *out, const coalsim_stats *st, const coalsim_report_extra *ex)
{
    const coalsim_hier_cfg *c = ex->hier;
    coalsim_hier_counts t;
    coalsim_stats_hier_total(st, &t);
    fprintf(out, ",\n \"hierarchy\": {\"sms\": %u, \"l1_bytes\": %llu, \"l2_bytes\": %llu, \"dram_fetch_bytes\": %u, ",
            c->sms, (unsigned long long)c->l1_bytes, (unsigned long long)c->l2_bytes, c->fetch);
    json_hier_counts(out, totals_lines(st), &t);
    fprintf(out, ", \"dram_write_bytes\": %llu, \"dirty_bytes_left\": %llu", (unsigned long long)t.dram_write,
            (unsigned long long)ex->dirty);
    fprintf(out, ", \"dram_piece_nth\": [%llu, %llu, %llu, %llu]", (unsigned long long)t.dram_piece_nth[0],
            (unsigned long long)t.dram_piece_nth[1], (unsigned long long)t.dram_piece_nth[2],
            (unsigned long long)t.dram_piece_nth[3]);
    fprintf(out, ", \"inflight_dram_sectors\": %llu, \"inflight_l2_sectors\": %llu", (unsigned long long)t.inflight_dram,
            (unsigned long long)t.inflight_l2);
    const coalsim_time *tm = ex->time;
    if (tm) {
        fprintf(out, ",\n  \"time\": {\"total_us\": %.6g, \"bound\": \"%s\", \"launch_us\": %.6g, \"dram_us\": %.6g, "
                     "\"l2_us\": %.6g, \"l1_us\": %.6g, \"latency_us\": %.6g, \"latency_modelled\": %s",
                tm->total_us, tm->bound, tm->launch_us, tm->dram_us, tm->l2_us, tm->l1_us, tm->latency_us,
                tm->latency_modelled ? "true" : "false");
        /* which L2 it started with; warm: the same launch's cold time too */
        if (tm->l2) fprintf(out, ", \"l2\": \"%s\"", tm->l2);
        if (tm->l2_unknown) fprintf(out, ", \"l2_after_sampled_launch\": true");
        if (tm->profile[0]) fprintf(out, ", \"default_profile\": \"%s\"", tm->profile);
        if (tm->l2 && !strcmp(tm->l2, "warm")) fprintf(out, ", \"cold_us\": %.6g", tm->cold_us);
        if (tm->latency_modelled)
            fprintf(out, ", \"resident_blocks\": %u, \"block_warps\": %u, \"block_tail\": %.6g, \"mlp\": %u, "
                         "\"dram_slowdown\": %.6g, \"dram_round_trip_ns\": %.6g",
                    tm->resident_blocks, tm->block_warps, tm->block_tail, tm->mlp, tm->dram_slowdown,
                    tm->dram_round_trip_ns);
        static const char *const lv[COALSIM_LEVELS] = {"smem", "l1", "l2", "dram"};
        fprintf(out, ", \"l1_lines_sm\": %.6g, \"smem_wavefronts_sm\": %.6g, \"data_cycles_sm\": %.6g, \"loads\": {",
                tm->l1_lines_sm, tm->smem_wavefronts_sm, tm->data_cycles_sm);
        for (int l = COALSIM_LV_L1; l < COALSIM_LEVELS; l++)
            fprintf(out, "%s\"%s\": %llu", l > COALSIM_LV_L1 ? ", " : "", lv[l], (unsigned long long)tm->loads[l]);
        fprintf(out, "}");
        if (tm->latency_modelled) {
            fprintf(out, ", \"trips\": {");
            for (int l = 0; l < COALSIM_LEVELS; l++)
                fprintf(out, "%s\"%s\": %llu", l ? ", " : "", lv[l], (unsigned long long)tm->trips[l]);
            fprintf(out, "}");
        }
        fprintf(out, ", \"atomic_hot_ops\": %llu", (unsigned long long)tm->atomic_hot_ops);
        if (tm->atomic_hot_ops_partial) fprintf(out, ", \"atomic_hot_ops_partial\": true");
        if (tm->exec_modelled) {
            fprintf(out, ", \"issue_us\": %.6g, \"pipe_us\": %.6g, \"pipe\": \"%s\", \"smem_us\": %.6g, \"path_us\": %.6g, "
                         "\"dispatch_us\": %.6g, \"dram_b2b_us\": %.6g, \"atomic_us\": %.6g, \"load_ns\": %.6g, \"waves\": %.6g, "
                         "\"occupancy\": {\"blocks\": %u, \"warps\": %u, \"limit\": \"%s\", \"regs\": %u, \"regs_from\": ",
                    tm->issue_us, tm->pipe_us, tm->pipe, tm->smem_us, tm->path_us, tm->dispatch_us, tm->dram_b2b_us, tm->atomic_us,
                    tm->load_ns, tm->waves, tm->occupancy_blocks, tm->occupancy_warps, tm->occupancy_limit, tm->regs);
            if (tm->regs_from) json_str(out, tm->regs_from);
            else fprintf(out, "null");
            fprintf(out, "}");
        }
        fprintf(out, "}");
    }
    fprintf(out, "}");
}

static void json_access(FILE *out, const coalsim_arch *a, const coalsim_access *ac, const coalsim_report_extra *ex)
{
    char why[320];
    coalsim_explain(a, &ac->sample, &ac->sample_result, why, sizeof why);
    fprintf(out, "\n  {\"label\": ");
    json_str(out, ac->label);
    fprintf(out, ", \"explanation\": ");
    json_str(out, why);
    fprintf(out, ", \"op\": \"%s\", \"space\": \"%s\", \"size\": %u, \"first_line\": %lu, \"requests\": %llu, "
                 "\"active_threads\": %llu, \"requested_bytes\": %llu, ",
            coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size, ac->first_line,
            (unsigned long long)ac->requests, (unsigned long long)ac->active_threads,
            (unsigned long long)ac->requested_bytes);
    if (coalsim_space_has_sectors(ac->space))
        fprintf(out, "\"sectors\": %llu, \"ideal_sectors\": %llu, \"lines\": %llu, \"sectors_per_request\": %.6g, "
                     "\"efficiency\": %.6g",
                (unsigned long long)ac->sectors, (unsigned long long)ac->ideal_sectors, (unsigned long long)ac->lines,
                totals_per(ac->sectors, ac->requests), coalsim_access_gmem_efficiency(ac, a));
    else
        fprintf(out, "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"bank_conflicts\": %llu, "
                     "\"wavefronts_per_request\": %.6g, \"max_ways\": %u, \"worst_bank\": %u, \"efficiency\": %.6g",
                (unsigned long long)ac->wavefronts, (unsigned long long)ac->ideal_wavefronts,
                (unsigned long long)(ac->wavefronts - ac->ideal_wavefronts), totals_per(ac->wavefronts, ac->requests),
                ac->max_ways, ac->worst_bank, coalsim_access_smem_efficiency(ac));
    if (ex && ex->hier && coalsim_space_has_sectors(ac->space)) {
        fprintf(out, ", \"hierarchy\": {");
        json_hier_counts(out, ac->lines, &ac->hier);
        fprintf(out, "}");
    }
    fprintf(out, "}");
}

static void json_totals(FILE *out, const coalsim_arch *a, const coalsim_stats *st)
{
    total t[COALSIM_SPACES][COALSIM_OPS];
    totals_sum(st, t);
    fprintf(out, "],\n \"totals\": {");
    int first = 1;
    for (int sp = 0; sp < COALSIM_SPACES; sp++)
        for (int op = 0; op < COALSIM_OPS; op++) {
            const total *x = &t[sp][op];
            /* ld and st of global and shared always; the others when used */
            if (!x->requests && (op > COALSIM_ST || sp > COALSIM_SHARED)) continue;
            fprintf(out, "%s\"%s_%s\": {\"requests\": %llu, \"active_threads\": %llu, \"requested_bytes\": %llu, ",
                    first ? "" : ", ", coalsim_space_name((coalsim_space)sp), coalsim_op_name((coalsim_op)op),
                    (unsigned long long)x->requests, (unsigned long long)x->threads, (unsigned long long)x->bytes);
            first = 0;
            if (coalsim_space_has_sectors((coalsim_space)sp))
                fprintf(out, "\"sectors\": %llu, \"ideal_sectors\": %llu, \"efficiency\": %.6g}",
                        (unsigned long long)x->units, (unsigned long long)x->ideal,
                        x->units ? (double)x->bytes / ((double)x->units * a->sector_bytes) : 0.0);
            else
                fprintf(out, "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"bank_conflicts\": %llu}",
                        (unsigned long long)x->units, (unsigned long long)x->ideal,
                        (unsigned long long)(x->units - x->ideal));
        }
    fprintf(out, "}");
}

static void json_metrics(FILE *out, const coalsim_stats *st, const coalsim_report_extra *ex)
{
    coalsim_metric m[COALSIM_MAX_METRICS];
    size_t n = coalsim_metrics(st, ex, m);
    const coalsim_exec *e = ex ? ex->exec : NULL;
    fprintf(out, ",\n \"metrics\": {");
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\": %llu", i ? ", " : "", m[i].name, (unsigned long long)m[i].value);
    fprintf(out, "},\n \"instructions\": ");
    if (e) json_str(out, e->isa ? e->isa : "?");
    else fprintf(out, "null");
    if (e && e->path_blocks) {
        /* what the time model read of the instruction stream */
        fprintf(out, ",\n \"execution\": {\"pipes\": {");
        for (int p = 0; p < COALSIM_PIPES; p++)
            fprintf(out, "%s\"%s\": %.6g", p ? ", " : "", coalsim_pipe_name((coalsim_pipe)p), e->pipe_inst[p]);
        fprintf(out, "}, \"path_cycles\": %.6g, \"path_loads\": %.6g, \"path_blocks\": %llu, \"block_threads\": %u, "
                     "\"regs\": %u, \"regs_from\": ",
                e->path_cycles, e->path_loads, (unsigned long long)e->path_blocks, e->block_threads, e->regs);
        if (e->regs_from) json_str(out, e->regs_from);
        else fprintf(out, "null");
        fprintf(out, ", \"smem_block\": %llu, \"smem_wavefronts_saved\": %.6g, \"mem_inactive\": %llu}",
                (unsigned long long)e->smem_block, e->smem_wavefronts_saved, (unsigned long long)e->mem_inactive);
    }
}

/* A sampled launch: what ran, the factor, each figure's estimate and error
 * (null: it cannot be estimated). */
static void json_sample(FILE *out, const coalsim_sample *s)
{
    fprintf(out, ",\n \"sample\": {\"blocks\": %llu, \"run\": %llu, \"window\": %llu, \"windows\": %llu, "
                 "\"windows_run\": %llu, \"factor\": %.9g, \"work_per_block\": %.9g, \"figures\": {",
            (unsigned long long)s->blocks, (unsigned long long)s->run, (unsigned long long)s->window,
            (unsigned long long)s->windows, (unsigned long long)s->windows_run, s->factor, s->work_per_block);
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) {
        fprintf(out, "%s\"%s\": {\"estimate\": %.9g, \"error\": ", f ? ", " : "",
                coalsim_sample_fig_name((coalsim_sample_fig)f), s->estimate[f]);
        if (s->error[f] < 0) fprintf(out, "null}");
        else fprintf(out, "%.6g}", s->error[f]);
    }
    fprintf(out, "}");
    if (s->loop_jumps)
        fprintf(out, ", \"loops\": {\"jumps\": %llu, \"iterations\": %llu, \"instructions\": %.0f, \"factor\": %.9g}",
                (unsigned long long)s->loop_jumps, (unsigned long long)s->loop_iters, s->loop_insts, s->loop_factor);
    fprintf(out, "}");
}

void report_json(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                 const coalsim_report_extra *ex)
{
    fprintf(out, "{\"coalsim\": \"%s\", \"trace\": ", COALSIM_VERSION);
    json_str(out, name);
    fprintf(out, ",\n \"arch\": {\"name\": \"%s\", \"warp_size\": %u, \"sector_bytes\": %u, \"line_bytes\": %u, "
                 "\"banks\": %u, \"bank_width\": %u, \"bank_mode\": %u},\n \"accesses\": [",
            a->name, a->warp_size, a->sector_bytes, a->line_bytes, a->banks, a->bank_width, a->bank_mode);
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        if (i) fputc(',', out);
        json_access(out, a, coalsim_stats_get(st, i), ex);
    }
    json_totals(out, a, st);
    if (ex && ex->sample) json_sample(out, ex->sample);
    json_metrics(out, st, ex);
    if (ex && ex->hier) json_hier(out, st, ex);
    if (ex && ex->exec && ex->source) report_source_json(out, ex->exec, st);
    if (ex && ex->requests_json) fprintf(out, ",\n \"requests\": [%s]", ex->requests_json);
    fprintf(out, "}\n");
}

int coalsim_report_request_json(FILE *out, const coalsim_request *r, const coalsim_result *res,
                                const coalsim_hier_counts *d, int first)
{
    fprintf(out, "%s\n  {\"line\": %lu, \"label\": ", first ? "" : ",", r->line);
    json_str(out, r->label);
    fprintf(out, ", \"op\": \"%s\", \"space\": \"%s\", \"size\": %u, \"block\": %llu, \"warp\": %llu, "
                 "\"active_threads\": %u, \"requested_bytes\": %u, ",
            coalsim_op_name(r->op), coalsim_space_name(r->space), r->size, (unsigned long long)r->block,
            (unsigned long long)r->warp, res->active_threads, res->requested_bytes);
    if (coalsim_space_has_sectors(r->space))
        fprintf(out, "\"sectors\": %u, \"ideal_sectors\": %u, \"lines\": %u", res->sectors, res->ideal_sectors,
                res->lines);
    else
        fprintf(out, "\"wavefronts\": %u, \"ideal_wavefronts\": %u, \"max_ways\": %u, \"worst_bank\": %u",
                res->wavefronts, res->ideal_wavefronts, res->max_ways, res->worst_bank);
    if (d && coalsim_space_has_sectors(r->space)) {
        fprintf(out, ", \"hierarchy\": {");
        json_hier_counts(out, res->lines, d);
        fprintf(out, ", \"dram_write_bytes\": %llu}", (unsigned long long)d->dram_write);
    }
    fputc('}', out);
    return ferror(out) ? -1 : 0;
}
