/* The SASS front end: listings made on the H100 (gpu/results/h100/outside)
 * decode whole, run to the counts the H100's counters gave, compute what
 * the PTX interpreter computes, and fail with the listing's line. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>

#include "frontend/ptx/ptx.h"
#include "frontend/sass/sass.h"
#include "helpers.h"

#define H100 "gpu/results/h100/outside/"

static char *slurp(const char *path, size_t *len) { return read_whole_file(path, len); }

/* The module PTX (NULL: the listing alone) with the listing SASS (NULL: the PTX). */
static coalsim_kernel *load(const char *ptx, const char *sass)
{
    size_t len;
    char err[1024], *t;
    coalsim_kernel *k;
    if (ptx) {
        t = slurp(ptx, &len);
        k = coalsim_kernel_load_ptx(t, len, ptx, err, sizeof err);
        free(t);
        ck_assert_msg(k != NULL, "%s", err);
        if (sass) {
            t = slurp(sass, &len);
            int rc = coalsim_kernel_use_sass(k, t, len, sass, err, sizeof err);
            free(t);
            ck_assert_msg(rc == 0, "%s", err);
        }
    } else {
        t = slurp(sass, &len);
        k = coalsim_kernel_load_sass(t, len, sass, err, sizeof err);
        free(t);
        ck_assert_msg(k != NULL, "%s", err);
    }
    return k;
}

static int launch(coalsim_kernel *k, const char *kernel, const unsigned grid[3], const unsigned block[3], uint64_t dyn,
                  const char *args, unsigned threads, char *err, coalsim_analysis **an)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = kernel, .dynamic_shared = dyn, .args = args, .threads = threads};
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.block, block, sizeof l.block);
    int rc = coalsim_kernel_run(k, &l, a, &cfg, err, 1024);
    if (an) *an = a;
    else coalsim_analysis_free(a);
    return rc;
}

static uint64_t metric(const coalsim_analysis *an, const char *name)
{
    coalsim_report_extra ex = {.exec = coalsim_analysis_exec(an)};
    coalsim_metric m[COALSIM_MAX_METRICS];
    size_t n = coalsim_metrics(coalsim_analysis_stats(an), &ex, m);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(m[i].name, name)) return m[i].value;
    ck_abort_msg("no metric %s", name);
    return 0;
}

static const unsigned G1[3] = {1, 1, 1};

START_TEST(test_sass_every_h100_listing_decodes_with_no_unknown_instruction)
{
    DIR *d = opendir(H100 "sass");
    ck_assert_ptr_nonnull(d);
    unsigned listings = 0, funcs = 0, insts = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (!(n > 5 && !strcmp(e->d_name + n - 5, ".sass")) && !(n > 9 && !strcmp(e->d_name + n - 9, ".nvdisasm")))
            continue;
        char path[600], err[1024];
        snprintf(path, sizeof path, H100 "sass/%s", e->d_name);
        size_t len;
        char *t = slurp(path, &len);
        sass_listing *l = sass_parse(t, len, path, err, sizeof err);
        free(t);
        ck_assert_msg(l != NULL, "%s", err);
        for (unsigned f = 0; f < l->nfuncs; f++) {
            sprog p;
            ck_assert_msg(sass_prog_build(&p, l, (int)f, err, sizeof err) == 0, "%s", err);
            for (uint32_t i = 0; i < p.ncode; i++)
                ck_assert_msg(p.code[i].kind != SK_UNSUPPORTED, "%s:%u: %s: %s", path, p.code[i].line, p.code[i].text,
                              p.code[i].why ? p.code[i].why : "unsupported");
            insts += p.ncode;
            sass_prog_free(&p);
            funcs++;
        }
        sass_listing_free(l);
        listings++;
    }
    closedir(d);
    ck_assert_uint_ge(listings, 40);
    ck_assert_uint_ge(funcs, 180);
    ck_assert_uint_ge(insts, 20000);
}
END_TEST

START_TEST(test_sass_saxpy_counts_equal_the_h100s)
{
    /* gpu/results/h100/outside/counters.txt, saxpy_count */
    coalsim_kernel *k = load(H100 "ptx/saxpy.ptx", H100 "sass/saxpy.nvdisasm");
    coalsim_analysis *an;
    char err[1024];
    unsigned g[3] = {256, 1, 1}, b[3] = {256, 1, 1};
    ck_assert_msg(launch(k, "saxpy", g, b, 0, "65536,2.0,X:256K=random:1,Y:256K=random:2", 2, err, &an) == 0, "%s", err);
    ck_assert_uint_eq(metric(an, "smsp__inst_executed.sum"), 38912);
    ck_assert_uint_eq(metric(an, "smsp__thread_inst_executed.sum"), 1245184);
    ck_assert_uint_eq(metric(an, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 16384);
    ck_assert_uint_eq(metric(an, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 8192);
    ck_assert_str_eq(coalsim_analysis_exec(an)->isa, "SASS");
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_reduction_counts_equal_the_h100s_with_predicated_loads_issued)
{
    /* red6_count: the shuffle reduction; every warp issues the predicated
     * shared loads, as the H100 counted */
    coalsim_kernel *k = load(H100 "ptx/reduction.ptx", H100 "sass/reduction.nvdisasm");
    coalsim_analysis *an;
    char err[1024];
    unsigned g[3] = {64, 1, 1}, b[3] = {256, 1, 1};
    ck_assert_msg(launch(k, "reduce6<int,256u,true>", g, b, 1024, "I:256K=randint:11:1000,O:256=zero,65536", 2, err,
                         &an) == 0, "%s", err);
    ck_assert_uint_eq(metric(an, "smsp__inst_executed.sum"), 35968);
    ck_assert_uint_eq(metric(an, "smsp__thread_inst_executed.sum"), 1143040);
    ck_assert_uint_eq(metric(an, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8192);
    ck_assert_uint_eq(metric(an, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 448);
    coalsim_analysis_free(an);
    /* and the sums are the sums */
    int out[64], in[65536];
    ck_assert_int_eq(coalsim_kernel_read(k, "O", 0, out, sizeof out), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "I", 0, in, sizeof in), 0);
    /* block b sums [512 b, 512 b + 512) and the same a grid (32768) on */
    for (int blk = 0; blk < 64; blk++) {
        int sum = 0;
        for (int i = blk * 512; i < blk * 512 + 512; i++) sum += in[i] + in[i + 32768];
        ck_assert_int_eq(out[blk], sum);
    }
    coalsim_kernel_free(k);
}
END_TEST

/* Run LAUNCH on the PTX and on the SASS: every byte of buffer BUF the same. */
static void same_result(const char *unit, const char *kernel, const unsigned g[3], const unsigned b[3], uint64_t dyn,
                        const char *args, const char *buf, size_t bytes)
{
    char ptx[256], sass[256], err[1024];
    snprintf(ptx, sizeof ptx, H100 "ptx/%s.ptx", unit);
    snprintf(sass, sizeof sass, H100 "sass/%s.nvdisasm", unit);
    unsigned char *want = malloc(bytes), *got = malloc(bytes);
    coalsim_kernel *k = load(ptx, NULL);
    ck_assert_msg(launch(k, kernel, g, b, dyn, args, 2, err, NULL) == 0, "PTX: %s", err);
    ck_assert_int_eq(coalsim_kernel_read(k, buf, 0, want, bytes), 0);
    coalsim_kernel_free(k);
    k = load(ptx, sass);
    ck_assert_msg(launch(k, kernel, g, b, dyn, args, 2, err, NULL) == 0, "SASS: %s", err);
    ck_assert_int_eq(coalsim_kernel_read(k, buf, 0, got, bytes), 0);
    coalsim_kernel_free(k);
    for (size_t i = 0; i < bytes; i++) ck_assert_msg(want[i] == got[i], "%s %s: byte %zu differs", unit, kernel, i);
    free(want);
    free(got);
}

START_TEST(test_sass_kernels_compute_what_the_ptx_computes)
{
    unsigned g44[3] = {4, 4, 1}, b1024[3] = {1024, 1, 1};
    same_result("sgemm", "sgemm_global_mem_coalesce", g44, b1024, 0,
                "128,128,128,0.5,A:64K=random:1,B:64K=random:2,3.0,C:64K=random:3", "C", 65536);
    unsigned g88[3] = {8, 8, 1}, b3216[3] = {32, 16, 1};
    same_result("transpose", "transposeCoalesced", g88, b3216, 0, "O:256K=zero,I:256K=random:1,256,256", "O", 262144);
    unsigned g1616[3] = {16, 16, 1}, b324[3] = {32, 4, 1};
    /* shared-memory atomics (ATOMS.POPC.INC) */
    same_result("histogram", "histogram_smem_atomics", g1616, b324, 0, "IMG:1M=random:1,256,256,P:1M=zero", "P", 1 << 20);
    /* an integer division by blockDim.y (I2F.U32.RP, MUFU.RCP, IMAD.HI with a 64-bit addend) */
    same_result("seeds", "rectSetColReadCol", G1, b3216, 0, "OUT:4K=zero", "OUT", 2048);
}
END_TEST

START_TEST(test_sass_listing_alone_takes_parameters_from_mangled_names)
{
    char err[1024];
    unsigned g[3] = {4, 1, 1}, b[3] = {64, 1, 1};
    coalsim_analysis *a1, *a2;
    coalsim_kernel *k = load(NULL, H100 "sass/saxpy.sass");
    ck_assert_msg(launch(k, "saxpy", g, b, 0, "256,2.0,X:1K=random:1,Y:1K=random:2", 1, err, &a1) == 0, "%s", err);
    float y[256];
    ck_assert_int_eq(coalsim_kernel_read(k, "Y", 0, y, sizeof y), 0);
    coalsim_kernel_free(k);
    /* the nvdisasm listing with the PTX: the same counts and result */
    k = load(H100 "ptx/saxpy.ptx", H100 "sass/saxpy.nvdisasm");
    ck_assert_msg(launch(k, "saxpy", g, b, 0, "256,2.0,X:1K=random:1,Y:1K=random:2", 2, err, &a2) == 0, "%s", err);
    float y2[256];
    ck_assert_int_eq(coalsim_kernel_read(k, "Y", 0, y2, sizeof y2), 0);
    ck_assert_int_eq(memcmp(y, y2, sizeof y), 0);
    ck_assert_uint_eq(metric(a1, "smsp__inst_executed.sum"), metric(a2, "smsp__inst_executed.sum"));
    ck_assert_uint_eq(metric(a1, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                      metric(a2, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    coalsim_analysis_free(a1);
    coalsim_analysis_free(a2);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_source_view_counts_add_up_to_the_totals)
{
    char err[1024];
    unsigned g[3] = {64, 1, 1}, b[3] = {256, 1, 1};
    coalsim_analysis *an;
    coalsim_kernel *k = load(H100 "ptx/reduction.ptx", H100 "sass/reduction.nvdisasm");
    ck_assert_msg(launch(k, "reduce6<int,256u,false>", g, b, 1024, "I:256K=randint:11:1000,O:256=zero,65000", 2, err,
                         &an) == 0, "%s", err);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    ck_assert_ptr_nonnull(e->insts);
    uint64_t warp = 0, thread = 0, lines = 0;
    for (size_t i = 0; i < e->ninsts; i++) {
        warp += e->insts[i].executed;
        thread += e->insts[i].threads;
        lines += e->insts[i].src_line != 0;
        ck_assert_ptr_nonnull(e->insts[i].text);
    }
    ck_assert_uint_eq(warp, e->inst_executed);
    ck_assert_uint_eq(thread, e->thread_inst_executed);
    ck_assert_uint_gt(lines, e->ninsts / 2);        /* nvdisasm -g gave most instructions a line */
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_workers_do_not_change_the_counts)
{
    char err[1024];
    unsigned g[3] = {16, 16, 1}, b[3] = {32, 4, 1};
    coalsim_analysis *a1, *a2;
    coalsim_kernel *k = load(H100 "ptx/histogram.ptx", H100 "sass/histogram.nvdisasm");
    ck_assert_msg(launch(k, "histogram_gmem_atomics", g, b, 0, "IMG:1M=random:1,256,256,P:1M=zero", 1, err, &a1) == 0,
                  "%s", err);
    ck_assert_msg(launch(k, "histogram_gmem_atomics", g, b, 0, "IMG:1M=random:1,256,256,P:1M=zero", 2, err, &a2) == 0,
                  "%s", err);
    const char *names[] = {"smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"};
    for (int i = 0; i < 3; i++) ck_assert_uint_eq(metric(a1, names[i]), metric(a2, names[i]));
    coalsim_analysis_free(a1);
    coalsim_analysis_free(a2);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_device_variable_address_is_an_error_naming_bank_4)
{
    /* jacobi's initialize_boundaries reads a __device__ table whose address
     * the driver puts in constant bank 4 */
    char err[1024];
    unsigned g[3] = {3, 1, 1}, b[3] = {128, 1, 1};
    coalsim_kernel *k = load(H100 "ptx/jacobi.ptx", H100 "sass/jacobi.nvdisasm");
    ck_assert_int_ne(launch(k, "initialize_boundaries", g, b, 0, "AN:256K=zero,A:256K=zero,3.14159265,256,256", 1, err,
                            NULL), 0);
    ck_assert_msg(strstr(err, "constant bank 4") && strstr(err, "jacobi.nvdisasm:"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_struct_parameter_without_module_is_an_error)
{
    const char *listing = "\tcode for sm_90\n\t\tFunction : _Z1k4Pair\n        /*0000*/                   EXIT ;\n";
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_sass(listing, strlen(listing), "pair.sass", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    ck_assert_int_ne(launch(k, "k", G1, G1, 0, "1", 1, err, NULL), 0);
    ck_assert_msg(strstr(err, "how big a Pair is") && strstr(err, "--ptx"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

/* Full listings (nvdisasm -g without -c, gpu/results/h100/outside/sass_full):
 * the constant banks' sections and bank 4's symbols */
START_TEST(test_sass_full_listing_gives_constant_banks_and_symbols)
{
    char err[1024];
    const char *full = H100 "sass_full/";
    /* sm_80 keeps the double 0.4 in constant bank 2: B = 0.4 C */
    {
        char path[256];
        snprintf(path, sizeof path, "%sbabelstream_sm_80.sass", full);
        coalsim_kernel *k = load(H100 "ptx/babelstream.ptx", path);
        unsigned g[3] = {32, 1, 1}, b[3] = {1024, 1, 1};
        ck_assert_msg(launch(k, "mul_kernel", g, b, 0, "B:256K=zero,C:256K=random:3", 2, err, NULL) == 0, "%s", err);
        double bb[64], cc[64];
        ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, bb, sizeof bb), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "C", 0, cc, sizeof cc), 0);
        for (int i = 0; i < 64; i++) ck_assert(bb[i] == 0.4 * cc[i]);
        coalsim_kernel_free(k);
    }
    /* __constant__ data from the listing's .nv.constant3, no module: the
     * H100's instruction count (conv_rows_count) */
    {
        char path[256];
        snprintf(path, sizeof path, "%sconvolution_sm_90.sass", full);
        coalsim_kernel *k = load(NULL, path);
        coalsim_analysis *an;
        unsigned g[3] = {2, 64, 1}, b[3] = {16, 4, 1};
        ck_assert_msg(launch(k, "convolutionRowsKernel", g, b, 0, "D:256K=zero,S:256K=random:1,256,256,256", 2, err,
                             &an) == 0, "%s", err);
        ck_assert_uint_eq(metric(an, "smsp__inst_executed.sum"), 85248);
        coalsim_analysis_free(an);
        coalsim_kernel_free(k);
    }
    /* bank 4: __cudart_sin_cos_coeffs is the module's table, found by name */
    {
        char path[256];
        snprintf(path, sizeof path, "%sjacobi_sm_80.sass", full);
        unsigned g[3] = {3, 1, 1}, b[3] = {128, 1, 1};
        const char *args = "AN:256K=zero,A:256K=zero,3.14159265,256,256";
        coalsim_kernel *k = load(NULL, path);
        ck_assert_int_ne(launch(k, "initialize_boundaries", g, b, 0, args, 1, err, NULL), 0);
        ck_assert_msg(strstr(err, "__cudart_sin_cos_coeffs") && strstr(err, "--ptx"), "%s", err);
        coalsim_kernel_free(k);
        float want[2048], got[2048];
        k = load(H100 "ptx/jacobi.ptx", NULL);
        ck_assert_msg(launch(k, "initialize_boundaries", g, b, 0, args, 1, err, NULL) == 0, "%s", err);
        ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, want, sizeof want), 0);
        coalsim_kernel_free(k);
        k = load(H100 "ptx/jacobi.ptx", path);
        ck_assert_msg(launch(k, "initialize_boundaries", g, b, 0, args, 1, err, NULL) == 0, "%s", err);
        ck_assert_int_eq(coalsim_kernel_read(k, "A", 0, got, sizeof got), 0);
        ck_assert_int_eq(memcmp(want, got, sizeof want), 0);
        coalsim_kernel_free(k);
    }
}
END_TEST

/* ---- the time model's view: pipes, the critical path ---- */

/* A launch of the H100 profile's time model (hier, profile, limits). */
static coalsim_analysis *timed(coalsim_kernel *k, const char *kernel, unsigned grid, unsigned block, const char *args,
                               unsigned regs, coalsim_profile *p)
{
    char err[1024];
    FILE *fp = fopen("gpu/profiles/h100.txt", "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(coalsim_profile_read(fp, "h100.txt", p, err, sizeof err), 0);
    fclose(fp);
    static coalsim_hier_cfg h;
    static coalsim_sm_limits lim;
    coalsim_hier_preset("hopper", &h);
    coalsim_sm_limits_preset("hopper", &lim);
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper"), .hier = &h, .profile = p, .limits = &lim};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = kernel, .grid = {grid, 1, 1}, .block = {block, 1, 1}, .args = args, .threads = 2,
                        .regs = regs, .regs_from = regs ? "--regs" : NULL};
    ck_assert_msg(coalsim_kernel_run(k, &l, an, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(an), 0);
    return an;
}

static coalsim_kernel *listing(const char *text)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_sass(text, strlen(text), "t.sass", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    return k;
}

START_TEST(test_sass_mbarrier_arrive_returns_the_phase_it_arrived_in_where_trywait_reads_it)
{
    /* two warps, an mbarrier of 64 (SYNCS.EXCH.64 of the GPU's initial word for 64), two rounds of
     * arrive and wait on the arrive's own state (as libcu++'s cuda::barrier does): the state's high
     * word has the phase at bit 31, 0 in the first round and 1 in the second */
    static const char text[] =
        "\tcode for sm_90\n\t\tFunction : _Z3barPj\n"
        "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
        "        /*0000*/                   S2R R0, SR_TID.X ;\n"
        "        /*0010*/                   UMOV UR4, 0x400 ;\n"
        "        /*0020*/                   UMOV UR6, 0x1fff80 ;\n"
        "        /*0030*/                   UMOV UR7, 0x7ffe0000 ;\n"
        "        /*0040*/                   SYNCS.EXCH.64 URZ, [UR4], UR6 ;\n"
        "        /*0050*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*0060*/                   MOV R3, 0x12345 ;\n"
        "        /*0070*/                   SYNCS.ARRIVE.TRANS64.A1T0 R2, [UR4], RZ ;\n"
        "        /*0080*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R3 ;\n"
        "        /*0090*/                   MOV R8, R3 ;\n"
        "        /*00a0*/                   SYNCS.ARRIVE.TRANS64.A1T0 R2, [UR4], RZ ;\n"
        "        /*00b0*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R3 ;\n"
        "        /*00c0*/                   LDC.64 R4, c[0x0][0x210] ;\n"
        "        /*00d0*/                   ULDC.64 UR8, c[0x0][0x208] ;\n"
        "        /*00e0*/                   IMAD.WIDE.U32 R4, R0, 0x8, R4 ;\n"
        "        /*00f0*/                   STG.E desc[UR8][R4.64], R8 ;\n"
        "        /*0100*/                   STG.E desc[UR8][R4.64+0x4], R3 ;\n"
        "        /*0110*/                   EXIT ;\n"
        "        /*0120*/                   BRA 0x120;\n\t\t..........\n";
    coalsim_kernel *k = listing(text);
    char err[1024];
    unsigned g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    ck_assert_msg(launch(k, "bar", g, b, 16, "P:512", 1, err, NULL) == 0, "%s", err);
    uint32_t w[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "P", 0, w, sizeof w), 0);
    for (unsigned t = 0; t < 64; t++) {
        ck_assert_uint_eq(w[2 * t], 0);
        ck_assert_uint_eq(w[2 * t + 1], 0x80000000u);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_pipe_counts_of_the_hand_listing_are_exact)
{
    /* tests/cli/sass_hand.sass's hand with n = 1000 (no lane equal: the
     * branch over the IADD3 taken): LDC, S2R, LDC.64, ULDC, ISETP, ULDC.64,
     * IMAD.WIDE.U32, BRA, STG, EXIT, a warp each of two blocks */
    coalsim_kernel *k = load(NULL, "tests/cli/sass_hand.sass");
    coalsim_profile p;
    coalsim_analysis *an = timed(k, "hand", 2, 32, "P:256,1000", 32, &p);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    ck_assert_uint_eq(e->inst_executed, 20);
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_CBU], 10);       /* LDC, S2R, LDC.64, BRA, EXIT */
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_UNIFORM], 4);    /* ULDC, ULDC.64 */
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_ALU], 2);        /* ISETP */
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_FMAHEAVY], 2);   /* IMAD.WIDE.U32 */
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_LSU], 2);        /* STG */
    double all = 0;
    for (int i = 0; i < COALSIM_PIPES; i++) all += e->pipe_inst[i];
    ck_assert_double_eq(all, 20);
    ck_assert_uint_eq(e->path_blocks, 2);
    ck_assert_str_eq(e->regs_from, "--regs");
    ck_assert_uint_eq(e->block_threads, 32);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

/* FlashAttention's softmax on sm_90 (LeetCUDA's kernels): HMNMX2, a half
 * pair's max (!PT) or min (PT), and HADD2.F32 d, -RZ, a.H1_H1, ptxas's
 * half-to-float conversion: one f32 from the low halves' sum */
/* ptxas's loop for a shared float atomicAdd (every thread of the block adds 1 to one word): ATOMS.CAST.SPIN
 * writes 1 where the lane stored and 0 where it goes again, which the loop tests (before, the old value went
 * there and the loop never ended); its passes are the PTX interpreter's for the same kernel (lanes a word and a
 * bank a pass, other warps' stores failing some: caswords.h). */
START_TEST(test_sass_shared_float_add_loop_ends_with_the_sum_and_the_ptx_paths_passes)
{
    static const char text[] =
        "\tcode for sm_90\n\t\tFunction : _Z3addPf\n"
        "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
        "        /*0010*/                   S2R R0, SR_TID.X ;\n"
        "        /*0020*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;\n"
        "        /*0030*/              @!P0 STS [0x400], RZ ;\n"
        "        /*0040*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*0050*/                   MOV R3, 0x400 ;\n"
        "        /*0060*/                   BSSY B0, 0xc0 ;\n"
        "        /*0070*/                   LDS R6, [R3] ;\n"
        "        /*0080*/                   FADD R7, R6, 1 ;\n"
        "        /*0090*/                   ATOMS.CAST.SPIN R7, [R3], R6, R7 ;\n"
        "        /*00a0*/                   ISETP.EQ.U32.AND P1, PT, R7, 0x1, PT ;\n"
        "        /*00b0*/              @!P1 BRA 0x70 ;\n"
        "        /*00c0*/                   BSYNC B0 ;\n"
        "        /*00d0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*00e0*/               @P0 EXIT ;\n"
        "        /*00f0*/                   LDS R5, [0x400] ;\n"
        "        /*0100*/                   LDC.64 R2, c[0x0][0x210] ;\n"
        "        /*0110*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
        "        /*0120*/                   STG.E desc[UR4][R2.64], R5 ;\n"
        "        /*0130*/                   EXIT ;\n"
        "        /*0140*/                   BRA 0x140;\n\t\t..........\n";
    coalsim_kernel *k = listing(text), *ptx = load("tests/kernels/shared_fadd.ptx", NULL);
    char err[1024];
    static const unsigned blocks[] = {32, 64, 256, 1024};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        unsigned b[3] = {blocks[i], 1, 1};
        coalsim_analysis *sa, *pa;
        ck_assert_msg(launch(k, "add", G1, b, 0, "P:4=zero", 1, err, &sa) == 0, "%s", err);
        float sum;
        ck_assert_int_eq(coalsim_kernel_read(k, "P", 0, &sum, 4), 0);
        ck_assert_float_eq(sum, (float)blocks[i]);
        ck_assert_msg(launch(ptx, "one_word", G1, b, 0, "O:4K=zero,P:4K=zero", 1, err, &pa) == 0, "%s", err);
        uint64_t s = metric(sa, "smsp__inst_executed_op_shared_atom.sum"),
                 p = metric(pa, "smsp__inst_executed_op_shared_atom.sum");
        ck_assert_uint_eq(s, p);
        if (blocks[i] == 32) ck_assert_uint_eq(s, 32);           /* one warp: a lane a pass, none fails */
        else ck_assert_uint_gt(s, blocks[i]);                    /* other warps' stores fail some */
        coalsim_analysis_free(sa);
        coalsim_analysis_free(pa);
    }
    coalsim_kernel_free(k);
    coalsim_kernel_free(ptx);
}
END_TEST

START_TEST(test_sass_half_pair_max_and_half_to_float_add_compute_their_values)
{
    static const char text[] =
        "\tcode for sm_90\n\t\tFunction : _Z4halfPj\n"
        "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
        "        /*0010*/                   S2R R0, SR_TID.X ;\n"
        "        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;\n"
        "        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
        "        /*0040*/                   IMAD.WIDE.U32 R2, R0, 0x10, R2 ;\n"
        "        /*0050*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
        "        /*0060*/                   HMNMX2 R5, R4.H0_H0, R4.H1_H1, !PT ;\n"
        "        /*0070*/                   HMNMX2 R7, R4, R4.H1_H1, PT ;\n"
        "        /*0080*/                   HADD2.F32 R6, -RZ, R4.H1_H1 ;\n"
        "        /*0090*/                   STG.E desc[UR4][R2.64+0x4], R5 ;\n"
        "        /*00a0*/                   STG.E desc[UR4][R2.64+0x8], R6 ;\n"
        "        /*00b0*/                   STG.E desc[UR4][R2.64+0xc], R7 ;\n"
        "        /*00c0*/                   EXIT ;\n"
        "        /*00d0*/                   BRA 0xd0;\n\t\t..........\n";
    coalsim_kernel *k = listing(text);
    char err[1024];
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    ck_assert_msg(launch(k, "half", g, b, 0, "P:512=randomh:5", 1, err, NULL) == 0, "%s", err);
    uint32_t w[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "P", 0, w, sizeof w), 0);
    for (unsigned l = 0; l < 32; l++) {
        uint16_t lo = (uint16_t)w[4 * l], hi = (uint16_t)(w[4 * l] >> 16);
        float flo = ptx_half_to_float(lo), fhi = ptx_half_to_float(hi);
        uint16_t mx = flo > fhi ? lo : hi, mn = flo < fhi ? lo : hi;
        ck_assert_uint_eq(w[4 * l + 1], (uint32_t)mx << 16 | mx);
        float f;
        memcpy(&f, &w[4 * l + 2], 4);
        ck_assert_float_eq(f, fhi);
        ck_assert_uint_eq(w[4 * l + 3], (uint32_t)hi << 16 | mn);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_every_decoded_opcode_has_a_pipe)
{
    /* an opcode the table does not know would count as ALU: none of those
     * the interpreter runs may be one */
    const sop_entry *tabs[] = {sass_ops_int, sass_ops_float, sass_ops_mem, sass_ops_misc};
    unsigned n = 0, unknown = 0;
    for (size_t t = 0; t < 4; t++)
        for (const sop_entry *e = tabs[t]; e->name; e++, n++) {
            unsigned pipe;
            int lat;
            if (!sass_pipe_of(e->name, &pipe, &lat)) {
                fprintf(stderr, "no pipe for %s\n", e->name);
                unknown++;
            }
        }
    ck_assert_uint_gt(n, 90);
    ck_assert_uint_eq(unknown, 0);
    unsigned pipe;
    int lat;
    ck_assert_int_eq(sass_pipe_of("FOO.BAR", &pipe, &lat), 0);
    ck_assert_uint_eq(pipe, COALSIM_PIPE_ALU);
    /* Hopper's moves and shifts by IMAD: the FMA pipe; multiplies: FMA heavy */
    ck_assert_int_eq(sass_pipe_of("IMAD.MOV.U32", &pipe, &lat), 1);
    ck_assert_uint_eq(pipe, COALSIM_PIPE_FMA);
    ck_assert_int_eq(sass_pipe_of("IMAD.WIDE.U32", &pipe, &lat), 1);
    ck_assert_uint_eq(pipe, COALSIM_PIPE_FMAHEAVY);
    /* half pairs: FMA heavy (1.95 a SM-cycle on the H100), HFMA2.MMA the FMA pipe's
     * other half (gpu/probes/half_pipe.cu) */
    ck_assert_int_eq(sass_pipe_of("HFMA2", &pipe, &lat), 1);
    ck_assert_uint_eq(pipe, COALSIM_PIPE_FMAHEAVY);
    ck_assert_int_eq(sass_pipe_of("HFMA2.MMA", &pipe, &lat), 1);
    ck_assert_uint_eq(pipe, COALSIM_PIPE_FMA);
    ck_assert_int_eq(sass_pipe_of("LDG.E.128", &pipe, &lat), 1);
    ck_assert_int_eq(lat, SASS_LAT_LOAD);
}
END_TEST

#define CHAIN_HEAD "\tcode for sm_90\n\t\tFunction : _Z5chainPi\n"
#define DEP(a) "        /*" a "*/                   FFMA R2, R2, R2, R2 ;\n"
#define IND(a, r) "        /*" a "*/                   FFMA " r ", R4, R4, R4 ;\n"
#define CHAIN_TAIL                                                            \
    "        /*0080*/                   FMUL R3, R2, R2 ;\n"                  \
    "        /*0090*/                   EXIT ;\n"

START_TEST(test_sass_dependent_chain_path_is_n_times_the_latency)
{
    static const char dep[] = CHAIN_HEAD DEP("0000") DEP("0010") DEP("0020") DEP("0030") DEP("0040") DEP("0050")
        DEP("0060") DEP("0070") CHAIN_TAIL;
    static const char ind[] = CHAIN_HEAD IND("0000", "R2") IND("0010", "R5") IND("0020", "R6") IND("0030", "R7")
        IND("0040", "R8") IND("0050", "R9") IND("0060", "R10") IND("0070", "R11") CHAIN_TAIL;
    coalsim_profile p;
    coalsim_kernel *k = listing(dep);
    coalsim_analysis *an = timed(k, "chain", 1, 32, "P:128", 32, &p);
    double lat = (double)(uint64_t)(coalsim_lat_cycles(&p, COALSIM_LAT_FMA) + 0.5);
    ck_assert_double_gt(lat, 1);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    /* eight FFMAs a latency apart, the FMUL a latency after the last, then
     * EXIT: 8 latencies and the FMUL's and EXIT's issue */
    ck_assert_uint_eq(e->path_blocks, 1);
    ck_assert_double_eq(e->path_cycles, 8 * lat + 2);
    ck_assert_double_eq(e->path_loads, 0);
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_FMA], 9);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
    /* independent: one a cycle, the FMUL waits for the first */
    k = listing(ind);
    an = timed(k, "chain", 1, 32, "P:128", 32, &p);
    ck_assert_double_eq(coalsim_analysis_exec(an)->path_cycles, 10);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_path_counts_global_loads_apart_and_barriers_wait_for_the_last_warp)
{
    /* warp 0 loads and uses the value; the barrier waits for it; the loads
     * on the path are counted, their latency left out */
    static const char text[] = "\tcode for sm_90\n\t\tFunction : _Z4loadPi\n"
        "        /*0000*/                   S2R R0, SR_TID.X ;\n"
        "        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;\n"
        "        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
        "        /*0030*/                   IMAD.WIDE.U32 R2, R0, 0x4, R2 ;\n"
        "        /*0040*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
        "        /*0050*/                   IADD3 R4, R4, 0x1, RZ ;\n"
        "        /*0060*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*0070*/                   STG.E desc[UR4][R2.64], R4 ;\n"
        "        /*0080*/                   EXIT ;\n";
    coalsim_profile p;
    coalsim_kernel *k = listing(text);
    coalsim_analysis *an = timed(k, "load", 1, 64, "P:256", 32, &p);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    ck_assert_double_eq(e->path_loads, 1);
    ck_assert_double_gt(e->path_cycles, coalsim_lat_cycles(&p, COALSIM_LAT_BAR));
    ck_assert_double_lt(e->path_cycles, COALSIM_PATH_LOAD_CYCLES);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_time_of_a_kernel_with_a_profile_is_modelled)
{
    coalsim_kernel *k = load(H100 "ptx/sgemm.ptx", H100 "sass/sgemm.nvdisasm");
    coalsim_profile p;
    char err[1024];
    FILE *fp = fopen("gpu/profiles/h100.txt", "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(coalsim_profile_read(fp, "h100.txt", &p, err, sizeof err), 0);
    fclose(fp);
    coalsim_hier_cfg h;
    coalsim_sm_limits lim;
    coalsim_hier_preset("hopper", &h);
    coalsim_sm_limits_preset("hopper", &lim);
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper"), .hier = &h, .profile = &p, .limits = &lim};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = "sgemm_naive", .grid = {4, 4, 1}, .block = {32, 32, 1}, .threads = 2, .regs = 32,
                        .regs_from = "--regs",
                        .args = "128,128,128,0.5,A:64K=random:1,B:64K=random:2,3.0,C:64K=random:3"};
    ck_assert_msg(coalsim_kernel_run(k, &l, an, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(an), 0);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    const coalsim_time *t = coalsim_analysis_time(an);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->exec_modelled, 1);
    ck_assert_uint_eq(e->path_blocks, 16);
    /* what ncu counted on the H100 (counters.txt, sgemm1_count): pipe_alu
     * exactly; pipe_fma (IMAD's heavy half too) within the HFMA2.MMA a warp */
    ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_ALU], 138240);
    double fma = e->pipe_inst[COALSIM_PIPE_FMA] + e->pipe_inst[COALSIM_PIPE_FMAHEAVY];
    ck_assert_double_le(fabs(fma - 232960), 512);
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_sass_full_listing_gives_its_registers)
{
    /* nvdisasm without -c prints .sectioninfo @"SHI_REGISTERS=10": it wins
     * over the launch's --regs */
    coalsim_kernel *k = load(NULL, H100 "sass_sm80/saxpy.nvdisasm");
    coalsim_profile p;
    coalsim_analysis *an = timed(k, "saxpy", 4, 64, "256,2.0,X:1K=random:1,Y:1K=random:2", 32, &p);
    const coalsim_exec *e = coalsim_analysis_exec(an);
    ck_assert_uint_eq(e->regs, 10);
    ck_assert_str_eq(e->regs_from, "listing");
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
}
END_TEST

Suite *make_sass_suite(void)
{
    Suite *s = suite_create("sass");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sass_every_h100_listing_decodes_with_no_unknown_instruction);
    tcase_add_test(tc, test_sass_saxpy_counts_equal_the_h100s);
    tcase_add_test(tc, test_sass_reduction_counts_equal_the_h100s_with_predicated_loads_issued);
    tcase_add_test(tc, test_sass_kernels_compute_what_the_ptx_computes);
    tcase_add_test(tc, test_sass_listing_alone_takes_parameters_from_mangled_names);
    tcase_add_test(tc, test_sass_source_view_counts_add_up_to_the_totals);
    tcase_add_test(tc, test_sass_workers_do_not_change_the_counts);
    tcase_add_test(tc, test_sass_device_variable_address_is_an_error_naming_bank_4);
    tcase_add_test(tc, test_sass_struct_parameter_without_module_is_an_error);
    tcase_add_test(tc, test_sass_full_listing_gives_constant_banks_and_symbols);
    tcase_add_test(tc, test_sass_pipe_counts_of_the_hand_listing_are_exact);
    tcase_add_test(tc, test_sass_every_decoded_opcode_has_a_pipe);
    tcase_add_test(tc, test_sass_half_pair_max_and_half_to_float_add_compute_their_values);
    tcase_add_test(tc, test_sass_shared_float_add_loop_ends_with_the_sum_and_the_ptx_paths_passes);
    tcase_add_test(tc, test_sass_dependent_chain_path_is_n_times_the_latency);
    tcase_add_test(tc, test_sass_path_counts_global_loads_apart_and_barriers_wait_for_the_last_warp);
    tcase_add_test(tc, test_sass_time_of_a_kernel_with_a_profile_is_modelled);
    tcase_add_test(tc, test_sass_full_listing_gives_its_registers);
    tcase_add_test(tc, test_sass_mbarrier_arrive_returns_the_phase_it_arrived_in_where_trywait_reads_it);
    suite_add_tcase(s, tc);
    return s;
}
