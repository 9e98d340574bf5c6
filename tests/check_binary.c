/* Binary traces: the writer and the reader agree, and bad input is named by
 * its byte offset. */
#include <stdlib.h>

#include "helpers.h"
#include "trace_oracle.h"

START_TEST(test_binary_round_trip_gives_the_same_requests)
{
    const char *text = "ld global 4 x 0 0 0x7f0000000104\nld global 4 x 0 1 0x7f0000000100\n"
                       "ld global 4 x 0 31 0xfffffffffffffff0\n"
                       "st shared 16 tile 3 40 0x10\nst shared 16 tile 3 41 0x0\n"
                       "ld global 1 \xe8\xa1\x8c 18446744073709551615 4294967295 7\n"
                       "ld global 4 x 1 0 0x7f0000000180\n"
                       "atom global 4 h 1 0 0x40\nred shared 8 r 1 0 0x8\nst local 2 l 1 0 0x2\nld const 4 c 1 0 0x0\n";
    size_t len;
    char *bin = to_binary(text, 32, &len);
    ck_assert_int_eq(memcmp(bin, "COALSIMB\x01\x20", 10), 0);
    FILE *a = str_file(text), *b = fmemopen(bin, len, "r");
    coalsim_reader *ra = coalsim_reader_new(a, "t", 32), *rb = coalsim_reader_new(b, "b", 32);
    coalsim_request qa, qb;
    int n = 0, rc;
    while ((rc = coalsim_reader_next(ra, &qa)) == 1) {
        ck_assert_int_eq(coalsim_reader_next(rb, &qb), 1);
        ck_assert(coalsim_reader_is_binary(rb));
        ck_assert_int_eq(qa.op, qb.op);
        ck_assert_int_eq(qa.space, qb.space);
        ck_assert_uint_eq(qa.size, qb.size);
        ck_assert_str_eq(qa.label, qb.label);
        ck_assert_uint_eq(qa.block, qb.block);
        ck_assert_uint_eq(qa.warp, qb.warp);
        ck_assert_uint_eq(qa.active, qb.active);
        for (int l = 0; l < 32; l++)
            if (qa.active >> l & 1) ck_assert_uint_eq(qa.addr[l], qb.addr[l]);
        ck_assert_uint_eq(qb.line, (unsigned long)++n);    /* binary: request numbers */
    }
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(coalsim_reader_next(rb, &qb), 0);
    ck_assert_uint_eq(coalsim_reader_records(ra), coalsim_reader_records(rb));
    coalsim_reader_free(ra);
    coalsim_reader_free(rb);
    fclose(a);
    fclose(b);
    free(bin);
}
END_TEST

START_TEST(test_binary_coalesced_warp_takes_under_two_bytes_a_lane)
{
    char text[256 * 40];
    size_t n = 0, len;
    for (int w = 0; w < 8; w++)
        for (int l = 0; l < 32; l++)
            n += (size_t)snprintf(text + n, sizeof text - n, "ld global 4 x 0 %d 0x%x\n", w * 32 + l, 0x1000 + 4 * (w * 32 + l));
    char *bin = to_binary(text, 32, &len);
    ck_assert_uint_lt(len, 256 * 2);
    free(bin);
}
END_TEST

static void expect_binary_error(const char *bytes, size_t n, unsigned warp, const char *msg)
{
    FILE *fp = fmemopen((void *)bytes, n, "r");
    coalsim_reader *rd = coalsim_reader_new(fp, "b", warp);
    coalsim_request r;
    int rc;
    while ((rc = coalsim_reader_next(rd, &r)) == 1) {}
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(coalsim_reader_error(rd), msg);
    coalsim_reader_free(rd);
    fclose(fp);
}

START_TEST(test_binary_errors_name_the_byte_offset)
{
    size_t len;
    char *bin = to_binary("ld global 4 x 0 0 0x100\nld global 4 x 0 1 0x104\n", 32, &len);
    /* 12-byte header, 'L' block at 12, 'R' block at 15, 'E' at 27, 29 bytes */
    ck_assert_uint_eq(len, 29);
    expect_binary_error(bin, len - 5, 32, "b: byte 15: binary trace is truncated in a request");
    expect_binary_error(bin, len - 2, 32, "b: byte 27: binary trace is truncated (no end marker)");
    expect_binary_error(bin, len - 1, 32, "b: byte 27: binary trace is truncated in its end marker");
    expect_binary_error(bin, len, 4, "b: byte 0: binary trace was grouped with warp size 32, not 4 (convert it again from text)");
    bin[8] = 2;
    expect_binary_error(bin, len, 32, "b: byte 0: binary trace version 2; this coalsim reads version 1");
    bin[8] = 1;
    bin[12] = 'Q';
    expect_binary_error(bin, len, 32, "b: byte 12: unknown block tag 0x51");
    expect_binary_error("COALSIMB\x01\x20\x00\x00R\x08\x05\x00\x00\x01\x00\x00\x00\x00E\x01", 21, 32,
                        "b: byte 12: request names label 5, not defined");
    expect_binary_error("COALSIMB\x01\x20\x00\x00", 12, 32, "b: byte 12: binary trace is truncated (no end marker)");
    expect_binary_error("COALSIMB\x01\x20\x00\x00" "E\x00" "x", 15, 32, "b: byte 14: data after the end marker");
    expect_binary_error("COALSIMB\x01\x20\x00\x00" "E\x03", 14, 32, "b: byte 12: end marker counts 3 requests, the trace holds 0");
    expect_binary_error("COALSIMB\x01", 9, 32, "b: byte 0: binary trace header is truncated");
    /* regression (found by the fuzzer): a 16-byte request continuing from a
     * 4-byte one of the same label decoded to a misaligned address */
    expect_binary_error("COALSIMB\x01\x20\x00\x00" "L\x01x" "R\x08\x00\x00\x00\x01\x00\x00\x00\x02"
                        "R\x10\x00\x00\x00\x01\x00\x00\x00\x02" "E\x02", 38, 32,
                        "b: byte 25: address 0x14 is not aligned to its 16-byte size");
    free(bin);
}
END_TEST

START_TEST(test_binary_empty_trace_has_no_requests)
{
    FILE *fp = fmemopen("COALSIMB\x01\x20\x00\x00" "E\x00", 14, "r");
    coalsim_reader *rd = coalsim_reader_new(fp, "b", 32);
    coalsim_request r;
    ck_assert_int_eq(coalsim_reader_next(rd, &r), 0);
    coalsim_reader_free(rd);
    fclose(fp);
}
END_TEST


/* Random binary traces, whole and damaged (cut short, a byte changed):
 * the reader gives what the old reader gave, request by request, and the
 * same error at the same byte. */
START_TEST(test_binary_reader_fast_path_reads_what_the_old_one_read)
{
    uint64_t x = 0x8c2a7f1e5d3b9a61ull;
#define NEXT (x ^= x << 13, x ^= x >> 7, x ^= x << 17)
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    static const char *const labels[] = {"a", "b", "c"};
    for (int t = 0; t < 300; t++) {
        char *bin = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&bin, &len);
        coalsim_bwriter *w = coalsim_bwriter_new(out, 32);
        for (int i = 0; i < 40; i++) {
            NEXT;
            coalsim_request r = {.op = (coalsim_op)(x % 4), .space = (coalsim_space)(x >> 2 & 3),
                                 .size = sizes[(x >> 4) % 5], .block = (x >> 8) % 4, .warp = (x >> 10) % 3,
                                 .label = labels[(x >> 12) % 3]};
            r.active = (x >> 14) % 2 ? 0xffffffffu : (uint32_t)(x >> 20) | 1;
            uint64_t base = (x >> 40) % 3 == 0 ? 0 - 64 * (uint64_t)r.size : (x >> 40) % 3 == 1 ? 0xffffff00ull : 0x1000;
            for (int l = 0; l < 32; l++) {
                NEXT;
                r.addr[l] = (base + (t % 2 ? (uint64_t)l : x % 1000000) * r.size) / r.size * r.size;
                if (r.addr[l] > UINT64_MAX - (r.size - 1)) r.addr[l] = 0;
                if (r.space == COALSIM_SHARED && r.addr[l] > 0xffffffffull - (r.size - 1)) r.addr[l] = 0;
            }
            ck_assert_int_eq(coalsim_bwriter_put(w, &r), 0);
        }
        ck_assert_int_eq(coalsim_bwriter_finish(w), 0);
        coalsim_bwriter_free(w);
        fclose(out);
        for (int damage = 0; damage < 8; damage++) {
            size_t n = len;
            if (damage) {
                NEXT;
                if (damage % 2) n = 12 + x % (len - 12);
                else bin[12 + x % (len - 12)] ^= (char)(1 + (x >> 20) % 255);
            }
            FILE *fa = fmemopen(bin, n, "r"), *fb = fmemopen(bin, n, "r");
            coalsim_reader *a = coalsim_reader_new(fa, "b", 32);
            trace_oracle *b = trace_oracle_new(fb, "b", 32);
            coalsim_request qa, qb;
            int ra, rb;
            do {
                ra = coalsim_reader_next(a, &qa);
                rb = trace_oracle_next(b, &qb);
                ck_assert_int_eq(ra, rb);
                if (ra != 1) break;
                ck_assert(qa.op == qb.op && qa.space == qb.space && qa.size == qb.size && qa.block == qb.block &&
                          qa.warp == qb.warp && qa.active == qb.active && qa.line == qb.line);
                ck_assert_str_eq(qa.label, qb.label);
                for (int l = 0; l < 32; l++)
                    if (qa.active >> l & 1) ck_assert_uint_eq(qa.addr[l], qb.addr[l]);
            } while (1);
            if (ra < 0) ck_assert_str_eq(coalsim_reader_error(a), trace_oracle_error(b));
            coalsim_reader_free(a);
            trace_oracle_free(b);
            fclose(fa);
            fclose(fb);
        }
        free(bin);
    }
#undef NEXT
}
END_TEST

Suite *make_binary_suite(void)
{
    Suite *s = suite_create("binary");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_binary_round_trip_gives_the_same_requests);
    tcase_add_test(c, test_binary_coalesced_warp_takes_under_two_bytes_a_lane);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_binary_errors_name_the_byte_offset);
    tcase_add_test(l, test_binary_empty_trace_has_no_requests);
    tcase_set_timeout(l, 60);
    tcase_add_test(l, test_binary_reader_fast_path_reads_what_the_old_one_read);
    suite_add_tcase(s, l);
    return s;
}
