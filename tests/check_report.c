/* The report writers with the memory hierarchy: what JSON, CSV and HTML carry. */
#include <stdlib.h>

#include "helpers.h"

/* A stats object with one global load (hierarchy counts added) and one
 * shared load. */
static coalsim_stats *two_accesses(void)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_stats *st = coalsim_stats_new();
    ck_assert_ptr_nonnull(st);
    coalsim_request r;
    coalsim_result res;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
    coalsim_model(&a, &r, &res);
    ck_assert_int_eq(coalsim_stats_add(st, &r, &res), 0);
    coalsim_hier_counts d = {.l1_sectors = 4, .l2_sectors = 4, .l2_hits = 1, .dram_read = 96};
    coalsim_stats_add_hier(st, &d);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * lane);
    r.label = "s";
    coalsim_model(&a, &r, &res);
    ck_assert_int_eq(coalsim_stats_add(st, &r, &res), 0);
    return st;
}

static char *report(coalsim_format fmt, const coalsim_stats *st, const coalsim_report_extra *ex)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    coalsim_arch a = arch_of("hopper");
    if (fmt == COALSIM_CSV) ck_assert_int_eq(coalsim_report_csv_header(out, ex && ex->hier), 0);
    ck_assert_int_eq(coalsim_report_ext(out, fmt, "k", &a, st, ex), 0);
    fclose(out);
    return buf;
}

static unsigned fields(const char *line, const char *end)
{
    unsigned n = 1;
    for (; line < end; line++) n += *line == ',';
    return n;
}

START_TEST(test_csv_rows_have_the_headers_fields_with_and_without_hier)
{
    coalsim_stats *st = two_accesses();
    coalsim_hier_cfg cfg;
    ck_assert_int_eq(coalsim_hier_preset("hopper", &cfg), 0);
    coalsim_report_extra ex = {.hier = &cfg};
    for (int h = 0; h < 2; h++) {
        char *csv = report(COALSIM_CSV, st, h ? &ex : NULL);
        const char *nl = strchr(csv, '\n');
        unsigned want = fields(csv, nl), rows = 0;
        ck_assert_uint_eq(want, h ? 23 : 17);
        for (const char *p = nl + 1; *p; p = nl + 1, rows++) {
            nl = strchr(p, '\n');
            ck_assert_ptr_nonnull(nl);
            ck_assert_uint_eq(fields(p, nl), want);
        }
        ck_assert_uint_eq(rows, 2);
        if (h) ck_assert_ptr_nonnull(strstr(csv, ",1,4,0,4,1,96\n"));   /* the global row's: 1 line */
        free(csv);
    }
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_json_gives_hierarchy_per_global_access_and_the_time_only_when_predicted)
{
    coalsim_stats *st = two_accesses();
    coalsim_hier_cfg cfg;
    ck_assert_int_eq(coalsim_hier_preset("hopper", &cfg), 0);
    coalsim_report_extra ex = {.hier = &cfg, .dirty = 7};
    char *js = report(COALSIM_JSON, st, &ex);
    const char *shared = strstr(js, "\"label\": \"s\"");
    const char *first = strstr(js, "\"hierarchy\": {\"l1_wavefronts\": 1, \"l1_sectors\": 4, \"l1_hit_sectors\": 0, \"l2_sectors\": 4, "
                                    "\"l2_hit_sectors\": 1, \"dram_read_bytes\": 96}");
    ck_assert_ptr_nonnull(shared);
    ck_assert_ptr_nonnull(first);
    ck_assert(first < shared);                             /* the global access's, not the shared one's */
    ck_assert_ptr_nonnull(strstr(js, "\"dirty_bytes_left\": 7"));
    ck_assert_ptr_null(strstr(js, "\"time\""));
    free(js);
    coalsim_time tm = {.total_us = 12.5, .bound = "latency", .latency_us = 6, .latency_modelled = 1, .mlp = 16};
    ex.time = &tm;
    js = report(COALSIM_JSON, st, &ex);
    ck_assert_ptr_nonnull(strstr(js, "\"time\": {\"total_us\": 12.5, \"bound\": \"latency\""));
    ck_assert_ptr_nonnull(strstr(js, "\"mlp\": 16"));
    free(js);
    js = report(COALSIM_JSON, st, NULL);
    ck_assert_ptr_null(strstr(js, "hierarchy"));
    free(js);
    coalsim_stats_free(st);
}
END_TEST

static char *html(const coalsim_stats *st, const coalsim_report_extra *ex)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    coalsim_arch a = arch_of("hopper");
    ck_assert_int_eq(coalsim_report_html_ext(out, "k", &a, st, NULL, NULL, 0, ex), 0);
    fclose(out);
    return buf;
}

/* WHAT's occurrences in the SVG element S starts (up to its end). */
static unsigned occurrences(const char *s, const char *what)
{
    const char *end = strstr(s, "</svg>");
    ck_assert_ptr_nonnull(end);
    unsigned n = 0;
    for (const char *p = s; (p = strstr(p, what)) && p < end; p++) n++;
    return n;
}

START_TEST(test_html_draws_the_time_terms_with_the_bound_in_red_only_when_predicted)
{
    coalsim_stats *st = two_accesses();
    char *page = html(st, NULL);
    ck_assert_ptr_null(strstr(page, "Predicted time"));
    free(page);
    coalsim_time tm = {.total_us = 13.4, .bound = "pipe", .launch_us = 3.4, .exec_modelled = 1, .issue_us = 7,
                       .pipe_us = 10, .pipe = "fma", .smem_us = 2, .path_us = 6, .dram_us = 1};
    coalsim_report_extra ex = {.time = &tm};
    page = html(st, &ex);
    ck_assert_ptr_nonnull(strstr(page, "<h2>Predicted time</h2>"));
    ck_assert_ptr_nonnull(strstr(page, "class=\"timechart\""));
    /* nine terms and the total's two parts; one bar, the pipe's, in red */
    const char *chart = strstr(page, "class=\"timechart\"");
    ck_assert_uint_eq(occurrences(chart, "<rect"), 11);
    ck_assert_uint_eq(occurrences(chart, "fill=\"#d62728\""), 1);
    ck_assert_ptr_nonnull(strstr(chart, "fill=\"#d62728\"><title>pipe: 10.00 us"));
    ck_assert_ptr_nonnull(strstr(chart, "10.0 us fma"));
    free(page);
    /* a trace's time: the memory terms */
    tm = (coalsim_time){.total_us = 8, .bound = "DRAM", .launch_us = 3, .dram_us = 5, .l2_us = 1, .l1_us = 2};
    page = html(st, &ex);
    chart = strstr(page, "class=\"timechart\"");
    ck_assert_ptr_nonnull(chart);
    ck_assert_uint_eq(occurrences(chart, "<rect"), 7);
    ck_assert_ptr_nonnull(strstr(chart, "fill=\"#d62728\"><title>DRAM: 5.00 us"));
    free(page);
    coalsim_stats_free(st);
}
END_TEST

Suite *make_report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("hierarchy");
    tcase_add_test(tc, test_csv_rows_have_the_headers_fields_with_and_without_hier);
    tcase_add_test(tc, test_json_gives_hierarchy_per_global_access_and_the_time_only_when_predicted);
    tcase_add_test(tc, test_html_draws_the_time_terms_with_the_bound_in_red_only_when_predicted);
    suite_add_tcase(s, tc);
    return s;
}
