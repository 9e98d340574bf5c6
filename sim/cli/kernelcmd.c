/* The command's side of the kernel front end (see kernelcmd.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernelcmd.h"

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

int kernel_path(const char *path) { return ends_with(path, ".cu") || ends_with(path, ".ptx"); }

int kernel_dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        if (*s < '0' || *s > '9') return -1;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v == 0 || v > 0xffffffffu) return -1;
        d[k] = (unsigned)v;
        if (!*end) return 0;
        if (*end != ',' && *end != 'x') return -1;
        s = end + 1;
    }
    return -1;
}

static const struct {
    const char *preset, *sm;
} sms[] = {{"hopper", "sm_90"}, {"ada", "sm_89"}, {"ampere", "sm_80"}, {"turing", "sm_75"}, {"volta", "sm_70"},
           {"pascal", "sm_60"}, {"maxwell", "sm_50"}, {"kepler", "sm_35"}, {"fermi", "sm_20"}};

const char *kernel_sm_of_preset(const char *preset)
{
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++)
        if (!strcmp(sms[i].preset, preset)) return sms[i].sm;
    return NULL;
}

const char *kernel_preset_of_sm(const char *sm)
{
    if (strncmp(sm, "sm_", 3) || sm[3] < '0' || sm[3] > '9') return NULL;
    int n = atoi(sm + 3);
    if (n >= 90) return "hopper";
    if (n == 89) return "ada";
    if (n >= 80) return "ampere";
    if (n >= 75) return "turing";
    if (n >= 70) return "volta";
    if (n >= 60) return "pascal";
    if (n >= 50) return "maxwell";
    return NULL;
}

/* The progress line, on a terminal, once a run has taken a second. */
typedef struct {
    const char *name;
    struct timespec start;
    int shown;
} progress;

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double el = (double)(now.tv_sec - p->start.tv_sec) + (now.tv_nsec - p->start.tv_nsec) * 1e-9;
    if (done >= total) {
        if (p->shown) fprintf(stderr, "\r\033[K");
        return;
    }
    if (el < 1.0) return;
    fprintf(stderr, "\rcoalsim: %s: %3.0f%% (%llu of %llu blocks, %.0f s)\033[K", p->name,
            total ? 100.0 * (double)done / (double)total : 0.0, (unsigned long long)done, (unsigned long long)total, el);
    p->shown = 1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, fp)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, (cap *= 2) + 1);
            if (!nb) free(b);
            b = nb;
        }
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!b || bad) {
        free(b);
        return NULL;
    }
    b[n] = '\0';
    *len = n;
    return b;
}

/* Write every sized buffer of K's last run into DIR/NAME.bin. */
static int dump_buffers(coalsim_kernel *k, const char *dir)
{
    uint64_t size;
    const char *name;
    char buf[1 << 16];
    for (size_t i = 0; (name = coalsim_kernel_buffer(k, i, &size)); i++) {
        if (!size) continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.bin", dir, name);
        FILE *fp = fopen(path, "wb");
        if (!fp) {
            fprintf(stderr, "coalsim: %s: cannot write: %s\n", path, strerror(errno));
            return -1;
        }
        int bad = 0;
        for (uint64_t off = 0; off < size && !bad; off += sizeof buf) {
            size_t n = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
            bad = coalsim_kernel_read(k, name, off, buf, n) != 0 || fwrite(buf, 1, n, fp) != n;
        }
        if (fclose(fp) != 0 || bad) {
            fprintf(stderr, "coalsim: %s: cannot write the buffer\n", path);
            return -1;
        }
    }
    return 0;
}

int kernel_run(const char *path, const kernel_opts *ko, coalsim_analysis *an, const coalsim_analysis_cfg *cfg,
               unsigned threads)
{
    char err[20000];
    size_t len = 0;
    char *text;
    if (ends_with(path, ".cu")) {
        coalsim_compile c = {.arch = ko->sm, .defines = ko->defines, .includes = ko->includes, .compiler = ko->compiler};
        text = coalsim_compile_cu(path, &c, &len, err, sizeof err);
        if (!text) {
            fprintf(stderr, "coalsim: %s\n", err);
            return -1;
        }
    } else {
        text = read_file(path, &len);
        if (!text) {
            fprintf(stderr, "coalsim: %s: cannot read: %s\n", path, strerror(errno));
            return -1;
        }
    }
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, len, path, err, sizeof err);
    if (!k) {
        free(text);
        fprintf(stderr, "coalsim: %s\n", err);
        return -1;
    }
    progress pg = {.name = path};
    clock_gettime(CLOCK_MONOTONIC, &pg.start);
    coalsim_launch l = {.kernel = ko->kernel, .dynamic_shared = ko->dynamic_shared, .args = ko->args,
                        .threads = threads};
    /* registers a thread, for the time's occupancy: --regs, else ptxas -v;
     * without ptxas the library estimates them from the PTX (the report
     * says which) */
    if (ko->regs) {
        l.regs = ko->regs;
        l.regs_from = "--regs";
    } else if (cfg->hier && cfg->profile) {
        char perr[4096];
        coalsim_resources res;
        const char *entry = coalsim_kernel_entry(k, ko->kernel, perr, sizeof perr);
        if (entry && coalsim_ptxas_resources(text, len, entry, ko->sm, NULL, &res, perr, sizeof perr) == 0) {
            l.regs = res.regs;
            l.regs_from = "ptxas";
        }
    }
    free(text);
    memcpy(l.grid, ko->grid, sizeof l.grid);
    memcpy(l.block, ko->block, sizeof l.block);
    if (isatty(2)) {
        l.progress = show_progress;
        l.progress_ctx = &pg;
    }
    int rc = coalsim_kernel_run(k, &l, an, cfg, err, sizeof err);
    if (pg.shown) fprintf(stderr, "\r\033[K");
    if (rc != 0) fprintf(stderr, "coalsim: %s\n", err);
    if (rc == 0 && ko->dump) rc = dump_buffers(k, ko->dump);
    coalsim_kernel_free(k);
    return rc;
}
