/* The memory-hierarchy model: caches, fetch granularity, write-back. */
#include <stdlib.h>

#include "helpers.h"

static coalsim_hier *small(unsigned fetch)
{
    coalsim_hier_cfg cfg = {.sms = 2, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 16384, .l2_ways = 4, .fetch = fetch};
    coalsim_hier *h = coalsim_hier_new(&cfg);
    ck_assert_ptr_nonnull(h);
    return h;
}

START_TEST(test_hier_second_read_of_a_line_hits_l1_on_the_same_sm_only)
{
    coalsim_hier *h = small(64);
    coalsim_request r;
    coalsim_hier_counts c = {0};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);      /* 4 sectors */
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_sectors, 4);
    ck_assert_uint_eq(c.l1_hits, 0);
    ck_assert_uint_eq(c.dram_read, 128);                      /* two 64-byte fetches */
    ck_assert_uint_eq(c.l2_hits, 2);                          /* each fetch brought the next sector */
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_hits, 4);
    r.block = 1;                                              /* the other SM: L1 miss, L2 hit */
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_hits, 4);
    ck_assert_uint_eq(c.l2_hits, 6);
    ck_assert_uint_eq(c.dram_read, 128);
    coalsim_hier_free(h);
}
END_TEST

START_TEST(test_hier_fetch_granularity_sets_the_dram_bytes_of_a_strided_read)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 64 * lane);     /* one sector in each 64 bytes */
    /* 32 B fetches: just the sectors; 64 B: a whole piece each; 128 B: two
     * lanes share a piece */
    static const unsigned fetch[3] = {32, 64, 128}, bytes[3] = {1024, 2048, 2048};
    for (int i = 0; i < 3; i++) {
        coalsim_hier *h = small(fetch[i]);
        coalsim_hier_counts c = {0};
        coalsim_hier_request(h, &r, &c);
        ck_assert_uint_eq(c.dram_read, bytes[i]);
        coalsim_hier_free(h);
    }
}
END_TEST

START_TEST(test_hier_stores_write_back_when_evicted_and_drop_the_l1_sector)
{
    coalsim_hier *h = small(32);
    coalsim_request r;
    coalsim_hier_counts c = {0};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
    coalsim_hier_request(h, &r, &c);
    r.op = COALSIM_ST;
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.dram_write, 0);                       /* dirty, still in L2 */
    ck_assert_uint_eq(coalsim_hier_dirty_bytes(h), 128);
    r.op = COALSIM_LD;
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_hits, 0);                          /* the store dropped them from L1 */
    ck_assert_uint_eq(c.l2_hits, 4);
    /* stream 64 KiB of other lines through the 16 KiB L2: the dirty line leaves */
    for (uint64_t base = 1 << 20; base < (1 << 20) + 65536; base += 128) {
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, base + 4 * lane);
        coalsim_hier_request(h, &r, &c);
    }
    ck_assert_uint_eq(c.dram_write, 128);
    ck_assert_uint_eq(coalsim_hier_dirty_bytes(h), 0);
    coalsim_hier_free(h);
}
END_TEST

START_TEST(test_hier_refuses_a_bad_configuration)
{
    coalsim_hier_cfg cfg = {.sms = 0, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 16384, .l2_ways = 4, .fetch = 64};
    ck_assert_ptr_null(coalsim_hier_new(&cfg));
    cfg.sms = 1, cfg.fetch = 48;
    ck_assert_ptr_null(coalsim_hier_new(&cfg));
    ck_assert_int_eq(coalsim_hier_preset("pascal", &cfg), -1);
    ck_assert_int_eq(coalsim_hier_preset("hopper", &cfg), 0);
    ck_assert_uint_eq(cfg.sms, 132);
}
END_TEST

Suite *make_hier_suite(void)
{
    Suite *s = suite_create("hier");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_hier_second_read_of_a_line_hits_l1_on_the_same_sm_only);
    tcase_add_test(c, test_hier_fetch_granularity_sets_the_dram_bytes_of_a_strided_read);
    tcase_add_test(c, test_hier_stores_write_back_when_evicted_and_drop_the_l1_sector);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_hier_refuses_a_bad_configuration);
    suite_add_tcase(s, l);
    return s;
}
