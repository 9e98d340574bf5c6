/* Allocation failures: every allocation the library makes is made to fail in
 * turn (the test binary is linked with -Wl,--wrap for malloc, calloc, realloc
 * and strdup); each must come back as a NULL or -1 status, with no crash and,
 * under ASan, no leak. */
#include <stdlib.h>

#include "helpers.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);

static long armed = -1;   /* allocations left before one fails; -1 = never */
static long seen;

static int fail_now(void)
{
    if (armed < 0) return 0;
    seen++;
    return armed-- == 0;
}
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return fail_now() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }

/* Read a trace with 200 distinct labels (growing the totals several times)
 * with the K-th allocation failing.  Returns 1 if the run completed. */
static int run_with_failure_at(long k, const char *text, size_t len)
{
    FILE *fp = fmemopen((void *)text, len, "r");
    ck_assert_ptr_nonnull(fp);
    coalsim_arch a = arch_of("hopper");
    seen = 0;
    armed = k;
    int complete = 0;
    coalsim_reader *rd = coalsim_reader_new(fp, "a.trace", 32);
    coalsim_stats *st = coalsim_stats_new();
    if (rd && st) {
        coalsim_request r;
        coalsim_result res;
        int rc;
        complete = 1;
        while ((rc = coalsim_reader_next(rd, &r)) == 1) {
            coalsim_model(&a, &r, &res);
            if (coalsim_stats_add(st, &r, &res) != 0) {
                complete = 0;
                break;
            }
        }
        if (rc < 0) complete = 0;
    }
    armed = -1;
    coalsim_stats_free(st);
    coalsim_reader_free(rd);
    fclose(fp);
    return complete;
}

START_TEST(test_every_allocation_failure_is_a_clean_status)
{
    static char text[200 * 40];
    size_t n = 0;
    for (int i = 0; i < 200; i++) n += (size_t)snprintf(text + n, sizeof text - n, "ld global 4 L%d 0 0 %d\n", i, 4 * i);
    /* the same trace in binary, whose reader keeps a label table */
    size_t binlen = 0;
    char *bin = to_binary(text, 32, &binlen);
    /* NVBit's output with no grid size: 1100 CTAs numbered as they appear
     * (the importer's table grows twice); an Accel-Sim trace */
    static char nv[1100 * 200];
    n = 0;
    for (int i = 0; i < 1100; i++) {
        n += (size_t)snprintf(nv + n, sizeof nv - n, "CTA %d,1,0 - warp 0 - LDG.E - 0x%x", i, 4096 + 4 * i);
        for (int l = 1; l < 32; l++) n += (size_t)snprintf(nv + n, sizeof nv - n, " 0x0");
        n += (size_t)snprintf(nv + n, sizeof nv - n, "\n");
    }
    const char *as = "-kernel name = k\n-grid dim = (2,1,1)\n-accelsim tracer version = 3\n#BEGIN_TB\n"
                     "thread block = 1,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n"
                     "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4\n#END_TB\n";
    const char *inputs[4] = {text, bin, nv, as};
    size_t lens[4] = {strlen(text), binlen, strlen(nv), strlen(as)};
    for (int i = 0; i < 4; i++) {
        long k;
        for (k = 0; k < 10000; k++)
            if (run_with_failure_at(k, inputs[i], lens[i])) break;
        /* the loop ended because an allocation count was reached that no
         * longer fails: every earlier one was made to fail and handled */
        ck_assert_int_lt(k, 10000);
        long least = i < 2 ? 10 : i == 2 ? 6 : 2;
        ck_assert_int_gt(k, least);   /* reader, totals, labels, growth: many points */
        /* and the run with no failure completes */
        ck_assert_int_eq(run_with_failure_at(-1, inputs[i], lens[i]), 1);
    }
    free(bin);
}
END_TEST


/* A sketch compiled, then run on three threads into an analysis with a
 * cache model (requests kept in order) and without (merged), with the K-th
 * allocation failing: NULL or -1 each time, never a crash (nor, under ASan,
 * a leak).  Returns 1 if everything completed. */
static int sketch_with_failure_at(long k)
{
    const char *text = "param n = 12\ngrid n\nblock 64\nglobal float x[n * 64]\nshared float t[64]\n"
                       "i = blockIdx.x * blockDim.x + threadIdx.x\nif (i % 3 == 0)\nld x[i] as a\nend\n"
                       "for (s = 32; s > 0; s >>= 1)\nst t[threadIdx.x % s] as b\nend\nld x[n * 64 - 1 - i]\n";
    char err[600];
    coalsim_hier_cfg h = {.sms = 4, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 65536, .l2_ways = 8, .fetch = 64};
    coalsim_arch hopper = arch_of("hopper");     /* Check allocates in its asserts: none while armed */
    seen = 0;
    armed = k;
    int complete = 0;
    coalsim_sketch *sk = coalsim_sketch_compile(text, "k.sketch", NULL, err, sizeof err);
    if (sk) {
        complete = 1;
        for (int hier = 0; hier < 2; hier++) {
            coalsim_analysis_cfg cfg = {.arch = hopper, .hier = hier ? &h : NULL};
            coalsim_analysis *an = coalsim_analysis_new(&cfg);
            coalsim_sketch_opts o = {.warp_size = 32, .threads = 3};
            if (!an || coalsim_sketch_analyse(sk, &o, an, &cfg, err, sizeof err) != 0) complete = 0;
            coalsim_analysis_free(an);
        }
    }
    armed = -1;
    coalsim_sketch_free(sk);
    return complete;
}

START_TEST(test_every_allocation_failure_in_a_sketch_run_is_a_clean_status)
{
    long k;
    for (k = 0; k < 10000; k++)
        if (sketch_with_failure_at(k)) break;
    ck_assert_int_lt(k, 10000);
    ck_assert_int_gt(k, 10);
    ck_assert_int_eq(sketch_with_failure_at(-1), 1);
}
END_TEST

Suite *make_alloc_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *l = tcase_create("Limits");
    tcase_set_timeout(l, 60);
    tcase_add_test(l, test_every_allocation_failure_is_a_clean_status);
    tcase_add_test(l, test_every_allocation_failure_in_a_sketch_run_is_a_clean_status);
    suite_add_tcase(s, l);
    return s;
}
