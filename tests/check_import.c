/* Other tools' traces (NVBit's mem_trace, Accel-Sim's tracer), told apart
 * from coalsim's own by their first bytes, and trace files (plain, gzip). */
#include <stdlib.h>
#include <unistd.h>

#include "helpers.h"

/* The requests of TEXT read as a trace named t.txt; *rc the reader's last
 * status (0 at the end, -1 on an error: *err its message). */
static size_t read_all(const char *text, unsigned warp, coalsim_request *out, size_t max, int *rc, char *err)
{
    FILE *fp = str_file(text);
    coalsim_reader *rd = coalsim_reader_new(fp, "t.txt", warp);
    ck_assert_ptr_nonnull(rd);
    size_t n = 0;
    coalsim_request r;
    while ((*rc = coalsim_reader_next(rd, &r)) == 1) {
        ck_assert_uint_lt(n, max);
        out[n] = r;
        out[n].label = NULL;          /* labels live only until the next call */
        n++;
    }
    snprintf(err, 512, "%s", coalsim_reader_error(rd));
    coalsim_reader_free(rd);
    fclose(fp);
    return n;
}

/* 32 addresses: lane l at BASE + STEP * l, lanes in ZERO (a mask) at 0x0. */
static void addrs(char *buf, size_t cap, uint64_t base, uint64_t step, uint32_t zero)
{
    size_t k = 0;
    for (unsigned l = 0; l < 32; l++)
        k += (size_t)snprintf(buf + k, cap - k, "0x%016llx ",
                              (unsigned long long)(zero >> l & 1 ? 0 : base + step * l));
}

#define NVLINE(buf, cta, warp, opc, a) \
    snprintf(buf, sizeof buf, "MEMTRACE: CTX 0x00005581a3c2e9f0 - grid_launch_id 0 - CTA %s - warp %d - %s - %s\n", \
             cta, warp, opc, a)

START_TEST(test_nvbit_record_is_one_request_and_zero_addresses_are_inactive_lanes)
{
    char a[1024], text[1200], err[512];
    addrs(a, sizeof a, 0x7f0000000000, 4, 0xff000000u);
    NVLINE(text, "0,0,0", 3, "STG.E", a);
    coalsim_request q[4];
    int rc;
    ck_assert_uint_eq(read_all(text, 32, q, 4, &rc, err), 1);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(q[0].op, COALSIM_ST);
    ck_assert_int_eq(q[0].space, COALSIM_GLOBAL);
    ck_assert_uint_eq(q[0].size, 4);
    ck_assert_uint_eq(q[0].active, 0x00ffffffu);
    ck_assert_uint_eq(q[0].warp, 3);
    ck_assert_uint_eq(q[0].addr[23], 0x7f0000000000 + 4 * 23);
    ck_assert_uint_eq(q[0].line, 1);
}
END_TEST

START_TEST(test_nvbit_cta_is_its_linear_index_in_the_launch_grid)
{
    char a[1024], rec[1200], text[4000], err[512];
    addrs(a, sizeof a, 0x7f0000000000, 4, 0);
    NVLINE(rec, "2,1,1", 0, "LDG.E", a);
    snprintf(text, sizeof text,
             "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x2 - Kernel name k(int) - grid launch id 0 - grid size 3,2,2 - "
             "block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0\nsome output of the program\n%s", rec);
    coalsim_request q[4];
    int rc;
    ck_assert_uint_eq(read_all(text, 32, q, 4, &rc, err), 1);
    ck_assert_uint_eq(q[0].block, 2 + 3 * (1 + 2 * 1));
    ck_assert_uint_eq(q[0].line, 3);
}
END_TEST

START_TEST(test_nvbit_ctas_without_a_grid_are_numbered_in_order_of_first_appearance)
{
    char a[1024], r1[1200], r2[1200], r3[1200], text[4000], err[512];
    addrs(a, sizeof a, 0x7f0000000000, 4, 0);
    NVLINE(r1, "7,5,0", 0, "LDG.E", a);
    NVLINE(r2, "0,0,0", 0, "LDG.E", a);
    NVLINE(r3, "7,5,0", 1, "LDG.E", a);
    snprintf(text, sizeof text, "%s%s%s", r1, r2, r3);
    coalsim_request q[4];
    int rc;
    ck_assert_uint_eq(read_all(text, 32, q, 4, &rc, err), 3);
    ck_assert_uint_eq(q[0].block, 0);
    ck_assert_uint_eq(q[1].block, 1);
    ck_assert_uint_eq(q[2].block, 0);
}
END_TEST

START_TEST(test_nvbit_widths_spaces_and_strong_loads_come_from_the_opcode)
{
    static const struct {
        const char *opc;
        coalsim_op op;
        coalsim_space space;
        unsigned size;
        int l2_only;
    } cases[] = {
        {"LDG.E.64.SYS", COALSIM_LD, COALSIM_GLOBAL, 8, 0},  {"LDG.E.U8", COALSIM_LD, COALSIM_GLOBAL, 1, 0},
        {"LDG.E.STRONG.GPU", COALSIM_LD, COALSIM_GLOBAL, 4, 1}, {"LDG.E.64.STRONG.SYS", COALSIM_LD, COALSIM_GLOBAL, 8, 1},
        {"LDG.E.STRONG.SM", COALSIM_LD, COALSIM_GLOBAL, 4, 0}, {"LD.E.MMIO.SYS", COALSIM_LD, COALSIM_GLOBAL, 4, 1},
        {"STG.E.S16", COALSIM_ST, COALSIM_GLOBAL, 2, 0},     {"LDS.U.128", COALSIM_LD, COALSIM_SHARED, 16, 0},
        {"STS", COALSIM_ST, COALSIM_SHARED, 4, 0},           {"ATOMS.ADD", COALSIM_ATOM, COALSIM_SHARED, 4, 0},
        {"ATOMG.E.ADD.STRONG.GPU", COALSIM_ATOM, COALSIM_GLOBAL, 4, 0}, {"RED.E.ADD.F64.RN", COALSIM_RED, COALSIM_GLOBAL, 8, 0},
        {"LD.E.128", COALSIM_LD, COALSIM_GLOBAL, 16, 0},     {"ST.E", COALSIM_ST, COALSIM_GLOBAL, 4, 0},
        {"LDL.64", COALSIM_LD, COALSIM_LOCAL, 8, 0},         {"STL", COALSIM_ST, COALSIM_LOCAL, 4, 0},
        {"LDSM.16.M88.4", COALSIM_LD, COALSIM_SHARED, 16, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char a[1024], text[1200], err[512];
        addrs(a, sizeof a, 0x10000, 16, 0);
        NVLINE(text, "0,0,0", 0, cases[i].opc, a);
        coalsim_request q[1];
        int rc;
        ck_assert_uint_eq(read_all(text, 32, q, 1, &rc, err), 1);
        ck_assert_int_eq(q[0].op, cases[i].op);
        ck_assert_int_eq(q[0].space, cases[i].space);
        ck_assert_uint_eq(q[0].size, cases[i].size);
        ck_assert_uint_eq(q[0].l2_only, cases[i].l2_only);
    }
}
END_TEST

START_TEST(test_nvbit_ldsm_x1_takes_the_rows_of_lanes_0_to_7)
{
    char a[1024], text[1200], err[512];
    addrs(a, sizeof a, 0x100, 16, 0);
    NVLINE(text, "0,0,0", 0, "LDSM.16.MT88.1", a);
    coalsim_request q[1];
    int rc;
    ck_assert_uint_eq(read_all(text, 32, q, 1, &rc, err), 1);
    ck_assert_uint_eq(q[0].active, 0xffu);
}
END_TEST

START_TEST(test_nvbit_old_format_banner_and_unmodelled_opcodes)
{
    char a[1024], text[4000], err[512];
    addrs(a, sizeof a, 0x7f0000000000, 4, 0);
    snprintf(text, sizeof text,
             "------------- NVBit (NVidia Binary Instrumentation Tool v1.3) Loaded --------------\n"
             "Kernel k - grid size 2,1,1 - block size 64,1,1 - nregs 8 - shmem 0 - cuda stream id 0\n"
             "CTA 1,0,0 - warp 1 - LDGSTS.E.BYPASS.128 - %s\n"
             "CTA 1,0,0 - warp 1 - LDG.E - %s\n",
             a, a);
    coalsim_request q[4];
    int rc;
    ck_assert_uint_eq(read_all(text, 32, q, 4, &rc, err), 1);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(q[0].block, 1);
    ck_assert_uint_eq(q[0].line, 4);
}
END_TEST

#define AS_HEADER "-kernel name = _Z1kPf\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-accelsim tracer version = 3\n\n"

START_TEST(test_accelsim_base_stride_puts_active_lane_k_at_base_plus_k_strides)
{
    const char *text = AS_HEADER "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 2\n"
                                 "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 \n"
                                 "01f0 0000fff0 1 R2 LDG.E.64 1 R4 8 1 0x7f0000000100 -8 \n#END_TB\n";
    coalsim_request q[2];
    int rc;
    char err[512];
    ck_assert_uint_eq(read_all(text, 32, q, 2, &rc, err), 1);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(q[0].active, 0x0000fff0u);
    ck_assert_uint_eq(q[0].addr[4], 0x7f0000000100);
    ck_assert_uint_eq(q[0].addr[15], 0x7f0000000100 - 8 * 11);
    ck_assert_uint_eq(q[0].block, 1);
    ck_assert_uint_eq(q[0].warp, 1);
    ck_assert_uint_eq(q[0].size, 8);
}
END_TEST

START_TEST(test_accelsim_base_deltas_and_list_modes)
{
    const char *text = AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                                 "0010 00000007 1 R2 LDS 1 R4 4 2 0x100 8 -20 \n"
                                 "0020 80000001 0 STS 2 R4 R2 4 0 0x40 0x80 \n#END_TB\n";
    coalsim_request q[2];
    int rc;
    char err[512];
    ck_assert_uint_eq(read_all(text, 32, q, 2, &rc, err), 2);
    ck_assert_uint_eq(q[0].addr[0], 0x100);
    ck_assert_uint_eq(q[0].addr[1], 0x108);
    ck_assert_uint_eq(q[0].addr[2], 0x108 - 20);
    ck_assert_int_eq(q[0].space, COALSIM_SHARED);
    ck_assert_uint_eq(q[1].active, 0x80000001u);
    ck_assert_uint_eq(q[1].addr[0], 0x40);
    ck_assert_uint_eq(q[1].addr[31], 0x80);
}
END_TEST

START_TEST(test_accelsim_label_is_opcode_at_pc)
{
    const char *text = AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                 "01f0 ffffffff 1 R2 LDG.E.64 1 R4 8 1 0x7f0000000000 8 \n#END_TB\n";
    FILE *fp = str_file(text);
    coalsim_reader *rd = coalsim_reader_new(fp, "t.traceg", 32);
    coalsim_request r;
    ck_assert_int_eq(coalsim_reader_next(rd, &r), 1);
    ck_assert_str_eq(r.label, "LDG.E.64@0x1f0");
    ck_assert_int_eq(coalsim_reader_next(rd, &r), 0);
    coalsim_reader_free(rd);
    fclose(fp);
}
END_TEST

START_TEST(test_accelsim_signed_16_bit_loads_are_2_bytes_whatever_mem_width_says)
{
    /* the tracer writes mem_width 4 for .S16; the addresses are 2-byte aligned */
    const char *text = AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                 "0010 00000003 1 R2 LDG.E.S16 1 R4 4 1 0x7f0000000002 2 \n#END_TB\n";
    coalsim_request q[1];
    int rc;
    char err[512];
    ck_assert_uint_eq(read_all(text, 32, q, 1, &rc, err), 1);
    ck_assert_uint_eq(q[0].size, 2);
}
END_TEST

START_TEST(test_accelsim_version_5_line_numbers_and_immediates)
{
    const char *text = "-kernel name = k\n-grid dim = (1,1,1)\n-accelsim tracer version = 5\n-enable lineinfo = 1\n"
                       "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                       "7 0000 ffffffff 1 R1 IADD3 2 R2 R3 0 -1 \n"
                       "8 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0 \n#END_TB\n";
    coalsim_request q[2];
    int rc;
    char err[512];
    ck_assert_uint_eq(read_all(text, 32, q, 2, &rc, err), 1);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(q[0].addr[31], 0x7f0000000000 + 31 * 4);
    ck_assert_uint_eq(q[0].line, 10);
}
END_TEST

START_TEST(test_sniff_tells_every_kind_apart)
{
    ck_assert_int_eq(coalsim_trace_sniff("ld global 4 x 0 0 0x0\n", 22), COALSIM_TRACE_TEXT);
    ck_assert_int_eq(coalsim_trace_sniff("COALSIMB\1\40\0\0", 12), COALSIM_TRACE_BINARY);
    ck_assert_int_eq(coalsim_trace_sniff("\x1f\x8b\x08", 3), COALSIM_TRACE_GZIP);
    ck_assert_int_eq(coalsim_trace_sniff("MEMTRACE: CTX 0x1 - LAUNCH - x\n", 31), COALSIM_TRACE_NVBIT);
    ck_assert_int_eq(coalsim_trace_sniff("hello\nCTA 0,0,0 - warp 1 - LDG.E - 0x1\n", 39), COALSIM_TRACE_NVBIT);
    ck_assert_int_eq(coalsim_trace_sniff("\n-kernel name = k\n", 18), COALSIM_TRACE_ACCELSIM);
    ck_assert_int_eq(coalsim_trace_sniff("# ld global 4 x 0 0 0\n-kernel name = k\n", 39), COALSIM_TRACE_TEXT);
    ck_assert_int_eq(coalsim_trace_sniff("# made from NVBit (NVidia Binary Instrumentation Tool) - CTA 1,0,0\n", 67),
                     COALSIM_TRACE_TEXT);
    ck_assert_int_eq(coalsim_trace_sniff("", 0), COALSIM_TRACE_TEXT);
}
END_TEST

START_TEST(test_import_errors_name_the_line)
{
    static const struct {
        const char *text, *err;
    } cases[] = {
        {AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n",
         "t.txt:11: warp 0 of thread block (0,0,0) has 1 instruction lines, its 'insts = 2' says otherwise"},
        {AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n",
         "t.txt:10: the trace ends inside thread block (0,0,0): no #END_TB"},
        {AS_HEADER "#BEGIN_TB\nthread block = 2,0,0\n", "t.txt:7: thread block (2,0,0) is outside the grid (2,1,1)"},
        {AS_HEADER "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 STG.E 2 R4 R2 4 1 0x7f0000000000\n",
         "t.txt:10: mask ffffffff has 32 active lanes: expected 2 address fields after the mode, found 1"},
        {"CTA 0,0,0 - warp 0 - LDG.E - 0x0\n", "t.txt:1: expected 32 addresses after the opcode, found 1"},
        {"CTA 0,0,0 - warp x - LDG.E - 0x0\n", "t.txt:1: expected 'warp N' after the CTA, found 'warp x'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coalsim_request q[4];
        int rc;
        char err[512];
        read_all(cases[i].text, 32, q, 4, &rc, err);
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(err, cases[i].err);
    }
}
END_TEST

START_TEST(test_import_with_another_warp_size_is_an_error)
{
    coalsim_request q[1];
    int rc;
    char err[512];
    read_all("CTA 0,0,0 - warp 0 - LDG.E - 0x0\n", 4, q, 1, &rc, err);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(err, "t.txt:1: NVBit mem_trace output has 32-lane warps, not 4 (leave out --warp-size)");
}
END_TEST

/* gzip of "ld global 4 x 0 0 0x100\nld global 4 x 0 1 0x104\n" */
static const unsigned char gz[] = {
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x49, 0x51, 0x48, 0xcf, 0xc9, 0x4f,
    0x4a, 0xcc, 0x51, 0x30, 0x51, 0xa8, 0x50, 0x30, 0x00, 0xc1, 0x0a, 0x43, 0x03, 0x03, 0xae, 0x1c, 0x34,
    0x71, 0x43, 0xb0, 0xb8, 0x09, 0x17, 0x00, 0x39, 0x88, 0xda, 0x23, 0x30, 0x00, 0x00, 0x00};

/* Read BYTES[0..n) through a pipe as a coalsim_file: the requests' count,
 * -1 with the reader's message in err, or -2 if this build has no zlib. */
static int read_pipe(const unsigned char *bytes, size_t n, char *err)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    ck_assert_int_eq(write(fd[1], bytes, n), (long)n);
    close(fd[1]);
    coalsim_file *f = coalsim_file_fdopen(fd[0], "p.gz", err, 512);
    if (!f) {
        ck_assert_ptr_nonnull(strstr(err, "without zlib"));
        return -2;
    }
    coalsim_reader *rd = coalsim_reader_new_fn(coalsim_file_read, f, "p.gz", 32);
    coalsim_request r;
    int rc, count = 0;
    while ((rc = coalsim_reader_next(rd, &r)) == 1) count++;
    snprintf(err, 512, "%s", coalsim_reader_error(rd));
    coalsim_reader_free(rd);
    coalsim_file_close(f);
    return rc < 0 ? -1 : count;
}

START_TEST(test_file_gzip_members_one_after_another_are_one_stream)
{
    unsigned char two[2 * sizeof gz];
    memcpy(two, gz, sizeof gz);
    memcpy(two + sizeof gz, gz, sizeof gz);
    char err[512];
    int n = read_pipe(two, sizeof two, err);
    if (n == -2) return;
    ck_assert_int_eq(n, 2);   /* lanes 0 and 1, then lanes 0 and 1 again: two requests */
}
END_TEST

START_TEST(test_file_gzip_data_after_the_last_member_is_an_error)
{
    unsigned char bytes[sizeof gz + 3];
    memcpy(bytes, gz, sizeof gz);
    memcpy(bytes + sizeof gz, "xyz", 3);
    char err[512];
    int n = read_pipe(bytes, sizeof bytes, err);
    if (n == -2) return;
    ck_assert_int_eq(n, -1);
    ck_assert_str_eq(err, "p.gz:3: read error: data after the end of the gzip stream (trailing garbage)");
}
END_TEST

START_TEST(test_file_gzip_cut_short_is_an_error)
{
    char err[512];
    int n = read_pipe(gz, sizeof gz - 6, err);
    if (n == -2) return;
    ck_assert_int_eq(n, -1);
    ck_assert_ptr_nonnull(strstr(err, "gzip stream is truncated"));
}
END_TEST

START_TEST(test_file_plain_bytes_pass_through)
{
    const char *text = "ld global 4 x 0 0 0x100\n";
    char err[512];
    ck_assert_int_eq(read_pipe((const unsigned char *)text, strlen(text), err), 1);
}
END_TEST

Suite *make_import_suite(void)
{
    Suite *s = suite_create("import");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_nvbit_record_is_one_request_and_zero_addresses_are_inactive_lanes);
    tcase_add_test(c, test_nvbit_cta_is_its_linear_index_in_the_launch_grid);
    tcase_add_test(c, test_nvbit_ctas_without_a_grid_are_numbered_in_order_of_first_appearance);
    tcase_add_test(c, test_nvbit_widths_spaces_and_strong_loads_come_from_the_opcode);
    tcase_add_test(c, test_nvbit_ldsm_x1_takes_the_rows_of_lanes_0_to_7);
    tcase_add_test(c, test_nvbit_old_format_banner_and_unmodelled_opcodes);
    tcase_add_test(c, test_accelsim_base_stride_puts_active_lane_k_at_base_plus_k_strides);
    tcase_add_test(c, test_accelsim_base_deltas_and_list_modes);
    tcase_add_test(c, test_accelsim_label_is_opcode_at_pc);
    tcase_add_test(c, test_accelsim_signed_16_bit_loads_are_2_bytes_whatever_mem_width_says);
    tcase_add_test(c, test_accelsim_version_5_line_numbers_and_immediates);
    tcase_add_test(c, test_sniff_tells_every_kind_apart);
    tcase_add_test(c, test_file_gzip_members_one_after_another_are_one_stream);
    tcase_add_test(c, test_file_plain_bytes_pass_through);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_import_errors_name_the_line);
    tcase_add_test(l, test_import_with_another_warp_size_is_an_error);
    tcase_add_test(l, test_file_gzip_data_after_the_last_member_is_an_error);
    tcase_add_test(l, test_file_gzip_cut_short_is_an_error);
    suite_add_tcase(s, l);
    return s;
}
