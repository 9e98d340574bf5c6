/* libFuzzer target: the trace reader, both models, the totals and all three
 * report writers, on arbitrary bytes.  Byte 0 picks the preset, byte 1 the warp
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
    require(rd && ref && st);
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
        if (r.space == COALSIM_GLOBAL) {
            require(res.sectors >= res.ideal_sectors && res.ideal_sectors >= 1);
            require(res.sectors <= res.active_threads * (r.size / a.sector_bytes + 1));
            require(res.lines >= 1 && res.lines <= res.sectors);
        } else {
            require(res.wavefronts >= res.ideal_wavefronts && res.ideal_wavefronts >= 1);
            require(res.max_ways >= 1 && res.max_ways <= COALSIM_MAX_WARP * 4 + 1 && res.worst_bank < a.banks);
            require(res.wavefronts <= res.phases * res.max_ways);
        }
        require(coalsim_stats_add(st, &r, &res) == 0);
    }
    rc2 = coalsim_reader_next(ref, &q);
    require(rc == rc2);
    if (rc < 0) require(strcmp(coalsim_reader_error(rd), coalsim_reader_error(ref)) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (out) {
        coalsim_report(out, COALSIM_TEXT, "fuzz", &a, st);
        coalsim_report(out, COALSIM_JSON, "fuzz", &a, st);
        coalsim_report(out, COALSIM_CSV, "fuzz", &a, st);
        fclose(out);
        free(buf);
    }
    coalsim_stats_free(st);
    coalsim_reader_free(rd);
    coalsim_reader_free(ref);
    fclose(fp);
    fclose(fp2);
    return 0;
}
