/* SASS memory opcodes to op, space and size (see sassop.h).
 *
 * Bases: LDG/STG/ATOMG/RED(G) are global; LD/ST/ATOM are generic, counted as
 * global (a generic access that lands in shared memory is modelled as
 * global); LDS/STS/ATOMS/LDSM/STSM shared; LDL/STL local.  Width modifiers:
 * .U8 .S8 1 byte, .U16 .S16 2, .32 .U32 .S32 .F32 4, .64 .U64 .S64 .F64 8,
 * .128 16.  LDSM/STSM (ldmatrix/stmatrix) move one 16-byte row of eight
 * 16-bit elements a lane, from lanes 0-7, 0-15 or 0-31 for .1, .2 and .4
 * matrices (PTX ISA, "warp-level matrix load instruction: ldmatrix"). */
#include <string.h>

#include "frontend/trace/sassop.h"

static const struct {
    const char *base;
    coalsim_op op;
    coalsim_space space;
} bases[] = {
    {"LDG", COALSIM_LD, COALSIM_GLOBAL},     {"STG", COALSIM_ST, COALSIM_GLOBAL},
    {"ATOMG", COALSIM_ATOM, COALSIM_GLOBAL}, {"RED", COALSIM_RED, COALSIM_GLOBAL},
    {"REDG", COALSIM_RED, COALSIM_GLOBAL},   {"LD", COALSIM_LD, COALSIM_GLOBAL},
    {"ST", COALSIM_ST, COALSIM_GLOBAL},      {"ATOM", COALSIM_ATOM, COALSIM_GLOBAL},
    {"LDS", COALSIM_LD, COALSIM_SHARED},     {"STS", COALSIM_ST, COALSIM_SHARED},
    {"ATOMS", COALSIM_ATOM, COALSIM_SHARED}, {"LDSM", COALSIM_LD, COALSIM_SHARED},
    {"STSM", COALSIM_ST, COALSIM_SHARED},    {"LDL", COALSIM_LD, COALSIM_LOCAL},
    {"STL", COALSIM_ST, COALSIM_LOCAL},
};

static const struct {
    const char *mod;
    unsigned size;
} widths[] = {
    {"U8", 1},  {"S8", 1},  {"U16", 2}, {"S16", 2}, {"32", 4},  {"U32", 4},  {"S32", 4},
    {"F32", 4}, {"64", 8},  {"U64", 8}, {"S64", 8}, {"F64", 8}, {"128", 16},
};

static int is(const char *s, size_t n, const char *word) { return strlen(word) == n && memcmp(s, word, n) == 0; }

int sassop_word(const char *opc, size_t n)
{
    if (n == 0 || n > 64 || !((opc[0] >= 'A' && opc[0] <= 'Z') || (opc[0] >= 'a' && opc[0] <= 'z'))) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = opc[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_'))
            return 0;
    }
    return 1;
}

int sassop_decode(const char *opc, size_t n, sassop *out)
{
    const char *dot = memchr(opc, '.', n);
    size_t bn = dot ? (size_t)(dot - opc) : n;
    size_t k = 0, nb = sizeof bases / sizeof bases[0];
    while (k < nb && !is(opc, bn, bases[k].base)) k++;
    if (k == nb) return -1;
    out->op = bases[k].op;
    out->space = bases[k].space;
    out->size = 0;
    out->lanes = 0xffffffffu;
    out->fp = 0;
    out->l2_only = 0;
    int strong = 0, wide = 0;
    int matrix = is(opc, bn, "LDSM") || is(opc, bn, "STSM");
    /* the modifiers, one at a time */
    for (size_t i = bn; i < n;) {
        size_t s = i + 1, e = s;
        while (e < n && opc[e] != '.') e++;
        if (matrix) {
            if (is(opc + s, e - s, "1")) out->lanes = 0xffu;
            else if (is(opc + s, e - s, "2")) out->lanes = 0xffffu;
            else if (is(opc + s, e - s, "4")) out->lanes = 0xffffffffu;
        } else {
            static const char *const fps[] = {"F16", "F16x2", "BF16", "BF16x2", "F32", "F64"};
            for (size_t f = 0; f < sizeof fps / sizeof fps[0]; f++) out->fp |= is(opc + s, e - s, fps[f]);
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
                if (is(opc + s, e - s, widths[w].mod)) out->size = widths[w].size;
            strong |= is(opc + s, e - s, "STRONG");
            wide |= is(opc + s, e - s, "GPU") || is(opc + s, e - s, "SYS");
            out->l2_only |= is(opc + s, e - s, "MMIO");
        }
        i = e;
    }
    if (matrix) out->size = 16;
    out->l2_only = out->op == COALSIM_LD && (out->l2_only || (strong && wide));
    return 0;
}
