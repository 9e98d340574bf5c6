/* One warp request given as plain values, lane by lane (language bindings,
 * small programs): checked as a trace record is, then analysed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coalsim.h"

static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* The index of S among WORDS[0..n), or -1. */
static int word(const char *s, const char *const *words, int n)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, words[i]) == 0) return i;
    return -1;
}

int coalsim_analysis_put_lanes(coalsim_analysis *an, const char *op, const char *space, unsigned size, uint64_t block,
                               uint64_t warp, uint32_t active, const uint64_t *addr, const char *label, char *err,
                               size_t cap)
{
    /* a trace's ops: cp.async needs its destinations too */
    static const char *const ops[] = {"ld", "st", "atom", "red", "ldsm", "stsm"};
    static const char *const spaces[] = {"global", "shared", "local", "const"};
    coalsim_request r = {.size = size, .block = block, .warp = warp, .active = active, .label = label};
    int o = word(op, ops, (int)(sizeof ops / sizeof ops[0])), s = word(space, spaces, COALSIM_SPACES);
    if (o < 0) return fail(err, cap, "unknown op '%.40s' (expected ld, st, atom, red, ldsm or stsm)", op ? op : "");
    if (s < 0) return fail(err, cap, "unknown space '%.40s' (expected global, shared, local or const)", space ? space : "");
    if (o >= COALSIM_LDSM && (s != COALSIM_SHARED || size != 16))
        return fail(err, cap, "%s is a shared access of 16 bytes a lane (one row of an 8x8 matrix of 16-bit elements)", ops[o]);
    r.op = (coalsim_op)o;
    r.space = (coalsim_space)s;
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
        return fail(err, cap, "size %u is not 1, 2, 4, 8 or 16", size);
    size_t n = label ? strlen(label) : 0;
    if (n == 0 || n > COALSIM_MAX_LABEL) return fail(err, cap, "a label needs 1 to %d bytes", COALSIM_MAX_LABEL);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)label[i] < 0x20 || label[i] == 0x7f) return fail(err, cap, "the label has a control character");
    if (!active) return fail(err, cap, "no lane is active");
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++) {
        if (!(active >> l & 1)) continue;
        uint64_t a = addr[l];
        const char *why = NULL;
        if (a % size) why = "is not aligned to the access's size";
        else if (a > UINT64_MAX - (size - 1)) why = "plus the size wraps past 2^64";
        else if (r.space == COALSIM_SHARED && a > 0xffffffffull - (size - 1)) why = "is beyond the 4 GiB shared window";
        if (why) return fail(err, cap, "lane %u's address 0x%llx %s (%u bytes)", l, (unsigned long long)a, why, size);
        r.addr[l] = a;
    }
    if (coalsim_analysis_put(an, &r) != 0) return fail(err, cap, "%s", coalsim_analysis_error(an));
    return 0;
}
