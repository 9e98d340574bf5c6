/* One warp request given as plain values, lane by lane (language bindings,
 * small programs): checked as a trace record is, then analysed. */
#include <stdio.h>
#include <string.h>

#include "coalsim.h"

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
    static const char *const ops[] = {"ld", "st", "atom", "red"};
    static const char *const spaces[] = {"global", "shared", "local", "const"};
    coalsim_request r = {.size = size, .block = block, .warp = warp, .active = active, .label = label};
    int o = word(op, ops, COALSIM_OPS), s = word(space, spaces, COALSIM_SPACES);
    if (o < 0) return snprintf(err, cap, "unknown op '%.40s' (expected ld, st, atom or red)", op ? op : ""), -1;
    if (s < 0)
        return snprintf(err, cap, "unknown space '%.40s' (expected global, shared, local or const)", space ? space : ""), -1;
    r.op = (coalsim_op)o;
    r.space = (coalsim_space)s;
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
        return snprintf(err, cap, "size %u is not 1, 2, 4, 8 or 16", size), -1;
    size_t n = label ? strlen(label) : 0;
    if (n == 0 || n > COALSIM_MAX_LABEL) return snprintf(err, cap, "a label needs 1 to %d bytes", COALSIM_MAX_LABEL), -1;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)label[i] < 0x20 || label[i] == 0x7f)
            return snprintf(err, cap, "the label has a control character"), -1;
    if (!active) return snprintf(err, cap, "no lane is active"), -1;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++) {
        if (!(active >> l & 1)) continue;
        uint64_t a = addr[l];
        const char *why = a % size ? "is not aligned to the access's size"
                          : a > UINT64_MAX - (size - 1) ? "plus the size wraps past 2^64"
                          : r.space == COALSIM_SHARED && a > 0xffffffffull - (size - 1) ? "is beyond the 4 GiB shared window"
                          : NULL;
        if (why) return snprintf(err, cap, "lane %u's address 0x%llx %s (%u bytes)", l, (unsigned long long)a, why, size), -1;
        r.addr[l] = a;
    }
    if (coalsim_analysis_put(an, &r) != 0) return snprintf(err, cap, "%s", coalsim_analysis_error(an)), -1;
    return 0;
}
