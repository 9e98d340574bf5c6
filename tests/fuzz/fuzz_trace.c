/* libFuzzer target: the trace reader, both models, the totals, a small memory
 * hierarchy with the time model, and all three report writers (with and
 * without the hierarchy), on arbitrary bytes.  Byte 0 picks the preset, byte 1 the warp
 * size; the rest is the trace.  Besides crashes and sanitizer reports it aborts
 * on any result that breaks the model's invariants (a silently wrong number)
 * and on any difference between the reader's fast path and its general parser. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

static void require(int ok)
{
    if (!ok) abort();
}

/* A profile with every key, latencies and a block tail included. */
static coalsim_profile fuzz_profile(void)
{
    coalsim_profile p = {.dram_read_gbs = 3000, .dram_copy_gbs = 2700, .l2_gbs = 7000, .l1_gbs = 20000,
                         .wavefronts_per_ns = 220, .launch_us = 7, .scatter_load_lines_per_ns = 110,
                         .scatter_store_lines_per_ns = 45, .block_ns = 80, .loaded_points = 3, .tail_points = 2};
    const double lat[COALSIM_LEVELS] = {17, 24, 164, 390}, lat16[COALSIM_LEVELS] = {45, 87, 231, 560};
    memcpy(p.lat_ns, lat, sizeof lat);
    memcpy(p.lat16_ns, lat16, sizeof lat16);
    const double gbs[3] = {500, 2500, 2900}, ns[3] = {570, 870, 6000}, tw[2] = {8, 32}, tail[2] = {1.3, 1.6};
    memcpy(p.loaded_gbs, gbs, sizeof gbs);
    memcpy(p.loaded_ns, ns, sizeof ns);
    memcpy(p.tail_warps, tw, sizeof tw);
    memcpy(p.tail, tail, sizeof tail);
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n < 3) return 0;
    const char *const *names = coalsim_arch_names();
    size_t count = 0;
    while (names[count]) count++;
    coalsim_arch a;
    require(coalsim_arch_preset(names[data[0] % count], &a) == 0);
    a.warp_size = 1 + data[1] % 32;
    FILE *fp = fmemopen((void *)(data + 2), n - 2, "r");
    if (!fp) return 0;
    /* a second reader on the general parser only: both must agree exactly */
    FILE *fp2 = fmemopen((void *)(data + 2), n - 2, "r");
    coalsim_reader *rd = coalsim_reader_new(fp, "fuzz", a.warp_size);
    coalsim_reader *ref = fp2 ? coalsim_reader_new(fp2, "fuzz", a.warp_size) : NULL;
    coalsim_stats *st = coalsim_stats_new();
    /* small caches: the same code as the H100's, at a fuzzer's speed */
    const coalsim_hier_cfg hcfg = {.sms = 4, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 65536, .l2_ways = 8,
                                   .fetch = 64};
    const coalsim_profile prof = fuzz_profile();
    const coalsim_sm_limits lim = {2048, 32, 228 * 1024};
    coalsim_hier *hier = coalsim_hier_new(&hcfg);
    coalsim_timing *timing = coalsim_timing_new(&prof, hcfg.sms, &lim, a.warp_size, 1 + data[1] / 32 % 16);
    require(rd && ref && st && hier && timing);
    coalsim_reader_simple(ref);
    coalsim_request r, q;
    coalsim_result res;
    int rc, rc2;
    while ((rc = coalsim_reader_next(rd, &r)) == 1) {
        require(coalsim_reader_next(ref, &q) == 1);
        require(q.op == r.op && q.space == r.space && q.size == r.size && q.block == r.block && q.warp == r.warp &&
                q.active == r.active && q.line == r.line && strcmp(q.label, r.label) == 0);
        for (unsigned l = 0; l < 32; l++) require(!(r.active >> l & 1) || r.addr[l] == q.addr[l]);
        require(r.active != 0 && (a.warp_size == 32 || (r.active >> a.warp_size) == 0));
        coalsim_model(&a, &r, &res);
        require(res.active_threads == (unsigned)__builtin_popcount(r.active));
        require(res.requested_bytes >= r.size && res.requested_bytes <= res.active_threads * r.size);
        if (coalsim_space_has_sectors(r.space)) {   /* global and local: sectors */
            require(res.sectors >= res.ideal_sectors && res.ideal_sectors >= 1);
            require(res.sectors <= res.active_threads * (r.size / a.sector_bytes + 1));
            require(res.lines >= 1 && res.lines <= res.sectors);
        } else {
            require(res.wavefronts >= res.ideal_wavefronts && res.ideal_wavefronts >= 1);
            require(res.max_ways >= 1 && res.max_ways <= COALSIM_MAX_WARP * 4 + 1 && res.worst_bank < a.banks);
            require(res.wavefronts <= res.phases * res.max_ways);
        }
        require(coalsim_stats_add(st, &r, &res) == 0);
        coalsim_hier_counts d = {0};
        coalsim_hier_request(hier, &r, &d);
        require(d.l1_hits <= d.l1_sectors && d.l2_hits <= d.l2_sectors);
        coalsim_stats_add_hier(st, &d);
        require(coalsim_timing_request(timing, &r, &res, &d) == 0);
    }
    rc2 = coalsim_reader_next(ref, &q);
    require(rc == rc2);
    if (rc < 0) require(strcmp(coalsim_reader_error(rd), coalsim_reader_error(ref)) == 0);
    char *buf = NULL;
    size_t len = 0;
    coalsim_hier_counts total;
    coalsim_stats_hier_total(st, &total);
    coalsim_time tm;
    require(coalsim_timing_finish(timing, &total, NULL, &tm) == 0);
    require(tm.total_us >= tm.launch_us && tm.total_us < 1e300 && tm.bound && tm.block_tail >= 1);
    const coalsim_report_extra ex = {.hier = &hcfg, .dirty = coalsim_hier_dirty_bytes(hier), .time = &tm,
                                     .requests_json = ""};
    FILE *out = open_memstream(&buf, &len);
    if (out) {
        coalsim_report(out, COALSIM_TEXT, "fuzz", &a, st);
        coalsim_report(out, COALSIM_JSON, "fuzz", &a, st);
        coalsim_report(out, COALSIM_CSV, "fuzz", &a, st);
        for (int f = COALSIM_TEXT; f <= COALSIM_CSV; f++) coalsim_report_ext(out, (coalsim_format)f, "fuzz", &a, st, &ex);
        fclose(out);
        free(buf);
    }
    coalsim_hier_free(hier);
    coalsim_timing_free(timing);
    coalsim_stats_free(st);
    coalsim_reader_free(rd);
    coalsim_reader_free(ref);
    fclose(fp);
    fclose(fp2);
    return 0;
}
