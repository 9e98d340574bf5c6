/* The command's side of the kernel front end (see kernelcmd.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernelcmd.h"
#include "progress.h"

int kernel_kind(const char *path) { return (int)coalsim_kernel_kind_of(path); }

int kernel_path(const char *path) { return kernel_kind(path) != KK_NONE; }

int kernel_dims(const char *s, unsigned d[3]) { return coalsim_parse_dims(s, d); }

static const struct {
    const char *preset, *sm;
} sms[] = {{"hopper", "sm_90a"}, {"ada", "sm_89"}, {"ampere", "sm_80"}, {"turing", "sm_75"}, {"volta", "sm_70"},
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
    coalsim_kernel_source src = {.module = ko->ptx, .sass = ko->sass,
                                 .compile = {.arch = ko->sm, .defines = ko->defines, .includes = ko->includes,
                                             .compiler = ko->compiler}};
    coalsim_kernel *k = coalsim_kernel_open(path, &src, err, sizeof err);
    if (!k) {
        fprintf(stderr, "coalsim: %s\n", err);
        return -1;
    }
    coalsim_launch l = {.kernel = ko->kernel, .dynamic_shared = ko->dynamic_shared, .args = ko->args,
                        .threads = threads, .sample = ko->sample};
    /* registers a thread, for the time's occupancy: --regs, else ptxas -v */
    if (ko->regs) {
        l.regs = ko->regs;
        l.regs_from = "--regs";
    } else if (cfg->hier && cfg->profile) {
        /* without a module or ptxas the library estimates them from the
         * PTX, and the report says which */
        char perr[4096];
        coalsim_resources res;
        if (coalsim_kernel_resources(k, ko->kernel, ko->sm, &res, perr, sizeof perr) == 0) {
            l.regs = res.regs;
            l.regs_from = "ptxas";
        }
    }
    memcpy(l.grid, ko->grid, sizeof l.grid);
    memcpy(l.block, ko->block, sizeof l.block);
    memcpy(l.cluster, ko->cluster, sizeof l.cluster);
    progress pg;
    progress_start(&pg, path, "blocks", 1);
    l.progress = progress_update;
    l.progress_ctx = &pg;
    /* --l2 warm: the second of two launches back to back */
    int rc = ko->warm ? coalsim_kernel_run_warm(k, &l, an, cfg, err, sizeof err)
                      : coalsim_kernel_run(k, &l, an, cfg, err, sizeof err);
    progress_end(&pg);
    if (rc != 0) fprintf(stderr, "coalsim: %s\n", err);
    if (rc == 0 && ko->dump) rc = dump_buffers(k, ko->dump);
    coalsim_kernel_free(k);
    return rc;
}
