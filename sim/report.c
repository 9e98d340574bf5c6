/* Report writers: text (for people), JSON and CSV (for scripts).  They write
 * only to the stream the caller passes. */
#include <string.h>

#include "coalsim.h"

static const char *const metric_units[2] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum",
};
static const char *const metric_reqs[2] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum",
    "smsp__inst_executed_op_shared_%s.sum",
};

typedef struct {
    uint64_t requests, threads, bytes, units, ideal, lines;
    unsigned max_ways, worst_bank;
} total;

/* Totals per [space][op]. */
static void sum(const coalsim_stats *st, total t[2][2])
{
    memset(t, 0, sizeof(total) * 4);
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *a = coalsim_stats_get(st, i);
        total *x = &t[a->space][a->op];
        x->requests += a->requests;
        x->threads += a->active_threads;
        x->bytes += a->requested_bytes;
        x->units += a->space == COALSIM_GLOBAL ? a->sectors : a->wavefronts;
        x->ideal += a->space == COALSIM_GLOBAL ? a->ideal_sectors : a->ideal_wavefronts;
        x->lines += a->lines;
        if (a->max_ways > x->max_ways) x->max_ways = a->max_ways, x->worst_bank = a->worst_bank;
    }
}

static double per(uint64_t x, uint64_t n) { return n ? (double)x / (double)n : 0.0; }

/* The 128-byte lines all global requests touched: L1 data-pipe wavefronts. */
static uint64_t global_lines(const coalsim_stats *st)
{
    uint64_t n = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++)
        if (coalsim_stats_get(st, i)->space == COALSIM_GLOBAL) n += coalsim_stats_get(st, i)->lines;
    return n;
}

static void arch_line(FILE *out, const coalsim_arch *a)
{
    fprintf(out, "arch %s: warp %u, %u-byte sectors, %u-byte lines, %u banks x %u bytes", a->name, a->warp_size,
            a->sector_bytes, a->line_bytes, a->banks, a->bank_width);
    if (a->bank_width == 8) fprintf(out, " (%u-bit mode)", a->bank_mode);
}

static int text(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st)
{
    size_t n = coalsim_stats_count(st);
    int w = 6;
    int has[2] = {0, 0};
    total t[2][2];
    for (size_t i = 0; i < n; i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        int l = (int)strlen(ac->label);
        if (l > w) w = l;
        has[ac->space] = 1;
    }
    fprintf(out, "coalsim %s: %s\n", COALSIM_VERSION, name);
    arch_line(out, a);
    fprintf(out, "\n");
    if (n == 0) fprintf(out, "\nno memory accesses in this trace\n");
    if (has[COALSIM_GLOBAL]) {
        fprintf(out, "\nGlobal memory (sectors: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum)\n");
        fprintf(out, "  %-*s  op  size  requests   threads  sectors/req  ideal/req  efficiency  lines/req\n", w,
                "access");
        for (size_t i = 0; i < n; i++) {
            const coalsim_access *ac = coalsim_stats_get(st, i);
            if (ac->space != COALSIM_GLOBAL) continue;
            fprintf(out, "  %-*s  %s  %4u  %8llu  %8llu  %11.2f  %9.2f  %9.1f%%  %9.2f\n", w, ac->label,
                    coalsim_op_name(ac->op), ac->size, (unsigned long long)ac->requests,
                    (unsigned long long)ac->active_threads, per(ac->sectors, ac->requests),
                    per(ac->ideal_sectors, ac->requests), 100.0 * coalsim_access_gmem_efficiency(ac, a),
                    per(ac->lines, ac->requests));
        }
    }
    if (has[COALSIM_SHARED]) {
        fprintf(out, "\nShared memory (wavefronts: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum)\n");
        fprintf(out, "  %-*s  op  size  requests   threads  wavefronts/req  ideal/req  efficiency  worst conflict\n",
                w, "access");
        for (size_t i = 0; i < n; i++) {
            const coalsim_access *ac = coalsim_stats_get(st, i);
            if (ac->space != COALSIM_SHARED) continue;
            char worst[48];
            if (ac->max_ways > 1)
                snprintf(worst, sizeof worst, "%u-way (bank %u)", ac->max_ways, ac->worst_bank);
            else
                snprintf(worst, sizeof worst, "none");
            fprintf(out, "  %-*s  %s  %4u  %8llu  %8llu  %14.2f  %9.2f  %9.1f%%  %s\n", w, ac->label,
                    coalsim_op_name(ac->op), ac->size, (unsigned long long)ac->requests,
                    (unsigned long long)ac->active_threads, per(ac->wavefronts, ac->requests),
                    per(ac->ideal_wavefronts, ac->requests), 100.0 * coalsim_access_smem_efficiency(ac), worst);
        }
    }
    if (n) fprintf(out, "\nWhy (each access's fullest request)\n");
    for (size_t i = 0; i < n; i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        char why[320];
        coalsim_explain(a, &ac->sample, &ac->sample_result, why, sizeof why);
        fprintf(out, "  %-*s  %s %s: %s\n", w, ac->label, coalsim_op_name(ac->op), coalsim_space_name(ac->space), why);
    }
    sum(st, t);
    if (n) fprintf(out, "\nTotals\n");
    for (int sp = 0; sp < 2; sp++)
        for (int op = 0; op < 2; op++) {
            const total *x = &t[sp][op];
            const char *o = coalsim_op_name((coalsim_op)op);
            if (!x->requests) continue;
            fprintf(out, "  %s %s: %llu requests, ", coalsim_space_name((coalsim_space)sp), o,
                    (unsigned long long)x->requests);
            if (sp == COALSIM_GLOBAL)
                fprintf(out, "%llu sectors (ideal %llu), efficiency %.1f%%\n", (unsigned long long)x->units,
                        (unsigned long long)x->ideal,
                        x->units ? 100.0 * (double)x->bytes / ((double)x->units * a->sector_bytes) : 0.0);
            else
                fprintf(out, "%llu wavefronts (ideal %llu), %llu from bank conflicts\n", (unsigned long long)x->units,
                        (unsigned long long)x->ideal, (unsigned long long)(x->units - x->ideal));
            fprintf(out, "    ncu: ");
            fprintf(out, metric_reqs[sp], o);
            fprintf(out, ", ");
            fprintf(out, metric_units[sp], o);
            fprintf(out, "\n");
        }
    return 0;
}

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
    json_hier_counts(out, global_lines(st), &t);
    fprintf(out, ", \"dram_write_bytes\": %llu, \"dirty_bytes_left\": %llu", (unsigned long long)t.dram_write,
            (unsigned long long)ex->dirty);
    const coalsim_time *tm = ex->time;
    if (tm) {
        fprintf(out, ",\n  \"time\": {\"total_us\": %.6g, \"bound\": \"%s\", \"launch_us\": %.6g, \"dram_us\": %.6g, "
                     "\"l2_us\": %.6g, \"l1_us\": %.6g, \"latency_us\": %.6g, \"latency_modelled\": %s",
                tm->total_us, tm->bound, tm->launch_us, tm->dram_us, tm->l2_us, tm->l1_us, tm->latency_us,
                tm->latency_modelled ? "true" : "false");
        if (tm->latency_modelled)
            fprintf(out, ", \"resident_blocks\": %u, \"block_warps\": %u, \"block_tail\": %.6g, \"mlp\": %u, "
                         "\"dram_slowdown\": %.6g, \"dram_round_trip_ns\": %.6g",
                    tm->resident_blocks, tm->block_warps, tm->block_tail, tm->mlp, tm->dram_slowdown,
                    tm->dram_round_trip_ns);
        fprintf(out, "}");
    }
    fprintf(out, "}");
}

static int json(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                const coalsim_report_extra *ex)
{
    total t[2][2];
    fprintf(out, "{\"coalsim\": \"%s\", \"trace\": ", COALSIM_VERSION);
    json_str(out, name);
    fprintf(out, ",\n \"arch\": {\"name\": \"%s\", \"warp_size\": %u, \"sector_bytes\": %u, \"line_bytes\": %u, "
                 "\"banks\": %u, \"bank_width\": %u, \"bank_mode\": %u},\n \"accesses\": [",
            a->name, a->warp_size, a->sector_bytes, a->line_bytes, a->banks, a->bank_width, a->bank_mode);
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        char why[320];
        coalsim_explain(a, &ac->sample, &ac->sample_result, why, sizeof why);
        fprintf(out, "%s\n  {\"label\": ", i ? "," : "");
        json_str(out, ac->label);
        fprintf(out, ", \"explanation\": ");
        json_str(out, why);
        fprintf(out, ", \"op\": \"%s\", \"space\": \"%s\", \"size\": %u, \"first_line\": %lu, \"requests\": %llu, "
                     "\"active_threads\": %llu, \"requested_bytes\": %llu, ",
                coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size, ac->first_line,
                (unsigned long long)ac->requests, (unsigned long long)ac->active_threads,
                (unsigned long long)ac->requested_bytes);
        if (ac->space == COALSIM_GLOBAL)
            fprintf(out, "\"sectors\": %llu, \"ideal_sectors\": %llu, \"lines\": %llu, \"sectors_per_request\": %.6g, "
                         "\"efficiency\": %.6g",
                    (unsigned long long)ac->sectors, (unsigned long long)ac->ideal_sectors,
                    (unsigned long long)ac->lines, per(ac->sectors, ac->requests),
                    coalsim_access_gmem_efficiency(ac, a));
        else
            fprintf(out, "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"bank_conflicts\": %llu, "
                         "\"wavefronts_per_request\": %.6g, \"max_ways\": %u, \"worst_bank\": %u, \"efficiency\": %.6g",
                    (unsigned long long)ac->wavefronts, (unsigned long long)ac->ideal_wavefronts,
                    (unsigned long long)(ac->wavefronts - ac->ideal_wavefronts), per(ac->wavefronts, ac->requests),
                    ac->max_ways, ac->worst_bank, coalsim_access_smem_efficiency(ac));
        if (ex && ex->hier && ac->space == COALSIM_GLOBAL) {
            fprintf(out, ", \"hierarchy\": {");
            json_hier_counts(out, ac->lines, &ac->hier);
            fprintf(out, "}");
        }
        fprintf(out, "}");
    }
    sum(st, t);
    fprintf(out, "],\n \"totals\": {");
    int first = 1;
    for (int sp = 0; sp < 2; sp++)
        for (int op = 0; op < 2; op++) {
            const total *x = &t[sp][op];
            fprintf(out, "%s\"%s_%s\": {\"requests\": %llu, \"active_threads\": %llu, \"requested_bytes\": %llu, ",
                    first ? "" : ", ", coalsim_space_name((coalsim_space)sp), coalsim_op_name((coalsim_op)op),
                    (unsigned long long)x->requests, (unsigned long long)x->threads, (unsigned long long)x->bytes);
            first = 0;
            if (sp == COALSIM_GLOBAL)
                fprintf(out, "\"sectors\": %llu, \"ideal_sectors\": %llu, \"efficiency\": %.6g}",
                        (unsigned long long)x->units, (unsigned long long)x->ideal,
                        x->units ? (double)x->bytes / ((double)x->units * a->sector_bytes) : 0.0);
            else
                fprintf(out, "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"bank_conflicts\": %llu}",
                        (unsigned long long)x->units, (unsigned long long)x->ideal,
                        (unsigned long long)(x->units - x->ideal));
        }
    fprintf(out, "}");
    if (ex && ex->hier) json_hier(out, st, ex);
    if (ex && ex->requests_json) fprintf(out, ",\n \"requests\": [%s]", ex->requests_json);
    fprintf(out, "}\n");
    return 0;
}

static void csv_str(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int coalsim_report_csv_header(FILE *out, int hier)
{
    fprintf(out, "trace,label,op,space,size,requests,active_threads,requested_bytes,sectors,ideal_sectors,lines,"
                 "wavefronts,ideal_wavefronts,bank_conflicts,max_ways,worst_bank,efficiency%s\n",
            hier ? ",l1_wavefronts,l1_sectors,l1_hit_sectors,l2_sectors,l2_hit_sectors,dram_read_bytes" : "");
    return ferror(out) ? -1 : 0;
}

static int csv(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
               const coalsim_report_extra *ex)
{
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        csv_str(out, name);
        fputc(',', out);
        csv_str(out, ac->label);
        fprintf(out, ",%s,%s,%u,%llu,%llu,%llu,", coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size,
                (unsigned long long)ac->requests, (unsigned long long)ac->active_threads,
                (unsigned long long)ac->requested_bytes);
        if (ac->space == COALSIM_GLOBAL)
            fprintf(out, "%llu,%llu,%llu,,,,,,%.6g", (unsigned long long)ac->sectors,
                    (unsigned long long)ac->ideal_sectors, (unsigned long long)ac->lines,
                    coalsim_access_gmem_efficiency(ac, a));
        else
            fprintf(out, ",,,%llu,%llu,%llu,%u,%u,%.6g", (unsigned long long)ac->wavefronts,
                    (unsigned long long)ac->ideal_wavefronts,
                    (unsigned long long)(ac->wavefronts - ac->ideal_wavefronts), ac->max_ways, ac->worst_bank,
                    coalsim_access_smem_efficiency(ac));
        const coalsim_hier_counts *h = &ac->hier;
        if (ex && ex->hier && ac->space == COALSIM_GLOBAL)
            fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)ac->lines, (unsigned long long)h->l1_sectors,
                    (unsigned long long)h->l1_hits, (unsigned long long)h->l2_sectors, (unsigned long long)h->l2_hits,
                    (unsigned long long)h->dram_read);
        else if (ex && ex->hier)
            fputs(",,,,,,", out);
        fputc('\n', out);
    }
    return 0;
}

static void text_hier(FILE *out, const coalsim_stats *st, const coalsim_report_extra *ex)
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
        if (ac->space != COALSIM_GLOBAL) continue;
        fprintf(out, "  %-*s  %s  %13llu  %10llu  %6.1f%%  %10llu  %6.1f%%  %12llu\n", w, ac->label,
                coalsim_op_name(ac->op), (unsigned long long)ac->lines, (unsigned long long)h->l1_sectors,
                ac->op == COALSIM_LD && h->l1_sectors ? 100.0 * h->l1_hits / h->l1_sectors : 0.0,
                (unsigned long long)h->l2_sectors,
                ac->op == COALSIM_LD && h->l2_sectors ? 100.0 * h->l2_hits / h->l2_sectors : 0.0,
                (unsigned long long)h->dram_read);
    }
    /* DRAM writes happen when a dirty line leaves L2, whichever access evicts
     * it, so they are given in total only */
    fprintf(out, "  total: %llu L1 wavefronts (one a 128-byte line a request touches), %llu L1 sectors,\n"
                 "         %llu L2 sectors, DRAM %llu bytes read, %llu written during the kernel,\n"
                 "         %llu dirty bytes left in L2 (written back after it)\n"
                 "    ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum, lts__t_sectors_srcunit_tex_op_{read,write}.sum,\n"
                 "         dram__bytes_read.sum, dram__bytes_write.sum\n",
            (unsigned long long)global_lines(st), (unsigned long long)t.l1_sectors, (unsigned long long)t.l2_sectors,
            (unsigned long long)t.dram_read,
            (unsigned long long)t.dram_write, (unsigned long long)dirty);
    if (tm) {
        fprintf(out, "  predicted time: %.1f us = launch %.1f + the largest of DRAM %.1f, L2 %.1f,\n"
                     "    L1 data pipe %.1f (busiest SM), latency %.1f us (busiest SM): %s-bound\n",
                tm->total_us, tm->launch_us, tm->dram_us, tm->l2_us, tm->l1_us, tm->latency_us, tm->bound);
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

int coalsim_report_ext(FILE *out, coalsim_format fmt, const char *trace_name, const coalsim_arch *a,
                       const coalsim_stats *st, const coalsim_report_extra *ex)
{
    if (fmt == COALSIM_JSON) json(out, trace_name, a, st, ex);
    else if (fmt == COALSIM_CSV) csv(out, trace_name, a, st, ex);
    else {
        text(out, trace_name, a, st);
        if (ex && ex->hier) text_hier(out, st, ex);
    }
    return ferror(out) ? -1 : 0;
}

int coalsim_report(FILE *out, coalsim_format fmt, const char *trace_name, const coalsim_arch *a,
                   const coalsim_stats *st)
{
    return coalsim_report_ext(out, fmt, trace_name, a, st, NULL);
}

int coalsim_report_request(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res)
{
    fprintf(out, "line %lu: block %llu warp %llu  %s %s %s %uB  %u lane%s, %u bytes: ", r->line,
            (unsigned long long)r->block, (unsigned long long)r->warp, r->label, coalsim_op_name(r->op),
            coalsim_space_name(r->space), r->size, res->active_threads, res->active_threads == 1 ? "" : "s",
            res->requested_bytes);
    if (r->space == COALSIM_GLOBAL)
        fprintf(out, "%u sector%s (ideal %u), %u line%s, efficiency %.1f%%\n", res->sectors,
                res->sectors == 1 ? "" : "s", res->ideal_sectors, res->lines, res->lines == 1 ? "" : "s",
                res->sectors ? 100.0 * res->requested_bytes / ((double)res->sectors * a->sector_bytes) : 0.0);
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
    if (r->space != COALSIM_GLOBAL) return 0;
    if (r->op == COALSIM_LD)
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

int coalsim_report_request_json(FILE *out, const coalsim_request *r, const coalsim_result *res,
                                const coalsim_hier_counts *d, int first)
{
    fprintf(out, "%s\n  {\"line\": %lu, \"label\": ", first ? "" : ",", r->line);
    json_str(out, r->label);
    fprintf(out, ", \"op\": \"%s\", \"space\": \"%s\", \"size\": %u, \"block\": %llu, \"warp\": %llu, "
                 "\"active_threads\": %u, \"requested_bytes\": %u, ",
            coalsim_op_name(r->op), coalsim_space_name(r->space), r->size, (unsigned long long)r->block,
            (unsigned long long)r->warp, res->active_threads, res->requested_bytes);
    if (r->space == COALSIM_GLOBAL)
        fprintf(out, "\"sectors\": %u, \"ideal_sectors\": %u, \"lines\": %u", res->sectors, res->ideal_sectors,
                res->lines);
    else
        fprintf(out, "\"wavefronts\": %u, \"ideal_wavefronts\": %u, \"max_ways\": %u, \"worst_bank\": %u",
                res->wavefronts, res->ideal_wavefronts, res->max_ways, res->worst_bank);
    if (d && r->space == COALSIM_GLOBAL) {
        fprintf(out, ", \"hierarchy\": {");
        json_hier_counts(out, res->lines, d);
        fprintf(out, ", \"dram_write_bytes\": %llu}", (unsigned long long)d->dram_write);
    }
    fputc('}', out);
    return ferror(out) ? -1 : 0;
}
