/* The --args list: numbers for scalars, NAME[:SIZE][=FILL] for buffers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "frontend/tmap.h"
#include "frontend/kernel/args.h"

/* The C type of parameter K in the demangled signature SIG ("int", "float
 * const*"), or "" if unknown. */
static void param_type(const char *sig, unsigned k, char *out, size_t cap)
{
    out[0] = '\0';
    const char *p = sig ? strchr(sig, '(') : NULL;
    if (!p) return;
    p++;
    unsigned i = 0;
    int depth = 0;
    const char *start = p;
    for (; *p; p++) {
        if (*p == '<' || *p == '(') depth++;
        else if (*p == '>' || (*p == ')' && depth > 0)) depth--;
        else if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0)) {
            if (i == k) {
                size_t n = (size_t)(p - start);
                while (n && start[0] == ' ') start++, n--;
                if (n >= cap) n = cap - 1;
                memcpy(out, start, n);
                out[n] = '\0';
                return;
            }
            i++;
            start = p + 1;
            if (*p == ')') return;
        }
    }
}

static int parse_size(const char *s, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno) return -1;
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k') mul = 1ull << 10, end++;
    else if (*end == 'M') mul = 1ull << 20, end++;
    else if (*end == 'G') mul = 1ull << 30, end++;
    if (*end == 'B' || *end == 'i') end += *end == 'i' && end[1] == 'B' ? 2 : *end == 'B';
    if (*end || x == 0 || x > (1ull << 40) / mul) return -1;
    *v = x * mul;
    return 0;
}

typedef struct {
    char name[64];
    uint64_t size;
    char fill[256];
    uint64_t base;
} seen_buf;

/* The buffer S names (NAME[:SIZE][=FILL]) for the parameter WHAT: made
 * in MEM (DFLT bytes when S gives no size) or, named before, the same one.
 * *OUT its address.  0, or -1 with ERR. */
static int buffer_arg(const char *s, const char *what, seen_buf *seen, unsigned *nseen, kmem *mem, uint64_t dflt,
                      uint64_t *out, char *err, size_t cap)
{
    char name[64];
    size_t nl = strcspn(s, ":=");
    if (nl == 0 || nl >= sizeof name) {
        snprintf(err, cap, "--args: %s: bad buffer name '%s'", what, s);
        return -1;
    }
    memcpy(name, s, nl);
    name[nl] = '\0';
    for (size_t i = 0; i < nl; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) {
            snprintf(err, cap, "--args: %s: bad buffer name '%s' (letters, digits, '_' and '.')", what, name);
            return -1;
        }
    }
    uint64_t size = 0;
    int sized = 0;
    const char *fill = "zero";
    const char *q = s + nl;
    int spec = *q != '\0';
    if (*q == ':') {
        char sz[64];
        size_t sl = strcspn(q + 1, "=");
        if (sl >= sizeof sz) sl = sizeof sz - 1;
        memcpy(sz, q + 1, sl);
        sz[sl] = '\0';
        if (parse_size(sz, &size)) {
            snprintf(err, cap, "--args: %s: buffer size '%s' is not a number of bytes (K, M, G allowed)", what, sz);
            return -1;
        }
        q += 1 + sl;
        sized = 1;
    }
    if (*q == '=') fill = q + 1;
    unsigned found = *nseen;
    for (unsigned i = 0; i < *nseen; i++)
        if (!strcmp(seen[i].name, name)) found = i;
    if (found < *nseen) {
        if (spec && (size != seen[found].size || strcmp(fill, seen[found].fill))) {
            snprintf(err, cap, "--args: %s: buffer '%s' is described twice, differently", what, name);
            return -1;
        }
        *out = seen[found].base;
        return 0;
    }
    kfill kf;
    char why[300];
    if (kfill_parse(fill, &kf, why, sizeof why) != 0) {
        snprintf(err, cap, "--args: %s: %s", what, why);
        return -1;
    }
    if (!sized) size = dflt;
    uint64_t base = kmem_add(mem, name, size, &kf);
    if (!base) {
        free(kf.bytes);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    snprintf(seen[*nseen].name, sizeof seen[*nseen].name, "%s", name);
    snprintf(seen[*nseen].fill, sizeof seen[*nseen].fill, "%s", fill);
    seen[*nseen].size = size;
    seen[*nseen].base = base;
    (*nseen)++;
    *out = base;
    return 0;
}

int kargs_parse(const char *list, const ptx_func *entry, const uint32_t *off, const char *sig, kmem *mem,
                unsigned char *params, size_t bytes, char *err, size_t cap)
{
    char *copy = strdup(list ? list : "");
    if (!copy) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    /* split on commas; an empty list is no argument */
    char *items[256];
    unsigned n = 0;
    if (*copy) {
        for (char *s = copy, *c;; s = c + 1) {
            if (n == 256) {
                free(copy);
                snprintf(err, cap, "--args: more than 256 values");
                return -1;
            }
            c = strchr(s, ',');
            if (c) *c = '\0';
            while (*s == ' ') s++;
            size_t len = strlen(s);
            while (len && s[len - 1] == ' ') s[--len] = '\0';
            items[n++] = s;
            if (!c) break;
        }
    }
    if (n != entry->nparams) {
        snprintf(err, cap, "--args gives %u value%s; %s takes %u", n, n == 1 ? "" : "s", sig ? sig : entry->name,
                 entry->nparams);
        free(copy);
        return -1;
    }
    seen_buf *seen = calloc(n + 1, sizeof *seen);
    unsigned nseen = 0;
    int rc = -1;
    if (!seen) {
        snprintf(err, cap, "out of memory");
        goto done;
    }
    for (unsigned k = 0; k < n; k++) {
        const ptx_param *pp = &entry->params[k];
        char ctype[96], what[160];
        param_type(sig, k, ctype, sizeof ctype);
        snprintf(what, sizeof what, "parameter %u (%s%s.%s)", k + 1, ctype, ctype[0] ? ", " : "", ptype_name(pp->type));
        const char *s = items[k];
        unsigned char *dst = params + off[k];
        if (!strncmp(pp->name, "__coalsim_unknown_", 18)) {
            if (!strcmp(pp->name, "__coalsim_unknown_c_name"))
                snprintf(err, cap, "--args: %s has a C name, so the SASS listing does not say its parameters: give the "
                                   "module too (--ptx FILE.cu or FILE.ptx)", entry->name);
            else
                snprintf(err, cap, "--args: %s: the SASS listing does not say how big a %s is: give the module too "
                                   "(--ptx FILE.cu or FILE.ptx)", what, ctype[0] ? ctype : "parameter");
            goto done;
        }
        if (pp->is_array && pp->bytes == TMAP_BYTES && strchr(s, '@') && off[k] + TMAP_BYTES <= bytes) {
            /* a tensor map (a CUtensorMap passed by value): BUFFER@TYPE:DIMS:BOX[:SWIZZLE[:STRIDES]] */
            char buf[256];
            size_t bl = (size_t)(strchr(s, '@') - s);
            if (bl >= sizeof buf) bl = sizeof buf - 1;
            memcpy(buf, s, bl);
            buf[bl] = '\0';
            tmap t;
            const char *why = tmap_parse(strchr(s, '@') + 1, &t);
            if (why) {
                snprintf(err, cap, "--args: %s: %s", what, why);
                goto done;
            }
            uint64_t span = t.strides[t.rank - 1] * t.dims[t.rank - 1];
            if (buffer_arg(buf, what, seen, &nseen, mem, span, &t.base, err, cap) != 0) goto done;
            const kbuf *kb = kmem_find(mem, t.base, span);
            if (!kb) {
                snprintf(err, cap, "--args: %s: the tensor (%llu bytes) does not fit its buffer '%s'", what,
                         (unsigned long long)span, buf);
                goto done;
            }
            if ((why = tmap_encode(&t, dst)) != NULL) {
                snprintf(err, cap, "--args: %s: %s", what, why);
                goto done;
            }
            continue;
        }
        if (pp->is_array || !ptype_bytes(pp->type) || off[k] + ptype_bytes(pp->type) > bytes) {
            if (pp->is_array && pp->bytes == TMAP_BYTES)
                snprintf(err, cap, "--args: %s: a 128-byte parameter (a CUtensorMap?) takes a tensor map, "
                                   "BUFFER@TYPE:DIMS:BOX[:SWIZZLE[:STRIDES]] (A:2M=randomh:1@f16:1024x1024:64x64:128)", what);
            else
                snprintf(err, cap, "--args: %s: a parameter passed by value as bytes (a struct) is not supported", what);
            goto done;
        }
        unsigned pb = ptype_bytes(pp->type);
        if (!*s) {
            snprintf(err, cap, "--args: %s: no value", what);
            goto done;
        }
        if ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_') {
            /* a buffer (inf and nan are numbers) */
            if (strcasecmp(s, "inf") && strcasecmp(s, "nan")) {
                if (pb != 8 || ptype_float(pp->type)) {
                    snprintf(err, cap, "--args: %s takes a number, not the buffer '%s'", what, s);
                    goto done;
                }
                uint64_t base;
                if (buffer_arg(s, what, seen, &nseen, mem, 0, &base, err, cap) != 0) goto done;
                memcpy(dst, &base, 8);
                continue;
            }
        }
        /* a number; a pointer takes one only as 0, the null pointer */
        size_t cl = strlen(ctype);
        if (cl && ctype[cl - 1] == '*' && strcmp(s, "0") != 0) {
            snprintf(err, cap, "--args: %s takes a buffer (NAME[:SIZE][=FILL]) or 0, not '%s'", what, s);
            goto done;
        }
        char *end;
        errno = 0;
        if (ptype_float(pp->type)) {
            double v = strtod(s, &end);
            if (*end || end == s) {
                snprintf(err, cap, "--args: %s: '%s' is not a number", what, s);
                goto done;
            }
            if (pp->type == PT_F32) {
                float fv = (float)v;
                memcpy(dst, &fv, 4);
            } else if (pp->type == PT_F64) {
                memcpy(dst, &v, 8);
            } else {
                uint16_t h = ptx_float_to_half((float)v);
                memcpy(dst, &h, 2);
            }
            continue;
        }
        int neg = s[0] == '-';
        unsigned long long u = neg ? (unsigned long long)strtoll(s, &end, 0) : strtoull(s, &end, 0);
        if (end == s || (*end && (strchr(".eE", *end) || *end == 'n' || *end == 'i'))) {
            if (*end == '.' || *end == 'e' || *end == 'E' || !strcasecmp(s, "inf") || !strcasecmp(s, "nan"))
                snprintf(err, cap, "--args: %s is an integer, not '%s'", what, s);
            else
                snprintf(err, cap, "--args: %s: '%s' is not a number", what, s);
            goto done;
        }
        if (*end || errno) {
            snprintf(err, cap, "--args: %s: '%s' is not a number%s", what, s, errno ? " that fits" : "");
            goto done;
        }
        /* does it fit the parameter? */
        if (pb < 8) {
            long long sv = (long long)u;
            int fits = ptype_signed(pp->type) ? (sv >= -(1ll << (8 * pb - 1)) && sv < (1ll << (8 * pb - 1)))
                                              : neg ? sv >= -(1ll << (8 * pb - 1)) : u < (1ull << (8 * pb));
            if (!fits) {
                snprintf(err, cap, "--args: %s: %s does not fit in %u bytes", what, s, pb);
                goto done;
            }
        }
        memcpy(dst, &u, pb);
    }
    rc = 0;
done:
    free(seen);
    free(copy);
    return rc;
}
