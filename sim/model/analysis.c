/* The analysis: the consumer of the request stream.  Each request is
 * modelled (route.c), added to its access (stats.c), run through the caches
 * (hier.c) and the time model (timing.c) when asked, and handed to the
 * caller's per-request callback. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

struct coalsim_analysis {
    coalsim_arch arch;
    coalsim_hier_cfg hcfg;
    coalsim_each_fn each;
    void *each_ctx;
    coalsim_stats *st;
    coalsim_hier *hier;           /* NULL: no cache model */
    coalsim_timing *timing;       /* NULL: no time prediction */
    coalsim_time time;
    int timed;                    /* time holds the prediction */
    coalsim_exec exec;
    int has_exec;
    coalsim_inst *insts;       /* exec.insts, owned: one block with the strings after the array */
    int source;                /* cfg->source */
    coalsim_l2_start l2;       /* cfg->l2 */
    double prev_us;            /* the time of the launch whose L2 this one inherited, or 0 */
    coalsim_sample sample;     /* the counts are this sample's, extrapolated (sample.sampled) */
    int l2_unknown;            /* it was to inherit a sampled launch's L2: started cold instead */
    uint64_t loop_dirty;       /* bytes the stores of loop iterations jumped over would have left dirty in L2 */
    char err[128];
};

/* The bytes left dirty in L2: the cache model's, and the jumped stores' */
static uint64_t dirty_of(const coalsim_analysis *an)
{
    return an->hier ? coalsim_hier_dirty_bytes(an->hier) + an->loop_dirty : 0;
}

static int fail(coalsim_analysis *an, const char *why)
{
    snprintf(an->err, sizeof an->err, "%s", why);
    return -1;
}

coalsim_analysis *coalsim_analysis_new(const coalsim_analysis_cfg *cfg)
{
    coalsim_analysis *an = calloc(1, sizeof *an);
    if (!an) return NULL;
    an->arch = cfg->arch;
    an->source = cfg->source;
    an->l2 = cfg->l2;
    an->each = cfg->each;
    an->each_ctx = cfg->each_ctx;
    an->st = coalsim_stats_new();
    if (!an->st) goto fail;
    if (cfg->hier) {
        an->hcfg = *cfg->hier;
        if (!(an->hier = coalsim_hier_new(cfg->hier))) goto fail;
        if (cfg->profile) {
            if (!cfg->limits) goto fail;
            an->timing = coalsim_timing_new(cfg->profile, cfg->hier->sms, cfg->limits, cfg->arch.warp_size,
                                            cfg->mlp ? cfg->mlp : 16);
            if (!an->timing) goto fail;
        }
    }
    return an;
fail:
    coalsim_analysis_free(an);
    return NULL;
}

void coalsim_analysis_free(coalsim_analysis *an)
{
    if (!an) return;
    coalsim_stats_free(an->st);
    coalsim_hier_free(an->hier);
    coalsim_timing_free(an->timing);
    free(an->insts);
    free(an);
}

int coalsim_analysis_put(coalsim_analysis *an, const coalsim_request *r)
{
    coalsim_result res;
    coalsim_model(&an->arch, r, &res);
    return coalsim_analysis_put_modelled(an, r, &res);
}

int coalsim_analysis_put_modelled(coalsim_analysis *an, const coalsim_request *r, const coalsim_result *rp)
{
    coalsim_result res = *rp;
    coalsim_hier_counts d = {0};
    if (coalsim_stats_add(an->st, r, &res) != 0) return fail(an, "out of memory");
    if (an->hier) {
        coalsim_hier_request(an->hier, r, &d);
        coalsim_stats_add_hier(an->st, &d);
        if (an->timing && coalsim_timing_request(an->timing, r, &res, &d) != 0) return fail(an, "out of memory");
    }
    if (an->each && an->each(an->each_ctx, r, &res, an->hier ? &d : NULL) != 0)
        return fail(an, "the per-request report could not be written");
    return 0;
}

static int put(void *ctx, const coalsim_request *r) { return coalsim_analysis_put(ctx, r); }

static int put_modelled(void *ctx, const coalsim_request *r, const coalsim_result *res)
{
    return coalsim_analysis_put_modelled(ctx, r, res);
}

coalsim_sink coalsim_analysis_sink(coalsim_analysis *an) { return (coalsim_sink){put, an, put_modelled}; }

int coalsim_analysis_merge(coalsim_analysis *dst, const coalsim_analysis *src)
{
    return coalsim_analysis_merge_at(dst, src, 0);
}

int coalsim_analysis_merge_at(coalsim_analysis *dst, const coalsim_analysis *src, unsigned long lines)
{
    if (dst->hier || src->hier) return fail(dst, "a cache model cannot be merged");
    if (coalsim_stats_merge_at(dst->st, src->st, lines) != 0) return fail(dst, "out of memory");
    if (src->has_exec) {
        if (!dst->has_exec) dst->exec = (coalsim_exec){.isa = src->exec.isa};
        dst->has_exec = 1;
        coalsim_exec *d = &dst->exec;
        const coalsim_exec *s = &src->exec;
        coalsim_exec_add(d, s);
        /* the same code: its counts add up; other code: no source view */
        int same = dst->insts && s->ninsts == d->ninsts;
        for (size_t i = 0; same && i < s->ninsts; i++) same = s->insts[i].addr == d->insts[i].addr;
        if (same) {
            for (size_t i = 0; i < s->ninsts; i++) {
                dst->insts[i].executed += s->insts[i].executed;
                dst->insts[i].threads += s->insts[i].threads;
            }
        } else {
            free(dst->insts);
            dst->insts = NULL;
            d->insts = NULL;
            d->ninsts = 0;
        }
    }
    return 0;
}

static size_t slen(const char *s) { return s ? strlen(s) + 1 : 0; }

void coalsim_exec_add(coalsim_exec *d, const coalsim_exec *s)
{
    if (!d->isa) d->isa = s->isa;
    d->blocks += s->blocks;
    d->warps_launched += s->warps_launched;
    d->inst_executed += s->inst_executed;
    d->thread_inst_executed += s->thread_inst_executed;
    for (int sp = 0; sp < COALSIM_SPACES; sp++)
        for (int op = 0; op < COALSIM_OPS; op++) d->inst_mem[sp][op] += s->inst_mem[sp][op];
    for (int k = 0; k < 3; k++) d->inst_mma[k] += s->inst_mma[k];
    d->inst_gmma += s->inst_gmma;
    d->gmma_smem_bytes += s->gmma_smem_bytes;
    d->bulk_bytes_multicast += s->bulk_bytes_multicast;
    d->bulk_bytes_red += s->bulk_bytes_red, d->bulk_bytes_red_dshared += s->bulk_bytes_red_dshared;
    for (int k = 0; k < 3; k++) d->dshared_requests[k] += s->dshared_requests[k], d->dshared_sectors[k] += s->dshared_sectors[k];
    d->bulk_copies += s->bulk_copies, d->bulk_bytes_in += s->bulk_bytes_in, d->bulk_bytes_out += s->bulk_bytes_out;
    for (int p = 0; p < COALSIM_PIPES; p++) d->pipe_inst[p] += s->pipe_inst[p];
    d->path_cycles += s->path_cycles;
    d->path_loads += s->path_loads;
    d->path_blocks += s->path_blocks;
    coalsim_exec_path_max(d, s->path_max_cycles, s->path_max_loads);
    for (int r = 0; r < COALSIM_PHASE_BLOCKS; r++) d->path_phase[r] += s->path_phase[r];
    d->smem_wavefronts_saved += s->smem_wavefronts_saved;
    d->mem_inactive += s->mem_inactive;
    if (!d->block_threads) d->block_threads = s->block_threads;
    if (!d->regs) d->regs = s->regs, d->regs_from = s->regs_from;
    if (!d->smem_block) d->smem_block = s->smem_block;
}

int coalsim_analysis_set_exec(coalsim_analysis *an, const coalsim_exec *e)
{
    free(an->insts);
    an->insts = NULL;
    an->exec = *e;
    an->exec.insts = NULL;
    an->exec.ninsts = 0;
    an->has_exec = 1;
    if (!e->insts || !e->ninsts) return 0;
    size_t bytes = e->ninsts * sizeof *e->insts;
    for (size_t i = 0; i < e->ninsts; i++)
        bytes += slen(e->insts[i].text) + slen(e->insts[i].file) + slen(e->insts[i].label);
    coalsim_inst *d = malloc(bytes);
    if (!d) return fail(an, "out of memory");
    char *p = (char *)(d + e->ninsts);
    for (size_t i = 0; i < e->ninsts; i++) {
        d[i] = e->insts[i];
        const char **fields[3] = {&d[i].text, &d[i].file, &d[i].label};
        for (int k = 0; k < 3; k++) {
            if (!*fields[k]) continue;
            size_t n = strlen(*fields[k]) + 1;
            memcpy(p, *fields[k], n);
            *fields[k] = p;
            p += n;
        }
    }
    an->insts = d;
    an->exec.insts = d;
    an->exec.ninsts = e->ninsts;
    return 0;
}

int coalsim_analysis_finish(coalsim_analysis *an)
{
    if (!an->timing) return 0;
    coalsim_hier_counts total;
    coalsim_stats_hier_total(an->st, &total);
    /* warm: the previous launch's dirty lines are in this one's L2, and the
     * cache model counts their write-backs as DRAM writes when they leave;
     * what this launch leaves dirty is the next one's to write */
    int carried = an->l2 == COALSIM_L2_WARM || an->l2 == COALSIM_L2_INHERITED;
    coalsim_timing_set_dirty(an->timing, carried ? 0 : dirty_of(an), an->hcfg.l2_bytes);
    if (coalsim_timing_finish(an->timing, &total, an->has_exec ? &an->exec : NULL, &an->time) != 0)
        return fail(an, "out of memory");
    an->time.l2 = an->l2 == COALSIM_L2_WARM        ? "warm"
                  : an->l2 == COALSIM_L2_COLD      ? "cold"
                  : an->l2 == COALSIM_L2_INHERITED ? "inherited"
                                                   : NULL;
    an->time.cold_us = an->l2 == COALSIM_L2_WARM ? an->prev_us : 0;
    an->time.l2_unknown = an->l2_unknown;
    an->timed = 1;
    return 0;
}

static uint64_t times(uint64_t v, double f) { return (uint64_t)llround((double)v * f); }

/* A sample's instruction counts made the launch's (blocks, warps: BLOCKS). */
static void exec_scale(coalsim_exec *e, double f, uint64_t blocks)
{
    if (e->blocks) e->warps_launched = e->warps_launched / e->blocks * blocks;   /* a launch's blocks are alike */
    e->blocks = blocks;
    e->inst_executed = times(e->inst_executed, f);
    e->thread_inst_executed = times(e->thread_inst_executed, f);
    for (int sp = 0; sp < COALSIM_SPACES; sp++)
        for (int op = 0; op < COALSIM_OPS; op++) e->inst_mem[sp][op] = times(e->inst_mem[sp][op], f);
    for (int k = 0; k < 3; k++) e->inst_mma[k] = times(e->inst_mma[k], f);
    e->inst_gmma = times(e->inst_gmma, f);
    e->gmma_smem_bytes = times(e->gmma_smem_bytes, f);
    e->bulk_copies = times(e->bulk_copies, f);
    e->bulk_bytes_in = times(e->bulk_bytes_in, f), e->bulk_bytes_out = times(e->bulk_bytes_out, f);
    e->bulk_bytes_multicast = times(e->bulk_bytes_multicast, f);
    e->bulk_bytes_red = times(e->bulk_bytes_red, f), e->bulk_bytes_red_dshared = times(e->bulk_bytes_red_dshared, f);
    for (int k = 0; k < 3; k++)
        e->dshared_requests[k] = times(e->dshared_requests[k], f), e->dshared_sectors[k] = times(e->dshared_sectors[k], f);
    for (int p = 0; p < COALSIM_PIPES; p++) e->pipe_inst[p] *= f;
    e->path_cycles *= f, e->path_loads *= f;
    if (e->path_blocks) e->path_blocks = blocks;
    for (int r = 0; r < COALSIM_PHASE_BLOCKS; r++) e->path_phase[r] *= f;
    e->smem_wavefronts_saved *= f;
    e->mem_inactive = times(e->mem_inactive, f);
}

int coalsim_analysis_extrapolate(coalsim_analysis *an, const coalsim_sample *s, const uint64_t *blocks, size_t n)
{
    an->sample = *s;
    if (!s->sampled) return 0;
    double f = s->factor;
    coalsim_stats_scale(an->st, f);
    /* what the sample left dirty in L2 is what its windows wrote and did
     * not write back yet: the whole launch writes back that many times as
     * much, less what it leaves dirty itself (about as much: L2 is as full) */
    if (an->hier && f > 1) coalsim_stats_add_writes(an->st, (uint64_t)llround((double)dirty_of(an) * (f - 1)));
    if (an->has_exec) {
        exec_scale(&an->exec, f, s->blocks);
        for (size_t i = 0; i < an->exec.ninsts; i++) {
            an->insts[i].executed = times(an->insts[i].executed, f);
            an->insts[i].threads = times(an->insts[i].threads, f);
        }
    }
    if (an->timing) {
        /* SM s runs blocks s, s + SMS, ...: its share of the launch over its
         * share of the sample */
        unsigned sms = an->hcfg.sms ? an->hcfg.sms : 1;
        uint64_t *all = calloc(sms, sizeof *all);
        uint64_t *ran = calloc(sms, sizeof *ran);
        if (!all || !ran) {
            free(all), free(ran);
            return fail(an, "out of memory");
        }
        for (size_t i = 0; i < n; i++) ran[blocks[i] % sms]++;
        for (unsigned k = 0; k < sms; k++) all[k] = s->blocks / sms + (k < s->blocks % sms);
        int bad = coalsim_timing_scale_sample(an->timing, ran, all, f);
        free(all), free(ran);
        if (bad) return fail(an, "out of memory");
    }
    return 0;
}

int coalsim_analysis_extrapolate_loops(coalsim_analysis *an, const coalsim_loop_skip *skip, size_t n, const double *sm_f,
                                       double *factor)
{
    *factor = 1;
    uint64_t before = coalsim_stats_requests(an->st);
    /* the jumped stores' lines: left dirty in L2 as far as it holds them
     * beside what the run left, the rest written to DRAM during the launch.
     * A streaming launch's L2 holds about half its bytes dirty (grid-stride
     * saxpy of 2^27 floats, run whole: 26.3 of its 52.4 MB) */
    double w = 0;
    for (size_t i = 0; i < n; i++) w += 32.0 * (double)skip[i].written_sectors;
    double d = an->hier ? (double)coalsim_hier_dirty_bytes(an->hier) : 0, room = (double)an->hcfg.l2_bytes / 2 - d;
    if (room < 0) room = 0;
    double kept = !an->hier ? 0 : w < room ? w : room, out = w > 0 ? (w - kept) / w : 0;
    an->loop_dirty = (uint64_t)kept;
    for (size_t i = 0; i < n; i++)
        if (!coalsim_stats_add_skipped(an->st, &skip[i], (uint64_t)llround(32.0 * (double)skip[i].written_sectors * out)))
            return fail(an, "a loop's requests were skipped, but none of them was seen");
    uint64_t after = coalsim_stats_requests(an->st);
    if (!before || after == before) return 0;
    double f = (double)after / (double)before;
    *factor = f;
    if (an->timing) coalsim_timing_scale_loads(an->timing, sm_f, f);
    return 0;
}

const coalsim_sample *coalsim_analysis_sample(const coalsim_analysis *an)
{
    return an->sample.sampled ? &an->sample : NULL;
}

const coalsim_stats *coalsim_analysis_stats(const coalsim_analysis *an) { return an->st; }
const coalsim_exec *coalsim_analysis_exec(const coalsim_analysis *an) { return an->has_exec ? &an->exec : NULL; }
const coalsim_time *coalsim_analysis_time(const coalsim_analysis *an) { return an->timed ? &an->time : NULL; }
const char *coalsim_analysis_error(const coalsim_analysis *an) { return an->err; }

int coalsim_analysis_report(FILE *out, coalsim_format fmt, const char *name, const coalsim_analysis *an,
                            const char *requests_json)
{
    coalsim_report_extra ex = {
        .hier = an->hier ? &an->hcfg : NULL,
        .dirty = dirty_of(an),
        .time = coalsim_analysis_time(an),
        .requests_json = requests_json,
        .exec = coalsim_analysis_exec(an),
        .source = an->source,
        .sample = coalsim_analysis_sample(an),
    };
    return coalsim_report_ext(out, fmt, name, &an->arch, an->st, &ex);
}

void coalsim_analysis_cfg_of(const coalsim_analysis *an, coalsim_analysis_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->arch = an->arch;
    cfg->hier = an->hier ? &an->hcfg : NULL;
    cfg->each = an->each;
    cfg->each_ctx = an->each_ctx;
    cfg->source = an->source;
    cfg->l2 = an->l2;
}

int coalsim_analysis_inherit_l2(coalsim_analysis *an, const coalsim_analysis *prev)
{
    if (!an->hier || !prev->hier) return fail(an, "the L2 of a launch without a cache model");
    an->prev_us = prev->timed ? prev->time.total_us : 0;
    /* a sampled launch's L2 holds its sample's lines, not what the whole
     * launch leaves (the last blocks' data): unknown, so this one starts
     * cold, and says so */
    if (prev->sample.sampled) {
        an->l2 = COALSIM_L2_COLD;
        an->l2_unknown = 1;
        return 0;
    }
    if (coalsim_hier_inherit_l2(an->hier, prev->hier) != 0) return fail(an, "L2s of different shapes");
    return 0;
}
