/* Accel-Sim's kernel traces (github.com/accel-sim/accel-sim-framework,
 * util/tracer_nvbit/): the .traceg files its post-processing writes, one
 * thread block after another, and the raw kernel-N.trace the tracer writes,
 * each line carrying its block and warp.
 *
 *   -kernel name = _Z6vecAddPfS_S_i          header lines: "-key = value"
 *   -grid dim = (4,1,1)
 *   -accelsim tracer version = 3
 *   #traces format = ...                      '#' lines are comments
 *   #BEGIN_TB
 *   thread block = 0,0,0
 *   warp = 0
 *   insts = 2
 *   0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0
 *   0130 ffffffff 0 STG.E 2 R2 R0 4 1 0x7f0000000000 4
 *   #END_TB
 *
 * An instruction line is [line_num] PC mask dest_num [dests] opcode src_num
 * [srcs] mem_width [mode addresses] [immediate], PC and mask in hex.
 * mem_width 0: not a memory instruction.  The tracer writes the addresses
 * of the active lanes (mask bits, lowest first) in one of three modes
 * (tracer_tool.cu: base_stride_compress, base_delta_compress):
 *   0  one 0x address a lane
 *   1  base stride: lane k of the active ones at base + k * stride (the
 *      tracer uses it when the active lanes are consecutive with one stride)
 *   2  base delta...: the first lane at base, each next one at the previous
 *      plus its delta (signed decimal): one delta fewer than lanes
 * Tracer versions before 3 (and raw traces) start each instruction line with
 * "tb_x tb_y tb_z warp"; version 4 adds line_num when "-enable lineinfo = 1";
 * version 5 ends the line with the instruction's immediate.
 *
 * A request's size comes from the opcode's width modifier where it has one
 * (the tracer reads .S8 and .S16 as 4 bytes and LDSM's .16 element type as
 * 2), else from mem_width.  Its label is OPCODE@0xPC. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/trace/import.h"
#include "frontend/trace/sassop.h"

#define MAXFIELDS 96        /* prefix, PC, mask, registers, 32 addresses, immediate */

typedef struct {
    int version;            /* "-accelsim tracer version"; -1: not given (before 3) */
    int lineinfo;
    int grid_known;
    uint64_t gx, gy, gz;
    int in_tb, have_tb, have_warp;
    uint64_t tb[3], block, warp;
    int64_t insts;          /* "insts = N" of the current warp; -1: none yet */
    uint64_t seen;          /* instruction lines of the current warp */
    char label[COALSIM_MAX_LABEL + 1];
} accel_state;

/* The first non-blank line is a header line: "-words = value". */
static int sniff(const char *head, size_t n)
{
    const char *l;
    size_t len;
    for (unsigned i = 0; import_head_line(head, n, i, &l, &len); i++) {
        const char *f[1];
        size_t fl[1];
        if (import_fields(l, len, f, fl, 1) == 0) continue;
        if (l[0] != '-' || len < 2 || l[1] < 'a' || l[1] > 'z') return 0;
        for (size_t k = 1; k + 2 < len; k++)
            if (l[k] == ' ' && l[k + 1] == '=' && l[k + 2] == ' ') return 1;
        return 0;
    }
    return 0;
}

static void *open_state(void)
{
    accel_state *s = calloc(1, sizeof *s);
    if (s) s->version = -1, s->insts = -1;
    return s;
}

static void close_state(void *st) { free(st); }

/* "X,Y,Z", with "(...)" around it or not: three decimals below 2^31. */
static int dims3(const char *s, size_t n, uint64_t v[3])
{
    while (n && (*s == ' ' || *s == '(')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == ')' || s[n - 1] == '\r')) n--;
    for (int k = 0; k < 3; k++) {
        size_t e = 0;
        while (e < n && s[e] != ',') e++;
        size_t a = 0, b = e;
        while (a < b && s[a] == ' ') a++;
        while (b > a && s[b - 1] == ' ') b--;
        if ((k < 2) != (e < n) || import_u64(s + a, b - a, 0, &v[k]) != 0 || v[k] > 0x7fffffffu) return -1;
        if (k < 2) s += e + 1, n -= e + 1;
    }
    return 0;
}

/* The value of "KEY = VALUE" if LINE[0..n) (after its first byte OFF) is KEY. */
static int value(const char *line, size_t n, size_t off, const char *key, const char **v, size_t *vn)
{
    size_t k = strlen(key);
    if (n < off + k || memcmp(line + off, key, k) != 0) return 0;
    size_t i = off + k;
    while (i < n && line[i] == ' ') i++;
    if (i == n || line[i] != '=') return 0;
    i++;
    while (i < n && line[i] == ' ') i++;
    *v = line + i;
    *vn = n - i;
    while (*vn && (line[i + *vn - 1] == ' ' || line[i + *vn - 1] == '\r')) (*vn)--;
    return 1;
}

static int say(char *err, size_t cap, const char *msg)
{
    snprintf(err, cap, "%s", msg);
    return -1;
}

/* ERR = FMT with WHAT[0..n) quoted (at most 40 bytes); returns -1. */
static int bad(char *err, size_t cap, const char *fmt, const char *what, size_t n)
{
    char q[48];
    snprintf(q, sizeof q, "%.*s%s", (int)(n < 40 ? n : 40), what, n > 40 ? "..." : "");
    snprintf(err, cap, fmt, q);
    return -1;
}

/* The current warp's instruction count against its "insts = N". */
static int check_count(accel_state *s, char *err, size_t cap)
{
    if (s->have_warp && s->insts >= 0 && s->seen != (uint64_t)s->insts) {
        snprintf(err, cap, "warp %llu of thread block (%llu,%llu,%llu) has %llu instruction lines, its 'insts = %lld' says otherwise",
                 (unsigned long long)s->warp, (unsigned long long)s->tb[0], (unsigned long long)s->tb[1],
                 (unsigned long long)s->tb[2], (unsigned long long)s->seen, (long long)s->insts);
        return -1;
    }
    return 0;
}

/* The linear block index of thread block TB in the grid. */
static int block_of(accel_state *s, const uint64_t tb[3], uint64_t *block, char *err, size_t cap)
{
    if (!s->grid_known) return say(err, cap, "no '-grid dim = (x,y,z)' line before the first thread block");
    if (tb[0] >= s->gx || tb[1] >= s->gy || tb[2] >= s->gz) {
        snprintf(err, cap, "thread block (%llu,%llu,%llu) is outside the grid (%llu,%llu,%llu)",
                 (unsigned long long)tb[0], (unsigned long long)tb[1], (unsigned long long)tb[2],
                 (unsigned long long)s->gx, (unsigned long long)s->gy, (unsigned long long)s->gz);
        return -1;
    }
    *block = tb[0] + s->gx * (tb[1] + s->gy * tb[2]);
    return 0;
}

static int header(accel_state *s, const char *l, size_t n, char *err, size_t cap)
{
    const char *v;
    size_t vn;
    uint64_t x;
    if (s->in_tb) return say(err, cap, "a header line inside a thread block");
    if (value(l, n, 1, "grid dim", &v, &vn)) {
        uint64_t g[3];
        if (dims3(v, vn, g) != 0 || !g[0] || !g[1] || !g[2]) return say(err, cap, "bad '-grid dim' (expected (x,y,z))");
        s->grid_known = 1;
        s->gx = g[0], s->gy = g[1], s->gz = g[2];
    } else if (value(l, n, 1, "accelsim tracer version", &v, &vn)) {
        /* "3", "4", "5"; the first releases wrote "1.2" */
        size_t d = 0;
        while (d < vn && v[d] >= '0' && v[d] <= '9') d++;
        if (import_u64(v, d, 0, &x) != 0 || x > 1000) return say(err, cap, "bad '-accelsim tracer version'");
        s->version = (int)x;
    } else if (value(l, n, 1, "enable lineinfo", &v, &vn)) {
        if (import_u64(v, vn, 0, &x) != 0 || x > 1) return say(err, cap, "bad '-enable lineinfo' (expected 0 or 1)");
        s->lineinfo = (int)x;
    }
    return 0;
}

static int instruction(accel_state *s, const char *text, size_t n, coalsim_request *out, char *err, size_t cap)
{
    const char *f[MAXFIELDS];
    size_t fl[MAXFIELDS];
    int nf = import_fields(text, n, f, fl, MAXFIELDS), i = 0;
    if (nf > MAXFIELDS) return say(err, cap, "too many fields for an instruction line");
    uint64_t v, block, warp;
    /* "tb_x tb_y tb_z warp" first: raw traces, and .traceg before version 3 */
    if (!s->in_tb || s->version < 3) {
        uint64_t tb[3];
        if (nf < 4) return say(err, cap, "expected 'tb_x tb_y tb_z warp' before the instruction");
        for (int k = 0; k < 3; k++)
            if (import_u64(f[k], fl[k], 0, &tb[k]) != 0 || tb[k] > 0x7fffffffu)
                return say(err, cap, "bad thread block index before the instruction");
        if (import_u64(f[3], fl[3], 0, &warp) != 0 || warp > 0xffffffffu) return say(err, cap, "bad warp before the instruction");
        if (block_of(s, tb, &block, err, cap) != 0) return -1;
        if (s->in_tb && (block != s->block || warp != s->warp))
            return say(err, cap, "the line's thread block and warp are not the ones of its 'thread block =' and 'warp ='");
        i = 4;
    } else {
        block = s->block;
        warp = s->warp;
    }
    if (s->in_tb) {
        if (!s->have_warp || s->insts < 0) return say(err, cap, "an instruction before 'warp = N' and 'insts = N'");
        if (++s->seen > (uint64_t)s->insts) {
            snprintf(err, cap, "more instruction lines than warp %llu's 'insts = %lld'", (unsigned long long)s->warp,
                     (long long)s->insts);
            return -1;
        }
    }
    if (s->lineinfo) {
        if (i >= nf || import_u64(f[i], fl[i], 0, &v) != 0) return say(err, cap, "expected the source line number first");
        i++;
    }
    uint64_t pc, mask, ndst, nsrc, width, mode;
    if (i >= nf || import_u64(f[i], fl[i], 1, &pc) != 0)
        return bad(err, cap, "expected the PC (hex), found '%s'", i < nf ? f[i] : "", i < nf ? fl[i] : 0);
    i++;
    if (i >= nf || import_u64(f[i], fl[i], 1, &mask) != 0 || mask > 0xffffffffu)
        return bad(err, cap, "expected the active mask (hex, 32 bits) after the PC, found '%s'", i < nf ? f[i] : "",
                   i < nf ? fl[i] : 0);
    i++;
    if (i >= nf || import_u64(f[i], fl[i], 0, &ndst) != 0 || ndst > 32)
        return say(err, cap, "expected the number of destination registers after the mask");
    i += 1 + (int)ndst;
    if (i >= nf || !sassop_word(f[i], fl[i]))
        return bad(err, cap, "expected the opcode after the destination registers, found '%s'", i < nf ? f[i] : "",
                   i < nf ? fl[i] : 0);
    const char *opc = f[i];
    size_t opn = fl[i];
    i++;
    if (i >= nf || import_u64(f[i], fl[i], 0, &nsrc) != 0 || nsrc > 32)
        return say(err, cap, "expected the number of source registers after the opcode");
    i += 1 + (int)nsrc;
    if (i >= nf || import_u64(f[i], fl[i], 0, &width) != 0)
        return bad(err, cap, "expected mem_width after the source registers, found '%s'", i < nf ? f[i] : "",
                   i < nf ? fl[i] : 0);
    i++;
    if (width == 0) return 0;                                   /* not a memory instruction */
    if (i >= nf) return say(err, cap, "no address mode after mem_width");
    if (import_u64(f[i], fl[i], 0, &mode) != 0 || mode > 2)
        return bad(err, cap, "address mode '%s' is not 0 (a list), 1 (base stride) or 2 (base deltas)", f[i], fl[i]);
    i++;
    uint32_t active = (uint32_t)mask;
    int lanes = __builtin_popcount(active), want = mode == 0 ? lanes : mode == 1 ? 2 : lanes ? lanes : 1;
    if (nf - i < want) {
        snprintf(err, cap, "mask %08x has %d active lanes: expected %d address fields after the mode, found %d",
                 active, lanes, want, nf - i);
        return -1;
    }
    uint64_t addr[32] = {0}, base = 0, prev = 0;
    if (mode != 0 && import_u64(f[i], fl[i], 1, &base) != 0)
        return bad(err, cap, "base address '%s' is not a hex number below 2^64", f[i], fl[i]);
    int k = 0;
    for (uint32_t m = active; m; m &= m - 1, k++) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (mode == 0) {
            if (import_u64(f[i + k], fl[i + k], 1, &addr[l]) != 0)
                return bad(err, cap, "address '%s' is not a hex number below 2^64", f[i + k], fl[i + k]);
        } else {
            /* signed decimal: the stride (mode 1) or this lane's delta (mode 2) */
            const char *d = mode == 1 ? f[i + 1] : f[i + k];
            size_t dn = mode == 1 ? fl[i + 1] : fl[i + k];
            int neg = dn && d[0] == '-';
            if (k > 0 || mode == 1) {
                if (import_u64(d + neg, dn - (size_t)neg, 0, &v) != 0 || v > (uint64_t)INT64_MAX)
                    return bad(err, cap, mode == 1 ? "stride '%s' is not a decimal number" : "delta '%s' is not a decimal number",
                               d, dn);
                if (neg) v = 0 - v;
            }
            addr[l] = mode == 1 ? base + v * (uint64_t)k : k == 0 ? base : prev + v;
            prev = addr[l];
        }
    }
    i += want;
    /* version 5 ends the line with the instruction's immediate */
    if (nf - i > (s->version >= 5 ? 1 : 0)) {
        char q[48];
        snprintf(q, sizeof q, "%.*s", (int)(fl[i] < 40 ? fl[i] : 40), f[i]);
        snprintf(err, cap, "unexpected '%s' after the addresses", q);
        return -1;
    }
    sassop op;
    if (sassop_decode(opc, opn, &op) != 0) return 0;           /* a memory access coalsim does not model */
    active &= op.lanes;
    if (!active) return 0;
    unsigned size = op.size ? op.size : (unsigned)width;
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
        snprintf(err, cap, "access width %llu bytes (%.*s) is not 1, 2, 4, 8 or 16", (unsigned long long)size,
                 (int)opn, opc);
        return -1;
    }
    for (unsigned l = 0; l < 32; l++) {
        const char *why = NULL;
        if (!(active >> l & 1)) continue;
        if (addr[l] % size) why = "is not aligned to the access's size";
        else if (addr[l] > UINT64_MAX - (size - 1)) why = "plus the access's size wraps past 2^64";
        else if (op.space == COALSIM_SHARED && addr[l] > 0xffffffffull - (size - 1))
            why = "is beyond the 4 GiB shared window";
        if (why) {
            snprintf(err, cap, "lane %u's address 0x%llx %s (%u bytes, %.*s)", l, (unsigned long long)addr[l], why,
                     size, (int)opn, opc);
            return -1;
        }
    }
    snprintf(s->label, sizeof s->label, "%.*s@0x%llx", (int)opn, opc, (unsigned long long)pc);
    *out = (coalsim_request){.op = op.op, .space = op.space, .size = size, .block = block, .warp = warp,
                             .active = active, .atomic_float = (unsigned char)((op.op == COALSIM_ATOM || op.op == COALSIM_RED) && op.fp),
                             .l2_only = (unsigned char)op.l2_only,
                             .label = s->label};
    memcpy(out->addr, addr, sizeof addr);
    return 1;
}

static int line(void *st, const char *l, size_t n, coalsim_request *out, char *err, size_t cap)
{
    accel_state *s = st;
    const char *f[3], *v;
    size_t fl[3], vn;
    int nf = import_fields(l, n, f, fl, 3);
    if (nf == 0) return 0;
    if (l[0] == '-') return header(s, l, n, err, cap);
    if (f[0][0] == '#') {
        if (fl[0] == 9 && memcmp(f[0], "#BEGIN_TB", 9) == 0) {
            if (s->in_tb) return say(err, cap, "#BEGIN_TB inside a thread block (its #END_TB is missing)");
            s->in_tb = 1;
            s->have_tb = s->have_warp = 0;
        } else if (fl[0] == 7 && memcmp(f[0], "#END_TB", 7) == 0) {
            if (!s->in_tb) return say(err, cap, "#END_TB without #BEGIN_TB");
            if (check_count(s, err, cap) != 0) return -1;
            s->in_tb = s->have_tb = s->have_warp = 0;
        }
        return 0;                                               /* "#traces format = ..." and other comments */
    }
    if (value(l, n, 0, "thread block", &v, &vn)) {
        if (!s->in_tb || s->have_tb) return say(err, cap, "'thread block =' outside #BEGIN_TB ... #END_TB, or twice");
        if (dims3(v, vn, s->tb) != 0) return say(err, cap, "bad 'thread block =' (expected x,y,z)");
        if (block_of(s, s->tb, &s->block, err, cap) != 0) return -1;
        s->have_tb = 1;
        return 0;
    }
    if (value(l, n, 0, "warp", &v, &vn)) {
        if (!s->have_tb) return say(err, cap, "'warp =' before 'thread block ='");
        if (check_count(s, err, cap) != 0) return -1;
        if (import_u64(v, vn, 0, &s->warp) != 0 || s->warp > 0xffffffffu) return say(err, cap, "bad 'warp =' (expected a number)");
        s->have_warp = 1;
        s->insts = -1;
        s->seen = 0;
        return 0;
    }
    if (value(l, n, 0, "insts", &v, &vn)) {
        uint64_t x;
        if (!s->have_warp || s->insts >= 0) return say(err, cap, "'insts =' not right after 'warp ='");
        if (import_u64(v, vn, 0, &x) != 0 || x > INT64_MAX) return say(err, cap, "bad 'insts =' (expected a number)");
        s->insts = (int64_t)x;
        return 0;
    }
    return instruction(s, l, n, out, err, cap);
}

static int end(void *st, char *err, size_t cap)
{
    accel_state *s = st;
    if (!s->in_tb) return 0;
    snprintf(err, cap, "the trace ends inside thread block (%llu,%llu,%llu): no #END_TB", (unsigned long long)s->tb[0],
             (unsigned long long)s->tb[1], (unsigned long long)s->tb[2]);
    return -1;
}

const import_format import_accelsim = {"Accel-Sim trace", COALSIM_TRACE_ACCELSIM, sniff, open_state, close_state,
                                       line, end};
