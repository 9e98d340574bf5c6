/* The report entry points: one writer a format (report_text.c,
 * report_json.c, report_csv.c), each writing only to the stream given. */
#include "coalsim.h"
#include "writers.h"

int coalsim_report_ext(FILE *out, coalsim_format fmt, const char *trace_name, const coalsim_arch *a,
                       const coalsim_stats *st, const coalsim_report_extra *ex)
{
    if (fmt == COALSIM_JSON) report_json(out, trace_name, a, st, ex);
    else if (fmt == COALSIM_CSV) report_csv(out, trace_name, a, st, ex);
    else report_text(out, trace_name, a, st, ex);
    return ferror(out) ? -1 : 0;
}

int coalsim_report(FILE *out, coalsim_format fmt, const char *trace_name, const coalsim_arch *a,
                   const coalsim_stats *st)
{
    return coalsim_report_ext(out, fmt, trace_name, a, st, NULL);
}
