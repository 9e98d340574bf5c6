/* Helpers shared by the Check suites: build warp requests in a line. */
#ifndef COALSIM_TEST_HELPERS_H
#define COALSIM_TEST_HELPERS_H

#include <check.h>
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
