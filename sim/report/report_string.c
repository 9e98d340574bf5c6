/* A report in memory rather than on a stream (language bindings: Python
 * reads the JSON report with json.loads), and the free that goes with it. */
#include <stdio.h>
#include <stdlib.h>

#include "coalsim.h"

char *coalsim_analysis_report_string(const coalsim_analysis *an, coalsim_format fmt, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) return NULL;
    int bad = coalsim_analysis_report(out, fmt, name, an, NULL) != 0;
    if (fclose(out) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

void coalsim_free(void *p) { free(p); }
