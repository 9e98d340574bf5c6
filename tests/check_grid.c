/* Running a grid's blocks on threads: the same report as one thread, the
 * first failing block's error, requests in block order when asked. */
#include <stdlib.h>

#include "frontend/grid.h"
#include "helpers.h"

static const char *const labels[3] = {"a", "b", "c"};

/* Block B makes B % 5 + 1 requests with a pattern of its own; block FAIL_AT
 * fails. */
typedef struct {
    uint64_t fail_at;
} fake;

static int fake_block(void *w, uint64_t b, coalsim_sink sink, char *err, size_t cap)
{
    fake *f = w;
    if (b == f->fail_at) {
        snprintf(err, cap, "block %llu failed", (unsigned long long)b);
        return -1;
    }
    for (unsigned i = 0; i <= b % 5; i++) {
        coalsim_request r;
        REQ_FOR(r, i % 2 ? COALSIM_ST : COALSIM_LD, b % 3 ? COALSIM_GLOBAL : COALSIM_SHARED, 4,
                (uint64_t)(b * 4096 + 4 * lane * (i + 1)));
        r.label = labels[(b + i) % 3];
        r.block = b;
        r.line = b * 10 + i;
        if (sink.put(sink.ctx, &r) != 0) return -1;
    }
    return 0;
}

static coalsim_analysis *run_grid(unsigned threads, int ordered, uint64_t fail_at, int *rc, char *err,
                                  coalsim_each_fn each, void *each_ctx)
{
    fake f[4] = {{fail_at}, {fail_at}, {fail_at}, {fail_at}};
    void *w[4] = {&f[0], &f[1], &f[2], &f[3]};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper"), .each = each, .each_ctx = each_ctx};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    grid_job job = {.blocks = 1000, .threads = threads, .workers = w, .run = fake_block, .ordered = ordered};
    *rc = grid_run(&job, an, &cfg, err, 256);
    return an;
}

static void same_stats(const coalsim_stats *x, const coalsim_stats *y)
{
    ck_assert_uint_eq(coalsim_stats_count(x), coalsim_stats_count(y));
    for (size_t i = 0; i < coalsim_stats_count(x); i++) {
        const coalsim_access *p = coalsim_stats_get(x, i), *q = coalsim_stats_get(y, i);
        ck_assert_str_eq(p->label, q->label);
        ck_assert_int_eq(p->op, q->op);
        ck_assert_uint_eq(p->requests, q->requests);
        ck_assert_uint_eq(p->sectors, q->sectors);
        ck_assert_uint_eq(p->wavefronts, q->wavefronts);
        ck_assert_uint_eq(p->first_line, q->first_line);
    }
}

START_TEST(test_grid_on_four_threads_reports_what_one_thread_does)
{
    int rc1, rc4, rco;
    char err[256];
    coalsim_analysis *one = run_grid(1, 0, UINT64_MAX, &rc1, err, NULL, NULL);
    coalsim_analysis *four = run_grid(4, 0, UINT64_MAX, &rc4, err, NULL, NULL);
    coalsim_analysis *ord = run_grid(4, 1, UINT64_MAX, &rco, err, NULL, NULL);
    ck_assert_int_eq(rc1, 0);
    ck_assert_int_eq(rc4, 0);
    ck_assert_int_eq(rco, 0);
    same_stats(coalsim_analysis_stats(one), coalsim_analysis_stats(four));
    same_stats(coalsim_analysis_stats(one), coalsim_analysis_stats(ord));
    coalsim_analysis_free(one);
    coalsim_analysis_free(four);
    coalsim_analysis_free(ord);
}
END_TEST

START_TEST(test_grid_reports_the_first_failing_block)
{
    for (int ordered = 0; ordered < 2; ordered++) {
        int rc;
        char err[256];
        coalsim_analysis *an = run_grid(4, ordered, 637, &rc, err, NULL, NULL);
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(err, "block 637 failed");
        coalsim_analysis_free(an);
    }
}
END_TEST

typedef struct {
    uint64_t last_line, n;
    int in_order;
} order;

static int check_order(void *ctx, const coalsim_request *r, const coalsim_result *res, const coalsim_hier_counts *d)
{
    order *o = ctx;
    (void)res, (void)d;
    if (o->n++ && r->line <= o->last_line) o->in_order = 0;
    o->last_line = r->line;
    return 0;
}

START_TEST(test_grid_ordered_hands_requests_over_in_block_order)
{
    order o = {0, 0, 1};
    int rc;
    char err[256];
    coalsim_analysis *an = run_grid(3, 1, UINT64_MAX, &rc, err, check_order, &o);
    ck_assert_int_eq(rc, 0);
    ck_assert(o.in_order);
    ck_assert_uint_eq(o.n, 200 * (1 + 2 + 3 + 4 + 5));
    coalsim_analysis_free(an);
}
END_TEST

Suite *make_grid_suite(void)
{
    Suite *s = suite_create("grid");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_grid_on_four_threads_reports_what_one_thread_does);
    tcase_add_test(c, test_grid_reports_the_first_failing_block);
    tcase_add_test(c, test_grid_ordered_hands_requests_over_in_block_order);
    suite_add_tcase(s, c);
    return s;
}
