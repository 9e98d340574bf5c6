/* Per-access totals. */
#include "helpers.h"

static void add(coalsim_stats *st, const char *label, coalsim_op op, coalsim_space sp, unsigned sectors)
{
    coalsim_request r = {.op = op, .space = sp, .size = 4, .label = label, .active = 1};
    coalsim_result res = {.active_threads = 1, .requested_bytes = 4, .sectors = sectors, .ideal_sectors = 1};
    ck_assert_int_eq(coalsim_stats_add(st, &r, &res), 0);
}

START_TEST(test_stats_group_by_label_op_space_in_order_of_first_appearance)
{
    coalsim_stats *st = coalsim_stats_new();
    add(st, "b", COALSIM_LD, COALSIM_GLOBAL, 2);
    add(st, "a", COALSIM_LD, COALSIM_GLOBAL, 1);
    add(st, "b", COALSIM_ST, COALSIM_GLOBAL, 1);
    add(st, "b", COALSIM_LD, COALSIM_GLOBAL, 3);
    add(st, "b", COALSIM_LD, COALSIM_SHARED, 1);
    ck_assert_uint_eq(coalsim_stats_count(st), 4);
    const coalsim_access *a = coalsim_stats_get(st, 0);
    ck_assert_str_eq(a->label, "b");
    ck_assert_uint_eq(a->requests, 2);
    ck_assert_uint_eq(a->sectors, 5);
    ck_assert_str_eq(coalsim_stats_get(st, 1)->label, "a");
    ck_assert_int_eq(coalsim_stats_get(st, 2)->op, COALSIM_ST);
    ck_assert_int_eq(coalsim_stats_get(st, 3)->space, COALSIM_SHARED);
    ck_assert_ptr_null(coalsim_stats_get(st, 4));
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_stats_keep_ten_thousand_distinct_labels_apart)
{
    coalsim_stats *st = coalsim_stats_new();
    char label[32];
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 10000; i++) {
            snprintf(label, sizeof label, "L%d", i);
            add(st, label, COALSIM_LD, COALSIM_GLOBAL, 1);
        }
    ck_assert_uint_eq(coalsim_stats_count(st), 10000);
    for (size_t i = 0; i < 10000; i++) {
        snprintf(label, sizeof label, "L%zu", i);
        ck_assert_str_eq(coalsim_stats_get(st, i)->label, label);
        ck_assert_uint_eq(coalsim_stats_get(st, i)->requests, 2);
    }
    coalsim_stats_free(st);
}
END_TEST

START_TEST(test_stats_efficiency_is_requested_over_moved)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_access ac = {.requested_bytes = 128, .sectors = 5, .wavefronts = 32, .ideal_wavefronts = 1};
    ck_assert_double_eq_tol(coalsim_access_gmem_efficiency(&ac, &a), 0.8, 1e-12);
    ck_assert_double_eq_tol(coalsim_access_smem_efficiency(&ac), 1.0 / 32, 1e-12);
    coalsim_access none = {0};
    ck_assert_double_eq(coalsim_access_gmem_efficiency(&none, &a), 0.0);
    ck_assert_double_eq(coalsim_access_smem_efficiency(&none), 0.0);
}
END_TEST

START_TEST(test_stats_merge_equals_adding_in_sequence)
{
    coalsim_stats *all = coalsim_stats_new(), *a = coalsim_stats_new(), *b = coalsim_stats_new();
    const char *labels[] = {"p", "q", "p", "r", "q", "s"};
    for (int i = 0; i < 6; i++) {
        coalsim_request r = {.op = COALSIM_LD, .space = COALSIM_SHARED, .size = 4, .label = labels[i],
                             .active = 1, .line = (unsigned long)i + 1};
        coalsim_result res = {.active_threads = 1, .requested_bytes = 4, .wavefronts = (unsigned)i + 1,
                              .ideal_wavefronts = 1, .max_ways = i == 4 ? 5 : 2, .worst_bank = (unsigned)i};
        ck_assert_int_eq(coalsim_stats_add(all, &r, &res), 0);
        ck_assert_int_eq(coalsim_stats_add(i < 3 ? a : b, &r, &res), 0);
    }
    ck_assert_int_eq(coalsim_stats_merge(a, b), 0);
    ck_assert_uint_eq(coalsim_stats_count(a), coalsim_stats_count(all));
    for (size_t i = 0; i < coalsim_stats_count(all); i++) {
        const coalsim_access *x = coalsim_stats_get(all, i), *y = coalsim_stats_get(a, i);
        ck_assert_str_eq(x->label, y->label);
        ck_assert_uint_eq(x->first_line, y->first_line);
        ck_assert_uint_eq(x->requests, y->requests);
        ck_assert_uint_eq(x->wavefronts, y->wavefronts);
        ck_assert_uint_eq(x->max_ways, y->max_ways);
        ck_assert_uint_eq(x->worst_bank, y->worst_bank);
    }
    coalsim_stats_free(all);
    coalsim_stats_free(a);
    coalsim_stats_free(b);
}
END_TEST

Suite *make_stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_stats_group_by_label_op_space_in_order_of_first_appearance);
    tcase_add_test(c, test_stats_efficiency_is_requested_over_moved);
    tcase_add_test(c, test_stats_merge_equals_adding_in_sequence);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_stats_keep_ten_thousand_distinct_labels_apart);
    suite_add_tcase(s, l);
    return s;
}
