/* The source view: every instruction of the code that ran, grouped by its
 * source line in code order, with what it executed and, for a memory
 * instruction, its access's requests and sectors or wavefronts: what
 * Nsight Compute's Source page shows beside each line. */
#include <string.h>

#include "report_source.h"

/* The access of instruction I (by its label), or NULL. */
static const coalsim_access *access_of(const coalsim_stats *st, const coalsim_inst *in)
{
    if (!in->label) return NULL;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *x = coalsim_stats_get(st, i);
        if (x->label && !strcmp(x->label, in->label)) return x;
    }
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "?";
}

static int same_line(const coalsim_inst *a, const coalsim_inst *b)
{
    if (a->src_line != b->src_line) return 0;
    if (!a->file || !b->file) return a->file == b->file;
    return !strcmp(a->file, b->file);
}

/* Instructions of one line are listed together, lines in the order they
 * first appear. */
void report_source_text(FILE *out, const coalsim_exec *e, const coalsim_stats *st)
{
    if (!e || !e->insts) return;
    const coalsim_inst *v = e->insts;
    size_t n = e->ninsts;
    int sass = e->isa && !strcmp(e->isa, "SASS");
    fprintf(out, "\nSource (every %s instruction under its source line, as Nsight Compute's Source page)\n",
            e->isa ? e->isa : "");
    fprintf(out, "  %-8s %12s %13s %10s %10s %10s  %s\n", sass ? "address" : "index", "warp inst", "thread inst",
            "requests", "sectors", "wavefronts", "instruction");
    unsigned char *done = calloc(n ? n : 1, 1);
    if (!done) return;
    for (size_t i = 0; i < n; i++) {
        if (done[i]) continue;
        uint64_t ex = 0, th = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && same_line(&v[i], &v[j])) ex += v[j].executed, th += v[j].threads;
        if (v[i].src_line)
            fprintf(out, "  %s:%u  (%llu warp, %llu thread instructions)\n", base_name(v[i].file), v[i].src_line,
                    (unsigned long long)ex, (unsigned long long)th);
        else
            fprintf(out, "  (no source line)  (%llu warp, %llu thread instructions)\n", (unsigned long long)ex,
                    (unsigned long long)th);
        for (size_t j = i; j < n; j++) {
            if (done[j] || !same_line(&v[i], &v[j])) continue;
            done[j] = 1;
            const coalsim_access *x = access_of(st, &v[j]);
            char addr[24], req[24] = "", sec[24] = "", wf[24] = "";
            snprintf(addr, sizeof addr, sass ? "%04llx" : "%llu", (unsigned long long)v[j].addr);
            if (x) {
                snprintf(req, sizeof req, "%llu", (unsigned long long)x->requests);
                if (coalsim_space_has_sectors(x->space)) snprintf(sec, sizeof sec, "%llu", (unsigned long long)x->sectors);
                else snprintf(wf, sizeof wf, "%llu", (unsigned long long)x->wavefronts);
            }
            fprintf(out, "    %-6s %12llu %13llu %10s %10s %10s  %s\n", addr, (unsigned long long)v[j].executed,
                    (unsigned long long)v[j].threads, req, sec, wf, v[j].text ? v[j].text : "?");
        }
    }
    free(done);
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void report_source_json(FILE *out, const coalsim_exec *e, const coalsim_stats *st)
{
    if (!e || !e->insts) return;
    fprintf(out, ",\n \"source\": [");
    for (size_t i = 0; i < e->ninsts; i++) {
        const coalsim_inst *v = &e->insts[i];
        fprintf(out, "%s\n  {\"addr\": %llu, \"line\": %u, \"file\": ", i ? "," : "", (unsigned long long)v->addr, v->line);
        if (v->file) json_string(out, v->file);
        else fprintf(out, "null");
        fprintf(out, ", \"src_line\": %u, \"text\": ", v->src_line);
        json_string(out, v->text);
        fprintf(out, ", \"executed\": %llu, \"threads\": %llu, \"label\": ", (unsigned long long)v->executed,
                (unsigned long long)v->threads);
        if (v->label) json_string(out, v->label);
        else fprintf(out, "null");
        const coalsim_access *x = access_of(st, v);
        if (x) {
            fprintf(out, ", \"requests\": %llu", (unsigned long long)x->requests);
            if (coalsim_space_has_sectors(x->space)) fprintf(out, ", \"sectors\": %llu", (unsigned long long)x->sectors);
            else fprintf(out, ", \"wavefronts\": %llu", (unsigned long long)x->wavefronts);
        }
        fputc('}', out);
    }
    fprintf(out, "]");
}

static void html_escaped(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<') fputs("&lt;", out);
        else if (*s == '>') fputs("&gt;", out);
        else if (*s == '&') fputs("&amp;", out);
        else if (*s == '"') fputs("&quot;", out);
        else fputc(*s, out);
    }
}

void report_source_html(FILE *out, const coalsim_exec *e, const coalsim_stats *st)
{
    if (!e || !e->insts) return;
    const coalsim_inst *v = e->insts;
    size_t n = e->ninsts;
    int sass = e->isa && !strcmp(e->isa, "SASS");
    fprintf(out, "<h2>Source: every %s instruction under its source line</h2>\n<table><tr><th>%s</th>"
                 "<th>warp instructions</th><th>thread instructions</th><th>requests</th><th>sectors</th>"
                 "<th>wavefronts</th><th>instruction</th></tr>\n",
            e->isa ? e->isa : "", sass ? "address" : "index");
    unsigned char *done = calloc(n ? n : 1, 1);
    if (!done) return;
    for (size_t i = 0; i < n; i++) {
        if (done[i]) continue;
        uint64_t ex = 0, th = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && same_line(&v[i], &v[j])) ex += v[j].executed, th += v[j].threads;
        fprintf(out, "<tr style=\"background:#eef\"><td>");
        if (v[i].src_line) {
            html_escaped(out, base_name(v[i].file));
            fprintf(out, ":%u", v[i].src_line);
        } else {
            fprintf(out, "(no source line)");
        }
        fprintf(out, "</td><td>%llu</td><td>%llu</td><td></td><td></td><td></td><td></td></tr>\n",
                (unsigned long long)ex, (unsigned long long)th);
        for (size_t j = i; j < n; j++) {
            if (done[j] || !same_line(&v[i], &v[j])) continue;
            done[j] = 1;
            const coalsim_access *x = access_of(st, &v[j]);
            fprintf(out, sass ? "<tr><td>%04llx</td>" : "<tr><td>%llu</td>", (unsigned long long)v[j].addr);
            fprintf(out, "<td>%llu</td><td>%llu</td>", (unsigned long long)v[j].executed, (unsigned long long)v[j].threads);
            if (x && coalsim_space_has_sectors(x->space))
                fprintf(out, "<td>%llu</td><td>%llu</td><td></td>", (unsigned long long)x->requests,
                        (unsigned long long)x->sectors);
            else if (x)
                fprintf(out, "<td>%llu</td><td></td><td>%llu</td>", (unsigned long long)x->requests,
                        (unsigned long long)x->wavefronts);
            else
                fprintf(out, "<td></td><td></td><td></td>");
            fprintf(out, "<td style=\"text-align:left;font-family:monospace\">");
            html_escaped(out, v[j].text);
            fprintf(out, "</td></tr>\n");
        }
    }
    fprintf(out, "</table>\n");
    free(done);
}
