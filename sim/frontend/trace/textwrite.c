/* Writing requests as v1 text records (docs/trace-format.md):
 *   OP SPACE SIZE LABEL BLOCK THREAD 0xADDRESS
 * one line an active lane.  Formatted by hand: printf is most of the time
 * of writing a long trace. */
#include <string.h>

#include "coalsim.h"

/* Decimal digits of V at the end of BUF[0..24); returns where they start. */
static char *decimal(char *end, uint64_t v)
{
    do *--end = (char)('0' + v % 10);
    while (v /= 10);
    return end;
}

static char *put_text(char *o, const char *s, size_t n)
{
    memcpy(o, s, n);
    return o + n;
}

int coalsim_text_write(FILE *out, const coalsim_request *r, unsigned warp_size)
{
    static const char hex[] = "0123456789abcdef";
    /* the fixed part: "OP SPACE SIZE LABEL BLOCK " */
    char head[COALSIM_MAX_LABEL + 64], num[24];
    const char *op = coalsim_op_name(r->op), *sp = coalsim_space_name(r->space);
    size_t lab = strnlen(r->label, COALSIM_MAX_LABEL);
    char *h = head;
    h = put_text(h, op, strlen(op));
    *h++ = ' ';
    h = put_text(h, sp, strlen(sp));
    *h++ = ' ';
    char *d = decimal(num + sizeof num, r->size);
    h = put_text(h, d, (size_t)(num + sizeof num - d));
    *h++ = ' ';
    h = put_text(h, r->label, lab);
    *h++ = ' ';
    d = decimal(num + sizeof num, r->block);
    h = put_text(h, d, (size_t)(num + sizeof num - d));
    *h++ = ' ';
    size_t hn = (size_t)(h - head);
    char buf[COALSIM_MAX_WARP * (sizeof head + 48)], *o = buf;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        o = put_text(o, head, hn);
        d = decimal(num + sizeof num, r->warp * warp_size + l);
        o = put_text(o, d, (size_t)(num + sizeof num - d));
        *o++ = ' ';
        *o++ = '0';
        *o++ = 'x';
        uint64_t a = r->addr[l];
        int digits = 1;
        while (digits < 16 && a >> (4 * digits)) digits++;
        for (int k = digits - 1; k >= 0; k--) *o++ = hex[a >> (4 * k) & 15];
        *o++ = '\n';
    }
    return fwrite(buf, 1, (size_t)(o - buf), out) == (size_t)(o - buf) ? 0 : -1;
}
