/* An analysis configured by names alone, for callers that cannot build a
 * coalsim_analysis_cfg: language bindings (python/coalsim), small programs. */
#include <stdio.h>
#include <string.h>

#include "coalsim.h"

coalsim_analysis *coalsim_analysis_new_preset(const char *arch, unsigned warp_size, int hier, char *err, size_t cap)
{
    coalsim_analysis_cfg cfg = {.mlp = 16};
    coalsim_hier_cfg hcfg;
    if (!arch || coalsim_arch_preset(arch, &cfg.arch) != 0) {
        snprintf(err, cap, "unknown architecture '%.40s' (one of:%s)", arch ? arch : "(null)",
                 " fermi kepler kepler32 maxwell pascal volta turing ampere ada hopper");
        return NULL;
    }
    if (warp_size) cfg.arch.warp_size = warp_size;
    const char *bad = coalsim_arch_check(&cfg.arch);
    if (bad) {
        snprintf(err, cap, "%s", bad);
        return NULL;
    }
    if (hier) {
        if (coalsim_hier_preset(cfg.arch.name, &hcfg) != 0) {
            snprintf(err, cap, "the memory hierarchy is modelled for the hopper preset only, not %s", cfg.arch.name);
            return NULL;
        }
        cfg.hier = &hcfg;
    }
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    if (!an) snprintf(err, cap, "out of memory");
    return an;
}
