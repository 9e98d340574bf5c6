/* A kernel from a file of any kind: a .cu (compiled to PTX), a .ptx, a SASS
 * listing (.sass, .nvdisasm) or a binary (.cubin, .fatbin, any ELF file,
 * disassembled), with the module a listing came from when one is given and
 * the SASS of a .cu/.ptx when asked; and a launch by names and plain values
 * for bindings (python/coalsim). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "frontend/kernel/readfile.h"

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

static int is_elf(const char *path)
{
    unsigned char m[4] = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t n = fread(m, 1, 4, fp);
    fclose(fp);
    return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

int coalsim_binary_check(const char *path, char *err, size_t cap)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    unsigned char h[64];
    size_t n = fread(h, 1, sizeof h, fp);
    long size = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    fclose(fp);
    if (n < 4 || memcmp(h, "\177ELF", 4) != 0) return 0;     /* judged by its name: the disassembler says */
    if (n < sizeof h || h[4] != 2 || h[5] != 1) {
        snprintf(err, cap, "%s: starts as an ELF file but is not a whole 64-bit little-endian one (%zu bytes): "
                 "not a trace, and not a cubin, fatbinary or program coalsim can read", path, n);
        return -1;
    }
    uint64_t phoff = 0, shoff = 0;
    for (int i = 7; i >= 0; i--) phoff = phoff << 8 | h[32 + i], shoff = shoff << 8 | h[40 + i];
    uint64_t phend = phoff + (uint64_t)(h[54] | h[55] << 8) * (h[56] | h[57] << 8);
    uint64_t shend = shoff + (uint64_t)(h[58] | h[59] << 8) * (h[60] | h[61] << 8);
    uint64_t need = phend > shend ? phend : shend;
    if (size < 0 || (uint64_t)size < need) {
        snprintf(err, cap, "%s: a truncated ELF file (%ld bytes; its headers say at least %llu): not a trace, and "
                 "not a cubin, fatbinary or program coalsim can read", path, size, (unsigned long long)need);
        return -1;
    }
    return 0;
}

coalsim_kernel_kind coalsim_kernel_kind_of(const char *path)
{
    if (!path || !strcmp(path, "-")) return COALSIM_KERNEL_NONE;
    if (ends_with(path, ".cu")) return COALSIM_KERNEL_CU;
    if (ends_with(path, ".ptx")) return COALSIM_KERNEL_PTX;
    if (ends_with(path, ".sass") || ends_with(path, ".nvdisasm")) return COALSIM_KERNEL_LISTING;
    if (ends_with(path, ".cubin") || ends_with(path, ".fatbin") || is_elf(path)) return COALSIM_KERNEL_BINARY;
    return COALSIM_KERNEL_NONE;
}

/* The PTX of the module PATH (.cu compiled, .ptx read). */
static char *module_ptx(const char *path, const coalsim_kernel_source *src, size_t *len, char *err, size_t cap)
{
    coalsim_kernel_kind k = coalsim_kernel_kind_of(path);
    if (k == COALSIM_KERNEL_CU) return coalsim_compile_cu(path, src ? &src->compile : NULL, len, err, cap);
    if (k != COALSIM_KERNEL_PTX) {
        snprintf(err, cap, "%s: a module is a .cu or .ptx file", path);
        return NULL;
    }
    char *t = kfile_read(path, len);
    if (!t) snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
    return t;
}

coalsim_kernel *coalsim_kernel_open(const char *path, const coalsim_kernel_source *src, char *err, size_t cap)
{
    coalsim_kernel_kind kind = coalsim_kernel_kind_of(path);
    if (kind == COALSIM_KERNEL_NONE) {
        snprintf(err, cap, "%s: not a kernel file (.cu, .ptx, .sass, .nvdisasm, .cubin, .fatbin or ELF)", path);
        return NULL;
    }
    int sass = src && src->sass;
    const char *module = kind == COALSIM_KERNEL_CU || kind == COALSIM_KERNEL_PTX ? path : src ? src->module : NULL;
    if (sass && module == (src ? src->module : NULL)) {
        snprintf(err, cap, "%s: is SASS already (asking for its SASS goes with a .cu or .ptx file)", path);
        return NULL;
    }
    size_t len = 0, slen = 0;
    char *ptx = NULL, *text = NULL;
    coalsim_kernel *k = NULL;
    if (module && !(ptx = module_ptx(module, src, &len, err, cap))) return NULL;
    if (kind == COALSIM_KERNEL_LISTING) {
        if (!(text = kfile_read(path, &slen))) {
            snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
            goto fail;
        }
    } else if (kind == COALSIM_KERNEL_BINARY) {
        if (coalsim_binary_check(path, err, cap) != 0 || !(text = coalsim_disassemble(path, &slen, err, cap)))
            goto fail;
    } else if (sass) {
        const char *arch = src->compile.arch ? src->compile.arch : "sm_90";
        if (!(text = coalsim_compile_sass(ptx, len, path, arch, &slen, err, cap))) goto fail;
    }
    if (ptx) {
        if (!(k = coalsim_kernel_load_ptx(ptx, len, module, err, cap))) goto fail;
        if (text && coalsim_kernel_use_sass(k, text, slen, path, err, cap) != 0) goto fail;
    } else if (!(k = coalsim_kernel_load_sass(text, slen, path, err, cap))) {
        goto fail;
    }
    free(ptx);
    free(text);
    return k;
fail:
    coalsim_kernel_free(k);
    free(ptx);
    free(text);
    return NULL;
}

int coalsim_parse_dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    if (!s) return -1;
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

/* coalsim_analysis_run_kernel, or (WARM) its _warm. */
static int run_kernel(coalsim_analysis *an, const char *path, const char *kernel, const char *grid, const char *block,
                      const char *cluster, const char *args, uint64_t dynamic_shared, const char *module, int sass,
                      const char *sample, unsigned threads, int warm, char *err, size_t cap)
{
    coalsim_launch l = {.kernel = kernel && *kernel ? kernel : NULL, .dynamic_shared = dynamic_shared,
                        .args = args, .threads = threads};
    if (sample && coalsim_sample_parse(sample, &l.sample) != 0) {
        snprintf(err, cap, "sample '%.40s': auto, off or a number of blocks", sample);
        return -1;
    }
    if (coalsim_parse_dims(grid, l.grid) != 0) {
        snprintf(err, cap, "grid '%.40s': X[,Y[,Z]], each at least 1", grid ? grid : "(null)");
        return -1;
    }
    if (coalsim_parse_dims(block, l.block) != 0) {
        snprintf(err, cap, "block '%.40s': X[,Y[,Z]], each at least 1", block ? block : "(null)");
        return -1;
    }
    if (cluster && *cluster && coalsim_parse_dims(cluster, l.cluster) != 0) {
        snprintf(err, cap, "cluster '%.40s': X[,Y[,Z]], each at least 1", cluster);
        return -1;
    }
    coalsim_kernel_source src = {.module = module && *module ? module : NULL, .sass = sass};
    coalsim_kernel *k = coalsim_kernel_open(path, &src, err, cap);
    if (!k) return -1;
    coalsim_analysis_cfg cfg;
    coalsim_analysis_cfg_of(an, &cfg);
    int rc = warm ? coalsim_kernel_run_warm(k, &l, an, &cfg, err, cap) : coalsim_kernel_run(k, &l, an, &cfg, err, cap);
    coalsim_kernel_free(k);
    return rc;
}

int coalsim_analysis_run_kernel(coalsim_analysis *an, const char *path, const char *kernel, const char *grid,
                                const char *block, const char *cluster, const char *args, uint64_t dynamic_shared,
                                const char *module, int sass, const char *sample, unsigned threads, char *err,
                                size_t cap)
{
    return run_kernel(an, path, kernel, grid, block, cluster, args, dynamic_shared, module, sass, sample, threads, 0,
                      err, cap);
}

int coalsim_analysis_run_kernel_warm(coalsim_analysis *an, const char *path, const char *kernel, const char *grid,
                                     const char *block, const char *cluster, const char *args, uint64_t dynamic_shared,
                                     const char *module, int sass, const char *sample, unsigned threads, char *err,
                                     size_t cap)
{
    return run_kernel(an, path, kernel, grid, block, cluster, args, dynamic_shared, module, sass, sample, threads, 1,
                      err, cap);
}
