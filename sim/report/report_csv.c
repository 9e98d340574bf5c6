/* The CSV report: one row an access, the same columns for every space (a
 * space's columns empty where they do not apply). */
#include <string.h>

#include "coalsim.h"
#include "writers.h"

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

void report_csv(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                const coalsim_report_extra *ex)
{
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        int sec = coalsim_space_has_sectors(ac->space);
        csv_str(out, name);
        fputc(',', out);
        csv_str(out, ac->label);
        fprintf(out, ",%s,%s,%u,%llu,%llu,%llu,", coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size,
                (unsigned long long)ac->requests, (unsigned long long)ac->active_threads,
                (unsigned long long)ac->requested_bytes);
        if (sec)
            fprintf(out, "%llu,%llu,%llu,,,,,,%.6g", (unsigned long long)ac->sectors,
                    (unsigned long long)ac->ideal_sectors, (unsigned long long)ac->lines,
                    coalsim_access_gmem_efficiency(ac, a));
        else
            fprintf(out, ",,,%llu,%llu,%llu,%u,%u,%.6g", (unsigned long long)ac->wavefronts,
                    (unsigned long long)ac->ideal_wavefronts,
                    (unsigned long long)(ac->wavefronts - ac->ideal_wavefronts), ac->max_ways, ac->worst_bank,
                    coalsim_access_smem_efficiency(ac));
        const coalsim_hier_counts *h = &ac->hier;
        if (ex && ex->hier && sec)
            fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)ac->lines, (unsigned long long)h->l1_sectors,
                    (unsigned long long)h->l1_hits, (unsigned long long)h->l2_sectors, (unsigned long long)h->l2_hits,
                    (unsigned long long)h->dram_read);
        else if (ex && ex->hier)
            fputs(",,,,,,", out);
        fputc('\n', out);
    }
}
