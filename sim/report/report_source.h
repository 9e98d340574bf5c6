/* The source view of a kernel's run (report_source.c). */
#ifndef COALSIM_REPORT_SOURCE_H
#define COALSIM_REPORT_SOURCE_H

#include <stdio.h>
#include <stdlib.h>

#include "coalsim.h"

/* Text: source lines in the order they first appear, each with its
 * instructions and their counts.  Nothing when E has no instructions. */
void report_source_text(FILE *out, const coalsim_exec *e, const coalsim_stats *st);
/* JSON: ",\n \"source\": [...]", one object an instruction. */
void report_source_json(FILE *out, const coalsim_exec *e, const coalsim_stats *st);

/* HTML: a table, source lines as header rows (nothing without instructions). */
void report_source_html(FILE *out, const coalsim_exec *e, const coalsim_stats *st);

#endif
