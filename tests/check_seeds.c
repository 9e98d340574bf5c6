/* Every number the seed documents state, read from the bundled traces through
 * the reader, the model and the totals, as the command does. */
#include <stdlib.h>

#include "helpers.h"

/* Analyse traces/NAME.trace and return its totals (caller frees). */
static coalsim_stats *analyse(const char *name, const coalsim_arch *a)
{
    char path[256];
    snprintf(path, sizeof path, "traces/%s.trace", name);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "cannot open %s (run the tests from the repository root)", path);
    coalsim_reader *rd = coalsim_reader_new(fp, path, a->warp_size);
    coalsim_stats *st = coalsim_stats_new();
    coalsim_request r;
    coalsim_result res;
    int rc;
    while ((rc = coalsim_reader_next(rd, &r)) == 1) {
        coalsim_model(a, &r, &res);
        ck_assert_int_eq(coalsim_stats_add(st, &r, &res), 0);
    }
    ck_assert_msg(rc == 0, "%s", coalsim_reader_error(rd));
    coalsim_reader_free(rd);
    fclose(fp);
    return st;
}

static const coalsim_access *find(const coalsim_stats *st, const char *label)
{
    for (size_t i = 0; i < coalsim_stats_count(st); i++)
        if (strcmp(coalsim_stats_get(st, i)->label, label) == 0) return coalsim_stats_get(st, i);
    ck_abort_msg("no access %s", label);
    return NULL;
}

/* Sectors (global) or wavefronts (shared) per request, times 100. */
static unsigned long per_req100(const coalsim_access *ac)
{
    uint64_t u = ac->space == COALSIM_GLOBAL ? ac->sectors : ac->wavefronts;
    return (unsigned long)(u * 100 / ac->requests);
}

static unsigned eff1000(const coalsim_access *ac, const coalsim_arch *a)
{
    return (unsigned)(coalsim_access_gmem_efficiency(ac, a) * 1000 + 0.5);
}

START_TEST(test_seed_add_patterns_have_the_stated_degrees_of_coalescing)
{
    coalsim_arch a = arch_of("hopper");
    static const struct { const char *trace; unsigned eff1000, sectors; } want[] = {
        {"add", 1000, 4}, {"add_permuted", 1000, 4}, {"add_offset", 800, 5},
        {"add_stride", 125, 32}, {"add_broadcast", 125, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        coalsim_stats *st = analyse(want[i].trace, &a);
        const coalsim_access *x = find(st, "x");
        ck_assert_msg(eff1000(x, &a) == want[i].eff1000, "%s: efficiency %u/1000", want[i].trace, eff1000(x, &a));
        ck_assert_uint_eq(per_req100(x), want[i].sectors * 100);
        coalsim_stats_free(st);
    }
}
END_TEST

START_TEST(test_seed_row_sum_moves_16_rows_at_25_percent_column_sum_4_rows_at_100)
{
    coalsim_arch a = arch_of("hopper");
    a.warp_size = 4;
    a.sector_bytes = 16;
    coalsim_stats *st = analyse("rowcol_sum", &a);
    const coalsim_access *row = find(st, "row"), *col = find(st, "col");
    ck_assert_uint_eq(row->sectors, 16);
    ck_assert_uint_eq(eff1000(row, &a), 250);
    ck_assert_uint_eq(col->sectors, 4);
    ck_assert_uint_eq(eff1000(col, &a), 1000);
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_seed_transposes_move_4_sectors_on_the_coalesced_side_32_on_the_other)
{
    coalsim_arch a = arch_of("hopper");
    static const struct { const char *trace; unsigned a_sec, b_sec; } want[] = {
        {"matrix_copy", 4, 4}, {"transpose1", 4, 32}, {"transpose2", 32, 4}, {"transpose3", 32, 4},
    };
    for (size_t i = 0; i < 4; i++) {
        coalsim_stats *st = analyse(want[i].trace, &a);
        ck_assert_uint_eq(per_req100(find(st, "A")), want[i].a_sec * 100);
        ck_assert_uint_eq(per_req100(find(st, "B")), want[i].b_sec * 100);
        coalsim_stats_free(st);
    }
}
END_TEST

START_TEST(test_seed_strided_read_takes_4_8_16_32_sectors_for_stride_1_2_4_and_8_up)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_stats *st = analyse("strided_read", &a);
    static const struct { const char *label; unsigned sectors; } want[] = {
        {"in_s1", 4}, {"in_s2", 8}, {"in_s4", 16}, {"in_s8", 32},
        {"in_s16", 32}, {"in_s32", 32}, {"in_s64", 32}, {"in_s128", 32},
    };
    for (size_t i = 0; i < 8; i++) ck_assert_uint_eq(per_req100(find(st, want[i].label)), want[i].sectors * 100);
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_seed_square_tile_row_1_column_32_padded_1_wavefront)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_stats *st = analyse("smem_square", &a);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadRow.tile_ld")), 100);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadRow.tile_st")), 100);
    ck_assert_uint_eq(per_req100(find(st, "setColReadCol.tile_ld")), 3200);
    ck_assert_uint_eq(per_req100(find(st, "setColReadCol.tile_st")), 3200);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadCol.tile_ld")), 3200);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadCol.tile_st")), 100);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadColDyn.tile_ld")), 3200);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadColIpad.tile_ld")), 100);
    ck_assert_uint_eq(per_req100(find(st, "setRowReadColDynIpad.tile_ld")), 100);
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_seed_rect_column_read_16_way_fermi_8_way_kepler_free_with_npad_2)
{
    coalsim_arch f = arch_of("fermi"), k = arch_of("kepler");
    coalsim_stats *sf = analyse("smem_rect", &f), *sk = analyse("smem_rect", &k);
    ck_assert_uint_eq(find(sf, "setRowReadCol.tile_ld")->max_ways, 16);
    ck_assert_uint_eq(find(sf, "setColReadCol.tile_ld")->max_ways, 16);
    ck_assert_uint_eq(find(sk, "setRowReadCol.tile_ld")->max_ways, 8);
    ck_assert_uint_eq(find(sk, "setRowReadColDyn.tile_ld")->max_ways, 8);
    ck_assert_uint_eq(find(sk, "setRowReadColPad.tile_ld")->max_ways, 1);
    ck_assert_uint_eq(find(sk, "setRowReadColDynPad.tile_ld")->max_ways, 1);
    ck_assert_uint_eq(find(sk, "setRowReadColPad.tile_st")->max_ways, 1);
    coalsim_stats_free(sf);
    coalsim_stats_free(sk);
}
END_TEST

/* The seed says transposeSmem's column read is 8-way "on Kepler".  8-way is
 * what 4-byte banks give; Kepler's 8-byte banks give 4-way. */
START_TEST(test_seed_transpose_smem_8_way_belongs_to_4_byte_banks_not_kepler)
{
    coalsim_arch h = arch_of("hopper"), k = arch_of("kepler"), f = arch_of("fermi");
    coalsim_stats *sh = analyse("transpose_smem", &h), *sk = analyse("transpose_smem", &k),
                  *sf = analyse("transpose_smem", &f), *sp = analyse("transpose_smem_pad", &h);
    ck_assert_uint_eq(find(sh, "tile_ld")->max_ways, 8);
    ck_assert_uint_eq(find(sf, "tile_ld")->max_ways, 8);
    ck_assert_uint_eq(find(sk, "tile_ld")->max_ways, 4);
    ck_assert_uint_eq(find(sp, "tile_ld")->max_ways, 1);
    ck_assert_uint_eq(per_req100(find(sh, "in")), 400);
    ck_assert_uint_eq(per_req100(find(sh, "out")), 400);
    coalsim_stats_free(sh);
    coalsim_stats_free(sk);
    coalsim_stats_free(sf);
    coalsim_stats_free(sp);
}
END_TEST

/* setColReadCol's "32 transactions" is again a 4-byte-bank number: Kepler's
 * 64-bit mode halves it. */
START_TEST(test_seed_square_column_read_is_16_way_on_kepler)
{
    coalsim_arch k = arch_of("kepler");
    coalsim_stats *st = analyse("smem_square", &k);
    ck_assert_uint_eq(find(st, "setColReadCol.tile_ld")->max_ways, 16);
    coalsim_stats_free(st);
}
END_TEST

Suite *make_seeds_suite(void)
{
    Suite *s = suite_create("seeds");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_seed_add_patterns_have_the_stated_degrees_of_coalescing);
    tcase_add_test(c, test_seed_row_sum_moves_16_rows_at_25_percent_column_sum_4_rows_at_100);
    tcase_add_test(c, test_seed_transposes_move_4_sectors_on_the_coalesced_side_32_on_the_other);
    tcase_add_test(c, test_seed_strided_read_takes_4_8_16_32_sectors_for_stride_1_2_4_and_8_up);
    tcase_add_test(c, test_seed_square_tile_row_1_column_32_padded_1_wavefront);
    tcase_add_test(c, test_seed_rect_column_read_16_way_fermi_8_way_kepler_free_with_npad_2);
    tcase_add_test(c, test_seed_transpose_smem_8_way_belongs_to_4_byte_banks_not_kepler);
    tcase_add_test(c, test_seed_square_column_read_is_16_way_on_kepler);
    suite_add_tcase(s, c);
    return s;
}
