/* Sampled launches: which windows run, the estimate and its stated error,
 * and sampled runs against full runs of the same launch. */
#include <stdlib.h>

#include "frontend/grid.h"
#include "helpers.h"

START_TEST(test_sample_pick_takes_the_first_the_last_and_even_steps_between)
{
    uint64_t p[16];
    ck_assert_uint_eq(coalsim_sample_pick(10, 4, p), 4);
    ck_assert_uint_eq(p[0], 0);
    ck_assert_uint_eq(p[1], 3);
    ck_assert_uint_eq(p[2], 6);
    ck_assert_uint_eq(p[3], 9);
    /* more than there are: every window, once */
    ck_assert_uint_eq(coalsim_sample_pick(5, 9, p), 5);
    for (uint64_t i = 0; i < 5; i++) ck_assert_uint_eq(p[i], i);
    ck_assert_uint_eq(coalsim_sample_pick(1000000, 3, p), 3);
    ck_assert_uint_eq(p[1], 500000);
    ck_assert_uint_eq(p[2], 999999);
}
END_TEST

START_TEST(test_sample_parse_takes_auto_off_and_a_positive_count_only)
{
    coalsim_sample_cfg c;
    ck_assert_int_eq(coalsim_sample_parse("auto", &c), 0);
    ck_assert_int_eq(c.mode, COALSIM_SAMPLE_AUTO);
    ck_assert_int_eq(coalsim_sample_parse("off", &c), 0);
    ck_assert_int_eq(c.mode, COALSIM_SAMPLE_OFF);
    ck_assert_int_eq(coalsim_sample_parse("2500", &c), 0);
    ck_assert_int_eq(c.mode, COALSIM_SAMPLE_BLOCKS);
    ck_assert_uint_eq(c.blocks, 2500);
    ck_assert_int_eq(coalsim_sample_parse("0", &c), -1);
    ck_assert_int_eq(coalsim_sample_parse("-3", &c), -1);
    ck_assert_int_eq(coalsim_sample_parse("12k", &c), -1);
    ck_assert_int_eq(coalsim_sample_parse("", &c), -1);
}
END_TEST

START_TEST(test_sample_estimate_of_alike_windows_is_exact_with_no_error)
{
    coalsim_sample s = {.sampled = 1, .blocks = 1000, .windows = 100};
    double fig[4][COALSIM_SAMPLE_FIGS];
    uint64_t n[4] = {10, 10, 10, 10};
    for (int i = 0; i < 4; i++) fig[i][0] = 30, fig[i][1] = 120, fig[i][2] = 0, fig[i][3] = 77;
    coalsim_sample_estimate(&s, 4, (const double (*)[COALSIM_SAMPLE_FIGS])fig, n);
    ck_assert_double_eq_tol(s.factor, 25.0, 1e-12);
    ck_assert_double_eq_tol(s.estimate[COALSIM_SF_REQUESTS], 3000, 1e-9);
    ck_assert_double_eq_tol(s.estimate[COALSIM_SF_SECTORS], 12000, 1e-9);
    ck_assert_double_eq_tol(s.estimate[COALSIM_SF_INST], 7700, 1e-9);
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) ck_assert_double_eq(s.error[f], 0);
}
END_TEST

START_TEST(test_sample_estimate_states_an_error_that_grows_with_the_windows_spread)
{
    coalsim_sample a = {.sampled = 1, .blocks = 1000, .windows = 100}, b = a;
    double near[4][COALSIM_SAMPLE_FIGS] = {{29}, {31}, {30}, {30}}, far[4][COALSIM_SAMPLE_FIGS] = {{10}, {50}, {20}, {40}};
    uint64_t n[4] = {10, 10, 10, 10};
    coalsim_sample_estimate(&a, 4, (const double (*)[COALSIM_SAMPLE_FIGS])near, n);
    coalsim_sample_estimate(&b, 4, (const double (*)[COALSIM_SAMPLE_FIGS])far, n);
    ck_assert_double_eq_tol(a.estimate[0], 3000, 1e-9);
    ck_assert(a.error[0] > 0 && a.error[0] < b.error[0]);
    /* a single window: no spread to see, so no error can be stated */
    coalsim_sample c = {.sampled = 1, .blocks = 1000, .windows = 100};
    coalsim_sample_estimate(&c, 1, (const double (*)[COALSIM_SAMPLE_FIGS])near, n);
    ck_assert_double_eq(c.error[0], -1);
}
END_TEST

/* ---- grids of fake blocks: block B makes COUNT(B) requests ---- */

typedef struct {
    int random;                  /* 0: B % 5 + 1 requests; 1: a hash of B's, 1 to 16; 2: 200 for the first 100
                                    blocks, 1 for the rest (work only where a grid-stride index is in range) */
} fake;

static unsigned count_of(const fake *f, uint64_t b)
{
    if (!f->random) return (unsigned)(b % 5 + 1);
    if (f->random == 2) return b < 100 ? 200 : 1;
    uint64_t z = (b + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    return (unsigned)((z >> 40) % 16 + 1);
}

static int fake_block(void *w, uint64_t b, coalsim_sink sink, char *err, size_t cap)
{
    (void)err, (void)cap;
    const fake *f = w;
    for (unsigned i = 0; i < count_of(f, b); i++) {
        coalsim_request r;
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, (uint64_t)(b * 65536 + 4 * lane * (i % 3 + 1)));
        r.label = "x";
        r.block = b;
        if (sink.put(sink.ctx, &r) != 0) return -1;
    }
    return 0;
}

/* 4000 blocks in windows of 20, about WANT of them run (0: every block). */
static coalsim_analysis *run_fake(int random, uint64_t want, unsigned threads, int ordered, grid_sampling *sp)
{
    static fake f[2];
    f[0].random = f[1].random = random;
    void *w[2] = {&f[0], &f[1]};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    *sp = (grid_sampling){.cfg = {.mode = want ? COALSIM_SAMPLE_BLOCKS : COALSIM_SAMPLE_OFF, .blocks = want},
                          .window = 20};
    grid_job job = {.blocks = 4000, .threads = threads, .workers = w, .run = fake_block, .ordered = ordered,
                    .sample = sp};
    char err[256];
    ck_assert_msg(grid_run(&job, an, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(grid_extrapolate(sp, an, 1, err, sizeof err) == 0, "%s", err);
    return an;
}

static uint64_t requests_of(const coalsim_analysis *an)
{
    return coalsim_stats_get(coalsim_analysis_stats(an), 0)->requests;
}

START_TEST(test_sample_of_windows_holding_whole_periods_is_exact)
{
    /* B % 5 + 1 requests: a window of 20 blocks holds four periods */
    grid_sampling sp;
    coalsim_analysis *full = run_fake(0, 0, 2, 0, &sp);
    ck_assert_int_eq(sp.out.sampled, 0);
    coalsim_analysis *part = run_fake(0, 400, 2, 0, &sp);
    ck_assert_int_eq(sp.out.sampled, 1);
    ck_assert_uint_lt(sp.out.run, 4000 / 4);
    ck_assert_uint_eq(requests_of(full), 12000);
    ck_assert_uint_eq(requests_of(part), 12000);
    ck_assert_double_eq(sp.out.error[COALSIM_SF_REQUESTS], 0);
    ck_assert_ptr_nonnull(coalsim_analysis_sample(part));
    ck_assert_ptr_null(coalsim_analysis_sample(full));
    coalsim_analysis_free(full);
    coalsim_analysis_free(part);
}
END_TEST

START_TEST(test_sample_of_irregular_blocks_lands_within_its_stated_error)
{
    grid_sampling sp;
    coalsim_analysis *full = run_fake(1, 0, 2, 1, &sp);
    coalsim_analysis *part = run_fake(1, 600, 2, 1, &sp);
    double truth = (double)requests_of(full), est = (double)requests_of(part), e = sp.out.error[COALSIM_SF_REQUESTS];
    ck_assert(e > 0 && e < 0.2);
    ck_assert_msg(fabs(est - truth) <= e * est, "estimate %.0f, full run %.0f, stated error %.2f%%", est, truth, 100 * e);
    /* the sectors follow the requests (1, 2 or 4 a request) */
    ck_assert(sp.out.error[COALSIM_SF_SECTORS] > 0);
    coalsim_analysis_free(full);
    coalsim_analysis_free(part);
}
END_TEST

START_TEST(test_sample_auto_adds_windows_while_an_error_is_large_within_its_budget)
{
    grid_sampling sp;
    coalsim_analysis *full = run_fake(1, 0, 2, 1, &sp);
    /* auto with a budget of about 1000 blocks' requests: 16 windows first (320 blocks), then, the error
     * being above 0.5%, the budget's spread of windows too */
    static fake f[2] = {{1}, {1}};
    void *w[2] = {&f[0], &f[1]};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    sp = (grid_sampling){.cfg = {.mode = COALSIM_SAMPLE_AUTO, .budget = 8500}, .window = 20};
    grid_job job = {.blocks = 4000, .threads = 2, .workers = w, .run = fake_block, .ordered = 1, .sample = &sp};
    char err[256];
    ck_assert_msg(grid_run(&job, an, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(grid_extrapolate(&sp, an, 1, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sp.out.sampled, 1);
    ck_assert_uint_gt(sp.out.windows_run, 16);
    ck_assert_uint_gt(sp.out.run, 800);
    ck_assert_uint_lt(sp.out.run, 1500);
    double truth = (double)requests_of(full), est = (double)requests_of(an), e = sp.out.error[COALSIM_SF_REQUESTS];
    ck_assert_msg(e > 0 && fabs(est - truth) <= e * est, "estimate %.0f, full run %.0f, stated error %.2f%%", est, truth,
                  100 * e);
    coalsim_analysis_free(full);
    coalsim_analysis_free(an);
}
END_TEST

START_TEST(test_sample_auto_whose_pilot_alone_has_work_samples_on_within_its_budget_and_states_the_error)
{
    /* the first 100 of 4000 blocks make 200 requests, the rest 1 (23,900 in all): the pilot's blocks
     * say 200 a block, so the budget of 8500 allows 42 blocks, of which only window 0 has work; an
     * estimate from those alone was 3.2x the truth.  The windows run so far cost little, so auto takes
     * twice as many a round while the budget holds them */
    static fake f[2] = {{2}, {2}};
    void *w[2] = {&f[0], &f[1]};
    grid_sampling off = {.cfg = {.mode = COALSIM_SAMPLE_OFF}, .window = 20};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *full = coalsim_analysis_new(&cfg), *an = coalsim_analysis_new(&cfg);
    grid_job job = {.blocks = 4000, .threads = 2, .workers = w, .run = fake_block, .ordered = 1, .sample = &off};
    char err[256];
    ck_assert_msg(grid_run(&job, full, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(grid_extrapolate(&off, full, 1, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(requests_of(full), 23900);
    grid_sampling sp = {.cfg = {.mode = COALSIM_SAMPLE_AUTO, .budget = 8500}, .window = 20};
    job.sample = &sp;
    ck_assert_msg(grid_run(&job, an, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(grid_extrapolate(&sp, an, 1, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(sp.out.sampled, 1);
    ck_assert_uint_gt(sp.out.run, 400);
    double truth = 23900, est = (double)requests_of(an), e = sp.out.error[COALSIM_SF_REQUESTS];
    ck_assert_msg(e > 0 && fabs(est - truth) <= e * est && fabs(est - truth) < 0.15 * truth,
                  "estimate %.0f, full run %.0f, stated error %.2f%%, %llu blocks ran", est, truth, 100 * e,
                  (unsigned long long)sp.out.run);
    /* the requests that ran: within twice the budget */
    ck_assert_double_le(est / sp.out.factor, 2 * 8500);
    coalsim_analysis_free(full);
    coalsim_analysis_free(an);
}
END_TEST

START_TEST(test_sample_is_the_same_on_one_thread_or_two_ordered_or_not)
{
    grid_sampling a, b, c;
    coalsim_analysis *x = run_fake(1, 600, 1, 0, &a), *y = run_fake(1, 600, 2, 0, &b), *z = run_fake(1, 600, 2, 1, &c);
    ck_assert_uint_eq(requests_of(x), requests_of(y));
    ck_assert_uint_eq(requests_of(x), requests_of(z));
    ck_assert_uint_eq(a.out.run, b.out.run);
    ck_assert_uint_eq(a.out.run, c.out.run);
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) {
        ck_assert_double_eq(a.out.error[f], b.out.error[f]);
        ck_assert_double_eq(a.out.error[f], c.out.error[f]);
    }
    coalsim_analysis_free(x);
    coalsim_analysis_free(y);
    coalsim_analysis_free(z);
}
END_TEST

/* ---- kernels ---- */

/* A whole run and a sampled one of the same kernel, done with. */
static void free_runs(coalsim_analysis *full, coalsim_analysis *part, coalsim_kernel *k1, coalsim_kernel *k2)
{
    coalsim_analysis_free(full);
    coalsim_analysis_free(part);
    coalsim_kernel_free(k1);
    coalsim_kernel_free(k2);
}

/* Thread i of block b sums x[(i + 4096 k) % 2^20] for k < n[b]: n, from
 * randint, varies from block to block (a data-dependent loop). */
static const char *gather_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry gather(.param .u64 p_n, .param .u64 p_x, .param .u64 p_y)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<12>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [p_n];\n  ld.param.u64 %rd2, [p_x];\n  ld.param.u64 %rd3, [p_y];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n  cvta.to.global.u64 %rd3, %rd3;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r3, %r2;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n  ld.global.u32 %r5, [%rd5];\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.u32 %r6, 0;\n"
    "  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra DONE;\n"
    "LOOP:\n  mad.lo.s32 %r7, %r6, 4096, %r4;\n  and.b32 %r7, %r7, 1048575;\n"
    "  mul.wide.u32 %rd6, %r7, 4;\n  add.s64 %rd7, %rd2, %rd6;\n  ld.global.f32 %f2, [%rd7];\n"
    "  add.f32 %f1, %f1, %f2;\n  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p2, %r6, %r5;\n  @%p2 bra LOOP;\n"
    "DONE:\n  mul.wide.u32 %rd8, %r4, 4;\n  add.s64 %rd9, %rd3, %rd8;\n  st.global.f32 [%rd9], %f1;\n  ret;\n}\n";

static coalsim_analysis *run_gather(const char *sample, coalsim_kernel **kp)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_ptx(gather_ptx, strlen(gather_ptx), "gather.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = "gather", .grid = {8192, 1, 1}, .block = {64, 1, 1},
                        .args = "n:32K=randint:5:24,x:4M=random:1,y:2M", .threads = 2};
    ck_assert_int_eq(coalsim_sample_parse(sample, &l.sample), 0);
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    *kp = k;
    return a;
}

START_TEST(test_sample_of_a_data_dependent_kernel_lands_within_its_stated_error)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *full = run_gather("off", &k1), *part = run_gather("1024", &k2);
    const coalsim_sample *s = coalsim_analysis_sample(part);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_le(s->run, 1200);
    /* its loop's address is masked (and.b32): no warp jumps over iterations */
    ck_assert_uint_eq(s->loop_jumps, 0);
    const char *names[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed.sum"};
    const double err[] = {s->error[COALSIM_SF_REQUESTS], s->error[COALSIM_SF_INST]};
    for (int i = 0; i < 2; i++) {
        double truth = (double)kernel_metric(full, names[i]), est = (double)kernel_metric(part, names[i]);
        ck_assert(err[i] > 0 && err[i] < 0.1);
        ck_assert_msg(fabs(est - truth) <= err[i] * est, "%s: estimate %.0f, full run %.0f, stated error %.2f%%",
                      names[i], est, truth, 100 * err[i]);
    }
    /* a launch's blocks and warps are known, not estimated */
    ck_assert_uint_eq(kernel_metric(part, "smsp__warps_launched.sum"), 8192 * 2);
    ck_assert_uint_eq(kernel_metric(full, "smsp__warps_launched.sum"), 8192 * 2);
    /* the stores: one a thread, exact */
    ck_assert_uint_eq(kernel_metric(part, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 8192 * 2);
    free_runs(full, part, k1, k2);
}
END_TEST

/* Thread t of block b sums x[i] for i = b * 64 + t, then every 4096
 * (64 blocks of 64: a grid-stride loop of 400 iterations, the last one
 * ending the loop at its setp), and stores the sum.  Its address moves
 * 16 KB an iteration. */
static const char *gsum_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry gsum(.param .u64 p_x, .param .u64 p_y, .param .u32 p_n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [p_x];\n  ld.param.u64 %rd2, [p_y];\n  ld.param.u32 %r1, [p_n];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n  mov.u32 %r5, %nctaid.x;\n"
    "  mad.lo.s32 %r6, %r2, %r3, %r4;\n  mul.lo.s32 %r7, %r3, %r5;\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.u32 %r8, %r6;\n"
    "  setp.ge.u32 %p1, %r8, %r1;\n  @%p1 bra DONE;\n"
    "LOOP:\n  mul.wide.u32 %rd3, %r8, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f2, [%rd4];\n"
    "  add.f32 %f1, %f1, %f2;\n  add.s32 %r8, %r8, %r7;\n  setp.lt.u32 %p2, %r8, %r1;\n  @%p2 bra LOOP;\n"
    "DONE:\n  mul.wide.u32 %rd5, %r6, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n  ret;\n}\n";

/* The same sum, but thread t walks its own row of 400 (x[t * 400 + k]):
 * its address moves 4 bytes an iteration, less than a line. */
static const char *rowsum_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry rowsum(.param .u64 p_x, .param .u64 p_y, .param .u32 p_n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [p_x];\n  ld.param.u64 %rd2, [p_y];\n  ld.param.u32 %r1, [p_n];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r6, %r2, %r3, %r4;\n  mul.lo.s32 %r7, %r6, 400;\n  add.s32 %r9, %r7, 400;\n"
    "  mov.f32 %f1, 0f00000000;\n  mov.u32 %r8, %r7;\n"
    "LOOP:\n  mul.wide.u32 %rd3, %r8, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f2, [%rd4];\n"
    "  add.f32 %f1, %f1, %f2;\n  add.s32 %r8, %r8, 1;\n  setp.lt.u32 %p2, %r8, %r9;\n  @%p2 bra LOOP;\n"
    "  mul.wide.u32 %rd5, %r6, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n  ret;\n}\n";

/* Grid-stride copy: y[i] = x[i], every 4096 from b * 64 + t (2000
 * iterations: 33 MB each way, more than L2 keeps dirty). */
static const char *gcopy_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry gcopy(.param .u64 p_x, .param .u64 p_y, .param .u32 p_n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n  .reg .f32 %f<4>;\n"
    "  ld.param.u64 %rd1, [p_x];\n  ld.param.u64 %rd2, [p_y];\n  ld.param.u32 %r1, [p_n];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n  mov.u32 %r5, %nctaid.x;\n"
    "  mad.lo.s32 %r8, %r2, %r3, %r4;\n  mul.lo.s32 %r7, %r3, %r5;\n"
    "  setp.ge.u32 %p1, %r8, %r1;\n  @%p1 bra DONE;\n"
    "LOOP:\n  mul.wide.u32 %rd3, %r8, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.f32 %f2, [%rd4];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.f32 [%rd5], %f2;\n"
    "  add.s32 %r8, %r8, %r7;\n  setp.lt.u32 %p2, %r8, %r1;\n  @%p2 bra LOOP;\n"
    "DONE:\n  ret;\n}\n";

/* One of the two, 64 blocks of 64 threads, whole or sampled (SAMPLE), with
 * the H100's profile. */
/* Launch L of K with the H100's profile, sampled as SAMPLE says. */
static coalsim_analysis *run_timed(coalsim_kernel *k, coalsim_launch l, const char *sample)
{
    char err[1024];
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    ck_assert_int_eq(coalsim_sample_parse(sample, &l.sample), 0);
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(a), 0);
    return a;
}

static coalsim_analysis *run_loop_kernel_args(const char *ptx, const char *name, const char *sample, const char *args,
                                              coalsim_kernel **kp)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_ptx(ptx, strlen(ptx), name, err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    *kp = k;
    return run_timed(k, (coalsim_launch){.kernel = name, .grid = {64, 1, 1}, .block = {64, 1, 1}, .args = args, .threads = 2},
                     sample);
}

static coalsim_analysis *run_loop_kernel(const char *ptx, const char *name, const char *sample, coalsim_kernel **kp)
{
    return run_loop_kernel_args(ptx, name, sample, "x:7M=random:1,y:16K,1638400", kp);
}

START_TEST(test_sample_jumps_over_a_grid_stride_loop_with_the_full_runs_counts_and_time)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *full = run_loop_kernel(gsum_ptx, "gsum", "off", &k1), *part = run_loop_kernel(gsum_ptx, "gsum", "16", &k2);
    const coalsim_sample *s = coalsim_analysis_sample(part);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_null(coalsim_analysis_sample(full));
    /* the warps of the blocks after the pilot jumped over most of their 400 iterations */
    ck_assert_uint_gt(s->loop_jumps, 0);
    ck_assert_uint_gt(s->loop_iters, 2 * 300 * (s->run - 4));
    ck_assert(s->loop_factor > 2);
    const char *exact[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "smsp__warps_launched.sum", "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
                           "smsp__inst_executed_op_global_ld.sum"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        ck_assert_msg(kernel_metric(full, exact[i]) == kernel_metric(part, exact[i]), "%s: %llu whole, %llu sampled",
                      exact[i], (unsigned long long)kernel_metric(full, exact[i]),
                      (unsigned long long)kernel_metric(part, exact[i]));
    /* the reports say so */
    const char *want[2] = {"Loops: warps jumped over", "\"loops\": {\"jumps\": "};
    for (int f = 0; f < 2; f++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        ck_assert_int_eq(coalsim_analysis_report(out, f ? COALSIM_JSON : COALSIM_TEXT, "t", part, NULL), 0);
        fclose(out);
        ck_assert_msg(strstr(buf, want[f]) != NULL, "no '%s' in report %d", want[f], f);
        free(buf);
    }
    /* the time: each warp's path moved on by its iterations' mean */
    double tf = coalsim_analysis_time(full)->total_us, tp = coalsim_analysis_time(part)->total_us;
    ck_assert_msg(fabs(tp - tf) <= 0.03 * tf, "time %.2f us whole, %.2f sampled", tf, tp);
    free_runs(full, part, k1, k2);
}
END_TEST

/* The "dirty_bytes_left" of AN's JSON report. */
static double dirty_left(const coalsim_analysis *an)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_int_eq(coalsim_analysis_report(out, COALSIM_JSON, "t", an, NULL), 0);
    fclose(out);
    const char *p = strstr(buf, "\"dirty_bytes_left\": ");
    ck_assert_ptr_nonnull(p);
    double v = atof(p + strlen("\"dirty_bytes_left\": "));
    free(buf);
    return v;
}

START_TEST(test_sample_of_a_grid_stride_copy_writes_its_jumped_stores_to_dram_or_leaves_them_dirty)
{
    coalsim_kernel *k1, *k2;
    const char *args = "x:32M=random:1,y:32M,8192000";
    coalsim_analysis *full = run_loop_kernel_args(gcopy_ptx, "gcopy", "off", args, &k1),
                     *part = run_loop_kernel_args(gcopy_ptx, "gcopy", "16", args, &k2);
    const coalsim_sample *s = coalsim_analysis_sample(part);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_gt(s->loop_jumps, 0);
    ck_assert_uint_eq(kernel_metric(full, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                      kernel_metric(part, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
    coalsim_hier_counts hf, hp;
    coalsim_stats_hier_total(coalsim_analysis_stats(full), &hf);
    coalsim_stats_hier_total(coalsim_analysis_stats(part), &hp);
    /* what is stored goes to DRAM once, during the launch or after it */
    double wf = (double)hf.dram_write + dirty_left(full), wp = (double)hp.dram_write + dirty_left(part);
    ck_assert_msg(wf > 30e6 && fabs(wp - wf) <= 0.05 * wf, "stored bytes out %.0f whole, %.0f sampled", wf, wp);
    ck_assert_msg(fabs((double)hp.dram_read - (double)hf.dram_read) <= 0.02 * (double)hf.dram_read, "DRAM reads %llu whole, %llu sampled",
                  (unsigned long long)hf.dram_read, (unsigned long long)hp.dram_read);
    double tf = coalsim_analysis_time(full)->total_us, tp = coalsim_analysis_time(part)->total_us;
    ck_assert_msg(fabs(tp - tf) <= 0.03 * tf, "time %.2f us whole, %.2f sampled", tf, tp);
    free_runs(full, part, k1, k2);
}
END_TEST

START_TEST(test_sample_runs_every_iteration_of_a_loop_whose_address_moves_less_than_a_line)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *full = run_loop_kernel(rowsum_ptx, "rowsum", "off", &k1),
                     *part = run_loop_kernel(rowsum_ptx, "rowsum", "16", &k2);
    const coalsim_sample *s = coalsim_analysis_sample(part);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->loop_jumps, 0);
    /* its sectors a request vary with the iteration: run, they are exact all the same */
    ck_assert_uint_eq(kernel_metric(full, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                      kernel_metric(part, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    free_runs(full, part, k1, k2);
}
END_TEST

/* The H100's SASS listing of gpu/outside/UNIT.cu (its PTX as the module). */
static coalsim_kernel *load_outside_sass(const char *unit)
{
    size_t len;
    char err[1024], path[256];
    snprintf(path, sizeof path, "gpu/results/h100/outside/ptx/%s.ptx", unit);
    char *t = read_whole_file(path, &len);
    coalsim_kernel *k = coalsim_kernel_load_ptx(t, len, path, err, sizeof err);
    free(t);
    ck_assert_msg(k != NULL, "%s", err);
    snprintf(path, sizeof path, "gpu/results/h100/outside/sass/%s.nvdisasm", unit);
    t = read_whole_file(path, &len);
    int rc = coalsim_kernel_use_sass(k, t, len, path, err, sizeof err);
    free(t);
    ck_assert_msg(rc == 0, "%s", err);
    return k;
}

/* L of UNIT's listing whole and with --sample 16: the sample's warps jumped,
 * its counts are the whole run's and its time within 3%. */
static void check_sass_loop_sample(const char *unit, coalsim_launch l)
{
    coalsim_kernel *k1 = load_outside_sass(unit), *k2 = load_outside_sass(unit);
    coalsim_analysis *full = run_timed(k1, l, "off"), *part = run_timed(k2, l, "16");
    const coalsim_sample *s = coalsim_analysis_sample(part);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_gt(s->loop_jumps, 0);
    ck_assert_uint_gt(s->loop_iters, 8 * 100 * (s->run - 4));
    const char *exact[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__warps_launched.sum",
                           "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__inst_executed_op_global_ld.sum"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        ck_assert_msg(kernel_metric(full, exact[i]) == kernel_metric(part, exact[i]), "%s %s: %llu whole, %llu sampled",
                      l.kernel, exact[i], (unsigned long long)kernel_metric(full, exact[i]),
                      (unsigned long long)kernel_metric(part, exact[i]));
    double tf = coalsim_analysis_time(full)->total_us, tp = coalsim_analysis_time(part)->total_us;
    ck_assert_msg(fabs(tp - tf) <= 0.03 * tf, "%s: time %.2f us whole, %.2f sampled", l.kernel, tf, tp);
    free_runs(full, part, k1, k2);
}

/* reduce6 of 2^22 ints in 64 blocks of 256 threads on the SASS interpreter:
 * a grid-stride loop of 128 iterations a warp whose index is 32 bits
 * (IADD3, IMAD) and whose addresses ptxas recomputes in the body
 * (IMAD.WIDE.U32 R2, R9, 0x4, R6), the address's upper half overwritten by
 * the load (LDG.E R3, [R2.64]).  Sampled, its warps jump; the counts are the
 * whole run's and the time within 3%. */
START_TEST(test_sample_jumps_over_a_sass_grid_stride_loop_with_the_full_runs_counts_and_time)
{
    check_sass_loop_sample("reduction", (coalsim_launch){.kernel = "reduce6<int,256u,true>", .grid = {64, 1, 1},
                                                         .block = {256, 1, 1}, .dynamic_shared = 1024,
                                                         .args = "I:16M=randint:11:1000,O:256,4194304", .threads = 2});
}
END_TEST

/* The seeds' strided read of 2^22 floats in 64 blocks of 256 threads: its
 * index is a size_t, so ptxas keeps it as two registers joined by a carry
 * (IADD3 R11, P0, R11, R6, RZ; IADD3.X R5, R5, R4, RZ, P0, !PT), compares
 * it in two halves (ISETP.GE.U32 then ISETP.GE.U32.AND.EX) and makes each
 * address with LEA and LEA.HI.X: 256 iterations a warp, jumped as one 64-bit
 * variable. */
START_TEST(test_sample_jumps_over_a_sass_loop_with_a_64_bit_index_carried_in_two_registers)
{
    check_sass_loop_sample("seeds", (coalsim_launch){.kernel = "strided_read_kernel", .grid = {64, 1, 1},
                                                     .block = {256, 1, 1}, .args = "IN:16M=random:3,OUT:64K,4194304,1",
                                                     .threads = 2});
}
END_TEST

/* transpose1 of a 1024 x 1024 matrix in 4096 blocks of 32 x 8, with the
 * H100's profile, sampled or whole. */
static coalsim_analysis *run_transpose(const char *sample, coalsim_kernel **kp)
{
    *kp = load_ptx_file("tests/kernels/seeds.ptx");
    return run_timed(*kp, (coalsim_launch){.kernel = "transpose1<false>", .grid = {32, 128, 1}, .block = {32, 8, 1},
                                           .args = "A:4M=iotaf,B:4M,1024", .threads = 2},
                     sample);
}

START_TEST(test_sample_of_a_regular_kernel_gives_the_full_runs_counts_and_time)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *full = run_transpose("off", &k1), *part = run_transpose("512", &k2);
    ck_assert_ptr_nonnull(coalsim_analysis_sample(part));
    ck_assert_uint_lt(coalsim_analysis_sample(part)->run, 700);
    const char *exact[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "smsp__warps_launched.sum", "smsp__inst_executed.sum"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        ck_assert_msg(kernel_metric(full, exact[i]) == kernel_metric(part, exact[i]), "%s: %llu whole, %llu sampled",
                      exact[i], (unsigned long long)kernel_metric(full, exact[i]),
                      (unsigned long long)kernel_metric(part, exact[i]));
    double tf = coalsim_analysis_time(full)->total_us, tp = coalsim_analysis_time(part)->total_us;
    ck_assert_msg(fabs(tp - tf) <= 0.05 * tf, "time %.2f us whole, %.2f sampled", tf, tp);
    /* the latency term too: a SM's 31 blocks take four rounds of the 8 it
     * holds, the 4 the sample ran on it one (as blocks over run it was 2.3x) */
    double lf = coalsim_analysis_time(full)->latency_us, lp = coalsim_analysis_time(part)->latency_us;
    ck_assert_msg(fabs(lp - lf) <= 0.05 * lf, "latency term %.3f us whole, %.3f sampled", lf, lp);
    free_runs(full, part, k1, k2);
}
END_TEST

START_TEST(test_sample_of_a_cluster_launch_runs_whole_clusters_and_counts_blocks)
{
    coalsim_kernel *k = load_ptx_file("tests/kernels/cluster.ptx");
    coalsim_analysis *a[2];
    const char *mode[2] = {"off", "512"};
    for (int i = 0; i < 2; i++) {
        char err[1024];
        coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
        a[i] = coalsim_analysis_new(&cfg);
        coalsim_launch l = {.kernel = "dsmem_ring", .grid = {4096, 1, 1}, .block = {128, 1, 1}, .cluster = {4, 1, 1},
                            .args = "out:2M,count:16K", .threads = 2};
        ck_assert_int_eq(coalsim_sample_parse(mode[i], &l.sample), 0);
        ck_assert_msg(coalsim_kernel_run(k, &l, a[i], &cfg, err, sizeof err) == 0, "%s", err);
    }
    const coalsim_sample *s = coalsim_analysis_sample(a[1]);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->blocks, 4096);          /* blocks, not clusters */
    ck_assert_uint_eq(s->run % 4, 0);            /* whole clusters */
    ck_assert_uint_lt(s->run, 700);
    const char *m[] = {"smsp__warps_launched.sum", "l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum",
                       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "smsp__inst_executed.sum"};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        ck_assert_msg(kernel_metric(a[0], m[i]) == kernel_metric(a[1], m[i]), "%s: %llu whole, %llu sampled", m[i],
                      (unsigned long long)kernel_metric(a[0], m[i]), (unsigned long long)kernel_metric(a[1], m[i]));
    coalsim_analysis_free(a[0]);
    coalsim_analysis_free(a[1]);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sample_is_stated_in_the_text_json_and_html_reports)
{
    coalsim_kernel *k;
    coalsim_analysis *a = run_transpose("512", &k);
    const char *want[3] = {"sampled: 512 of 4096 blocks ran", "\"sample\": {\"blocks\": 4096, \"run\": 512",
                           "<b>Sampled:</b> 512 of 4096 blocks ran"};
    for (int f = 0; f < 3; f++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        if (f < 2) {
            ck_assert_int_eq(coalsim_analysis_report(out, f ? COALSIM_JSON : COALSIM_TEXT, "t", a, NULL), 0);
        } else {
            coalsim_report_extra ex = {.exec = coalsim_analysis_exec(a), .sample = coalsim_analysis_sample(a)};
            coalsim_arch arch = arch_of("hopper");
            ck_assert_int_eq(coalsim_report_html_ext(out, "t", &arch, coalsim_analysis_stats(a), NULL, NULL, 0, &ex), 0);
        }
        fclose(out);
        ck_assert_msg(strstr(buf, want[f]) != NULL, "no '%s' in report %d", want[f], f);
        free(buf);
    }
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_a_launch_after_a_sampled_one_starts_cold_and_says_why)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *first = run_transpose("512", &k1);
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    cfg.l2 = COALSIM_L2_WARM;
    coalsim_analysis *second = coalsim_analysis_new(&cfg);
    /* the sample's L2 holds its windows' lines, not the whole launch's last ones */
    ck_assert_int_eq(coalsim_analysis_inherit_l2(second, first), 0);
    char err[1024];
    k2 = load_ptx_file("tests/kernels/seeds.ptx");
    coalsim_launch l = {.kernel = "transpose1<false>", .grid = {32, 128, 1}, .block = {32, 8, 1},
                        .args = "A:4M=iotaf,B:4M,1024", .threads = 2};
    ck_assert_int_eq(coalsim_sample_parse("512", &l.sample), 0);
    ck_assert_msg(coalsim_kernel_run(k2, &l, second, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(second), 0);
    const coalsim_time *t = coalsim_analysis_time(second);
    ck_assert_int_eq(t->l2_unknown, 1);
    ck_assert_str_eq(t->l2, "cold");
    ck_assert_double_eq(t->total_us, coalsim_analysis_time(first)->total_us);
    coalsim_analysis_free(first);
    coalsim_analysis_free(second);
    coalsim_kernel_free(k1);
    coalsim_kernel_free(k2);
}
END_TEST

START_TEST(test_sample_auto_leaves_a_small_launch_whole)
{
    coalsim_kernel *k1, *k2;
    coalsim_analysis *off = run_transpose("off", &k1), *au = run_transpose("auto", &k2);
    ck_assert_ptr_null(coalsim_analysis_sample(au));
    ck_assert_uint_eq(kernel_metric(off, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                      kernel_metric(au, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
    ck_assert_double_eq(coalsim_analysis_time(off)->total_us, coalsim_analysis_time(au)->total_us);
    coalsim_analysis_free(off);
    coalsim_analysis_free(au);
    coalsim_kernel_free(k1);
    coalsim_kernel_free(k2);
}
END_TEST

Suite *make_sample_suite(void)
{
    Suite *s = suite_create("sample");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sample_pick_takes_the_first_the_last_and_even_steps_between);
    tcase_add_test(tc, test_sample_parse_takes_auto_off_and_a_positive_count_only);
    tcase_add_test(tc, test_sample_estimate_of_alike_windows_is_exact_with_no_error);
    tcase_add_test(tc, test_sample_estimate_states_an_error_that_grows_with_the_windows_spread);
    tcase_add_test(tc, test_sample_of_windows_holding_whole_periods_is_exact);
    tcase_add_test(tc, test_sample_of_irregular_blocks_lands_within_its_stated_error);
    tcase_add_test(tc, test_sample_auto_adds_windows_while_an_error_is_large_within_its_budget);
    tcase_add_test(tc, test_sample_auto_whose_pilot_alone_has_work_samples_on_within_its_budget_and_states_the_error);
    tcase_add_test(tc, test_sample_is_the_same_on_one_thread_or_two_ordered_or_not);
    tcase_add_test(tc, test_sample_of_a_data_dependent_kernel_lands_within_its_stated_error);
    tcase_add_test(tc, test_sample_of_a_regular_kernel_gives_the_full_runs_counts_and_time);
    tcase_add_test(tc, test_sample_jumps_over_a_grid_stride_loop_with_the_full_runs_counts_and_time);
    tcase_add_test(tc, test_sample_runs_every_iteration_of_a_loop_whose_address_moves_less_than_a_line);
    tcase_add_test(tc, test_sample_jumps_over_a_sass_grid_stride_loop_with_the_full_runs_counts_and_time);
    tcase_add_test(tc, test_sample_jumps_over_a_sass_loop_with_a_64_bit_index_carried_in_two_registers);
    tcase_add_test(tc, test_sample_of_a_grid_stride_copy_writes_its_jumped_stores_to_dram_or_leaves_them_dirty);
    tcase_add_test(tc, test_sample_of_a_cluster_launch_runs_whole_clusters_and_counts_blocks);
    tcase_add_test(tc, test_sample_is_stated_in_the_text_json_and_html_reports);
    tcase_add_test(tc, test_a_launch_after_a_sampled_one_starts_cold_and_says_why);
    tcase_add_test(tc, test_sample_auto_leaves_a_small_launch_whole);
    suite_add_tcase(s, tc);
    return s;
}
