/* The analysis (the request stream's consumer), the constant-cache model and
 * the predicted ncu metrics. */
#include <stdlib.h>

#include "helpers.h"

static uint64_t metric(const coalsim_stats *st, const coalsim_report_extra *ex, const char *name)
{
    coalsim_metric m[COALSIM_MAX_METRICS];
    size_t n = coalsim_metrics(st, ex, m);
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0) return m[i].value;
    ck_abort_msg("metric %s not reported", name);
    return 0;
}

static int has_metric(const coalsim_stats *st, const coalsim_report_extra *ex, const char *name)
{
    coalsim_metric m[COALSIM_MAX_METRICS];
    size_t n = coalsim_metrics(st, ex, m);
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0) return 1;
    return 0;
}

START_TEST(test_cmem_distinct_addresses_are_passes)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_CONST, 4, 0);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_CONST, 4, 4 * (lane % 8));
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 8);
    ck_assert_uint_eq(res.ideal_wavefronts, 1);
}
END_TEST

START_TEST(test_local_and_atomics_count_sectors_like_global)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_ATOM, COALSIM_GLOBAL, 4, 0x1000 + 4 * lane);
    ck_assert_uint_eq(model("hopper", &r).sectors, 4);
    REQ_FOR(r, COALSIM_LD, COALSIM_LOCAL, 4, 4 * lane);
    ck_assert_uint_eq(model("hopper", &r).sectors, 4);
}
END_TEST

/* Half the requests in one analysis, half in another, merged: the totals and
 * the access order of one analysis of them all. */
START_TEST(test_analysis_merge_equals_one_pass)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *all = coalsim_analysis_new(&cfg), *a = coalsim_analysis_new(&cfg), *b = coalsim_analysis_new(&cfg);
    const char *labels[3] = {"x", "y", "z"};
    for (int i = 0; i < 40; i++) {
        coalsim_request r;
        REQ_FOR(r, i % 3 ? COALSIM_LD : COALSIM_ST, i % 2 ? COALSIM_SHARED : COALSIM_GLOBAL, 4,
                (uint64_t)(i * 128 + 4 * lane * (i % 5 + 1)));
        r.label = labels[(i / 7) % 3];
        ck_assert_int_eq(coalsim_analysis_put(all, &r), 0);
        ck_assert_int_eq(coalsim_analysis_put(i < 20 ? a : b, &r), 0);
    }
    ck_assert_int_eq(coalsim_analysis_merge(a, b), 0);
    const coalsim_stats *s1 = coalsim_analysis_stats(all), *s2 = coalsim_analysis_stats(a);
    ck_assert_uint_eq(coalsim_stats_count(s1), coalsim_stats_count(s2));
    for (size_t i = 0; i < coalsim_stats_count(s1); i++) {
        const coalsim_access *x = coalsim_stats_get(s1, i), *y = coalsim_stats_get(s2, i);
        ck_assert_str_eq(x->label, y->label);
        ck_assert_uint_eq(x->requests, y->requests);
        ck_assert_uint_eq(x->sectors, y->sectors);
        ck_assert_uint_eq(x->wavefronts, y->wavefronts);
    }
    coalsim_analysis_free(all);
    coalsim_analysis_free(a);
    coalsim_analysis_free(b);
}
END_TEST

typedef struct {
    unsigned long lines[4], n;
} seen;

static int record_line(void *ctx, const coalsim_request *r, const coalsim_result *res, const coalsim_hier_counts *d)
{
    seen *c = ctx;
    (void)res;
    ck_assert_ptr_null(d);      /* no hierarchy asked for */
    c->lines[c->n++] = r->line;
    return 0;
}

START_TEST(test_analysis_calls_each_request_in_order)
{
    seen c = {{0}, 0};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper"), .each = record_line, .each_ctx = &c};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    for (unsigned long i = 1; i <= 4; i++) {
        coalsim_request r;
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
        r.line = i * 10;
        coalsim_analysis_put(an, &r);
    }
    ck_assert_uint_eq(c.n, 4);
    ck_assert_uint_eq(c.lines[0], 10);
    ck_assert_uint_eq(c.lines[3], 40);
    coalsim_analysis_free(an);
}
END_TEST

START_TEST(test_metrics_of_a_trace_have_no_instruction_total)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 0x1000 + 8 * lane);     /* 8 sectors */
    coalsim_analysis_put(an, &r);
    REQ_FOR(r, COALSIM_ST, COALSIM_SHARED, 4, 4 * 32 * (lane % 2));   /* 2-way: 2 wavefronts */
    coalsim_analysis_put(an, &r);
    const coalsim_stats *st = coalsim_analysis_stats(an);
    ck_assert_uint_eq(metric(st, NULL, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 1);
    ck_assert_uint_eq(metric(st, NULL, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8);
    ck_assert_uint_eq(metric(st, NULL, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 2);
    ck_assert_uint_eq(metric(st, NULL, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 1);
    ck_assert_uint_eq(metric(st, NULL, "smsp__inst_executed_op_shared_st.sum"), 1);
    ck_assert(!has_metric(st, NULL, "smsp__inst_executed.sum"));
    ck_assert(!has_metric(st, NULL, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"));
    coalsim_analysis_free(an);
}
END_TEST

START_TEST(test_metrics_of_a_kernel_take_its_instruction_counts)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    coalsim_exec e = {.isa = "SASS", .blocks = 2, .warps_launched = 16, .inst_executed = 1000};
    e.inst_mem[COALSIM_SHARED][COALSIM_LD] = 40;     /* predicated-off ones included */
    coalsim_analysis_set_exec(an, &e);
    coalsim_report_extra ex = {.exec = coalsim_analysis_exec(an)};
    const coalsim_stats *st = coalsim_analysis_stats(an);
    ck_assert_uint_eq(metric(st, &ex, "smsp__inst_executed.sum"), 1000);
    ck_assert_uint_eq(metric(st, &ex, "smsp__warps_launched.sum"), 16);
    ck_assert_uint_eq(metric(st, &ex, "smsp__inst_executed_op_shared_ld.sum"), 40);
    coalsim_analysis_free(an);
}
END_TEST

Suite *make_analysis_suite(void)
{
    Suite *s = suite_create("analysis");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_cmem_distinct_addresses_are_passes);
    tcase_add_test(c, test_local_and_atomics_count_sectors_like_global);
    tcase_add_test(c, test_analysis_merge_equals_one_pass);
    tcase_add_test(c, test_analysis_calls_each_request_in_order);
    tcase_add_test(c, test_metrics_of_a_trace_have_no_instruction_total);
    tcase_add_test(c, test_metrics_of_a_kernel_take_its_instruction_counts);
    suite_add_tcase(s, c);
    return s;
}
