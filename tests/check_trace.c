/* Trace format v1 reader: grouping records into warp requests, and errors. */
#include <stdlib.h>

#include "helpers.h"

typedef struct {
    FILE *fp;
    coalsim_reader *rd;
} rdr;

static rdr open_str(const char *s, unsigned warp)
{
    rdr r;
    r.fp = str_file(s);
    r.rd = coalsim_reader_new(r.fp, "t.trace", warp);
    ck_assert_ptr_nonnull(r.rd);
    return r;
}

static void close_rdr(rdr *r)
{
    coalsim_reader_free(r->rd);
    fclose(r->fp);
}

START_TEST(test_trace_consecutive_lanes_of_one_warp_form_one_request)
{
    rdr r = open_str("ld global 4 x 0 0 0x100\nld global 4 x 0 1 0x104\nld global 4 x 0 31 0x17c\n", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.active, 0x80000003u);
    ck_assert_uint_eq(q.addr[31], 0x17c);
    ck_assert_str_eq(q.label, "x");
    ck_assert_uint_eq(q.line, 1);
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 0);
    ck_assert_uint_eq(coalsim_reader_records(r.rd), 3);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_a_repeated_lane_starts_the_next_request)
{
    rdr r = open_str("ld global 4 x 0 0 0\nld global 4 x 0 1 4\nld global 4 x 0 0 8\n", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.active, 0x3);
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.active, 0x1);
    ck_assert_uint_eq(q.addr[0], 8);
    ck_assert_uint_eq(q.line, 3);
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 0);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_label_op_space_size_block_or_warp_change_splits_requests)
{
    rdr r = open_str("ld global 4 x 0 0 0\n"
                     "ld global 4 y 0 1 4\n"      /* label */
                     "st global 4 y 0 2 8\n"      /* op */
                     "st shared 4 y 0 3 8\n"      /* space */
                     "st shared 8 y 0 4 8\n"      /* size */
                     "st shared 8 y 1 5 8\n"      /* block */
                     "st shared 8 y 1 37 8\n",    /* warp */
                     32);
    coalsim_request q;
    int n = 0;
    while (coalsim_reader_next(r.rd, &q) == 1) n++;
    ck_assert_int_eq(n, 7);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_warp_size_groups_threads)
{
    rdr r = open_str("ld global 4 row 0 0 0\nld global 4 row 0 1 16\nld global 4 row 0 4 32\n", 4);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.active, 0x3);
    ck_assert_uint_eq(q.warp, 0);
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.warp, 1);
    ck_assert_uint_eq(q.active, 0x1);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_accepts_crlf_tabs_comments_blank_lines_and_no_final_newline)
{
    rdr r = open_str("# header\r\n\r\n  \t\nld\tglobal\t4\tx\t0\t0\t0x100  # why\r\nld global 4 x 0 1 260", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.active, 0x3);
    ck_assert_uint_eq(q.addr[1], 260);
    ck_assert_uint_eq(q.line, 4);
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 0);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_empty_input_has_no_requests)
{
    rdr r = open_str("", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 0);
    close_rdr(&r);
}
END_TEST

static void expect_error(const char *text, const char *msg)
{
    rdr r = open_str(text, 32);
    coalsim_request q;
    int rc;
    while ((rc = coalsim_reader_next(r.rd, &q)) == 1) {}
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(coalsim_reader_error(r.rd), msg);
    /* an error is sticky */
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), -1);
    close_rdr(&r);
}

START_TEST(test_trace_errors_name_the_file_and_line)
{
    expect_error("ld global 4 x 0 0 0\nld global 4 x 0 1 0x6\n", "t.trace:2: address 0x6 is not aligned to its 4-byte size");
    expect_error("ld global 5 x 0 0 0\n", "t.trace:1: size '5' is not 1, 2, 4, 8 or 16");
    expect_error("ld texture 4 x 0 0 0\n", "t.trace:1: unknown space 'texture' (expected global, shared, local or const)");
    expect_error("swap global 4 x 0 0 0\n", "t.trace:1: unknown op 'swap' (expected ld, st, atom, red, ldsm or stsm)");
    expect_error("ld global 4 x 0\n", "t.trace:1: expected 7 fields (OP SPACE SIZE LABEL BLOCK THREAD ADDRESS), found 5");
    expect_error("ld global 4 x 18446744073709551616 0 0\n",
                 "t.trace:1: block index '18446744073709551616' does not fit in 64 bits");
    expect_error("ld global 4 x 0 +1 0\n", "t.trace:1: thread index '+1' is not a non-negative decimal number");
    expect_error("ld global 4 x 0 0 0x\n", "t.trace:1: address '0x' is not a decimal or 0x hex number");
    expect_error("ld shared 16 x 0 0 0xfffffff0\nld shared 16 x 0 1 0x100000000\n",
                 "t.trace:2: shared address 0x100000000 is beyond the 4 GiB shared window");
    expect_error("ld global 4 \x01x 0 0 0\n", "t.trace:1: label is not UTF-8 text (control character or bad byte)");
    expect_error("ld global 4 \xff 0 0 0\n", "t.trace:1: label is not UTF-8 text (control character or bad byte)");
}
END_TEST

START_TEST(test_trace_largest_64_bit_numbers_are_accepted)
{
    rdr r = open_str("ld global 1 x 18446744073709551615 4294967295 0xffffffffffffffff\n", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_uint_eq(q.block, UINT64_MAX);
    ck_assert_uint_eq(q.addr[31], UINT64_MAX);
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_utf8_labels_are_accepted)
{
    rdr r = open_str("ld global 4 \xe8\xa1\x8c 0 0 0\n", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), 1);
    ck_assert_str_eq(q.label, "\xe8\xa1\x8c");
    close_rdr(&r);
}
END_TEST

START_TEST(test_trace_a_line_longer_than_4096_bytes_is_an_error_not_a_crash)
{
    char *s = malloc(10000);
    ck_assert_ptr_nonnull(s);
    memset(s, 'a', 9998);
    s[9998] = '\n';
    s[9999] = '\0';
    rdr r = open_str(s, 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), -1);
    ck_assert_str_eq(coalsim_reader_error(r.rd), "t.trace:1: line longer than 4096 bytes");
    close_rdr(&r);
    free(s);
}
END_TEST

START_TEST(test_trace_a_line_of_megabytes_is_an_error_on_its_line)
{
    size_t n = 3u << 20;
    char *s = malloc(n + 64);
    ck_assert_ptr_nonnull(s);
    int k = snprintf(s, 64, "ld global 4 x 0 0 0\nld global 4 ");
    memset(s + k, 'L', n);
    strcpy(s + k + n, " 0 1 4\n");
    rdr r = open_str(s, 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(r.rd, &q), -1);
    ck_assert_str_eq(coalsim_reader_error(r.rd), "t.trace:2: line longer than 4096 bytes");
    close_rdr(&r);
    free(s);
}
END_TEST

START_TEST(test_trace_records_spanning_read_buffers_are_joined)
{
    /* 100k records cross the reader's 64 KiB buffer many times */
    size_t cap = 100000 * 40, n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(s + n, cap - n, "ld global 4 lbl %d %d 0x%x\n", i / 32, i % 32, 4 * i);
    rdr r = open_str(s, 32);
    coalsim_request q;
    int reqs = 0;
    while (coalsim_reader_next(r.rd, &q) == 1) {
        ck_assert_uint_eq(q.addr[0], (uint64_t)reqs * 128);
        reqs++;
    }
    ck_assert_int_eq(reqs, 3125);
    ck_assert_uint_eq(coalsim_reader_records(r.rd), 100000);
    close_rdr(&r);
    free(s);
}
END_TEST

/* Random traces: valid records in many spellings, with now and then a broken
 * one.  Deterministic (xorshift). */
static char *random_trace(unsigned seed, size_t lines)
{
    size_t cap = lines * 96 + 1, n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 7;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    static const char *const labels[] = {"a", "tile", "B_col", "\xe8\xa1\x8c"};
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    unsigned thread = 0, block = 0, label = 0, size = 4, op = 0, sp = 0;
    for (size_t i = 0; i < lines; i++) {
        uint64_t r = RND();
        if (r % 11 == 0) label = (unsigned)(RND() % 4);
        if (r % 13 == 0) size = sizes[RND() % 5];
        if (r % 17 == 0) op ^= 1;
        if (r % 19 == 0) sp ^= 1;
        if (r % 23 == 0) block++;
        thread = r % 29 == 0 ? (unsigned)(RND() % 256) : (thread + 1) % 256;
        uint64_t addr = (RND() % (sp ? 4096 : 1u << 20)) / size * size + (i > lines / 2 && r % 97 == 0);
        const char *sep = r % 31 == 0 ? "\t" : r % 37 == 0 ? "  " : " ";
        int hex = (int)(r % 5 != 0);
        n += (size_t)snprintf(s + n, cap - n, "%s%s%s%s%s%u%s%s%s%s", r % 41 == 0 ? " " : "", op ? "st" : "ld", sep,
                              sp ? "shared" : "global", sep, size, sep, labels[label], sep, r % 43 == 0 ? "00" : "");
        n += (size_t)snprintf(s + n, cap - n, "%u%s%u%s", block, sep, thread, sep);
        if (hex) n += (size_t)snprintf(s + n, cap - n, r % 47 == 0 ? "0X%llX" : "0x%llx", (unsigned long long)addr);
        else n += (size_t)snprintf(s + n, cap - n, "%llu", (unsigned long long)addr);
        n += (size_t)snprintf(s + n, cap - n, "%s\n", r % 53 == 0 ? "  # note" : r % 59 == 0 ? "\r" : "");
        if (r % 61 == 0) n += (size_t)snprintf(s + n, cap - n, "\n# comment line\n");
    }
#undef RND
    return s;
}

START_TEST(test_trace_fast_path_gives_the_same_requests_and_errors_as_the_simple_path)
{
    for (unsigned seed = 1; seed <= 40; seed++) {
        char *text = random_trace(seed, 3000);
        rdr a = open_str(text, 32), b = open_str(text, 32);
        coalsim_reader_simple(b.rd);
        coalsim_request qa, qb;
        int ra, rb, reqs = 0;
        do {
            ra = coalsim_reader_next(a.rd, &qa);
            rb = coalsim_reader_next(b.rd, &qb);
            ck_assert_int_eq(ra, rb);
            if (ra == 1) {
                reqs++;
                ck_assert_int_eq(qa.op, qb.op);
                ck_assert_int_eq(qa.space, qb.space);
                ck_assert_uint_eq(qa.size, qb.size);
                ck_assert_str_eq(qa.label, qb.label);
                ck_assert_uint_eq(qa.block, qb.block);
                ck_assert_uint_eq(qa.warp, qb.warp);
                ck_assert_uint_eq(qa.active, qb.active);
                ck_assert_uint_eq(qa.line, qb.line);
                for (int l = 0; l < 32; l++)
                    if (qa.active >> l & 1) ck_assert_uint_eq(qa.addr[l], qb.addr[l]);
            }
        } while (ra == 1);
        if (ra < 0) ck_assert_str_eq(coalsim_reader_error(a.rd), coalsim_reader_error(b.rd));
        ck_assert_int_gt(reqs, 0);
        close_rdr(&a);
        close_rdr(&b);
        free(text);
    }
}
END_TEST

Suite *make_trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_trace_consecutive_lanes_of_one_warp_form_one_request);
    tcase_add_test(c, test_trace_a_repeated_lane_starts_the_next_request);
    tcase_add_test(c, test_trace_label_op_space_size_block_or_warp_change_splits_requests);
    tcase_add_test(c, test_trace_warp_size_groups_threads);
    tcase_add_test(c, test_trace_accepts_crlf_tabs_comments_blank_lines_and_no_final_newline);
    tcase_add_test(c, test_trace_utf8_labels_are_accepted);
    tcase_add_test(c, test_trace_records_spanning_read_buffers_are_joined);
    tcase_add_test(c, test_trace_fast_path_gives_the_same_requests_and_errors_as_the_simple_path);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_trace_empty_input_has_no_requests);
    tcase_add_test(l, test_trace_errors_name_the_file_and_line);
    tcase_add_test(l, test_trace_largest_64_bit_numbers_are_accepted);
    tcase_add_test(l, test_trace_a_line_longer_than_4096_bytes_is_an_error_not_a_crash);
    tcase_add_test(l, test_trace_a_line_of_megabytes_is_an_error_on_its_line);
    suite_add_tcase(s, l);
    return s;
}
