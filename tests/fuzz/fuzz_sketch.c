/* libFuzzer target: the kernel-sketch language on arbitrary text.  Any
 * sketch must either fail with a "NAME:LINE..." message or run; and the
 * compiled runner must agree with the old one (tests/sketch_oracle.c) on the
 * requests, their lines, the text trace and every error, with 32-lane warps
 * and with warps of 7 lanes that cut the sketch's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sketch_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n > 4096) return 0;
    char *text = malloc(n + 1);
    if (!text) return 0;
    memcpy(text, data, n);
    text[n] = '\0';
    char err[600], why[800];
    coalsim_sketch *sk = coalsim_sketch_compile(text, "f.sketch", NULL, err, sizeof err);
    if (!sk && strncmp(err, "f.sketch:", 9) != 0) abort();       /* every error names the sketch */
    coalsim_sketch_free(sk);
    for (int k = 0; k < 2; k++) {
        const char *diff = cmp_sketch(text, NULL, k ? 7 : 32, 20000, why, sizeof why);
        if (diff) {
            fprintf(stderr, "the compiled sketch differs from the old runner: %s\n", diff);
            abort();
        }
    }
    free(text);
    return 0;
}
