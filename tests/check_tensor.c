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

/* ---- the WMMA API's fragments, measured on the H100 ----
 * tests/kernels/wmma.cu ran on the GPU (gpu/run_wmma.sh): layout.txt has what
 * each load kernel's fragment holds and where each store kernel puts each
 * element, counters.txt ncu's counts for every kernel. */
#define WMMA_PTX "tests/kernels/wmma.ptx"
#define WMMA_LAYOUT "gpu/results/h100/wmma/layout.txt"
#define WMMA_COUNTERS "gpu/results/h100/wmma/counters.txt"
#define WMMA_SASS "gpu/results/h100/wmma/wmma.sass"

/* The counts compared: every memory metric ncu gave, and on SASS the tensor
 * pipe's HMMA count too: ncu gives 1 to the 17 load and store kernels whose
 * SASS zeroes a register with HFMA2.MMA (ptxas's move through the tensor
 * pipe), which the PTX cannot show. */
static const char *const wmma_metrics[] = {
    "smsp__inst_executed_op_ldsm.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
};

/* ncu's value of METRIC for KERNEL in counters.txt (the test fails if it has none). */
static uint64_t h100_count(const char *kernel, const char *metric)
{
    FILE *fp = fopen(WMMA_COUNTERS, "r");
    ck_assert_msg(fp != NULL, "cannot open %s", WMMA_COUNTERS);
    char line[512], k[128], m[128];
    unsigned long long v;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "%127s %127s %llu", k, m, &v) == 3 && !strcmp(k, kernel) && !strcmp(m, metric)) {
            fclose(fp);
            return v;
        }
    fclose(fp);
    ck_abort_msg("%s: no %s for %s", WMMA_COUNTERS, metric, kernel);
    return 0;
}

/* The fragment kernels of wmma.ptx on the PTX interpreter, or on the H100's
 * SASS of the same module (SASS: gpu/run_wmma.sh's cuobjdump listing, the
 * instruction encodings and runs of blanks taken out). */
static coalsim_kernel *load_wmma(int sass)
{
    coalsim_kernel *k = load_ptx_file(WMMA_PTX);
    if (!sass) return k;
    size_t n;
    char *t = read_whole_file(WMMA_SASS, &n), err[1024];
    ck_assert_msg(coalsim_kernel_use_sass(k, t, n, WMMA_SASS, err, sizeof err) == 0, "%s", err);
    free(t);
    return k;
}

/* Every load and store kernel of layout.txt on K (SASS: K runs the H100's
 * SASS): the values the H100 gave and ncu's counts. */
static void check_fragments(coalsim_kernel *k, int sass)
{
    FILE *fp = fopen(WMMA_LAYOUT, "r");
    ck_assert_msg(fp != NULL, "cannot open %s", WMMA_LAYOUT);
    char *line = NULL, err[1024];
    size_t cap = 0;
    unsigned loads = 0, stores = 0;
    while (getline(&line, &cap, fp) > 0) {
        int store = !strncmp(line, "STORE ", 6);
        if (!store && strncmp(line, "LOAD ", 5)) continue;
        char name[128];
        int off;
        unsigned a, b = 0;
        if (store) ck_assert_int_eq(sscanf(line, "STORE %127s %u %u%n", name, &a, &b, &off), 3);
        else ck_assert_int_eq(sscanf(line, "LOAD %127s %u%n", name, &a, &off), 2);
        unsigned n = store ? a * b : 32 * a;     /* values: M x N, or 32 lanes x num_elements */
        int32_t got[2][1024];
        coalsim_analysis *an = NULL;
        for (int which = 0; which < 1 + !store; which++) {
            char args[64];
            snprintf(args, sizeof args, "mem:9216,out:4096,%d", which);
            ck_assert_msg(run(k, name, 1, 1, 32, args, err, which ? NULL : &an) == 0, "%s: %s", name, err);
            ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, got[which], 4096), 0);
        }
        const char *p = line + off;
        for (unsigned i = 0; i < n; i++) {
            char *end;
            long want = strtol(p, &end, 10);
            ck_assert_msg(end != p, "%s: %s: %u values, %u wanted", WMMA_LAYOUT, name, i, n);
            p = end;
            long have = store ? got[0][i] : 64 * got[0][i] + got[1][i];
            ck_assert_msg(have == want, "%s: value %u: (%ld, %ld) where the H100 has (%ld, %ld)", name, i, have / 64,
                          have % 64, want / 64, want % 64);
        }
        for (size_t m = 0; m < sizeof wmma_metrics / sizeof *wmma_metrics; m++)
            ck_assert_msg(kernel_metric(an, wmma_metrics[m]) == h100_count(name, wmma_metrics[m]), "%s: %s %llu, H100 %llu",
                          name, wmma_metrics[m], (unsigned long long)kernel_metric(an, wmma_metrics[m]),
                          (unsigned long long)h100_count(name, wmma_metrics[m]));
        const char *hmma = "sm__inst_executed_pipe_tensor_op_hmma.sum";
        if (sass)
            ck_assert_msg(kernel_metric(an, hmma) == h100_count(name, hmma), "%s: %s %llu, H100 %llu", name, hmma,
                          (unsigned long long)kernel_metric(an, hmma), (unsigned long long)h100_count(name, hmma));
        coalsim_analysis_free(an);
        if (store) stores++;
        else loads++;
    }
    free(line);
    fclose(fp);
    /* 3 shapes x (A, B: 4 types x 2 layouts x 2 each; C: 3 types x 2 layouts) x global and shared */
    ck_assert_uint_eq(loads, 3 * (16 + 6) * 2);
    ck_assert_uint_eq(stores, 3 * 6 * 2);
}

START_TEST(test_tensor_wmma_fragments_of_every_shape_and_type_hold_what_the_h100s_hold)
{
    coalsim_kernel *k = load_wmma(0);
    check_fragments(k, 0);
    coalsim_kernel_free(k);
}
END_TEST

/* The H100's SASS of the same kernels (LDSM, MOVM.16.MT88, I2F.F16,
 * F2I.F16 of a .H1 half, HMMA, IMMA, HFMA2.MMA) runs to the same values and
 * counts, the tensor pipe's among them. */
START_TEST(test_tensor_wmma_fragments_on_the_h100s_sass_hold_what_the_h100s_hold)
{
    coalsim_kernel *k = load_wmma(1);
    check_fragments(k, 1);
    coalsim_kernel_free(k);
}
END_TEST

static double wmma_value(const unsigned char *p, char type)
{
    uint16_t h;
    uint32_t u;
    float f;
    switch (type) {
    case 'h': memcpy(&h, p, 2); return half_value(h);
    case 'b': memcpy(&h, p, 2); u = (uint32_t)h << 16; memcpy(&f, &u, 4); return f;
    case 's': return (signed char)*p;
    case 'u': return *p;
    case 'i': memcpy(&u, p, 4); return (int32_t)u;
    default: memcpy(&f, p, 4); return f;
    }
}

/* D = A B + C for one tile of every shape and type, PTX then SASS. */
START_TEST(test_tensor_wmma_tiles_of_every_shape_and_type_compute_the_product)
{
    static const struct {
        const char *kernel;
        unsigned M, N, K;
        char in, acc;        /* h f16, b bf16, s s8, u u8; f f32, h f16, i s32 */
        int cr;              /* A column-major, B row-major */
    } tiles[] = {
        {"tile_f16_f32_m32n8k16", 32, 8, 16, 'h', 'f', 0},   {"tile_f16_f16_m32n8k16", 32, 8, 16, 'h', 'h', 0},
        {"tile_bf16_f32_m32n8k16", 32, 8, 16, 'b', 'f', 0},  {"tile_s8_s32_m32n8k16", 32, 8, 16, 's', 'i', 0},
        {"tile_u8_s32_m32n8k16", 32, 8, 16, 'u', 'i', 0},    {"tile_cr_f16_f32_m32n8k16", 32, 8, 16, 'h', 'f', 1},
        {"tile_f16_f32_m8n32k16", 8, 32, 16, 'h', 'f', 0},   {"tile_f16_f16_m8n32k16", 8, 32, 16, 'h', 'h', 0},
        {"tile_bf16_f32_m8n32k16", 8, 32, 16, 'b', 'f', 0},  {"tile_s8_s32_m8n32k16", 8, 32, 16, 's', 'i', 0},
        {"tile_u8_s32_m8n32k16", 8, 32, 16, 'u', 'i', 0},    {"tile_cr_f16_f32_m8n32k16", 8, 32, 16, 'h', 'f', 1},
        {"tile_f16_f32_m16n16k16", 16, 16, 16, 'h', 'f', 0}, {"tile_f16_f16_m16n16k16", 16, 16, 16, 'h', 'h', 0},
        {"tile_bf16_f32_m16n16k16", 16, 16, 16, 'b', 'f', 0}, {"tile_s8_s32_m16n16k16", 16, 16, 16, 's', 'i', 0},
        {"tile_u8_s32_m16n16k16", 16, 16, 16, 'u', 'i', 0},  {"tile_cr_f16_f32_m16n16k16", 16, 16, 16, 'h', 'f', 1},
    };
    coalsim_kernel *k = load_wmma(_i);
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
        unsigned M = tiles[t].M, N = tiles[t].N, K = tiles[t].K;
        char in = tiles[t].in, acc = tiles[t].acc, args[256], err[1024];
        unsigned esz = in == 'h' || in == 'b' ? 2 : 1, asz = acc == 'h' ? 2 : 4;
        const char *fin = in == 'h' ? "randomh:%u" : in == 'b' ? "randombf:%u" : "randint:%u:4294967295";
        const char *fc = acc == 'h' ? "randomh:%u" : acc == 'i' ? "randint:%u:1000" : "random:%u";
        char fa[32], fb[32], fcc[32];
        snprintf(fa, sizeof fa, fin, 1 + (unsigned)t), snprintf(fb, sizeof fb, fin, 100 + (unsigned)t);
        snprintf(fcc, sizeof fcc, fc, 200 + (unsigned)t);
        snprintf(args, sizeof args, "A:%u=%s,B:%u=%s,C:%u=%s,D:%u", M * K * esz, fa, K * N * esz, fb, M * N * asz, fcc,
                 M * N * asz);
        coalsim_analysis *an;
        ck_assert_msg(run(k, tiles[t].kernel, 1, 1, 32, args, err, &an) == 0, "%s: %s", tiles[t].kernel, err);
        unsigned char A[1024], B[1024], C[1024], D[1024];
        ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, A, M * K * esz), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, B, K * N * esz), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, C, M * N * asz), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "D", 0, D, M * N * asz), 0);
        for (unsigned m = 0; m < M; m++)
            for (unsigned n = 0; n < N; n++) {
                double r = wmma_value(C + (m * N + n) * asz, acc);
                for (unsigned kk = 0; kk < K; kk++) {
                    unsigned ia = tiles[t].cr ? kk * M + m : m * K + kk, ib = tiles[t].cr ? kk * N + n : n * K + kk;
                    r += wmma_value(A + ia * esz, in) * wmma_value(B + ib * esz, in);
                }
                double d = wmma_value(D + (m * N + n) * asz, acc), tol = acc == 'i' ? 0 : acc == 'h' ? 4e-3 : 1e-5;
                ck_assert_msg(fabs(d - r) <= tol * fmax(1, fabs(r)), "%s: D[%u][%u] = %g, the product gives %g",
                              tiles[t].kernel, m, n, d, r);
            }
        /* two HMMA.16816 or IMMA.16816 a tile, and ncu's global traffic */
        const char *pipe = acc == 'i' ? "sm__inst_executed_pipe_tensor_op_imma.sum" : "sm__inst_executed_pipe_tensor_op_hmma.sum";
        ck_assert_uint_eq(kernel_metric(an, pipe), 2);
        ck_assert_uint_eq(kernel_metric(an, pipe), h100_count(tiles[t].kernel, pipe));
        for (size_t m = 3; m < 9; m++)
            ck_assert_msg(kernel_metric(an, wmma_metrics[m]) == h100_count(tiles[t].kernel, wmma_metrics[m]), "%s: %s %llu, H100 %llu",
                          tiles[t].kernel, wmma_metrics[m], (unsigned long long)kernel_metric(an, wmma_metrics[m]),
                          (unsigned long long)h100_count(tiles[t].kernel, wmma_metrics[m]));
        coalsim_analysis_free(an);
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
    tcase_add_test(c, test_tensor_wmma_fragments_of_every_shape_and_type_hold_what_the_h100s_hold);
    tcase_add_test(c, test_tensor_wmma_fragments_on_the_h100s_sass_hold_what_the_h100s_hold);
    tcase_add_loop_test(c, test_tensor_wmma_tiles_of_every_shape_and_type_compute_the_product, 0, 2);
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
