/* The modifiers the interpreter understands, per base opcode: anything else
 * on an instruction is an error naming the listing line, never ignored.
 * Cache and memory-ordering hints (.E, .STRONG.GPU, .CONSTANT, .EF, ...)
 * are here as understood: they change no value and no count. */
#include <string.h>

#include "sass.h"

#define MEMHINTS "E CONSTANT STRONG WEAK SYS GPU SM CTA MMIO VOLATILE PRIVATE EF EL LU EN NA LTC64B LTC128B LTC256B "
#define CMP "F LT EQ LE GT NE GE T NUM NAN LTU EQU LEU GTU NEU GEU "
#define ROUND "RN RZ RM RP "

static const struct {
    const char *op, *mods;
} allowed[] = {
    /* integer and logic (sass_ops_int.c) */
    {"IADD3", "X"}, {"UIADD3", "X 64"}, {"IMAD", "MOV U32 S32 IADD SHL HI WIDE X"}, {"UIMAD", "MOV U32 S32 IADD SHL HI WIDE X"},
    {"LEA", "HI X SX32"}, {"ULEA", "HI X SX32"}, {"SHF", "L R U32 S32 U64 S64 HI"}, {"USHF", "L R U32 S32 U64 S64 HI"},
    {"LOP3", "LUT"}, {"ULOP3", "LUT"}, {"PLOP3", "LUT"}, {"UPLOP3", "LUT"},
    {"ISETP", "F LT EQ LE GT NE GE T U32 S32 AND OR XOR EX"}, {"UISETP", "F LT EQ LE GT NE GE T U32 S32 AND OR XOR EX"},
    {"SEL", ""}, {"USEL", ""}, {"IMNMX", "U32 S32"}, {"UIMNMX", "U32 S32"}, {"VIMNMX", "U32 S32"}, {"VIADD", ""},
    {"VIADDMNMX", "U32 S32"}, {"MOV", ""}, {"UMOV", ""}, {"R2UR", "OR"}, {"S2R", ""}, {"S2UR", ""}, {"CS2R", ""},
    {"LDC", "64"}, {"ULDC", "64"}, {"FLO", "U32 S32 SH"}, {"UFLO", "U32 S32 SH"}, {"POPC", ""}, {"UPOPC", ""},
    {"BREV", ""}, {"UBREV", ""}, {"IABS", ""}, {"BMSK", ""}, {"UBMSK", ""}, {"SGXT", "U32"}, {"USGXT", "U32"},
    {"PRMT", ""}, {"UPRMT", ""}, {"R2P", ""}, {"P2R", ""},
    /* floating point (sass_ops_float.c) */
    {"FFMA", "FTZ SAT " ROUND}, {"FMUL", "FTZ SAT " ROUND}, {"FADD", "FTZ SAT " ROUND},
    {"FSETP", CMP "AND OR XOR FTZ"}, {"DSETP", CMP "AND OR XOR"}, {"FMNMX", "FTZ"}, {"FSEL", ""}, {"FCHK", "DIVIDE"},
    {"FRND", "F64 FTZ FLOOR CEIL TRUNC"}, {"MUFU", "RCP RSQ EX2 LG2 SIN COS SQRT TANH RCP64H RSQ64H FTZ"},
    {"DFMA", ROUND}, {"DMUL", ROUND}, {"DADD", ROUND}, {"DMNMX", ""},
    {"F2I", "FTZ NTZ TRUNC FLOOR CEIL U32 S32 U64 S64 F64 F16"}, {"I2F", "F32 F64 F16 BF16 U32 S32 U64 S64 U16 S16 U8 S8 " ROUND},
    {"I2FP", "F32 U32 S32 " ROUND}, {"F2F", "F32 F64 F16 FTZ " ROUND}, {"F2FP", "F16 BF16 F32 PACK_AB"},
    {"HFMA2", "MMA FTZ SAT F32"}, {"HADD2", "FTZ SAT F32"}, {"HMUL2", "FTZ SAT F32"}, {"HMNMX2", ""},
    /* memory (sass_ops_mem.c) */
    {"LDG", MEMHINTS "U8 S8 U16 S16 32 64 128"}, {"STG", MEMHINTS "U8 S8 U16 S16 32 64 128"},
    {"LDS", "U8 S8 U16 S16 32 64 128 U"}, {"STS", "U8 S8 U16 S16 32 64 128"},
    {"LDL", MEMHINTS "U8 S8 U16 S16 32 64 128"}, {"STL", MEMHINTS "U8 S8 U16 S16 32 64 128"},
    {"LD", MEMHINTS "U8 S8 U16 S16 32 64 128"}, {"ST", MEMHINTS "U8 S8 U16 S16 32 64 128"},
    {"ATOMG", MEMHINTS "ADD MIN MAX INC DEC AND OR XOR EXCH CAS 32 64 S32 U32 S64 U64 F32 F64 FTZ RN"},
    {"ATOM", MEMHINTS "ADD MIN MAX INC DEC AND OR XOR EXCH CAS 32 64 S32 U32 S64 U64 F32 F64 FTZ RN"},
    {"ATOMS", "ADD MIN MAX INC DEC AND OR XOR EXCH CAS CAST SPIN POPC 32 64 S32 U32 S64 U64"},
    {"REDG", MEMHINTS "ADD MIN MAX INC DEC AND OR XOR 32 64 S32 U32 S64 U64 F32 F64 FTZ RN"},
    {"RED", MEMHINTS "ADD MIN MAX INC DEC AND OR XOR 32 64 S32 U32 S64 U64 F32 F64 FTZ RN"},
    /* warp, control, ordering (sass_ops_misc.c) */
    {"SHFL", "IDX UP DOWN BFLY"}, {"VOTE", "ALL ANY EQ"}, {"VOTEU", "ALL ANY EQ"}, {"MATCH", "ANY ALL U32 U64"},
    {"REDUX", "SUM MIN MAX AND OR XOR S32 U32"}, {"LEPC", ""}, {"BRA", "DIV CONV U"}, {"CALL", "ABS REL NOINC"},
    {"RET", "REL ABS NODEC"}, {"EXIT", ""}, {"BAR", "SYNC DEFER_BLOCKING"}, {"BSSY", "RECONVERGENT"},
    {"BSYNC", "RECONVERGENT"}, {"WARPSYNC", "ALL COLLECTIVE EXCLUSIVE"}, {"ENDCOLLECTIVE", ""}, {"NOP", ""},
    {"YIELD", ""}, {"NANOSLEEP", "SYNCS"}, {"DEPBAR", "LE"}, {"MEMBAR", "SC ALL CTA GPU SYS VC"}, {"ERRBAR", ""},
    {"CCTL", "IVALL E U"}, {"CCTLL", "IVALL"}, {"FENCE", "VIEW ASYNC S"}, {"BPT", "TRAP"}, {"KILL", ""},
};

int sass_check_mods(const sprog *p, const sraw *ri, const char *base, char *err, size_t cap)
{
    const char *mods = NULL;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (!strcmp(allowed[i].op, base)) mods = allowed[i].mods;
    if (!mods) return 0;      /* not a known opcode: the decoder table says so */
    for (const char *s = strchr(ri->op, '.'); s; s = strchr(s + 1, '.')) {
        size_t n = strcspn(s + 1, ".");
        int ok = 0;
        for (const char *m = mods; *m && !ok;) {
            size_t k = strcspn(m, " ");
            ok = k == n && !strncmp(m, s + 1, n);
            m += k;
            while (*m == ' ') m++;
        }
        if (!ok)
            return sass_dec_fail(p, ri, err, cap, "the modifier .%.*s of %s is not supported by coalsim's interpreter",
                                 (int)n, s + 1, base);
    }
    return 0;
}
