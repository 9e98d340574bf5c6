/* The report writers, one a format; report.c picks one. */
#ifndef COALSIM_REPORT_WRITERS_H
#define COALSIM_REPORT_WRITERS_H

#include <stdio.h>

#include "coalsim.h"

void report_text(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                 const coalsim_report_extra *ex);
void report_json(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                 const coalsim_report_extra *ex);
void report_csv(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                const coalsim_report_extra *ex);

#endif
