/* The compiled sketch runner against the old one (tests/sketch_oracle.c:
 * lane by lane through trees, into text that the reader parses again): the
 * same requests, lines, text and errors, for every bundled sketch and for
 * random programs in the old language. */
#include <stdarg.h>
#include <stdlib.h>

#include "helpers.h"
#include "sketch_compare.h"

/* ---- random programs ---- */

typedef struct {
    uint64_t x;
    char *o;
    size_t n, cap;
    int nvars, depth, loops;
    int ndims[4];              /* of the arrays a0..a3 */
    unsigned dim[4][2];        /* powers of two, so that "& (dim - 1)" is an index */
} gen;

static unsigned rnd(gen *g, unsigned n)
{
    g->x ^= g->x << 13, g->x ^= g->x >> 7, g->x ^= g->x << 17;
    return (unsigned)(g->x % n);
}

static void out(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(g->o + g->n, g->cap - g->n, fmt, ap);
    va_end(ap);
    if (k > 0) g->n += (size_t)k < g->cap - g->n ? (size_t)k : g->cap - g->n - 1;
}

static void expr(gen *g, int depth)
{
    static const char *const bin[] = {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&",
                                      "^", "|", "&&", "||"};
    static const char *const builtin[] = {"threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y", "blockDim.x",
                                          "gridDim.x", "threadIdx.z", "blockIdx.z"};
    unsigned k = depth > 2 ? rnd(g, 4) : rnd(g, 9);
    switch (k) {
    case 0: out(g, "%u", rnd(g, 4) ? rnd(g, 40) : rnd(g, 70000)); break;
    case 1: if (g->nvars) { out(g, "v%u", rnd(g, (unsigned)g->nvars)); break; } /* fall through */
    case 2: out(g, "%s", builtin[rnd(g, 8)]); break;
    case 3: out(g, "%s", rnd(g, 2) ? "p" : "q"); break;
    case 4:
        out(g, "%s", (const char *[]){"-", "~", "!", "+"}[rnd(g, 4)]);
        expr(g, depth + 1);
        break;
    case 5:
        out(g, "(");
        expr(g, depth + 1);
        out(g, " ? ");
        expr(g, depth + 1);
        out(g, " : ");
        expr(g, depth + 1);
        out(g, ")");
        break;
    default: {
        const char *op = bin[rnd(g, sizeof bin / sizeof bin[0])];
        int shift = op[0] == '<' && op[1] == '<', divide = op[0] == '/' || op[0] == '%';
        out(g, "(");
        expr(g, depth + 1);
        out(g, " %s ", op);
        if (shift && rnd(g, 4)) {
            out(g, "%u", rnd(g, 8));                  /* mostly shifts that work */
        } else if (divide && rnd(g, 4)) {
            out(g, "(");                              /* mostly divisions that work */
            expr(g, depth + 1);
            out(g, " | 1)");
        } else {
            expr(g, depth + 1);
        }
        out(g, ")");
    }
    }
}

static void index_expr(gen *g, unsigned dim)
{
    if (rnd(g, 8) == 0) return expr(g, 1);          /* may be out of bounds */
    out(g, "(");
    expr(g, 1);
    out(g, ") & %u", dim - 1);
}

static void statements(gen *g, int n);

static void statement(gen *g)
{
    unsigned k = rnd(g, 16);
    if (g->depth >= 3 && k >= 10) k = rnd(g, 10);
    if (k < 4) {
        int fresh = g->nvars < 6 && (!g->nvars || rnd(g, 2)), v = fresh ? g->nvars : (int)rnd(g, (unsigned)g->nvars);
        out(g, "v%d = ", v);
        expr(g, 0);                              /* a new variable is not known yet on its right */
        out(g, "\n");
        g->nvars += fresh;
    } else if (k < 9) {
        int a = (int)rnd(g, 4);
        out(g, "%s a%d", rnd(g, 3) ? "ld" : "st", a);
        for (int d = 0; d < g->ndims[a]; d++) {
            out(g, "[");
            index_expr(g, g->dim[a][d]);
            out(g, "]");
        }
        if (rnd(g, 2)) out(g, " as %s", rnd(g, 2) ? "m" : "a0");   /* shared labels: requests that merge */
        out(g, "\n");
    } else if (k < 12) {
        out(g, "if (");
        expr(g, 1);
        out(g, ")\n");
        g->depth++;
        statements(g, 1 + (int)rnd(g, 3));
        if (rnd(g, 2)) {
            out(g, "else\n");
            statements(g, 1 + (int)rnd(g, 3));
        }
        g->depth--;
        out(g, "end\n");
    } else if (k < 14 && g->loops < 3) {
        int i = g->loops++;
        int down = rnd(g, 3) == 0;
        if (down) out(g, "for (i%d = (threadIdx.x & 7) + %u; i%d > 0; i%d -= %u)\n", i, rnd(g, 4), i, i, 1 + rnd(g, 3));
        else {
            out(g, "for (i%d = 0; i%d < (", i, i);
            expr(g, 2);
            out(g, ") %% 6; i%d += %u)\n", i, 1 + rnd(g, 2));
        }
        g->depth++;
        statements(g, 1 + (int)rnd(g, 3));
        g->depth--;
        out(g, "end\n");
    } else if (k == 14 && rnd(g, 3) == 0) {
        out(g, "if (threadIdx.x %% %u == %u)\nreturn\nend\n", 2 + rnd(g, 5), rnd(g, 3));
    } else {
        out(g, "sync\n");
    }
}

static void statements(gen *g, int n)
{
    for (int i = 0; i < n; i++) statement(g);
}

/* A random sketch in the old language, in G->o. */
static void program(gen *g)
{
    static const char *const types[] = {"char", "short", "int", "long", "float4"};
    g->n = 0, g->nvars = 0, g->depth = 0, g->loops = 0;
    unsigned bx = 1 + rnd(g, 70), by = 1 + rnd(g, 3), bz = rnd(g, 4) ? 1 : 2;
    out(g, "grid %u %u\nblock (%u, %u, %u)\nparam p = %u\nparam q = p * %u\n", 1 + rnd(g, 3), 1 + rnd(g, 2), bx,
        by, bz, rnd(g, 9), rnd(g, 3));
    for (int a = 0; a < 4; a++) {
        g->ndims[a] = 1 + (int)rnd(g, 2);
        out(g, "%s %s a%d", a == 3 || rnd(g, 3) == 0 ? "shared" : "global", types[rnd(g, 5)], a);
        for (int d = 0; d < g->ndims[a]; d++) {
            g->dim[a][d] = 1u << (rnd(g, 7) + (g->ndims[a] == 1 ? 3 : 0));
            out(g, "[%u]", g->dim[a][d]);
        }
        out(g, "\n");
    }
    statements(g, 2 + (int)rnd(g, 8));
}

START_TEST(test_compiled_sketches_match_the_old_runner_on_random_programs)
{
    char buf[16384], why[800];
    gen g = {.x = 0x9e3779b97f4a7c15ull, .o = buf, .cap = sizeof buf};
    int failed = 0, ok = 0;
    for (int i = 0; i < 1500; i++) {
        program(&g);
        for (int w = 0; w < 2; w++) {
            const char *diff = cmp_sketch(buf, NULL, w ? 5 : 32, 3000, why, sizeof why);
            if (diff && failed++ < 3) fprintf(stderr, "program %d (warp %d): %s\n%s\n", i, w ? 5 : 32, diff, buf);
        }
        char err[600];
        coalsim_sketch *sk = coalsim_sketch_compile(buf, "k.sketch", NULL, err, sizeof err);
        ok += sk != NULL;
        coalsim_sketch_free(sk);
    }
    ck_assert_int_eq(failed, 0);
    ck_assert_int_gt(ok, 1000);   /* most of them compile, and the runs cover errors too */
}
END_TEST

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

START_TEST(test_every_bundled_sketch_runs_as_the_old_runner_did)
{
    static const char *const sketches[] = {
        "examples/sketches/add.sketch", "examples/sketches/add_broadcast.sketch", "examples/sketches/add_offset.sketch",
        "examples/sketches/add_permuted.sketch", "examples/sketches/add_stride.sketch", "examples/sketches/col_sum.sketch",
        "examples/sketches/copy.sketch", "examples/sketches/copy_float4.sketch",
        "examples/sketches/rectSetColReadCol.sketch", "examples/sketches/rectSetRowReadCol.sketch",
        "examples/sketches/rectSetRowReadColDyn.sketch", "examples/sketches/rectSetRowReadColDynPad.sketch",
        "examples/sketches/rectSetRowReadColPad.sketch", "examples/sketches/rectSetRowReadRow.sketch",
        "examples/sketches/reduceGmem.sketch", "examples/sketches/reduceSmem.sketch",
        "examples/sketches/reduceSmemUnroll.sketch", "examples/sketches/row_sum.sketch",
        "examples/sketches/setColReadCol.sketch", "examples/sketches/setRowReadCol.sketch",
        "examples/sketches/setRowReadColDyn.sketch", "examples/sketches/setRowReadColDynIpad.sketch",
        "examples/sketches/setRowReadColIpad.sketch", "examples/sketches/setRowReadRow.sketch",
        "examples/sketches/strided_read.sketch", "examples/sketches/transpose1.sketch",
        "examples/sketches/transpose2.sketch", "examples/sketches/transpose3.sketch",
        "examples/sketches/transposeSmem.sketch", "examples/sketches/transposeSmemPad2.sketch",
        "gpu/sketches/col_sum_pitch.sketch", "gpu/sketches/copy_flat.sketch", "gpu/sketches/copy_pitch.sketch",
        "examples/sketches/ldmatrix_tile.sketch",
    };
    /* small launches of the large ones */
    const char *const sets[] = {"M=96", "pitch=100", "n=4096", "N=96", "threads=64", "blocks=5", NULL};
    char why[800];
    for (size_t i = 0; i < sizeof sketches / sizeof sketches[0]; i++) {
        const char *text = slurp(sketches[i]);
        for (unsigned w = 1; w <= 32; w *= 2) {
            const char *diff = cmp_sketch(text, sets, w, 0, why, sizeof why);
            ck_assert_msg(diff == NULL, "%s, warp %u: %s", sketches[i], w, diff);
        }
        ck_assert_msg(cmp_sketch(text, sets, 3, 0, why, sizeof why) == NULL, "%s, warp 3: %s", sketches[i], why);
    }
}
END_TEST

static int ignore(void *ctx, const coalsim_request *r)
{
    (void)ctx, (void)r;
    return 0;
}

START_TEST(test_ldsm_rows_misaligned_or_global_fail_alike_in_both_runners)
{
    static const char *const bad[] = {
        "block 32\nshared half A[16][64]\nl = threadIdx.x\nldsm A[l % 16][l / 16]\n",     /* 2 bytes off */
        "block 32\nshared half A[1][12]\nldsm A[0][8]\n",                                     /* a row past the end */
        "block 32\nglobal half A[16][64]\nldsm A[0][0]\n",                                    /* not shared */
    };
    char why[800];
    for (unsigned i = 0; i < 3; i++) {
        const char *sets[] = {NULL};
        ck_assert_msg(cmp_sketch(bad[i], sets, 32, 0, why, sizeof why) == NULL, "case %u: %s", i, why);
        char err[512];
        coalsim_sketch *sk = coalsim_sketch_compile(bad[i], "k.sketch", NULL, err, sizeof err);
        if (sk) {
            coalsim_sketch_opts o = {.warp_size = 32};
            ck_assert_int_ne(coalsim_sketch_run(sk, &o, (coalsim_sink){ignore, NULL, NULL}, err, sizeof err), 0);
            coalsim_sketch_free(sk);
        }
        ck_assert_msg(strstr(err, "ldsm"), "case %u: %s", i, err);
    }
}
END_TEST

Suite *make_sketch_oracle_suite(void)
{
    Suite *s = suite_create("sketch_oracle");
    TCase *c = tcase_create("Core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, test_every_bundled_sketch_runs_as_the_old_runner_did);
    tcase_add_test(c, test_compiled_sketches_match_the_old_runner_on_random_programs);
    tcase_add_test(c, test_ldsm_rows_misaligned_or_global_fail_alike_in_both_runners);
    suite_add_tcase(s, c);
    return s;
}
