/* Tensor maps: checking, coalsim's 128-byte encoding, and the text form
 * --args takes.  See tmap.h. */
#include "tmap.h"

#include <stdlib.h>
#include <string.h>

/* "CSTM" and a version: a CUtensorMap nobody encoded through coalsim does not decode */
#define TMAP_MAGIC 0x4d545343u
#define TMAP_VERSION 1u

unsigned tmap_type_bytes(tmap_type type)
{
    static const unsigned char bytes[TMAP_TYPES] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return (unsigned)type < TMAP_TYPES ? bytes[type] : 0;
}

const char *tmap_check(const tmap *t)
{
    unsigned eb = tmap_type_bytes(t->type);
    if (!eb) return "the data type is not one of CUtensorMapDataType's";
    if (t->rank < 1 || t->rank > TMAP_MAX_RANK) return "the rank must be 1 to 5";
    if (t->interleave) return "interleaved tensor maps are not supported";
    if (t->swizzle > TMAP_SWIZZLE_128B) return "the swizzle must be none, 32, 64 or 128 bytes";
    if (t->base % 16) return "the global address must be 16-byte aligned";
    for (unsigned d = 0; d < t->rank; d++) {
        if (t->dims[d] == 0 || t->dims[d] > (1ull << 32)) return "each global dimension must be 1 to 2^32 elements";
        if (t->box[d] == 0 || t->box[d] > 256) return "each box dimension must be 1 to 256 elements";
        if (t->estride[d] == 0 || t->estride[d] > 8) return "each element stride must be 1 to 8";
        if (d && (t->strides[d] % 16 || t->strides[d] >= (1ull << 40)))
            return "each global stride must be a multiple of 16 bytes, below 2^40";
    }
    if ((uint64_t)t->box[0] * eb % 16) return "the box's inner dimension must be a multiple of 16 bytes";
    if (t->swizzle && (uint64_t)t->box[0] * eb > (16u << t->swizzle))
        return "the box's inner dimension is wider than the swizzle's span (32, 64 or 128 bytes)";
    return NULL;
}

/* the encoding: little-endian fields at fixed offsets */
enum { O_MAGIC = 0, O_VERSION = 4, O_TYPE = 5, O_RANK = 6, O_SWIZZLE = 7, O_OOB = 8, O_BASE = 16, O_DIMS = 24,
       O_STRIDES = 64, O_BOX = 96, O_ESTRIDE = 106, O_END = 111 };
_Static_assert(O_END <= TMAP_BYTES, "the encoding fits a CUtensorMap");

static void put(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) p[k] = (unsigned char)(v >> (8 * k));
}
static uint64_t get(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

const char *tmap_encode(const tmap *t, unsigned char out[TMAP_BYTES])
{
    const char *why = tmap_check(t);
    if (why) return why;
    memset(out, 0, TMAP_BYTES);
    put(out + O_MAGIC, TMAP_MAGIC, 4);
    out[O_VERSION] = TMAP_VERSION;
    out[O_TYPE] = (unsigned char)t->type;
    out[O_RANK] = (unsigned char)t->rank;
    out[O_SWIZZLE] = (unsigned char)t->swizzle;
    out[O_OOB] = (unsigned char)(t->oob_nan != 0);
    put(out + O_BASE, t->base, 8);
    for (unsigned d = 0; d < t->rank; d++) {
        put(out + O_DIMS + 8 * d, t->dims[d], 8);
        if (d) put(out + O_STRIDES + 8 * (d - 1), t->strides[d], 8);
        put(out + O_BOX + 2 * d, t->box[d], 2);
        out[O_ESTRIDE + d] = (unsigned char)t->estride[d];
    }
    return NULL;
}

int tmap_decode(const unsigned char in[TMAP_BYTES], tmap *t)
{
    if (get(in + O_MAGIC, 4) != TMAP_MAGIC || in[O_VERSION] != TMAP_VERSION) return -1;
    memset(t, 0, sizeof *t);
    t->type = (tmap_type)in[O_TYPE];
    t->rank = in[O_RANK];
    t->swizzle = (tmap_swizzle)in[O_SWIZZLE];
    t->oob_nan = in[O_OOB];
    t->base = get(in + O_BASE, 8);
    if (t->rank < 1 || t->rank > TMAP_MAX_RANK) return -1;
    t->strides[0] = tmap_type_bytes(t->type);
    for (unsigned d = 0; d < t->rank; d++) {
        t->dims[d] = get(in + O_DIMS + 8 * d, 8);
        if (d) t->strides[d] = get(in + O_STRIDES + 8 * (d - 1), 8);
        t->box[d] = (unsigned)get(in + O_BOX + 2 * d, 2);
        t->estride[d] = in[O_ESTRIDE + d];
    }
    return tmap_check(t) ? -1 : 0;
}

unsigned tmap_box_elems(const tmap *t, unsigned d)
{
    return (t->box[d] + t->estride[d] - 1) / t->estride[d];
}

uint64_t tmap_box_bytes(const tmap *t)
{
    uint64_t n = tmap_type_bytes(t->type);
    for (unsigned d = 0; d < t->rank; d++) n *= tmap_box_elems(t, d);
    return n;
}

/* "AxBxC" into V (at most TMAP_MAX_RANK numbers): how many, or -1 */
static int dims_of(const char *s, size_t len, uint64_t *v)
{
    int n = 0;
    const char *p = s, *end = s + len;
    while (p < end) {
        if (n == TMAP_MAX_RANK || *p < '0' || *p > '9') return -1;
        char *e;
        unsigned long long x = strtoull(p, &e, 10);
        if (e > end || e == p) return -1;
        v[n++] = x;
        p = e;
        if (p < end) {
            if (*p != 'x') return -1;
            p++;
            if (p == end) return -1;
        }
    }
    return n;
}

const char *tmap_parse(const char *text, tmap *t)
{
    static const struct { const char *name; tmap_type type; } types[] = {
        {"u8", TMAP_U8}, {"u16", TMAP_U16}, {"u32", TMAP_U32}, {"s32", TMAP_S32}, {"u64", TMAP_U64},
        {"s64", TMAP_S64}, {"f16", TMAP_F16}, {"f32", TMAP_F32}, {"f64", TMAP_F64}, {"bf16", TMAP_BF16},
        {"tf32", TMAP_TF32},
    };
    const char *usage = "a tensor map is TYPE:DIMS:BOX[:SWIZZLE[:STRIDES]] (f16:1024x512:64x64:128)";
    memset(t, 0, sizeof *t);
    const char *f[5];
    size_t fl[5];
    unsigned nf = 0;
    for (const char *p = text;; nf++) {
        if (nf == 5) return usage;
        const char *c = strchr(p, ':');
        f[nf] = p, fl[nf] = c ? (size_t)(c - p) : strlen(p);
        if (!c) {
            nf++;
            break;
        }
        p = c + 1;
    }
    if (nf < 3) return usage;
    int found = 0;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        if (strlen(types[k].name) == fl[0] && !strncmp(types[k].name, f[0], fl[0])) t->type = types[k].type, found = 1;
    if (!found) return "a tensor map's type is u8, u16, u32, s32, u64, s64, f16, bf16, tf32, f32 or f64";
    uint64_t dims[TMAP_MAX_RANK], box[TMAP_MAX_RANK], strides[TMAP_MAX_RANK];
    int r = dims_of(f[1], fl[1], dims);
    if (r < 1) return "a tensor map's DIMS are 1 to 5 numbers, innermost first (1024x512)";
    if (dims_of(f[2], fl[2], box) != r) return "a tensor map's BOX has as many numbers as its DIMS";
    t->rank = (unsigned)r;
    t->swizzle = TMAP_SWIZZLE_NONE;
    if (nf > 3) {
        if (fl[3] == 4 && !strncmp(f[3], "none", 4)) t->swizzle = TMAP_SWIZZLE_NONE;
        else if (fl[3] == 2 && !strncmp(f[3], "32", 2)) t->swizzle = TMAP_SWIZZLE_32B;
        else if (fl[3] == 2 && !strncmp(f[3], "64", 2)) t->swizzle = TMAP_SWIZZLE_64B;
        else if (fl[3] == 3 && !strncmp(f[3], "128", 3)) t->swizzle = TMAP_SWIZZLE_128B;
        else return "a tensor map's swizzle is none, 32, 64 or 128";
    }
    unsigned eb = tmap_type_bytes(t->type);
    t->strides[0] = eb;
    for (int d = 0; d < r; d++) {
        t->dims[d] = dims[d], t->box[d] = box[d] > 256 ? 0 : (unsigned)box[d], t->estride[d] = 1;
        if (d) t->strides[d] = t->strides[d - 1] * dims[d - 1];
    }
    if (nf > 4) {
        if (r == 1 || dims_of(f[4], fl[4], strides) != r - 1)
            return "a tensor map's STRIDES are the byte strides of its dimensions after the first (one fewer than DIMS)";
        for (int d = 1; d < r; d++) t->strides[d] = strides[d - 1];
    }
    return NULL;
}
