/* The HTML report: a self-contained page with the access table and SVG
 * pictures (picture.c) of each access's fullest request and the first
 * requests, and with a predicted time its terms drawn (timechart.c). */
#include <string.h>

#include "coalsim.h"
#include "report_source.h"
#include "timechart.h"

static void html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", out);
        else if (*s == '>') fputs("&gt;", out);
        else if (*s == '&') fputs("&amp;", out);
        else if (*s == '"') fputs("&quot;", out);
        else fputc(*s, out);
    }
}

static void request_head(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res)
{
    char why[320];
    coalsim_explain(a, r, res, why, sizeof why);
    fprintf(out, "<p class=\"req\">line %lu, block %llu, warp %llu: <b>", r->line, (unsigned long long)r->block,
            (unsigned long long)r->warp);
    html_text(out, r->label);
    fprintf(out, "</b> %s %s %uB, %u lanes: ", coalsim_op_name(r->op), coalsim_space_name(r->space), r->size,
            res->active_threads);
    if (coalsim_space_has_sectors(r->space))
        fprintf(out, "%u sector%s (ideal %u)", res->sectors, res->sectors == 1 ? "" : "s", res->ideal_sectors);
    else
        fprintf(out, "%u wavefront%s (ideal %u)", res->wavefronts, res->wavefronts == 1 ? "" : "s",
                res->ideal_wavefronts);
    fprintf(out, "<br><i>");
    html_text(out, why);
    fprintf(out, "</i></p>\n");
}

int coalsim_report_html(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                        const coalsim_request *reqs, const coalsim_result *ress, size_t nreq)
{
    return coalsim_report_html_exec(out, name, a, st, reqs, ress, nreq, NULL);
}

int coalsim_report_html_exec(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                             const coalsim_request *reqs, const coalsim_result *ress, size_t nreq, const coalsim_exec *e)
{
    coalsim_report_extra ex = {.exec = e};
    return coalsim_report_html_ext(out, name, a, st, reqs, ress, nreq, &ex);
}

int coalsim_report_html_ext(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                            const coalsim_request *reqs, const coalsim_result *ress, size_t nreq,
                            const coalsim_report_extra *ex)
{
    const coalsim_exec *e = ex ? ex->exec : NULL;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>coalsim: ");
    html_text(out, name);
    fprintf(out, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                 "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
                 "td:first-child{text-align:left}.req{margin-bottom:2px}svg{display:block;margin-bottom:1em}"
                 "</style></head><body>\n<h1>coalsim %s: ", COALSIM_VERSION);
    html_text(out, name);
    fprintf(out, "</h1>\n<p>arch %s: warp %u, %u-byte sectors, %u banks x %u bytes</p>\n", a->name, a->warp_size,
            a->sector_bytes, a->banks, a->bank_width);
    if (ex && ex->sample) {
        const coalsim_sample *s = ex->sample;
        fprintf(out, "<p><b>Sampled:</b> %llu of %llu blocks ran (%llu windows of up to %llu consecutive blocks); every "
                     "count is theirs x%.4g, and the requests shown are the sample's.  Estimated error (95%%):",
                (unsigned long long)s->run, (unsigned long long)s->blocks, (unsigned long long)s->windows_run,
                (unsigned long long)s->window, s->factor);
        for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) {
            fprintf(out, "%s %s ", f ? "," : "", coalsim_sample_fig_name((coalsim_sample_fig)f));
            if (s->estimate[f] <= 0) fprintf(out, "-");
            else if (s->error[f] < 0) fprintf(out, "unknown");
            else fprintf(out, "&plusmn;%.2f%%", 100 * s->error[f]);
        }
        fprintf(out, ".</p>\n");
        if (s->loop_jumps)
            fprintf(out, "<p><b>Loops:</b> warps jumped over %llu iterations (%.0f warp instructions) whose addresses "
                         "moved by whole lines, each counted as the last one the warp ran (requests x%.4g).</p>\n",
                    (unsigned long long)s->loop_iters, s->loop_insts, s->loop_factor);
    }
    if (ex) timechart_html(out, ex->time);
    fprintf(out, "<h2>Accesses</h2>\n<table><tr><th>access</th><th>op</th><th>space</th><th>size</th>"
                 "<th>requests</th><th>sectors or wavefronts / request</th><th>ideal / request</th><th>efficiency</th></tr>\n");
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        int g = coalsim_space_has_sectors(ac->space);
        double per = (double)(g ? ac->sectors : ac->wavefronts) / (double)ac->requests;
        double ideal = (double)(g ? ac->ideal_sectors : ac->ideal_wavefronts) / (double)ac->requests;
        double eff = g ? coalsim_access_gmem_efficiency(ac, a) : coalsim_access_smem_efficiency(ac);
        fprintf(out, "<tr><td>");
        html_text(out, ac->label);
        fprintf(out, "</td><td>%s</td><td>%s</td><td>%u</td><td>%llu</td><td>%.2f</td><td>%.2f</td><td>%.1f%%</td></tr>\n",
                coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size, (unsigned long long)ac->requests, per,
                ideal, 100 * eff);
    }
    fprintf(out, "</table>\n");
    report_source_html(out, e, st);
    fprintf(out, "<h2>Each access's fullest request</h2>\n");
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        request_head(out, a, &ac->sample, &ac->sample_result);
        coalsim_picture_svg(out, a, &ac->sample, &ac->sample_result);
    }
    if (nreq) {
        fprintf(out, "<h2>The first %zu requests</h2>\n", nreq);
        for (size_t i = 0; i < nreq; i++) {
            request_head(out, a, &reqs[i], &ress[i]);
            coalsim_picture_svg(out, a, &reqs[i], &ress[i]);
        }
    }
    fprintf(out, "</body></html>\n");
    return ferror(out) ? -1 : 0;
}
