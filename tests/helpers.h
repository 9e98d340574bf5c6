/* Helpers shared by the Check suites: build warp requests in a line. */
#ifndef COALSIM_TEST_HELPERS_H
#define COALSIM_TEST_HELPERS_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "coalsim.h"

Suite *make_arch_suite(void);
Suite *make_gmem_suite(void);
Suite *make_smem_suite(void);
Suite *make_trace_suite(void);
Suite *make_stats_suite(void);
Suite *make_probes_suite(void);
Suite *make_seeds_suite(void);
Suite *make_alloc_suite(void);
Suite *make_binary_suite(void);
Suite *make_sketch_suite(void);
Suite *make_hier_suite(void);
Suite *make_timing_suite(void);
Suite *make_report_suite(void);
Suite *make_analysis_suite(void);
Suite *make_grid_suite(void);
Suite *make_kernel_suite(void);
Suite *make_sass_suite(void);
Suite *make_import_suite(void);
Suite *make_sketch_oracle_suite(void);
Suite *make_matrix_suite(void);
Suite *make_tensor_suite(void);
Suite *make_hopper_suite(void);
Suite *make_sample_suite(void);

/* A request of SIZE-byte lanes whose address is f(lane), all 32 lanes active. */
#define REQ_FOR(req, op_, space_, size_, expr)                                  \
    do {                                                                        \
        memset(&(req), 0, sizeof(req));                                         \
        (req).op = (op_);                                                       \
        (req).space = (space_);                                                 \
        (req).size = (size_);                                                   \
        (req).label = "t";                                                      \
        for (unsigned lane = 0; lane < 32; lane++) {                            \
            (req).addr[lane] = (uint64_t)(expr);                                \
            (req).active |= 1u << lane;                                         \
        }                                                                       \
    } while (0)

static inline coalsim_arch arch_of(const char *name)
{
    coalsim_arch a;
    ck_assert_int_eq(coalsim_arch_preset(name, &a), 0);
    return a;
}

static inline coalsim_result model(const char *arch, const coalsim_request *r)
{
    coalsim_arch a = arch_of(arch);
    coalsim_result res;
    coalsim_model(&a, r, &res);
    return res;
}

/* The whole file PATH, NUL-terminated (the caller frees it); *LEN its
 * bytes.  The test fails if it cannot be read. */
static inline char *read_whole_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *t = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(t, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    t[n] = '\0';
    *len = (size_t)n;
    return t;
}

/* The kernel of the PTX file PATH (the test fails if it does not load). */
static inline coalsim_kernel *load_ptx_file(const char *path)
{
    size_t n;
    char *t = read_whole_file(path, &n), err[512];
    coalsim_kernel *k = coalsim_kernel_load_ptx(t, n, path, err, sizeof err);
    free(t);
    ck_assert_msg(k != NULL, "%s", err);
    return k;
}

/* What --hier --profile gpu/profiles/h100.txt configures on the hopper
 * preset (the profile, caches and limits are static: an analysis keeps
 * pointers to them); the test fails if the profile does not read. */
static inline coalsim_analysis_cfg h100_timed_cfg(void)
{
    static coalsim_profile p;
    static coalsim_hier_cfg h;
    static coalsim_sm_limits lim;
    char err[256];
    FILE *fp = fopen("gpu/profiles/h100.txt", "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(coalsim_profile_read(fp, "gpu/profiles/h100.txt", &p, err, sizeof err), 0);
    fclose(fp);
    ck_assert_int_eq(coalsim_hier_preset("hopper", &h), 0);
    ck_assert_int_eq(coalsim_sm_limits_preset("hopper", &lim), 0);
    return (coalsim_analysis_cfg){.arch = arch_of("hopper"), .hier = &h, .profile = &p, .limits = &lim, .mlp = 16};
}

/* Launch KERNEL of K on the hopper preset, on two threads: L's grid,
 * block, cluster, dynamic shared memory and args (its kernel and threads
 * are set here).  0, or -1 with the message in ERR (1024 bytes).  *AN (if
 * given) gets the finished analysis, else it is freed. */
static inline int kernel_launch(coalsim_kernel *k, const char *kernel, coalsim_launch l, char *err, coalsim_analysis **an)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    l.kernel = kernel;
    l.threads = 2;
    int rc = coalsim_kernel_run(k, &l, a, &cfg, err, 1024);
    coalsim_analysis_finish(a);
    if (an) *an = a;
    else coalsim_analysis_free(a);
    return rc;
}

/* Metric NAME of a kernel run's analysis AN, 0 if it has none. */
static inline uint64_t kernel_metric(const coalsim_analysis *an, const char *name)
{
    coalsim_metric m[COALSIM_MAX_METRICS];
    coalsim_report_extra ex = {.exec = coalsim_analysis_exec(an)};
    size_t n = coalsim_metrics(coalsim_analysis_stats(an), &ex, m);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].name, name)) return m[i].value;
    return 0;
}

/* An IEEE half's value. */
static inline float half_value(uint16_t h)
{
    unsigned e = h >> 10 & 31, m = h & 0x3ff;
    float v = e ? ldexpf(1.0f + m / 1024.0f, (int)e - 15) : ldexpf(m / 1024.0f, -14);
    return h >> 15 ? -v : v;
}

/* Open a string as a FILE for the reader. */
static inline FILE *str_file(const char *s)
{
    FILE *fp = fmemopen((void *)s, strlen(s), "r");
    ck_assert_ptr_nonnull(fp);
    return fp;
}

/* The requests of text trace TEXT, written as a binary trace in memory
 * (caller frees); its length in *len. */
static inline char *to_binary(const char *text, unsigned warp, size_t *len)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    FILE *in = str_file(text);
    coalsim_reader *rd = coalsim_reader_new(in, "t", warp);
    coalsim_bwriter *w = coalsim_bwriter_new(out, warp);
    coalsim_request r;
    while (coalsim_reader_next(rd, &r) == 1) ck_assert_int_eq(coalsim_bwriter_put(w, &r), 0);
    ck_assert_int_eq(coalsim_bwriter_finish(w), 0);
    coalsim_bwriter_free(w);
    coalsim_reader_free(rd);
    fclose(in);
    fclose(out);
    return buf;
}

#endif
