/* A launch on the SASS interpreter: the kernel's function of the listing
 * decoded once, the constant banks the driver would fill (bank 0: the launch
 * and the parameters; bank 3: the __constant__ data), one interpreter state a
 * worker, the blocks spread over the workers by grid_run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/grid.h"
#include "frontend/loopjump.h"
#include "sass.h"

/* Where sm_XX puts the kernel's parameters in bank 0. */
static uint32_t param_base_of(const char *arch)
{
    int sm = !strncmp(arch, "sm_", 3) ? atoi(arch + 3) : 90;
    return sm >= 90 ? 0x210 : 0x160;
}

static int sm_of(const char *arch) { return !strncmp(arch, "sm_", 3) ? atoi(arch + 3) : 90; }

static void put32(unsigned char *b, uint32_t off, uint32_t v) { memcpy(b + off, &v, 4); }

/* Bank 4 holds the addresses of the module's __device__ variables and of the
 * runtime's functions, which the driver fills from relocations a listing does
 * not show: its words read as 0xdead0000_<offset>, an address no buffer has,
 * so a kernel that uses one stops with an error saying why. */
#define BANK4_BYTES 0x1000u

static int fill_banks(sprog *p, const sass_launch_info *li, char *err, size_t cap)
{
    p->param_base = param_base_of(p->lst->arch);
    uint64_t top = p->param_base + li->param_bytes;
    if (li->nparams) {
        top = p->param_base;
        for (unsigned i = 0; i < li->nparams; i++) {
            uint64_t a = li->param_align[i] ? li->param_align[i] : 1;
            top = (top + a - 1) / a * a + li->param_size[i];
        }
    }
    p->bank_size[0] = (uint32_t)(top + 8);
    p->bank[0] = calloc(1, p->bank_size[0]);
    p->bank_size[4] = BANK4_BYTES;
    p->bank[4] = calloc(1, BANK4_BYTES);
    if (li->const_bytes) {
        p->bank_size[3] = (uint32_t)li->const_bytes;
        p->bank[3] = malloc(li->const_bytes);
    }
    if (!p->bank[0] || !p->bank[4] || (li->const_bytes && !p->bank[3])) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    if (li->const_bytes) memcpy(p->bank[3], li->const_bank, li->const_bytes);
    /* banks the listing prints (nvdisasm without -c): the kernel's own
     * section, else the module's; they are ptxas's layout, so they win */
    const char *kname = p->lst->funcs[p->entry].name;
    for (unsigned b = 1; b < 8; b++) {
        if (b == 4) continue;
        const sass_csec *best = NULL;
        for (unsigned i = 0; i < p->lst->ncsecs; i++) {
            const sass_csec *c = &p->lst->csecs[i];
            if (c->bank != b) continue;
            if (c->func && !strcmp(c->func, kname)) best = c;
            else if (!c->func && !best) best = c;
        }
        if (!best) continue;
        free(p->bank[b]);
        p->bank_size[b] = (uint32_t)best->size;
        if (!(p->bank[b] = malloc(best->size + 1))) {
            snprintf(err, cap, "out of memory");
            return -1;
        }
        memcpy(p->bank[b], best->data, best->size);
    }
    unsigned char *b0 = p->bank[0];
    for (int d = 0; d < 3; d++) {
        put32(b0, 4u * (unsigned)d, li->block[d]);
        put32(b0, 0xc + 4u * (unsigned)d, li->grid[d]);
    }
    uint64_t lw = SASS_GEN_LOCAL;
    memcpy(b0 + 0x20, &lw, 8);
    put32(b0, 0x28, (uint32_t)SASS_LOCAL_TOP);
    if (!li->nparams) memcpy(b0 + p->param_base, li->params, li->param_bytes);
    for (unsigned i = 0, o = p->param_base; i < li->nparams; i++) {
        unsigned a = li->param_align[i] ? li->param_align[i] : 1;
        o = (o + a - 1) / a * a;
        if ((uint64_t)li->param_off[i] + li->param_size[i] <= li->param_bytes)
            memcpy(b0 + o, li->params + li->param_off[i], li->param_size[i]);
        o += li->param_size[i];
    }
    /* sm_90: the parameters' generic address, and the cluster's shape
     * (gpu/results/h100/cluster's listing of cluster_ids against its PTX):
     * 0x140 %is_explicit_cluster, 0x144.. %cluster_nctaid, 0x150.. their
     * reciprocals as floats (%clusterid = trunc(ctaid * them)), 0x15c..
     * %nclusterid, 0x188 %cluster_nctarank */
    if (p->param_base >= 0x1a0) {
        uint64_t gp = SASS_GEN_CBANK0 + p->param_base;
        memcpy(b0 + 0x198, &gp, 8);
        put32(b0, 0x140, (uint32_t)li->explicit_cluster);
        unsigned n = 1;
        for (int d = 0; d < 3; d++) {
            unsigned c = li->cluster[d] ? li->cluster[d] : 1;
            /* rounded up, so that a multiple of c truncates to its quotient */
            float inv = 1.0f / (float)c;
            if (inv * (float)c < 1.0f) inv = nextafterf(inv, 2.0f);
            uint32_t bits;
            memcpy(&bits, &inv, 4);
            put32(b0, 0x144 + 4u * (unsigned)d, c);
            put32(b0, 0x150 + 4u * (unsigned)d, bits);
            put32(b0, 0x15c + 4u * (unsigned)d, li->grid[d] / c);
            n *= c;
        }
        put32(b0, 0x188, n);
    }
    for (uint32_t o = 0; o < BANK4_BYTES; o += 8) {
        put32(p->bank[4], o, o);
        put32(p->bank[4], o + 4, SASS_B4_POISON);
    }
    /* a full listing (nvdisasm without -c) names bank 4's symbols: module
     * variables get their addresses, runtime functions a marker CALL.ABS
     * knows, the rest stay poison with a name for the message */
    if (!(p->b4sym = calloc(BANK4_BYTES / 8, sizeof *p->b4sym))) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    p->nb4sym = BANK4_BYTES / 8;
    for (unsigned i = 0; i < p->lst->ncsecs; i++) {
        const sass_csec *c = &p->lst->csecs[i];
        if (c->bank != 4) continue;
        for (unsigned r = 0; r < c->nrelocs; r++) {
            size_t off = c->relocs[r].off;
            if (off % 8 || off >= BANK4_BYTES) continue;
            const char *sym = c->relocs[r].sym;
            p->b4sym[off / 8] = sym;
            uint64_t a = li->symbol ? li->symbol(li->symbol_ctx, sym) : 0;
            if (a) {
                memcpy(p->bank[4] + off, &a, 8);
            } else if (!strcmp(sym, "vprintf") || !strcmp(sym, "__assertfail") || !strcmp(sym, "malloc") ||
                       !strcmp(sym, "free")) {
                put32(p->bank[4], (uint32_t)off, (uint32_t)(off / 8));
                put32(p->bank[4], (uint32_t)off + 4, SASS_B4_FUNC);
            }
        }
    }
    if (li->const_bytes) memcpy(p->bank[3], li->const_bank, li->const_bytes);
    /* sm_90 code adds the 1 KiB the system reserves (UMOV 0x400) to its
     * shared addresses; sm_80 code starts its variables at 0 */
    p->smem_reserved = sm_of(p->lst->arch) >= 90 ? 0x400 : 0;
    p->ext_vprintf = li->ext_vprintf;
    p->ext_assert = li->ext_assert;
    return 0;
}

/* A worker: the interpreter's state, and each SM's requests run and
 * skipped by its loops' jumps (for each SM's share of the time's loads). */
typedef struct sworker {
    sctx x;
    unsigned sms;
    double *sm_seen, *sm_skip;
} sworker;

/* A worker's warp instructions so far: what a block costs, for sampling. */
static uint64_t work_of(void *w) { return ((const sworker *)w)->x.exec.inst_executed; }

static int run_block(void *w, uint64_t b, coalsim_sink sink, char *err, size_t cap)
{
    sworker *wk = w;
    sctx *x = &wk->x;
    x->sink = sink;
    uint64_t seen0 = x->loop_seen;
    double skip0 = x->loop_fig[0];
    if (sass_run_block(x, b) != 0) {
        snprintf(err, cap, "%s", x->err);
        return -1;
    }
    for (unsigned r = 0; wk->sm_seen && r < x->ncta; r++) {
        unsigned sm = (unsigned)((b * x->ncta + r) % wk->sms);
        wk->sm_seen[sm] += (double)(x->loop_seen - seen0) / x->ncta;
        wk->sm_skip[sm] += (x->loop_fig[0] - skip0) / x->ncta;
    }
    return 0;
}

/* A sample: the worker may jump over loop iterations (sass_loop.c). */
static int loops_on(void *w)
{
    sctx *x = &((sworker *)w)->x;
    return x->loop_on ? 0 : sass_loop_setup(x);
}

static void loops_skipped(void *w, double *fig)
{
    const sctx *x = &((const sworker *)w)->x;
    for (int k = 0; k < 3; k++) fig[k] = x->loop_fig[k];
}

/* The iterations the workers jumped over into AN (their requests, by
 * access) and into S (how many).  0, or -1 with ERR. */
static int extrapolate_loops(const sprog *p, sworker *wk, unsigned nthreads, coalsim_sample *s, coalsim_analysis *an,
                             char *err, size_t cap)
{
    for (unsigned t = 0; t < nthreads; t++) {
        s->loop_jumps += wk[t].x.loop_jumps;
        s->loop_iters += wk[t].x.loop_iters;
        s->loop_insts += (double)wk[t].x.loop_insts;
    }
    if (!s->loop_jumps) return 0;
    unsigned sms = wk[0].sm_seen ? wk[0].sms : 0;
    coalsim_loop_skip *skip = calloc(p->ncode + 1, sizeof *skip);
    double *seen = calloc(sms + 1, sizeof *seen), *skipped = calloc(sms + 1, sizeof *skipped);
    size_t n = 0;
    int rc = -1;
    if (!skip || !seen || !skipped) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (uint32_t c = 0; c < p->ncode; c++) {
        const sinst *in = &p->code[c];
        uint64_t sum[LOOP_COUNTS] = {0};
        for (unsigned t = 0; t < nthreads; t++)
            for (int q = 0; wk[t].x.loop_skip && q < LOOP_COUNTS; q++) sum[q] += wk[t].x.loop_skip[LOOP_COUNTS * (size_t)c + q];
        if (!sum[LOOP_REQUESTS] || in->cs_space < 0) continue;
        skip[n++] = loop_skip_of(in->label, (coalsim_op)in->cs_op, (coalsim_space)in->cs_space, sum);
    }
    for (unsigned m = 0; m < sms; m++)
        for (unsigned t = 0; t < nthreads; t++) seen[m] += wk[t].sm_seen[m], skipped[m] += wk[t].sm_skip[m];
    rc = loop_extrapolate(an, s, skip, n, sms ? seen : NULL, skipped, sms, err, cap);
done:
    free(skip), free(seen), free(skipped);
    return rc;
}

int sass_find_func(const sass_listing *l, const char *mangled)
{
    for (unsigned i = 0; i < l->nfuncs; i++)
        if (!strcmp(l->funcs[i].name, mangled)) return (int)i;
    return -1;
}

int sass_launch(const sass_listing *lst, const char *kernel, const sass_launch_info *li, coalsim_analysis *an,
                const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    int fi = sass_find_func(lst, kernel);
    if (fi < 0) {
        int n = snprintf(err, cap, "%s: the SASS listing has no function %s; it has:", lst->name, kernel);
        for (unsigned i = 0; i < lst->nfuncs && n < (int)cap; i++) n += snprintf(err + n, cap - (size_t)n, " %s", lst->funcs[i].name);
        return -1;
    }
    sprog p;
    if (sass_prog_build(&p, lst, fi, err, cap) != 0) {
        sass_prog_free(&p);
        return -1;
    }
    int rc = -1;
    sworker *wk = NULL;
    void **wp = NULL;
    unsigned nthreads = li->threads;
    if (fill_banks(&p, li, err, cap) != 0) goto done;
    /* a bank nobody gave is an error where the code reads it, not zeros */
    for (uint32_t i = 0; i < p.ncode; i++)
        for (unsigned k = 0; k < p.code[i].nops; k++) {
            const sopnd *o = &p.code[i].o[k];
            if (o->kind != SO_CBANK || o->bank == 0 || o->bank == 4 || (o->bank < 8 && p.bank[o->bank])) continue;
            if (o->bank == 3 && li->no_module)
                snprintf(err, cap, "%s:%u: %s: reads __constant__ data (constant bank 3), which this listing does not "
                                   "hold: give the module too (--ptx FILE.cu or FILE.ptx), or list it with nvdisasm "
                                   "without -c", lst->name, p.code[i].line, p.code[i].text);
            else if (o->bank == 3)
                continue;      /* the module has no __constant__ data: reads past it give 0, as the bank's rest */
            else
                snprintf(err, cap, "%s:%u: %s: reads constant bank %u (ptxas's literals), which this listing does "
                                   "not hold: list the cubin with nvdisasm without -c, which prints the bank",
                         lst->name, p.code[i].line, p.code[i].text, o->bank);
            goto done;
        }
    /* the shared window: the reserved bytes, the variables as the PTX lays
     * them out (ptxas may order them otherwise: a little slack), the dynamic
     * bytes */
    uint64_t smem = li->static_smem + li->smem_slack + li->dynamic_shared;
    for (unsigned i = 0; i < lst->nshared; i++)
        if (!strcmp(lst->shared[i].func, kernel)) smem = p.smem_reserved + lst->shared[i].bytes + li->dynamic_shared;
    /* the SM's port is on a block's path where a SM holds one block at a time, its pipes on any (smport.h) */
    uint64_t user_smem = li->user_smem;
    for (unsigned i = 0; i < lst->nshared; i++)
        if (!strcmp(lst->shared[i].func, kernel)) user_smem = lst->shared[i].bytes + li->dynamic_shared;
    unsigned held = !cfg->hier || !cfg->profile ? 0 :
                sm_port_held(cfg->limits, li->block[0] * li->block[1] * li->block[2],
                              lst->funcs[fi].regs ? lst->funcs[fi].regs : li->regs, user_smem, li->blocks, cfg->hier->sms);
    unsigned cdim[3], ncta = 1;
    for (int d = 0; d < 3; d++) ncta *= cdim[d] = li->cluster[d] ? li->cluster[d] : 1;
    if (ncta > SASS_MAX_CLUSTER) {      /* the caller checked the shape (kernel.c): the arrays' bound */
        snprintf(err, cap, "%s: a cluster of %u CTAs (at most %d)", kernel, ncta, SASS_MAX_CLUSTER);
        goto done;
    }
    wk = calloc(nthreads, sizeof *wk);
    wp = calloc(nthreads, sizeof *wp);
    if (!wk || !wp) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (unsigned t = 0; t < nthreads; t++) {
        sctx *x = &wk[t].x;
        if (cfg->hier && cfg->hier->sms) {
            wk[t].sms = cfg->hier->sms;
            wk[t].sm_seen = calloc(cfg->hier->sms, sizeof *wk[t].sm_seen);
            wk[t].sm_skip = calloc(cfg->hier->sms, sizeof *wk[t].sm_skip);
            if (!wk[t].sm_seen || !wk[t].sm_skip) {
                snprintf(err, cap, "out of memory");
                goto done;
            }
        }
        x->prog = &p;
        x->mem = li->mem;
        memcpy(x->grid, li->grid, sizeof x->grid);
        memcpy(x->block, li->block, sizeof x->block);
        x->smem_bytes = smem;
        x->smem = calloc(1, smem + 16);
        /* clusters: each worker runs whole clusters, their CTAs together */
        x->ncta = ncta;
        memcpy(x->cdim, cdim, sizeof cdim);
        x->explicit_cluster = li->explicit_cluster;
        x->cta[0].smem = x->smem;
        for (unsigned r = 1; r < ncta; r++)
            if (!(x->cta[r].smem = calloc(1, smem + 16))) x->smem = NULL;
        x->icount = calloc(2 * (size_t)p.ncode + 2, sizeof *x->icount);
        x->exec.isa = "SASS";
        x->arch = &cfg->arch;
        if (sass_sched_setup(x, cfg->hier ? cfg->profile : NULL, cfg->hier ? cfg->hier->sms : 0,
                             cfg->hier ? cfg->hier->l1_bytes : 0, held) != 0) {
            snprintf(err, cap, "out of memory");
            goto done;
        }
        x->interleave = cfg->hier != NULL || cfg->each != NULL;
        if (!x->smem || !x->icount) {
            snprintf(err, cap, "out of memory");
            goto done;
        }
        wp[t] = &wk[t];
    }
    /* the grid's units, and a sample's, are clusters: a window is a wave of blocks in clusters */
    uint64_t wave = coalsim_sample_window(li->blocks, li->block[0] * li->block[1] * li->block[2], li->sms);
    grid_sampling sp = {.cfg = li->sample, .work = work_of, .held = kmem_held, .held_ctx = li->mem,
                        .footprint = kmem_footprint(li->mem), .loops = loops_on, .skipped = loops_skipped,
                        .window = wave / ncta ? wave / ncta : 1};
    if (sp.cfg.mode == COALSIM_SAMPLE_BLOCKS) sp.cfg.blocks = sp.cfg.blocks / ncta ? sp.cfg.blocks / ncta : 1;
    grid_job job = {.blocks = li->blocks / ncta, .threads = nthreads, .workers = wp, .run = run_block,
                    .ordered = cfg->hier != NULL || cfg->each != NULL, .progress = li->progress,
                    .progress_ctx = li->progress_ctx, .sample = &sp};
    if (grid_run(&job, an, cfg, err, cap) != 0) goto done;
    /* the launch, for the time's occupancy: the registers the listing
     * names (nvdisasm's full listing), else the launch's (--regs, ptxas) */
    const sass_func *fn = &lst->funcs[fi];
    uint64_t user = user_smem;
    coalsim_exec total = {.isa = "SASS", .block_threads = li->block[0] * li->block[1] * li->block[2],
                          .regs = fn->regs ? fn->regs : li->regs, .regs_from = fn->regs ? "listing" : li->regs_from,
                          .smem_block = user};
    for (unsigned t = 0; t < nthreads; t++) coalsim_exec_add(&total, &wk[t].x.exec);   /* pipes: counted below */
    /* the source view: every instruction of the kernel with its counts */
    coalsim_inst *insts = calloc(p.ncode + 1, sizeof *insts);
    if (!insts) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < p.ncode; i++) {
        const sinst *in = &p.code[i];
        coalsim_inst *d = &insts[i];
        d->text = in->text;
        d->file = in->src_file && in->src_file <= lst->nfiles ? lst->files[in->src_file - 1] : NULL;
        d->src_line = in->src_line;
        d->line = in->line;
        d->addr = in->addr;
        d->label = in->kind == SK_MEM ? in->label : NULL;
        for (unsigned t = 0; t < nthreads; t++) {
            d->executed += wk[t].x.icount[2 * i];
            d->threads += wk[t].x.icount[2 * i + 1];
        }
        /* counted, not estimated: every warp instruction on its pipe */
        total.pipe_inst[in->pipe] += (double)d->executed;
        /* HFMA2.MMA (ptxas's move of a constant through the tensor pipe's
         * HFMA2): ncu counts it in sm__inst_executed_pipe_tensor_op_hmma
         * (tests/kernels/tensor.cu's cp_async_zfill on the H100: 4, one a warp) */
        if (!strncmp(in->text, "HFMA2.MMA", 9) || strstr(in->text, " HFMA2.MMA")) total.inst_mma[0] += d->executed;
    }
    total.insts = insts;
    total.ninsts = p.ncode;
    int bad = coalsim_analysis_set_exec(an, &total);
    free(insts);
    if (bad) {
        snprintf(err, cap, "out of memory");
        free(sp.ran);
        goto done;
    }
    if (extrapolate_loops(&p, wk, nthreads, &sp.out, an, err, cap) != 0) {
        free(sp.ran);
        goto done;
    }
    if (grid_extrapolate(&sp, an, ncta, err, cap) != 0) goto done;
    rc = 0;
done:
    if (wk)
        for (unsigned t = 0; t < nthreads; t++) {
            /* x.smem is the CTA that ran last: each CTA's memory is freed through cta[] */
            if (!wk[t].x.cta[0].smem) free(wk[t].x.smem);
            for (unsigned r = 0; r < SASS_MAX_CLUSTER; r++) free(wk[t].x.cta[r].smem);
            sass_ctx_free(&wk[t].x);
            free(wk[t].sm_seen), free(wk[t].sm_skip);
        }
    free(wk);
    free(wp);
    sass_prog_free(&p);
    return rc;
}
