/* Occupancy: how many blocks of a launch a SM holds at once, by the rules
 * of the CUDA occupancy calculator (cuda_occupancy.h, the CUDA C
 * Programming Guide's table of compute capabilities).  For sm_90: 64 warps
 * and 32 blocks a SM; 65536 registers a SM in 4 sub-partitions of 16384,
 * a warp's registers rounded up to 256 and taken from one sub-partition;
 * 228 KiB of shared memory a SM, each block's rounded up to 128 bytes after
 * the 1 KiB the system reserves for it.  The limits Nsight Compute reported
 * for the outside suite's launches on the H100 (launch__occupancy_limit_*)
 * are the test cases (tests/check_timing.c). */
#include <string.h>

#include "coalsim.h"

int coalsim_sm_limits_preset(const char *arch, coalsim_sm_limits *lim)
{
    if (strcmp(arch, "hopper") != 0) return -1;
    *lim = (coalsim_sm_limits){.threads = 2048, .blocks = 32, .smem_bytes = 228 * 1024, .warps = 64, .regs = 65536,
                               .reg_unit = 256, .subpartitions = 4, .smem_reserved = 1024, .smem_unit = 128};
    return 0;
}

static uint64_t round_up(uint64_t x, uint64_t unit) { return unit ? (x + unit - 1) / unit * unit : x; }

int coalsim_occupancy_of(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem,
                         coalsim_occupancy *out)
{
    memset(out, 0, sizeof *out);
    unsigned warps = (threads + 31) / 32, max_warps = lim->warps ? lim->warps : lim->threads / 32;
    out->by_blocks = lim->blocks;
    out->by_warps = warps ? max_warps / warps : 0;
    out->by_regs = out->by_blocks;
    if (regs && lim->regs) {
        unsigned parts = lim->subpartitions ? lim->subpartitions : 1;
        uint64_t per_warp = round_up((uint64_t)regs * 32, lim->reg_unit);
        uint64_t in_part = (uint64_t)(lim->regs / parts) / per_warp;      /* warps one sub-partition holds */
        out->by_regs = warps ? (unsigned)(in_part * parts / warps) : 0;
    }
    uint64_t block_smem = round_up(smem + lim->smem_reserved, lim->smem_unit);
    out->by_smem = block_smem ? (unsigned)(lim->smem_bytes / block_smem) : out->by_blocks;
    out->blocks = out->by_blocks, out->limit = "blocks";
    if (out->by_warps < out->blocks) out->blocks = out->by_warps, out->limit = "warps";
    if (out->by_regs < out->blocks) out->blocks = out->by_regs, out->limit = "registers";
    if (out->by_smem < out->blocks) out->blocks = out->by_smem, out->limit = "shared memory";
    out->warps = out->blocks * warps;
    return out->blocks ? 0 : -1;
}
