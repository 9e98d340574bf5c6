/* The kernel front end: a PTX module, a kernel chosen by name, its launch
 * run block by block on the PTX interpreter, or on the SASS interpreter when
 * the module's SASS listing was given (grid.c spreads the blocks over
 * threads), into the analysis.  The PTX says what the SASS cannot: the
 * parameters' layout, the __constant__ data, the shared variables' size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coalsim.h"
#include "frontend/grid.h"
#include "frontend/kernel/args.h"
#include "frontend/kernel/demangle.h"
#include "frontend/kernel/kmem.h"
#include "frontend/loopjump.h"
#include "frontend/ptx/ptx.h"
#include "frontend/sass/sass.h"

struct coalsim_kernel {
    char *name;
    ptx_module *mod;
    sass_listing *sass;        /* NULL: run the PTX */
    int sass_where_listed;     /* a kernel SASS does not have runs from the PTX (coalsim_kernel_use_sass_where_listed) */
    int stub;                  /* the PTX is sass_stub_ptx's: parameters only */
    char *ptx;                 /* the PTX text, its lines cut at '\0' (the source view's text) */
    char *module;              /* the PTX as given (ptxas's input), or NULL for a listing alone */
    size_t module_len;
    char **lines;              /* lines[n - 1]: line n */
    size_t nlines;
    kmem mem;                  /* the last run's memory */
    int has_mem;
    coalsim_memory *ext;       /* memory kept across launches and modules (coalsim_kernel_use_memory), or NULL */
    uint64_t *placed;          /* with EXT: each module variable's address in it (.global and .const), else 0 */
    /* the last run, for a launch run again in its memory (coalsim_launch.again) */
    int last_entry;            /* its entry, -1: none */
    unsigned char *last_params;
    uint64_t *last_vars;       /* each module variable's address in MEM (.global ones) */
};

#define MAX_SMEM (227u << 10)      /* the H100's largest shared memory a block (sm_90) */

coalsim_kernel *coalsim_kernel_load_ptx(const char *text, size_t len, const char *name, char *err, size_t cap)
{
    coalsim_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->name = strdup(name))) {
        free(k);
        snprintf(err, cap, "%s: out of memory", name);
        return NULL;
    }
    k->last_entry = -1;
    k->mod = ptx_parse(text, len, name, err, cap);
    if (!k->mod) {
        free(k->name);
        free(k);
        return NULL;
    }
    if (!(k->module = malloc(len + 1))) goto oom;
    memcpy(k->module, text, len);
    k->module[len] = '\0';
    k->module_len = len;
    /* the lines, for the source view */
    if (!(k->ptx = malloc(len + 1))) goto oom;
    memcpy(k->ptx, text, len);
    k->ptx[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (k->ptx[i] == '\t') k->ptx[i] = ' ';
    for (size_t i = 0; i <= len; i++) k->nlines += i == len || k->ptx[i] == '\n';
    if (!(k->lines = calloc(k->nlines + 1, sizeof *k->lines))) goto oom;
    k->nlines = 0;
    for (char *p = k->ptx, *nl;; p = nl + 1) {
        while (*p == ' ' || *p == '\t') p++;
        k->lines[k->nlines++] = p;
        if (!(nl = strchr(p, '\n'))) break;
        *nl = '\0';
        for (char *e = nl; e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t' || e[-1] == ';');) *--e = '\0';
    }
    unsigned entries = 0;
    for (unsigned i = 0; i < k->mod->nfuncs; i++) entries += k->mod->funcs[i].is_entry;
    if (!entries) {
        snprintf(err, cap, "%s: no kernel (.entry) in this PTX", name);
        coalsim_kernel_free(k);
        return NULL;
    }
    return k;
oom:
    snprintf(err, cap, "%s: out of memory", name);
    coalsim_kernel_free(k);
    return NULL;
}

void coalsim_kernel_free(coalsim_kernel *k)
{
    if (!k) return;
    if (k->has_mem) kmem_free(&k->mem);
    free(k->placed);
    free(k->last_params);
    free(k->last_vars);
    free(k->module);
    ptx_module_free(k->mod);
    sass_listing_free(k->sass);
    free(k->ptx);
    free(k->lines);
    free(k->name);
    free(k);
}

int coalsim_kernel_use_sass(coalsim_kernel *k, const char *text, size_t len, const char *name, char *err, size_t cap)
{
    sass_listing *l = sass_parse(text, len, name, err, cap);
    if (!l) return -1;
    if (!l->nfuncs) {
        snprintf(err, cap, "%s: no function in this SASS listing (cuobjdump -sass or nvdisasm output)", name);
        sass_listing_free(l);
        return -1;
    }
    sass_listing_free(k->sass);
    k->sass = l;
    return 0;
}

int coalsim_kernel_use_sass_where_listed(coalsim_kernel *k, const char *text, size_t len, const char *name, char *err,
                                         size_t cap)
{
    if (coalsim_kernel_use_sass(k, text, len, name, err, cap) != 0) return -1;
    k->sass_where_listed = 1;
    return 0;
}

coalsim_kernel *coalsim_kernel_load_sass(const char *text, size_t len, const char *name, char *err, size_t cap)
{
    sass_listing *l = sass_parse(text, len, name, err, cap);
    if (!l) return NULL;
    if (!l->nfuncs) {
        snprintf(err, cap, "%s: no function in this SASS listing (cuobjdump -sass or nvdisasm output)", name);
        sass_listing_free(l);
        return NULL;
    }
    size_t plen;
    char *ptx = sass_stub_ptx(l, &plen, err, cap);
    if (!ptx) {
        sass_listing_free(l);
        return NULL;
    }
    coalsim_kernel *k = coalsim_kernel_load_ptx(ptx, plen, name, err, cap);
    free(ptx);
    if (!k) {
        sass_listing_free(l);
        return NULL;
    }
    k->sass = l;
    k->stub = 1;
    free(k->module);            /* the stub's PTX is no module: ptxas has nothing to say */
    k->module = NULL;
    k->module_len = 0;
    return k;
}

size_t coalsim_kernel_count(const coalsim_kernel *k)
{
    size_t n = 0;
    for (unsigned i = 0; i < k->mod->nfuncs; i++) n += k->mod->funcs[i].is_entry;
    return n;
}

const char *coalsim_kernel_name(const coalsim_kernel *k, size_t i)
{
    for (unsigned f = 0; f < k->mod->nfuncs; f++)
        if (k->mod->funcs[f].is_entry && i-- == 0) return k->mod->funcs[f].name;
    return NULL;
}

/* S without spaces into OUT. */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (*s != ' ') out[n++] = *s;
    out[n] = '\0';
}

/* The entry NAME names: mangled, demangled (with or without parameters),
 * or plain when only one instantiation has that name. */
static int find_entry(const coalsim_kernel *k, const char *name, char *err, size_t cap)
{
    const ptx_module *m = k->mod;
    if (!name) {
        if (coalsim_kernel_count(k) == 1)
            for (unsigned i = 0; i < m->nfuncs; i++)
                if (m->funcs[i].is_entry) return (int)i;
        int n = snprintf(err, cap, "%s: %zu kernels; say which with --kernel:", k->name, coalsim_kernel_count(k));
        for (unsigned i = 0; i < m->nfuncs && n < (int)cap; i++)
            if (m->funcs[i].is_entry) {
                char d[512];
                coalsim_demangle(m->funcs[i].name, d, sizeof d);
                n += snprintf(err + n, cap - (size_t)n, " %s", d);
            }
        return -1;
    }
    char want[512];
    squeeze(name, want, sizeof want);
    int plain = -1, nplain = 0;
    for (unsigned i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i].is_entry) continue;
        if (!strcmp(m->funcs[i].name, name)) return (int)i;
        char d[512], ds[512], base[256];
        coalsim_demangle(m->funcs[i].name, d, sizeof d);
        squeeze(d, ds, sizeof ds);
        if (!strcmp(ds, want)) return (int)i;
        size_t np = strcspn(ds, "(");
        if (strlen(want) == np && !strncmp(ds, want, np)) return (int)i;
        /* the same without its namespaces */
        const char *q = ds, *c;
        while ((c = strstr(q, "::")) && c < ds + np) q = c + 2;
        size_t nq = (size_t)(ds + np - q);
        if (q != ds && strlen(want) == nq && !strncmp(q, want, nq)) return (int)i;
        coalsim_demangled_base(d, base, sizeof base);
        /* a plain name may leave out the namespaces: ns::k is k */
        const char *unq = strrchr(base, ':');
        if (!strcmp(base, want) || (unq && !strcmp(unq + 1, want))) plain = (int)i, nplain++;
    }
    if (nplain == 1) return plain;
    if (nplain > 1) {
        int n = snprintf(err, cap, "%s: '%s' names %d kernels; say which:", k->name, name, nplain);
        for (unsigned i = 0; i < m->nfuncs && n < (int)cap; i++) {
            if (!m->funcs[i].is_entry) continue;
            char d[512], base[256];
            coalsim_demangle(m->funcs[i].name, d, sizeof d);
            coalsim_demangled_base(d, base, sizeof base);
            const char *unq = strrchr(base, ':');
            if (!strcmp(base, want) || (unq && !strcmp(unq + 1, want))) {
                d[strcspn(d, "(")] = '\0';
                n += snprintf(err + n, cap - (size_t)n, " '%s'", d);
            }
        }
        return -1;
    }
    int n = snprintf(err, cap, "%s: no kernel named '%s'; the kernels are:", k->name, name);
    for (unsigned i = 0; i < m->nfuncs && n < (int)cap; i++)
        if (m->funcs[i].is_entry) {
            char d[512];
            coalsim_demangle(m->funcs[i].name, d, sizeof d);
            n += snprintf(err + n, cap - (size_t)n, " %s", d);
        }
    return -1;
}

const char *coalsim_kernel_entry(const coalsim_kernel *k, const char *name, char *err, size_t cap)
{
    int fi = find_entry(k, name, err, cap);
    return fi < 0 ? NULL : k->mod->funcs[fi].name;
}

typedef struct {
    pctx x;
    size_t nfuncs;              /* the module's functions (ptx_loop_setup) */
    /* each SM's requests (blocks b, b + sms, ... run on SM b % sms) and the
     * requests of the loop iterations its blocks jumped over: the time
     * model's loads are made whole SM by SM (NULL: no cache model) */
    double *sm_seen, *sm_skip;
    unsigned sms, ncta;
} worker;

/* A worker's warp instructions so far: what a block costs, for sampling
 * (the interpreter counts them an instruction at a time, in icount). */
static uint64_t work_of(void *w)
{
    const pctx *x = &((const worker *)w)->x;
    uint64_t n = x->exec.inst_executed;
    for (size_t j = 0; j < x->nmemo; j++) n += x->icount[2 * j];
    return n;
}

/* A sample: the worker may jump over loop iterations (ptx_loop.c). */
static int loops_on(void *w)
{
    worker *wk = w;
    return wk->x.loop_on ? 0 : ptx_loop_setup(&wk->x, wk->nfuncs);
}

static void loops_skipped(void *w, double *fig)
{
    const pctx *x = &((const worker *)w)->x;
    for (int k = 0; k < 3; k++) fig[k] = x->loop_fig[k];
}

/* The iterations the workers jumped over into AN (their requests, by
 * access) and into S (how many).  0, or -1 with ERR. */
static int extrapolate_loops(const ptx_program *prog, const coalsim_kernel *k, worker *wk, unsigned nthreads,
                             size_t ncount, coalsim_sample *s, coalsim_analysis *an, char *err, size_t cap)
{
    for (unsigned t = 0; t < nthreads; t++) {
        s->loop_jumps += wk[t].x.loop_jumps;
        s->loop_iters += wk[t].x.loop_iters;
        s->loop_insts += (double)wk[t].x.loop_insts;
    }
    if (!s->loop_jumps) return 0;
    coalsim_loop_skip *skip = calloc(ncount + 1, sizeof *skip);
    unsigned sms = wk[0].sm_seen ? wk[0].sms : 0;
    double *seen = calloc(sms + 1, sizeof *seen), *skipped = calloc(sms + 1, sizeof *skipped);
    size_t n = 0;
    int rc = -1;
    if (!skip || !seen || !skipped) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (unsigned i = 0; i < k->mod->nfuncs; i++) {
        const pfunc *f = prog->funcs[i];
        for (uint32_t c = 0; f && c < f->ncode; c++) {
            const pinst *in = &f->code[c];
            uint64_t sum[LOOP_COUNTS] = {0};
            for (unsigned t = 0; t < nthreads; t++)
                for (int q = 0; wk[t].x.loop_skip && q < LOOP_COUNTS; q++)
                    sum[q] += wk[t].x.loop_skip[LOOP_COUNTS * ((size_t)f->count_base + c) + q];
            if (!sum[LOOP_REQUESTS] || in->cs_space < 0) continue;
            skip[n++] = loop_skip_of(in->label, (coalsim_op)in->cs_op, (coalsim_space)in->cs_space, sum);
        }
    }
    /* each SM's requests run and skipped */
    for (unsigned m = 0; m < sms; m++)
        for (unsigned t = 0; t < nthreads; t++) seen[m] += wk[t].sm_seen[m], skipped[m] += wk[t].sm_skip[m];
    rc = loop_extrapolate(an, s, skip, n, sms ? seen : NULL, skipped, sms, err, cap);
done:
    free(skip), free(seen), free(skipped);
    return rc;
}

static int run_block(void *w, uint64_t b, coalsim_sink sink, char *err, size_t cap)
{
    worker *wk = w;
    wk->x.sink = sink;
    uint64_t seen0 = wk->x.loop_seen;
    double skip0 = wk->x.loop_fig[0];
    if (ptx_run_block(&wk->x, b) != 0) {
        snprintf(err, cap, "%s", wk->x.err);
        return -1;
    }
    for (unsigned r = 0; wk->sm_seen && r < wk->ncta; r++) {
        unsigned sm = (unsigned)((b * wk->ncta + r) % wk->sms);
        wk->sm_seen[sm] += (double)(wk->x.loop_seen - seen0) / wk->ncta;
        wk->sm_skip[sm] += (wk->x.loop_fig[0] - skip0) / wk->ncta;
    }
    return 0;
}

/* Bank 4's symbols: the address a module variable got in the run's memory. */
typedef struct {
    const ptx_module *mod;
    const ptx_program *prog;
} symbols;

static uint64_t symbol_addr(void *ctx, const char *name)
{
    const symbols *sy = ctx;
    for (unsigned i = 0; i < sy->mod->nvars; i++)
        if (sy->mod->vars[i].space == SP_GLOBAL && !strcmp(sy->mod->vars[i].name, name)) return sy->prog->var_addr[i];
    return 0;
}

/* A launch's shape as the GPU takes it: 0, or -1 with why in ERR. */
static int check_shape(const coalsim_kernel *k, const coalsim_launch *l, char *err, size_t cap)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!threads || threads > 1024 || l->block[2] > 64) {
        snprintf(err, cap, "%s: a block of %llu threads (%u x %u x %u): the GPU takes 1 to 1024, z at most 64", k->name,
                 (unsigned long long)threads, l->block[0], l->block[1], l->block[2]);
        return -1;
    }
    if (!blocks || l->grid[1] > 65535 || l->grid[2] > 65535 || l->grid[0] > 0x7fffffffu) {
        snprintf(err, cap, "%s: a grid of %u x %u x %u blocks: the GPU takes x up to 2^31-1, y and z up to 65535",
                 k->name, l->grid[0], l->grid[1], l->grid[2]);
        return -1;
    }
    return 0;
}

/* The memory launch L runs in: the kept one, the last run's (AGAIN), or a
 * fresh one of K's own. */
static kmem *launch_memory(coalsim_kernel *k, int again, char *err, size_t cap)
{
    if (k->ext) return &k->ext->m;
    if (again) return &k->mem;
    k->last_entry = -1;
    if (k->has_mem) kmem_free(&k->mem);
    k->has_mem = 0;
    if (kmem_init(&k->mem) != 0) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    k->has_mem = 1;
    return &k->mem;
}

/* The parameters' bytes (PF->param_bytes of them) into PARAMS: the values
 * cuLaunchKernel gives (one pointer a parameter, or one buffer laid out as
 * the parameters are), or --args parsed against the entry's parameters. */
static int fill_params(coalsim_kernel *k, const coalsim_launch *l, const ptx_func *entry, const pfunc *pf,
                       const char *sig, kmem *mem, unsigned char *params, char *err, size_t cap)
{
    if (l->param_values) {
        for (unsigned i = 0; i < entry->nparams; i++) {
            const ptx_param *pp = &entry->params[i];
            uint64_t n = pp->is_array ? pp->bytes : ptype_bytes(pp->type);
            if (!l->param_values[i] || pf->param_off[i] + n > pf->param_bytes) {
                snprintf(err, cap, "%s: parameter %u of %s has no value", k->name, i + 1, sig);
                return -1;
            }
            memcpy(params + pf->param_off[i], l->param_values[i], n);
        }
        return 0;
    }
    if (l->param_buffer) {
        memcpy(params, l->param_buffer, l->param_buffer_size < pf->param_bytes ? l->param_buffer_size : pf->param_bytes);
        return 0;
    }
    return kargs_parse(l->args, entry, pf->param_off, sig, mem, params, pf->param_bytes, err, cap);
}

/* A launch's clusters, for both interpreters (each runs a cluster's CTAs
 * together on one worker). */
typedef struct {
    unsigned dim[3];             /* 1 x 1 x 1: no clusters */
    unsigned ncta;
    int explicit_cluster;        /* the launch or the kernel asked for them (%is_explicit_cluster) */
} cluster_shape;

_Static_assert(PTX_MAX_CLUSTER == SASS_MAX_CLUSTER, "the interpreters hold clusters of the same size");

/* L's clusters: its own, or the kernel PF's __cluster_dims__.  0, or -1
 * with ERR where the H100 cannot hold them or they do not tile the grid. */
static int shape_of(const coalsim_kernel *k, const coalsim_launch *l, const pfunc *pf, cluster_shape *cs, char *err,
                    size_t cap)
{
    const unsigned *want = l->cluster[0] ? l->cluster : pf->src->reqncluster;
    cs->explicit_cluster = want[0] != 0;
    for (int d = 0; d < 3; d++) cs->dim[d] = want[0] && want[d] ? want[d] : 1;
    cs->ncta = cs->dim[0] * cs->dim[1] * cs->dim[2];
    if (cs->ncta > PTX_MAX_CLUSTER || l->grid[0] % cs->dim[0] || l->grid[1] % cs->dim[1] || l->grid[2] % cs->dim[2]) {
        snprintf(err, cap, "%s: a cluster of %u x %u x %u CTAs for a grid of %u x %u x %u: the H100 holds clusters of at "
                 "most %d CTAs (8 without cudaFuncAttributeNonPortableClusterSizeAllowed), and each of the grid's "
                 "dimensions must be a multiple of the cluster's", k->name, cs->dim[0], cs->dim[1], cs->dim[2],
                 l->grid[0], l->grid[1], l->grid[2], PTX_MAX_CLUSTER);
        return -1;
    }
    return 0;
}

/* The launch on the SASS interpreter, in clusters CS. */
static int run_sass(coalsim_kernel *k, const coalsim_launch *l, const cluster_shape *cs, const ptx_func *entry,
                    ptx_program *prog, kmem *mem, const unsigned char *params, unsigned nthreads, uint64_t user_smem,
                    coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    const pfunc *pf = prog->funcs[prog->entry];
    sass_launch_info li = {.mem = mem, .blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], .params = params,
                           .param_bytes = pf->param_bytes, .const_bank = prog->const_bank,
                           .const_bytes = prog->const_bytes, .static_smem = prog->static_smem,
                           .dynamic_shared = l->dynamic_shared, .threads = nthreads, .progress = l->progress,
                           .progress_ctx = l->progress_ctx, .regs = l->regs, .regs_from = l->regs_from,
                           .user_smem = user_smem, .sample = l->sample, .sms = cfg->hier ? cfg->hier->sms : 0};
    memcpy(li.grid, l->grid, sizeof li.grid);
    memcpy(li.block, l->block, sizeof li.block);
    li.explicit_cluster = cs->explicit_cluster;
    memcpy(li.cluster, cs->dim, sizeof li.cluster);
    uint32_t poff[64], psize[64], palign[64];
    if (entry->nparams <= 64) {
        for (unsigned i = 0; i < entry->nparams; i++)
            poff[i] = pf->param_off[i], psize[i] = (uint32_t)entry->params[i].bytes, palign[i] = entry->params[i].align;
        li.nparams = entry->nparams, li.param_off = poff, li.param_size = psize, li.param_align = palign;
    }
    for (unsigned i = 0; i < k->mod->nvars; i++)
        if (k->mod->vars[i].space == SP_SHARED) li.smem_slack += 16;
    symbols sy = {k->mod, prog};
    li.symbol = symbol_addr;
    li.symbol_ctx = &sy;
    if (k->stub) {
        /* no module: the shared variables' size is unknown, so accesses
         * are only held to the most a block may have */
        li.smem_slack = MAX_SMEM;
        li.no_module = 1;
    }
    for (unsigned i = 0; i < k->mod->nfuncs; i++) {
        if (k->mod->funcs[i].has_body) continue;
        li.ext_vprintf |= !strcmp(k->mod->funcs[i].name, "vprintf");
        li.ext_assert |= !strcmp(k->mod->funcs[i].name, "__assertfail");
    }
    return sass_launch(k->sass, entry->name, &li, an, cfg, err, cap);
}

/* What the PTX workers executed, instruction by instruction, into AN
 * (REGS: the launch's registers a thread, or run_ptx's estimate). */
static int collect_exec(coalsim_kernel *k, const coalsim_launch *l, const ptx_program *prog, worker *wk,
                        unsigned nthreads, size_t ncount, uint64_t user_smem, unsigned regs, coalsim_analysis *an,
                        char *err, size_t cap)
{
    coalsim_exec e = {.isa = "PTX", .block_threads = l->block[0] * l->block[1] * l->block[2], .regs = regs,
                      .regs_from = !l->regs && regs ? "estimate" : l->regs_from, .smem_block = user_smem};
    for (unsigned t = 0; t < nthreads; t++) {
        pctx *x = &wk[t].x;
        /* instructions are counted per instruction only (the interpreter's
         * inner loop): the totals are their sums */
        for (size_t j = 0; j < ncount; j++) {
            x->exec.inst_executed += x->icount[2 * j];
            x->exec.thread_inst_executed += x->icount[2 * j + 1];
        }
        ptx_sched_finish(x);
        coalsim_exec_add(&e, &x->exec);
    }
    coalsim_inst *insts = calloc(ncount + 1, sizeof *insts);
    if (!insts) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < k->mod->nfuncs; i++) {
        const pfunc *f = prog->funcs[i];
        if (!f) continue;
        for (uint32_t c = 0; c < f->ncode; c++) {
            const pinst *in = &f->code[c];
            size_t j = f->count_base + c;
            coalsim_inst *d = &insts[j];
            d->text = in->line >= 1 && in->line <= k->nlines ? k->lines[in->line - 1] : in->text;
            d->file = in->src_file ? k->mod->files[in->src_file - 1] : NULL;
            d->src_line = in->src_line;
            d->line = in->line;
            d->addr = j;
            d->label = in->kind == K_MEM ? in->label : NULL;
            for (unsigned t = 0; t < nthreads; t++) {
                d->executed += wk[t].x.icount[2 * j];
                d->threads += wk[t].x.icount[2 * j + 1];
            }
        }
    }
    e.insts = insts;
    e.ninsts = ncount;
    int bad = coalsim_analysis_set_exec(an, &e);
    free(insts);
    if (bad) snprintf(err, cap, "out of memory");
    return bad ? -1 : 0;
}

/* The launch on the PTX interpreter, in clusters CS: blocks on NTHREADS workers. */
static int run_ptx(coalsim_kernel *k, const coalsim_launch *l, const cluster_shape *cs, ptx_program *prog, kmem *mem,
                   const unsigned char *params, unsigned nthreads, uint64_t smem, uint64_t user_smem,
                   coalsim_analysis *an, const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    /* the source view's counters: the entry's instructions, then its callees' */
    size_t ncount = 0;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < k->mod->nfuncs; i++) {
            pfunc *f = prog->funcs[i];
            if (!f || ((int)i == prog->entry) != (pass == 0)) continue;
            f->count_base = (uint32_t)ncount;
            ncount += f->ncode;
        }
    int rc = -1;
    worker *wk = calloc(nthreads, sizeof *wk);
    void **wp = calloc(nthreads, sizeof *wp);
    if (!wk || !wp) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    /* each worker runs whole clusters, their CTAs together */
    const unsigned *cdim = cs->dim, ncta = cs->ncta;
    const int explicit_cluster = cs->explicit_cluster;
    /* the registers a thread: the launch's, else (for the time) an estimate;
     * the SM's port is on a block's path where a SM holds one block at a time, its pipes on any (smport.h) */
    int timed = cfg->hier && cfg->profile;
    unsigned regs = l->regs ? l->regs : timed ? ptx_sched_regs(prog->funcs[prog->entry]) : 0;
    unsigned held = !timed ? 0 : sm_port_held(cfg->limits, l->block[0] * l->block[1] * l->block[2], regs, user_smem,
                                       (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], cfg->hier->sms);
    for (unsigned t = 0; t < nthreads; t++) {
        pctx *x = &wk[t].x;
        memcpy(x->cdim, cdim, sizeof x->cdim);
        x->ncta = ncta;
        x->explicit_cluster = explicit_cluster;
        x->prog = prog;
        x->mem = mem;
        memcpy(x->grid, l->grid, sizeof x->grid);
        memcpy(x->block, l->block, sizeof x->block);
        x->smem_bytes = smem;
        x->kparams = params;
        x->print = l->print;
        x->print_ctx = l->print_ctx;
        x->exec.isa = "PTX";
        x->arch = &cfg->arch;
        if (ptx_sched_setup(x, cfg->hier ? cfg->profile : NULL, cfg->hier ? cfg->hier->sms : 0,
                            cfg->hier ? cfg->hier->l1_bytes : 0, held) != 0) {
            snprintf(err, cap, "out of memory");
            goto done;
        }
        x->interleave = cfg->hier != NULL || cfg->each != NULL;
        x->nmemo = ncount;
        wk[t].nfuncs = k->mod->nfuncs;
        if (cfg->hier && cfg->hier->sms) {
            wk[t].sms = cfg->hier->sms, wk[t].ncta = ncta;
            wk[t].sm_seen = calloc(cfg->hier->sms, sizeof *wk[t].sm_seen);
            wk[t].sm_skip = calloc(cfg->hier->sms, sizeof *wk[t].sm_skip);
            if (!wk[t].sm_seen || !wk[t].sm_skip) {
                snprintf(err, cap, "out of memory");
                goto done;
            }
        }
        x->icount = calloc(2 * ncount + 2, sizeof *x->icount);
        x->memo = calloc(ncount + 1, sizeof *x->memo);
        x->smem = calloc(1, smem + 16);
        int oom = !x->icount || !x->memo || !x->smem;
        x->cta[0].smem = x->smem;
        for (unsigned r = 1; r < ncta && !oom; r++) oom = !(x->cta[r].smem = calloc(1, smem + 16));
        if (oom) {
            snprintf(err, cap, "out of memory");
            goto done;
        }
        wp[t] = &wk[t];
    }
    uint64_t nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] / ncta;
    /* a sample's units are clusters, as the workers': a window is a wave of blocks in clusters */
    uint64_t wave = coalsim_sample_window(nblocks * ncta, l->block[0] * l->block[1] * l->block[2],
                                          cfg->hier ? cfg->hier->sms : 0);
    grid_sampling sp = {.cfg = l->sample, .work = work_of, .held = kmem_held, .held_ctx = mem, .footprint = kmem_footprint(mem),
                        .loops = loops_on, .skipped = loops_skipped,
                        .window = wave / ncta ? wave / ncta : 1};
    if (sp.cfg.mode == COALSIM_SAMPLE_BLOCKS) sp.cfg.blocks = sp.cfg.blocks / ncta ? sp.cfg.blocks / ncta : 1;   /* in clusters */
    grid_job job = {.blocks = nblocks, .threads = nthreads, .workers = wp, .run = run_block,
                    .ordered = cfg->hier != NULL || cfg->each != NULL, .progress = l->progress,
                    .progress_ctx = l->progress_ctx, .sample = &sp};
    if (grid_run(&job, an, cfg, err, cap) != 0) goto done;
    rc = collect_exec(k, l, prog, wk, nthreads, ncount, user_smem, regs, an, err, cap);
    if (rc == 0) rc = extrapolate_loops(prog, k, wk, nthreads, ncount, &sp.out, an, err, cap);
    if (rc == 0) rc = grid_extrapolate(&sp, an, ncta, err, cap);
    else free(sp.ran);
done:
    if (wk)
        for (unsigned t = 0; t < nthreads; t++) {
            /* x.smem is the CTA that ran last: each CTA's memory is freed through cta[] */
            if (!wk[t].x.cta[0].smem) free(wk[t].x.smem);
            for (unsigned r = 0; r < PTX_MAX_CLUSTER; r++) free(wk[t].x.cta[r].smem);
            ptx_ctx_free(&wk[t].x);
            free(wk[t].sm_seen), free(wk[t].sm_skip);
        }
    free(wk);
    free(wp);
    return rc;
}

/* Keep what running entry FI again needs: its parameters' N bytes and the
 * module variables' addresses.  0, or -1 (out of memory). */
static int remember(coalsim_kernel *k, int fi, const ptx_program *prog, const unsigned char *params, size_t n)
{
    k->last_entry = -1;
    unsigned char *pb = realloc(k->last_params, n + 1);
    if (!pb) return -1;
    k->last_params = pb;
    memcpy(pb, params, n);
    uint64_t *vars = realloc(k->last_vars, (k->mod->nvars + 1) * sizeof *vars);
    if (!vars) return -1;
    k->last_vars = vars;
    for (unsigned vi = 0; vi < k->mod->nvars; vi++) vars[vi] = prog->var_addr[vi];
    k->last_entry = fi;
    return 0;
}

int coalsim_kernel_run(coalsim_kernel *k, const coalsim_launch *l, coalsim_analysis *an,
                       const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    int fi = find_entry(k, l->kernel, err, cap);
    if (fi < 0 || check_shape(k, l, err, cap) != 0) return -1;
    const ptx_func *entry = &k->mod->funcs[fi];
    char sig[512];
    coalsim_demangle(entry->name, sig, sizeof sig);
    if (l->again && (k->last_entry != fi || (!k->ext && !k->has_mem))) {
        snprintf(err, cap, "%s: %s cannot run again: it has not run before", k->name, sig);
        return -1;
    }
    kmem *mem = launch_memory(k, l->again, err, cap);
    if (!mem) return -1;
    ptx_program prog;
    if (ptx_program_build(&prog, k->mod, fi, mem, k->ext ? k->placed : l->again ? k->last_vars : NULL, err, cap) != 0) {
        ptx_program_free(&prog);
        return -1;
    }
    int rc = -1;
    /* kept memory: the __constant__ data is what the host last copied there */
    for (unsigned vi = 0; k->ext && vi < k->mod->nvars; vi++)
        if (k->mod->vars[vi].space == SP_CONST && k->placed[vi] &&
            kmem_read(mem, k->placed[vi], prog.const_bank + prog.var_addr[vi], k->mod->vars[vi].bytes) != 0) {
            snprintf(err, cap, "%s: __constant__ %s cannot be read", k->name, k->mod->vars[vi].name);
            goto done;
        }
    const pfunc *pf = prog.funcs[fi];
    unsigned char *params = calloc(1, pf->param_bytes + 8);
    if (!params) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    if (l->again) memcpy(params, k->last_params, pf->param_bytes);
    else if (fill_params(k, l, entry, pf, sig, mem, params, err, cap) != 0) goto done_params;
    if (!l->again && remember(k, fi, &prog, params, pf->param_bytes) != 0) {
        snprintf(err, cap, "out of memory");
        goto done_params;
    }
    uint64_t smem = prog.static_smem + l->dynamic_shared, user = smem - prog.smem_reserved;
    if (user > MAX_SMEM) {
        snprintf(err, cap, "%s: %llu bytes of shared memory a block (%llu static + %llu dynamic): the H100 allows %u",
                 k->name, (unsigned long long)user, (unsigned long long)(prog.static_smem - prog.smem_reserved),
                 (unsigned long long)l->dynamic_shared, MAX_SMEM);
        goto done_params;
    }
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    unsigned nthreads = l->threads;
    if (!nthreads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = cores < 1 ? 1 : cores > 64 ? 64 : (unsigned)cores;
    }
    if (nthreads > blocks) nthreads = (unsigned)blocks;
    /* device printf comes out in block order, as from one thread */
    for (unsigned i = 0; l->print && i < k->mod->nfuncs; i++)
        if (!k->mod->funcs[i].has_body && !strcmp(k->mod->funcs[i].name, "vprintf")) nthreads = 1;
    /* a listing that need not have every kernel: the others run from the PTX */
    int on_sass = k->sass && (!k->sass_where_listed || sass_find_func(k->sass, entry->name) >= 0);
    cluster_shape cs;
    if (shape_of(k, l, pf, &cs, err, cap) != 0) goto done_params;
    rc = on_sass ? run_sass(k, l, &cs, entry, &prog, mem, params, nthreads, user, an, cfg, err, cap)
                 : run_ptx(k, l, &cs, &prog, mem, params, nthreads, smem, user, an, cfg, err, cap);
done_params:
    free(params);
done:
    ptx_program_free(&prog);
    return rc;
}

int coalsim_kernel_run_warm(coalsim_kernel *k, const coalsim_launch *l, coalsim_analysis *an,
                            const coalsim_analysis_cfg *cfg, char *err, size_t cap)
{
    coalsim_analysis_cfg c1 = *cfg;
    c1.each = NULL;
    c1.each_ctx = NULL;
    c1.source = 0;
    c1.l2 = COALSIM_L2_COLD;
    coalsim_analysis *first = coalsim_analysis_new(&c1);
    if (!first) {
        snprintf(err, cap, "%s: out of memory", k->name);
        return -1;
    }
    coalsim_launch again = *l;
    int rc = coalsim_kernel_run(k, l, first, &c1, err, cap);
    if (rc == 0) {
        const coalsim_sample *s = coalsim_analysis_sample(first);
        again.again = !(s && s->sampled);
        if (coalsim_analysis_finish(first) != 0 || coalsim_analysis_inherit_l2(an, first) != 0) {
            snprintf(err, cap, "%s: %s", k->name,
                     coalsim_analysis_error(first)[0] ? coalsim_analysis_error(first) : coalsim_analysis_error(an));
            rc = -1;
        }
    }
    coalsim_analysis_free(first);
    return rc == 0 ? coalsim_kernel_run(k, &again, an, cfg, err, cap) : rc;
}

int coalsim_kernel_read(coalsim_kernel *k, const char *name, uint64_t offset, void *dst, size_t n)
{
    if (!k->has_mem) return -1;
    const kbuf *b = kmem_buffer(&k->mem, name);
    if (!b || offset > b->size || n > b->size - offset) return -1;
    return kmem_read(&k->mem, b->base + offset, dst, n);
}

uint64_t coalsim_kernel_buffer_base(const coalsim_kernel *k, const char *name)
{
    if (!k->has_mem) return 0;
    const kbuf *b = kmem_buffer(&k->mem, name);
    return b ? b->base : 0;
}

size_t coalsim_kernel_buffer_count(const coalsim_kernel *k)
{
    size_t n = 0;
    if (!k->has_mem) return 0;
    for (size_t i = 0; i < k->mem.nbufs; i++) n += k->mem.bufs[i].base >= KMEM_BASE;
    return n;
}

const char *coalsim_kernel_buffer(const coalsim_kernel *k, size_t i, uint64_t *size)
{
    if (!k->has_mem) return NULL;
    for (size_t b = 0; b < k->mem.nbufs; b++) {
        const kbuf *kb = &k->mem.bufs[b];
        if (kb->base < KMEM_BASE) continue;          /* a module variable */
        if (i-- == 0) {
            if (size) *size = kb->sized ? kb->size : 0;
            return kb->name;
        }
    }
    return NULL;
}

int coalsim_kernel_use_memory(coalsim_kernel *k, coalsim_memory *m, char *err, size_t cap)
{
    uint64_t *placed = calloc(k->mod->nvars + 1, sizeof *placed);
    if (!placed) {
        snprintf(err, cap, "%s: out of memory", k->name);
        return -1;
    }
    for (unsigned vi = 0; vi < k->mod->nvars; vi++) {
        const ptx_var *v = &k->mod->vars[vi];
        if (v->space != SP_GLOBAL && v->space != SP_CONST) continue;
        if (!(placed[vi] = kmem_add_var(&m->m, v->name, v->bytes, v->align, v->init))) {
            free(placed);
            snprintf(err, cap, "%s: out of memory", k->name);
            return -1;
        }
    }
    free(k->placed);
    k->placed = placed;
    k->ext = m;
    return 0;
}

uint64_t coalsim_kernel_symbol(const coalsim_kernel *k, const char *name, uint64_t *size)
{
    for (unsigned vi = 0; k->placed && vi < k->mod->nvars; vi++)
        if (k->placed[vi] && !strcmp(k->mod->vars[vi].name, name)) {
            if (size) *size = k->mod->vars[vi].bytes;
            return k->placed[vi];
        }
    return 0;
}

int coalsim_kernel_resources(const coalsim_kernel *k, const char *kernel, const char *arch, coalsim_resources *out,
                             char *err, size_t cap)
{
    const char *entry = coalsim_kernel_entry(k, kernel, err, cap);
    if (!entry) return -1;
    if (!k->module) return 1;
    return coalsim_ptxas_resources(k->module, k->module_len, entry, arch, NULL, out, err, cap);
}

const char *coalsim_kernel_module(const coalsim_kernel *k, size_t *len)
{
    if (len) *len = k->module_len;
    return k->module;
}
