/* The driver's state, modules and launches (driver.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/fatbin.h"
#include "frontend/kernel/demangle.h"
#include "frontend/kernel/readfile.h"

#define SM_ARCH 90u                /* the modelled GPU's: an H100 or H200 (sm_90) */

static driver the_driver = {.lock = PTHREAD_MUTEX_INITIALIZER};

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return *end || errno ? dflt : v;
}

/* The modelled device: an H100 SXM unless the profile names another part. */
static void device_from_profile(driver *d, const char *path)
{
    snprintf(d->device_name, sizeof d->device_name, "NVIDIA H100 80GB HBM3 (coalsim)");
    d->sms = 132;
    d->total_mem = 81559ull << 20;
    FILE *fp = path ? fopen(path, "r") : NULL;
    char line[256];
    while (fp && fgets(line, sizeof line, fp)) {
        char key[64], val[160];
        if (sscanf(line, " %63[a-z_0-9] = %159[^\n]", key, val) != 2) continue;
        if (!strcmp(key, "device")) snprintf(d->device_name, sizeof d->device_name, "%.100s (coalsim)", val);
        if (!strcmp(key, "sms") && atoi(val) > 0) d->sms = (unsigned)atoi(val);
    }
    if (fp) fclose(fp);
    if (strstr(d->device_name, "H200")) d->total_mem = 143771ull << 20;
}

static void setup(driver *d)
{
    d->mem = coalsim_memory_new();
    d->ctx.device = 0;
    d->dir = getenv("COALSIM_RUN_DIR");
    const char *fmt = getenv("COALSIM_RUN_FORMAT");
    d->fmt = fmt && !strcmp(fmt, "json") ? COALSIM_JSON : fmt && !strcmp(fmt, "csv") ? COALSIM_CSV : COALSIM_TEXT;
    d->hier = env_ulong("COALSIM_RUN_HIER", 0) != 0;
    d->source = env_ulong("COALSIM_RUN_SOURCE", 0) != 0;
    d->per_request = env_ulong("COALSIM_RUN_PER_REQUEST", 0) != 0;
    d->picture = env_ulong("COALSIM_RUN_PICTURE", 0) != 0;
    d->html = getenv("COALSIM_RUN_HTML");
    if (d->html && !*d->html) d->html = NULL;
    d->threads = (unsigned)env_ulong("COALSIM_RUN_THREADS", 0);
    /* off unless asked: the program reads what its kernels wrote, and a
     * sampled launch writes only its sample's part */
    const char *smp = getenv("COALSIM_RUN_SAMPLE");
    if (!smp || coalsim_sample_parse(smp, &d->sample) != 0) d->sample.mode = COALSIM_SAMPLE_OFF;
    d->skip = env_ulong("COALSIM_RUN_SKIP", 0);
    d->count = env_ulong("COALSIM_RUN_COUNT", 0);
    const char *k = getenv("COALSIM_RUN_KERNEL");
    if (k && *k) {
        d->kernel_filter = k;
        if (!strncmp(k, "regex:", 6))
            d->filter_regex = regcomp(&d->re, k + 6, REG_EXTENDED | REG_NOSUB) == 0 ? 1 : -1;
    }
    const char *sl = getenv("COALSIM_RUN_SASS");
    if (sl && *sl && (d->sass_text = kfile_read(sl, &d->sass_len)) != NULL) d->sass_path = sl;
    const char *prof = getenv("COALSIM_RUN_PROFILE");
    if (prof && *prof) {
        FILE *fp = fopen(prof, "r");
        char err[400];
        if (fp && coalsim_profile_read(fp, prof, &d->profile, err, sizeof err) == 0) d->have_profile = 1;
        if (fp) fclose(fp);
    }
    device_from_profile(d, d->have_profile ? prof : NULL);
    d->ready = 1;
}

driver *drv_get(void)
{
    driver *d = &the_driver;
    if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&d->lock);
        if (!d->ready) setup(d);
        pthread_mutex_unlock(&d->lock);
    }
    return d;
}

/* FILE in the run's directory, opened with MODE; NULL without a directory. */
static FILE *run_file(const driver *d, const char *name, const char *mode)
{
    if (!d->dir) return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", d->dir, name);
    return fopen(path, mode);
}

void drv_unsupported(const char *name)
{
    driver *d = drv_get();
    FILE *fp = run_file(d, "unsupported", "a");
    if (!fp) return;
    fprintf(fp, "%s\n", name);
    fclose(fp);
}

CUresult drv_module_load(driver *d, const void *image, struct drv_module **out)
{
    struct drv_module *m = calloc(1, sizeof *m);
    if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
    char err[20000], *ptx = NULL;
    size_t len = 0;
    int rc = fatbin_ptx(image, SM_ARCH, &ptx, &len, err, sizeof err);
    if (rc < 0) {
        free(m);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    if (rc == 0) {
        /* the program's modules in messages and labels: PROGRAM.N.ptx (a
         * program built with -lineinfo has its source lines there too) */
        char name[128];
        snprintf(name, sizeof name, "%.100s.%lu.ptx", program_invocation_short_name, ++d->modules);
        m->k = coalsim_kernel_load_ptx(ptx, len, name, err, sizeof err);
        free(ptx);
        if (!m->k && strstr(err, "no kernel (.entry)")) {
            /* a module of device functions and variables only */
            snprintf(m->err, sizeof m->err, "%.500s", err);
        } else if (!m->k) {
            FILE *fp = run_file(d, "modules", "a");
            if (fp) fprintf(fp, "%s\n", err), fclose(fp);
            free(m);
            return CUDA_ERROR_INVALID_PTX;
        } else if (d->sass_text && coalsim_kernel_use_sass_where_listed(m->k, d->sass_text, d->sass_len, d->sass_path, err,
                                                                        sizeof err) != 0) {
            FILE *fp = run_file(d, "modules", "a");
            if (fp) fprintf(fp, "%s\n", err), fclose(fp);
            coalsim_kernel_free(m->k);
            free(m);
            return CUDA_ERROR_INVALID_IMAGE;
        } else if (coalsim_kernel_use_memory(m->k, d->mem, err, sizeof err) != 0) {
            coalsim_kernel_free(m->k);
            free(m);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    } else {
        snprintf(m->err, sizeof m->err, "the module holds %.300s; coalsim runs PTX (nvcc puts it in with "
                 "-gencode arch=compute_XX,code=compute_XX, and -arch=sm_XX does by default)", err);
    }
    m->next = d->mods;
    d->mods = m;
    *out = m;
    return CUDA_SUCCESS;
}

void drv_module_unload(driver *d, struct drv_module *m)
{
    for (struct drv_module **p = &d->mods; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    /* its functions stay valid handles that no longer launch */
    for (struct drv_func *f = d->funcs; f; f = f->next)
        if (f->mod == m) f->mod = NULL;
    coalsim_kernel_free(m->k);
    free(m);
}

CUresult drv_module_function(driver *d, struct drv_module *m, const char *name, struct drv_func **out)
{
    if (!m || !name) return CUDA_ERROR_INVALID_VALUE;
    for (struct drv_func *f = d->funcs; f; f = f->next)
        if (f->mod == m && !strcmp(f->name, name)) {
            *out = f;
            return CUDA_SUCCESS;
        }
    int found = 0;
    for (size_t i = 0; m->k && i < coalsim_kernel_count(m->k); i++) found |= !strcmp(coalsim_kernel_name(m->k, i), name);
    if (!found && m->k) return CUDA_ERROR_NOT_FOUND;
    /* a module without PTX still gives handles: the launch says why it cannot run */
    struct drv_func *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) {
        free(f);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    f->mod = m;
    f->max_dynamic_shared = 48u << 10;
    f->next = d->funcs;
    d->funcs = f;
    *out = f;
    return CUDA_SUCCESS;
}

int drv_func_resources(driver *d, struct drv_func *f)
{
    (void)d;
    if (f->have_res) return 0;
    if (!f->mod || !f->mod->k) return 1;
    char err[4096];
    if (coalsim_kernel_resources(f->mod->k, f->name, "sm_90a", &f->res, err, sizeof err) != 0) return 1;
    f->have_res = 1;
    return 0;
}

/* Device printf: into the program's stdout, as the GPU's driver writes it. */
static void print_out(void *ctx, const char *text, size_t n)
{
    (void)ctx;
    fwrite(text, 1, n, stdout);
}

/* The requests of a reported launch, one by one (--per-request, --picture,
 * --html): text lines and pictures, JSON objects, or the first ones kept
 * for the HTML report. */
#define HTML_REQUESTS 64
typedef struct {
    const driver *d;
    const coalsim_arch *arch;
    FILE *text;                 /* text lines (and pictures), or NULL */
    FILE *json;                 /* JSON objects, or NULL */
    size_t n;
    coalsim_request req[HTML_REQUESTS];
    coalsim_result res[HTML_REQUESTS];
    char label[HTML_REQUESTS][COALSIM_MAX_LABEL + 1];
    size_t kept;
} each_ctx;

static int each_request(void *ctx, const coalsim_request *r, const coalsim_result *res, const coalsim_hier_counts *h)
{
    each_ctx *e = ctx;
    if (e->text) {
        fputs("  ", e->text);
        coalsim_report_request(e->text, e->arch, r, res);
        if (h) coalsim_report_request_hier(e->text, r, h);
        if (e->d->picture) coalsim_picture_text(e->text, e->arch, r, res, 0);
    }
    if (e->json) coalsim_report_request_json(e->json, r, res, h, e->n == 0);
    if (e->d->html && e->kept < HTML_REQUESTS) {
        size_t k = e->kept++;
        e->req[k] = *r;
        e->res[k] = *res;
        snprintf(e->label[k], sizeof e->label[k], "%s", r->label);
        e->req[k].label = e->label[k];
    }
    e->n++;
    return 0;
}

/* FILE with -N before its extension (out.html: out-3.html). */
static void numbered(const char *file, unsigned long n, char *out, size_t cap)
{
    const char *slash = strrchr(file, '/'), *dot = strrchr(file, '.');
    if (!dot || (slash && dot < slash)) snprintf(out, cap, "%s-%lu", file, n);
    else snprintf(out, cap, "%.*s-%lu%s", (int)(dot - file), file, n, dot);
}

/* Whether launch number N (from 1) of kernel NAME (demangled D) is reported. */
static int selected(const driver *d, unsigned long n, const char *name, const char *dem)
{
    if (d->kernel_filter) {
        char base[512];
        coalsim_demangled_base(dem, base, sizeof base);
        if (d->filter_regex > 0) {
            if (regexec(&d->re, dem, 0, NULL, 0) != 0 && regexec(&d->re, name, 0, NULL, 0) != 0) return 0;
        } else if (d->filter_regex == 0 && strcmp(d->kernel_filter, name) && strcmp(d->kernel_filter, dem) &&
                   strcmp(d->kernel_filter, base)) {
            return 0;
        }
    }
    (void)n;
    return 1;
}

/* What a GPU returns for the interpreter's error ERR, and whether it is the
 * program's fault (a GPU would fault too) rather than coalsim's. */
static CUresult fault_of(const char *err, int *program)
{
    *program = 1;
    if (strstr(err, "misaligned address")) return CUDA_ERROR_MISALIGNED_ADDRESS;
    if (strstr(err, ": assertion '")) return CUDA_ERROR_ASSERT;
    if (strstr(err, "outside every buffer") || strstr(err, "outside the shared memory") ||
        strstr(err, "out of bounds") || strstr(err, "is beyond the"))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    *program = 0;
    return strstr(err, "not supported") ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_LAUNCH_FAILED;
}

/* S as a JSON string into FP. */
static void json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(fp, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(fp, "\\u%04x", *s);
        else fputc(*s, fp);
    }
    fputc('"', fp);
}

static void write_report(driver *d, unsigned long n, const char *dem, const unsigned grid[3], const unsigned block[3],
                         unsigned shared, const coalsim_analysis *an, const char *requests)
{
    static const char *ext[] = {"txt", "json", "csv"};
    char file[64], title[1100];
    snprintf(file, sizeof file, "launch-%06lu.%s", n, ext[d->fmt]);
    snprintf(title, sizeof title, "launch %lu: %s", n, dem);
    FILE *fp = run_file(d, file, "w");
    if (!fp) return;
    if (d->fmt == COALSIM_TEXT) {
        fprintf(fp, "== launch %lu: %s  grid (%u,%u,%u)  block (%u,%u,%u)  dynamic shared %u bytes\n", n, dem, grid[0],
                grid[1], grid[2], block[0], block[1], block[2], shared);
        if (requests) fprintf(fp, "Requests of %s\n%s\n", dem, requests);
        coalsim_analysis_report(fp, COALSIM_TEXT, dem, an, NULL);
    } else if (d->fmt == COALSIM_CSV) {
        coalsim_analysis_report(fp, COALSIM_CSV, title, an, NULL);
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *ms = open_memstream(&buf, &len);
        if (ms) {
            coalsim_analysis_report(ms, COALSIM_JSON, dem, an, requests);
            fclose(ms);
        }
        const char *brace = buf ? strchr(buf, '{') : NULL;
        fprintf(fp, "{\"launch\": %lu, \"kernel\": ", n);
        json_string(fp, dem);
        fprintf(fp, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_shared\": %u", grid[0], grid[1],
                grid[2], block[0], block[1], block[2], shared);
        if (brace) {
            const char *rest = brace + 1;
            while (*rest == ' ' || *rest == '\n') rest++;
            fprintf(fp, *rest == '}' ? " %s" : ", %s", rest);
        } else {
            fputs("}\n", fp);
        }
        free(buf);
    }
    fclose(fp);
}

/* A launch that did not run: a kernel fault the GPU would have too (.fault),
 * or something coalsim cannot run (.err). */
static void write_error(driver *d, unsigned long n, const char *dem, const char *what, const char *err)
{
    char file[64];
    snprintf(file, sizeof file, "launch-%06lu.%s", n, strcmp(what, "kernel fault") ? "err" : "fault");
    FILE *fp = run_file(d, file, "w");
    if (!fp) return;
    fprintf(fp, "launch %lu: %s: %s: %s\n", n, dem, what, err);
    fclose(fp);
}

CUresult drv_launch(driver *d, struct drv_func *f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                    void **params, void **extra)
{
    if (d->sticky) return d->sticky;
    unsigned long n = ++d->launches;
    char dem[1024];
    coalsim_demangle(f->name, dem, sizeof dem);
    if (!f->mod || !f->mod->k) {
        write_error(d, n, dem, "cannot run", f->mod ? f->mod->err : "its module was unloaded");
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    int report = selected(d, n, f->name, dem);
    if (report) {
        unsigned long nth = ++d->reported;
        report = nth > d->skip && (!d->count || nth - d->skip <= d->count);
    }
    coalsim_analysis_cfg cfg = {.mlp = 16, .source = d->source};
    coalsim_hier_cfg hcfg;
    coalsim_sm_limits lim;
    coalsim_arch_preset("hopper", &cfg.arch);
    /* every launch through the caches (the next one starts with the L2 this
     * one leaves) and the time model (events see every launch) */
    if (d->hier) {
        coalsim_hier_preset("hopper", &hcfg);
        if (d->have_profile && d->profile.l2_bytes) hcfg.l2_bytes = d->profile.l2_bytes;
        if (d->have_profile) hcfg.l2_home_mask = d->profile.l2_home_mask;
        cfg.hier = &hcfg;
        if (d->have_profile) {
            coalsim_sm_limits_preset("hopper", &lim);
            cfg.profile = &d->profile;
            cfg.limits = &lim;
        }
    }
    each_ctx *ec = NULL;
    char *rbuf = NULL;
    size_t rlen = 0;
    FILE *rstream = NULL;
    if (report && (d->per_request || d->html)) {
        if (!(ec = calloc(1, sizeof *ec))) return CUDA_ERROR_OUT_OF_MEMORY;
        ec->d = d;
        ec->arch = &cfg.arch;
        if (d->per_request && d->fmt != COALSIM_CSV && !(rstream = open_memstream(&rbuf, &rlen))) {
            free(ec);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        *(d->fmt == COALSIM_JSON ? &ec->json : &ec->text) = rstream;
        cfg.each = each_request;
        cfg.each_ctx = ec;
    }
    /* the first launch finds nothing of its own in L2 (as ncu's replay); each
     * later one the L2 the launch before it left */
    if (cfg.hier) cfg.l2 = d->last ? COALSIM_L2_INHERITED : COALSIM_L2_COLD;
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    if (!an) {
        if (rstream) fclose(rstream);
        free(rbuf);
        free(ec);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (d->last && coalsim_analysis_inherit_l2(an, d->last) != 0) {
        coalsim_analysis_free(an);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    coalsim_launch l = {.kernel = f->name, .dynamic_shared = shared, .threads = d->threads,
                        .param_values = (const void *const *)params, .print = print_out, .sample = d->sample};
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    memcpy(l.cluster, d->cluster, sizeof l.cluster);
    if (!params && extra) {
        for (void **e = extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
            if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER) l.param_buffer = e[1];
            else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE) l.param_buffer_size = *(size_t *)e[1];
        }
    }
    if (cfg.profile && drv_func_resources(d, f) == 0) {
        l.regs = f->res.regs;
        l.regs_from = "ptxas";
    }
    char err[20000] = "";
    CUresult rc = CUDA_SUCCESS;
    if (coalsim_kernel_run(f->mod->k, &l, an, &cfg, err, sizeof err) != 0 || coalsim_analysis_finish(an) != 0) {
        if (!err[0]) snprintf(err, sizeof err, "%s", coalsim_analysis_error(an));
        int program;
        rc = fault_of(err, &program);
        write_error(d, n, dem, program ? "kernel fault" : "coalsim cannot run it", err);
        if (program) d->sticky = rc;
    } else {
        const coalsim_time *t = coalsim_analysis_time(an);
        if (t) d->now_us += t->total_us;
        if (rstream) {
            fclose(rstream);
            rstream = NULL;
        }
        if (report) write_report(d, n, dem, grid, block, shared, an, rbuf);
        if (report && d->html) {
            char path[4200];
            numbered(d->html, n, path, sizeof path);
            FILE *h = fopen(path, "w");
            coalsim_report_extra hx = {.exec = coalsim_analysis_exec(an), .time = coalsim_analysis_time(an),
                                       .sample = coalsim_analysis_sample(an)};
            if (!h || coalsim_report_html_ext(h, dem, &cfg.arch, coalsim_analysis_stats(an), ec->req, ec->res, ec->kept,
                                              &hx) != 0 || fclose(h) != 0) {
                if (h) fclose(h);
                write_error(d, n, dem, "cannot write the HTML report", path);
            }
        }
    }
    if (rstream) fclose(rstream);
    free(rbuf);
    free(ec);
    if (rc == CUDA_SUCCESS && cfg.hier) {
        coalsim_analysis_free(d->last);
        d->last = an;
    } else {
        coalsim_analysis_free(an);
    }
    fflush(stdout);
    return rc;
}
