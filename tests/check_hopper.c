/* Hopper's asynchronous path on the PTX interpreter: tensor maps, TMA
 * copies and their swizzles, bulk copies, mbarriers and wgmma
 * (gpu/hopper/hopper.cu, compiled to hopper.ptx; the same program passes its
 * own checks on the H100 and under coalsim run), and the errors a wrong
 * kernel gets. */
#include <math.h>
#include <stdlib.h>

#include "frontend/gmma.h"
#include "frontend/tmamerge.h"
#include "frontend/tmap.h"
#include "helpers.h"

#define HOPPER_PTX "gpu/hopper/hopper.ptx"

static coalsim_kernel *load_text(const char *text, size_t n, const char *name)
{
    char err[512];
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, n, name, err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    return k;
}

static coalsim_kernel *load_hopper(void) { return load_ptx_file(HOPPER_PTX); }

/* Run KERNEL; 0 or -1 with ERR; *AN (if given) keeps the analysis. */
static int run(coalsim_kernel *k, const char *kernel, unsigned gx, unsigned gy, unsigned bx, uint64_t dyn,
               const char *args, char *err, coalsim_analysis **an)
{
    return kernel_launch(k, kernel, (coalsim_launch){.grid = {gx, gy, 1}, .block = {bx, 1, 1}, .dynamic_shared = dyn,
                                                     .args = args}, err, an);
}

/* C (M x N floats) = A (M x K halves) B, B given as Bt (N x K halves). */
static void check_gemm(coalsim_kernel *k, unsigned M, unsigned N, unsigned K)
{
    uint16_t *A = malloc((size_t)M * K * 2), *B = malloc((size_t)N * K * 2);
    float *C = malloc((size_t)M * N * 4);
    ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, A, (size_t)M * K * 2), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "Bt", 0, B, (size_t)N * K * 2), 0);
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

/* ---- tensor maps and the swizzle ---- */

START_TEST(test_tmap_text_round_trips_through_the_128_byte_encoding)
{
    tmap t, u;
    ck_assert_ptr_null(tmap_parse("f16:1024x512:64x64:128", &t));
    t.base = 0x7f0000000000ull;
    unsigned char bytes[TMAP_BYTES];
    ck_assert_ptr_null(tmap_encode(&t, bytes));
    ck_assert_int_eq(tmap_decode(bytes, &u), 0);
    ck_assert_uint_eq(u.rank, 2);
    ck_assert_uint_eq(u.dims[0], 1024);
    ck_assert_uint_eq(u.dims[1], 512);
    ck_assert_uint_eq(u.strides[1], 2048);          /* dense: 1024 halves */
    ck_assert_uint_eq(u.box[0], 64);
    ck_assert_int_eq(u.swizzle, TMAP_SWIZZLE_128B);
    ck_assert_uint_eq(u.base, 0x7f0000000000ull);
    ck_assert_uint_eq(tmap_box_bytes(&u), 64 * 64 * 2);
    memset(bytes, 0, 8);
    ck_assert_int_eq(tmap_decode(bytes, &u), -1);   /* not a map coalsim made */
}
END_TEST

START_TEST(test_tmap_refuses_what_cuTensorMapEncodeTiled_refuses)
{
    tmap t;
    ck_assert_ptr_null(tmap_parse("f16:1024x512:128x64:128", &t));
    ck_assert_ptr_nonnull(tmap_check(&t));          /* 256 bytes of inner box, wider than the 128-byte swizzle */
    ck_assert_ptr_null(tmap_parse("f32:100x100:4x300", &t));
    ck_assert_ptr_nonnull(tmap_check(&t));          /* a box dimension past 256 */
    ck_assert_ptr_null(tmap_parse("f16:1000x10:4x4", &t));
    ck_assert_ptr_nonnull(tmap_check(&t));          /* 8 bytes of inner box: not a multiple of 16 */
    ck_assert_ptr_null(tmap_parse("f32:10x10:4x4:none:44", &t));
    ck_assert_ptr_nonnull(tmap_check(&t));          /* a stride not a multiple of 16 */
    ck_assert_ptr_nonnull(tmap_parse("f17:10x10:4x4", &t));
    ck_assert_ptr_nonnull(tmap_parse("f32:10x10:4", &t));
}
END_TEST

START_TEST(test_swizzle_128b_moves_a_rows_16_byte_pieces_by_the_row_number)
{
    /* CuTe's Swizzle<3,4,3>: piece c of 128-byte row r lands at piece c ^ (r % 8) */
    for (uint32_t r = 0; r < 16; r++)
        for (uint32_t c = 0; c < 8; c++)
            ck_assert_uint_eq(tmap_swizzle_addr(TMAP_SWIZZLE_128B, r * 128 + c * 16 + 4), r * 128 + ((c ^ (r % 8)) * 16) + 4);
    ck_assert_uint_eq(tmap_swizzle_addr(TMAP_SWIZZLE_32B, 0x80), 0x90);   /* bit 7 into bit 4 */
    ck_assert_uint_eq(tmap_swizzle_addr(TMAP_SWIZZLE_64B, 0x180), 0x1b0);
    ck_assert_uint_eq(tmap_swizzle_addr(TMAP_SWIZZLE_NONE, 0x180), 0x180);
}
END_TEST

START_TEST(test_gmma_descriptor_reads_k_major_128b_tiles_as_tma_writes_them)
{
    /* a 64 x 64 half tile, 128-byte rows, 8-row groups 1024 bytes apart (SBO) */
    uint64_t desc = (uint64_t)(0x400 >> 4) | (uint64_t)(1024 >> 4) << 32 | 1ull << 62;
    ck_assert_uint_eq(gmma_elem_addr(desc, 0, 2, 0, 0), 0x400);
    ck_assert_uint_eq(gmma_elem_addr(desc, 0, 2, 1, 0), 0x400 + 128 + 16);     /* row 1: piece 0 moved to 1 */
    ck_assert_uint_eq(gmma_elem_addr(desc, 0, 2, 9, 8), 0x400 + 1024 + 128 + 0);   /* row 9, k 8: piece 1 ^ 1 */
    /* no swizzle: 8 x 16-byte core matrices, the second K half LBO away */
    uint64_t inter = (uint64_t)(0x100 >> 4) | (uint64_t)(128 >> 4) << 16 | (uint64_t)(256 >> 4) << 32;
    ck_assert_uint_eq(gmma_elem_addr(inter, 0, 2, 3, 9), 0x100 + 3 * 16 + 128 + 2);
    ck_assert_uint_eq(gmma_elem_addr(inter, 0, 2, 11, 0), 0x100 + 256 + 3 * 16);
}
END_TEST

/* ---- the kernels ---- */

START_TEST(test_tma_load_fills_zeros_outside_the_tensor_and_the_store_clips_at_its_edges)
{
    coalsim_kernel *k = load_hopper();
    char err[1024];
    coalsim_analysis *an;
    int rc = run(k, "tma_load_store_2d", 4, 7, 256, 0,
                 "in:201600=iotaf:1@f32:252x200:64x32,out:200K@f32:252x200:64x32:none:1024,tiles:224K", err, &an);
    ck_assert_msg(rc == 0, "%s", err);
    float *in = malloc(252 * 200 * 4), *out = malloc(256 * 200 * 4), *tiles = malloc(28 * 2048 * 4);
    ck_assert_int_eq(coalsim_kernel_read(k, "in", 0, in, 252 * 200 * 4), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, 256 * 200 * 4), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "tiles", 0, tiles, 28 * 2048 * 4), 0);
    for (unsigned y = 0; y < 200; y++)
        for (unsigned x = 0; x < 256; x++)
            ck_assert_float_eq(out[y * 256 + x], x < 252 ? 2 * in[y * 252 + x] + 1 : 0.0f);
    /* the last block's tile (x0 = y0 = 192): zeros past column 252 and row 200 */
    const float *t = tiles + 27 * 2048;
    for (unsigned r = 0; r < 32; r++)
        for (unsigned c = 0; c < 64; c++)
            ck_assert_float_eq(t[r * 64 + c], 192 + c < 252 && 192 + r < 200 ? in[(192 + r) * 252 + 192 + c] : 0.0f);
    ck_assert_uint_eq(coalsim_analysis_exec(an)->bulk_copies, 56);
    ck_assert_uint_eq(coalsim_analysis_exec(an)->bulk_bytes_in, 28 * 8192);
    coalsim_analysis_free(an);
    free(in), free(out), free(tiles);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_tma_swizzled_tiles_read_back_through_the_hardware_swizzle_equal_the_tensor)
{
    static const char *const kernels[] = {"tma_swizzle_32b", "tma_swizzle_64b", "tma_swizzle_128b"};
    static const char *const args[] = {
        "in:200K=randint:3:100000@u32:256x200:8x64:32,out:200K,256,200",
        "in:200K=randint:3:100000@u32:256x200:16x64:64,out:200K,256,200",
        "in:200K=randint:3:100000@u32:256x200:32x64:128,out:200K,256,200",
    };
    static const unsigned gx[] = {32, 16, 8};
    for (int i = 0; i < 3; i++) {
        coalsim_kernel *k = load_hopper();
        char err[1024];
        int rc = run(k, kernels[i], gx[i], 4, 256, 0, args[i], err, NULL);
        ck_assert_msg(rc == 0, "%s", err);
        uint32_t *in = malloc(200 * 1024), *out = malloc(200 * 1024);
        ck_assert_int_eq(coalsim_kernel_read(k, "in", 0, in, 200 * 1024), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, 200 * 1024), 0);
        ck_assert_msg(memcmp(in, out, 200 * 1024) == 0, "%s: the tile read back differs", kernels[i]);
        free(in), free(out);
        coalsim_kernel_free(k);
    }
}
END_TEST

START_TEST(test_wgmma_gemms_from_tma_tiles_and_from_plain_stores_compute_the_product)
{
    static const struct {
        const char *kernel, *args;
        unsigned gx, gy, block, K;
        uint64_t dyn;
    } g[] = {
        {"wgmma_gemm_f16", "A:128K=randomh:1@f16:256x256:64x64:128,Bt:128K=randomh:2@f16:256x256:64x64:128,C:256K,256,256", 4, 4,
         128, 256, 0},
        {"wgmma_gemm_noswz", "A:128K=randomh:1,Bt:128K=randomh:2,C:256K,256,256", 4, 4, 128, 256, 0},
        {"wgmma_gemm_ws",
         "A:256K=randomh:1@f16:512x256:64x128:128,Bt:256K=randomh:2@f16:512x256:64x256:128,C:256K,256,512", 2, 1, 384,
         512, 197696},
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        coalsim_kernel *k = load_hopper();
        char err[1024];
        coalsim_analysis *an;
        int rc = run(k, g[i].kernel, g[i].gx, g[i].gy, g[i].block, g[i].dyn, g[i].args, err, &an);
        ck_assert_msg(rc == 0, "%s: %s", g[i].kernel, err);
        check_gemm(k, 256, 256, g[i].K);
        /* one m64nNk16 a warp for each 16 of K, per 64 x N tile */
        uint64_t n_per = !strcmp(g[i].kernel, "wgmma_gemm_ws") ? 256 : 64;
        ck_assert_uint_eq(kernel_metric(an, "sm__inst_executed_pipe_tensor_op_gmma.sum"), 256 / 64 * (256 / n_per) * (g[i].K / 16) * 4);
        coalsim_analysis_free(an);
        coalsim_kernel_free(k);
    }
}
END_TEST

START_TEST(test_a_warpgroups_wgmmas_hold_its_tensor_pipes_n_over_2_cycles_each_on_its_blocks_path)
{
    /* a warp's m64nNk16 keeps its sub-partition's tensor pipe N/2 cycles at the tensor clock (ncu,
     * gpu/results/h100/hopper), and wgmma.wait_group holds the warp until its wgmmas are done: a
     * block's path holds them one after another.  wgmma_gemm_noswz: each warp 16 m64n64k16 (K 256);
     * halving the tensor clock adds 16 x 32 cycles of the tensor clock to every block's path */
    double path[2];
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    coalsim_profile p = *cfg.profile;
    for (int i = 0; i < 2; i++) {
        p.tensor_clock_mhz = i ? 900 : 1800;
        cfg.profile = &p;
        coalsim_kernel *k = load_hopper();
        coalsim_analysis *a = coalsim_analysis_new(&cfg);
        char err[1024];
        coalsim_launch l = {.kernel = "wgmma_gemm_noswz", .grid = {4, 4, 1}, .block = {128, 1, 1},
                            .args = "A:128K=randomh:1,Bt:128K=randomh:2,C:256K,256,256", .threads = 1};
        ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
        coalsim_analysis_finish(a);
        const coalsim_exec *e = coalsim_analysis_exec(a);
        path[i] = e->path_cycles / e->path_blocks;
        coalsim_analysis_free(a);
        coalsim_kernel_free(k);
    }
    double want = 16 * 32 * (p.sm_clock_mhz / 900 - p.sm_clock_mhz / 1800);
    ck_assert_msg(fabs(path[1] - path[0] - want) < 0.05 * want, "a block's path: %.0f cycles, %.0f at half the tensor clock "
                  "(%.0f more, want %.0f)", path[0], path[1], path[1] - path[0], want);
}
END_TEST

/* an fp8 byte's value */
static double fp8_value(uint8_t v, int e5m2)
{
    if (e5m2) return half_value((uint16_t)(v << 8));
    unsigned e = v >> 3 & 15, f = v & 7;
    double m = e ? ldexp(1.0 + f / 8.0, (int)e - 7) : ldexp(f / 8.0, -6);
    return v >> 7 ? -m : m;
}

START_TEST(test_wgmma_reads_a_and_b_each_as_its_own_fp8_type)
{
    /* hopper.ptx's e4m3 GEMM with B made e5m2 (wgmma's mixed fp8 form) */
    FILE *fp = fopen(HOPPER_PTX, "rb");
    ck_assert_ptr_nonnull(fp);
    char *t = malloc(1 << 20);
    size_t n = fread(t, 1, (1 << 20) - 1, fp);
    fclose(fp);
    t[n] = '\0';
    for (char *q = t; (q = strstr(q, ".f32.e4m3.e4m3")) != NULL; q += 14) memcpy(q + 10, "e5m2", 4);
    coalsim_kernel *k = load_text(t, n, "mixed.ptx");
    free(t);
    char err[1024];
    ck_assert_msg(run(k, "wgmma_gemm_e4m3", 4, 4, 128, 0,
                      "A:64K=randint:1:64@u8:256x256:128x64:128,Bt:64K=randint:2:64@u8:256x256:128x64:128,C:256K,256,256",
                      err, NULL) == 0, "%s", err);
    uint8_t *A = malloc(65536), *B = malloc(65536);
    float *C = malloc(256 * 256 * 4);
    ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, A, 65536), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "Bt", 0, B, 65536), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, C, 256 * 256 * 4), 0);
    for (unsigned m = 0; m < 256; m += 17)
        for (unsigned j = 0; j < 256; j += 13) {
            double r = 0;
            for (unsigned q = 0; q < 256; q++) r += fp8_value(A[m * 256 + q], 0) * fp8_value(B[j * 256 + q], 1);
            ck_assert_msg(fabs(r - C[m * 256 + j]) <= 1e-6 * fabs(r) + 1e-30, "C[%u][%u] = %g, not %g", m, j, C[m * 256 + j], r);
        }
    free(A), free(B), free(C);
    coalsim_kernel_free(k);
}
END_TEST

/* ---- the same kernels from the H100's SASS (gpu/results/h100/hopper/sass.txt) ---- */

#define HOPPER_SASS "gpu/results/h100/hopper/sass.txt"

/* K, its kernels to run from the SASS listing at PATH */
static coalsim_kernel *with_listing(coalsim_kernel *k, const char *path)
{
    size_t len;
    char err[1024];
    char *t = read_whole_file(path, &len);
    int rc = coalsim_kernel_use_sass(k, t, len, path, err, sizeof err);
    free(t);
    ck_assert_msg(rc == 0, "%s", err);
    return k;
}

/* hopper.ptx as the module, its kernels run from the H100's listing of the same build */
static coalsim_kernel *load_hopper_sass(void) { return with_listing(load_hopper(), HOPPER_SASS); }

/* The buffers OUTS ("NAME:BYTES", up to N, NULL-ended) of a PTX run (KP) and a SASS run (KS) of KERNEL are byte for byte the same */
static void same_outputs(coalsim_kernel *kp, coalsim_kernel *ks, const char *const *outs, int n, const char *kernel)
{
    for (int o = 0; o < n && outs[o]; o++) {
        char name[32];
        size_t len = strcspn(outs[o], ":");
        memcpy(name, outs[o], len);
        name[len] = '\0';
        size_t bytes = (size_t)strtoul(outs[o] + len + 1, NULL, 10);
        unsigned char *bp = malloc(bytes), *bs = malloc(bytes);
        ck_assert_int_eq(coalsim_kernel_read(kp, name, 0, bp, bytes), 0);
        ck_assert_int_eq(coalsim_kernel_read(ks, name, 0, bs, bytes), 0);
        ck_assert_msg(memcmp(bp, bs, bytes) == 0, "%s: '%s' differs between the SASS and PTX runs", kernel, name);
        free(bp), free(bs);
    }
}

/* The count launches of gpu/hopper/hopper.list, with the buffers they write
 * and the H100's smsp__inst_executed.sum for each (ncu of hopper --size
 * check --once: gpu/results/h100/hopper/counters.txt, compare.txt) */
static const struct {
    const char *kernel, *args, *outs[2];
    unsigned gx, gy, block;
    uint64_t dyn, inst;
} hopper_launches[] = {
    {"bulk_copy", "in:260K=iotaf:1,out:260K,66536", {"out:266144"}, 17, 1, 256, 0, 21378},
    {"wgmma_gemm_noswz", "A:128K=randomh:1,Bt:128K=randomh:2,C:256K,256,256", {"C:262144"}, 4, 4, 128, 0, 59584},
    {"tma_load_store_2d", "in:197K=iotaf:1@f32:252x200:64x32:none,out:208K@f32:252x200:64x32:none:1024,tiles:224K",
     {"out:212992", "tiles:229376"}, 4, 7, 256, 0, 29652},
    {"tma_swizzle_32b", "in:200K=iota:1@u32:256x200:8x64:32,out:200K,256,200", {"out:204800"}, 32, 4, 256, 0, 83968},
    {"tma_swizzle_64b", "in:200K=iota:1@u32:256x200:16x64:64,out:200K,256,200", {"out:204800"}, 16, 4, 256, 0, 68992},
    {"tma_swizzle_128b", "in:200K=iota:1@u32:256x200:32x64:128,out:200K,256,200", {"out:204800"}, 8, 4, 256, 0, 61504},
    {"wgmma_gemm_f16", "A:128K=randomh:1@f16:256x256:64x64:128,Bt:128K=randomh:2@f16:256x256:64x64:128,C:256K,256,256",
     {"C:262144"}, 4, 4, 128, 0, 25808},
    {"wgmma_gemm_bf16", "A:128K=randombf:1@bf16:256x256:64x64:128,Bt:128K=randombf:2@bf16:256x256:64x64:128,C:256K,256,256",
     {"C:262144"}, 4, 4, 128, 0, 25808},
    {"wgmma_gemm_tf32", "A:256K=random:1@f32:256x256:32x64:128,Bt:256K=random:2@f32:256x256:32x64:128,C:256K,256,256",
     {"C:262144"}, 4, 4, 128, 0, 44880},
    {"wgmma_gemm_e4m3", "A:64K=randint:1:16@u8:256x256:128x64:128,Bt:64K=randint:2:16@u8:256x256:128x64:128,C:256K,256,256",
     {"C:262144"}, 4, 4, 128, 0, 16272},
    {"wgmma_gemm_s8", "A:64K=randint:1:16@u8:256x256:128x64:128,Bt:64K=randint:2:16@u8:256x256:128x64:128,C:256K,256,256",
     {"C:262144"}, 4, 4, 128, 0, 16272},
    {"wgmma_gemm_rega", "A:128K=randomh:1,Bt:128K=randomh:2@f16:256x256:64x64:128,C:256K,256,256", {"C:262144"}, 4, 4, 128,
     0, 47760},
    {"wgmma_gemm_mnb", "A:128K=randomh:1@f16:256x256:64x64:128,B:128K=randomh:2@f16:256x256:64x64:128,C:256K,256,256",
     {"C:262144"}, 2, 4, 128, 0, 14024},
};

START_TEST(test_the_h100s_sass_of_each_hopper_kernel_writes_what_its_ptx_does_and_issues_the_h100s_instructions)
{
    /* TMA loads and stores with zero fill and clipping, the three swizzles,
     * bulk copies, wgmma in f16, bf16, tf32, e4m3, s8, register A, MN-major
     * B and plain-stored tiles: the SASS run's outputs equal the PTX run's
     * byte for byte (those are checked against references above), every
     * counter the two share is equal but the instructions, and those are
     * the H100's own */
    static const char *const same[] = {"sm__inst_executed_pipe_tensor_op_gmma.sum", "sm__sass_data_bytes_mem_shared_op_gmma.sum",
                                       "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
                                       "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum",
                                       "smsp__inst_executed_op_tma_ld.sum", "smsp__inst_executed_op_tma_st.sum",
                                       "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__warps_launched.sum"};
    for (size_t i = 0; i < sizeof hopper_launches / sizeof hopper_launches[0]; i++) {
        coalsim_kernel *kp = load_hopper(), *ks = load_hopper_sass();
        char err[1024];
        coalsim_analysis *ap, *as;
        int rc = run(kp, hopper_launches[i].kernel, hopper_launches[i].gx, hopper_launches[i].gy, hopper_launches[i].block,
                     hopper_launches[i].dyn, hopper_launches[i].args, err, &ap);
        ck_assert_msg(rc == 0, "%s (PTX): %s", hopper_launches[i].kernel, err);
        rc = run(ks, hopper_launches[i].kernel, hopper_launches[i].gx, hopper_launches[i].gy, hopper_launches[i].block,
                 hopper_launches[i].dyn, hopper_launches[i].args, err, &as);
        ck_assert_msg(rc == 0, "%s (SASS): %s", hopper_launches[i].kernel, err);
        same_outputs(kp, ks, hopper_launches[i].outs, 2, hopper_launches[i].kernel);
        for (size_t j = 0; j < sizeof same / sizeof same[0]; j++)
            ck_assert_msg(kernel_metric(as, same[j]) == kernel_metric(ap, same[j]), "%s: %s %llu on SASS, %llu on PTX",
                          hopper_launches[i].kernel, same[j], (unsigned long long)kernel_metric(as, same[j]),
                          (unsigned long long)kernel_metric(ap, same[j]));
        ck_assert_uint_eq(kernel_metric(as, "smsp__inst_executed.sum"), hopper_launches[i].inst);
        coalsim_analysis_free(ap), coalsim_analysis_free(as);
        coalsim_kernel_free(kp), coalsim_kernel_free(ks);
    }
}
END_TEST

START_TEST(test_the_h100s_sass_of_a_warp_specialised_pipeline_computes_the_product)
{
    /* wgmma_gemm_ws: a producer warp's TMA copies through 4 stages of full
     * and empty mbarriers, two consumer warpgroups with USETMAXREG, HGMMA
     * m64n256k16; the H100 issued 15,626 instructions, 156 more than here:
     * its producer and consumers spin in their try_wait loops, which a
     * warp that sleeps until the phase completes does not run */
    coalsim_kernel *k = load_hopper_sass();
    char err[1024];
    coalsim_analysis *an;
    int rc = run(k, "wgmma_gemm_ws", 2, 1, 384, 197696,
                 "A:256K=randomh:1@f16:512x256:64x128:128,Bt:256K=randomh:2@f16:512x256:64x256:128,C:256K,256,512", err, &an);
    ck_assert_msg(rc == 0, "%s", err);
    check_gemm(k, 256, 256, 512);
    ck_assert_uint_eq(kernel_metric(an, "sm__inst_executed_pipe_tensor_op_gmma.sum"), 512);
    ck_assert_uint_eq(kernel_metric(an, "smsp__inst_executed.sum"), 15470);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_a_sass_mbarrier_that_never_completes_is_a_deadlock_naming_the_barrier)
{
    /* tma_load_store_2d expects its whole 64 x 32 float tile (8 KB); a map
     * whose box is half of it brings 4 KB, so the phase never completes */
    coalsim_kernel *k = load_hopper_sass();
    char err[1024];
    ck_assert_int_eq(run(k, "tma_load_store_2d", 4, 7, 256, 0,
                         "in:197K=iotaf:1@f32:252x200:64x16:none,out:208K@f32:252x200:64x32:none:1024,tiles:224K", err, NULL),
                     -1);
    ck_assert_msg(strstr(err, "deadlock: 8 warp(s) wait") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "waiting for 0 of 1 arrivals and 4096 bytes") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "SYNCS.PHASECHK.TRANS64.TRYWAIT") != NULL, "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

/* ---- clusters from the H100's SASS (gpu/hopper/cluster.cu, gpu/results/h100/cluster/sass.txt) ---- */

#define CLUSTER_CU_PTX "gpu/hopper/cluster.ptx"
#define CLUSTER_SASS "gpu/results/h100/cluster/sass.txt"

static coalsim_kernel *load_cluster_cu(int sass)
{
    coalsim_kernel *k = load_ptx_file(CLUSTER_CU_PTX);
    return sass ? with_listing(k, CLUSTER_SASS) : k;
}

/* cluster.cu's launches at its check size (cluster --size check: its
 * host code's grids and clusters), the buffers they write, and what the
 * H100 counted (gpu/results/h100/cluster/counters.txt): warp instructions,
 * then requests and sectors of loads, stores and atomics on another CTA's
 * shared memory */
static const struct {
    const char *kernel, *args, *outs[3];
    unsigned grid[3], block, cluster[3];
    uint64_t inst, dreq[3], dsec[3];
} cluster_launches[] = {
    {"cluster_ids", "out:288K", {"out:294912"}, {6, 4, 2}, 96, {0, 0, 0}, 12960, {0, 0, 0}, {0, 0, 0}},
    {"dsmem_ring", "out:128K,counters:1K,olds:32K", {"out:131072", "counters:1024", "olds:32768"}, {32, 1, 1}, 256,
     {4, 1, 1}, 45896, {1024, 0, 192}, {4096, 0, 192}},
    {"remote_mbarrier", "out:16K", {"out:16384"}, {16, 1, 1}, 128, {0, 0, 0}, 6464, {0, 128, 0}, {0, 512, 0}},
    {"tma_multicast", "tin:192K=iotaf:1@f32:256x192:32x32:none,out:384K,256,192", {"out:393216"}, {16, 3, 1}, 256,
     {2, 1, 1}, 97584, {0, 0, 0}, {0, 0, 0}},
};

START_TEST(test_the_h100s_sass_of_cluster_kernels_writes_what_their_ptx_does_and_issues_the_h100s_instructions)
{
    /* cluster special registers from bank 0 (SR_CgaCtaId and the shape at
     * c[0x0][0x140..0x188]), generic LD/ST/ATOM on another CTA's shared
     * window, UCGABAR_ARV/WAIT, remote SYNCS arrivals, UTMALDG.MULTICAST:
     * the SASS run writes what the PTX run does, issues the H100's
     * instructions, and counts the H100's distributed-shared requests */
    static const char *const ops[3] = {"ld", "st", "atom"};
    for (size_t i = 0; i < sizeof cluster_launches / sizeof cluster_launches[0]; i++) {
        coalsim_analysis *an[2];
        coalsim_kernel *k[2];
        for (int sass = 0; sass < 2; sass++) {
            char err[1024];
            k[sass] = load_cluster_cu(sass);
            coalsim_launch l = {.block = {cluster_launches[i].block, 1, 1}, .args = cluster_launches[i].args};
            memcpy(l.grid, cluster_launches[i].grid, sizeof l.grid);
            memcpy(l.cluster, cluster_launches[i].cluster, sizeof l.cluster);
            int rc = kernel_launch(k[sass], cluster_launches[i].kernel, l, err, &an[sass]);
            ck_assert_msg(rc == 0, "%s (%s): %s", cluster_launches[i].kernel, sass ? "SASS" : "PTX", err);
        }
        same_outputs(k[0], k[1], cluster_launches[i].outs, 3, cluster_launches[i].kernel);
        ck_assert_uint_eq(kernel_metric(an[1], "smsp__inst_executed.sum"), cluster_launches[i].inst);
        for (int j = 0; j < 3; j++) {
            char m[96];
            snprintf(m, sizeof m, "l1tex__t_requests_pipe_lsu_mem_dshared_op_%s.sum", ops[j]);
            ck_assert_msg(kernel_metric(an[1], m) == cluster_launches[i].dreq[j], "%s: %s %llu", cluster_launches[i].kernel,
                          m, (unsigned long long)kernel_metric(an[1], m));
            snprintf(m, sizeof m, "l1tex__t_sectors_pipe_lsu_mem_dshared_op_%s.sum", ops[j]);
            ck_assert_msg(kernel_metric(an[1], m) == cluster_launches[i].dsec[j], "%s: %s %llu", cluster_launches[i].kernel,
                          m, (unsigned long long)kernel_metric(an[1], m));
        }
        for (int sass = 0; sass < 2; sass++) coalsim_analysis_free(an[sass]), coalsim_kernel_free(k[sass]);
    }
}
END_TEST

START_TEST(test_a_sampled_cluster_launch_on_sass_runs_whole_clusters_and_extrapolates_exactly)
{
    /* tma_multicast over a 2048 x 1536 tensor (768 blocks in clusters of 2),
     * about 128 of them: the windows hold whole clusters, and every count,
     * extrapolated, is the whole run's */
    const char *args = "tin:12M=iotaf:1@f32:2048x1536:32x32:none,out:24M,2048,1536";
    uint64_t want[3] = {0}, got[3] = {0};
    static const char *const m[3] = {"smsp__inst_executed.sum", "smsp__warps_launched.sum",
                                     "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"};
    for (int sampled = 0; sampled < 2; sampled++) {
        coalsim_kernel *k = load_cluster_cu(1);
        char err[1024];
        coalsim_analysis *an;
        coalsim_launch l = {.grid = {128, 24, 1}, .block = {256, 1, 1}, .cluster = {2, 1, 1}, .args = args,
                            .sample = {.mode = sampled ? COALSIM_SAMPLE_BLOCKS : COALSIM_SAMPLE_OFF, .blocks = 128}};
        ck_assert_msg(kernel_launch(k, "tma_multicast", l, err, &an) == 0, "%s", err);
        const coalsim_sample *sp = coalsim_analysis_sample(an);
        if (sampled) {
            ck_assert_int_eq(sp->sampled, 1);
            ck_assert_uint_eq(sp->blocks, 3072);
            ck_assert_uint_eq(sp->run % 2, 0);
            ck_assert_uint_lt(sp->run, 3072);
        }
        for (int j = 0; j < 3; j++) (sampled ? got : want)[j] = kernel_metric(an, m[j]);
        coalsim_analysis_free(an);
        coalsim_kernel_free(k);
    }
    for (int j = 0; j < 3; j++) ck_assert_msg(got[j] == want[j], "%s: %llu sampled, %llu whole", m[j], (unsigned long long)got[j],
                                               (unsigned long long)want[j]);
}
END_TEST

START_TEST(test_a_sass_cluster_barrier_some_ctas_never_reach_is_a_deadlock_naming_it)
{
    /* remote_mbarrier's two CTAs meet at barrier.cluster; in clusters of
     * four, ranks 2 and 3 send to no one and none sends to them: their
     * waits never complete, and the error says what each warp waits for */
    coalsim_kernel *k = load_cluster_cu(1);
    char err[1024];
    coalsim_launch l = {.grid = {16, 1, 1}, .block = {128, 1, 1}, .cluster = {4, 1, 1}, .args = "out:16K"};
    int rc = kernel_launch(k, "remote_mbarrier", l, err, NULL);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, "deadlock") != NULL, "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

/* ---- clusters (tests/kernels/cluster.cu) ---- */

#define CLUSTER_PTX "tests/kernels/cluster.ptx"

static coalsim_kernel *load_cluster(void) { return load_ptx_file(CLUSTER_PTX); }

/* KERNEL of cluster.ptx on GX x GY blocks of BX threads in clusters of CX x CY (0: its __cluster_dims__) */
static int run_cluster(coalsim_kernel *k, const char *kernel, unsigned gx, unsigned gy, unsigned bx, unsigned cx,
                       unsigned cy, const char *args, char *err)
{
    return kernel_launch(k, kernel, (coalsim_launch){.grid = {gx, gy, 1}, .block = {bx, 1, 1},
                                                     .cluster = {cx, cy, cx ? 1 : 0}, .args = args}, err, NULL);
}

START_TEST(test_cluster_special_registers_follow_clusters_tiling_the_grid)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    ck_assert_msg(run_cluster(k, "cluster_ids", 4, 4, 32, 0, 0, "out:1K", err) == 0, "%s", err);
    unsigned v[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, v, sizeof v), 0);
    for (unsigned by = 0; by < 4; by++)
        for (unsigned bx = 0; bx < 4; bx++) {
            const unsigned *o = v + 8 * (bx + 4 * by);
            ck_assert_uint_eq(o[0], bx % 2 + 2 * (by % 2));      /* rank: x + y * 2 in the 2 x 2 cluster */
            ck_assert_uint_eq(o[1], 4);
            ck_assert_uint_eq(o[2], bx % 2);
            ck_assert_uint_eq(o[3], by % 2);
            ck_assert_uint_eq(o[4], bx / 2);
            ck_assert_uint_eq(o[5], by / 2);
            ck_assert_uint_eq(o[6], 2);
            ck_assert_uint_eq(o[7], 2);
        }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_a_cta_reads_and_updates_another_ctas_shared_memory_through_mapa)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    ck_assert_msg(run_cluster(k, "dsmem_ring", 8, 1, 128, 4, 1, "out:4K,count:64", err) == 0, "%s", err);
    int out[1024], count[2];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "count", 0, count, sizeof count), 0);
    for (int b = 0; b < 8; b++)
        for (int t = 0; t < 128; t++) ck_assert_int_eq(out[b * 128 + t], (b % 4 + 1) % 4 * 1000 + t);
    ck_assert_int_eq(count[0], 4);
    ck_assert_int_eq(count[1], 4);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_an_arrival_from_another_cta_completes_an_mbarrier_phase)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    ck_assert_msg(run_cluster(k, "remote_mbarrier", 4, 1, 64, 0, 0, "out:64", err) == 0, "%s", err);
    int out[2];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    ck_assert_int_eq(out[0], 4243);
    ck_assert_int_eq(out[1], 4245);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_bulk_reductions_add_min_and_add_halves_into_global_memory_block_after_block)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    coalsim_analysis *an;
    ck_assert_msg(kernel_launch(k, "bulk_reduce", (coalsim_launch){.grid = {5, 1, 1}, .block = {128, 1, 1},
                                .args = "g:4K=iota,f:4K,m:4K,h:2K,1000"}, err, &an) == 0, "%s", err);
    unsigned g[1000];
    float f[1000];
    int m[1000];
    uint16_t h[1000];
    ck_assert_int_eq(coalsim_kernel_read(k, "g", 0, g, sizeof g), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "f", 0, f, sizeof f), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "m", 0, m, sizeof m), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "h", 0, h, sizeof h), 0);
    for (int i = 0; i < 1000; i++) {
        ck_assert_uint_eq(g[i], (unsigned)i + 5 * (i + 1) + 10);     /* iota, then + i + 1 + b for b < 5 */
        ck_assert_float_eq(f[i], 0.5f * (5 * i + 10));
        ck_assert_int_eq(m[i], i < 8 ? i - 8 : 0);                  /* min(0, i - 2b), b < 5 */
        ck_assert_float_eq(half_value(h[i]), 5.0f);
    }
    /* as the H100 counts them (gpu/results/h100/bulk_reduce): four TMA store instructions a block, the
     * bytes whole sectors, as reductions, none as stores */
    ck_assert_uint_eq(kernel_metric(an, "smsp__inst_executed_op_tma_st.sum"), 20);
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum"), 70080);
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum"), 2190);
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum"), 0);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_a_bulk_reduction_into_another_ctas_shared_memory_completes_its_mbarrier)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    coalsim_analysis *an;
    ck_assert_msg(kernel_launch(k, "bulk_reduce_dsmem", (coalsim_launch){.grid = {4, 1, 1}, .block = {64, 1, 1},
                                .args = "out:1K"}, err, &an) == 0, "%s", err);
    unsigned out[256];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (unsigned i = 0; i < 256; i++) ck_assert_uint_eq(out[i], 1000 + 4 * i);
    /* one 1 KiB reduction a cluster, as the H100 counts it (gpu/results/h100/bulk_reduce) */
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_red.sum"), 2048);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_a_tensor_reduction_adds_its_box_where_the_tensor_is_and_drops_the_rest)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    /* a 72 x 10 tensor of f32, boxes of 32 x 16 at x = 0, 32, 64: the last box is clipped to 8 columns, and
     * every box to 10 rows */
    ck_assert_msg(kernel_launch(k, "tma_reduce", (coalsim_launch){.grid = {3, 1, 1}, .block = {64, 1, 1},
                                .args = "t:2880=iotaf@f32:72x10:32x16"}, err, NULL) == 0, "%s", err);
    float t[720];
    ck_assert_int_eq(coalsim_kernel_read(k, "t", 0, t, sizeof t), 0);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 72; x++) ck_assert_float_eq(t[y * 72 + x], (float)(y * 72 + x) + 1.0f + (float)(y * 32 + x % 32));
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_pending_count_reads_the_arrivals_a_state_found_waiting)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    ck_assert_msg(run_cluster(k, "mbar_pending", 1, 1, 32, 1, 1, "out:8", err) == 0, "%s", err);
    unsigned out[2];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    /* what the H100 gives (gpu/results/h100/bulk_reduce): the arrivals each found waiting */
    ck_assert_uint_eq(out[0], 4);
    ck_assert_uint_eq(out[1], 3);
    coalsim_kernel_free(k);
}
END_TEST

/* The L2 sectors of the TMA loads AN made (their global side). */
static uint64_t bulk_load_sectors(const coalsim_analysis *an)
{
    const coalsim_stats *st = coalsim_analysis_stats(an);
    uint64_t sectors = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++)
        if (coalsim_stats_get(st, i)->op == COALSIM_BULK_LD) sectors += coalsim_stats_get(st, i)->sectors;
    return sectors;
}

START_TEST(test_a_multicast_tma_load_lands_in_every_cta_of_its_mask_read_from_l2_once)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    coalsim_analysis *an;
    ck_assert_msg(kernel_launch(k, "tma_multicast", (coalsim_launch){.grid = {4, 1, 1}, .block = {128, 1, 1},
                                .args = "in:16K=iotaf@f32:32x128:32x32,out:32K"}, err, &an) == 0, "%s", err);
    float in[4096], out[8192];
    ck_assert_int_eq(coalsim_kernel_read(k, "in", 0, in, sizeof in), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < 2048; i++) ck_assert_float_eq(out[b * 2048 + i], in[b / 2 * 2048 + i]);
    /* four half boxes of 4 KiB, each read from global memory once (its requests) and counted by both CTAs
     * that receive it (ncu on the H100: gpu/results/h100/cluster) */
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"), 8 * 4096);
    ck_assert_uint_eq(kernel_metric(an, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum"), 8 * 4096);
    ck_assert_uint_eq(bulk_load_sectors(an), 4 * 4096 / 32);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

/* Run tma_producers (tests/kernels/cluster.ptx) on GRID blocks of 128 threads: N copies, P producers,
 * SHARED boxes, ONE_BAR; timed with PROF (the H100's profile, or one changed from it; NULL: untimed).
 * The analysis, finished. */
static coalsim_analysis *run_producers_with(unsigned grid, int n, int p, int shared, int one_bar,
                                            const coalsim_profile *prof)
{
    coalsim_kernel *k = load_cluster();
    char err[1024], args[160];
    snprintf(args, sizeof args, "t:256K=iotaf@f32:32x2048:32x32,out:1K,%d,%d,%d,%d", n, p, shared, one_bar);
    coalsim_analysis_cfg cfg = prof ? h100_timed_cfg() : (coalsim_analysis_cfg){.arch = arch_of("hopper")};
    if (prof) cfg.profile = prof;
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    ck_assert(a != NULL);
    coalsim_launch l = {.kernel = "tma_producers", .grid = {grid, 1, 1}, .block = {128, 1, 1}, .args = args,
                        .threads = 1};
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    coalsim_analysis_finish(a);
    float out[8];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, grid * sizeof *out), 0);
    for (unsigned b = 0; b < grid; b++) {      /* the first column of the boxes: iota's 32 * row */
        double want = 0;
        for (int i = 0; i < n; i++)
            for (int r = 0; r < 32; r++) want += 32.0 * (((shared ? 0 : (int)b) * n + i) * 32 + r);
        ck_assert_double_eq_tol(out[b], want, 1e-3 * want + 1e-3);
    }
    coalsim_kernel_free(k);
    return a;
}

static coalsim_analysis *run_producers(unsigned grid, int n, int p, int shared, int one_bar, int timed)
{
    return run_producers_with(grid, n, p, shared, one_bar, timed ? h100_timed_cfg().profile : NULL);
}

/* tma_producers' path with rounds of WINDOW bytes: N copies, P producers, ONE_BAR */
static double producers_path(coalsim_profile p, double window, int n, int np, int one_bar)
{
    p.tma_round_bytes = window;
    coalsim_analysis *a = run_producers_with(1, n, np, 0, one_bar, &p);
    double c = coalsim_analysis_exec(a)->path_cycles;
    coalsim_analysis_free(a);
    return c;
}

START_TEST(test_one_threads_tensor_copies_move_in_rounds_and_more_producers_overlap_them)
{
    /* gpu/probes/tma_pipe.cu: a producer's copies move tma_round_bytes a round (32 KB in about 500 ns on
     * the H100), whatever their mbarriers; more producers' rounds overlap.  tma_producers' boxes are
     * 4 KB: with rounds of 8 KB, 8 copies by one thread take 4 rounds where rounds of 1 MB take one,
     * on one barrier or eight alike (less the waits that overlap the later rounds); by four threads, two
     * each, one round */
    coalsim_profile p = *h100_timed_cfg().profile;
    double round = p.tma_round_ns * p.sm_clock_mhz * 1e-3;
    for (int one_bar = 0; one_bar <= 1; one_bar++) {
        double d = producers_path(p, 8192, 8, 1, one_bar) - producers_path(p, 1 << 20, 8, 1, one_bar);
        ck_assert_msg(fabs(d - 3 * round) < 0.1 * 3 * round, "one producer, %s: %.0f cycles more in rounds of 8 KB, want %.0f",
                      one_bar ? "one barrier" : "eight", d, 3 * round);
    }
    double d4 = producers_path(p, 8192, 8, 4, 0) - producers_path(p, 1 << 20, 8, 4, 0);
    ck_assert_msg(fabs(d4) < 0.05 * round, "four producers: %.0f cycles more in rounds of 8 KB, want none", d4);
}
END_TEST

START_TEST(test_ctas_of_a_merge_domain_loading_the_same_box_at_once_share_its_l2_read)
{
    /* H100, gpu/probes/runs/h100-tma: CTAs 2j and 2j+1 streaming the same boxes read half the sectors */
    const uint64_t boxes = 4 * 4096 / 32;       /* 4 boxes of 4 KiB a CTA, in sectors */
    coalsim_analysis *own = run_producers(8, 4, 1, 0, 0, 0), *same = run_producers(8, 4, 1, 1, 0, 0);
    ck_assert_uint_eq(bulk_load_sectors(own), 8 * boxes);
    ck_assert_uint_eq(bulk_load_sectors(same), 2 * boxes);     /* once a domain of four CTAs */
    /* every CTA still receives its boxes */
    ck_assert_uint_eq(kernel_metric(same, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"), 8 * 4 * 4096);
    coalsim_analysis_free(own), coalsim_analysis_free(same);
}
END_TEST

START_TEST(test_tma_merge_shares_a_read_within_a_domain_at_the_same_load_only)
{
    static tma_merge m;
    tma_merge_init(&m);
    int64_t c0[2] = {0, 0}, c1[2] = {0, 32};
    unsigned box[2] = {32, 32};
    uint64_t a = tma_merge_box(4096, 2, c0, box), b = tma_merge_box(4096, 2, c1, box);
    ck_assert_int_eq(tma_merge_shared(&m, 0, 0, a), 0);    /* block 0 reads it */
    ck_assert_int_eq(tma_merge_shared(&m, 1, 0, a), 1);    /* block 1, same domain, same load: shared */
    ck_assert_int_eq(tma_merge_shared(&m, 1, 1, a), 0);    /* the same box as another load: its own read */
    ck_assert_int_eq(tma_merge_shared(&m, 3, 0, b), 0);    /* another box */
    ck_assert_int_eq(tma_merge_shared(&m, 4, 0, a), 0);    /* block 4: the next domain */
    ck_assert_int_eq(tma_merge_shared(&m, 5, 0, a), 1);
}
END_TEST

START_TEST(test_a_cluster_that_does_not_tile_the_grid_is_an_error)
{
    coalsim_kernel *k = load_cluster();
    char err[1024];
    ck_assert_int_eq(run_cluster(k, "dsmem_ring", 6, 1, 128, 4, 1, "out:4K,count:64", err), -1);
    ck_assert_msg(strstr(err, "a cluster of 4 x 1 x 1 CTAs for a grid of 6 x 1 x 1") != NULL, "%s", err);
    ck_assert_int_eq(run_cluster(k, "dsmem_ring", 32, 1, 128, 32, 1, "out:16K,count:64", err), -1);
    ck_assert_msg(strstr(err, "at most 16 CTAs") != NULL, "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

/* ---- what the public Hopper GEMMs showed (gpu/outside/public_hopper) ---- */

/* warps 0-3 count up, then meet warps 4-7 at barrier 1 (256 threads); warp 8
 * arrives at barrier 2 (64 threads) without waiting, warp 9 waits there */
static const char named_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\t.shared .align 4 .b32 flag;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tshr.u32 %r2, %r1, 5;\n"
    "\tsetp.lt.u32 %p1, %r2, 4;\n"
    "\t@!%p1 bra CONSUMER;\n"
    "\tst.shared.u32 [flag], 7;\n"
    "\tbar.sync 1, 256;\n"
    "\tbra.uni DONE;\n"
    "CONSUMER:\n"
    "\tsetp.lt.u32 %p2, %r2, 8;\n"
    "\t@!%p2 bra PAIR;\n"
    "\tbar.sync 1, 256;\n"
    "\tld.shared.u32 %r3, [flag];\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r3;\n"
    "\tbra.uni DONE;\n"
    "PAIR:\n"
    "\tsetp.eq.u32 %p3, %r2, 8;\n"
    "\t@%p3 bar.arrive 2, 64;\n"
    "\t@!%p3 bar.sync 2, 64;\n"
    "DONE:\n"
    "\tret;\n}\n";

START_TEST(test_a_barrier_with_a_thread_count_releases_its_warps_when_that_many_arrive)
{
    coalsim_kernel *k = load_text(named_ptx, sizeof named_ptx - 1, "named.ptx");
    char err[1024];
    ck_assert_msg(run(k, "k", 1, 1, 320, 0, "out:2K", err, NULL) == 0, "%s", err);
    unsigned v[256];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, v, sizeof v), 0);
    for (int t = 128; t < 256; t++) ck_assert_uint_eq(v[t], 7);     /* the consumers saw the producers' store */
    coalsim_kernel_free(k);
}
END_TEST

/* the same label in two inline asm blocks: each block's branch stays in its block */
static const char scoped_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tmov.u32 %r1, 0;\n"
    "\t{\n\tadd.u32 %r1, %r1, 1;\n\tbra.uni DONE;\n\tadd.u32 %r1, %r1, 100;\nDONE:\n\t}\n"
    "\t{\n\tadd.u32 %r1, %r1, 10;\n\tbra.uni DONE;\n\tadd.u32 %r1, %r1, 1000;\nDONE:\n\t}\n"
    "\tst.global.u32 [%rd1], %r1;\n"
    "\tret;\n}\n";

START_TEST(test_a_label_in_an_inline_asm_block_is_that_blocks_own)
{
    coalsim_kernel *k = load_text(scoped_ptx, sizeof scoped_ptx - 1, "scoped.ptx");
    char err[1024];
    ck_assert_msg(run(k, "k", 1, 1, 32, 0, "out:64", err, NULL) == 0, "%s", err);
    unsigned v;
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, &v, 4), 0);
    ck_assert_uint_eq(v, 11);
    coalsim_kernel_free(k);
}
END_TEST

/* ---- mistakes ---- */

static const char deadlock_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
    "\t.shared .align 8 .b64 bar;\n"
    "\tmov.u32 %r1, bar;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tsetp.ne.u32 %p1, %r2, 0;\n"
    "\t@%p1 bra SKIP;\n"
    "\tmbarrier.init.shared::cta.b64 [%r1], 2;\n"
    "\tmbarrier.arrive.shared::cta.b64 _, [%r1];\n"
    "SKIP:\n"
    "\tbar.sync 0;\n"
    "WAIT:\n"
    "\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n"
    "\t@!%p2 bra WAIT;\n"
    "\tret;\n}\n";

START_TEST(test_an_mbarrier_that_never_completes_is_a_deadlock_naming_what_it_waits_for)
{
    coalsim_kernel *k = load_text(deadlock_ptx, sizeof deadlock_ptx - 1, "deadlock.ptx");
    char err[1024];
    ck_assert_int_eq(run(k, "k", 1, 1, 64, 0, "", err, NULL), -1);
    ck_assert_msg(strstr(err, "deadlock in block 0") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "waiting for 1 of 2 arrivals and 0 bytes") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "deadlock.ptx:18") != NULL, "%s", err);      /* the try_wait's line */
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_an_mbarrier_used_before_init_is_an_error)
{
    char *t = strdup(deadlock_ptx);
    char *init = strstr(t, "\tmbarrier.init");
    memset(init, ' ', strcspn(init, "\n"));       /* no init */
    coalsim_kernel *k = load_text(t, strlen(t), "noinit.ptx");
    char err[1024];
    ck_assert_int_eq(run(k, "k", 1, 1, 64, 0, "", err, NULL), -1);
    ck_assert_msg(strstr(err, "used before mbarrier.init") != NULL, "%s", err);
    coalsim_kernel_free(k);
    free(t);
}
END_TEST

START_TEST(test_a_tensor_map_that_does_not_fit_its_buffer_is_an_args_error)
{
    coalsim_kernel *k = load_hopper();
    char err[1024];
    ck_assert_int_eq(run(k, "tma_swizzle_128b", 8, 4, 256, 0, "in:100K@u32:256x200:32x64:128,out:200K,256,200", err, NULL), -1);
    ck_assert_msg(strstr(err, "does not fit its buffer 'in:100K'") != NULL, "%s", err);
    ck_assert_int_eq(run(k, "tma_swizzle_128b", 8, 4, 256, 0, "in:200K@u32:256x200:64x64:128,out:200K,256,200", err, NULL), -1);
    ck_assert_msg(strstr(err, "wider than the swizzle's span") != NULL, "%s", err);
    ck_assert_int_eq(run(k, "tma_swizzle_128b", 8, 4, 256, 0, "in:200K,out:200K,256,200", err, NULL), -1);
    ck_assert_msg(strstr(err, "takes a tensor map") != NULL, "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

Suite *make_hopper_suite(void)
{
    Suite *s = suite_create("hopper");
    TCase *core = tcase_create("Core");
    tcase_set_timeout(core, 120);
    tcase_add_test(core, test_tmap_text_round_trips_through_the_128_byte_encoding);
    tcase_add_test(core, test_swizzle_128b_moves_a_rows_16_byte_pieces_by_the_row_number);
    tcase_add_test(core, test_gmma_descriptor_reads_k_major_128b_tiles_as_tma_writes_them);
    tcase_add_test(core, test_tma_load_fills_zeros_outside_the_tensor_and_the_store_clips_at_its_edges);
    tcase_add_test(core, test_the_h100s_sass_of_each_hopper_kernel_writes_what_its_ptx_does_and_issues_the_h100s_instructions);
    tcase_add_test(core, test_the_h100s_sass_of_a_warp_specialised_pipeline_computes_the_product);
    tcase_add_test(core, test_the_h100s_sass_of_cluster_kernels_writes_what_their_ptx_does_and_issues_the_h100s_instructions);
    tcase_add_test(core, test_a_sampled_cluster_launch_on_sass_runs_whole_clusters_and_extrapolates_exactly);
    tcase_add_test(core, test_tma_swizzled_tiles_read_back_through_the_hardware_swizzle_equal_the_tensor);
    tcase_add_test(core, test_wgmma_gemms_from_tma_tiles_and_from_plain_stores_compute_the_product);
    tcase_add_test(core, test_a_warpgroups_wgmmas_hold_its_tensor_pipes_n_over_2_cycles_each_on_its_blocks_path);
    tcase_add_test(core, test_wgmma_reads_a_and_b_each_as_its_own_fp8_type);
    tcase_add_test(core, test_a_barrier_with_a_thread_count_releases_its_warps_when_that_many_arrive);
    tcase_add_test(core, test_a_label_in_an_inline_asm_block_is_that_blocks_own);
    tcase_add_test(core, test_cluster_special_registers_follow_clusters_tiling_the_grid);
    tcase_add_test(core, test_a_cta_reads_and_updates_another_ctas_shared_memory_through_mapa);
    tcase_add_test(core, test_an_arrival_from_another_cta_completes_an_mbarrier_phase);
    tcase_add_test(core, test_a_multicast_tma_load_lands_in_every_cta_of_its_mask_read_from_l2_once);
    tcase_add_test(core, test_one_threads_tensor_copies_move_in_rounds_and_more_producers_overlap_them);
    tcase_add_test(core, test_ctas_of_a_merge_domain_loading_the_same_box_at_once_share_its_l2_read);
    tcase_add_test(core, test_tma_merge_shares_a_read_within_a_domain_at_the_same_load_only);
    tcase_add_test(core, test_bulk_reductions_add_min_and_add_halves_into_global_memory_block_after_block);
    tcase_add_test(core, test_pending_count_reads_the_arrivals_a_state_found_waiting);
    tcase_add_test(core, test_a_bulk_reduction_into_another_ctas_shared_memory_completes_its_mbarrier);
    tcase_add_test(core, test_a_tensor_reduction_adds_its_box_where_the_tensor_is_and_drops_the_rest);
    suite_add_tcase(s, core);
    TCase *lim = tcase_create("Limits");
    tcase_add_test(lim, test_tmap_refuses_what_cuTensorMapEncodeTiled_refuses);
    tcase_add_test(lim, test_an_mbarrier_that_never_completes_is_a_deadlock_naming_what_it_waits_for);
    tcase_add_test(lim, test_an_mbarrier_used_before_init_is_an_error);
    tcase_add_test(lim, test_a_sass_mbarrier_that_never_completes_is_a_deadlock_naming_the_barrier);
    tcase_add_test(lim, test_a_sass_cluster_barrier_some_ctas_never_reach_is_a_deadlock_naming_it);
    tcase_add_test(lim, test_a_tensor_map_that_does_not_fit_its_buffer_is_an_args_error);
    tcase_add_test(lim, test_a_cluster_that_does_not_tile_the_grid_is_an_error);
    suite_add_tcase(s, lim);
    return s;
}
