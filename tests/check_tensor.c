/* Tensor-core and async-copy kernels on the PTX interpreter
 * (tests/kernels/tensor.cu, compiled to tensor.ptx): their results equal a C
 * reference, their counts are the ones the H100 gave for the same launches
 * (gpu/results/h100/tensor/counters.txt), and wrong use fails as on a GPU. */
#include <math.h>
#include <stdlib.h>

#include "frontend/kernel/kmem.h"
#include "frontend/mma.h"
#include "helpers.h"

#define TENSOR_PTX "tests/kernels/tensor.ptx"

static coalsim_kernel *load_tensor(void) { return load_ptx_file(TENSOR_PTX); }

/* Run KERNEL; 0 or -1 with ERR; *AN (if given) keeps the analysis. */
static int run(coalsim_kernel *k, const char *kernel, unsigned gx, unsigned gy, unsigned bx, const char *args, char *err,
               coalsim_analysis **an)
{
    return kernel_launch(k, kernel, (coalsim_launch){.grid = {gx, gy, 1}, .block = {bx, 1, 1}, .args = args}, err, an);
}

/* C = A B for A row-major M x K and B column-major (N x K), halves in, floats out. */
static void check_gemm(coalsim_kernel *k, unsigned M, unsigned N, unsigned K)
{
    uint16_t *A = malloc((size_t)M * K * 2), *B = malloc((size_t)N * K * 2);
    float *C = malloc((size_t)M * N * 4);
    ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, A, (size_t)M * K * 2), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, B, (size_t)N * K * 2), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, C, (size_t)M * N * 4), 0);
    double worst = 0;
    for (unsigned m = 0; m < M; m++)
        for (unsigned n = 0; n < N; n++) {
            double r = 0;
            for (unsigned kk = 0; kk < K; kk++) r += (double)half_value(A[m * K + kk]) * half_value(B[n * K + kk]);
            if (fabs(r - C[m * N + n]) > worst) worst = fabs(r - C[m * N + n]);
        }
    ck_assert_msg(worst < 1e-3, "largest error %g", worst);
    free(A), free(B), free(C);
}

START_TEST(test_tensor_ldmatrix_mma_gemms_compute_the_product_with_the_h100s_counts)
{
    /* the H100's counters for these launches: gpu/results/h100/tensor/counters.txt */
    static const struct {
        const char *kernel;
        uint64_t sectors, wavefronts, hmma, ldsm;
    } cases[] = {
        {"mma_ldmatrix<0, 0>", 4096, 8192, 1024, 512},   /* 4-way: 16 wavefronts an LDSM.x4 */
        {"mma_ldmatrix<8, 0>", 5120, 2048, 1024, 512},   /* padded: more sectors for cp.async.cg */
        {"mma_ldmatrix<0, 1>", 4096, 2048, 1024, 512},   /* swizzled */
    };
    for (unsigned i = 0; i < 3; i++) {
        coalsim_kernel *k = load_tensor();
        char err[1024];
        coalsim_analysis *an;
        ck_assert_msg(run(k, cases[i].kernel, 2, 2, 128, "A:32K=randomh:1,B:32K=randomh:2,C:64K,128,128,128", err, &an) == 0,
                      "%s", err);
        check_gemm(k, 128, 128, 128);
        ck_assert_uint_eq(kernel_metric(an, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), cases[i].sectors);
        ck_assert_uint_eq(kernel_metric(an, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), cases[i].wavefronts);
        ck_assert_uint_eq(kernel_metric(an, "sm__inst_executed_pipe_tensor_op_hmma.sum"), cases[i].hmma);
        ck_assert_uint_eq(kernel_metric(an, "smsp__inst_executed_op_ldsm.sum"), cases[i].ldsm);
        ck_assert_uint_eq(kernel_metric(an, "smsp__inst_executed_op_ldgsts.sum"), 256);
        coalsim_analysis_free(an);
        coalsim_kernel_free(k);
    }
}
END_TEST

START_TEST(test_tensor_wmma_gemm_computes_the_product_with_two_hmma_an_mma)
{
    coalsim_kernel *k = load_tensor();
    char err[1024];
    coalsim_analysis *an;
    ck_assert_msg(run(k, "wmma_gemm", 8, 8, 32, "A:32K=randomh:1,B:32K=randomh:2,C:64K,128,128,128", err, &an) == 0, "%s", err);
    check_gemm(k, 128, 128, 128);
    ck_assert_uint_eq(kernel_metric(an, "sm__inst_executed_pipe_tensor_op_hmma.sum"), 1024);
    ck_assert_uint_eq(kernel_metric(an, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 4096);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_tensor_ldmatrix_trans_and_zero_fill_give_what_the_gpu_gives)
{
    coalsim_kernel *k = load_tensor();
    char err[1024];
    ck_assert_msg(run(k, "ldmatrix_trans_copy", 1, 1, 32, "in:512=randomh:3,out:512", err, NULL) == 0, "%s", err);
    uint16_t in[256], out[256];
    ck_assert_int_eq(coalsim_kernel_read(k, "in", 0, in, sizeof in), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 4; i++)
            for (unsigned h = 0; h < 2; h++)
                ck_assert_uint_eq(out[l * 8 + i * 2 + h], in[(8 * (i & 1) + 2 * (l & 3) + h) * 16 + 8 * (i >> 1) + (l >> 2)]);
    coalsim_kernel_free(k);
    k = load_tensor();
    ck_assert_msg(run(k, "cp_async_zfill", 1, 1, 128, "in:512=iotaf,out:512,100", err, NULL) == 0, "%s", err);
    float o[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, o, sizeof o), 0);
    for (unsigned i = 0; i < 128; i++) ck_assert_float_eq(o[i], i < 100 ? (float)i : 0.0f);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_tensor_integer_double_and_tf32_mma_results)
{
    coalsim_kernel *k = load_tensor();
    char err[1024];
    ck_assert_msg(run(k, "mma_s8", 1, 1, 32, "A:512=randint:7:4294967295,B:256=randint:8:4294967295,C:512", err, NULL) == 0, "%s", err);
    int8_t A[16 * 32], B[8 * 32];
    int32_t C[16 * 8];
    ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, A, sizeof A), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, B, sizeof B), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, C, sizeof C), 0);
    for (unsigned m = 0; m < 16; m++)
        for (unsigned n = 0; n < 8; n++) {
            int32_t r = 0;
            for (unsigned kk = 0; kk < 32; kk++) r += A[m * 32 + kk] * B[n * 32 + kk];
            ck_assert_int_eq(C[m * 8 + n], r);
        }
    coalsim_kernel_free(k);
    k = load_tensor();
    ck_assert_msg(run(k, "mma_f64", 1, 1, 32, "A:256=randomd:9,B:256=randomd:10,C:512", err, NULL) == 0, "%s", err);
    double a[32], b[32], c[64];
    ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, a, sizeof a), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, b, sizeof b), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, c, sizeof c), 0);
    for (unsigned m = 0; m < 8; m++)
        for (unsigned n = 0; n < 8; n++) {
            double r = 0;
            for (unsigned kk = 0; kk < 4; kk++) r += a[m * 4 + kk] * b[n * 4 + kk];
            ck_assert_double_eq_tol(c[m * 8 + n], r, 1e-12);
        }
    coalsim_kernel_free(k);
}
END_TEST

/* PTX by hand: one instruction under test after its inputs. */
static int run_ptx(const char *body, const char *args, char *err)
{
    char text[4096];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<4>;\n\t.shared .align 16 .b8 s[4096];\n"
             "\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%tid.x;\n%s\tret;\n}\n",
             body);
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, strlen(text), "t.ptx", err, 1024);
    if (!k) return -2;
    int rc = run(k, "k", 1, 1, 32, args, err, NULL);
    coalsim_kernel_free(k);
    return rc;
}

/* What nvcc 13 writes in public HGEMM and FlashAttention kernels (cuda_hgemm,
 * LeetCUDA): modifiers qualified with '::' (cp.async's .L2::128B) and a
 * predicate set from an immediate (mov.pred %p, 0 or -1) */
START_TEST(test_tensor_qualified_modifiers_and_predicate_immediates_run)
{
    char text[4096], err[1024];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<4>;\n\t.shared .align 16 .b8 s[4096];\n"
             "\tld.param.u64 %%rd1, [p];\n\tmov.u32 %%r1, %%tid.x;\n"
             "\tshl.b32 %%r4, %%r1, 4;\n\tmov.u32 %%r3, s;\n\tadd.u32 %%r3, %%r3, %%r4;\n"
             "\tcvt.u64.u32 %%rd2, %%r4;\n\tadd.u64 %%rd3, %%rd1, %%rd2;\n"
             "\tcp.async.cg.shared.global.L2::128B [%%r3], [%%rd3], 16;\n"
             "\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n"
             "\tld.shared.u32 %%r5, [%%r3];\n"
             "\tmov.pred %%p1, -1;\n\t@%%p1 add.u32 %%r5, %%r5, 1;\n"
             "\tmov.pred %%p1, 0;\n\t@%%p1 add.u32 %%r5, %%r5, 100;\n"
             "\tst.global.u32 [%%rd3+8], %%r5;\n\tret;\n}\n");
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, strlen(text), "t.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    ck_assert_msg(run(k, "k", 1, 1, 32, "p:512=iota", err, NULL) == 0, "%s", err);
    uint32_t w[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "p", 0, w, sizeof w), 0);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(w[4 * l], 4 * l);
        ck_assert_uint_eq(w[4 * l + 2], 4 * l + 1);   /* copied, +1 under true, +100 not under false */
    }
    coalsim_kernel_free(k);
}
END_TEST

/* An f16 accumulator takes the exact sum rounded once: 1 + 2^-11 + 2^-30 is
 * just above the tie between 1 and 1 + 2^-10, so it is 1 + 2^-10 (0x3c01);
 * rounded to float first it lands on the tie and goes to even (0x3c00).
 * The public HGEMMs (f16 accumulators, K 256) matched the H100 in all but 1
 * of 262144 elements so, 105 apart when rounded twice. */
START_TEST(test_tensor_f16_accumulator_rounds_the_exact_sum_once)
{
    uint32_t a[4][32] = {{0}}, b[2][32] = {{0}}, c[2][32] = {{0}}, d[2][32];
    a[0][0] = 0x3c00u | 0x1000u << 16;   /* A[0][0] = 1, A[0][1] = 2^-11 */
    a[0][1] = 0x0200u;                   /* A[0][2] = 2^-15 */
    b[0][0] = 0x3c00u | 0x3c00u << 16;   /* B[0][0] = B[1][0] = 1 */
    b[0][1] = 0x0200u;                   /* B[2][0] = 2^-15 */
    mma_run(MMA_16816, MMA_F16, MMA_ACC_F16, 0, (const uint32_t (*)[32])a, (const uint32_t (*)[32])b,
            (const uint32_t (*)[32])c, d);
    ck_assert_uint_eq(d[0][0] & 0xffff, 0x3c01);
    ck_assert_uint_eq(d[0][0] >> 16, 0);
}
END_TEST

START_TEST(test_tensor_misaligned_and_malformed_matrix_instructions_fail_with_their_line)
{
    char err[1024];
    /* a row address 8 bytes off a 16-byte row: the GPU's misaligned address */
    ck_assert_int_eq(run_ptx("\tshl.b32 %r2, %r1, 4;\n\tadd.u32 %r2, %r2, 8;\n\tmov.u32 %r3, s;\n\tadd.u32 %r2, %r2, %r3;\n"
                             "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r4, %r5, %r6, %r7}, [%r2];\n",
                             "p:64", err), -1);
    ck_assert_msg(strstr(err, "t.ptx:") && strstr(err, "misaligned"), "%s", err);
    /* a cp.async of 2 bytes does not exist */
    ck_assert_int_ne(run_ptx("\tmov.u32 %r3, s;\n\tcp.async.ca.shared.global [%r3], [%rd1], 2;\n", "p:64", err), 0);
    ck_assert_msg(strstr(err, "t.ptx:") && strstr(err, "4, 8 or 16 bytes"), "%s", err);
    /* ldmatrix with lanes off: a .sync.aligned instruction needs the whole warp */
    ck_assert_int_eq(run_ptx("\tmov.u32 %r3, s;\n\tsetp.lt.u32 %p1, %r1, 16;\n"
                             "\t@%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r4}, [%r3];\n",
                             "p:64", err), -1);
    ck_assert_msg(strstr(err, "needs all 32"), "%s", err);
    /* an mma shape the PTX ISA does not have for a type: an error where it runs */
    ck_assert_int_eq(run_ptx("\tmma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
                             "{%r9, %r10}, {%r1, %r2, %r3, %r4};\n",
                             "p:64", err), -1);
    ck_assert_msg(strstr(err, "t.ptx:") && strstr(err, "not supported"), "%s", err);
}
END_TEST

Suite *make_tensor_suite(void)
{
    Suite *s = suite_create("tensor");
    TCase *c = tcase_create("Core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, test_tensor_ldmatrix_mma_gemms_compute_the_product_with_the_h100s_counts);
    tcase_add_test(c, test_tensor_wmma_gemm_computes_the_product_with_two_hmma_an_mma);
    tcase_add_test(c, test_tensor_ldmatrix_trans_and_zero_fill_give_what_the_gpu_gives);
    tcase_add_test(c, test_tensor_integer_double_and_tf32_mma_results);
    tcase_add_test(c, test_tensor_qualified_modifiers_and_predicate_immediates_run);
    tcase_add_test(c, test_tensor_f16_accumulator_rounds_the_exact_sum_once);
    suite_add_tcase(s, c);
    TCase *lim = tcase_create("Limits");
    tcase_add_test(lim, test_tensor_misaligned_and_malformed_matrix_instructions_fail_with_their_line);
    suite_add_tcase(s, lim);
    return s;
}
