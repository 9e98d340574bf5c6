/* The kernel front end: kernels compute what they compute on a GPU (checked
 * against C references), count what they execute, and fail as a GPU fails,
 * with the PTX line and the source line. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>

#include "frontend/kernel/kmem.h"
#include "frontend/ptx/ptx.h"
#include "frontend/smport.h"
#include "helpers.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *t = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(t, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    t[n] = '\0';
    *len = (size_t)n;
    return t;
}

static coalsim_kernel *load(const char *path)
{
    size_t len;
    char *t = slurp(path, &len), err[512];
    coalsim_kernel *k = coalsim_kernel_load_ptx(t, len, path, err, sizeof err);
    free(t);
    ck_assert_msg(k != NULL, "%s", err);
    return k;
}

/* Run KERNEL of K; 0 or -1 with the message in ERR.  *AN (if given) gets the analysis. */
static int launch(coalsim_kernel *k, const char *kernel, unsigned gx, unsigned gy, unsigned bx, unsigned by,
                  uint64_t dyn, const char *args, unsigned threads, char *err, coalsim_analysis **an)
{
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = kernel, .grid = {gx, gy, 1}, .block = {bx, by, 1}, .dynamic_shared = dyn,
                        .args = args, .threads = threads};
    int rc = coalsim_kernel_run(k, &l, a, &cfg, err, 1024);
    if (an) *an = a;
    else coalsim_analysis_free(a);
    return rc;
}

static float fill_float(const char *fill, uint64_t i)
{
    kfill f;
    char err[128];
    ck_assert_int_eq(kfill_parse(fill, &f, err, sizeof err), 0);
    uint32_t u = kfill_word(&f, i);
    float v;
    memcpy(&v, &u, 4);
    return v;
}

START_TEST(test_kernel_transpose_writes_the_transpose)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "transpose1<false>", 2, 2, 32, 32, 0, "A:16K=iotaf,B:16K,64", 2, err, NULL) == 0, "%s", err);
    float b[64 * 64];
    ck_assert_int_eq(coalsim_kernel_read(k, "B", 0, b, sizeof b), 0);
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 64; c++) ck_assert_float_eq(b[c * 64 + r], (float)(r * 64 + c));
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_shared_memory_reduction_sums_each_block)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    /* reduceSmem: 8 blocks of 128 ints each, summed in shared memory with
     * divergent branches and warp-synchronous volatile steps */
    ck_assert_msg(launch(k, "reduceSmem", 8, 1, 128, 1, 0, "g:4096=randint:7:201,o:32,1024", 2, err, NULL) == 0,
                  "%s", err);
    int o[8];
    ck_assert_int_eq(coalsim_kernel_read(k, "o", 0, o, sizeof o), 0);
    kfill f;
    ck_assert_int_eq(kfill_parse("randint:7:201", &f, err, sizeof err), 0);
    for (int b = 0; b < 8; b++) {
        int want = 0;
        for (int i = 0; i < 128; i++) want += (int)kfill_word(&f, (uint64_t)(b * 128 + i));
        ck_assert_int_eq(o[b], want);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_divergent_loops_break_and_continue_per_lane)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "diverge", 3, 1, 96, 1, 0, "out:4096", 2, err, NULL) == 0, "%s", err);
    int out[288];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int t = 0; t < 288; t++) {
        int s = 0;
        for (int q = 0; q < t % 37; q++) {
            if (q % 3 == 0) continue;
            if (q * t > 500) break;
            if (t & 1) s += q * t;
            else s -= q;
        }
        ck_assert_int_eq(out[t], s);
    }
    coalsim_kernel_free(k);
}
END_TEST

static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

START_TEST(test_kernel_calls_and_recursion_return_their_values)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "calls", 2, 1, 64, 1, 0, "out:1024", 1, err, NULL) == 0, "%s", err);
    int out[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int t = 0; t < 128; t++) ck_assert_int_eq(out[t], fact(t % 10) + (int)((float)t * 2.0f + 3.0f));
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_shuffles_and_ballots_follow_the_ptx_rules)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "warp_ops", 1, 1, 32, 1, 0, "out:512", 1, err, NULL) == 0, "%s", err);
    int out[128];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int t = 0; t < 32; t++) {
        ck_assert_int_eq(out[4 * t + 0], (t + 3 < 32 ? t + 3 : t) * 10 + 1);
        ck_assert_int_eq(out[4 * t + 1], (t ^ 5) * 10 + 1);
        ck_assert_int_eq(out[4 * t + 2], 7 * 10 + 1);
        ck_assert_int_eq(out[4 * t + 3], (int)0xaaaaaaaau);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_atomics_are_atomic_across_worker_threads)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    /* 64 blocks on 2 workers: the global counter, histogram, max and min must
     * come out as one thread would leave them */
    ck_assert_msg(launch(k, "atomics", 64, 1, 128, 1, 0, "hist:64,mm:8,c:4", 2, err, NULL) == 0, "%s", err);
    int hist[16], mm[2];
    unsigned c;
    ck_assert_int_eq(coalsim_kernel_read(k, "hist", 0, hist, sizeof hist), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "mm", 0, mm, sizeof mm), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "c", 0, &c, sizeof c), 0);
    for (int b = 0; b < 16; b++) ck_assert_int_eq(hist[b], 64 * 128 / 16);
    int mx = 0, mn = 0;       /* mm starts zeroed: min stays 0 */
    for (int t = 0; t < 64 * 128; t++) mx = (t * 7919) % 1000 > mx ? (t * 7919) % 1000 : mx;
    ck_assert_int_eq(mm[0], mx);
    ck_assert_int_eq(mm[1], mn);
    ck_assert_uint_eq(c, 64 * 128);
    coalsim_kernel_free(k);
}
END_TEST

/* The global atomic access of kernel NAME of tests/kernels/atomics.ptx run
 * on 2 blocks of 64 threads (4 warps) with ARGS: its op and lanes. */
static coalsim_access atomic_access(coalsim_kernel *k, const char *name, const char *args)
{
    char err[1024];
    coalsim_analysis *a;
    ck_assert_msg(launch(k, name, 2, 1, 64, 1, 0, args, 1, err, &a) == 0, "%s: %s", name, err);
    const coalsim_stats *st = coalsim_analysis_stats(a);
    coalsim_access found = {0};
    int n = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        if (ac->space == COALSIM_GLOBAL && (ac->op == COALSIM_ATOM || ac->op == COALSIM_RED)) found = *ac, n++;
    }
    ck_assert_msg(n == 1, "%s: %d global atomic accesses", name, n);
    found.label = NULL;
    coalsim_analysis_free(a);
    return found;
}

/* The shared atomic requests of kernel NAME of tests/kernels/shared_fadd.ptx
 * on GX blocks of BX threads, on THREADS workers: the passes of its loops. */
static uint64_t shared_fadd_passes_on(coalsim_kernel *k, const char *name, unsigned gx, unsigned bx, const char *args,
                                      unsigned threads)
{
    char err[1024];
    coalsim_analysis *a;
    ck_assert_msg(launch(k, name, gx, 1, bx, 1, 0, args, threads, err, &a) == 0, "%s: %s", name, err);
    const coalsim_stats *st = coalsim_analysis_stats(a);
    uint64_t n = 0, loads = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        if (ac->space == COALSIM_SHARED && ac->op == COALSIM_ATOM) n += ac->requests;
        if (ac->space == COALSIM_SHARED && ac->op == COALSIM_LD && strstr(ac->label, ":ld.shared")) loads += ac->requests;
    }
    ck_assert_msg(loads >= n, "%s: %llu loads for %llu passes", name, (unsigned long long)loads, (unsigned long long)n);
    coalsim_analysis_free(a);
    return n;
}

static uint64_t shared_fadd_passes(coalsim_kernel *k, const char *name, unsigned gx, unsigned bx, const char *args)
{
    return shared_fadd_passes_on(k, name, gx, bx, args, 1);
}

/* ptxas makes a shared float or double atomicAdd a loop on sm_90 (LDS,
 * FADD, ATOMS.CAST.SPIN, ISETP, BRA; sim/frontend/ptx/ptx_lower.c).  A
 * warp alone: the lanes on a word, and the lanes on a bank among its phase's
 * (32 for floats, 16 for doubles), win one a pass.  Warps of a block on the
 * same words fail some of each other's passes: 8 warps of 32 lanes on one
 * word within 15% of the H100's 125.8 passes a warp (142.1 for doubles), on
 * 32 shared words 3.57 (gpu/probes/shared_cas.cu).  Every lane's value is
 * added once and gets an old value, and the passes are the same on any
 * number of threads. */
START_TEST(test_kernel_shared_float_adds_loop_a_pass_a_lane_a_word_and_warps_on_one_word_retry)
{
    coalsim_kernel *k = load("tests/kernels/shared_fadd.ptx");
    /* one warp alone on one word: 32 passes; the old values are 0..31 once each */
    ck_assert_uint_eq(shared_fadd_passes(k, "_Z8one_wordPfS_", 1, 32, "out:4K,o:4K"), 32);
    float out[32], o[32];
    int seen[32] = {0};
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, 4), 0);
    ck_assert_float_eq(out[0], 32.0f);
    ck_assert_int_eq(coalsim_kernel_read(k, "o", 0, o, sizeof o), 0);
    for (int i = 0; i < 32; i++) {
        ck_assert(o[i] >= 0 && o[i] < 32 && o[i] == (float)(int)o[i]);
        seen[(int)o[i]]++;
    }
    for (int i = 0; i < 32; i++) ck_assert_int_eq(seen[i], 1);
    /* 32 words on one bank: 32 passes; a double's lanes l and l + 16 on one bank: 1 */
    ck_assert_uint_eq(shared_fadd_passes(k, "_Z10bank_wordsPf", 1, 32, "out:4K"), 32);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int i = 0; i < 32; i++) ck_assert_float_eq(out[i], 1.0f);
    ck_assert_uint_eq(shared_fadd_passes(k, "_Z12double_lanesPd", 1, 32, "out:4K"), 1);
    /* 8 warps on one word, 3 blocks; the same on 2 threads */
    uint64_t p = shared_fadd_passes(k, "_Z8one_wordPfS_", 3, 256, "out:4K,o:4K");
    double per = (double)p / 24;
    ck_assert_msg(per > 125.8 * 0.85 && per < 125.8 * 1.15, "one word: %.1f passes a warp", per);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, 12), 0);
    for (int b = 0; b < 3; b++) ck_assert_float_eq(out[b], 256.0f);
    ck_assert_uint_eq(shared_fadd_passes_on(k, "_Z8one_wordPfS_", 3, 256, "out:4K,o:4K", 2), p);
    p = shared_fadd_passes(k, "_Z15one_word_doublePd", 3, 256, "out:4K");
    per = (double)p / 24;
    ck_assert_msg(per > 142.1 * 0.85 && per < 142.1 * 1.15, "double: %.1f passes a warp", per);
    double outd[3];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, outd, sizeof outd), 0);
    for (int b = 0; b < 3; b++) ck_assert_double_eq(outd[b], 256.0);
    /* each warp on a word of its own: no retries, 32 passes a warp */
    ck_assert_uint_eq(shared_fadd_passes(k, "_Z10warp_wordsPf", 3, 256, "out:4K"), 3 * 8 * 32);
    /* lane l on word l */
    per = (double)shared_fadd_passes(k, "_Z10lane_wordsPf", 3, 256, "out:4K") / 24;
    ck_assert_msg(per > 3.57 * 0.85 && per < 3.57 * 1.15, "lane words: %.2f passes a warp", per);
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int i = 0; i < 32; i++) ck_assert_float_eq(out[i], 8.0f);
    /* the atomic under a condition: the 16 odd lanes of each warp add 2 */
    ck_assert_uint_eq(shared_fadd_passes(k, "_Z11odd_threadsPfi", 1, 32, "out:4K,1"), 16);
    shared_fadd_passes(k, "_Z11odd_threadsPfi", 2, 256, "out:4K,1");
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, 8), 0);
    ck_assert_float_eq(out[0], 256.0f);
    ck_assert_float_eq(out[1], 256.0f);
    coalsim_kernel_free(k);
}
END_TEST

/* ptxas combines a warp's lanes where it can see that their address is the
 * same (add of a uniform value; 32-bit add, min, max, ... whose old value is
 * not read) and one lane sends the request; an atom whose old value is not
 * read is a reduction, but exch and cas (gpu/probes/atomic_agg.cu's SASS on
 * sm_90, runs/h200-atomic-agg).  The values stay every lane's. */
START_TEST(test_kernel_uniform_address_atomics_are_one_lanes_request_as_ptxas_makes_them)
{
    coalsim_kernel *k = load("tests/kernels/atomics.ptx");
    static const struct {
        const char *name, *args;
        int one_lane;
        coalsim_op op;
    } cases[] = {
        {"_Z16add_const_unusedPj", "g:512", 1, COALSIM_RED},
        {"_Z14add_var_unusedPj", "g:512", 1, COALSIM_RED},
        {"_Z14add_const_usedPjS_", "g:512,o:512", 1, COALSIM_ATOM},
        {"_Z10max_unusedPj", "g:512", 1, COALSIM_RED},
        {"_Z16u64_const_unusedPy", "g:512", 1, COALSIM_RED},
        {"_Z12ctaid_unusedPj", "g:512", 1, COALSIM_RED},
        {"_Z13loaded_unusedPjPKj", "g:512,i:512=zero", 1, COALSIM_RED},
        {"_Z12add_var_usedPjS_", "g:512,o:512", 0, COALSIM_ATOM},
        {"_Z8max_usedPjS_", "g:512,o:512", 0, COALSIM_ATOM},
        {"_Z11exch_unusedPj", "g:512", 0, COALSIM_ATOM},
        {"_Z10inc_unusedPj", "g:512", 0, COALSIM_RED},
        {"_Z10f32_unusedPf", "g:512", 0, COALSIM_RED},
        {"_Z14u64_var_unusedPy", "g:512", 0, COALSIM_RED},
        {"_Z13warpid_unusedPj", "g:512", 0, COALSIM_RED},
        {"_Z11lane_unusedPj", "g:512", 0, COALSIM_RED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coalsim_access ac = atomic_access(k, cases[i].name, cases[i].args);
        ck_assert_msg(ac.requests == 4, "%s: %llu requests", cases[i].name, (unsigned long long)ac.requests);
        ck_assert_msg(ac.active_threads == (cases[i].one_lane ? 4u : 128u), "%s: %llu lanes", cases[i].name,
                      (unsigned long long)ac.active_threads);
        ck_assert_msg(ac.op == cases[i].op, "%s: op %d", cases[i].name, (int)ac.op);
    }
    /* every lane's value is added: 128 threads x 10, and the old values
     * handed out are 0..127, each once */
    char err[1024];
    ck_assert_msg(launch(k, "_Z16add_const_unusedPj", 2, 1, 64, 1, 0, "g:512", 1, err, NULL) == 0, "%s", err);
    unsigned g[2];
    ck_assert_int_eq(coalsim_kernel_read(k, "g", 0, g, sizeof g), 0);
    ck_assert_uint_eq(g[0], 1280);
    ck_assert_msg(launch(k, "_Z14add_const_usedPjS_", 2, 1, 64, 1, 0, "g:512,o:512", 1, err, NULL) == 0, "%s", err);
    unsigned o[128], seen[128] = {0};
    ck_assert_int_eq(coalsim_kernel_read(k, "o", 0, o, sizeof o), 0);
    for (int t = 0; t < 128; t++) {
        ck_assert_uint_lt(o[t], 128);
        seen[o[t]]++;
    }
    for (int t = 0; t < 128; t++) ck_assert_uint_eq(seen[t], 1);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_bits_locals_constants_and_division_by_zero)
{
    static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    /* div = iota: thread 0 divides by zero (the GPU gives all ones and the dividend) */
    ck_assert_msg(launch(k, "misc", 1, 1, 64, 1, 0, "out:8192,div:256=iota", 1, err, NULL) == 0, "%s", err);
    long long out[512];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int t = 0; t < 64; t++) {
        int a = t * ((t * 5) % 8) + table[(t * 5) % 8];
        long long x = (long long)a * 1000003LL + table[t % 8];
        unsigned u = (unsigned)x, rev = 0;
        for (int b = 0; b < 32; b++) rev |= ((u >> b) & 1u) << (31 - b);
        uint64_t v = (uint64_t)0x12345678u << 32 | u;
        unsigned perm = 0, sel = 0x5140;
        for (int b = 0; b < 4; b++) perm |= (unsigned)((v >> (8 * ((sel >> (4 * b)) & 7))) & 0xff) << (8 * b);
        ck_assert_int_eq(out[8 * t + 0], x);
        ck_assert_int_eq(out[8 * t + 1], __builtin_popcount(u) + (u ? __builtin_clz(u) : 32) * 100);
        ck_assert_int_eq(out[8 * t + 2], (long long)rev);
        ck_assert_int_eq(out[8 * t + 3], (long long)perm);
        ck_assert_int_eq(out[8 * t + 4], t ? (long long)(u / (unsigned)t) : 0xffffffffll);
        ck_assert_int_eq(out[8 * t + 5], t ? (long long)(u % (unsigned)t) : (long long)u);
        ck_assert_int_eq(out[8 * t + 6], x >> (t % 40));
        ck_assert_int_eq(out[8 * t + 7], t % 3 == 0 ? -t : t * t);
    }
    coalsim_kernel_free(k);
}
END_TEST

/* __ffs is brev then bfind.shiftamt.u32 (the shift that takes the highest
 * set bit to the top, all ones where none is), plus one: warp-aggregated
 * atomics and SobolQRNG use it. */
START_TEST(test_kernel_ffs_finds_the_lowest_set_bit_through_bfind_shiftamt)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "ffs_bits", 1, 1, 64, 1, 0, "out:1024,in:256=random:5", 1, err, NULL) == 0, "%s", err);
    int out[256];
    unsigned in[64];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "in", 0, in, sizeof in), 0);
    for (int t = 0; t < 64; t++) {
        unsigned u = t == 7 ? 0u : in[t] << (t % 32);
        unsigned long long v = (unsigned long long)u << (t % 29);
        unsigned long long w = t == 9 ? 0ull : v | 1ull << 63;
        ck_assert_int_eq(out[4 * t + 0], u ? __builtin_ctz(u) + 1 : 0);
        ck_assert_int_eq(out[4 * t + 1], v ? __builtin_ctzll(v) + 1 : 0);
        ck_assert_int_eq(out[4 * t + 2], __builtin_ctz(u | 0x80000000u) + 1);
        ck_assert_int_eq(out[4 * t + 3], w ? __builtin_ctzll(w) + 1 : 0);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_floats_doubles_and_halves)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "floats", 1, 1, 64, 1, 0, "f:1024,d:512,h:128,in:256=random:3", 1, err, NULL) == 0,
                  "%s", err);
    float f[256];
    double d[64];
    uint16_t h[64];
    ck_assert_int_eq(coalsim_kernel_read(k, "f", 0, f, sizeof f), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "d", 0, d, sizeof d), 0);
    ck_assert_int_eq(coalsim_kernel_read(k, "h", 0, h, sizeof h), 0);
    for (int t = 0; t < 64; t++) {
        float x = fill_float("random:3", (uint64_t)t);
        ck_assert_float_eq(f[4 * t + 0], fmaf(x, 1.5f, -2.0f));
        ck_assert_float_eq(f[4 * t + 1], sqrtf(x));
        ck_assert_float_eq(f[4 * t + 2], (float)(int)(x * 3.7f));
        ck_assert_float_eq(f[4 * t + 3], fminf(x, 0.25f) + fmaxf(x, 0.75f));
        ck_assert_double_eq(d[t], (double)x * 1e10 / 3.0);
        /* x * 2 in [0, 2): a half keeps 11 significant bits */
        float back;
        uint32_t bits = ((uint32_t)(h[t] >> 15) << 31) | ((uint32_t)(((h[t] >> 10) & 0x1f) + 112) << 23) |
                        ((uint32_t)(h[t] & 0x3ff) << 13);
        memcpy(&back, &bits, 4);
        if (h[t]) ck_assert_float_eq_tol(back, x * 2.0f, x * 2.0f / 1024.0f);
    }
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_barrier_in_a_loop_with_dynamic_shared_memory)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_msg(launch(k, "block_sum", 4, 1, 128, 1, 512, "in:2048=iotaf,out:16", 2, err, NULL) == 0, "%s", err);
    float out[4];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, out, sizeof out), 0);
    for (int b = 0; b < 4; b++) ck_assert_float_eq(out[b], (float)(128 * 128 * b + 127 * 128 / 2));
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_counts_requests_and_instructions_the_same_on_any_thread_count)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    coalsim_analysis *a1, *a2;
    ck_assert_msg(launch(k, "transposeSmem<false, 0>", 4, 4, 16, 16, 0, "out:16K,in:16K=random:1,64,64", 1, err, &a1) == 0,
                  "%s", err);
    ck_assert_msg(launch(k, "transposeSmem<false, 0>", 4, 4, 16, 16, 0, "out:16K,in:16K=random:1,64,64", 2, err, &a2) == 0,
                  "%s", err);
    const coalsim_exec *e1 = coalsim_analysis_exec(a1), *e2 = coalsim_analysis_exec(a2);
    ck_assert_str_eq(e1->isa, "PTX");
    ck_assert_uint_eq(e1->warps_launched, 16 * 8);
    ck_assert_uint_eq(e1->inst_executed, e2->inst_executed);
    ck_assert_uint_eq(e1->inst_mem[COALSIM_SHARED][COALSIM_LD], 16 * 8);
    const coalsim_stats *s1 = coalsim_analysis_stats(a1), *s2 = coalsim_analysis_stats(a2);
    ck_assert_uint_eq(coalsim_stats_count(s1), coalsim_stats_count(s2));
    for (size_t i = 0; i < coalsim_stats_count(s1); i++) {
        ck_assert_str_eq(coalsim_stats_get(s1, i)->label, coalsim_stats_get(s2, i)->label);
        ck_assert_uint_eq(coalsim_stats_get(s1, i)->wavefronts, coalsim_stats_get(s2, i)->wavefronts);
        ck_assert_uint_eq(coalsim_stats_get(s1, i)->sectors, coalsim_stats_get(s2, i)->sectors);
    }
    coalsim_analysis_free(a1);
    coalsim_analysis_free(a2);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_misaligned_access_is_an_error_naming_the_lines)
{
    coalsim_kernel *k = load("tests/kernels/semantics.ptx");
    char err[1024];
    ck_assert_int_eq(launch(k, "misaligned", 1, 1, 32, 1, 0, "p:1024", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "tests/kernels/semantics.ptx:") && strstr(err, "semantics.cu:") &&
                      strstr(err, "misaligned address 0x7f0000000002 for a 4-byte access"),
                  "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_out_of_bounds_access_is_an_error)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    /* A holds 1 KiB, the kernel reads 16 KiB of it */
    ck_assert_int_eq(launch(k, "transpose1<false>", 2, 2, 32, 32, 0, "A:1K,B:16K,64", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "is outside every buffer"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_arguments_are_checked_by_parameter)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    ck_assert_int_eq(launch(k, "transpose1<false>", 1, 1, 32, 1, 0, "A,B", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "--args gives 2 values; transpose1<false>(float const*, float*, int) takes 3"), "%s", err);
    ck_assert_int_eq(launch(k, "transpose1<false>", 1, 1, 32, 1, 0, "A,B,C", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "parameter 3 (int, .u32) takes a number, not the buffer 'C'"), "%s", err);
    ck_assert_int_eq(launch(k, "transpose1<false>", 1, 1, 32, 1, 0, "A,B,1.5", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "parameter 3 (int, .u32) is an integer, not '1.5'"), "%s", err);
    ck_assert_int_eq(launch(k, "transpose1<false>", 1, 1, 32, 1, 0, "A=bogus,B,64", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "fill 'bogus' is not"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_names_plain_demangled_mangled_or_ambiguous)
{
    coalsim_kernel *k = load("tests/kernels/seeds.ptx");
    char err[1024];
    ck_assert_int_eq(launch(k, "_Z10transpose1ILb0EEvPKfPfi", 1, 1, 32, 1, 0, "A:16K,B:16K,8", 1, err, NULL), 0);
    ck_assert_int_eq(launch(k, "transpose1", 1, 1, 32, 1, 0, "A:16K,B:16K,8", 1, err, NULL), 0);
    ck_assert_int_eq(launch(k, "transpose1<false>(float const*, float*, int)", 1, 1, 32, 1, 0, "A:16K,B:16K,8", 1, err,
                            NULL),
                     0);
    ck_assert_int_eq(launch(k, "transposeSmem", 1, 1, 32, 1, 0, "A:16K,B:16K,8,8", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "'transposeSmem' names 2 kernels; say which: 'transposeSmem<false, 0>' "
                              "'transposeSmem<false, 2>'"),
                  "%s", err);
    ck_assert_int_eq(launch(k, "nosuch", 1, 1, 32, 1, 0, "", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "no kernel named 'nosuch'"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

START_TEST(test_kernel_bad_ptx_names_the_line)
{
    char err[512];
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate;\n}\n";
    coalsim_kernel *k = coalsim_kernel_load_ptx(ptx, strlen(ptx), "bad.ptx", err, sizeof err);
    ck_assert_ptr_nonnull(k);     /* an unknown instruction is an error only when it runs */
    ck_assert_int_eq(launch(k, NULL, 1, 1, 32, 1, 0, "", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "bad.ptx:6: frobnicate") && strstr(err, "not supported"), "%s", err);
    coalsim_kernel_free(k);
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n  .param .u64 p\n{\n}\n";
    ck_assert_ptr_null(coalsim_kernel_load_ptx(bad, strlen(bad), "bad.ptx", err, sizeof err));
    ck_assert_msg(strstr(err, "bad.ptx:6:"), "%s", err);
}
END_TEST

/* An unsupported instruction of a .cu compiled here is named by its .cu
 * line (the PTX's .loc), with the PTX's line apart: the PTX's line is no
 * line of the .cu the module is named after. */
START_TEST(test_kernel_an_unsupported_instruction_of_a_cu_names_its_source_line)
{
    char err[512];
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/home/u/app.cu\"\n"
                      ".visible .entry k()\n{\n.loc 1 42 3\n  frobnicate;\n}\n";
    coalsim_kernel *k = coalsim_kernel_load_ptx(ptx, strlen(ptx), "app.cu", err, sizeof err);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(launch(k, NULL, 1, 1, 32, 1, 0, "", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "app.cu:42: frobnicate (PTX line 8)") && strstr(err, "not supported"), "%s", err);
    coalsim_kernel_free(k);
    /* an operand refused when the PTX is read: the same (it named app.cu:9, the PTX's line) */
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/home/u/app.cu\"\n"
                      ".visible .entry k()\n{\n.reg .b32 %r<2>;\n.loc 1 17 3\n  mov.u32 %r1, %nosuch;\n}\n";
    k = coalsim_kernel_load_ptx(bad, strlen(bad), "app.cu", err, sizeof err);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(launch(k, NULL, 1, 1, 32, 1, 0, "", 1, err, NULL), -1);
    ck_assert_msg(strstr(err, "app.cu:17: mov.u32 (PTX line 9): operand 2: '%nosuch'"), "%s", err);
    coalsim_kernel_free(k);
}
END_TEST

/* Run KERNEL of the PTX TEXT as GRID blocks of BLOCK threads with the H100's
 * profile, as --hier --profile does; *KP gets the kernel, to free after
 * the analysis returned. */
static coalsim_analysis *run_timed_grid(const char *text, const char *kernel, unsigned grid, unsigned block,
                                        const char *args, coalsim_kernel **kp)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, strlen(text), "sched.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    ck_assert(a != NULL);
    coalsim_launch l = {.kernel = kernel, .grid = {grid, 1, 1}, .block = {block, 1, 1}, .args = args, .threads = 1};
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert(coalsim_analysis_exec(a) != NULL);
    *kp = k;
    return a;
}

/* One block of TEXT's KERNEL, timed with the H100's profile. */
static coalsim_analysis *run_timed(const char *text, const char *kernel, unsigned block, const char *args,
                                   coalsim_kernel **kp)
{
    return run_timed_grid(text, kernel, 1, block, args, kp);
}

/* One block of BLOCK threads' path as the time model sees it (ptx_sched.c):
 * *CYCLES without its loads' latency, and the loads on it. */
static double path_of(const char *text, const char *kernel, unsigned block, const char *args, double *cycles)
{
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed(text, kernel, block, args, &k);
    const coalsim_exec *e = coalsim_analysis_exec(a);
    ck_assert(e->path_blocks == 1);
    double loads = e->path_loads;
    if (cycles) *cycles = e->path_cycles;
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
    return loads;
}

/* The loads on one block of 32 threads' path. */
static double path_loads_of(const char *text, const char *kernel, const char *args)
{
    return path_of(text, kernel, 32, args, NULL);
}

#define SCHED_HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"

/* ptxas keeps a load behind an earlier store that may write the same
 * memory (the CUDA samples' copy is LDG, STG, LDG, STG on the H100): two
 * round trips, not one; a load of read-only data (ld.global.nc) moves up. */
#define COPY2(LD)                                                                                                  \
    SCHED_HEAD ".visible .entry copy2(.param .u64 pa, .param .u64 pb)\n{\n.reg .b64 %rd<6>;\n.reg .f32 %f<3>;\n"     \
               ".reg .b32 %r<2>;\nld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nmov.u32 %r1, %tid.x;\n"        \
               "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n" LD             \
               " %f1, [%rd4];\nst.global.f32 [%rd5], %f1;\n" LD " %f2, [%rd4+128];\nst.global.f32 [%rd5+128], %f2;\n" \
               "ret;\n}\n"

START_TEST(test_kernel_a_load_waits_for_an_earlier_store_unless_read_only)
{
    ck_assert_double_eq(path_loads_of(COPY2("ld.global.f32"), "copy2", "a:256=iotaf,b:256"), 2);
    ck_assert_double_eq(path_loads_of(COPY2("ld.global.nc.f32"), "copy2", "a:256=iotaf,b:256"), 1);
}
END_TEST

/* Each thread brings in 16 bytes (LD: a vector load into registers, or a
 * cp.async into shared memory and a wait) and uses them. */
#define PORT(LD)                                                                                                 \
    SCHED_HEAD ".visible .entry port(.param .u64 pa)\n{\n.reg .b64 %rd<6>;\n.reg .f32 %f<6>;\n.reg .b32 %r<4>;\n" \
               ".shared .align 16 .b8 s[4096];\nld.param.u64 %rd1, [pa];\nmov.u32 %r1, %tid.x;\n"                \
               "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd1, %rd3;\nshl.b32 %r2, %r1, 4;\nand.b32 %r2, %r2, 4095;\n" \
               "mov.u32 %r3, s;\nadd.u32 %r3, %r3, %r2;\n" LD                                                   \
               "add.f32 %f5, %f1, %f4;\nst.global.f32 [%rd4], %f5;\nret;\n}\n"
#define PORT_LDG "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
#define PORT_CP_ASYNC                                                                                        \
    "cp.async.cg.shared.global [%r3], [%rd4], 16;\ncp.async.commit_group;\ncp.async.wait_group 0;\n" \
    "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r3];\n"

/* A warp's load is in a latency after it issues plus the time its bytes
 * wait for and take through the SM's port from L2 (L2's read bandwidth over
 * the SMs that run blocks, at most a line a cycle; smport.h): the last of 8
 * warps loading 512 bytes each at once is in after 8 x 512 bytes' time, one
 * warp alone after 512's.  So a one-stage tile pipeline waits for its whole
 * tile, as the H100's HGEMMs do. */
START_TEST(test_kernel_a_lone_blocks_loads_queue_through_its_sm_port)
{
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    /* one block: one SM has all of L2, so the port moves a line a cycle */
    double rate = cfg.profile->l2_gbs / (cfg.profile->sm_clock_mhz * 1e-3), line = cfg.profile->l1_lines_per_cycle * 128;
    ck_assert_double_gt(rate, line);
    double byte = 1 / line;   /* cycles a byte */
    const char *kernels[] = {PORT(PORT_LDG), PORT(PORT_CP_ASYNC)};
    for (unsigned i = 0; i < 2; i++) {
        double one, eight;
        path_of(kernels[i], "port", 32, "a:8K=iotaf", &one);
        path_of(kernels[i], "port", 256, "a:8K=iotaf", &eight);
        double want = 8 * 512 * byte - 512 * byte;
        ck_assert_msg(fabs(eight - one - want) < 4, "%s: 8 warps %.0f, 1 warp %.0f cycles: %.0f apart, not %.0f",
                      i ? "cp.async" : "ld.global", eight, one, eight - one, want);
    }
    /* the port is on the path only where a SM holds one block at a time:
     * no more blocks than SMs, or an occupancy of one; else a SM holds the
     * smaller of its occupancy and its share of the blocks */
    ck_assert_uint_eq(sm_port_held(cfg.limits, 256, 32, 0, 132, 132), 1);
    ck_assert_uint_eq(sm_port_held(cfg.limits, 256, 32, 0, 1000, 132), 8);
    ck_assert_uint_eq(sm_port_held(cfg.limits, 256, 32, 0, 264, 132), 2);
    ck_assert_uint_eq(sm_port_held(cfg.limits, 256, 32, 200 * 1024, 1000, 132), 1);
    ck_assert_uint_eq(sm_port_held(cfg.limits, 256, 255, 0, 1000, 132), 1);
}
END_TEST

/* The interpreter runs a cluster's CTAs together, but each is on its own
 * SM: sub-partition k of CTA r is tensor pipe 4r + k.  (Sharing one SM's
 * four made fast.cu's cluster GEMMs 1.4-1.6x of the H100's time once
 * wgmmas held their pipes.) */
START_TEST(test_kernel_each_cta_of_a_cluster_has_its_own_tensor_pipes)
{
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    sm_port p;
    ck_assert_int_eq(sm_port_init(&p, cfg.profile, 132, 132, 256 * 1024, 1), 0);
    sm_port_block(&p);
    uint64_t a = sm_port_tensor(&p, 0, 100, 64), b = sm_port_tensor(&p, 0, 100, 64);
    ck_assert_uint_gt(b, a);                                   /* one pipe: the second waits for the first */
    ck_assert_uint_eq(sm_port_tensor(&p, 1, 100, 64), a);      /* another sub-partition */
    ck_assert_uint_eq(sm_port_tensor(&p, 4, 100, 64), a);      /* the second CTA's first sub-partition */
    ck_assert_uint_eq(sm_port_tensor(&p, 4 * 15 + 3, 100, 64), a);
    ck_assert_uint_eq(sm_port_tensor(&p, 4, 100, 64), b);
    sm_port_free(&p);
}
END_TEST

/* Each warp loads four 8x8 matrices with ldmatrix, its 32 row addresses
 * 128 bytes apart (every row in the same four banks), and stores one
 * register of them. */
#define LDSM32                                                                                                  \
    SCHED_HEAD ".visible .entry ldsm32(.param .u64 pa)\n{\n.reg .b64 %rd<5>;\n.reg .b32 %r<9>;\n"                \
               ".shared .align 16 .b8 s[4096];\nld.param.u64 %rd1, [pa];\nmov.u32 %r1, %tid.x;\n"               \
               "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nand.b32 %r2, %r1, 31;\n"                  \
               "shl.b32 %r2, %r2, 7;\nmov.u32 %r3, s;\nadd.u32 %r3, %r3, %r2;\n"                                 \
               "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r4, %r5, %r6, %r7}, [%r3];\n"                          \
               "add.u32 %r8, %r4, %r7;\nst.global.u32 [%rd4], %r8;\nret;\n}\n"

/* Each warp runs 8 independent mma.sync.m16n8k16 (HMMA.16816) and stores
 * the sum of their results. */
static const char *mma8(void)
{
    static char text[4096];
    int n = snprintf(text, sizeof text,
                     SCHED_HEAD ".visible .entry mma8(.param .u64 pa)\n{\n.reg .b64 %%rd<5>;\n.reg .f32 %%f<40>;\n"
                     ".reg .b32 %%r<3>;\nld.param.u64 %%rd1, [pa];\nmov.u32 %%r1, %%tid.x;\n"
                     "mul.wide.u32 %%rd3, %%r1, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\nmov.b32 %%r2, 0;\n"
                     "mov.f32 %%f0, 0f00000000;\n");
    for (int i = 0; i < 8; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%f%d, %%f%d, %%f%d, %%f%d}, "
                      "{%%r2, %%r2, %%r2, %%r2}, {%%r2, %%r2}, {%%f0, %%f0, %%f0, %%f0};\n",
                      1 + 4 * i, 2 + 4 * i, 3 + 4 * i, 4 + 4 * i);
    for (int i = 1; i < 8; i++) n += snprintf(text + n, sizeof text - (size_t)n, "add.f32 %%f1, %%f1, %%f%d;\n", 1 + 4 * i);
    snprintf(text + n, sizeof text - (size_t)n, "st.global.f32 [%%rd4], %%f1;\nret;\n}\n");
    return text;
}

/* A block alone on its SM also queues for the SM's shared data pipe with
 * its matrix fragments' loads and for its sub-partition's tensor pipe
 * (smport.h's calendars): of 8 warps each loading a conflicting ldmatrix
 * at once, the last has its data 7 ldmatrix' wavefronts' time after one
 * warp alone would; of 8 warps running 8
 * HMMA.16816 each, two share each sub-partition's tensor pipe, so the
 * later waits for the other's 8.  (cuda_hgemm's one-stage HGEMMs, whose
 * warps all read their tiles after one barrier, then all run their MMAs:
 * 0.62-0.77x of the H100's time without the queues, 0.85-1.02x with
 * them.) */
START_TEST(test_kernel_a_lone_blocks_shared_and_tensor_work_queue_on_its_sm)
{
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    double wf = 1 / cfg.profile->smem_wavefronts_per_cycle, hmma = 4 / cfg.profile->pipe_per_cycle[COALSIM_PIPE_TENSOR];
    /* the wavefronts of one warp's ldmatrix, as the bank model gives them */
    coalsim_arch arch;
    coalsim_arch_preset("hopper", &arch);
    coalsim_request r = {.op = COALSIM_LDSM, .space = COALSIM_SHARED, .size = 16, .active = 0xffffffffu};
    for (int l = 0; l < 32; l++) r.addr[l] = 128u * (unsigned)l;
    coalsim_result res;
    coalsim_model(&arch, &r, &res);
    ck_assert_double_ge(res.wavefronts, 16);
    double one, eight, want = 7 * res.wavefronts * wf;
    path_of(LDSM32, "ldsm32", 32, "a:1K", &one);
    path_of(LDSM32, "ldsm32", 256, "a:1K", &eight);
    ck_assert_msg(fabs(eight - one - want) < 4, "ldmatrix: 8 warps %.0f, 1 warp %.0f cycles: %.0f apart, not %.0f",
                  eight, one, eight - one, want);
    path_of(mma8(), "mma8", 32, "a:1K", &one);
    path_of(mma8(), "mma8", 256, "a:1K", &eight);
    ck_assert_msg(fabs(eight - one - 8 * hmma) < 4, "tensor: 8 warps %.0f, 1 warp %.0f cycles: %.0f apart, not %.0f",
                  eight, one, eight - one, 8 * hmma);
}
END_TEST

/* Each warp loads four 8x8 matrices with ldmatrix 4 times, its row
 * addresses 128 bytes apart (conflicting), runs one mma.sync on them and a
 * chain of 160 dependent FMAs on its result: about half its path on the
 * SM's shared data pipe, half off it. */
static const char *ldsm_then_fma(void)
{
    static char text[8192];
    int n = snprintf(text, sizeof text,
                     SCHED_HEAD ".visible .entry ldsmfma(.param .u64 pa)\n{\n.reg .b64 %%rd<5>;\n.reg .b32 %%r<24>;\n"
                     ".reg .f32 %%f<8>;\n.shared .align 16 .b8 s[4096];\nld.param.u64 %%rd1, [pa];\nmov.u32 %%r1, %%tid.x;\n"
                     "mul.wide.u32 %%rd3, %%r1, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\nand.b32 %%r2, %%r1, 31;\n"
                     "shl.b32 %%r2, %%r2, 7;\nmov.u32 %%r3, s;\nadd.u32 %%r3, %%r3, %%r2;\nmov.f32 %%f0, 0f00000000;\n");
    for (int i = 0; i < 4; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%r%d, %%r%d, %%r%d, %%r%d}, [%%r3+%d];\n", 4 + 4 * i,
                      5 + 4 * i, 6 + 4 * i, 7 + 4 * i, 16 * i);
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%f1, %%f2, %%f3, %%f4}, "
                  "{%%r4, %%r9, %%r14, %%r19}, {%%r5, %%r18}, {%%f0, %%f0, %%f0, %%f0};\n");
    for (int i = 0; i < 160; i++) n += snprintf(text + n, sizeof text - (size_t)n, "fma.rn.f32 %%f1, %%f1, %%f1, %%f2;\n");
    snprintf(text + n, sizeof text - (size_t)n, "st.global.f32 [%%rd4], %%f1;\nret;\n}\n");
    return text;
}

/* A block's warps queue for its SM's shared data pipe and tensor pipes
 * whether or not the SM holds other blocks (smport.h's calendars at the
 * pipes' whole rate), and the blocks a SM holds at once share the busiest
 * of them as a closed queue (exectime.c): two blocks a SM of 8 warps that
 * spend half their paths on the shared data pipe take longer than either
 * one block's path or the pipe's work says.  (LeetCUDA's FlashAttention-2 forwards, 2-4 blocks of 4
 * warps a SM, whose paths had the pipes to themselves: 0.69-0.97x of the
 * H100's time, 0.76-1.09x with both.) */
START_TEST(test_kernel_blocks_that_share_a_sm_queue_for_its_busiest_pipe)
{
    const char *texts[] = {mma8(), ldsm_then_fma()}, *names[] = {"mma8", "ldsmfma"};
    for (int i = 0; i < 2; i++) {
        double path[2], us[2], pipe_us = 0;
        unsigned grids[2] = {132, 264};   /* one block a SM, then two */
        for (int g = 0; g < 2; g++) {
            coalsim_kernel *kp;
            coalsim_analysis *a = run_timed_grid(texts[i], names[i], grids[g], 256, "a:1K", &kp);
            const coalsim_exec *e = coalsim_analysis_exec(a);
            path[g] = e->path_cycles / (double)e->path_blocks;
            ck_assert_int_eq(coalsim_analysis_finish(a), 0);
            const coalsim_time *t = coalsim_analysis_time(a);
            us[g] = t->path_us;
            if (g) pipe_us = t->smem_us;
            coalsim_analysis_free(a);
            coalsim_kernel_free(kp);
        }
        ck_assert_msg(fabs(path[1] - path[0]) < 1, "%s: a block's path %.0f cycles alone on its SM, %.0f with another",
                      names[i], path[0], path[1]);
        if (i == 1)
            ck_assert_msg(us[1] > 1.15 * us[0] && us[1] > 1.15 * pipe_us,
                          "ldsmfma: two blocks a SM %.4f us, not more than one's %.4f us and the data pipe's %.4f us", us[1],
                          us[0], pipe_us);
    }
}
END_TEST

/* Block 0 runs 1000 dependent FMAs and stores the result; every other
 * block exits at once (as a GEMM's blocks past the matrix's edge do). */
static const char slow0_ptx[] =
    SCHED_HEAD ".visible .entry slow0(.param .u64 pa)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<3>;\n.reg .f32 %f<2>;\n"
    ".reg .b64 %rd<2>;\nmov.u32 %r1, %ctaid.x;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
    "mov.f32 %f1, 0f3F800000;\nmov.u32 %r2, 0;\nLOOP:\nfma.rn.f32 %f1, %f1, %f1, %f1;\nadd.u32 %r2, %r2, 1;\n"
    "setp.lt.u32 %p2, %r2, 1000;\n@%p2 bra LOOP;\nld.param.u64 %rd1, [pa];\nst.global.f32 [%rd1], %f1;\n"
    "DONE:\nret;\n}\n";

/* The predicted time's critical path of SLOW0 on GRID blocks of 32 threads. */
static double slow0_path_us(unsigned grid)
{
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed_grid(slow0_ptx, "slow0", grid, 32, "a:4", &k);
    ck_assert_int_eq(coalsim_analysis_finish(a), 0);
    const coalsim_time *t = coalsim_analysis_time(a);
    ck_assert(t != NULL);
    double us = t->path_us;
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
    return us;
}

/* A launch that runs in one wave is done when its slowest block is, however
 * many of the others exit at once: the mean block's path said 8 blocks
 * (one working) took an eighth of one block's time.  (cuda_hgemm's GEMMs
 * at 1024x1024x8192 launch 64 blocks of which 32 have a tile.) */
START_TEST(test_kernel_a_one_wave_launch_takes_as_long_as_its_slowest_block)
{
    double one = slow0_path_us(1), eight = slow0_path_us(8);
    ck_assert_double_gt(one, 1.0);     /* 1000 dependent FMAs: about 4000 cycles */
    ck_assert_msg(fabs(eight - one) < 0.02 * one, "1 block %.3f us, 8 blocks (1 working) %.3f us", one, eight);
}
END_TEST

/* a[i] += 1 over the whole grid, then (MODE) a reload of a[i]: plain, volatile, .cg, .relaxed.gpu, .relaxed.cta,
 * summed into b[i]. */
static const char reload_ptx_fmt[] =
    SCHED_HEAD ".visible .entry bump(.param .u64 pa, .param .u64 pb)\n{\n.reg .b64 %%rd<6>;\n.reg .f32 %%f<4>;\n"
    ".reg .b32 %%r<5>;\nld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\nmov.u32 %%r1, %%tid.x;\n"
    "mov.u32 %%r2, %%ctaid.x;\nmov.u32 %%r3, %%ntid.x;\nmad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n"
    "mul.wide.u32 %%rd3, %%r4, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\nadd.s64 %%rd5, %%rd2, %%rd3;\n"
    "ld.global.f32 %%f1, [%%rd4];\nadd.f32 %%f1, %%f1, 0f3F800000;\nst.global.f32 [%%rd4], %%f1;\n"
    "%s %%f2, [%%rd4];\nst.global.f32 [%%rd5], %%f2;\nret;\n}\n";

/* The L1 hit sectors of bump with reload LD, and b[0] after it. */
static uint64_t reload_l1_hits(const char *ld)
{
    char text[2048], err[1024];
    snprintf(text, sizeof text, reload_ptx_fmt, ld);
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, strlen(text), "reload.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    coalsim_analysis_cfg cfg = h100_timed_cfg();
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    coalsim_launch l = {.kernel = "bump", .grid = {64, 1, 1}, .block = {256, 1, 1}, .args = "a:64K=iotaf,b:64K",
                        .threads = 1};
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(a), 0);
    coalsim_hier_counts c;
    coalsim_stats_hier_total(coalsim_analysis_stats(a), &c);
    float b5;
    ck_assert_int_eq(coalsim_kernel_read(k, "b", 20, &b5, 4), 0);
    ck_assert_float_eq(b5, 6.0f);                       /* a[5] + 1 */
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
    return c.l1_hits;
}

/* A thread that reloads what it stored finds it in L1 (the H100 serves knn's insertion sort so: 208 k L2 read
 * sectors for 2.18 M load sectors); a load that must see other SMs' stores (volatile, .cg, strong at gpu
 * scope; ptxas's LDG.E.STRONG.GPU/SYS) reads L2, one at CTA scope L1. */
START_TEST(test_kernel_a_reload_of_a_stored_word_hits_l1_unless_volatile_or_strong_beyond_the_cta)
{
    uint64_t sectors = 64 * 256 * 4 / 32;               /* one reload's sectors */
    ck_assert_uint_eq(reload_l1_hits("ld.global.f32"), sectors);
    ck_assert_uint_eq(reload_l1_hits("ld.volatile.global.f32"), 0);
    ck_assert_uint_eq(reload_l1_hits("ld.global.cg.f32"), 0);
    ck_assert_uint_eq(reload_l1_hits("ld.relaxed.gpu.global.f32"), 0);
    ck_assert_uint_eq(reload_l1_hits("ld.acquire.sys.global.f32"), 0);
    ck_assert_uint_eq(reload_l1_hits("ld.relaxed.cta.global.f32"), sectors);
}
END_TEST

/* --l2 warm runs the second launch in the memory the first left (coalsim_launch.again), as a GPU's timing loop
 * does: bump's second run adds 1 to what the first wrote. */
START_TEST(test_kernel_a_launch_run_again_reads_what_the_first_wrote)
{
    char text[2048], err[1024];
    snprintf(text, sizeof text, reload_ptx_fmt, "ld.global.f32");
    coalsim_kernel *k = coalsim_kernel_load_ptx(text, strlen(text), "reload.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_launch l = {.kernel = "bump", .grid = {64, 1, 1}, .block = {256, 1, 1}, .args = "a:64K=iotaf,b:64K",
                        .threads = 1, .again = 1};
    coalsim_analysis *a = coalsim_analysis_new(&cfg);
    /* nothing to run again yet */
    ck_assert_int_eq(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot run again: it has not run before"), "%s", err);
    l.again = 0;
    for (int run = 1; run <= 3; run++) {
        ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
        float a5;
        ck_assert_int_eq(coalsim_kernel_read(k, "a", 20, &a5, 4), 0);
        ck_assert_float_eq(a5, 5.0f + (float)run);
        l.again = 1, l.args = NULL;                     /* the parameters are the first run's */
    }
    /* without again, the buffers are made afresh */
    l.again = 0, l.args = "a:64K=iotaf,b:64K";
    ck_assert_msg(coalsim_kernel_run(k, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
    float a5;
    ck_assert_int_eq(coalsim_kernel_read(k, "a", 20, &a5, 4), 0);
    ck_assert_float_eq(a5, 6.0f);
    coalsim_analysis_free(a);
    /* --l2 warm's pair: the second adds to what the first wrote; after a sampled first run (its blocks wrote part of
     * the memory) the second starts afresh, cold */
    coalsim_analysis_cfg hc = h100_timed_cfg();
    hc.l2 = COALSIM_L2_WARM;
    const char *samples[] = {"off", "8"};
    const float want[] = {7.0f, 6.0f};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(coalsim_sample_parse(samples[i], &l.sample), 0);
        a = coalsim_analysis_new(&hc);
        ck_assert_msg(coalsim_kernel_run_warm(k, &l, a, &hc, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(coalsim_analysis_finish(a), 0);
        ck_assert_int_eq(coalsim_kernel_read(k, "a", 20, &a5, 4), 0);
        ck_assert_float_eq(a5, want[i]);
        const coalsim_time *t = coalsim_analysis_time(a);
        ck_assert_str_eq(t->l2, i == 0 ? "warm" : "cold");
        coalsim_analysis_free(a);
    }
    coalsim_kernel_free(k);
}
END_TEST

/* d[i] = fma.MODE.f32(a[i] - 0.5, b[i] - 0.5, c[i] / 2^20) over one block: mixed signs, the addend small. */
static const char fma_dir_fmt[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry f(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
    ".reg .b64 %%rd<10>;\n.reg .f32 %%f<5>;\n.reg .b32 %%r<2>;\n"
    "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\nld.param.u64 %%rd4, [pd];\n"
    "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd5, %%r1, 4;\n"
    "add.s64 %%rd6, %%rd1, %%rd5;\nadd.s64 %%rd7, %%rd2, %%rd5;\nadd.s64 %%rd8, %%rd3, %%rd5;\nadd.s64 %%rd9, %%rd4, %%rd5;\n"
    "ld.global.f32 %%f1, [%%rd6];\nld.global.f32 %%f2, [%%rd7];\nld.global.f32 %%f3, [%%rd8];\n"
    "sub.rn.f32 %%f1, %%f1, 0f3F000000;\nsub.rn.f32 %%f2, %%f2, 0f3F000000;\nmul.rn.f32 %%f3, %%f3, 0f35800000;\n"
    "fma.%s.f32 %%f4, %%f1, %%f2, %%f3;\nst.global.f32 [%%rd9], %%f4;\nret;\n}\n";

/* fma.rm/.rp/.rz.f32 (expf's code rounds its range reduction down) round once in their direction: the C library's
 * fmaf in that rounding mode, on 256 lanes of random operands of mixed signs and scales, ties and exact sums. */
START_TEST(test_kernel_fma_with_directed_rounding_rounds_once_in_its_direction)
{
    static const char *const mode[] = {"rm", "rp", "rz", "rn"};
    static const int fe[] = {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO, FE_TONEAREST};
    for (int k = 0; k < 4; k++) {
        char text[2048], err[1024];
        snprintf(text, sizeof text, fma_dir_fmt, mode[k]);
        coalsim_kernel *kk = coalsim_kernel_load_ptx(text, strlen(text), "fma.ptx", err, sizeof err);
        ck_assert_msg(kk != NULL, "%s", err);
        coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
        coalsim_analysis *a = coalsim_analysis_new(&cfg);
        coalsim_launch l = {.kernel = "f", .grid = {1, 1, 1}, .block = {256, 1, 1},
                            .args = "A:1K=random:3,B:1K=random:4,C:1K=random:5,D:1K", .threads = 1};
        ck_assert_msg(coalsim_kernel_run(kk, &l, a, &cfg, err, sizeof err) == 0, "%s", err);
        float av[256], bv[256], cv[256], dv[256];
        ck_assert_int_eq(coalsim_kernel_read(kk, "A", 0, av, sizeof av), 0);
        ck_assert_int_eq(coalsim_kernel_read(kk, "B", 0, bv, sizeof bv), 0);
        ck_assert_int_eq(coalsim_kernel_read(kk, "C", 0, cv, sizeof cv), 0);
        ck_assert_int_eq(coalsim_kernel_read(kk, "D", 0, dv, sizeof dv), 0);
        int old = fegetround(), differ = 0;
        for (int i = 0; i < 256; i++) {
            volatile float x = av[i] - 0.5f, y = bv[i] - 0.5f, z = cv[i] * 0x1p-20f;
            float nearest = fmaf(x, y, z);
            fesetround(fe[k]);
            float want = fmaf(x, y, z);
            fesetround(old);
            differ += memcmp(&want, &nearest, 4) != 0;
            ck_assert_msg(memcmp(&want, &dv[i], 4) == 0, "fma.%s lane %d: %a x %a + %a = %a, coalsim %a", mode[k], i,
                          (double)x, (double)y, (double)z, (double)want, (double)dv[i]);
        }
        if (k < 3) ck_assert_int_gt(differ, 50);               /* the mode matters on these lanes */
        coalsim_analysis_free(a);
        coalsim_kernel_free(kk);
    }
}
END_TEST

/* b[i] = a[i] over the whole grid: one float a thread. */
static const char warm_copy_ptx[] =
    SCHED_HEAD ".visible .entry gcopy(.param .u64 pa, .param .u64 pb)\n{\n.reg .b64 %rd<6>;\n.reg .f32 %f<2>;\n"
    ".reg .b32 %r<5>;\nld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nmov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
    "ld.global.f32 %f1, [%rd4];\nst.global.f32 [%rd5], %f1;\nret;\n}\n";

/* --l2 warm: the launch as the second of two back to back.  A 2 MiB copy
 * fits in L2: the second launch reads nothing from DRAM, writes nothing to
 * it (the first one's dirty lines are written again in L2), and is
 * predicted faster than the first; the report says which is which. */
START_TEST(test_kernel_a_warm_launch_of_data_that_fits_in_l2_reads_no_dram_and_is_faster)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_ptx(warm_copy_ptx, strlen(warm_copy_ptx), "warm.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    coalsim_analysis_cfg cold_cfg = h100_timed_cfg();
    cold_cfg.l2 = COALSIM_L2_COLD;
    coalsim_analysis_cfg warm_cfg = cold_cfg;
    warm_cfg.l2 = COALSIM_L2_WARM;
    coalsim_launch l = {.kernel = "gcopy", .grid = {2048, 1, 1}, .block = {256, 1, 1},
                        .args = "a:2M=iotaf,b:2M", .threads = 1};
    coalsim_analysis *cold = coalsim_analysis_new(&cold_cfg), *warm = coalsim_analysis_new(&warm_cfg);
    ck_assert(cold && warm);
    ck_assert_msg(coalsim_kernel_run(k, &l, cold, &cold_cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(cold), 0);
    ck_assert_int_eq(coalsim_analysis_inherit_l2(warm, cold), 0);
    ck_assert_msg(coalsim_kernel_run(k, &l, warm, &warm_cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(coalsim_analysis_finish(warm), 0);
    coalsim_hier_counts c, w;
    coalsim_stats_hier_total(coalsim_analysis_stats(cold), &c);
    coalsim_stats_hier_total(coalsim_analysis_stats(warm), &w);
    ck_assert_uint_eq(c.dram_read, 2u << 20);            /* cold: all of a from DRAM */
    ck_assert_uint_eq(w.dram_read, 0);                   /* warm: all of it from L2 */
    ck_assert_uint_eq(w.dram_write, 0);
    ck_assert_uint_eq(w.l2_hits, (2u << 20) / 32);        /* every load sector hits */
    const coalsim_time *tc = coalsim_analysis_time(cold), *tw = coalsim_analysis_time(warm);
    ck_assert(tc && tw);
    ck_assert_str_eq(tc->l2, "cold");
    ck_assert_str_eq(tw->l2, "warm");
    ck_assert_double_eq(tw->cold_us, tc->total_us);
    ck_assert_uint_eq(tw->loads[COALSIM_LV_DRAM], 0);
    ck_assert_msg(tw->total_us < tc->total_us, "warm %.2f us, cold %.2f us", tw->total_us, tc->total_us);
    ck_assert_msg(tw->path_us < tc->path_us, "warm paths %.2f us, cold %.2f us", tw->path_us, tc->path_us);
    coalsim_analysis_free(cold);
    coalsim_analysis_free(warm);
    coalsim_kernel_free(k);
}
END_TEST

/* ptxas moves a load up past the uses of earlier loads only so far (col_sum's
 * 16 unrolled loads: 14 above the first FADD, 2 after it on the H100):
 * 30 loads each added to a running sum in one basic block take two round
 * trips, not one, and not 30. */
START_TEST(test_kernel_loads_move_up_only_so_far_past_the_uses_of_earlier_ones)
{
    char text[8192];
    int n = snprintf(text, sizeof text,
                     SCHED_HEAD ".visible .entry sum30(.param .u64 pa, .param .u64 pb)\n{\n.reg .b64 %%rd<5>;\n"
                     ".reg .f32 %%f<64>;\n.reg .b32 %%r<2>;\nld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\n"
                     "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd3, %%r1, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\n"
                     "mov.f32 %%f0, 0f00000000;\n");
    for (int i = 1; i <= 30; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "ld.global.f32 %%f%d, [%%rd4+%d];\nadd.f32 %%f%d, %%f%d, %%f%d;\n",
                      i, 128 * (i - 1), 31 + i, i == 1 ? 0 : 30 + i, i);
    snprintf(text + n, sizeof text - (size_t)n, "add.s64 %%rd4, %%rd2, %%rd3;\nst.global.f32 [%%rd4], %%f61;\nret;\n}\n");
    ck_assert_double_eq(path_loads_of(text, "sum30", "a:4K=iotaf,b:128"), 2);
}
END_TEST

/* ptxas pairs scalar half operations into HFMA2s, which go through the
 * FMA pipe's heavy half at IMAD's rate (gpu/probes/half_pipe.cu on the
 * H100: 1.95 a SM-cycle, half of FFMA's), and contracts a mul and the add
 * that reads it when neither names its rounding (LeetCUDA's HGEMMs: 512
 * mul.f16 and 512 add.f16 a k tile are 256 HFMA2). */
START_TEST(test_kernel_scalar_half_fmas_pair_into_hfma2s_on_the_heavy_pipe)
{
    static const struct {
        int kind, n;
        double heavy;
    } cases[] = {
        {0, 8, 4},   /* fma.rn.f16: paired, 4 HFMA2 */
        {1, 4, 4},   /* fma.rn.f16x2: packed already */
        {2, 8, 4},   /* mul.f16 and add.f16: contracted, then paired */
        {3, 8, 8},   /* mul.rn.f16 and add.rn.f16: 16 halves, 8 HFMA2 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char text[4096];
        int n = snprintf(text, sizeof text,
                         SCHED_HEAD ".visible .entry h(.param .u64 po)\n{\n.reg .b16 %%h<40>;\n.reg .b32 %%r<20>;\n"
                                    ".reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [po];\nmov.u32 %%r1, %%tid.x;\n"
                                    "cvt.u16.u32 %%h0, %%r1;\n");
        for (int i = 1; i <= cases[c].n; i++) {
            size_t left = sizeof text - (size_t)n;
            int d = 2 * i;
            if (cases[c].kind == 0) n += snprintf(text + n, left, "fma.rn.f16 %%h%d, %%h0, %%h0, %%h0;\n", d);
            else if (cases[c].kind == 1) n += snprintf(text + n, left, "fma.rn.f16x2 %%r%d, %%r1, %%r1, %%r1;\n", i + 1);
            else
                n += snprintf(text + n, left, "mul%s.f16 %%h%d, %%h0, %%h0;\nadd%s.f16 %%h%d, %%h%d, %%h0;\n",
                              cases[c].kind == 3 ? ".rn" : "", d, cases[c].kind == 3 ? ".rn" : "", d + 1, d);
        }
        snprintf(text + n, sizeof text - (size_t)n, "ret;\n}\n");
        coalsim_kernel *k;
        coalsim_analysis *a = run_timed(text, "h", 32, "o:256", &k);
        const coalsim_exec *e = coalsim_analysis_exec(a);
        ck_assert_msg(e->pipe_inst[COALSIM_PIPE_FMAHEAVY] == cases[c].heavy, "case %zu: %g HFMA2 on the heavy pipe, %g wanted",
                      c, e->pipe_inst[COALSIM_PIPE_FMAHEAVY], cases[c].heavy);
        ck_assert_double_eq(e->pipe_inst[COALSIM_PIPE_FMA], 0);
        coalsim_analysis_free(a);
        coalsim_kernel_free(k);
    }
}
END_TEST

/* The ALU instructions two warps (one block of 64 threads) issue. */
static double alu_issued(const char *text, const char *kernel)
{
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed(text, kernel, 64, "o:256", &k);
    double alu = coalsim_analysis_exec(a)->pipe_inst[COALSIM_PIPE_ALU];
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
    return alu;
}

#define IFCONV(BRANCH, MORE)                                                                                        \
    SCHED_HEAD ".visible .entry step(.param .u64 po)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<14>;\n.reg .b64 %rd<4>;\n" \
               "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n" BRANCH                                           \
               "add.s32 %r2, %r1, 1;\nadd.s32 %r3, %r2, 2;\nadd.s32 %r4, %r3, 3;\nadd.s32 %r5, %r4, 4;\n"           \
               "add.s32 %r6, %r5, 5;\nadd.s32 %r7, %r6, 6;\nadd.s32 %r8, %r7, 7;\nadd.s32 %r9, %r8, 8;\n"           \
               "add.s32 %r10, %r9, 9;\nadd.s32 %r11, %r10, 10;\n" MORE                                               \
               "$L_end:\nret;\n}\n"
#define TWO_MORE "add.s32 %r12, %r11, 11;\nadd.s32 %r13, %r12, 12;\n"

/* ptxas predicates a short branch with no control in it, and then every
 * warp issues its instructions, the ones whose lanes are all off too
 * (reduce1's step, 9 PTX instructions, and prescan's up-sweep step, 10,
 * are 7 predicated SASS ones on the H100; prescan's down-sweep step, 12,
 * stays a branch): a branch over 10 adds that one of two warps skips costs
 * what the adds cost with no branch; over 12, the warp that skips them
 * issues none of them. */
START_TEST(test_kernel_a_short_branch_is_predicated_and_every_warp_issues_it)
{
    double straight = alu_issued(IFCONV("", ""), "step");
    ck_assert_double_gt(straight, 0);
    ck_assert_double_eq_tol(alu_issued(IFCONV("@%p1 bra $L_end;\n", ""), "step"), straight, 1e-9);
    double straight12 = alu_issued(IFCONV("", TWO_MORE), "step");
    ck_assert_double_eq_tol(alu_issued(IFCONV("@%p1 bra $L_end;\n", TWO_MORE), "step"), straight12 - 12, 1e-9);
}
END_TEST

#define DIAMOND(BRANCHES)                                                                                            \
    SCHED_HEAD ".visible .entry step(.param .u64 po)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n"                       \
               "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n" BRANCHES

/* ptxas predicates a short if/else, both sides (s3d_hybrid's "bound ?
 * global load : shared load" is @P LDS beside @!P LDG in its SASS): warp 0
 * takes one side and warp 1 the other, and each issues both, as the same
 * adds with no branches would be. */
START_TEST(test_kernel_a_short_if_else_is_predicated_on_both_sides)
{
    double straight = alu_issued(DIAMOND("add.s32 %r2, %r1, 1;\nadd.s32 %r3, %r2, 2;\nadd.s32 %r4, %r1, 3;\n"
                                         "add.s32 %r5, %r4, 4;\nret;\n}\n"),
                                 "step");
    double diamond = alu_issued(DIAMOND("@%p1 bra $L_then;\nadd.s32 %r2, %r1, 1;\nadd.s32 %r3, %r2, 2;\n"
                                        "bra.uni $L_join;\n$L_then:\nadd.s32 %r4, %r1, 3;\nadd.s32 %r5, %r4, 4;\n"
                                        "$L_join:\nret;\n}\n"),
                                "step");
    ck_assert_double_gt(straight, 0);
    ck_assert_double_eq_tol(diamond, straight, 1e-9);
}
END_TEST

/* ptxas schedules a block as if what it reads from earlier blocks were
 * ready: a use of a load still on its way goes near the top, and in-order
 * issue holds the block's own load behind it (s3d_hybrid's FADD of the
 * plane above, before the LDG of the halo beside it): two round trips. */
START_TEST(test_kernel_a_use_at_the_top_of_a_block_holds_back_its_loads)
{
    static const char text[] =
        SCHED_HEAD ".visible .entry use(.param .u64 pa, .param .u64 pb)\n{\n.reg .b64 %rd<6>;\n.reg .f32 %f<5>;\n"
                   ".reg .b32 %r<2>;\nld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nmov.u32 %r1, %tid.x;\n"
                   "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
                   "ld.global.nc.f32 %f1, [%rd4];\nbar.sync 0;\nadd.f32 %f2, %f1, %f1;\n"
                   "ld.global.nc.f32 %f3, [%rd4+128];\nadd.f32 %f4, %f2, %f3;\nst.global.f32 [%rd5], %f4;\nret;\n}\n";
    ck_assert_double_eq(path_loads_of(text, "use", "a:256=iotaf,b:256"), 2);
}
END_TEST

/* A memory instruction a warp issues with no lane on (predicated off, or
 * in a branch ptxas predicates) takes a wavefront of the L1 data pipe all
 * the same: on the H100, LDS, STS and LDG with every lane off go at one a
 * cycle a SM, as with every lane on, and ncu counts a data-pipe wavefront
 * for each (gpu/probes/pred_off.cu).  Warp 1 of two skips a predicated
 * step of two shared loads and a store; warp 0 issues a load predicated off. */
START_TEST(test_kernel_memory_instructions_with_no_lane_on_are_counted_for_the_data_pipe)
{
    static const char text[] =
        SCHED_HEAD ".visible .entry off(.param .u64 po)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .f32 %f<4>;\n"
                   ".shared .align 4 .b8 s[512];\nmov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, s;\n"
                   "add.s32 %r4, %r3, %r2;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra $L_end;\n"
                   "ld.shared.f32 %f1, [%r4];\nld.shared.f32 %f2, [%r4+4];\nadd.f32 %f3, %f1, %f2;\n"
                   "st.shared.f32 [%r4], %f3;\n$L_end:\n@%p1 ld.shared.f32 %f1, [%r4];\nret;\n}\n";
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed(text, "off", 64, "o:256", &k);
    ck_assert_uint_eq(coalsim_analysis_exec(a)->mem_inactive, 3 + 1);   /* warp 1's skipped three; warp 0's load */
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
}
END_TEST

/* ptxas joins a thread's 2-byte shared loads four at a time from an 8-byte
 * boundary into an LDS.64, even when eight runs interleave: LeetCUDA's
 * hgemm_t_8x8_sliced_k_f16x4 has 128 ld.shared.u16 a k tile and 32 LDS.64
 * in its SASS.  A run that starts off the boundary is not joined. */
START_TEST(test_kernel_interleaved_runs_of_half_shared_loads_join_four_at_a_time)
{
    char text[8192];
    int n = snprintf(text, sizeof text,
                     SCHED_HEAD ".visible .entry joins(.param .u64 po)\n{\n.reg .b32 %%r<4>;\n.reg .b16 %%h<80>;\n"
                                ".shared .align 16 .b8 s[1024];\nmov.u32 %%r1, s;\n");
    for (int d = 0; d < 8; d++)
        for (int g = 0; g < 8; g++)
            n += snprintf(text + n, sizeof text - (size_t)n, "ld.shared.u16 %%h%d, [%%r1+%d];\n", d * 8 + g + 1, g * 64 + d * 2);
    for (int d = 0; d < 4; d++)         /* 4 halves from byte 514: not on an 8-byte boundary */
        n += snprintf(text + n, sizeof text - (size_t)n, "ld.shared.u16 %%h%d, [%%r1+%d];\n", 70 + d, 514 + 2 * d);
    snprintf(text + n, sizeof text - (size_t)n, "ret;\n}\n");
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed(text, "joins", 32, "o:256", &k);
    /* 16 groups of four broadcast loads of a wavefront each, or one 8-byte broadcast load */
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 1024);
    double one = model("hopper", &r).wavefronts;
    ck_assert_double_gt(4 - one, 0);
    ck_assert_double_eq_tol(coalsim_analysis_exec(a)->smem_wavefronts_saved, 16 * (4 - one), 1e-9);
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
}
END_TEST

/* ptxas joins a thread's 4-byte shared loads of 16 consecutive bytes into
 * one 128-bit load (LDS.128) even when nine such runs interleave, as in
 * siboehm's 1D-blocktiling SGEMM: 8 rows of As and one of Bs a step. */
START_TEST(test_kernel_nine_interleaved_runs_of_shared_loads_are_each_joined)
{
    char text[8192];
    int n = snprintf(text, sizeof text,
                     SCHED_HEAD ".visible .entry joins(.param .u64 po)\n{\n.reg .b32 %%r<4>;\n.reg .f32 %%f<40>;\n"
                                ".shared .align 16 .b8 s[1024];\nmov.u32 %%r1, s;\n");
    for (int d = 0; d < 4; d++)
        for (int g = 0; g < 9; g++)
            n += snprintf(text + n, sizeof text - (size_t)n, "ld.shared.f32 %%f%d, [%%r1+%d];\n", d * 9 + g + 1, g * 64 + d * 4);
    snprintf(text + n, sizeof text - (size_t)n, "ret;\n}\n");
    coalsim_kernel *k;
    coalsim_analysis *a = run_timed(text, "joins", 32, "o:256", &k);
    /* each run: four broadcast loads of a wavefront each, or one 16-byte broadcast load of 2 */
    ck_assert_double_eq_tol(coalsim_analysis_exec(a)->smem_wavefronts_saved, 9 * (4 - 2), 1e-9);
    coalsim_analysis_free(a);
    coalsim_kernel_free(k);
}
END_TEST

/* Registers for the time's occupancy come from ptxas on the module's PTX;
 * a listing given alone has no module to ask (1: not known), and a name
 * that matches no kernel is an error. */
START_TEST(test_kernel_ptxas_registers_need_a_module)
{
    char err[4096];
    coalsim_resources res;
    coalsim_kernel *k = coalsim_kernel_open("tests/kernels/seeds.ptx", NULL, err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    int rc = coalsim_kernel_resources(k, "transpose1", NULL, &res, err, sizeof err);
    ck_assert_msg(rc == 0 || rc == 1, "%s", err);       /* 1: this machine has no ptxas */
    if (rc == 0) ck_assert(res.regs >= 1 && res.regs <= 255);
    ck_assert_int_eq(coalsim_kernel_resources(k, "nosuch", NULL, &res, err, sizeof err), -1);
    coalsim_kernel_free(k);
    k = coalsim_kernel_open("tests/cli/sass_hand.sass", NULL, err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    ck_assert_int_eq(coalsim_kernel_resources(k, "hand", NULL, &res, err, sizeof err), 1);
    coalsim_kernel_free(k);
}
END_TEST


/* A module whose kernel adds a __constant__ to each element and counts its
 * threads in a __device__ variable, and prints one line from thread 0. */
static const char kept_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n"
    ".global .align 1 .b8 fmt[12] = {116, 105, 100, 32, 37, 100, 32, 37, 115, 10, 0, 0};\n"
    ".global .align 1 .b8 word[3] = {111, 107, 0};\n"
    ".const .align 4 .b32 k[1] = {3};\n"
    ".global .align 4 .u32 counter;\n"
    ".visible .entry add_k(.param .u64 p)\n{\n"
    ".local .align 8 .b8 buf[16];\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<10>;\n"
    "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r2, [%rd4];\n"
    "ld.const.u32 %r3, [k];\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd4], %r4;\n"
    "atom.global.add.u32 %r5, [counter], 1;\n"
    "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra done;\n"
    "mov.u64 %rd5, buf;\ncvta.local.u64 %rd6, %rd5;\nst.local.u32 [buf], %r1;\n"
    "mov.u64 %rd7, word;\ncvta.global.u64 %rd8, %rd7;\nst.local.u64 [buf+8], %rd8;\n"
    "mov.u64 %rd9, fmt;\ncvta.global.u64 %rd9, %rd9;\n"
    "{\n.param .b64 a0;\nst.param.b64 [a0], %rd9;\n.param .b64 a1;\nst.param.b64 [a1], %rd6;\n"
    ".param .b32 r0;\ncall.uni (r0), vprintf, (a0, a1);\n}\n"
    "done:\nret;\n}\n";

static void collect_text(void *ctx, const char *text, size_t n) { strncat(ctx, text, n); }

START_TEST(test_kernel_launches_in_kept_memory_see_what_earlier_launches_and_the_host_left)
{
    char err[1024], printed[256] = "";
    coalsim_memory *m = coalsim_memory_new();
    coalsim_kernel *k = coalsim_kernel_load_ptx(kept_ptx, strlen(kept_ptx), "kept.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    ck_assert_int_eq(coalsim_kernel_use_memory(k, m, err, sizeof err), 0);
    uint64_t a = coalsim_memory_alloc(m, 32 * 4), size = 0;
    ck_assert_uint_ne(a, 0);
    ck_assert_uint_eq(a % 256, 0);
    uint32_t v[32];
    for (unsigned i = 0; i < 32; i++) v[i] = i;
    ck_assert_int_eq(coalsim_memory_write(m, a, v, sizeof v), 0);
    const void *params[1] = {&a};
    coalsim_launch l = {.kernel = "add_k", .grid = {1, 1, 1}, .block = {32, 1, 1}, .param_values = params,
                        .threads = 1, .print = collect_text, .print_ctx = printed};
    coalsim_analysis_cfg cfg = {.arch = arch_of("hopper")};
    coalsim_analysis *an = coalsim_analysis_new(&cfg);
    ck_assert_msg(coalsim_kernel_run(k, &l, an, &cfg, err, sizeof err) == 0, "%s", err);
    coalsim_analysis_free(an);
    ck_assert_str_eq(printed, "tid 0 ok\n");
    /* the host changes the __constant__ between launches */
    uint64_t ka = coalsim_kernel_symbol(k, "k", &size);
    ck_assert_uint_ne(ka, 0);
    ck_assert_uint_eq(size, 4);
    uint32_t ten = 10;
    ck_assert_int_eq(coalsim_memory_write(m, ka, &ten, 4), 0);
    an = coalsim_analysis_new(&cfg);
    ck_assert_msg(coalsim_kernel_run(k, &l, an, &cfg, err, sizeof err) == 0, "%s", err);
    coalsim_analysis_free(an);
    ck_assert_int_eq(coalsim_memory_read(m, a, v, sizeof v), 0);
    for (unsigned i = 0; i < 32; i++) ck_assert_uint_eq(v[i], i + 3 + 10);
    uint32_t count = 0;
    ck_assert_int_eq(coalsim_memory_read(m, coalsim_kernel_symbol(k, "counter", NULL), &count, 4), 0);
    ck_assert_uint_eq(count, 64);
    /* copies and fills within an allocation; nothing outside one */
    ck_assert_int_eq(coalsim_memory_set(m, a, 0xabcd, 2, 8), 0);
    ck_assert_int_eq(coalsim_memory_copy(m, a + 64, a, 16), 0);
    ck_assert_int_eq(coalsim_memory_read(m, a + 64, v, 4), 0);
    ck_assert_uint_eq(v[0], 0xabcdabcdu);
    ck_assert_int_eq(coalsim_memory_read(m, a + 120, v, 16), -1);
    uint64_t base = 0;
    ck_assert_int_eq(coalsim_memory_find(m, a + 100, 4, &base, &size), 0);
    ck_assert_uint_eq(base, a);
    ck_assert_uint_eq(size, 128);
    ck_assert_int_eq(coalsim_memory_release(m, a), 0);
    ck_assert_int_eq(coalsim_memory_find(m, a, 1, NULL, NULL), -1);
    ck_assert_int_eq(coalsim_memory_release(m, a), -1);
    /* a launch that writes into freed memory fails as on a GPU */
    an = coalsim_analysis_new(&cfg);
    ck_assert_int_eq(coalsim_kernel_run(k, &l, an, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "outside every buffer"));
    coalsim_analysis_free(an);
    coalsim_kernel_free(k);
    coalsim_memory_free(m);
}
END_TEST

/* A shuffle whose source lane is not executing it gives 0 (undefined in the
 * PTX ISA; the H100's answer, gpu/probes/h100-shfl-inactive.txt): lanes 0-7
 * shuffle down while lanes 8-31, holding other values, have branched away. */
static const char shfl_inactive_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1000;\n"
    "setp.ge.u32 %p1, %r1, 8;\n@%p1 bra done;\nadd.s32 %r2, %r1, 100;\n"
    "shfl.sync.down.b32 %r3, %r2, 16, 31, 255;\nshfl.sync.down.b32 %r4, %r2, 4, 31, 255;\n"
    "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3], {%r3, %r4};\n"
    "done:\nret;\n}\n";

START_TEST(test_kernel_a_shuffle_from_a_lane_not_executing_it_gives_zero)
{
    char err[1024];
    coalsim_kernel *k = coalsim_kernel_load_ptx(shfl_inactive_ptx, strlen(shfl_inactive_ptx), "shfl.ptx", err, sizeof err);
    ck_assert_msg(k != NULL, "%s", err);
    ck_assert_msg(launch(k, "k", 1, 1, 32, 1, 0, "out:256", 1, err, NULL) == 0, "%s", err);
    uint32_t v[16];
    ck_assert_int_eq(coalsim_kernel_read(k, "out", 0, v, sizeof v), 0);
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(v[2 * l], 0);                                  /* lane l + 16 is not shuffling */
        ck_assert_uint_eq(v[2 * l + 1], l + 4 < 8 ? 100 + l + 4 : 0);    /* lanes 4-7 get 0 from 8-11 */
    }
    coalsim_kernel_free(k);
}
END_TEST

Suite *make_kernel_suite(void)
{
    Suite *s = suite_create("kernel");
    TCase *c = tcase_create("Core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, test_kernel_transpose_writes_the_transpose);
    tcase_add_test(c, test_kernel_scalar_half_fmas_pair_into_hfma2s_on_the_heavy_pipe);
    tcase_add_test(c, test_kernel_shared_memory_reduction_sums_each_block);
    tcase_add_test(c, test_kernel_divergent_loops_break_and_continue_per_lane);
    tcase_add_test(c, test_kernel_calls_and_recursion_return_their_values);
    tcase_add_test(c, test_kernel_shuffles_and_ballots_follow_the_ptx_rules);
    tcase_add_test(c, test_kernel_atomics_are_atomic_across_worker_threads);
    tcase_add_test(c, test_kernel_uniform_address_atomics_are_one_lanes_request_as_ptxas_makes_them);
    tcase_add_test(c, test_kernel_shared_float_adds_loop_a_pass_a_lane_a_word_and_warps_on_one_word_retry);
    tcase_add_test(c, test_kernel_bits_locals_constants_and_division_by_zero);
    tcase_add_test(c, test_kernel_ffs_finds_the_lowest_set_bit_through_bfind_shiftamt);
    tcase_add_test(c, test_kernel_floats_doubles_and_halves);
    tcase_add_test(c, test_kernel_barrier_in_a_loop_with_dynamic_shared_memory);
    tcase_add_test(c, test_kernel_counts_requests_and_instructions_the_same_on_any_thread_count);
    tcase_add_test(c, test_kernel_a_load_waits_for_an_earlier_store_unless_read_only);
    tcase_add_test(c, test_kernel_a_lone_blocks_loads_queue_through_its_sm_port);
    tcase_add_test(c, test_kernel_each_cta_of_a_cluster_has_its_own_tensor_pipes);
    tcase_add_test(c, test_kernel_a_lone_blocks_shared_and_tensor_work_queue_on_its_sm);
    tcase_add_test(c, test_kernel_blocks_that_share_a_sm_queue_for_its_busiest_pipe);
    tcase_add_test(c, test_kernel_a_one_wave_launch_takes_as_long_as_its_slowest_block);
    tcase_add_test(c, test_kernel_a_warm_launch_of_data_that_fits_in_l2_reads_no_dram_and_is_faster);
    tcase_add_test(c, test_kernel_a_reload_of_a_stored_word_hits_l1_unless_volatile_or_strong_beyond_the_cta);
    tcase_add_test(c, test_kernel_a_launch_run_again_reads_what_the_first_wrote);
    tcase_add_test(c, test_kernel_fma_with_directed_rounding_rounds_once_in_its_direction);
    tcase_add_test(c, test_kernel_loads_move_up_only_so_far_past_the_uses_of_earlier_ones);
    tcase_add_test(c, test_kernel_a_short_branch_is_predicated_and_every_warp_issues_it);
    tcase_add_test(c, test_kernel_a_short_if_else_is_predicated_on_both_sides);
    tcase_add_test(c, test_kernel_a_use_at_the_top_of_a_block_holds_back_its_loads);
    tcase_add_test(c, test_kernel_memory_instructions_with_no_lane_on_are_counted_for_the_data_pipe);
    tcase_add_test(c, test_kernel_nine_interleaved_runs_of_shared_loads_are_each_joined);
    tcase_add_test(c, test_kernel_interleaved_runs_of_half_shared_loads_join_four_at_a_time);
    tcase_add_test(c, test_kernel_launches_in_kept_memory_see_what_earlier_launches_and_the_host_left);
    tcase_add_test(c, test_kernel_a_shuffle_from_a_lane_not_executing_it_gives_zero);
    suite_add_tcase(s, c);
    TCase *lim = tcase_create("Limits");
    tcase_add_test(lim, test_kernel_misaligned_access_is_an_error_naming_the_lines);
    tcase_add_test(lim, test_kernel_out_of_bounds_access_is_an_error);
    tcase_add_test(lim, test_kernel_arguments_are_checked_by_parameter);
    tcase_add_test(lim, test_kernel_names_plain_demangled_mangled_or_ambiguous);
    tcase_add_test(lim, test_kernel_bad_ptx_names_the_line);
    tcase_add_test(lim, test_kernel_an_unsupported_instruction_of_a_cu_names_its_source_line);
    tcase_add_test(lim, test_kernel_ptxas_registers_need_a_module);
    suite_add_tcase(s, lim);
    return s;
}
