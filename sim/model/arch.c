/* Architecture presets and the checks on knobs that override them. */
#include <string.h>

#include "coalsim.h"

/*
 * Shared-memory rules per preset:
 *  - fermi: CUDA C Programming Guide, CC 2.x: 32 banks of 4 bytes; 64-bit
 *    accesses conflict only within a half-warp; "the majority of 128-bit
 *    accesses will cause 2-way bank conflicts", one more way than the worst
 *    quarter-warp.
 *  - kepler, kepler32: CC 3.x: 32 banks of 8 bytes, 64-bit or 32-bit address
 *    mode; lanes touching the same 64-bit bank row never conflict.
 *  - maxwell, pascal: 32 banks of 4 bytes; 8/16-byte accesses split into
 *    half/quarter warps (not measured here).
 *  - volta .. hopper: 32 banks of 4 bytes and the split measured on the H100
 *    (gpu/probes/h100-sm90.txt): 8/16-byte accesses are served a half/quarter
 *    warp per wavefront, loads twice as many lanes when all active lanes n
 *    with an active partner have addr[n] == addr[n^1] (or addr[n^2]).  An
 *    NVIDIA engineer described the same pairing for CC 7.0-7.5; ampere and
 *    ada are assumed to follow it.
 * Global memory: 32-byte sectors and 128-byte lines on all of them, the
 * L2-only view the seed documents use.
 */
static const char *const names[] = {"fermi", "kepler", "kepler32", "maxwell", "pascal", "volta",
                                     "turing", "ampere", "ada", "hopper", NULL};

const char *const *coalsim_arch_names(void) { return names; }

int coalsim_arch_preset(const char *name, coalsim_arch *out)
{
    size_t i;
    for (i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) break;
    if (!names[i]) return -1;
    memset(out, 0, sizeof *out);
    strcpy(out->name, names[i]);
    out->warp_size = 32;
    out->sector_bytes = 32;
    out->line_bytes = 128;
    out->banks = 32;
    out->bank_width = 4;
    out->bank_mode = 32;
    if (i == 0) {
        out->split = COALSIM_SPLIT_FERMI;
    } else if (i == 1 || i == 2) {
        out->bank_width = 8;
        out->bank_mode = i == 1 ? 64 : 32;
        out->split = COALSIM_SPLIT_PLAIN;
    } else if (i <= 4) {
        out->split = COALSIM_SPLIT_PLAIN;
    } else {
        out->split = COALSIM_SPLIT_HW;
    }
    return 0;
}

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

const char *coalsim_arch_check(const coalsim_arch *a)
{
    if (a->warp_size < 1 || a->warp_size > COALSIM_MAX_WARP)
        return "warp size must be 1 to 32";
    if (!pow2(a->sector_bytes) || a->sector_bytes > 4096)
        return "sector size must be a power of two from 1 to 4096 bytes";
    if (!pow2(a->line_bytes) || a->line_bytes < a->sector_bytes)
        return "line size must be a power of two no smaller than the sector";
    if (!pow2(a->banks) || a->banks > 64)
        return "bank count must be a power of two from 1 to 64";
    if (a->bank_width != 4 && a->bank_width != 8)
        return "bank width must be 4 or 8 bytes";
    if (a->bank_mode != 32 && a->bank_mode != 64)
        return "bank mode must be 32 or 64";
    if (a->bank_mode == 64 && a->bank_width != 8)
        return "bank mode 64 needs 8-byte banks";
    return NULL;
}
