/* Matrix and async-copy instructions: the model against the H100's counters
 * for every ldmatrix, stmatrix and cp.async probe pattern
 * (gpu/probes/h100-matrix.txt, made by gpu/probes/join_matrix.py), and the
 * rules those patterns showed, one claim a test. */
#include <stdlib.h>

#include "helpers.h"

#define MATRIX_PROBES "gpu/probes/h100-matrix.txt"

/* An ldmatrix/stmatrix of N matrices whose row l is at ROW(l). */
static coalsim_request matrix_req(coalsim_op op, unsigned n, const uint64_t *rows)
{
    coalsim_request r;
    memset(&r, 0, sizeof r);
    r.op = op, r.space = COALSIM_SHARED, r.size = 16, r.label = "m";
    r.active = n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1;
    for (unsigned l = 0; l < 8 * n; l++) r.addr[l] = rows[l];
    return r;
}

START_TEST(test_matrix_every_h100_probe_pattern_is_reproduced)
{
    FILE *fp = fopen(MATRIX_PROBES, "r");
    ck_assert_msg(fp != NULL, "cannot open %s (run the tests from the repository root)", MATRIX_PROBES);
    coalsim_arch a = arch_of("hopper");
    char line[4096];
    int lineno = 0, n_ldsm = 0, n_stsm = 0, n_cp = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char name[128], op[16];
        unsigned n, wf_ld, wf_st, sec, sec_ca, swf;
        int pos;
        ck_assert_msg(sscanf(line, "%127s %15s %u %u %u %u %u %u%n", name, op, &n, &wf_ld, &wf_st, &sec, &sec_ca, &swf,
                             &pos) == 8, "%s:%d: bad line", MATRIX_PROBES, lineno);
        long long g[32];
        uint64_t s[32];
        char *p = line + pos;
        for (int l = 0; l < 64; l++) {
            long long v;
            int k;
            ck_assert_msg(sscanf(p, "%lld%n", &v, &k) == 1, "%s:%d: short line", MATRIX_PROBES, lineno);
            p += k;
            if (l < 32) g[l] = v;
            else s[l - 32] = (uint64_t)v;
        }
        if (!strncmp(op, "ldsm", 4) || !strcmp(op, "stsm")) {
            int st = !strcmp(op, "stsm");
            coalsim_request r = matrix_req(st ? COALSIM_STSM : COALSIM_LDSM, n, s);
            coalsim_result res;
            coalsim_model(&a, &r, &res);
            ck_assert_msg(res.wavefronts == (st ? wf_st : wf_ld), "%s: %u wavefronts measured, %u modelled", name,
                          st ? wf_st : wf_ld, res.wavefronts);
            ck_assert_msg(res.ideal_wavefronts == n, "%s: ideal %u, not %u", name, res.ideal_wavefronts, n);
            st ? n_stsm++ : n_ldsm++;
            continue;
        }
        int cg = !strcmp(op, "ldgsts_cg");
        coalsim_request r;
        memset(&r, 0, sizeof r);
        r.op = cg ? COALSIM_LDGSTS_BYPASS : COALSIM_LDGSTS, r.space = COALSIM_GLOBAL, r.size = n, r.label = name;
        for (int l = 0; l < 32; l++)
            if (g[l] >= 0) r.active |= 1u << l, r.addr[l] = (uint64_t)g[l];
        coalsim_result gr, sr;
        coalsim_ldgsts(&a, &r, s, &gr, &sr);
        ck_assert_msg(gr.sectors == sec, "%s: %u sectors measured, %u modelled", name, sec, gr.sectors);
        ck_assert_msg((cg ? 0 : gr.sectors) == sec_ca, "%s: %u cache-access sectors measured", name, sec_ca);
        ck_assert_msg(sr.wavefronts == swf, "%s: %u shared wavefronts measured, %u modelled", name, swf, sr.wavefronts);
        n_cp++;
    }
    fclose(fp);
    ck_assert_int_eq(n_ldsm, 68);
    ck_assert_int_eq(n_stsm, 51);
    ck_assert_int_eq(n_cp, 32);
}
END_TEST

START_TEST(test_matrix_ldmatrix_of_64_half_rows_is_8_way_and_padding_by_8_halves_removes_it)
{
    coalsim_arch a = arch_of("hopper");
    uint64_t unpadded[32], padded[32], swizzled[32];
    for (unsigned l = 0; l < 32; l++) {
        unsigned row = l % 8 + 8 * (l / 16), chunk = (l / 8) % 2;   /* an x4 of a 16x16 tile in a 64-half-wide array */
        unpadded[l] = row * 128 + chunk * 16;
        padded[l] = row * 144 + chunk * 16;
        swizzled[l] = row * 128 + ((chunk ^ (row % 8)) * 16);
    }
    coalsim_result r;
    coalsim_request q = matrix_req(COALSIM_LDSM, 4, unpadded);
    coalsim_model(&a, &q, &r);
    ck_assert_uint_eq(r.wavefronts, 32);
    ck_assert_uint_eq(r.max_ways, 8);
    q = matrix_req(COALSIM_LDSM, 4, padded);
    coalsim_model(&a, &q, &r);
    ck_assert_uint_eq(r.wavefronts, 4);
    q = matrix_req(COALSIM_LDSM, 4, swizzled);
    coalsim_model(&a, &q, &r);
    ck_assert_uint_eq(r.wavefronts, 4);
}
END_TEST

START_TEST(test_matrix_ldmatrix_rows_that_repeat_do_not_pair_as_lds_loads_do)
{
    /* LDS.128 with every lane on one address takes 2 wavefronts (lanes pair);
     * an ldmatrix.x4 whose 32 rows are one row takes 4: one a matrix */
    coalsim_arch a = arch_of("hopper");
    uint64_t same[32] = {0};
    coalsim_request q = matrix_req(COALSIM_LDSM, 4, same);
    coalsim_result r;
    coalsim_model(&a, &q, &r);
    ck_assert_uint_eq(r.wavefronts, 4);
    q.op = COALSIM_LD;
    coalsim_model(&a, &q, &r);
    ck_assert_uint_eq(r.wavefronts, 2);
}
END_TEST

START_TEST(test_matrix_cp_async_cg_to_a_padded_tile_moves_more_sectors_than_it_reads)
{
    /* 32 lanes copy 512 contiguous bytes (16 sectors) into rows of 80 bytes
     * (32 halves + 8 padding), four 16-byte pieces a row: the 32-byte
     * pieces of shared memory no longer pair with the global sectors */
    coalsim_arch a = arch_of("hopper");
    coalsim_request r;
    memset(&r, 0, sizeof r);
    r.op = COALSIM_LDGSTS_BYPASS, r.space = COALSIM_GLOBAL, r.size = 16, r.active = 0xffffffffu, r.label = "cp";
    uint64_t dst[32], flat[32];
    for (unsigned l = 0; l < 32; l++) r.addr[l] = 4096 + 16 * l, dst[l] = (l / 4) * 80 + (l % 4) * 16, flat[l] = 16 * l;
    coalsim_result g, s;
    coalsim_ldgsts(&a, &r, flat, &g, &s);
    ck_assert_uint_eq(g.sectors, 16);
    ck_assert_uint_eq(s.wavefronts, 0);
    coalsim_ldgsts(&a, &r, dst, &g, &s);
    ck_assert_uint_gt(g.sectors, 16);
    r.op = COALSIM_LDGSTS;               /* .ca: the sectors a load moves, whatever the destination */
    coalsim_ldgsts(&a, &r, dst, &g, &s);
    ck_assert_uint_eq(g.sectors, 16);
    /* a 128-byte source line's 8 lanes land on rows 0 and 1 of the tile,
     * bytes 0-63 and 80-143: banks 0-3 twice, so 2 passes a line */
    ck_assert_uint_eq(s.wavefronts, 8);
    coalsim_ldgsts(&a, &r, flat, &g, &s);
    ck_assert_uint_eq(s.wavefronts, 4);  /* unpadded: a pass per source line */
}
END_TEST

START_TEST(test_matrix_cp_async_ca_of_one_word_to_32_places_takes_32_passes)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_request r;
    memset(&r, 0, sizeof r);
    r.op = COALSIM_LDGSTS, r.space = COALSIM_GLOBAL, r.size = 4, r.active = 0xffffffffu, r.label = "cp";
    uint64_t dst[32];
    for (unsigned l = 0; l < 32; l++) r.addr[l] = 4096, dst[l] = 4 * l;
    coalsim_result g, s;
    coalsim_ldgsts(&a, &r, dst, &g, &s);
    ck_assert_uint_eq(g.sectors, 1);
    ck_assert_uint_eq(s.wavefronts, 32);
}
END_TEST

START_TEST(test_matrix_tile_of_64_halves_needs_swizzle_3_3_3_or_8_halves_of_padding)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_tile t = {.rows = 64, .cols = 64, .elem = 2, .walk = COALSIM_WALK_LDMATRIX};
    coalsim_tile_result r;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.requests, 16);
    ck_assert_uint_eq(r.wavefronts, 16 * 32);   /* 8-way: every 16x16 block's rows on banks 0-3 */
    t.pad = 8;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.wavefronts, r.ideal_wavefronts);
    ck_assert_uint_eq(r.bytes, 64 * 72 * 2);
    t.pad = 0, t.cute_b = 3, t.cute_m = 3, t.cute_s = 3;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.wavefronts, r.ideal_wavefronts);
    ck_assert_uint_eq(r.bytes, 64 * 64 * 2);
    t.cute_b = 2;                                  /* two bits of the row are not enough for 8 rows */
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.max_ways, 2);
}
END_TEST

START_TEST(test_matrix_padding_a_32_half_tile_conflicts_its_16_byte_fill)
{
    /* 80-byte rows: ldmatrix is conflict-free, but a quarter warp's 8 chunks
     * land on rows 0 and 1 at bytes 0-63 and 80-143: 2-way */
    coalsim_arch a = arch_of("hopper");
    coalsim_tile t = {.rows = 128, .cols = 32, .elem = 2, .pad = 8, .walk = COALSIM_WALK_LDMATRIX};
    coalsim_tile_result r;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.wavefronts, r.ideal_wavefronts);
    t.walk = COALSIM_WALK_CHUNKS;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.max_ways, 2);
    t.pad = 0, t.cute_b = 2, t.cute_m = 3, t.cute_s = 3;     /* Swizzle<2,3,3>: both free */
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.wavefronts, r.ideal_wavefronts);
    t.walk = COALSIM_WALK_LDMATRIX;
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    ck_assert_uint_eq(r.wavefronts, r.ideal_wavefronts);
}
END_TEST

START_TEST(test_matrix_explain_names_a_fix_it_checked_for_a_conflicting_ldmatrix)
{
    coalsim_arch a = arch_of("hopper");
    uint64_t rows[32];
    for (unsigned l = 0; l < 32; l++) rows[l] = (l % 8 + 8 * (l / 16)) * 128 + (l / 8 % 2) * 16;
    coalsim_request q = matrix_req(COALSIM_LDSM, 4, rows);
    coalsim_result r;
    coalsim_model(&a, &q, &r);
    char buf[512];
    coalsim_explain(&a, &q, &r, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "8-way") && strstr(buf, "a pitch of 144") && strstr(buf, "4 wavefronts, not 32"), "%s", buf);
}
END_TEST

START_TEST(test_matrix_tile_rejects_ldmatrix_walks_it_cannot_make)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_tile_result r;
    coalsim_tile t = {.rows = 64, .cols = 64, .elem = 4, .walk = COALSIM_WALK_LDMATRIX};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);   /* not 16-bit */
    t = (coalsim_tile){.rows = 60, .cols = 64, .elem = 2, .walk = COALSIM_WALK_LDMATRIX};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);   /* not 16x16 blocks */
    t = (coalsim_tile){.rows = 64, .cols = 64, .elem = 2, .pad = 3, .walk = COALSIM_WALK_LDMATRIX};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);   /* rows not 16-byte aligned */
    t = (coalsim_tile){.rows = 64, .cols = 64, .elem = 2, .cute_b = 3, .cute_m = 2, .cute_s = 3, .walk = COALSIM_WALK_LDMATRIX};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);   /* would split 16-byte rows */
}
END_TEST

Suite *make_matrix_suite(void)
{
    Suite *s = suite_create("matrix");
    TCase *hw = tcase_create("Hardware");
    tcase_add_test(hw, test_matrix_every_h100_probe_pattern_is_reproduced);
    suite_add_tcase(s, hw);
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_matrix_ldmatrix_of_64_half_rows_is_8_way_and_padding_by_8_halves_removes_it);
    tcase_add_test(c, test_matrix_ldmatrix_rows_that_repeat_do_not_pair_as_lds_loads_do);
    tcase_add_test(c, test_matrix_cp_async_cg_to_a_padded_tile_moves_more_sectors_than_it_reads);
    tcase_add_test(c, test_matrix_cp_async_ca_of_one_word_to_32_places_takes_32_passes);
    tcase_add_test(c, test_matrix_tile_of_64_halves_needs_swizzle_3_3_3_or_8_halves_of_padding);
    tcase_add_test(c, test_matrix_padding_a_32_half_tile_conflicts_its_16_byte_fill);
    tcase_add_test(c, test_matrix_explain_names_a_fix_it_checked_for_a_conflicting_ldmatrix);
    tcase_add_test(c, test_matrix_tile_rejects_ldmatrix_walks_it_cannot_make);
    suite_add_tcase(s, c);
    return s;
}
