/* Shared-memory model: bank conflicts and wavefronts on 4- and 8-byte banks,
 * and the 8/16-byte rules measured on the H100. */
#include "helpers.h"
#include "smem_oracle.h"

static coalsim_result sm(const char *arch, coalsim_op op, unsigned size, const uint64_t *addr, uint32_t active)
{
    coalsim_request r = {.op = op, .space = COALSIM_SHARED, .size = size, .label = "t", .active = active};
    memcpy(r.addr, addr, sizeof r.addr);
    return model(arch, &r);
}

START_TEST(test_smem_row_access_of_a_32x32_int_tile_is_one_wavefront)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 1);
    ck_assert_uint_eq(res.max_ways, 1);
}
END_TEST

/* A pass of a shared float add's compare-and-store loop (ATOMS.CAST.SPIN,
 * atomic_float 2) takes 2 data-pipe wavefronts whatever its lanes, a
 * double's 3 on one word and 4 on several (gpu/probes/shared_cas.cu on the
 * H100), where an ATOMS.ADD of 32 lanes on one word takes 32; the
 * explanation names the loop. */
START_TEST(test_smem_a_float_adds_compare_and_store_pass_is_two_wavefronts)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_ATOM, COALSIM_SHARED, 4, 0);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 32);         /* ATOMS.ADD */
    r.atomic_float = 2;
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 2);
    char buf[512];
    coalsim_arch a = arch_of("hopper");
    coalsim_explain(&a, &r, &res, buf, sizeof buf);
    ck_assert_msg(strstr(buf, "compare-and-store loop") && strstr(buf, "32 lanes add a float"), "%s", buf);
    REQ_FOR(r, COALSIM_ATOM, COALSIM_SHARED, 4, 4 * 32 * lane);    /* 32 words on one bank */
    r.atomic_float = 2;
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 2);
    REQ_FOR(r, COALSIM_ATOM, COALSIM_SHARED, 8, 0);
    r.atomic_float = 2;
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 3);
    REQ_FOR(r, COALSIM_ATOM, COALSIM_SHARED, 8, 8 * lane);
    r.atomic_float = 2;
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 4);
}
END_TEST

START_TEST(test_smem_column_of_a_32x32_int_tile_is_a_32_way_conflict_on_bank_0)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * 32 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 32);
    ck_assert_uint_eq(res.ideal_wavefronts, 1);
    ck_assert_uint_eq(res.max_ways, 32);
    ck_assert_uint_eq(res.worst_bank, 0);
}
END_TEST

START_TEST(test_smem_padding_the_row_by_one_int_removes_the_column_conflict)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * 33 * lane);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
}
END_TEST

START_TEST(test_smem_xor_swizzle_removes_the_column_conflict)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * (32 * lane + (3 ^ lane)));
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
}
END_TEST

START_TEST(test_smem_broadcast_of_one_word_is_one_wavefront)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 64);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
    REQ_FOR(r, COALSIM_ST, COALSIM_SHARED, 4, 64);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
}
END_TEST

START_TEST(test_smem_bytes_of_one_word_share_the_bank)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 1, lane);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 2, 2 * 64 * lane);   /* 64 half-words apart: bank 0 */
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 32);
}
END_TEST

/* seed 004, 32x16 rectangle read by column: row_idx = lane%16, col_idx = lane/16 */
START_TEST(test_smem_rect_column_read_is_16_way_on_fermi_8_way_on_kepler)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 32 + lane / 16));
    ck_assert_uint_eq(model("fermi", &r).max_ways, 16);
    ck_assert_uint_eq(model("kepler", &r).max_ways, 8);
    ck_assert_uint_eq(model("hopper", &r).max_ways, 16);
}
END_TEST

START_TEST(test_smem_kepler_rect_needs_pad_2_to_be_conflict_free)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 33 + lane / 16));
    ck_assert_uint_eq(model("kepler", &r).max_ways, 2);
    ck_assert_uint_eq(model("fermi", &r).max_ways, 2);   /* lanes 1 and 16 both on bank 1 */
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 34 + lane / 16));
    ck_assert_uint_eq(model("kepler", &r).max_ways, 1);
    ck_assert_uint_eq(model("fermi", &r).max_ways, 1);
}
END_TEST

START_TEST(test_smem_kepler32_words_i_and_i_plus_32_share_a_64_bit_row)
{
    uint64_t a[32] = {0};
    a[0] = 0;
    a[1] = 128;    /* word 32: bank 0, same 64-word segment as word 0 */
    a[2] = 256;    /* word 64: bank 0, next segment */
    ck_assert_uint_eq(sm("kepler32", COALSIM_LD, 4, a, 0x3).wavefronts, 1);
    ck_assert_uint_eq(sm("kepler32", COALSIM_LD, 4, a, 0x5).wavefronts, 2);
    ck_assert_uint_eq(sm("fermi", COALSIM_LD, 4, a, 0x3).wavefronts, 2);
}
END_TEST

START_TEST(test_smem_kepler_64_bit_mode_sub_words_of_one_64_bit_word_do_not_conflict)
{
    uint64_t a[32] = {0, 4};
    ck_assert_uint_eq(sm("kepler", COALSIM_LD, 4, a, 0x3).wavefronts, 1);
    uint64_t b[32] = {0, 256};
    ck_assert_uint_eq(sm("kepler", COALSIM_LD, 4, b, 0x3).wavefronts, 2);
}
END_TEST

START_TEST(test_smem_8_byte_unit_stride_takes_two_half_warp_wavefronts)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * lane);
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 2);
    ck_assert_uint_eq(res.ideal_wavefronts, 2);
    ck_assert_uint_eq(res.phases, 2);
    /* one 256-byte pass on 8-byte banks */
    ck_assert_uint_eq(model("kepler", &r).wavefronts, 1);
}
END_TEST

START_TEST(test_smem_8_byte_load_with_equal_lane_pairs_takes_one_wavefront)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * (lane / 2));        /* lane n == lane n^1 */
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * (lane % 2));        /* lane n == lane n^2 */
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * (lane % 4));        /* no pairing: halves */
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 2);
    /* pascal was not measured: plain half warps */
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * (lane / 2));
    ck_assert_uint_eq(model("pascal", &r).wavefronts, 2);
}
END_TEST

START_TEST(test_smem_8_byte_store_never_pairs_lanes)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_ST, COALSIM_SHARED, 8, 0);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 2);
    REQ_FOR(r, COALSIM_ST, COALSIM_SHARED, 8, 8 * (lane / 2));
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 2);
}
END_TEST

START_TEST(test_smem_an_inactive_partner_does_not_break_pairing)
{
    /* measured: sld8_pq_even_packed, one wavefront */
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 8 * (lane / 2));
    r.active = 0x55555555;
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 1);
}
END_TEST

START_TEST(test_smem_16_byte_load_takes_four_quarter_warps_or_two_when_paired)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 16, 16 * lane);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 4);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 16, 0);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 2);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 16, 16 * (lane % 4));   /* the forum's case */
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 4);
    REQ_FOR(r, COALSIM_ST, COALSIM_SHARED, 16, 0);
    ck_assert_uint_eq(model("hopper", &r).wavefronts, 4);
}
END_TEST

START_TEST(test_smem_paired_load_counts_conflicts_across_the_whole_warp)
{
    /* measured: sld8_two_addrs_samebank, 2 wavefronts (halves would give 4) */
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 8, 128 * (lane % 2));
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 2);
    ck_assert_uint_eq(res.max_ways, 2);
}
END_TEST

START_TEST(test_smem_fermi_16_byte_access_pays_one_extra_way)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 16, 16 * lane);
    coalsim_result res = model("fermi", &r);
    ck_assert_uint_eq(res.max_ways, 2);
    ck_assert_uint_eq(res.wavefronts, 4);
    ck_assert_uint_eq(res.ideal_wavefronts, 2);
}
END_TEST

/* Regression: the first version packed (row, bank) into one 64-bit key and
 * rows at or above 2^56 aliased row 0 when the library was called directly. */
START_TEST(test_smem_rows_far_apart_in_64_bit_space_still_conflict)
{
    uint64_t a[32] = {0, (uint64_t)1 << 63};
    coalsim_result res = sm("hopper", COALSIM_LD, 4, a, 0x3);
    ck_assert_uint_eq(res.wavefronts, 2);
    ck_assert_uint_eq(res.max_ways, 2);
}
END_TEST

START_TEST(test_smem_inactive_phases_cost_nothing)
{
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 16, 16 * lane);
    r.active = 0x000000ff;
    coalsim_result res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 1);
    ck_assert_uint_eq(res.phases, 1);
    r.active = 0;
    res = model("hopper", &r);
    ck_assert_uint_eq(res.wavefronts, 0);
}
END_TEST

START_TEST(test_smem_16x16_tile_read_two_columns_per_warp_needs_pad_2)
{
    /* transposeSmem: lanes read tile[lane % 16][lane / 16] of float tile[16][16 + pad] */
    coalsim_request r;
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 16 + lane / 16));
    ck_assert_uint_eq(model("hopper", &r).max_ways, 8);
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 17 + lane / 16));
    ck_assert_uint_eq(model("hopper", &r).max_ways, 2);   /* (0,0) and (15,1) share bank 0 */
    REQ_FOR(r, COALSIM_LD, COALSIM_SHARED, 4, 4 * ((lane % 16) * 18 + lane / 16));
    ck_assert_uint_eq(model("hopper", &r).max_ways, 1);
}
END_TEST

START_TEST(test_smem_worst_bank_is_the_most_conflicted_one)
{
    uint64_t a[32] = {0};
    for (int l = 0; l < 32; l++) a[l] = l < 3 ? 4 * 5 + 128 * l : 4 * l;   /* 3 rows of bank 5 */
    coalsim_result res = sm("hopper", COALSIM_LD, 4, a, 0xffffffff);
    ck_assert_uint_eq(res.max_ways, 3);
    ck_assert_uint_eq(res.worst_bank, 5);
}
END_TEST

/* For 1-4-byte lanes the whole warp is one phase: the cost is, by
 * definition, the most distinct words one bank is asked for.  Counted the
 * slow way on random requests. */
START_TEST(test_smem_small_lanes_cost_the_most_distinct_words_of_one_bank)
{
    uint64_t x = 2463534242ull;
    static const unsigned sizes[] = {1, 2, 4};
    for (int iter = 0; iter < 20000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t a[32];
        unsigned size = sizes[x % 3];
        uint32_t active = (uint32_t)(x >> 9) | (iter & 1 ? 0xffffffffu : 0);
        if (!active) active = 1;
        uint64_t span = iter % 2 ? 512 : 48 * 1024;
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            a[l] = (x % span) / size * size;
        }
        unsigned best = 0;
        for (unsigned bank = 0; bank < 32; bank++) {
            uint64_t words[32];
            unsigned n = 0;
            for (int l = 0; l < 32; l++) {
                if (!(active >> l & 1) || a[l] / 4 % 32 != bank) continue;
                unsigned k = 0;
                while (k < n && words[k] != a[l] / 4) k++;
                if (k == n) words[n++] = a[l] / 4;
            }
            if (n > best) best = n;
        }
        coalsim_result res = sm("hopper", iter % 3 ? COALSIM_LD : COALSIM_ST, size, a, active);
        ck_assert_uint_eq(res.wavefronts, best);
        ck_assert_uint_eq(res.max_ways, best);
    }
}
END_TEST

static unsigned tile_ways(const char *arch, unsigned rows, unsigned cols, unsigned pad, unsigned swizzle)
{
    coalsim_tile t = {.rows = rows, .cols = cols, .elem = 4, .pad = pad, .swizzle = swizzle, .by_column = 1,
                      .op = COALSIM_LD};
    coalsim_tile_result r;
    coalsim_arch a = arch_of(arch);
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), 0);
    return r.wavefronts == r.ideal_wavefronts ? 1 : r.max_ways;
}

START_TEST(test_tile_square_column_read_needs_pad_1_on_4_byte_banks_and_pad_2_on_kepler)
{
    ck_assert_uint_eq(tile_ways("hopper", 32, 32, 0, 0), 32);
    ck_assert_uint_eq(tile_ways("hopper", 32, 32, 1, 0), 1);
    ck_assert_uint_eq(tile_ways("kepler", 32, 32, 0, 0), 16);
    ck_assert_uint_eq(tile_ways("kepler", 32, 32, 1, 0), 2);
    ck_assert_uint_eq(tile_ways("kepler", 32, 32, 2, 0), 1);
    ck_assert_uint_eq(tile_ways("hopper", 32, 32, 0, 1), 1);    /* XOR swizzle, no padding */
}
END_TEST

START_TEST(test_tile_rect_column_read_needs_pad_2_everywhere)
{
    ck_assert_uint_eq(tile_ways("fermi", 16, 32, 0, 0), 16);
    ck_assert_uint_eq(tile_ways("kepler", 16, 32, 0, 0), 8);
    ck_assert_uint_eq(tile_ways("fermi", 16, 32, 1, 0), 2);
    ck_assert_uint_eq(tile_ways("kepler", 16, 32, 2, 0), 1);
    ck_assert_uint_eq(tile_ways("hopper", 16, 32, 2, 0), 1);
}
END_TEST

START_TEST(test_tile_rejects_malformed_tiles)
{
    coalsim_arch a = arch_of("hopper");
    coalsim_tile_result r;
    coalsim_tile t = {.rows = 0, .cols = 32, .elem = 4};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);
    t = (coalsim_tile){.rows = 4, .cols = 24, .elem = 4, .swizzle = 1};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);
    t = (coalsim_tile){.rows = 4, .cols = 32, .elem = 3};
    ck_assert_int_eq(coalsim_tile_cost(&a, &t, &r), -1);
}
END_TEST


/* Random requests on every preset and on odd bank geometries: the model
 * (shifts, the fast path for lanes on distinct banks, a hash set for the
 * requested bytes) and the old one (divisions, chains, insertion sort) agree
 * on every field; so does the constant cache, which shares the byte count. */
START_TEST(test_smem_fast_paths_give_what_the_old_model_gave)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    const char *const *names = coalsim_arch_names();
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 60000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t na = 0;
        while (names[na]) na++;
        coalsim_arch a = arch_of(names[x % na]);
        if ((x >> 8) % 4 == 0) a.banks = 1u << ((x >> 10) % 7);           /* 1 .. 64 banks */
        if ((x >> 8) % 9 == 0) a.warp_size = 1 + (unsigned)((x >> 14) % 32);
        coalsim_request r = {.op = (x >> 20) % 2 ? COALSIM_LD : COALSIM_ST, .space = COALSIM_SHARED,
                             .size = sizes[(x >> 22) % 5], .label = "t"};
        uint32_t all = a.warp_size == 32 ? 0xffffffffu : (1u << a.warp_size) - 1;
        r.active = ((x >> 26) % 3 ? 0xffffffffu : (uint32_t)(x >> 30)) & all;
        uint64_t size = r.size, stride = size * (1 + (x >> 40) % 40), base = (x >> 48) % 64 * size;
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (iter % 5) {
            case 4: r.addr[l] = base; break;                                        /* broadcast */
            case 0: r.addr[l] = base + (uint64_t)l * stride; break;
            case 1: r.addr[l] = base + (uint64_t)(l / 2) * stride; break;           /* pairs */
            case 2: r.addr[l] = base + (uint64_t)((l * 7) % 32) * size; break;     /* permuted */
            default: r.addr[l] = x % 4096 / size * size; break;
            }
        }
        coalsim_result p, q;
        coalsim_smem(&a, &r, &p);
        smem_oracle(&a, &r, &q);
        ck_assert_msg(!memcmp(&p, &q, sizeof p), "iteration %d (%s, %u banks, %u-byte lanes): %u/%u wavefronts, "
                      "%u/%u ways on bank %u/%u, %u/%u bytes", iter, a.name, a.banks, r.size, p.wavefronts,
                      q.wavefronts, p.max_ways, q.max_ways, p.worst_bank, q.worst_bank, p.requested_bytes,
                      q.requested_bytes);
        r.space = COALSIM_CONST;
        coalsim_cmem(&a, &r, &p);
        ck_assert_uint_eq(p.requested_bytes, q.requested_bytes);
    }
}
END_TEST

/* A request moved whole by a multiple of the largest unit (a line, a row of
 * the banks) gets the result the request before it got, in every space and
 * op, so a producer may reuse it (coalsim_model_repeats); moved by less, or
 * by different amounts, it is not called a repeat. */
START_TEST(test_model_gives_a_request_moved_by_whole_lines_the_same_result)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    const char *const *names = coalsim_arch_names();
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    static const coalsim_space spaces[] = {COALSIM_GLOBAL, COALSIM_SHARED, COALSIM_LOCAL, COALSIM_CONST};
    static const coalsim_op ops[] = {COALSIM_LD, COALSIM_ST, COALSIM_ATOM, COALSIM_RED};
    size_t na = 0;
    while (names[na]) na++;
    unsigned repeats = 0;
    for (int iter = 0; iter < 40000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        coalsim_arch a = arch_of(names[x % na]);
        coalsim_request r = {.op = ops[(x >> 8) % 4], .space = spaces[(x >> 10) % 4], .size = sizes[(x >> 12) % 5],
                             .label = "t"};
        if (r.size > 4 && r.op >= COALSIM_ATOM) r.size = 4;
        r.active = (x >> 16) % 3 ? 0xffffffffu : (uint32_t)(x >> 20) | 1;
        uint64_t size = r.size, stride = size * ((x >> 40) % 40), base = (x >> 48) % 512 * size;
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            switch (iter % 4) {
            case 0: r.addr[l] = base + (uint64_t)l * stride; break;
            case 1: r.addr[l] = base + (uint64_t)(l / 2) * stride; break;
            case 2: r.addr[l] = base + (uint64_t)((l * 7) % 32) * size; break;
            default: r.addr[l] = x % 8192 / size * size; break;
            }
        }
        coalsim_request m = r;
        uint64_t unit = a.line_bytes > (uint64_t)a.banks * a.bank_width ? a.line_bytes : (uint64_t)a.banks * a.bank_width;
        uint64_t by = unit * (1 + (x >> 30) % 100);
        uint64_t part = unit >> (1 + (x >> 50) % 3);
        if (iter % 3 == 2) by += part > size ? part : size;      /* not whole lines */
        for (int l = 0; l < 32; l++) m.addr[l] += by;
        if (iter % 7 == 6) m.addr[31 - __builtin_clz(m.active)] += unit;   /* one lane moved further */
        coalsim_result p, q;
        coalsim_model(&a, &r, &p);
        coalsim_model(&a, &m, &q);
        int rep = coalsim_model_repeats(&a, &r, &m);
        if (iter % 3 == 2 || (iter % 7 == 6 && __builtin_popcount(m.active) > 1)) {
            ck_assert_msg(!rep, "iteration %d: moved by %llu (or one lane further), called a repeat", iter,
                          (unsigned long long)by);
            continue;
        }
        ck_assert_msg(rep, "iteration %d: moved by %llu, not called a repeat", iter, (unsigned long long)by);
        repeats++;
        ck_assert_msg(!memcmp(&p, &q, sizeof p), "iteration %d (%s, space %d, op %d, %u-byte lanes, moved %llu): "
                      "%u/%u sectors, %u/%u wavefronts, bank %u/%u", iter, a.name, (int)r.space, (int)r.op, r.size,
                      (unsigned long long)by, p.sectors, q.sectors, p.wavefronts, q.wavefronts, p.worst_bank,
                      q.worst_bank);
    }
    ck_assert_uint_gt(repeats, 15000);
}
END_TEST

Suite *make_smem_suite(void)
{
    Suite *s = suite_create("smem");
    TCase *c = tcase_create("Core");
    tcase_add_test(c, test_smem_row_access_of_a_32x32_int_tile_is_one_wavefront);
    tcase_add_test(c, test_smem_column_of_a_32x32_int_tile_is_a_32_way_conflict_on_bank_0);
    tcase_add_test(c, test_smem_padding_the_row_by_one_int_removes_the_column_conflict);
    tcase_add_test(c, test_smem_xor_swizzle_removes_the_column_conflict);
    tcase_add_test(c, test_smem_broadcast_of_one_word_is_one_wavefront);
    tcase_add_test(c, test_smem_bytes_of_one_word_share_the_bank);
    tcase_add_test(c, test_smem_rect_column_read_is_16_way_on_fermi_8_way_on_kepler);
    tcase_add_test(c, test_smem_kepler_rect_needs_pad_2_to_be_conflict_free);
    tcase_add_test(c, test_smem_kepler32_words_i_and_i_plus_32_share_a_64_bit_row);
    tcase_add_test(c, test_smem_kepler_64_bit_mode_sub_words_of_one_64_bit_word_do_not_conflict);
    tcase_add_test(c, test_smem_8_byte_unit_stride_takes_two_half_warp_wavefronts);
    tcase_add_test(c, test_smem_8_byte_load_with_equal_lane_pairs_takes_one_wavefront);
    tcase_add_test(c, test_smem_8_byte_store_never_pairs_lanes);
    tcase_add_test(c, test_smem_16_byte_load_takes_four_quarter_warps_or_two_when_paired);
    tcase_add_test(c, test_smem_paired_load_counts_conflicts_across_the_whole_warp);
    tcase_add_test(c, test_smem_fermi_16_byte_access_pays_one_extra_way);
    tcase_add_test(c, test_smem_worst_bank_is_the_most_conflicted_one);
    tcase_add_test(c, test_smem_16x16_tile_read_two_columns_per_warp_needs_pad_2);
    tcase_add_test(c, test_tile_square_column_read_needs_pad_1_on_4_byte_banks_and_pad_2_on_kepler);
    tcase_add_test(c, test_tile_rect_column_read_needs_pad_2_everywhere);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_set_timeout(l, 60);
    tcase_add_test(l, test_smem_fast_paths_give_what_the_old_model_gave);
    tcase_add_test(l, test_model_gives_a_request_moved_by_whole_lines_the_same_result);
    tcase_add_test(l, test_smem_an_inactive_partner_does_not_break_pairing);
    tcase_add_test(l, test_smem_inactive_phases_cost_nothing);
    tcase_add_test(l, test_smem_rows_far_apart_in_64_bit_space_still_conflict);
    tcase_add_test(l, test_smem_small_lanes_cost_the_most_distinct_words_of_one_bank);
    tcase_add_test(l, test_smem_a_float_adds_compare_and_store_pass_is_two_wavefronts);
    tcase_add_test(l, test_tile_rejects_malformed_tiles);
    suite_add_tcase(s, l);
    return s;
}
