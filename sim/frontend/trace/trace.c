/* Trace format v1 (docs/trace-format.md): reading records and grouping them
 * into warp requests, streaming, in constant memory. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"
#include "frontend/trace/import.h"
#include "popcount.h"

#define MAXLINE 4096
#define BUFSZ (256 * 1024)      /* at least 2 * MAXLINE: a refill always has room */

typedef struct {
    coalsim_op op;
    coalsim_space space;
    unsigned size;
    const char *label;
    size_t label_len;
    uint64_t block, thread, addr;
} record;

struct coalsim_reader {
    coalsim_read_fn read;
    void *ctx;
    char *name;
    unsigned warp;
    char buf[BUFSZ];
    size_t pos, len;                     /* unread bytes are buf[pos..len) */
    int eof, failed;
    unsigned long lineno;
    uint64_t records;
    coalsim_request cur;                 /* the request being built */
    char cur_label[COALSIM_MAX_LABEL + 1];
    size_t cur_label_len;
    char prefix[MAXLINE];                /* the line text up to the current request's label and */
    size_t prefix_len;                   /* the separator after it: the fast path's key          */
    int have_cur;
    int simple;                          /* never take the fast path (tests) */
    int started;                         /* the format was sniffed */
    int binary;                          /* binary format (docs/binary-format.md) */
    uint64_t consumed;                   /* bytes before buf[0] (binary messages) */
    uint64_t at;                         /* offset of the request being decoded */
    uint64_t nreq;                       /* requests decoded (binary) */
    char **labels;                       /* binary label table */
    size_t nlabels, caplabels;
    uint64_t *label_addr;                /* per label: first lane address of its last request */
    uint64_t prev_block, prev_warp;
    char out_label[COALSIM_MAX_LABEL + 1];  /* label of the request handed out */
    const import_format *imp;            /* another tool's trace (import.h), or NULL */
    void *imp_state;
    char err[512];
};

coalsim_reader *coalsim_reader_new_fn(coalsim_read_fn read, void *ctx, const char *name, unsigned warp_size)
{
    coalsim_reader *rd = malloc(sizeof *rd);
    if (!rd) return NULL;
    memset(rd, 0, offsetof(coalsim_reader, buf));
    memset(&rd->pos, 0, sizeof *rd - offsetof(coalsim_reader, pos));
    rd->name = strdup(name);
    if (!rd->name) {
        free(rd);
        return NULL;
    }
    rd->read = read;
    rd->ctx = ctx;
    rd->warp = warp_size ? warp_size : 32;
    return rd;
}

static long read_stdio(void *ctx, char *buf, size_t cap, const char **why)
{
    (void)why;
    FILE *fp = ctx;
    size_t n = fread(buf, 1, cap, fp);
    return n == 0 && ferror(fp) ? -1 : (long)n;
}

coalsim_reader *coalsim_reader_new(FILE *fp, const char *name, unsigned warp_size)
{
    return coalsim_reader_new_fn(read_stdio, fp, name, warp_size);
}

void coalsim_reader_free(coalsim_reader *rd)
{
    if (!rd) return;
    if (rd->imp) rd->imp->close(rd->imp_state);
    for (size_t i = 0; i < rd->nlabels; i++) free(rd->labels[i]);
    free(rd->labels);
    free(rd->label_addr);
    free(rd->name);
    free(rd);
}

const char *coalsim_reader_error(const coalsim_reader *rd) { return rd->err; }
void coalsim_reader_simple(coalsim_reader *rd) { rd->simple = 1; }
void coalsim_reader_set_line(coalsim_reader *rd, unsigned long base)
{
    rd->lineno = base;
    rd->started = 1;        /* the middle of a text trace: no format sniffing */
}
unsigned long coalsim_reader_line(const coalsim_reader *rd) { return rd->lineno; }
uint64_t coalsim_reader_records(const coalsim_reader *rd) { return rd->records; }

static int fail(coalsim_reader *rd, const char *fmt, ...)
{
    va_list ap;
    int n = rd->binary ? snprintf(rd->err, sizeof rd->err, "%s: byte %llu: ", rd->name, (unsigned long long)rd->at)
                       : snprintf(rd->err, sizeof rd->err, "%s:%lu: ", rd->name, rd->lineno);
    if (n < 0 || (size_t)n >= sizeof rd->err) n = 0;
    va_start(ap, fmt);
    vsnprintf(rd->err + n, sizeof rd->err - (size_t)n, fmt, ap);
    va_end(ap);
    rd->failed = 1;
    return -1;
}

/* A field quoted for a message: at most 40 bytes, then "...". */
static const char *quote(char *dst, size_t cap, const char *s, size_t n)
{
    size_t k = n < 40 ? n : 40;
    snprintf(dst, cap, "%.*s%s", (int)k, s, n > 40 ? "..." : "");
    return dst;
}

/* Next line, in place in the buffer (no newline, not terminated): *line and
 * *len.  1 = line, 0 = end, -1 = error. */
static int read_line(coalsim_reader *rd, char **line, size_t *len)
{
    size_t max = rd->imp ? IMPORT_MAXLINE : MAXLINE;
    for (;;) {
        char *s = rd->buf + rd->pos;
        size_t avail = rd->len - rd->pos;
        char *nl = memchr(s, '\n', avail);
        if (nl) {
            size_t n = (size_t)(nl - s);
            rd->lineno++;
            if (n > max) return fail(rd, "line longer than %zu bytes", max);
            rd->pos += n + 1;
            *line = s;
            *len = n;
            return 1;
        }
        if (avail > max) {
            rd->lineno++;
            return fail(rd, "line longer than %zu bytes", max);
        }
        if (rd->eof) {
            if (avail == 0) return 0;
            rd->lineno++;                  /* last line without a newline */
            rd->pos = rd->len;
            *line = s;
            *len = avail;
            return 1;
        }
        memmove(rd->buf, s, avail);
        rd->pos = 0;
        rd->len = avail;
        const char *why = NULL;
        long got = rd->read(rd->ctx, rd->buf + avail, BUFSZ - avail, &why);
        if (got < 0) {
            rd->lineno++;
            return fail(rd, "read error: %s", why ? why : strerror(errno));
        }
        if (got == 0) rd->eof = 1;
        rd->len += (size_t)got;
    }
}

/* Hex digit values, 0xff for anything else. */
static const unsigned char hexval[256] = {
    ['0'] = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ['A'] = 10, 11, 12, 13, 14, 15,
    ['a'] = 10, 11, 12, 13, 14, 15,
};

/* Parse an unsigned 64-bit number: decimal, or hex after 0x if hex is set.
 * 0 = ok, -1 = not a number, -2 = does not fit in 64 bits. */
static int parse_u64(const char *s, size_t n, int hex, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    if (hex && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = 2; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            unsigned d = hexval[c];
            if (d == 0 && c != '0') return -1;   /* the table's zero entries */
            if (x >> 60) return -2;
            x = x << 4 | d;
        }
        *v = x;
        return 0;
    }
    if (n == 0) return -1;
    if (n < 20) {                       /* at most 19 digits cannot overflow */
        for (i = 0; i < n; i++) {
            unsigned d = (unsigned)(unsigned char)s[i] - '0';
            if (d > 9) return -1;
            x = x * 10 + d;
        }
        *v = x;
        return 0;
    }
    for (i = 0; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) return -1;
        if (x > (UINT64_MAX - d) / 10) return -2;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* 1 if s[0..n) is valid UTF-8 without control characters. */
static int label_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i], len, min;
        uint32_t cp;
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f) return 0;
            i++;
            continue;
        }
        if ((c & 0xe0) == 0xc0) len = 2, cp = c & 0x1f, min = 0x80;
        else if ((c & 0xf0) == 0xe0) len = 3, cp = c & 0x0f, min = 0x800;
        else if ((c & 0xf8) == 0xf0) len = 4, cp = c & 0x07, min = 0x10000;
        else return 0;
        if (i + len > n) return 0;
        for (unsigned k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
        i += len;
    }
    return 1;
}

/* Character classes for splitting a line. */
enum { C_FIELD = 0, C_SPACE, C_HASH, C_NUL };
static const unsigned char cclass[256] = {
    [' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
    ['#'] = C_HASH, ['\0'] = C_NUL,
};

/* the ops a trace holds: ldsm and stsm too (a matrix row a lane), not
 * cp.async, whose request needs its shared destinations as well */
#define TRACE_OPS (COALSIM_STSM + 1)
static const char *const op_words[TRACE_OPS] = {"ld", "st", "atom", "red", "ldsm", "stsm"};
static const char *const space_words[COALSIM_SPACES] = {"global", "shared", "local", "const"};

/* The index i < COUNT whose WORDS[i] is S[0..n), or -1. */
static int word_index(const char *s, size_t n, const char *const *words, int count)
{
    for (int i = 0; i < count; i++)
        if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0) return i;
    return -1;
}

/* Split, check and convert one record.  1 = record, 0 = blank line, -1 = error. */
static int parse(coalsim_reader *rd, const char *line, size_t len, record *rec)
{
    const char *f[8];
    size_t fl[8];
    int nf = 0;
    char q[64];
    const unsigned char *p = (const unsigned char *)line, *end = p + len;
    while (p < end) {
        while (p < end && cclass[*p] == C_SPACE) p++;
        if (p == end) break;
        if (cclass[*p] == C_HASH) {
            if (memchr(p, '\0', (size_t)(end - p))) goto nul;
            break;
        }
        if (cclass[*p] == C_NUL) goto nul;
        const unsigned char *start = p;
        while (p < end && cclass[*p] == C_FIELD) p++;
        if (nf < 8) {
            f[nf] = (const char *)start;
            fl[nf] = (size_t)(p - start);
        }
        nf++;
    }
    if (nf == 0) return 0;
    if (nf != 7)
        return fail(rd, "expected 7 fields (OP SPACE SIZE LABEL BLOCK THREAD ADDRESS), found %d", nf);

    int op = word_index(f[0], fl[0], op_words, TRACE_OPS);
    if (op < 0)
        return fail(rd, "unknown op '%s' (expected ld, st, atom, red, ldsm or stsm)", quote(q, sizeof q, f[0], fl[0]));
    rec->op = (coalsim_op)op;
    int sp = word_index(f[1], fl[1], space_words, COALSIM_SPACES);
    if (sp < 0)
        return fail(rd, "unknown space '%s' (expected global, shared, local or const)", quote(q, sizeof q, f[1], fl[1]));
    rec->space = (coalsim_space)sp;

    uint64_t v;
    if (parse_u64(f[2], fl[2], 0, &v) != 0 || (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
        return fail(rd, "size '%s' is not 1, 2, 4, 8 or 16", quote(q, sizeof q, f[2], fl[2]));
    rec->size = (unsigned)v;
    if ((op == COALSIM_LDSM || op == COALSIM_STSM) && (sp != COALSIM_SHARED || v != 16))
        return fail(rd, "%s is a shared access of 16 bytes a lane (one row of an 8x8 matrix of 16-bit elements)",
                    op_words[op]);

    if (fl[3] > COALSIM_MAX_LABEL)
        return fail(rd, "label longer than %d bytes", COALSIM_MAX_LABEL);
    /* the label of the request being built was checked already */
    if (!(rd->have_cur && fl[3] == rd->cur_label_len && memcmp(f[3], rd->cur_label, fl[3]) == 0) &&
        !label_ok((const unsigned char *)f[3], fl[3]))
        return fail(rd, "label is not UTF-8 text (control character or bad byte)");
    rec->label = f[3];
    rec->label_len = fl[3];

    static const char *const what[3] = {"block index", "thread index", "address"};
    uint64_t *dst[3] = {&rec->block, &rec->thread, &rec->addr};
    for (int k = 0; k < 3; k++) {
        int rc = parse_u64(f[4 + k], fl[4 + k], k == 2, dst[k]);
        if (rc == -2)
            return fail(rd, "%s '%s' does not fit in 64 bits", what[k], quote(q, sizeof q, f[4 + k], fl[4 + k]));
        if (rc != 0)
            return fail(rd, "%s '%s' is not a %snumber", what[k], quote(q, sizeof q, f[4 + k], fl[4 + k]),
                        k == 2 ? "decimal or 0x hex " : "non-negative decimal ");
    }
    if (rec->addr % rec->size)
        return fail(rd, "address 0x%llx is not aligned to its %u-byte size", (unsigned long long)rec->addr,
                    rec->size);
    if (rec->addr > UINT64_MAX - (rec->size - 1))
        return fail(rd, "address 0x%llx plus %u bytes wraps past 2^64", (unsigned long long)rec->addr, rec->size);
    if (rec->space == COALSIM_SHARED && rec->addr > 0xffffffffull - (rec->size - 1))
        return fail(rd, "shared address 0x%llx is beyond the 4 GiB shared window", (unsigned long long)rec->addr);
    return 1;
nul:
    return fail(rd, "NUL byte in the line (is this a text trace?)");
}

/* Fast path for the common line: the same text up to the label as the line
 * that began the request being built, then three plain numbers.  Returns 1
 * with *rec filled, or 0 to leave the line to parse(), which handles every
 * other form and reports every error, so both paths accept the same lines. */
static int fast(coalsim_reader *rd, const char *line, size_t len, record *rec)
{
    if (!rd->have_cur || len <= rd->prefix_len || memcmp(line, rd->prefix, rd->prefix_len) != 0) return 0;
    const unsigned char *p = (const unsigned char *)line + rd->prefix_len, *end = (const unsigned char *)line + len;
    uint64_t v[3];
    for (int k = 0; k < 3; k++) {
        while (p < end && cclass[*p] == C_SPACE) p++;
        const unsigned char *s = p;
        uint64_t x = 0;
        if (k == 2 && end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            s = p += 2;
            for (; p < end; p++) {
                unsigned d = hexval[*p];
                if (d == 0 && *p != '0') break;
                x = x << 4 | d;
            }
            if (p == s || p - s > 16) return 0;
        } else {
            for (; p < end && (unsigned)(*p - '0') <= 9; p++) x = x * 10 + (unsigned)(*p - '0');
            if (p == s || p - s > 19) return 0;
        }
        if (p < end && cclass[*p] != C_SPACE) return 0;
        v[k] = x;
    }
    while (p < end && cclass[*p] == C_SPACE) p++;
    if (p != end) return 0;
    const coalsim_request *r = &rd->cur;
    if (v[2] % r->size || (r->space == COALSIM_SHARED && v[2] > 0xffffffffull - (r->size - 1))) return 0;
    rec->op = r->op;
    rec->space = r->space;
    rec->size = r->size;
    rec->label = rd->cur_label;
    rec->label_len = rd->cur_label_len;
    rec->block = v[0];
    rec->thread = v[1];
    rec->addr = v[2];
    return 1;
}

static void start(coalsim_reader *rd, const record *rec)
{
    coalsim_request *r = &rd->cur;
    memmove(rd->cur_label, rec->label, rec->label_len);   /* may be cur_label itself */
    rd->cur_label[rec->label_len] = '\0';
    rd->cur_label_len = rec->label_len;
    r->op = rec->op;
    r->space = rec->space;
    r->size = rec->size;
    r->block = rec->block;
    r->warp = rec->thread / rd->warp;
    r->active = 0;
    r->atomic_float = 0;           /* the trace formats carry no data type */
    r->l2_only = 0;                /* nor cache operators */
    r->label = rd->cur_label;
    r->line = rd->lineno;
    rd->have_cur = 1;
}

static int joins(const coalsim_reader *rd, const record *rec)
{
    const coalsim_request *r = &rd->cur;
    return r->op == rec->op && r->space == rec->space && r->size == rec->size && r->block == rec->block &&
           r->warp == rec->thread / rd->warp && rd->cur_label_len == rec->label_len &&
           memcmp(rd->cur_label, rec->label, rec->label_len) == 0 &&
           !(r->active >> (rec->thread % rd->warp) & 1);
}

static void add(coalsim_reader *rd, const record *rec)
{
    unsigned lane = (unsigned)(rec->thread % rd->warp);
    rd->cur.active |= (uint32_t)1 << lane;
    rd->cur.addr[lane] = rec->addr;
}

/* Hand the finished request out through *out, with its own label copy. */
static void emit(coalsim_reader *rd, coalsim_request *out)
{
    *out = rd->cur;
    memcpy(rd->out_label, rd->cur_label, sizeof rd->out_label);
    out->label = rd->out_label;
    rd->have_cur = 0;
}


/* ---- binary format v1 (docs/binary-format.md) ---------------------------- */

#define BIN_MAGIC "COALSIMB"
#define BIN_MAXREQ (1 + 10 + 10 + 10 + 4 + 32 * 10)   /* longest 'R' block */

/* Make at least WANT bytes available in buf[pos..len) unless the input ends
 * first.  0, or -1 on a read error. */
static int fill(coalsim_reader *rd, size_t want)
{
    while (rd->len - rd->pos < want && !rd->eof) {
        size_t avail = rd->len - rd->pos;
        memmove(rd->buf, rd->buf + rd->pos, avail);
        rd->consumed += rd->pos;
        rd->pos = 0;
        rd->len = avail;
        const char *why = NULL;
        long got = rd->read(rd->ctx, rd->buf + avail, BUFSZ - avail, &why);
        if (got < 0) {
            if (!rd->binary) rd->lineno++;      /* text: the line being read */
            return fail(rd, "read error: %s", why ? why : strerror(errno));
        }
        if (got == 0) rd->eof = 1;
        rd->len += (size_t)got;
    }
    return 0;
}

/* LEB128 varint from *p (< end); -1 if it runs past end or past 64 bits. */
static int varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (*p == end) return -1;
        unsigned char b = *(*p)++;
        if (shift == 63 && b > 1) return -1;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

static int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* The header: magic, version 1, warp size. */
static int bin_header(coalsim_reader *rd)
{
    const unsigned char *h = (const unsigned char *)rd->buf + rd->pos;
    rd->at = 0;
    if (rd->len - rd->pos < 12) return fail(rd, "binary trace header is truncated");
    if (h[8] != 1) return fail(rd, "binary trace version %u; this coalsim reads version 1", h[8]);
    if (h[9] != rd->warp)
        return fail(rd, "binary trace was grouped with warp size %u, not %u (convert it again from text)", h[9],
                    rd->warp);
    rd->pos += 12;
    return 0;
}

/* Next request from a binary trace.  1, 0 at the end marker, -1 on error. */
static int bin_next(coalsim_reader *rd, coalsim_request *out)
{
    for (;;) {
        if (fill(rd, BIN_MAXREQ) < 0) return -1;
        rd->at = rd->consumed + rd->pos;
        const unsigned char *p = (const unsigned char *)rd->buf + rd->pos, *end = (const unsigned char *)rd->buf + rd->len;
        if (p == end) return fail(rd, "binary trace is truncated (no end marker)");
        unsigned char tag = *p++;
        uint64_t v;
        if (tag == 'E') {
            if (varint(&p, end, &v) < 0) return fail(rd, "binary trace is truncated in its end marker");
            if (v != rd->nreq)
                return fail(rd, "end marker counts %llu requests, the trace holds %llu", (unsigned long long)v,
                            (unsigned long long)rd->nreq);
            rd->pos = (size_t)(p - (const unsigned char *)rd->buf);
            if (fill(rd, 1) < 0) return -1;
            if (rd->len > rd->pos) {
                rd->at = rd->consumed + rd->pos;
                return fail(rd, "data after the end marker");
            }
            return 0;
        }
        if (tag == 'L') {
            if (varint(&p, end, &v) < 0 || v == 0 || v > COALSIM_MAX_LABEL || (uint64_t)(end - p) < v)
                return fail(rd, "bad label definition");
            if (!label_ok(p, (size_t)v)) return fail(rd, "label is not UTF-8 text (control character or bad byte)");
            if (rd->nlabels == rd->caplabels) {
                size_t cap = rd->caplabels ? rd->caplabels * 2 : 16;
                char **l = realloc(rd->labels, cap * sizeof *l);
                if (!l) return fail(rd, "out of memory");
                rd->labels = l;
                uint64_t *a = realloc(rd->label_addr, cap * sizeof *a);
                if (!a) return fail(rd, "out of memory");
                rd->label_addr = a;
                rd->caplabels = cap;
            }
            char *lab = malloc((size_t)v + 1);
            if (!lab) return fail(rd, "out of memory");
            memcpy(lab, p, (size_t)v);
            lab[v] = '\0';
            rd->label_addr[rd->nlabels] = 0;
            rd->labels[rd->nlabels++] = lab;
            rd->pos = (size_t)(p + v - (const unsigned char *)rd->buf);
            continue;
        }
        if (tag != 'R') return fail(rd, "unknown block tag 0x%02x", tag);
        if (p == end) return fail(rd, "binary trace is truncated in a request");
        unsigned kind = *p++;
        unsigned op = (kind & 1) | (kind >> 5 & 1) << 1 | (kind >> 7) << 2;
        if ((kind >> 2 & 7) > 4 || op >= TRACE_OPS || (op >= COALSIM_LDSM && ((kind >> 1 & 1) != 1 || kind >> 6 & 1 || (kind >> 2 & 7) != 4)))
            return fail(rd, "bad request kind 0x%02x", kind);
        coalsim_request *r = out;
        r->op = (coalsim_op)op;
        r->space = (coalsim_space)((kind >> 1 & 1) | (kind >> 6 & 1) << 1);
        r->size = 1u << (kind >> 2 & 7);
        uint64_t lab, db, dw;
        if (varint(&p, end, &lab) < 0 || varint(&p, end, &db) < 0 || varint(&p, end, &dw) < 0 || end - p < 4)
            return fail(rd, "binary trace is truncated in a request");
        if (lab >= rd->nlabels) return fail(rd, "request names label %llu, not defined", (unsigned long long)lab);
        r->label = rd->labels[lab];
        r->label_id = (uint32_t)lab + 1;
        r->atomic_float = 0;
        r->l2_only = 0;
        r->block = rd->prev_block + (uint64_t)unzigzag(db);
        r->warp = rd->prev_warp + (uint64_t)unzigzag(dw);
        r->active = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        p += 4;
        if (!r->active || (rd->warp < 32 && r->active >> rd->warp))
            return fail(rd, "request's lane mask 0x%08x does not fit a warp of %u", r->active, rd->warp);
        /* addresses: deltas in lanes of the size from the label's last first
         * address; checked all at once, then again lane by lane if one is bad */
        const unsigned char *lanes = p;
        uint64_t prev = rd->label_addr[lab], top = 0;
        uint64_t limit = r->space == COALSIM_SHARED ? 0xffffffffull - (r->size - 1) : UINT64_MAX - (r->size - 1);
        unsigned sh = kind >> 2 & 7, truncated = 0;
        for (uint32_t m = r->active; m; m &= m - 1) {
            if (p < end && !(*p & 0x80)) v = *p++;      /* most deltas are one or two bytes */
            else if (end - p > 1 && !(p[1] & 0x80)) v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7, p += 2;
            else if (varint(&p, end, &v) < 0) {
                truncated = 1;
                break;
            }
            uint64_t a = prev + ((uint64_t)unzigzag(v) << sh);
            r->addr[__builtin_ctz(m)] = a;
            top |= (uint64_t)(a > limit);
            prev = a;
        }
        /* a label's previous address may belong to another size */
        if (truncated || top || rd->label_addr[lab] % r->size) {
            p = lanes;
            prev = rd->label_addr[lab];
            for (uint32_t m = r->active; m; m &= m - 1) {
                if (varint(&p, end, &v) < 0) return fail(rd, "binary trace is truncated in a request");
                uint64_t a = prev + (uint64_t)unzigzag(v) * r->size;
                if (a % r->size)
                    return fail(rd, "address 0x%llx is not aligned to its %u-byte size", (unsigned long long)a, r->size);
                if (a > UINT64_MAX - (r->size - 1))
                    return fail(rd, "address 0x%llx plus %u bytes wraps past 2^64", (unsigned long long)a, r->size);
                if (r->space == COALSIM_SHARED && a > 0xffffffffull - (r->size - 1))
                    return fail(rd, "shared address 0x%llx is beyond the 4 GiB shared window", (unsigned long long)a);
                prev = a;
            }
        }
        rd->label_addr[lab] = r->addr[__builtin_ctz(r->active)];
        rd->prev_block = r->block;
        rd->prev_warp = r->warp;
        rd->nreq++;
        rd->records += popcount32(r->active);
        r->line = (unsigned long)rd->nreq;
        rd->pos = (size_t)(p - (const unsigned char *)rd->buf);
        return 1;
    }
}

int coalsim_reader_is_binary(const coalsim_reader *rd) { return rd->binary; }

/* ---- other tools' traces (import.h): a line at a time to the importer ---- */

/* The first bytes, to tell the formats apart: up to COALSIM_SNIFF_BYTES,
 * fewer at the end of the input or at a read error, which the reading then
 * meets again where it is (read functions fail again when called again). */
static void sniff_fill(coalsim_reader *rd)
{
    while (rd->len - rd->pos < COALSIM_SNIFF_BYTES && !rd->eof) {
        const char *why = NULL;
        long got = rd->read(rd->ctx, rd->buf + rd->len, BUFSZ - rd->len, &why);
        if (got < 0) return;
        if (got == 0) rd->eof = 1;
        rd->len += (size_t)got;
    }
}

static int import_start(coalsim_reader *rd)
{
    if (!(rd->imp_state = rd->imp->open())) return fail(rd, "out of memory");
    if (rd->warp != 32) {
        rd->lineno = 1;
        return fail(rd, "%s has 32-lane warps, not %u (leave out --warp-size)", rd->imp->name, rd->warp);
    }
    return 0;
}

static int import_next(coalsim_reader *rd, coalsim_request *out)
{
    char msg[400];
    for (;;) {
        char *line = NULL;
        size_t len = 0;
        int rc = read_line(rd, &line, &len);
        if (rc < 0) return -1;
        if (rc == 0) return rd->imp->end(rd->imp_state, msg, sizeof msg) < 0 ? fail(rd, "%s", msg) : 0;
        rc = rd->imp->line(rd->imp_state, line, len, out, msg, sizeof msg);
        if (rc < 0) return fail(rd, "%s", msg);
        if (rc > 0) {
            out->line = rd->lineno;
            rd->records += (uint64_t)__builtin_popcount(out->active);
            return 1;
        }
    }
}

int coalsim_reader_next(coalsim_reader *rd, coalsim_request *out)
{
    if (rd->failed) return -1;
    if (!rd->started) {
        rd->started = 1;
        sniff_fill(rd);
        if (rd->len - rd->pos >= 8 && memcmp(rd->buf + rd->pos, BIN_MAGIC, 8) == 0) {
            rd->binary = 1;
            if (fill(rd, 12) < 0 || bin_header(rd) < 0) return -1;
        } else if ((rd->imp = import_find(rd->buf + rd->pos, rd->len - rd->pos)) && import_start(rd) < 0) {
            return -1;
        }
    }
    if (rd->binary) return bin_next(rd, out);
    if (rd->imp) return import_next(rd, out);
    for (;;) {
        size_t len = 0;
        char *line = NULL;
        record rec;
        int rc = read_line(rd, &line, &len);
        if (rc < 0) return -1;
        if (rc == 0) {
            if (!rd->have_cur) return 0;
            emit(rd, out);
            return 1;
        }
        int slow = 0;
        if (rd->simple || !fast(rd, line, len, &rec)) {
            rc = parse(rd, line, len, &rec);
            if (rc < 0) return -1;
            if (rc == 0) continue;
            slow = 1;
        }
        rd->records++;
        if (rd->have_cur && joins(rd, &rec)) {
            add(rd, &rec);
            continue;
        }
        int emitted = rd->have_cur;
        if (emitted) emit(rd, out);
        start(rd, &rec);
        if (slow) {
            /* the new request's key for the fast path: this line's text up
             * to the label and the separator after it */
            rd->prefix_len = (size_t)(rec.label - line) + rec.label_len + 1;
            memcpy(rd->prefix, line, rd->prefix_len);
        }
        add(rd, &rec);
        if (emitted) return 1;
    }
}

int coalsim_reader_drain(coalsim_reader *rd, coalsim_sink sink)
{
    coalsim_request r;
    int rc;
    while ((rc = coalsim_reader_next(rd, &r)) == 1)
        if (sink.put(sink.ctx, &r) != 0) return 1;
    return rc;
}
