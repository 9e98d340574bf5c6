/* Trace format v1 (docs/trace-format.md): reading records and grouping them
 * into warp requests, streaming, in constant memory. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

#define MAXLINE 4096
#define BUFSZ 65536

typedef struct {
    coalsim_op op;
    coalsim_space space;
    unsigned size;
    const char *label;
    size_t label_len;
    uint64_t block, thread, addr;
} record;

struct coalsim_reader {
    FILE *fp;
    char *name;
    unsigned warp;
    char buf[BUFSZ];
    size_t pos, len;
    int eof, failed;
    char line[MAXLINE + 1];
    unsigned long lineno;
    uint64_t records;
    coalsim_request cur;                 /* the request being built */
    char cur_label[COALSIM_MAX_LABEL + 1];
    int have_cur;
    char out_label[COALSIM_MAX_LABEL + 1];  /* label of the request handed out */
    char err[512];
};

coalsim_reader *coalsim_reader_new(FILE *fp, const char *name, unsigned warp_size)
{
    coalsim_reader *rd = calloc(1, sizeof *rd);
    if (!rd) return NULL;
    rd->name = strdup(name);
    if (!rd->name) {
        free(rd);
        return NULL;
    }
    rd->fp = fp;
    rd->warp = warp_size ? warp_size : 32;
    return rd;
}

void coalsim_reader_free(coalsim_reader *rd)
{
    if (!rd) return;
    free(rd->name);
    free(rd);
}

const char *coalsim_reader_error(const coalsim_reader *rd) { return rd->err; }
uint64_t coalsim_reader_records(const coalsim_reader *rd) { return rd->records; }

static int fail(coalsim_reader *rd, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(rd->err, sizeof rd->err, "%s:%lu: ", rd->name, rd->lineno);
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

/* Next line into rd->line (no newline).  1 = line, 0 = end, -1 = error. */
static int read_line(coalsim_reader *rd, size_t *len)
{
    size_t n = 0;
    int any = 0;
    for (;;) {
        if (rd->pos == rd->len) {
            if (rd->eof) {
                if (!any) return 0;
                break;                      /* last line without a newline */
            }
            rd->len = fread(rd->buf, 1, BUFSZ, rd->fp);
            rd->pos = 0;
            if (rd->len == 0) {
                if (ferror(rd->fp)) {
                    rd->lineno++;
                    return fail(rd, "read error: %s", strerror(errno));
                }
                rd->eof = 1;
            }
            continue;
        }
        any = 1;
        char *s = rd->buf + rd->pos;
        char *nl = memchr(s, '\n', rd->len - rd->pos);
        size_t chunk = nl ? (size_t)(nl - s) : rd->len - rd->pos;
        if (n + chunk > MAXLINE) {
            rd->lineno++;
            return fail(rd, "line longer than %d bytes", MAXLINE);
        }
        memcpy(rd->line + n, s, chunk);
        n += chunk;
        rd->pos += chunk;
        if (nl) {
            rd->pos++;
            break;
        }
    }
    rd->lineno++;
    rd->line[n] = '\0';
    if (memchr(rd->line, '\0', n)) return fail(rd, "NUL byte in the line (is this a text trace?)");
    *len = n;
    return 1;
}

/* Parse an unsigned 64-bit number: decimal, or hex after 0x if hex is set.
 * 0 = ok, -1 = not a number, -2 = does not fit in 64 bits. */
static int parse_u64(const char *s, size_t n, int hex, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    if (hex && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = 2; i < n; i++) {
            unsigned d;
            char c = s[i];
            if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
            else return -1;
            if (x >> 60) return -2;
            x = x << 4 | d;
        }
        *v = x;
        return 0;
    }
    if (n == 0) return -1;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (c < '0' || c > '9') return -1;
        unsigned d = (unsigned)(c - '0');
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

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Split, check and convert one record.  1 = record, 0 = blank line, -1 = error. */
static int parse(coalsim_reader *rd, char *line, size_t len, record *rec)
{
    const char *f[8];
    size_t fl[8];
    int nf = 0;
    char q[64];
    char *hash = memchr(line, '#', len);
    if (hash) len = (size_t)(hash - line);
    for (size_t i = 0; i < len;) {
        while (i < len && is_space(line[i])) i++;
        if (i == len) break;
        size_t start = i;
        while (i < len && !is_space(line[i])) i++;
        if (nf < 8) {
            f[nf] = line + start;
            fl[nf] = i - start;
        }
        nf++;
    }
    if (nf == 0) return 0;
    if (nf != 7)
        return fail(rd, "expected 7 fields (OP SPACE SIZE LABEL BLOCK THREAD ADDRESS), found %d", nf);

    if (fl[0] == 2 && memcmp(f[0], "ld", 2) == 0) rec->op = COALSIM_LD;
    else if (fl[0] == 2 && memcmp(f[0], "st", 2) == 0) rec->op = COALSIM_ST;
    else return fail(rd, "unknown op '%s' (expected ld or st)", quote(q, sizeof q, f[0], fl[0]));

    if (fl[1] == 6 && memcmp(f[1], "global", 6) == 0) rec->space = COALSIM_GLOBAL;
    else if (fl[1] == 6 && memcmp(f[1], "shared", 6) == 0) rec->space = COALSIM_SHARED;
    else return fail(rd, "unknown space '%s' (expected global or shared)", quote(q, sizeof q, f[1], fl[1]));

    uint64_t v;
    if (parse_u64(f[2], fl[2], 0, &v) != 0 || (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
        return fail(rd, "size '%s' is not 1, 2, 4, 8 or 16", quote(q, sizeof q, f[2], fl[2]));
    rec->size = (unsigned)v;

    if (fl[3] > COALSIM_MAX_LABEL)
        return fail(rd, "label longer than %d bytes", COALSIM_MAX_LABEL);
    if (!label_ok((const unsigned char *)f[3], fl[3]))
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
}

static void start(coalsim_reader *rd, const record *rec)
{
    coalsim_request *r = &rd->cur;
    memcpy(rd->cur_label, rec->label, rec->label_len);
    rd->cur_label[rec->label_len] = '\0';
    r->op = rec->op;
    r->space = rec->space;
    r->size = rec->size;
    r->block = rec->block;
    r->warp = rec->thread / rd->warp;
    r->active = 0;
    r->label = rd->cur_label;
    r->line = rd->lineno;
    rd->have_cur = 1;
}

static int joins(const coalsim_reader *rd, const record *rec)
{
    const coalsim_request *r = &rd->cur;
    return r->op == rec->op && r->space == rec->space && r->size == rec->size && r->block == rec->block &&
           r->warp == rec->thread / rd->warp && strlen(rd->cur_label) == rec->label_len &&
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

int coalsim_reader_next(coalsim_reader *rd, coalsim_request *out)
{
    if (rd->failed) return -1;
    for (;;) {
        size_t len = 0;
        record rec;
        int rc = read_line(rd, &len);
        if (rc < 0) return -1;
        if (rc == 0) {
            if (!rd->have_cur) return 0;
            emit(rd, out);
            return 1;
        }
        rc = parse(rd, rd->line, len, &rec);
        if (rc < 0) return -1;
        if (rc == 0) continue;
        rd->records++;
        if (rd->have_cur && joins(rd, &rec)) {
            add(rd, &rec);
            continue;
        }
        if (rd->have_cur) {
            emit(rd, out);
            start(rd, &rec);
            add(rd, &rec);
            return 1;
        }
        start(rd, &rec);
        add(rd, &rec);
    }
}
