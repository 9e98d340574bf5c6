/* Architecture presets and knob checks. */
#include "helpers.h"

START_TEST(test_every_listed_preset_exists_and_is_valid)
{
    for (const char *const *n = coalsim_arch_names(); *n; n++) {
        coalsim_arch a;
        ck_assert_int_eq(coalsim_arch_preset(*n, &a), 0);
        ck_assert_str_eq(a.name, *n);
        ck_assert_ptr_null(coalsim_arch_check(&a));
    }
}
END_TEST

START_TEST(test_unknown_preset_is_refused)
{
    coalsim_arch a;
    ck_assert_int_eq(coalsim_arch_preset("volcano", &a), -1);
}
END_TEST

START_TEST(test_kepler_has_8_byte_banks_in_64_bit_mode)
{
    coalsim_arch k = arch_of("kepler"), k32 = arch_of("kepler32"), h = arch_of("hopper");
    ck_assert_uint_eq(k.bank_width, 8);
    ck_assert_uint_eq(k.bank_mode, 64);
    ck_assert_uint_eq(k32.bank_mode, 32);
    ck_assert_uint_eq(h.bank_width, 4);
    ck_assert_uint_eq(h.warp_size, 32);
    ck_assert_uint_eq(h.sector_bytes, 32);
}
END_TEST

START_TEST(test_bad_knobs_are_named)
{
    coalsim_arch a = arch_of("hopper");
    a.warp_size = 33;
    ck_assert_str_eq(coalsim_arch_check(&a), "warp size must be 1 to 32");
    a = arch_of("hopper");
    a.sector_bytes = 24;
    ck_assert_ptr_nonnull(coalsim_arch_check(&a));
    a = arch_of("hopper");
    a.bank_mode = 64;
    ck_assert_str_eq(coalsim_arch_check(&a), "bank mode 64 needs 8-byte banks");
    a = arch_of("hopper");
    a.bank_width = 2;
    ck_assert_ptr_nonnull(coalsim_arch_check(&a));
    a = arch_of("hopper");
    a.banks = 48;
    ck_assert_ptr_nonnull(coalsim_arch_check(&a));
}
END_TEST

Suite *make_arch_suite(void)
{
    Suite *s = suite_create("arch");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_every_listed_preset_exists_and_is_valid);
    tcase_add_test(c, test_kepler_has_8_byte_banks_in_64_bit_mode);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_unknown_preset_is_refused);
    tcase_add_test(l, test_bad_knobs_are_named);
    suite_add_tcase(s, l);
    return s;
}
