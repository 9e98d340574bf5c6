/* NVBit's mem_trace tool output (github.com/NVlabs/NVBit, tools/mem_trace):
 * one line a warp memory instruction, with the 32 lanes' addresses.
 *
 *   MEMTRACE: CTX 0x... - grid_launch_id 0 - CTA 53,0,0 - warp 26 - LDG.E.64 - 0x... (32 addresses)
 *   MEMTRACE: CTX 0x... - CTA 0,0,0 - warp 3 - LDG.E.64 - 0x... ...
 *   CTA 0,0,0 - warp 3 - LDG.E - 0x... ...                       (NVBit 1.0-1.4)
 *
 * and launch lines that give the grid:
 *
 *   MEMTRACE: CTX 0x... - LAUNCH - Kernel pc 0x... - Kernel name k - grid launch id 0 - grid size 4,1,1 - ...
 *   Kernel k - grid size 4,1,1 - block size 256,1,1 - nregs 16 - shmem 0 - cuda stream id 0
 *
 * The tool prints to the application's stdout, so other lines (the
 * application's own output, NVBit's banner, verbose messages) are skipped: a
 * record is a line with a "CTA x,y,z" part.  The tool prints no active mask;
 * a lane whose address is 0x0 is taken as inactive.  A CTA's block is its
 * linear index in the launch's grid; with no grid size in the file, CTAs are
 * numbered in the order they first appear (the only thing here that grows
 * with the trace: one entry a CTA).  The warp is the tool's warp number (its
 * %warpid: the warp's slot on its SM). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/trace/import.h"
#include "frontend/trace/sassop.h"

typedef struct {
    uint32_t x, y, z, id;
} cta_slot;

typedef struct {
    int grid_known;
    uint64_t gx, gy, gz;
    cta_slot *ctas;             /* first-appearance numbers: open addressing */
    size_t nctas, cap;
    char label[COALSIM_MAX_LABEL + 1];
} nvbit_state;

static int starts(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    return n >= k && memcmp(s, word, k) == 0;
}

static int contains(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, word, k) == 0) return 1;
    return 0;
}

/* The next " - "-separated part of S[*pos..n), trimmed.  0 at the end. */
static int part(const char *s, size_t n, size_t *pos, const char **p, size_t *len)
{
    size_t i = *pos;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n) return 0;
    size_t start = i;
    while (i < n && !(i + 3 <= n && s[i] == ' ' && s[i + 1] == '-' && s[i + 2] == ' ')) i++;
    size_t end = i;
    while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r')) end--;
    /* a line ending in " -": a separator with nothing after it */
    if (i >= n && end >= start + 2 && s[end - 1] == '-' && s[end - 2] == ' ') end -= 2;
    *p = s + start;
    *len = end - start;
    *pos = i < n ? i + 3 : n;
    return 1;
}

/* Where the parts of a line start: after "MEMTRACE:" if it has it. */
static size_t first_part(const char *s, size_t n) { return starts(s, n, "MEMTRACE:") ? 9 : 0; }

/* 1 if a part of the line is "CTA " and a digit: a record. */
static int record_like(const char *s, size_t n)
{
    const char *p;
    size_t len, pos = first_part(s, n);
    while (part(s, n, &pos, &p, &len))
        if (len > 4 && starts(p, len, "CTA ") && p[4] >= '0' && p[4] <= '9') return 1;
    return 0;
}

static int sniff(const char *head, size_t n)
{
    const char *l;
    size_t len;
    for (unsigned i = 0; i < 64 && import_head_line(head, n, i, &l, &len); i++) {
        size_t k = 0;
        while (k < len && (l[k] == ' ' || l[k] == '\t')) k++;
        if (k < len && l[k] == '#') continue;       /* a comment of a coalsim trace, whatever it says */
        if (starts(l, len, "MEMTRACE: ") || record_like(l, len) ||
            contains(l, len, "NVBit (NVidia Binary Instrumentation Tool"))
            return 1;
    }
    return 0;
}

static void *open_state(void) { return calloc(1, sizeof(nvbit_state)); }

static void close_state(void *st)
{
    nvbit_state *s = st;
    if (s) free(s->ctas);
    free(s);
}

/* "X,Y,Z": three non-negative decimals below 2^31 (CUDA's limits). */
static int dims3(const char *s, size_t n, uint64_t v[3])
{
    for (int k = 0; k < 3; k++) {
        size_t e = 0;
        while (e < n && s[e] != ',') e++;
        if ((k < 2) != (e < n) || import_u64(s, e, 0, &v[k]) != 0 || v[k] > 0x7fffffffu) return -1;
        if (k < 2) s += e + 1, n -= e + 1;
    }
    return 0;
}

/* The number of CTA (x, y, z) in order of first appearance.  -1: out of memory. */
static int64_t cta_number(nvbit_state *s, uint32_t x, uint32_t y, uint32_t z)
{
    if (2 * (s->nctas + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        cta_slot *t = calloc(cap, sizeof *t);
        if (!t) return -1;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->ctas[i].id) continue;
            size_t h = (s->ctas[i].x * 0x9e3779b1u ^ s->ctas[i].y * 0x85ebca6bu ^ s->ctas[i].z * 0xc2b2ae35u) & (cap - 1);
            while (t[h].id) h = (h + 1) & (cap - 1);
            t[h] = s->ctas[i];
        }
        free(s->ctas);
        s->ctas = t;
        s->cap = cap;
    }
    size_t h = (x * 0x9e3779b1u ^ y * 0x85ebca6bu ^ z * 0xc2b2ae35u) & (s->cap - 1);
    for (; s->ctas[h].id; h = (h + 1) & (s->cap - 1))
        if (s->ctas[h].x == x && s->ctas[h].y == y && s->ctas[h].z == z) return s->ctas[h].id - 1;
    s->ctas[h] = (cta_slot){x, y, z, (uint32_t)++s->nctas};   /* ids from 1: 0 marks a free slot */
    return (int64_t)s->nctas - 1;
}

/* A launch line: the grid of the records after it (none given: unknown). */
static void launch(nvbit_state *s, const char *line, size_t n)
{
    const char *p;
    size_t len, pos = 0;
    uint64_t g[3];
    s->grid_known = 0;
    while (part(line, n, &pos, &p, &len))
        if (starts(p, len, "grid size ") && dims3(p + 10, len - 10, g) == 0 && g[0] && g[1] && g[2]) {
            s->grid_known = 1;
            s->gx = g[0], s->gy = g[1], s->gz = g[2];
        }
}

/* ERR = FMT with WHAT[0..n) quoted (at most 40 bytes); returns -1. */
static int bad(char *err, size_t cap, const char *fmt, const char *what, size_t n)
{
    char q[48];
    snprintf(q, sizeof q, "%.*s%s", (int)(n < 40 ? n : 40), what, n > 40 ? "..." : "");
    snprintf(err, cap, fmt, q);
    return -1;
}

static int line(void *st, const char *s, size_t n, coalsim_request *out, char *err, size_t cap)
{
    nvbit_state *ns = st;
    size_t pos = first_part(s, n), len;
    const char *p;
    if (!record_like(s, n)) {
        /* a launch line, or anything else the tool or the application printed */
        if (contains(s, n, " - LAUNCH") || (starts(s, n, "Kernel ") && contains(s, n, " - grid size ")))
            launch(ns, s, n);
        return 0;
    }
    /* the parts before the CTA: the context and the launch id */
    uint64_t cta[3], warp = 0, pc = 0, v;
    while (part(s, n, &pos, &p, &len) && !starts(p, len, "CTA "))
        if (!starts(p, len, "CTX ") && !starts(p, len, "grid_launch_id "))
            return bad(err, cap, "unexpected '%s' before the CTA", p, len);
    if (dims3(p + 4, len - 4, cta) != 0) return bad(err, cap, "bad CTA '%s' (expected CTA x,y,z)", p, len);
    if (!part(s, n, &pos, &p, &len)) p = "", len = 0;
    if (!starts(p, len, "warp ") || import_u64(p + 5, len - 5, 0, &warp) != 0 || warp > 0xffffffffu)
        return bad(err, cap, "expected 'warp N' after the CTA, found '%s'", p, len);
    /* the opcode and, from tools that add it, the instruction's "pc 0x...",
     * then the addresses */
    const char *opc = NULL;
    size_t opn = 0;
    int has_pc = 0;
    for (;;) {
        if (!part(s, n, &pos, &p, &len)) return bad(err, cap, "%sno addresses after the opcode", "", 0);
        if (starts(p, len, "pc ") || starts(p, len, "PC ")) {
            if (import_u64(p + 3, len - 3, 1, &pc) != 0) return bad(err, cap, "bad pc '%s'", p, len);
            has_pc = 1;
        } else if (!opc) {
            if (!sassop_word(p, len)) return bad(err, cap, "expected an opcode after the warp, found '%s'", p, len);
            opc = p, opn = len;
        } else {
            break;
        }
    }
    const char *f[33];
    size_t fl[33];
    const char *rest;
    size_t rn;
    if (part(s, n, &pos, &rest, &rn)) return bad(err, cap, "unexpected ' - %s' after the addresses", rest, rn);
    int nf = import_fields(p, len, f, fl, 33);
    if (nf != 32) {
        snprintf(err, cap, "expected 32 addresses after the opcode, found %d", nf);
        return -1;
    }
    uint64_t addr[32];
    uint32_t active = 0;
    for (int l = 0; l < 32; l++) {
        if (import_u64(f[l], fl[l], 2, &v) != 0)
            return bad(err, cap, "address '%s' is not a 0x hex number below 2^64", f[l], fl[l]);
        addr[l] = v;
        if (v) active |= 1u << l;       /* 0x0: an inactive lane */
    }
    sassop op;
    if (sassop_decode(opc, opn, &op) != 0) return 0;        /* not an access coalsim models */
    active &= op.lanes;
    if (!active) return 0;
    unsigned size = op.size ? op.size : 4;
    for (int l = 0; l < 32; l++) {
        const char *why = NULL;
        if (!(active >> l & 1)) continue;
        if (addr[l] % size) why = "is not aligned to the access's size";
        else if (addr[l] > UINT64_MAX - (size - 1)) why = "plus the access's size wraps past 2^64";
        else if (op.space == COALSIM_SHARED && addr[l] > 0xffffffffull - (size - 1))
            why = "is beyond the 4 GiB shared window";
        if (why) {
            snprintf(err, cap, "lane %d's address 0x%llx %s (%u bytes, %.*s)", l, (unsigned long long)addr[l], why,
                     size, (int)opn, opc);
            return -1;
        }
    }
    uint64_t block;
    if (ns->grid_known) {
        if (cta[0] >= ns->gx || cta[1] >= ns->gy || cta[2] >= ns->gz) {
            snprintf(err, cap, "CTA %llu,%llu,%llu is outside the launch's grid %llu,%llu,%llu",
                     (unsigned long long)cta[0], (unsigned long long)cta[1], (unsigned long long)cta[2],
                     (unsigned long long)ns->gx, (unsigned long long)ns->gy, (unsigned long long)ns->gz);
            return -1;
        }
        block = cta[0] + ns->gx * (cta[1] + ns->gy * cta[2]);
    } else {
        int64_t id = cta_number(ns, (uint32_t)cta[0], (uint32_t)cta[1], (uint32_t)cta[2]);
        if (id < 0) {
            snprintf(err, cap, "out of memory");
            return -1;
        }
        block = (uint64_t)id;
    }
    if (has_pc) snprintf(ns->label, sizeof ns->label, "%.*s@0x%llx", (int)opn, opc, (unsigned long long)pc);
    else snprintf(ns->label, sizeof ns->label, "%.*s", (int)opn, opc);
    *out = (coalsim_request){.op = op.op, .space = op.space, .size = size, .block = block, .warp = warp,
                             .active = active, .atomic_float = (unsigned char)((op.op == COALSIM_ATOM || op.op == COALSIM_RED) && op.fp),
                             .l2_only = (unsigned char)op.l2_only,
                             .label = ns->label};
    memcpy(out->addr, addr, sizeof addr);
    return 1;
}

static int end(void *st, char *err, size_t cap)
{
    (void)st, (void)err, (void)cap;
    return 0;
}

const import_format import_nvbit = {"NVBit mem_trace output", COALSIM_TRACE_NVBIT, sniff, open_state, close_state,
                                    line, end};
