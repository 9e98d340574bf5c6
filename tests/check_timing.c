/* The time model: device profiles, the throughput bounds, round trips,
 * occupancy and DRAM latency under load. */
#include <stdlib.h>

#include "helpers.h"

static coalsim_profile profile_of(const char *text)
{
    coalsim_profile p;
    char err[200];
    FILE *fp = str_file(text);
    ck_assert_int_eq(coalsim_profile_read(fp, "p", &p, err, sizeof err), 0);
    fclose(fp);
    return p;
}

#define RATES "dram_read_gbs = 3000\ndram_copy_gbs = 2400\nl2_read_gbs = 6000\nsmem_wavefronts_per_ns = 200\n" \
              "launch_us = 5\n"
/* latencies: shared 10/25, L1 20/50, L2 100/130, DRAM 400/550 ns; no block cost */
#define LATS "lat_smem_ns = 10\nlat16_smem_ns = 25\nlat_l1_ns = 20\nlat16_l1_ns = 50\nlat_l2_ns = 100\n" \
             "lat16_l2_ns = 130\nlat_dram_ns = 400\nlat16_dram_ns = 550\n"

static const coalsim_sm_limits lim = {.threads = 2048, .blocks = 32, .smem_bytes = 228 * 1024};

/* Feed one request of warp WARP in block BLOCK, served from DRAM (or, for
 * a store, just written). */
static void feed(coalsim_timing *t, coalsim_op op, uint64_t block, uint64_t warp)
{
    coalsim_request r;
    coalsim_result res;
    REQ_FOR(r, op, COALSIM_GLOBAL, 4, 4 * lane);
    r.block = block, r.warp = warp;
    coalsim_arch a = arch_of("hopper");
    coalsim_model(&a, &r, &res);
    coalsim_hier_counts d = {.l1_sectors = 4, .l2_sectors = 4, .dram_read = op == COALSIM_LD ? 128 : 0};
    ck_assert_int_eq(coalsim_timing_request(t, &r, &res, &d), 0);
}

/* The time of what T was fed, with DRAM_READ bytes read and the execution E
 * (NULL: none); T is freed. */
static coalsim_time finish_exec(coalsim_timing *t, uint64_t dram_read, const coalsim_exec *e)
{
    coalsim_hier_counts c = {.dram_read = dram_read};
    coalsim_time tm;
    ck_assert_int_eq(coalsim_timing_finish(t, &c, e, &tm), 0);
    coalsim_timing_free(t);
    return tm;
}

static coalsim_time finish(coalsim_timing *t, uint64_t dram) { return finish_exec(t, dram, NULL); }

START_TEST(test_profile_predicts_the_slowest_throughput_bound)
{
    coalsim_profile p = profile_of("# h100\ndevice = X\nsms = 132\n" RATES "l1_read_gbs = 20000\n");
    coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    coalsim_hier_counts c = {.dram_read = 3000000, .dram_write = 0, .l2_sectors = 1000};
    coalsim_time tm;
    ck_assert_int_eq(coalsim_timing_finish(t, &c, NULL, &tm), 0);
    ck_assert_double_eq_tol(tm.dram_us, 1.0, 1e-9);           /* 3 MB at 3000 GB/s */
    ck_assert_double_eq_tol(tm.total_us, 6.0, 1e-9);
    ck_assert_str_eq(tm.bound, "DRAM");
    ck_assert_double_eq_tol(tm.latency_us, 0.0, 1e-12);      /* no latencies in the profile */
    ck_assert_int_eq(tm.latency_modelled, 0);
    ck_assert_double_eq_tol(tm.launch_us, 5.0, 1e-12);
    c.dram_write = 2000000;                                   /* writes at 1/(2/2400 - 1/3000) = 2000 GB/s */
    coalsim_timing_finish(t, &c, NULL, &tm);
    ck_assert_double_eq_tol(tm.dram_us, 2.0, 1e-9);
    coalsim_timing_free(t);
}
END_TEST

START_TEST(test_tma_loads_pass_l2_at_its_tma_rate_all_of_a_launchs_sectors_or_part)
{
    /* l2_tma_read_gbs for the TMA loads' sectors, l2_read_gbs for the rest; a launch whose L2 sectors
     * are all TMA loads' (gpu/probes/tma_pipe.cu) takes them all at the TMA rate */
    coalsim_profile p = profile_of(RATES "l2_tma_read_gbs = 8000\n");
    for (int other = 0; other <= 1000; other += 1000) {
        coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
        coalsim_request r;
        coalsim_result res;
        REQ_FOR(r, COALSIM_BULK_LD, COALSIM_GLOBAL, 4, 4 * lane);
        coalsim_arch a = arch_of("hopper");
        coalsim_model(&a, &r, &res);
        coalsim_hier_counts d = {.l2_sectors = res.sectors};
        for (int i = 0; i < 250; i++) ck_assert_int_eq(coalsim_timing_request(t, &r, &res, &d), 0);
        double bulk = 250.0 * res.sectors;
        coalsim_hier_counts c = {.l2_sectors = (uint64_t)bulk + (uint64_t)other};
        coalsim_time tm;
        ck_assert_int_eq(coalsim_timing_finish(t, &c, NULL, &tm), 0);
        ck_assert_double_eq_tol(tm.l2_us, bulk * 32 / 8e6 + other * 32 / 6e6, 1e-9);
        coalsim_timing_free(t);
    }
}
END_TEST

START_TEST(test_a_lone_64_bytes_of_a_dram_piece_take_the_profiles_factor_and_a_whole_piece_a_streams_time)
{
    coalsim_profile p = profile_of(RATES "dram_piece = 1.4 1.1 1.05\n");
    /* 3.072 MB read as whole pieces: 1.024 us at the stream's rate */
    coalsim_hier_counts c = {.dram_read = 3072000};
    for (int k = 0; k < 4; k++) c.dram_piece_nth[k] = 3072000 / 256;
    coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    coalsim_time tm;
    ck_assert_int_eq(coalsim_timing_finish(t, &c, NULL, &tm), 0);
    ck_assert_double_eq_tol(tm.dram_us, 1.024, 1e-9);
    /* the same bytes a 64-byte read a piece: 1.4 times */
    c.dram_piece_nth[0] = 3072000 / 64;
    c.dram_piece_nth[1] = c.dram_piece_nth[2] = c.dram_piece_nth[3] = 0;
    coalsim_timing_finish(t, &c, NULL, &tm);
    ck_assert_double_eq_tol(tm.dram_us, 1.4 * 1.024, 1e-9);
    /* two of a piece's four: 1.1 times */
    c.dram_piece_nth[0] = c.dram_piece_nth[1] = 3072000 / 128;
    coalsim_timing_finish(t, &c, NULL, &tm);
    ck_assert_double_eq_tol(tm.dram_us, 1.1 * 1.024, 1e-9);
    coalsim_timing_free(t);
    /* without the key a piece costs what a stream does */
    p = profile_of(RATES);
    t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    c.dram_piece_nth[1] = 0;
    c.dram_piece_nth[0] = 3072000 / 64;
    coalsim_timing_finish(t, &c, NULL, &tm);
    ck_assert_double_eq_tol(tm.dram_us, 1.024, 1e-9);
    coalsim_timing_free(t);
}
END_TEST

START_TEST(test_a_load_that_waits_for_another_warps_fetch_counts_where_that_fetch_came_from)
{
    coalsim_profile p = profile_of(RATES LATS);
    coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    coalsim_arch a = arch_of("hopper");
    coalsim_request r;
    coalsim_result res;
    REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
    coalsim_model(&a, &r, &res);
    const coalsim_hier_counts d[4] = {
        {.l1_sectors = 4, .l1_hits = 4},                              /* L1 */
        {.l1_sectors = 4, .l1_hits = 4, .inflight_l2 = 4},            /* L1 hits on a line on its way from L2 */
        {.l1_sectors = 4, .l2_sectors = 4, .l2_hits = 4, .inflight_dram = 4},   /* L2 hits on one from DRAM */
        {.l1_sectors = 4, .l1_hits = 4, .inflight_dram = 4},          /* L1 hits on one from DRAM */
    };
    for (int i = 0; i < 4; i++) {
        r.warp = (uint64_t)i;
        ck_assert_int_eq(coalsim_timing_request(t, &r, &res, &d[i]), 0);
    }
    coalsim_time tm = finish(t, 0);
    ck_assert_uint_eq(tm.loads[COALSIM_LV_L1], 1);
    ck_assert_uint_eq(tm.loads[COALSIM_LV_L2], 1);
    ck_assert_uint_eq(tm.loads[COALSIM_LV_DRAM], 2);
}
END_TEST

START_TEST(test_l1_pipe_time_is_the_busiest_sms)
{
    coalsim_profile p = profile_of(RATES);
    coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    /* 1000 coalesced loads on SM 0 (one line each), none on SM 1: 1000
     * wavefronts at 200/2 per ns */
    for (int i = 0; i < 1000; i++) feed(t, COALSIM_LD, 0, 0);
    coalsim_time tm = finish(t, 0);
    ck_assert_double_eq_tol(tm.l1_us, 1000 / 100.0 / 1e3, 1e-12);
    ck_assert_str_eq(tm.bound, "L1");
}
END_TEST

START_TEST(test_a_round_trip_holds_up_to_mlp_loads)
{
    coalsim_profile p = profile_of(RATES LATS);
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
    for (int i = 0; i < 32; i++) feed(t, COALSIM_LD, 0, 0);
    coalsim_time tm = finish(t, 0);
    ck_assert_double_eq_tol(tm.latency_us, 2 * 550 / 1e3, 1e-9);          /* two trips of 16 */
    ck_assert_double_eq_tol(tm.dram_round_trip_ns, 550, 1e-9);
    t = coalsim_timing_new(&p, 1, &lim, 32, 4);
    for (int i = 0; i < 6; i++) feed(t, COALSIM_LD, 0, 0);
    tm = finish(t, 0);                                                   /* 4 then 2 loads */
    ck_assert_double_eq_tol(tm.latency_us, (400 + 3 * 10.0) / 1e3 + (400 + 10.0) / 1e3, 1e-9);
}
END_TEST

START_TEST(test_a_store_ends_a_round_trip)
{
    coalsim_profile p = profile_of(RATES LATS);
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
    feed(t, COALSIM_LD, 0, 0);
    feed(t, COALSIM_ST, 0, 0);
    feed(t, COALSIM_LD, 0, 0);
    coalsim_time tm = finish(t, 0);
    ck_assert_double_eq_tol(tm.latency_us, 0.8, 1e-9);                    /* 2 x 400 ns */
    ck_assert_str_eq(tm.bound, "latency");
    ck_assert_double_eq_tol(tm.total_us, 5.8, 1e-9);
}
END_TEST

START_TEST(test_a_block_lasts_as_long_as_its_slowest_warp)
{
    coalsim_profile p = profile_of(RATES LATS);
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 1);
    feed(t, COALSIM_LD, 0, 0);
    for (int i = 0; i < 3; i++) feed(t, COALSIM_LD, 0, 5);
    coalsim_time tm = finish(t, 0);
    ck_assert_double_eq_tol(tm.latency_us, 1.2, 1e-9);
    ck_assert_uint_eq(tm.block_warps, 6);
}
END_TEST

START_TEST(test_a_wider_block_waits_longer_for_its_slowest_warp)
{
    /* block_tail 8:1.5: 8 warps of one 400 ns DRAM trip each last 1.5 x 400;
     * 4 warps, a third of the way less in log2(W): 1 + 0.5 * 2/3; 1 warp: 400;
     * a warp of 4 trips varies by the root of 4 trips, 2 x 400, not 4 x 400 */
    coalsim_profile p = profile_of(RATES LATS "block_tail = 8:1.5\n");
    static const struct {
        unsigned warps, trips;
        double us;
    } want[] = {{8, 1, 0.6}, {4, 1, 0.4 * (1 + 0.5 * 2 / 3.0)}, {1, 1, 0.4}, {8, 4, 1.6 + 0.5 * 0.8}, {64, 1, 0.6}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 1);
        for (unsigned w = 0; w < want[i].warps; w++)
            for (unsigned k = 0; k < want[i].trips; k++) feed(t, COALSIM_LD, 0, w);
        coalsim_time tm = finish(t, 0);
        ck_assert_double_eq_tol(tm.latency_us, want[i].us, 1e-9);
    }
}
END_TEST

START_TEST(test_occupancy_limits_the_blocks_a_sm_runs_at_once)
{
    /* 1024-thread blocks (warp 31 seen): 2 at once; 4 blocks of one 400 ns
     * trip each, starting 100 ns apart: 0-400, 100-500, 400-800, 500-900 */
    coalsim_profile p = profile_of(RATES LATS "block_ns = 100\n");
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
    for (uint64_t b = 0; b < 4; b++) {
        feed(t, COALSIM_LD, b, 0);
        feed(t, COALSIM_ST, b, 31);
    }
    coalsim_time tm = finish(t, 0);
    ck_assert_uint_eq(tm.resident_blocks, 2);
    ck_assert_double_eq_tol(tm.latency_us, 0.9, 1e-9);
}
END_TEST

START_TEST(test_interleaved_blocks_are_timed_as_in_order)
{
    coalsim_profile p = profile_of(RATES LATS "block_ns = 100\n");
    coalsim_time tm[2];
    for (int order = 0; order < 2; order++) {
        coalsim_timing *t = coalsim_timing_new(&p, 3, &lim, 32, 1);
        /* 9000 blocks, more than are kept open at once */
        for (uint64_t b = 0; b < 9000; b += 2)
            for (int i = 0; i < 4; i++) {
                feed(t, COALSIM_LD, b + (order ? (unsigned)i % 2 : (unsigned)i / 2), 0);
            }
        tm[order] = finish(t, 0);
    }
    ck_assert_double_eq_tol(tm[0].latency_us, tm[1].latency_us, 1e-9);
    ck_assert_double_gt(tm[0].latency_us, 0);
}
END_TEST

START_TEST(test_dram_latency_settles_where_bandwidth_and_time_agree)
{
    /* the round trip in ns equals the GB/s in use (100 to 1000); one trip of
     * one load moving 40000 bytes: L = 40000 / L, so L = 200 ns */
    coalsim_profile p = profile_of("dram_read_gbs = 1000000\ndram_copy_gbs = 1000000\nl2_read_gbs = 6000\n"
                                   "smem_wavefronts_per_ns = 200\nlaunch_us = 5\n" LATS
                                   "lat_dram_ns = 100\nlat16_dram_ns = 100\ndram_loaded = 100:100 1000:1000\n");
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
    feed(t, COALSIM_LD, 0, 0);
    coalsim_time tm = finish(t, 40000);
    ck_assert_double_eq_tol(tm.dram_round_trip_ns, 200, 1e-6);
    ck_assert_int_eq(tm.latency_modelled, 1);
    ck_assert_double_eq_tol(tm.dram_slowdown, 2.0, 1e-9);                 /* 200 over the idle 100 */
    ck_assert_double_eq_tol(tm.latency_us, 0.2, 1e-9);
    ck_assert_double_eq_tol(tm.total_us, 5.2, 1e-9);
}
END_TEST

/* Launch 100 global atomic requests of SIZE bytes a lane, on a profile
 * with the atomic KEYS, request k's lane l at ADDR(k, l) (all lanes if
 * ONE_LANE is 0, else lane 0 alone), floating-point if FP, reductions
 * (every other one an atomic that returns its value if MIXED);
 * L2_SECTORS the launch's.  Its time. */
static coalsim_time atomic_launch(const char *keys, int fp, unsigned size, int one_lane, int mixed,
                                  uint64_t (*addr)(unsigned k, unsigned l), uint64_t l2_sectors)
{
    char text[512];
    snprintf(text, sizeof text, RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\nlaunch_b2b_us = 1\n%s", keys);
    coalsim_profile p = profile_of(text);
    coalsim_arch a = arch_of("hopper");
    coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
    for (unsigned k = 0; k < 100; k++) {
        coalsim_request r;
        coalsim_result res;
        REQ_FOR(r, mixed && k % 2 ? COALSIM_ATOM : COALSIM_RED, COALSIM_GLOBAL, size, addr(k, lane));
        if (one_lane) r.active = 1;
        r.atomic_float = (unsigned char)fp;
        r.block = k % 2, r.warp = 0;
        coalsim_model(&a, &r, &res);
        coalsim_hier_counts d = {.l1_sectors = res.sectors, .l2_sectors = res.sectors};
        ck_assert_int_eq(coalsim_timing_request(t, &r, &res, &d), 0);
    }
    coalsim_exec e = {.isa = "PTX", .path_blocks = 2, .block_threads = 32, .inst_executed = 200};
    e.pipe_inst[COALSIM_PIPE_LSU] = 200;
    coalsim_hier_counts c = {.l2_sectors = l2_sectors};
    coalsim_time tm;
    ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
    coalsim_timing_free(t);
    return tm;
}

static uint64_t word_zero(unsigned k, unsigned l) { return (void)k, (void)l, 0; }
static uint64_t own_sectors(unsigned k, unsigned l) { return (uint64_t)(k * 32 + l) * 32; }

/* L2's atomic units: a kernel of global reductions on distinct addresses
 * takes its atomic sectors at atomic_sector_ns each (all SMs together), and
 * one on a single address its lanes at atomic_same_ns each (no integer rate
 * given), whichever is longer; the profile's key is read. */
START_TEST(test_global_atomics_take_their_sectors_at_the_l2_atomic_rate)
{
    static const char keys[] = "atomic_same_ns = 2\natomic_sector_ns = 0.5\n";
    coalsim_profile p = profile_of(RATES "atomic_sector_ns = 0.5\n");
    ck_assert_double_eq_tol(p.atomic_sector_ns, 0.5, 1e-12);
    for (int one = 0; one < 2; one++) {
        coalsim_time tm = atomic_launch(keys, 0, 4, 0, 0, one ? word_zero : own_sectors, 3200);
        ck_assert_uint_eq(tm.atomic_sectors, 3200);           /* 32 sectors a request either way */
        /* distinct: 3200 sectors x 0.5 ns; one address: 3200 lanes x 2 ns */
        ck_assert_double_eq_tol(tm.atomic_us, one ? 6.4 : 1.6, 1e-9);
        ck_assert_str_eq(tm.bound, "atomics");
        ck_assert_double_eq_tol(tm.total_us, 1 + tm.atomic_us, 1e-9);
    }
}
END_TEST

/* The busiest address of a launch's global atomics (JSON atomic_hot_ops)
 * is counted over its first 4 Mi addresses and then said to be a lower
 * bound: a launch of coalesced atomics touches hundreds of millions, and a
 * map of them all took 1.7 GB (HeCBench atomicCost, 16 Mi words).  Below
 * that it is exact. */
START_TEST(test_the_busiest_atomic_address_is_counted_over_at_most_4_mi_addresses)
{
    coalsim_profile p = profile_of(RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\nlaunch_b2b_us = 1\n"
                                         "atomic_sector_ns = 0.001\n");
    coalsim_arch a = arch_of("hopper");
    for (int big = 0; big < 2; big++) {
        coalsim_timing *t = coalsim_timing_new(&p, 2, &lim, 32, 16);
        /* word 0 by lane 0 of every request; 31 new words a request after it */
        unsigned n = big ? (1u << 22) / 31 + 2000 : 1000;
        for (unsigned k = 0; k < n; k++) {
            coalsim_request r;
            coalsim_result res;
            REQ_FOR(r, COALSIM_RED, COALSIM_GLOBAL, 4, lane ? (uint64_t)(k * 31 + lane) * 4 : 0);
            r.block = k % 2, r.warp = 0;
            coalsim_model(&a, &r, &res);
            coalsim_hier_counts d = {.l1_sectors = res.sectors, .l2_sectors = res.sectors};
            ck_assert_int_eq(coalsim_timing_request(t, &r, &res, &d), 0);
        }
        coalsim_exec e = {.isa = "PTX", .path_blocks = 2, .block_threads = 32, .inst_executed = n};
        coalsim_hier_counts c = {0};
        coalsim_time tm;
        ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
        coalsim_timing_free(t);
        ck_assert_uint_eq(tm.atomic_hot_ops, n);            /* word 0 came first: counted throughout */
        ck_assert_int_eq(tm.atomic_hot_ops_partial, big);
    }
}
END_TEST

/* atomic_us of atomic_launch on a profile whose L2 takes an integer lane on
 * a busy word in 1 ns, a float add's in 2, a pass over a sector in 0.5 (a
 * double's 1.5). */
static double atomic_time(int fp, unsigned size, int one_lane, int mixed, uint64_t (*addr)(unsigned k, unsigned l))
{
    return atomic_launch("atomic_same_ns = 2\natomic_int_ns = 1\natomic_pass_ns = 0.5\n"
                         "atomic_pass_f64_ns = 1.5\natomic_sector_ns = 0.0001\n",
                         fp, size, one_lane, mixed, addr, 100)
        .atomic_us;
}

static uint64_t one_word(unsigned k, unsigned l) { return (void)k, (void)l, 0x1000; }
static uint64_t words_of_a_line(unsigned k, unsigned l) { return (void)k, 0x1000 + 4 * (uint64_t)l; }
static uint64_t doubles_of_two_lines(unsigned k, unsigned l) { return (void)k, 0x1000 + 8 * (uint64_t)l; }
static uint64_t word_of_request(unsigned k, unsigned l) { return (void)l, 0x1000 + 4 * (uint64_t)(k % 32); }
static uint64_t two_words_256_apart(unsigned k, unsigned l) { return (void)l, 0x1000 + 256 * (uint64_t)(k % 2); }
static uint64_t two_words_512_apart(unsigned k, unsigned l) { return (void)l, 0x1000 + 512 * (uint64_t)(k % 2); }
/* the four lines of one unit (0, 128, 512, 640 bytes), four sectors of each, two words a sector */
static uint64_t sixteen_sectors_of_a_unit(unsigned k, unsigned l)
{
    static const uint64_t line[4] = {0, 128, 512, 640};
    return (void)k, 0x1000 + line[l % 4] + 32 * (uint64_t)(l / 4 % 4) + 4 * (uint64_t)(l / 16);
}

/* L2's atomic units (gpu/probes/atomic_rate.cu, atomic_lines.cu,
 * atomic_wide.cu): a unit's requests one after another (lines 512 bytes
 * apart share one, 256 apart do not); an integer request a pass a sector
 * it touches and a lane time for each further lane on a sector's busiest
 * word; a float's busiest word at its lane time or its sectors' passes (a
 * double's dearer), whichever is longer; a unit that serves atomics that
 * return a value and reductions takes the lesser kind's time again. */
START_TEST(test_an_atomic_units_requests_go_one_after_another_at_their_data_types_rate)
{
    ck_assert_double_eq_tol(atomic_time(0, 4, 0, 0, one_word), 100 * 31.5e-3, 1e-9);      /* a pass and 31 lanes */
    ck_assert_double_eq_tol(atomic_time(1, 4, 0, 0, one_word), 100 * 64e-3, 1e-9);        /* 32 float lanes x 2 */
    ck_assert_double_eq_tol(atomic_time(0, 4, 0, 0, words_of_a_line), 100 * 2e-3, 1e-9);  /* 4 sectors' passes */
    ck_assert_double_eq_tol(atomic_time(1, 4, 0, 0, words_of_a_line), 100 * 2e-3, 1e-9);  /* the same for floats */
    ck_assert_double_eq_tol(atomic_time(1, 8, 0, 0, doubles_of_two_lines), 100 * 12e-3, 1e-9);   /* 8 x 1.5 */
    ck_assert_double_eq_tol(atomic_time(0, 4, 0, 0, sixteen_sectors_of_a_unit), 100 * 8e-3, 1e-9);
    ck_assert_double_eq_tol(atomic_time(0, 4, 0, 0, word_of_request), 100 * 31.5e-3, 1e-9); /* one line, 32 words */
    ck_assert_double_eq_tol(atomic_time(0, 4, 1, 0, two_words_256_apart), 50 * 1e-3, 1e-9);  /* side by side */
    ck_assert_double_eq_tol(atomic_time(0, 4, 1, 0, two_words_512_apart), 100 * 1e-3, 1e-9); /* one unit */
    /* 50 that return their value and 50 reductions: the lesser kind's time again */
    ck_assert_double_eq_tol(atomic_time(0, 4, 0, 1, one_word), 150 * 31.5e-3, 1e-9);
}
END_TEST

/* R blocks started together share the SM's schedulers in a stretch between
 * barriers: the stretch takes their issue where that is longer than one
 * block's; blocks started STAGGER apart share it only as far as they
 * overlap in it (coalsim_exec_phase). */
START_TEST(test_blocks_in_phase_share_the_schedulers_as_far_as_their_starts_overlap)
{
    coalsim_exec e;
    memset(&e, 0, sizeof e);
    /* alone: 300 cycles (its busiest scheduler); all four: 1000 cycles' issue */
    coalsim_exec_phase(&e, 300, 1000, 200, 0);
    ck_assert_double_eq_tol(e.path_phase[0], 0, 1e-12);         /* one block: nothing added */
    ck_assert_double_eq_tol(e.path_phase[1], 200, 1e-9);        /* two: 500 */
    ck_assert_double_eq_tol(e.path_phase[3], 700, 1e-9);        /* four: 1000 */
    memset(&e, 0, sizeof e);
    coalsim_exec_phase(&e, 300, 1000, 200, 300);               /* started 300 apart: two overlap */
    ck_assert_double_eq_tol(e.path_phase[3], 200, 1e-9);
    ck_assert_double_eq_tol(e.path_phase[31], 200, 1e-9);
    memset(&e, 0, sizeof e);
    coalsim_exec_phase(&e, 300, 1000, 2000, 0);                /* a chain longer than any issue */
    ck_assert_double_eq_tol(e.path_phase[7], 0, 1e-12);
}
END_TEST

/* Warps sharing a scheduler wait for each other where their stalls alone
 * and their issue are about as long: one block of 8 warps (2 a scheduler),
 * each warp 500 cycles of issue in a 1000-cycle path, takes 1250 cycles
 * (a closed queue: the second warp finds the first issuing a quarter of
 * the time), where the larger of the two says 1000; far from the knee
 * (a 4000-cycle path) they barely meet. */
START_TEST(test_warps_sharing_a_scheduler_wait_for_each_other_near_the_knee)
{
    coalsim_profile p = profile_of(RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\npipe_fma = 8\nlaunch_b2b_us = 1\n");
    const double path[2] = {1000, 4000}, want[2] = {1.25, 4.0625};
    for (int k = 0; k < 2; k++) {
        coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
        coalsim_exec e = {.isa = "SASS", .path_blocks = 1, .block_threads = 256, .inst_executed = 4000,
                          .path_cycles = path[k]};
        e.pipe_inst[COALSIM_PIPE_FMA] = 4000;            /* issue: 4000 / 4 = 1000 cycles, 500 a warp */
        coalsim_hier_counts c = {0};
        coalsim_time tm;
        ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
        coalsim_timing_free(t);
        ck_assert_double_eq_tol(tm.issue_us, 1.0, 1e-9);
        ck_assert_double_eq_tol(tm.path_us, want[k], 1e-9);
        ck_assert_double_eq_tol(tm.total_us, 1 + want[k], 1e-9);
        ck_assert_str_eq(tm.bound, "latency");
    }
}
END_TEST

/* A memory instruction issued with no lane on takes a wavefront of the L1
 * data pipe (gpu/probes/pred_off.cu): 1000 lines loaded through L1 and
 * 500 instructions with every lane off keep the pipe busy 1500 cycles. */
START_TEST(test_memory_instructions_with_no_lane_on_take_the_l1_data_pipe)
{
    coalsim_profile p = profile_of(RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\nsmem_wavefronts_per_cycle = 1\n"
                                         "l1_lines_per_cycle = 1\nlaunch_b2b_us = 1\n");
    for (int off = 0; off < 2; off++) {
        coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
        for (int i = 0; i < 1000; i++) feed(t, COALSIM_LD, 0, (uint64_t)i % 8);
        coalsim_exec e = {.isa = "SASS", .path_blocks = 1, .block_threads = 256, .inst_executed = 1500,
                          .mem_inactive = off ? 500 : 0};
        e.pipe_inst[COALSIM_PIPE_LSU] = 1500;
        coalsim_hier_counts c = {0};
        coalsim_time tm;
        ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
        coalsim_timing_free(t);
        ck_assert_double_eq_tol(tm.smem_us, off ? 1.5 : 1.0, 1e-9);
    }
}
END_TEST

/* The blocks a SM holds use its L1 data pipe and DRAM one stretch after
 * another (load, then work): 2 blocks, each 1000 cycles of L1 and 900 of
 * DRAM, take what a closed queue of 2 jobs over the two says (2853
 * cycles), not the larger of the two (2000). */
START_TEST(test_blocks_queue_for_the_l1_data_pipe_and_dram_in_turn)
{
    coalsim_profile p = profile_of(RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\nsmem_wavefronts_per_cycle = 1\n"
                                         "l1_lines_per_cycle = 1\nlaunch_b2b_us = 1\n");
    coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
    for (uint64_t b = 0; b < 2; b++)
        for (int i = 0; i < 1000; i++) feed(t, COALSIM_LD, b, (uint64_t)i % 8);
    coalsim_exec e = {.isa = "PTX", .path_blocks = 2, .block_threads = 256, .inst_executed = 2000};
    e.pipe_inst[COALSIM_PIPE_LSU] = 2000;
    coalsim_hier_counts c = {.dram_read = 5400000};            /* 1.8 us at 3000 GB/s */
    coalsim_time tm;
    ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
    coalsim_timing_free(t);
    ck_assert_double_eq_tol(tm.smem_us, 2.0, 1e-9);
    ck_assert_double_eq_tol(tm.dram_b2b_us, 1.8, 1e-9);
    /* one job: each queue empty; two: each waits for the other's share */
    double d1 = 1.0, d2 = 0.9, q1 = d1 / (d1 + d2), q2 = d2 / (d1 + d2);
    ck_assert_double_eq_tol(tm.total_us, 1 + d1 * (1 + q1) + d2 * (1 + q2), 1e-9);
    ck_assert_str_eq(tm.bound, "L1/shared");
}
END_TEST

/* A load on a block's path is the one its warp waits for: with one load a
 * round trip (the warp's loads over the path's), any of the launch's, at
 * their mean; with several, the slowest: one that missed L1, at the mean of
 * those that did, where one of the round trip's did (1 - (1 - f)^n of the
 * time, f the launch's share of misses, n loads a trip), else L1's (FDTD3d
 * in held-out round 11 waits for a plane from DRAM every z step among
 * L1-served halo loads: at the mean of all its loads, 163 ns, it ran 0.6x of
 * the GPU's time; HeCBench interleave in round 14, 2 loads a trip and 4 k
 * of 8.4 M loads missing, at the misses' mean 7.3x). */
START_TEST(test_a_path_load_waits_for_a_miss_where_its_warp_issues_several)
{
    coalsim_profile p = profile_of(RATES LATS "sm_clock_mhz = 1000\nissue_per_cycle = 4\n");
    coalsim_arch a = arch_of("hopper");
    /* 12 loads, 9 L1 hits and 3 misses (from DRAM, or 1 from DRAM and 2 from L2, or none),
     * in 12 warps of one load a trip or 4 warps of three */
    for (int c = 0; c < 6; c++) {
        unsigned warps = c < 3 ? 12 : 4, kind = c % 3;
        coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
        coalsim_request r;
        coalsim_result res;
        REQ_FOR(r, COALSIM_LD, COALSIM_GLOBAL, 4, 4 * lane);
        coalsim_model(&a, &r, &res);
        const coalsim_hier_counts hit = {.l1_sectors = 4, .l1_hits = 4};
        const coalsim_hier_counts l2 = {.l1_sectors = 4, .l2_sectors = 4, .l2_hits = 4};
        const coalsim_hier_counts dram = {.l1_sectors = 4, .l2_sectors = 4, .dram_read = 128};
        for (int i = 0; i < 12; i++) {
            r.warp = (uint64_t)i % warps;
            const coalsim_hier_counts *d = i < 9 || kind == 2 ? &hit : kind == 0 || i == 9 ? &dram : &l2;
            ck_assert_int_eq(coalsim_timing_request(t, &r, &res, d), 0);
        }
        coalsim_exec e = {.isa = "PTX", .path_blocks = 1, .block_threads = 32 * warps, .inst_executed = 12, .path_loads = 1};
        coalsim_time tm = finish_exec(t, 0, &e);
        /* one a trip: the mean (115, 65, 20); three: a quarter missing, a trip waits for a miss
         * 1 - 0.75^3 of the time (their mean 400, 200), else for L1 (20); L1's where all hit */
        const double any = 1 - 0.75 * 0.75 * 0.75;
        const double want[6] = {(9 * 20 + 3 * 400) / 12.0, (9 * 20 + 400 + 2 * 100) / 12.0, 20,
                                any * 400 + (1 - any) * 20, any * 200 + (1 - any) * 20, 20};
        ck_assert_double_eq_tol(tm.load_ns, want[c], 1e-6);
    }
}
END_TEST

/* A cold launch starts after a flush, as Nsight Compute replays it: what
 * the launch before it left dirty is not written back in its time (held-out
 * round 11: ncu ran launches of 67-134 MB that write 1.23-1.40x faster than
 * that).  The report gives the back-to-back figure beside it: 2 us of reads,
 * 2 us of writes, and 20 us of the previous launch's dirty lines when the
 * data does not fit in L2 (nothing more when it does). */
START_TEST(test_a_cold_launch_writes_back_nothing_of_the_launch_before_it)
{
    coalsim_profile p = profile_of(RATES "sm_clock_mhz = 1000\nissue_per_cycle = 4\nlaunch_b2b_us = 1\n");
    for (int fits = 0; fits < 2; fits++) {
        coalsim_timing *t = coalsim_timing_new(&p, 1, &lim, 32, 16);
        coalsim_timing_set_dirty(t, 40000000, fits ? 100000000 : 16000000);
        coalsim_exec e = {.isa = "PTX", .path_blocks = 1, .block_threads = 32, .inst_executed = 1};
        coalsim_hier_counts c = {.dram_read = 6000000, .dram_write = 4000000};   /* 2 us each (write: 2000 GB/s) */
        coalsim_time tm;
        ck_assert_int_eq(coalsim_timing_finish(t, &c, &e, &tm), 0);
        coalsim_timing_free(t);
        ck_assert_double_eq_tol(tm.dram_us, 4.0, 1e-9);
        ck_assert_double_eq_tol(tm.dram_b2b_us, fits ? 4.0 : 24.0, 1e-9);
        ck_assert_double_eq_tol(tm.total_us, 1 + 4.0, 1e-9);
        ck_assert_str_eq(tm.bound, "DRAM");
    }
}
END_TEST

START_TEST(test_profile_errors_name_the_line)
{
    coalsim_profile p;
    char err[200];
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"dram_read_gbs = fast\n", "p:1: dram_read_gbs needs a positive number"},
        {"colour = 3\n", "p:1: unknown key 'colour'"},
        {"\ndram_loaded = 100:5 50:6\n", "p:2: dram_loaded needs GBS:NS pairs, bandwidth rising"},
        {"dram_loaded = 100\n", "p:1: dram_loaded needs GBS:NS pairs, bandwidth rising"},
        {"block_tail = 8:0.9\n", "p:1: block_tail needs WARPS:FACTOR pairs, warps rising, both at least 1"},
        {"block_tail = 8:1.2 4:1.3\n", "p:1: block_tail needs WARPS:FACTOR pairs, warps rising, both at least 1"},
        {"dram_read_gbs = 1\n", "p: needs dram_read_gbs, dram_copy_gbs, l2_read_gbs and smem_wavefronts_per_ns"},
        {"\n\ndram_piece = 1.4 1.1\n", "p:3: dram_piece needs three factors from 1 to 8 (a piece read by 1, 2, 3 of 4)"},
        {"dram_piece = 1.4 0.9 1\n", "p:1: dram_piece needs three factors from 1 to 8 (a piece read by 1, 2, 3 of 4)"},
        {"dram_piece = 1.4 1.1 1 1\n", "p:1: dram_piece needs three factors from 1 to 8 (a piece read by 1, 2, 3 of 4)"},
        {"\nl2_home_mask = 0x200000\n", "p:2: l2_home_mask needs address bits within a 2 MiB page (0x1 to 0x1fffff)"},
        {"l2_home_mask = 4096.5\n", "p:1: l2_home_mask needs address bits within a 2 MiB page (0x1 to 0x1fffff)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE *fp = str_file(bad[i].text);
        ck_assert_int_eq(coalsim_profile_read(fp, "p", &p, err, sizeof err), -1);
        ck_assert_str_eq(err, bad[i].msg);
        fclose(fp);
    }
    /* two L2 sides: the mask of the address bits a line's home side is the parity of */
    p = profile_of(RATES "l2_home_mask = 0xB3000\n");
    ck_assert_uint_eq(p.l2_home_mask, 0xB3000);
    /* a partial set of latencies is no latency term, not a wrong one */
    p = profile_of(RATES "lat_dram_ns = 400\n");
    ck_assert_double_eq(p.lat_ns[COALSIM_LV_DRAM], 0);
}
END_TEST

START_TEST(test_timing_refuses_unusable_arguments)
{
    coalsim_profile p = profile_of(RATES);
    ck_assert_ptr_null(coalsim_timing_new(&p, 0, &lim, 32, 16));
    ck_assert_ptr_null(coalsim_timing_new(&p, 1, &lim, 32, 0));
    ck_assert_ptr_null(coalsim_timing_new(&p, 1, &lim, 32, 65));
    coalsim_sm_limits l;
    ck_assert_int_eq(coalsim_sm_limits_preset("pascal", &l), -1);
    ck_assert_int_eq(coalsim_sm_limits_preset("hopper", &l), 0);
    ck_assert_uint_eq(l.threads, 2048);
}
END_TEST

Suite *make_timing_suite(void)
{
    Suite *s = suite_create("timing");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_profile_predicts_the_slowest_throughput_bound);
    tcase_add_test(c, test_tma_loads_pass_l2_at_its_tma_rate_all_of_a_launchs_sectors_or_part);
    tcase_add_test(c, test_a_lone_64_bytes_of_a_dram_piece_take_the_profiles_factor_and_a_whole_piece_a_streams_time);
    tcase_add_test(c, test_a_load_that_waits_for_another_warps_fetch_counts_where_that_fetch_came_from);
    tcase_add_test(c, test_global_atomics_take_their_sectors_at_the_l2_atomic_rate);
    tcase_add_test(c, test_an_atomic_units_requests_go_one_after_another_at_their_data_types_rate);
    tcase_add_test(c, test_the_busiest_atomic_address_is_counted_over_at_most_4_mi_addresses);
    tcase_add_test(c, test_blocks_in_phase_share_the_schedulers_as_far_as_their_starts_overlap);
    tcase_add_test(c, test_warps_sharing_a_scheduler_wait_for_each_other_near_the_knee);
    tcase_add_test(c, test_blocks_queue_for_the_l1_data_pipe_and_dram_in_turn);
    tcase_add_test(c, test_a_cold_launch_writes_back_nothing_of_the_launch_before_it);
    tcase_add_test(c, test_a_path_load_waits_for_a_miss_where_its_warp_issues_several);
    tcase_add_test(c, test_memory_instructions_with_no_lane_on_take_the_l1_data_pipe);
    tcase_add_test(c, test_l1_pipe_time_is_the_busiest_sms);
    tcase_add_test(c, test_a_round_trip_holds_up_to_mlp_loads);
    tcase_add_test(c, test_a_store_ends_a_round_trip);
    tcase_add_test(c, test_a_block_lasts_as_long_as_its_slowest_warp);
    tcase_add_test(c, test_a_wider_block_waits_longer_for_its_slowest_warp);
    tcase_add_test(c, test_occupancy_limits_the_blocks_a_sm_runs_at_once);
    tcase_add_test(c, test_interleaved_blocks_are_timed_as_in_order);
    tcase_add_test(c, test_dram_latency_settles_where_bandwidth_and_time_agree);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_profile_errors_name_the_line);
    tcase_add_test(l, test_timing_refuses_unusable_arguments);
    suite_add_tcase(s, l);
    return s;
}
