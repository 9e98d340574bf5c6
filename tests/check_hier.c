/* The memory-hierarchy model: caches, fetch granularity, write-back. */
#include <stdlib.h>

#include "helpers.h"
#include "hier_oracle.h"

static coalsim_hier *small(unsigned fetch)
{
    coalsim_hier_cfg cfg = {.sms = 2, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 16384, .l2_ways = 4, .fetch = fetch};
    coalsim_hier *h = coalsim_hier_new(&cfg);
    ck_assert_ptr_nonnull(h);
    return h;
}

/* The H100's caches. */
static coalsim_hier *hopper(void)
{
    coalsim_hier_cfg cfg;
    coalsim_hier_preset("hopper", &cfg);
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

START_TEST(test_hier_a_launch_after_another_finds_its_l2_lines_but_not_its_l1s)
{
    coalsim_hier *first = small(64), *next = small(64), *other = hopper();
    coalsim_request r;
    coalsim_hier_counts c = {0}, d = {0};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
    coalsim_hier_request(first, &r, &c);
    ck_assert_uint_eq(c.dram_read, 128);
    ck_assert_int_eq(coalsim_hier_inherit_l2(next, first), 0);
    coalsim_hier_request(next, &r, &d);
    ck_assert_uint_eq(d.l1_hits, 0);                         /* each kernel's L1s start empty */
    ck_assert_uint_eq(d.l2_hits, 4);
    ck_assert_uint_eq(d.dram_read, 0);
    ck_assert_int_eq(coalsim_hier_inherit_l2(other, first), -1);   /* another L2's shape */
    coalsim_hier_free(first);
    coalsim_hier_free(next);
    coalsim_hier_free(other);
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

START_TEST(test_hier_counts_a_dram_piece_read_whole_once_in_each_place_and_a_lone_read_as_a_first)
{
    coalsim_hier *h = hopper();
    coalsim_request r;
    coalsim_hier_counts c = {0};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);      /* one line: half a piece, 2 fetches */
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.dram_piece_nth[0], 1);
    ck_assert_uint_eq(c.dram_piece_nth[1], 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 128 + 4 * lane); /* the piece's other line, just after */
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.dram_piece_nth[2], 1);
    ck_assert_uint_eq(c.dram_piece_nth[3], 1);
    /* the seed's strided read at 512 bytes: one 64-byte fetch a piece */
    coalsim_hier_counts s = {0};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, (1u << 20) + 512 * lane);
    coalsim_hier_request(h, &r, &s);
    ck_assert_uint_eq(s.dram_read, 32 * 64);
    ck_assert_uint_eq(s.dram_piece_nth[0], 32);
    ck_assert_uint_eq(s.dram_piece_nth[1] + s.dram_piece_nth[2] + s.dram_piece_nth[3], 0);
    /* a piece's next 64 bytes after more than the window of other reads
     * start it again */
    coalsim_hier_counts far = {0};
    for (unsigned k = 0; k < COALSIM_PIECE_WINDOW / 32 + 1; k++) {
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, (2u << 20) + k * 16384u + 512 * lane);
        coalsim_hier_request(h, &r, &far);
    }
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, (1u << 20) + 64 + 512 * lane);
    coalsim_hier_counts again = {0};
    coalsim_hier_request(h, &r, &again);
    ck_assert_uint_eq(again.dram_piece_nth[0], 32);
    coalsim_hier_free(h);
}
END_TEST

START_TEST(test_hier_a_line_warps_load_at_the_same_step_waits_for_the_first_ones_fetch)
{
    coalsim_hier *h = hopper();
    coalsim_request r;
    coalsim_hier_counts c[6] = {{0}};
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * (lane % 2));   /* one sector, as spmv's Ap */
    r.block = 0, r.warp = 0;
    coalsim_hier_request(h, &r, &c[0]);                      /* the first: from DRAM */
    ck_assert_uint_eq(c[0].dram_read, 64);
    r.warp = 1;                                               /* its block's next warp, same step: L1 hit, waits */
    coalsim_hier_request(h, &r, &c[1]);
    ck_assert_uint_eq(c[1].l1_hits, 1);
    ck_assert_uint_eq(c[1].inflight_dram, 1);
    r.block = 1, r.warp = 0;                                  /* another SM's block, same step: L2 hit, waits */
    coalsim_hier_request(h, &r, &c[2]);
    ck_assert_uint_eq(c[2].l2_hits, 1);
    ck_assert_uint_eq(c[2].inflight_dram, 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 65536 + 4 * lane);
    r.block = 2;                                              /* a block whose warp loaded something else first */
    coalsim_hier_request(h, &r, &c[3]);
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * (lane % 2));
    r.block = 2;
    coalsim_hier_request(h, &r, &c[4]);                       /* step 1: the line has long been in L2 */
    ck_assert_uint_eq(c[4].l2_hits, 1);
    ck_assert_uint_eq(c[4].inflight_dram, 0);
    /* a block beyond those the GPU holds at once (132 SMs x 64 / 2 warps) is a later wave's */
    r.block = 132 * 32 + 1, r.warp = 0;
    coalsim_hier_request(h, &r, &c[5]);
    ck_assert_uint_eq(c[5].inflight_dram, 0);
    coalsim_hier_free(h);
}
END_TEST

START_TEST(test_hier_stores_write_back_when_evicted_and_keep_the_l1_sector_a_volatile_load_reads_l2)
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
    ck_assert_uint_eq(c.l1_hits, 4);                          /* the store kept them in L1 */
    ck_assert_uint_eq(c.l2_hits, 0);
    /* a volatile (strong) load of the same sectors reads L2 */
    r.l2_only = 1;
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_hits, 4);
    ck_assert_uint_eq(c.l2_hits, 4);
    /* an atomic drops them from L1 */
    r.l2_only = 0, r.op = COALSIM_ATOM;
    coalsim_hier_request(h, &r, &c);
    r.op = COALSIM_LD;
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(c.l1_hits, 4);
    ck_assert_uint_eq(c.l2_hits, 8);                          /* the load after it read L2 */
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

/* Two L2 sides (coalsim_hier_cfg.l2_home_mask): 8 SMs, SMs 0-3 on one side and 4-7 on the other;
 * 32 KiB of L2, 16 KiB a side. */
static coalsim_hier *two_sided(uint64_t mask)
{
    coalsim_hier_cfg cfg = {.sms = 8, .l1_bytes = 4096, .l1_ways = 4, .l2_bytes = 32768, .l2_ways = 8, .fetch = 32,
                            .l2_home_mask = mask};
    coalsim_hier *h = coalsim_hier_new(&cfg);
    ck_assert_ptr_nonnull(h);
    return h;
}

/* Line L (128 bytes) read by block B. */
static void read_line(coalsim_hier *h, uint64_t l, uint64_t b, coalsim_hier_counts *c)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, l * 128 + 4 * lane);
    r.block = b;
    coalsim_hier_request(h, &r, c);
}

START_TEST(test_hier_two_sides_serve_a_line_the_far_side_holds_from_l2)
{
    coalsim_hier *h = two_sided(0xB3000);
    coalsim_hier_counts c = {0};
    read_line(h, 7, 0, &c);                                  /* side 0: from DRAM */
    ck_assert_uint_eq(c.dram_read, 128);
    read_line(h, 7, 4, &c);                                  /* side 1: a far hit */
    ck_assert_uint_eq(c.dram_read, 128);
    ck_assert_uint_eq(c.l2_hits, 4);
    read_line(h, 7, 5, &c);                                  /* side 1 again: its own copy */
    ck_assert_uint_eq(c.l2_hits, 8);
    ck_assert_uint_eq(c.dram_read, 128);
    coalsim_hier_free(h);
}
END_TEST

START_TEST(test_hier_two_sides_keep_what_every_sm_reads_only_up_to_about_half_of_l2)
{
    /* a footprint read by SMs of both sides is kept on each: 24 KiB (3/4 of L2) fits one cache, and
     * not two sides of 16 KiB; 12 KiB fits both */
    for (int kb = 12; kb <= 24; kb += 12) {
        uint64_t second[2];
        for (int sided = 0; sided < 2; sided++) {
            coalsim_hier *h = two_sided(sided ? 0xB3000 : 0);
            coalsim_hier_counts c = {0};
            uint64_t lines = (uint64_t)kb * 1024 / 128;
            for (uint64_t l = 0; l < lines; l++) read_line(h, l, l % 8, &c);         /* both sides */
            for (uint64_t l = 0; l < lines; l++) read_line(h, l, (l + 4) % 8, &c);   /* the other side */
            uint64_t first = c.dram_read;
            for (uint64_t l = 0; l < lines; l++) read_line(h, l, l % 8, &c);
            second[sided] = c.dram_read - first;
            coalsim_hier_free(h);
        }
        ck_assert_uint_eq(second[0], 0);
        if (kb == 12) ck_assert_uint_eq(second[1], 0);
        else ck_assert_msg(second[1] > 0, "a 24 KiB footprint read on both sides stayed in two 16 KiB sides");
    }
}
END_TEST

START_TEST(test_hier_two_sides_store_a_line_at_its_home_only)
{
    coalsim_hier *h = two_sided(0xB3000);
    coalsim_hier_counts c = {0};
    read_line(h, 9, 0, &c);
    read_line(h, 9, 4, &c);                                  /* a copy on each side */
    coalsim_request r;
    REQ_FOR(r, COALSIM_ST, COALSIM_GLOBAL, 4, 9 * 128 + 4 * lane);
    r.block = 4;
    coalsim_hier_request(h, &r, &c);
    ck_assert_uint_eq(coalsim_hier_dirty_bytes(h), 128);    /* dirty at home, the far copy dropped */
    read_line(h, 9, 0, &c);                                  /* still in L2 */
    ck_assert_uint_eq(c.dram_read, 128);
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


/* Random streams through the model and through the old one it replaced
 * (tests/hier_oracle.c, since extended by the DRAM pieces and the loads that
 * wait for another warp's fill): the same counts for every request, the same dirty
 * bytes at the end, on caches of many shapes (sets not a power of two, one
 * way, one set) and on the H100 preset. */
START_TEST(test_hier_counts_what_the_old_model_counted_on_random_streams)
{
    uint64_t x = 0x5851f42d4c957f2dull, waited = 0;
#define NEXT (x ^= x << 13, x ^= x >> 7, x ^= x << 17)
    for (int run = 0; run < 40; run++) {
        coalsim_hier_cfg cfg;
        if (run == 0) {
            coalsim_hier_preset("hopper", &cfg);
        } else {
            NEXT;
            cfg = (coalsim_hier_cfg){.sms = 1 + (unsigned)(x % 5), .l1_bytes = 128 * (1 + (x >> 8) % 40),
                                     .l1_ways = 1 + (unsigned)((x >> 16) % 6), .l2_bytes = 128 * (1 + (x >> 24) % 300),
                                     .l2_ways = 1 + (unsigned)((x >> 36) % 17), .fetch = 32u << ((x >> 44) % 3)};
        }
        coalsim_hier *h = coalsim_hier_new(&cfg);
        hier_oracle *o = hier_oracle_new(&cfg);
        ck_assert_ptr_nonnull(h);
        ck_assert_ptr_nonnull(o);
        uint64_t span = run == 0 ? 1ull << 30 : 128 * (1 + x % 600);
        for (int i = 0; i < 3000; i++) {
            NEXT;
            static const unsigned sizes[] = {1, 2, 4, 8, 16};
            static const coalsim_space spaces[] = {COALSIM_GLOBAL, COALSIM_LOCAL, COALSIM_SHARED, COALSIM_GLOBAL};
            coalsim_request r = {.op = (coalsim_op)(x % 4 ? x % 2 : x >> 2 & 3), .space = spaces[(x >> 4) % 4],
                                 .size = sizes[(x >> 8) % 5], .block = (x >> 12) % 9, .label = "t"};
            /* blocks mostly in order, as a launch makes them, with warps of each taking turns */
            if ((x >> 56) % 4) r.block = (uint64_t)i / 40 + (x >> 12) % 2;
            r.warp = (x >> 58) % 4;
            r.active = (x >> 16) % 3 ? 0xffffffffu : (uint32_t)(x >> 20);
            uint64_t base = (x >> 24) % span / r.size * r.size, stride = r.size << ((x >> 50) % 6);
            for (int l = 0; l < 32; l++) {
                NEXT;
                r.addr[l] = (i % 3 ? base + (uint64_t)l * stride : x % span) / r.size * r.size;
            }
            coalsim_hier_counts a = {0}, b = {0};
            coalsim_hier_request(h, &r, &a);
            hier_oracle_request(o, &r, &b);
            waited += a.inflight_dram + a.inflight_l2;
            ck_assert_msg(!memcmp(&a, &b, sizeof a), "run %d request %d: l1 %llu/%llu l2 %llu/%llu dram %llu/%llu", run,
                          i, (unsigned long long)a.l1_sectors, (unsigned long long)b.l1_sectors,
                          (unsigned long long)a.l2_sectors, (unsigned long long)b.l2_sectors,
                          (unsigned long long)a.dram_read, (unsigned long long)b.dram_read);
        }
        ck_assert_uint_eq(coalsim_hier_dirty_bytes(h), hier_oracle_dirty_bytes(o));
        coalsim_hier_free(h);
        hier_oracle_free(o);
    }
    ck_assert_uint_gt(waited, 0);                             /* the streams had loads that wait for a fill */
#undef NEXT
}
END_TEST

Suite *make_hier_suite(void)
{
    Suite *s = suite_create("hier");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_hier_second_read_of_a_line_hits_l1_on_the_same_sm_only);
    tcase_add_test(c, test_hier_fetch_granularity_sets_the_dram_bytes_of_a_strided_read);
    tcase_add_test(c, test_hier_a_launch_after_another_finds_its_l2_lines_but_not_its_l1s);
    tcase_add_test(c, test_hier_stores_write_back_when_evicted_and_keep_the_l1_sector_a_volatile_load_reads_l2);
    tcase_add_test(c, test_hier_counts_a_dram_piece_read_whole_once_in_each_place_and_a_lone_read_as_a_first);
    tcase_add_test(c, test_hier_a_line_warps_load_at_the_same_step_waits_for_the_first_ones_fetch);
    tcase_add_test(c, test_hier_two_sides_serve_a_line_the_far_side_holds_from_l2);
    tcase_add_test(c, test_hier_two_sides_keep_what_every_sm_reads_only_up_to_about_half_of_l2);
    tcase_add_test(c, test_hier_two_sides_store_a_line_at_its_home_only);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_set_timeout(l, 60);
    tcase_add_test(l, test_hier_refuses_a_bad_configuration);
    tcase_add_test(l, test_hier_counts_what_the_old_model_counted_on_random_streams);
    suite_add_tcase(s, l);
    return s;
}
