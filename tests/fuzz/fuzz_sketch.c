/* libFuzzer target: the kernel-sketch language on arbitrary text.  Any
 * sketch must either fail with a "NAME:LINE..." message or produce a trace
 * that the trace reader accepts in full. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n > 4096) return 0;
    char *text = malloc(n + 1);
    if (!text) return 0;
    memcpy(text, data, n);
    text[n] = '\0';
    char *buf = NULL, err[600];
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) {
        free(text);
        return 0;
    }
    int rc = coalsim_sketch(text, "f.sketch", NULL, out, 20000, err, sizeof err);
    fclose(out);
    if (rc != 0) {
        if (strncmp(err, "f.sketch:", 9) != 0) abort();        /* every error names the sketch */
    } else {
        FILE *fp = fmemopen(buf, len ? len : 1, "r");
        coalsim_reader *rd = coalsim_reader_new(fp, "t", 32);
        coalsim_request r;
        int k;
        while ((k = coalsim_reader_next(rd, &r)) == 1) {}
        if (k != 0) abort();                                    /* the trace must be valid */
        coalsim_reader_free(rd);
        fclose(fp);
    }
    free(buf);
    free(text);
    return 0;
}
