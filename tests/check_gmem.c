/* Global-memory model: the seeds' degree-of-coalescing numbers and the edges. */
#include "helpers.h"

#define BASE 0x7f0000000000ull

START_TEST(test_gmem_unit_stride_float_is_four_sectors_full_efficiency)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 4);
    ck_assert_uint_eq(res.ideal_sectors, 4);
    ck_assert_uint_eq(res.requested_bytes, 128);
    ck_assert_uint_eq(res.lines, 1);
}
END_TEST

START_TEST(test_gmem_offset_by_one_is_five_sectors)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * (lane + 1));
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 5);
    ck_assert_uint_eq(res.lines, 2);
    ck_assert_uint_eq(res.requested_bytes * 100 / (res.sectors * 32), 80);
}
END_TEST

START_TEST(test_gmem_permutation_within_the_warp_stays_coalesced)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * (lane ^ 1));
    ck_assert_uint_eq(model("hopper", &r).sectors, 4);
    REQ_FOR(r, COALSIM_ST, COALSIM_GLOBAL, 4, BASE + 4 * (31 - lane));
    ck_assert_uint_eq(model("hopper", &r).sectors, 4);
}
END_TEST

START_TEST(test_gmem_stride_of_128_floats_is_one_sector_per_lane)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * 128 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 32);
    ck_assert_uint_eq(res.requested_bytes * 1000 / (res.sectors * 32), 125);
}
END_TEST

START_TEST(test_gmem_broadcast_is_one_sector_at_12_5_percent)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 1);
    ck_assert_uint_eq(res.requested_bytes, 4);
    ck_assert_uint_eq(res.ideal_sectors, 1);
}
END_TEST

START_TEST(test_gmem_strided_read_sectors_double_with_stride_until_eight)
{
    const unsigned want[] = {4, 8, 16, 32, 32, 32};
    const unsigned strides[] = {1, 2, 4, 8, 16, 128};
    for (int i = 0; i < 6; i++) {
        coalsim_request r;
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4ull * strides[i] * lane);
        ck_assert_uint_eq(model("hopper", &r).sectors, want[i]);
    }
}
END_TEST

START_TEST(test_gmem_16_byte_lanes_fill_sixteen_sectors)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 16, BASE + 16 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 16);
    ck_assert_uint_eq(res.lines, 4);
}
END_TEST

START_TEST(test_gmem_lane_wider_than_a_sector_counts_every_sector_it_crosses)
{
    coalsim_arch a = arch_of("hopper");
    a.sector_bytes = 8;
    a.line_bytes = 8;
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 16, BASE);
    r.active = 1;
    coalsim_result res;
    coalsim_model(&a, &r, &res);
    ck_assert_uint_eq(res.sectors, 2);
}
END_TEST

START_TEST(test_gmem_inactive_lanes_move_nothing)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * 32 * lane);
    r.active = 0x00000003;   /* lanes 0 and 1 only */
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 2);
    ck_assert_uint_eq(res.active_threads, 2);
    ck_assert_uint_eq(res.requested_bytes, 8);
}
END_TEST

START_TEST(test_gmem_four_thread_warp_with_16_byte_rows_moves_four_rows_per_row_sum_step)
{
    /* seed 003: lane t reads a[t*4 + i] of a 4x4 float matrix */
    coalsim_arch a = arch_of("hopper");
    a.warp_size = 4;
    a.sector_bytes = 16;
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 0x1000 + 4 * (lane * 4));
    r.active = 0xf;
    coalsim_result res;
    coalsim_model(&a, &r, &res);
    ck_assert_uint_eq(res.sectors, 4);
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 0x1000 + 4 * lane);
    r.active = 0xf;
    coalsim_model(&a, &r, &res);
    ck_assert_uint_eq(res.sectors, 1);
}
END_TEST

START_TEST(test_gmem_top_of_address_space_does_not_wrap)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 16, UINT64_MAX - 15 - 16 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.sectors, 16);
}
END_TEST

/* The sector count against its definition, counted the slow way, on random
 * requests: lanes in and out of order, shared sectors, every size. */
START_TEST(test_gmem_sectors_equal_distinct_sectors_counted_by_brute_force)
{
    uint64_t x = 88172645463325252ull;
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 20000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        coalsim_request r = {.op = COALSIM_LD, .space = COALSIM_GLOBAL, .size = sizes[x % 5], .label = "t"};
        r.active = (uint32_t)(x >> 8) | (iter & 1 ? 0xffffffffu : 0);
        if (!r.active) r.active = 1;
        uint64_t span = (x >> 40) % 3 == 0 ? 64 : (x >> 40) % 3 == 1 ? 1024 : 1u << 20;
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            r.addr[l] = iter % 3 == 0 ? (uint64_t)l * r.size * ((x >> 50) % 2 + 1) : (x % span) / r.size * r.size;
        }
        uint64_t seen[64];
        unsigned n = 0;
        for (int l = 0; l < 32; l++) {
            if (!(r.active >> l & 1)) continue;
            for (uint64_t u = r.addr[l] / 32; u <= (r.addr[l] + r.size - 1) / 32; u++) {
                unsigned k = 0;
                while (k < n && seen[k] != u) k++;
                if (k == n) seen[n++] = u;
            }
        }
        ck_assert_uint_eq(model("hopper", &r).sectors, n);
    }
}
END_TEST


/* The global-memory model as it was before its one-pass and evenly-spaced
 * fast paths (commit 552799f): units counted in lane order, sorted when the
 * lanes step back. */
static unsigned old_count_units(const coalsim_request *r, unsigned unit)
{
    uint64_t last = 0, k[32 * 17];
    unsigned count = 0;
    size_t n = 0;
    int any = 0;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t u0 = r->addr[l] / unit, u1 = (r->addr[l] + r->size - 1) / unit;
        if (!any) count = (unsigned)(u1 - u0 + 1), any = 1;
        else if (u0 > last) count += (unsigned)(u1 - u0 + 1);
        else if (u0 == last) count += (unsigned)(u1 - u0);
        else goto sort;
        last = u1;
    }
    return count;
sort:
    for (unsigned l = 0; l < 32; l++) {
        if (!(r->active >> l & 1)) continue;
        for (uint64_t u = r->addr[l] / unit, u1 = (r->addr[l] + r->size - 1) / unit; n < 32 * 17; u++) {
            k[n++] = u;
            if (u == u1) break;
        }
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && k[j - 1] > k[j]; j--) {
            uint64_t t = k[j];
            k[j] = k[j - 1], k[j - 1] = t;
        }
    count = 0;
    for (size_t i = 0; i < n; i++) count += !i || k[i] != k[i - 1];
    return count;
}

static unsigned old_requested_bytes(const coalsim_request *r)
{
    coalsim_request one = *r;
    one.size = 1;                      /* distinct addresses: aligned lanes coincide or do not overlap */
    return old_count_units(&one, 1) * r->size;
}

START_TEST(test_gmem_fast_paths_count_what_the_old_model_counted)
{
    uint64_t x = 0x243f6a8885a308d3ull;
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 30000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        coalsim_arch a = arch_of("hopper");
        a.sector_bytes = 1u << (x % 13);                       /* 1 .. 4096 */
        a.line_bytes = a.sector_bytes << ((x >> 4) % 4);
        if (iter % 50 == 0) a.sector_bytes = 24, a.line_bytes = 96;   /* a caller's arch, not checked */
        coalsim_request r = {.op = COALSIM_LD, .space = COALSIM_GLOBAL, .size = sizes[(x >> 8) % 5], .label = "t"};
        r.active = (x >> 12) % 3 ? 0xffffffffu : (uint32_t)(x >> 16);
        uint64_t size = r.size, base = (x >> 20) % 4 == 0 ? 0 - 64 * size : ((x >> 24) % 100000) * size;
        int64_t stride = (int64_t)size * (int64_t)((x >> 40) % 9) - (int64_t)size * 2;
        if ((x >> 44) % 4 == 0) stride = (int64_t)(32 << ((x >> 46) % 7));   /* a multiple of the sector */
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (iter % 4) {
            case 0: case 1: r.addr[l] = base + (uint64_t)((int64_t)l * stride); break;     /* evenly spaced */
            case 2: r.addr[l] = base + (uint64_t)((int64_t)(l ^ (int)(x % 4)) * stride); break;   /* nearly */
            default: r.addr[l] = base + x % 512 * size; break;                            /* anywhere */
            }
            if (r.addr[l] > UINT64_MAX - (size - 1)) r.addr[l] = 0 - size;
        }
        coalsim_result res;
        coalsim_gmem(&a, &r, &res);
        ck_assert_uint_eq(res.active_threads, (unsigned)__builtin_popcount(r.active));
        ck_assert_uint_eq(res.requested_bytes, old_requested_bytes(&r));
        ck_assert_uint_eq(res.sectors, old_count_units(&r, a.sector_bytes));
        ck_assert_uint_eq(res.lines, old_count_units(&r, a.line_bytes));
        ck_assert_uint_eq(res.ideal_sectors, (res.requested_bytes + a.sector_bytes - 1) / a.sector_bytes);
    }
}
END_TEST

static const char *why(const coalsim_request *r)
{
    static char buf[320];
    coalsim_arch a = arch_of("hopper");
    coalsim_result res;
    coalsim_model(&a, r, &res);
    coalsim_explain(&a, r, &res, buf, sizeof buf);
    return buf;
}

START_TEST(test_explain_names_misalignment_stride_broadcast_and_permutation)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 4 * (lane + 1));
    ck_assert_str_eq(why(&r), "misaligned by 4 bytes: 5 sectors instead of 4 (start the warp's data on a 32-byte boundary)");
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 128 * lane);
    ck_assert_str_eq(why(&r), "stride of 128 bytes between lanes: one sector per lane, 32 sectors instead of 4 (12.5%)");
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE);
    ck_assert_str_eq(why(&r), "broadcast: all 32 lanes read the same 4 bytes; 1 sector moves 32 bytes for 4 used (12.5%)");
    REQ_FOR(r, COALSIM_ST, COALSIM_GLOBAL, 4, BASE + 4 * (lane ^ 1));
    ck_assert_str_eq(why(&r), "permuted but coalesced: the lanes write 128 bytes in 4 sectors, in another order");
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * 32 * lane);
    ck_assert_str_eq(why(&r), "32-way conflict on bank 0: lanes are 32 bank words apart, a multiple of 32 banks, so they "
                              "all land on one bank: pad the row by one element (or XOR-swizzle the column)");
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * lane);
    ck_assert_str_eq(why(&r), "conflict-free: no bank is asked for two rows at once (8-byte lanes: a half warp per wavefront)");
}
END_TEST

START_TEST(test_explain_names_the_rows_of_a_2d_block)
{
    /* blockDim.x = 16 on rows 32 KiB apart: two runs, sectors still ideal */
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 32768 * (lane / 16) + 4 * (lane % 16));
    ck_assert_str_eq(why(&r), "coalesced in 2 runs of 16 lanes (a 2-D block's rows): 4 sectors, in 2 lines of 128 bytes");
    /* blockDim.x = 4: 16-byte runs, each in a sector of its own */
    REQ_FOR(r, COALSIM_ST, COALSIM_GLOBAL, 4, BASE + 32768 * (lane / 4) + 4 * (lane % 4));
    ck_assert_str_eq(why(&r), "8 runs of 4 lanes (a 2-D block's rows): 16-byte runs fill sectors partly, 8 sectors "
                              "instead of 4 (50.0%; rows of a multiple of 8 aligned lanes fill whole sectors)");
    /* runs of unequal length are not rows */
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, BASE + 32768 * (lane >= 20) + 4 * lane);
    ck_assert_ptr_null(strstr(why(&r), "runs"));
}
END_TEST

/* Regression (found by the fuzzer): a lane stride near 2^63 overflowed a
 * signed multiplication while testing for a constant stride. */
START_TEST(test_gmem_atomics_on_one_address_are_served_one_after_another)
{
    /* the H100: 32 lanes adding to one float cost 32 sectors (jacobi) */
    coalsim_request r;
    REQ_FOR(r, COALSIM_RED, COALSIM_GLOBAL, 4, BASE);
    ck_assert_uint_eq(model("hopper", &r).sectors, 32);
    /* two addresses of one sector, 3 and 5 lanes: 5 accesses; plus a lone lane elsewhere */
    REQ_FOR(r, COALSIM_ATOM, COALSIM_GLOBAL, 4, BASE + (lane < 3 ? 0 : 4));
    r.active = 0xff | 1u << 31;
    r.addr[31] = BASE + 4096;
    ck_assert_uint_eq(model("hopper", &r).sectors, 5 + 1);
    /* distinct addresses: as many sectors as a load */
    REQ_FOR(r, COALSIM_ATOM, COALSIM_GLOBAL, 4, BASE + 4 * lane);
    ck_assert_uint_eq(model("hopper", &r).sectors, 4);
}
END_TEST

START_TEST(test_explain_survives_strides_near_two_to_the_63)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 16, (uint64_t)lane * 0xa000000000000000ull);
    ck_assert_ptr_nonnull(strstr(why(&r), "sectors"));
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 16, lane == 1 ? 0x8000000000000000ull : 0);
    r.active = 3;
    ck_assert_ptr_nonnull(strstr(why(&r), "sector"));
}
END_TEST

Suite *make_gmem_suite(void)
{
    Suite *s = suite_create("gmem");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_gmem_unit_stride_float_is_four_sectors_full_efficiency);
    tcase_add_test(c, test_gmem_offset_by_one_is_five_sectors);
    tcase_add_test(c, test_gmem_permutation_within_the_warp_stays_coalesced);
    tcase_add_test(c, test_gmem_stride_of_128_floats_is_one_sector_per_lane);
    tcase_add_test(c, test_gmem_broadcast_is_one_sector_at_12_5_percent);
    tcase_add_test(c, test_gmem_strided_read_sectors_double_with_stride_until_eight);
    tcase_add_test(c, test_gmem_16_byte_lanes_fill_sixteen_sectors);
    tcase_add_test(c, test_gmem_four_thread_warp_with_16_byte_rows_moves_four_rows_per_row_sum_step);
    tcase_add_test(c, test_explain_names_misalignment_stride_broadcast_and_permutation);
    tcase_add_test(c, test_explain_names_the_rows_of_a_2d_block);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_set_timeout(l, 30);
    tcase_add_test(l, test_gmem_lane_wider_than_a_sector_counts_every_sector_it_crosses);
    tcase_add_test(l, test_gmem_inactive_lanes_move_nothing);
    tcase_add_test(l, test_gmem_top_of_address_space_does_not_wrap);
    tcase_add_test(l, test_gmem_sectors_equal_distinct_sectors_counted_by_brute_force);
    tcase_add_test(l, test_gmem_fast_paths_count_what_the_old_model_counted);
    tcase_add_test(l, test_explain_survives_strides_near_two_to_the_63);
    tcase_add_test(l, test_gmem_atomics_on_one_address_are_served_one_after_another);
    suite_add_tcase(s, l);
    return s;
}
