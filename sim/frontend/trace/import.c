/* Which format a trace is in, from its first bytes, and the helpers the
 * importers share (see import.h). */
#include <string.h>

#include "coalsim.h"
#include "frontend/trace/import.h"

static const import_format *const formats[] = {&import_nvbit, &import_accelsim};

const import_format *import_find(const char *head, size_t n)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i]->sniff(head, n)) return formats[i];
    return NULL;
}

coalsim_trace_kind coalsim_trace_sniff(const void *head, size_t n)
{
    const unsigned char *h = head;
    if (n >= 8 && memcmp(h, "COALSIMB", 8) == 0) return COALSIM_TRACE_BINARY;
    if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) return COALSIM_TRACE_GZIP;
    const import_format *f = import_find(head, n);
    return f ? f->kind : COALSIM_TRACE_TEXT;
}

int import_head_line(const char *head, size_t n, unsigned i, const char **line, size_t *len)
{
    const char *p = head, *end = head + n;
    for (;;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return 0;
        if (i-- == 0) {
            *line = p;
            *len = (size_t)(nl - p);
            if (*len && p[*len - 1] == '\r') (*len)--;
            return 1;
        }
        p = nl + 1;
    }
}

int import_fields(const char *s, size_t n, const char **f, size_t *fl, int max)
{
    int nf = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
        if (i == n) break;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') i++;
        if (nf < max) {
            f[nf] = s + start;
            fl[nf] = i - start;
        }
        nf++;
    }
    return nf;
}

int import_u64(const char *s, size_t n, int hex, uint64_t *v)
{
    uint64_t x = 0;
    int prefixed = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex == 2 && !prefixed) return -1;
    if (hex && prefixed) s += 2, n -= 2;
    if (n == 0) return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        unsigned base = hex ? 16 : 10;
        if (x > (UINT64_MAX - d) / base) return -1;
        x = x * base + d;
    }
    *v = x;
    return 0;
}
