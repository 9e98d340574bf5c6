/* Kernel sketches: the language, its errors, and every seed kernel's sketch
 * against the real kernel's trace captured on the H100 by gpu/harness
 * (gpu/results/h100/traces): the same warp requests, base addresses aside. */
#include <stdlib.h>

#include "helpers.h"

#define CAPTURES "gpu/results/h100/traces"

typedef struct {
    uint64_t block, warp, seq;
    unsigned label, size;
    coalsim_op op;
    coalsim_space space;
    uint32_t active;
    uint64_t addr[32];
    char name[COALSIM_MAX_LABEL + 1];
} creq;

typedef struct {
    creq *r;
    size_t n;
} canon;

static int by_position(const void *a, const void *b)
{
    const creq *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Requests of a trace in (block, warp, order) order, labels numbered by first
 * appearance, each label's addresses made relative to its lowest one. */
static canon canonical(FILE *fp, const char *name)
{
    canon c = {NULL, 0};
    size_t cap = 0;
    coalsim_reader *rd = coalsim_reader_new(fp, name, 32);
    coalsim_request q;
    int rc;
    while ((rc = coalsim_reader_next(rd, &q)) == 1) {
        if (c.n == cap) {
            cap = cap ? cap * 2 : 256;
            c.r = realloc(c.r, cap * sizeof *c.r);
            ck_assert_ptr_nonnull(c.r);
        }
        creq *x = &c.r[c.n++];
        memset(x, 0, sizeof *x);
        x->block = q.block, x->warp = q.warp, x->op = q.op, x->space = q.space, x->size = q.size;
        x->active = q.active;
        memcpy(x->addr, q.addr, sizeof x->addr);
        snprintf(x->name, sizeof x->name, "%s", q.label);
        x->seq = c.n;        /* file order; only its order within a warp matters */
    }
    ck_assert_msg(rc == 0, "%s", coalsim_reader_error(rd));
    coalsim_reader_free(rd);
    qsort(c.r, c.n, sizeof *c.r, by_position);
    char names[64][COALSIM_MAX_LABEL + 1];
    uint64_t low[64];
    unsigned nl = 0;
    for (size_t i = 0; i < c.n; i++) {
        unsigned k;
        for (k = 0; k < nl && strcmp(names[k], c.r[i].name); k++) {}
        if (k == nl) {
            ck_assert_uint_lt(nl, 64);
            strcpy(names[nl], c.r[i].name);
            low[nl++] = UINT64_MAX;
        }
        c.r[i].label = k;
        for (int l = 0; l < 32; l++)
            if (c.r[i].active >> l & 1 && c.r[i].addr[l] < low[k]) low[k] = c.r[i].addr[l];
    }
    for (size_t i = 0; i < c.n; i++)
        for (int l = 0; l < 32; l++)
            if (c.r[i].active >> l & 1) c.r[i].addr[l] -= low[c.r[i].label];
    return c;
}

static void compare(const char *sketch, const char *set, const char *capture)
{
    char path[256], err[600];
    snprintf(path, sizeof path, "examples/sketches/%s.sketch", sketch);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    const char *sets[2] = {set, NULL};
    ck_assert_msg(coalsim_sketch(text, path, sets, m, 0, err, sizeof err) == 0, "%s", err);
    fclose(m);
    FILE *a = fmemopen(buf, len, "r");
    snprintf(path, sizeof path, CAPTURES "/%s.trace", capture);
    FILE *b = fopen(path, "r");
    ck_assert_msg(b != NULL, "cannot open %s", path);
    canon x = canonical(a, sketch), y = canonical(b, path);
    ck_assert_msg(x.n == y.n, "%s: sketch makes %zu requests, the GPU capture %zu", capture, x.n, y.n);
    for (size_t i = 0; i < x.n; i++) {
        const creq *p = &x.r[i], *q = &y.r[i];
        ck_assert_msg(p->block == q->block && p->warp == q->warp && p->label == q->label && p->op == q->op &&
                          p->space == q->space && p->size == q->size && p->active == q->active,
                      "%s: request %zu differs (block %llu warp %llu, label %s vs %s, lanes %08x vs %08x)", capture,
                      i, (unsigned long long)q->block, (unsigned long long)q->warp, p->name, q->name, p->active,
                      q->active);
        for (int l = 0; l < 32; l++)
            ck_assert_msg(!(p->active >> l & 1) || p->addr[l] == q->addr[l],
                          "%s: request %zu (%s), lane %d: sketch +%llu, GPU +%llu", capture, i, q->name, l,
                          (unsigned long long)p->addr[l], (unsigned long long)q->addr[l]);
    }
    free(x.r);
    free(y.r);
    fclose(a);
    fclose(b);
    free(buf);
}

START_TEST(test_every_seed_sketch_gives_the_trace_captured_on_the_gpu)
{
    static const char *const same[] = {
        "add", "add_permuted", "add_offset", "add_stride", "add_broadcast", "row_sum", "col_sum", "copy",
        "transpose1", "transpose2", "transpose3", "setRowReadRow", "setColReadCol", "setRowReadCol",
        "setRowReadColDyn", "setRowReadColIpad", "setRowReadColDynIpad", "rectSetRowReadRow", "rectSetColReadCol",
        "rectSetRowReadCol", "rectSetRowReadColDyn", "rectSetRowReadColPad", "rectSetRowReadColDynPad",
        "reduceGmem", "reduceSmem", "reduceSmemUnroll", "transposeSmem", "transposeSmemPad2", "copy_float4",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) compare(same[i], NULL, same[i]);
    static const char *const strides[] = {"1", "2", "4", "8", "16", "32", "64", "128"};
    for (int i = 0; i < 8; i++) {
        char set[32], cap[64];
        snprintf(set, sizeof set, "stride=%s", strides[i]);
        snprintf(cap, sizeof cap, "strided_read_s%s", strides[i]);
        compare("strided_read", set, cap);
    }
}
END_TEST

static const char *sketch_error(const char *text)
{
    static char err[600];
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int rc = coalsim_sketch(text, "k.sketch", NULL, m, 1000, err, sizeof err);
    fclose(m);
    free(buf);
    ck_assert_int_eq(rc, -1);
    return err;
}

START_TEST(test_sketch_errors_name_the_line_and_column)
{
    ck_assert_str_eq(sketch_error("block 32\nglobal float x[32]\nld x[threadIdx.x + q]\n"),
                     "k.sketch:3:20: unknown variable 'q'");
    ck_assert_str_eq(sketch_error("block 32\nglobal float x[32]\nld y[0]\n"), "k.sketch:3:4: unknown array 'y'");
    ck_assert_str_eq(sketch_error("global floaty x[32]\n"),
                     "k.sketch:1:8: expected an element type (char short int float long double float2 float4 ...)");
    ck_assert_str_eq(sketch_error("block 32\nglobal int x[32]\nld x[threadIdx.x + 1]\n"),
                     "k.sketch:3:6: index 32 is outside x's dimension 1 of 32 (thread 31 of block 0)");
    ck_assert_str_eq(sketch_error("block 4\nglobal int x[4]\nd = threadIdx.x\nld x[4 / d]\n"),
                     "k.sketch:4:8: division by zero (thread 0 of block 0)");
    ck_assert_str_eq(sketch_error("block 4\nif (threadIdx.x < 2)\nglobal int x[4]\n"), "k.sketch:2: 'if' without 'end'");
    ck_assert_str_eq(sketch_error("end\n"), "k.sketch:1:1: 'end' without 'if' or 'for'");
    ck_assert_str_eq(sketch_error("block (32, 64)\n"), "k.sketch:1: a block of 2048 threads (at most 1024)");
    ck_assert_str_eq(sketch_error("global int x[4][4]\nld x[1]\n"), "k.sketch:2:4: x has 2 dimensions, indexed with 1");
    ck_assert_str_eq(sketch_error("block 1\nfor (i = 0; i < 1; i += 0)\ny = i\nend\n"),
                     "k.sketch:2: the loop runs more than a million times in one warp");
    ck_assert_str_eq(sketch_error("block 32\nglobal int x[64]\nfor (i = 0; i < 100; i += 1)\nld x[i % 64]\nend\n"),
                     "k.sketch:4: the sketch makes more than 1000 records");
}
END_TEST

START_TEST(test_sketch_divergence_and_return_follow_simt_lanes)
{
    const char *text = "block 32\nglobal int x[64]\nif (threadIdx.x % 2)\n  ld x[threadIdx.x] as odd\nelse\n"
                       "  ld x[threadIdx.x] as even\nend\nif (threadIdx.x >= 8)\n  return\nend\nld x[32 + threadIdx.x] as low\n";
    char *buf = NULL, err[600];
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ck_assert_int_eq(coalsim_sketch(text, "k", NULL, m, 0, err, sizeof err), 0);
    fclose(m);
    FILE *f = fmemopen(buf, len, "r");
    coalsim_reader *rd = coalsim_reader_new(f, "k", 32);
    coalsim_request q;
    ck_assert_int_eq(coalsim_reader_next(rd, &q), 1);
    ck_assert_str_eq(q.label, "odd");
    ck_assert_uint_eq(q.active, 0xaaaaaaaau);
    ck_assert_int_eq(coalsim_reader_next(rd, &q), 1);
    ck_assert_str_eq(q.label, "even");
    ck_assert_uint_eq(q.active, 0x55555555u);
    ck_assert_int_eq(coalsim_reader_next(rd, &q), 1);
    ck_assert_str_eq(q.label, "low");
    ck_assert_uint_eq(q.active, 0xffu);
    ck_assert_uint_eq(q.addr[7], 0x7f3a00000000ull + 4 * 39);
    ck_assert_int_eq(coalsim_reader_next(rd, &q), 0);
    coalsim_reader_free(rd);
    fclose(f);
    free(buf);
}
END_TEST

Suite *make_sketch_suite(void)
{
    Suite *s = suite_create("sketch");
    TCase *c = tcase_create("Core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, test_every_seed_sketch_gives_the_trace_captured_on_the_gpu);
    tcase_add_test(c, test_sketch_divergence_and_return_follow_simt_lanes);
    suite_add_tcase(s, c);
    TCase *l = tcase_create("Limits");
    tcase_add_test(l, test_sketch_errors_name_the_line_and_column);
    suite_add_tcase(s, l);
    return s;
}
