/* Loops sampled inside a block, on the SASS interpreter (issue 30; the PTX
 * interpreter's are ptx_loop.c, and the two share loopjump.h).
 *
 * A grid-stride loop (reduce6: 8192 iterations a warp at 2^28 ints) costs
 * its block's whole run however few blocks a sample takes.  Once a warp has
 * run three iterations of a loop whose control flow and addresses follow
 * induction variables alike, it jumps: those registers move on by K
 * iterations at once, and the K iterations count as K more of the one it
 * ran last, instruction by instruction.  Then it runs on, and the last
 * iterations (where a branch goes otherwise) run as they would.
 *
 * SASS differs from PTX in what a loop carries: ptxas recomputes an address
 * from the induction variable inside the body (IMAD.WIDE.U32 R2, R9, 0x4,
 * R6), and a register may be an address at one instruction and a loaded
 * value at the next (LDG.E R3, [R2.64] overwrites the address's upper
 * half).  So what must move by a fixed step is what the body reads before
 * it writes it (its live-in slice registers), and what is checked is what
 * the hardware sees: each memory instruction's addresses, and each ISETP's
 * operands, iteration after iteration.
 *
 * The loop qualifies (once, per back edge) when
 *   - its body (the back edge's target to the back edge) is one straight
 *     run of data instructions, plain loads and stores (LDG, STG, LDS, STS,
 *     LDL, STL, LD, ST) and the back edge: no other branch, barrier, call,
 *     convergence barrier (BSSY, BSYNC), atomic, asynchronous copy or
 *     matrix instruction;
 *   - walking the body backwards, round the back edge until nothing
 *     changes, every instruction that writes a value which reaches an
 *     address, a guard or a branch's predicate (the slice) is a step:
 *     IADD3, IMAD, LEA, MOV, VIADD or SHF.L by a constant, IMAD.WIDE (a
 *     64-bit pair), or a half of a 64-bit step joined by a carry (IADD3 or
 *     LEA with a carry out; IADD3.X, IMAD.X, LEA.HI.X, SHF.L.U64.HI); every
 *     such predicate is one unguarded ISETP's (its result ANDed with PT, its
 *     second result unused), a 64-bit comparison's (ISETP.U32, then
 *     ISETP.EX on the same predicate and comparison), or a carry; no uniform
 *     register or predicate, and no load, writes it (what a load overwrites
 *     after an address used it, LDG.E R3, [R2.64], is not the slice's);
 *   - what the body's last writes leave for the next iteration of the slice
 *     registers it reads before it writes them are its induction variables:
 *     32 bits, an IMAD.WIDE pair, or a lower half (IADD3 with a carry out)
 *     and the upper half its carry goes to (the .X), as 64 bits;
 * and a warp jumps when its last three iterations
 *   - ran the same instructions with the same lanes;
 *   - moved each induction variable by the same amount twice (per lane),
 *     each memory instruction's addresses by the same whole number of
 *     128-byte lines, and each comparison's operands (64-bit ones joined)
 *     by the same amounts;
 *   - keep every comparison's result, its operands in their range and each
 *     32-bit variable from wrapping, for more than LOOP_MARGIN +
 *     LOOP_MIN_JUMP further iterations: it jumps that far less LOOP_MARGIN.
 * What the jump adds is what ptx_loop.c's adds: the instruction counts (per
 * instruction), the memory instructions' counts, the skipped requests' own
 * counts by access (the recorded iteration's, K times), the stored lines
 * of stores whose address moves, and the warp's time on the scoreboard,
 * moved on by the iterations' mean.  Registers outside the slice (sums)
 * are not kept: a sampled launch's results are not computed anyway. */
#include <stdlib.h>
#include <string.h>

#include "frontend/loopjump.h"
#include "sass.h"

#define LOOP_WARM 4          /* back edges before a warp may jump: three whole iterations recorded */
#define LOOP_MARGIN 2        /* iterations it runs before the first one where a branch goes otherwise */
#define LOOP_MIN_JUMP 8      /* a jump over fewer is not worth the bookkeeping */
#define LOOP_TRACE 2048      /* an iteration's instructions, at most */
#define LOOP_VARS 48         /* live-in slice registers the body writes, at most */
#define LOOP_MEMS 16         /* memory instructions an iteration runs, at most */
#define LOOP_SETPS 16        /* slice ISETPs an iteration runs, at most */
#define LOOP_LINE 128
#define LOOP_MOST ((int64_t)1 << 24)  /* iterations a jump skips at most (the next may skip more) */
#define LOADS_BITS 24                 /* scoreboard times: cycle << 24 | loads (sass_sched.c) */
#define LOADS_MASK ((1ull << LOADS_BITS) - 1)

/* The slice's ISETPs: a 32-bit comparison, the upper and the lower half of
 * a 64-bit one. */
enum { SETP_PLAIN = 1, SETP_EX, SETP_LOW };

typedef struct sloop_info {
    uint32_t head, tail;              /* the body: instructions head .. tail (the back edge) */
    uint32_t nv;
    uint16_t v[LOOP_VARS];            /* live-in slice registers the body writes: the lower half */
    uint16_t hi[LOOP_VARS];           /* and the upper half of a 64-bit one (NO_HI: none) */
    uint8_t *setp;                    /* by instruction from head: SETP_*, 0 for any other */
} sloop_info;

#define NO_HI 0xffffu

typedef struct sloop_ent {
    uint32_t pc, mask, m;
    uint64_t c[LOOP_COUNTS];          /* its requests' counts */
} sloop_ent;

/* What an iteration showed: its path's signature, each memory instruction's
 * addresses, each slice ISETP's operands. */
typedef struct sloop_iter {
    uint64_t sig;
    uint32_t n, nmem, nset;
    uint32_t mem_m[LOOP_MEMS];
    uint64_t addr[LOOP_MEMS][32];
    uint32_t set_pc[LOOP_SETPS], set_m[LOOP_SETPS];
    uint64_t a[LOOP_SETPS][32], b[LOOP_SETPS][32];   /* a 64-bit comparison's halves joined */
} sloop_iter;

typedef struct sloop {
    uint32_t tail, sp, mask;          /* which loop, at which depth of the SIMT stack, with which lanes */
    int valid;
    uint32_t iters;                   /* back edges in a row */
    uint32_t wait;                    /* back edges to let pass before trying again */
    unsigned fails;
    int bad;                          /* the iteration recorded left the body, or was too long */
    uint32_t cur;                     /* the iteration being recorded: rec[cur] */
    uint32_t ntr;
    sloop_ent tr[LOOP_TRACE];         /* the iteration being recorded, instruction by instruction */
    sloop_iter rec[3];
    uint32_t low_a[32], low_b[32];    /* the lower half of the 64-bit comparison the next ISETP.EX ends */
    uint64_t t[3];                    /* the warp's scoreboard time at each back edge */
    uint64_t snap[3][LOOP_VARS][32];  /* the live-in registers at each back edge */
} sloop;

#define NEVER ((sloop_info *)1)

/* The opcode of IN ("IMAD.WIDE.U32"), past its guard. */
static const char *opcode(const sinst *in)
{
    const char *s = in->text ? in->text : "";
    while (*s == ' ') s++;
    if (*s == '@') {
        while (*s && *s != ' ') s++;
        while (*s == ' ') s++;
    }
    return s;
}

static int is_op(const sinst *in, const char *const *names)
{
    const char *s = opcode(in);
    for (; *names; names++) {
        size_t n = strlen(*names);
        if (!strncmp(s, *names, n) && (s[n] == '.' || s[n] == ' ' || !s[n])) return 1;
    }
    return 0;
}

static int has_mod(const sinst *in, const char *mod)
{
    const char *s = opcode(in), *end = strchr(s, ' ');
    size_t n = strlen(mod);
    for (const char *d = strchr(s, '.'); d && (!end || d < end); d = strchr(d + 1, '.'))
        if (!strncmp(d + 1, mod, n) && (d[1 + n] == '.' || d[1 + n] == ' ' || !d[1 + n])) return 1;
    return 0;
}

#define HAS(s, v) ((v) < SASS_SB_SLOTS && ((s)[(v) / 64] >> ((v) % 64) & 1))

static int add_slot(uint64_t *s, unsigned v)
{
    if (v >= SASS_SB_SLOTS || HAS(s, v)) return 0;
    s[v / 64] |= 1ull << (v % 64);
    return 1;
}

/* A memory instruction's address operand, or NULL. */
static const sopnd *mem_operand(const sinst *in)
{
    for (unsigned k = 0; k < in->nops; k++)
        if (in->o[k].kind == SO_MEM) return &in->o[k];
    return NULL;
}

/* How IN may write slice registers: as a step of 32 bits (STEP), IMAD.WIDE's
 * pair (STEP_WIDE), the lower half of a 64-bit step with its carry out
 * (STEP_CARRY: IADD3 R11, P0, R11, R6, RZ; LEA R2, P0, R11, UR12, 0x2),
 * the upper half with the carry in (STEP_UPPER: IADD3.X, IMAD.X, LEA.HI.X), or not
 * at all (0). */
enum { STEP = 1, STEP_WIDE, STEP_CARRY, STEP_UPPER };

static int is_pred_op(const sinst *in, unsigned k)
{
    return k < in->nops && (in->o[k].kind == SO_P || in->o[k].kind == SO_UP);
}

static int affine(const sinst *in)
{
    static const char *const ops[] = {"IADD3", "IMAD", "LEA", "MOV", "VIADD", "SHF", NULL};
    if (in->kind != SK_OP || !is_op(in, ops)) return 0;
    int iadd3 = is_op(in, (const char *const[]){"IADD3", NULL}), lea = is_op(in, (const char *const[]){"LEA", NULL});
    if (is_pred_op(in, 2)) return 0;                               /* two carries out */
    if (is_pred_op(in, 1)) {
        /* a carry out: the lower half of a 64-bit step */
        return (iadd3 || lea) && !(in->flags & (SF_X | SF_HI)) ? STEP_CARRY : 0;
    }
    if (is_op(in, (const char *const[]){"SHF", NULL})) {
        /* SHF.L.U32 d, a, imm, RZ: a times a power of two; SHF.L.U64.HI d, lo, imm, hi: the upper half of a
         * 64-bit one */
        if (!has_mod(in, "L") || in->nops != 4 || in->o[2].kind != SO_IMM) return 0;
        if (has_mod(in, "HI")) return has_mod(in, "U64") ? STEP_UPPER : 0;
        return in->o[3].kind == SO_R && in->o[3].reg == SASS_RZ ? STEP : 0;
    }
    int imad = is_op(in, (const char *const[]){"IMAD", NULL});
    if (in->flags & (SF_X | SF_HI))
        return ((iadd3 || imad) && (in->flags & SF_X) && !has_mod(in, "HI") && !has_mod(in, "WIDE")) ||
                       (lea && (in->flags & SF_HI))
                   ? STEP_UPPER
                   : 0;
    if (imad) {
        if (has_mod(in, "HI")) return 0;
        return has_mod(in, "WIDE") ? STEP_WIDE : STEP;
    }
    return STEP;
}

/* IN is an ISETP the slice may hold: one result, ANDed with PT, no .EX. */
static int plain_isetp(const sinst *in)
{
    return in->kind == SK_OP && is_op(in, (const char *const[]){"ISETP", NULL}) && in->guard < 0 && in->sub2 == 0 &&
           in->sub3 == 0 && in->nops >= 5 && in->o[0].kind == SO_P && in->o[1].kind == SO_P && in->o[1].reg == SASS_PT &&
           in->o[4].kind == SO_P && in->o[4].reg == SASS_PT && !in->o[4].not_ && in->sub >= 1 && in->sub <= 6;
}

#define WORDS ((SASS_SB_SLOTS + 63) / 64)

/* Add IN's own uses that decide an address or a control decision (its
 * memory address, its guard where it is a memory instruction or a branch,
 * a branch's predicate) to D. */
static void add_uses(const sinst *in, uint64_t *d)
{
    if (in->kind != SK_MEM && in->kind != SK_BRA) return;
    if (in->guard >= 0 && in->guard % 8 != SASS_PT)
        add_slot(d, in->guard < 8 ? SASS_SB_P + (unsigned)in->guard : SASS_SB_UP + (unsigned)in->guard - 8);
    if (in->kind == SK_BRA) {
        if (in->sub == 1 && in->nops && in->o[0].kind == SO_P && in->o[0].reg != SASS_PT) add_slot(d, SASS_SB_P + in->o[0].reg);
        return;
    }
    const sopnd *o = mem_operand(in);
    if (!o) return;
    if (o->reg != SASS_RZ) {
        add_slot(d, o->reg);
        if (o->wide) add_slot(d, o->reg + 1u);
    }
    if (o->ureg != SASS_URZ) {
        add_slot(d, SASS_SB_UR + o->ureg);
        if (o->wide && o->reg == SASS_RZ) add_slot(d, SASS_SB_UR + o->ureg + 1u);
    }
}

/* IN is the upper half of a 64-bit comparison: ISETP.cmp.AND.EX P, PT, a_hi,
 * b_hi, PT, P, its lower half's result P (written in place). */
static int ex_isetp(const sinst *in)
{
    return in->kind == SK_OP && is_op(in, (const char *const[]){"ISETP", NULL}) && in->guard < 0 && in->sub2 == 0 &&
           in->sub3 == 1 && in->nops >= 6 && in->o[0].kind == SO_P && in->o[0].reg != SASS_PT && in->o[1].kind == SO_P &&
           in->o[1].reg == SASS_PT && in->o[4].kind == SO_P && in->o[4].reg == SASS_PT && !in->o[4].not_ &&
           in->o[5].kind == SO_P && in->o[5].reg == in->o[0].reg && !in->o[5].not_ && in->sub >= 1 && in->sub <= 6;
}

/* Whether IN reads, or writes, scoreboard slot V. */
static int reads(const sinst *in, unsigned v)
{
    for (unsigned k = 0; k < in->sb_nsrc; k++)
        if (in->sb_src[k] == v) return 1;
    return 0;
}

static int writes(const sinst *in, unsigned v)
{
    for (unsigned k = 0; k < in->sb_ndst; k++)
        if (in->sb_dst[k] == v) return 1;
    return 0;
}

/* The last instruction of LI's body that writes register V (past the tail: none). */
static uint32_t last_def(const sprog *p, const sloop_info *li, unsigned v)
{
    for (uint32_t i = li->tail + 1; i-- > li->head;)
        if (writes(&p->code[i], v)) return i;
    return li->tail + 1;
}

/* The loop whose back edge is instruction TAIL, or NEVER.  Its body is one
 * straight run (branches inside it are not followed: such a loop is not
 * jumped).  Walking it backwards, round the back edge until nothing
 * changes, gives D: the registers whose values reach an address or a
 * control decision; an instruction that writes one of them is the slice's
 * and must be a step (or a plain ISETP); what D holds at the loop's head
 * and the body writes are its induction variables. */
static const sloop_info *build(sctx *x, uint32_t tail)
{
    static const char *const plain[] = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "LD", "ST", NULL};
    static const char *const apart[] = {"BSSY", "BSYNC", "WARPSYNC", "BAR", "MEMBAR", "ERRBAR", "CCTL", "HMMA", "IMMA",
                                        "DMMA", "HGMMA", "LDSM", "STSM", "MOVM", "UTMALDG", "UTMASTG", "SYNCS", "ELECT",
                                        "LDGSTS", "LDGDEPBAR", "DEPBAR", "S2R", "CS2R", "S2UR", "NANOSLEEP", NULL};
    const sprog *p = x->prog;
    const sinst *b = &p->code[tail];
    if (b->target > tail) return NEVER;
    sloop_info *li = calloc(1, sizeof *li + (tail - b->target + 1));
    if (!li) return NEVER;
    li->head = b->target, li->tail = tail;
    li->setp = (uint8_t *)(li + 1);
    for (uint32_t i = li->head; i <= tail; i++) {
        const sinst *in = &p->code[i];
        switch (in->kind) {
        case SK_OP:
            if (is_op(in, apart) || in->async || in->pipe == COALSIM_PIPE_TENSOR) goto never;
            break;
        case SK_MEM:
            if (!is_op(in, plain) || is_op(in, apart) || in->cs_space < 0 ||
                (in->cs_op != COALSIM_LD && in->cs_op != COALSIM_ST) ||
                (in->cs_space != COALSIM_GLOBAL && in->cs_space != COALSIM_SHARED && in->cs_space != COALSIM_LOCAL) ||
                !mem_operand(in))
                goto never;
            break;
        case SK_BRA:
            if (i != tail) goto never;
            break;
        case SK_NOP:
            if (in->sub || is_op(in, apart)) goto never;
            break;
        default: goto never;
        }
    }
    uint64_t d[WORDS] = {0}, head[WORDS] = {0}, written[WORDS] = {0};
    for (int pass = 0; pass < 8; pass++) {
        for (uint32_t i = tail + 1; i-- > li->head;) {
            const sinst *in = &p->code[i];
            int mine = 0;
            for (unsigned k = 0; k < in->sb_ndst; k++) mine |= HAS(d, in->sb_dst[k]);
            if (mine) {
                int w = affine(in);
                for (unsigned k = 0; k < in->sb_ndst; k++) {
                    unsigned r = in->sb_dst[k];
                    if (!HAS(d, r)) continue;
                    if (r >= SASS_SB_UR && r < SASS_SB_P) goto never;      /* a uniform register */
                    if (r >= SASS_SB_UP) goto never;
                    if (r >= SASS_SB_P) {
                        /* a predicate: a plain ISETP's, a 64-bit one's halves, a step's carry */
                        uint32_t at = i - li->head;
                        if (li->setp[at] == SETP_LOW && r == SASS_SB_P + in->o[0].reg) continue;
                        if (plain_isetp(in) && r == SASS_SB_P + in->o[0].reg) {
                            li->setp[at] = SETP_PLAIN;
                            continue;
                        }
                        if (ex_isetp(in) && r == SASS_SB_P + in->o[0].reg) {
                            /* its lower half: the nearest ISETP before it writing the same predicate,
                             * read by nothing between them, the same comparison, unsigned */
                            uint32_t j = i;
                            while (j-- > li->head && !writes(&p->code[j], r))
                                if (reads(&p->code[j], r)) goto never;
                            if (j < li->head || j >= i || !plain_isetp(&p->code[j]) || p->code[j].sub != in->sub ||
                                (p->code[j].flags & SF_SIGNED))
                                goto never;
                            li->setp[at] = SETP_EX;
                            li->setp[j - li->head] = SETP_LOW;
                            continue;
                        }
                        if (w == STEP_CARRY && r == SASS_SB_P + in->o[1].reg) continue;
                        goto never;
                    }
                    if (!w || in->kind != SK_OP) goto never;                 /* a loaded value, or not a step */
                    add_slot(written, r);
                }
                if (in->guard < 0)
                    for (unsigned k = 0; k < in->sb_ndst; k++) d[in->sb_dst[k] / 64] &= ~(1ull << (in->sb_dst[k] % 64));
                for (unsigned k = 0; k < in->sb_nsrc; k++) add_slot(d, in->sb_src[k]);
            }
            add_uses(in, d);
        }
        if (!memcmp(d, head, sizeof d)) break;
        memcpy(head, d, sizeof d);
        if (pass == 7) goto never;
    }
    /* the induction variables: what the body's last write of each leaves
     * for the next iteration: 32 bits, or 64: IMAD.WIDE's pair, or a lower
     * half whose carry goes to the upper half's .X, both coming in */
    uint8_t taken[SASS_SB_UR + 1] = {0};
    for (unsigned pass = 0, v = 0; pass < 2; v = v + 1 < SASS_SB_UR ? v + 1 : (pass++, 0)) {
        if (!HAS(written, v) || !HAS(head, v) || taken[v]) continue;
        uint32_t i = last_def(p, li, v);
        int k = i <= tail ? affine(&p->code[i]) : 0;
        if (pass == 0 && k != STEP_CARRY) continue;
        if (!k || (k == STEP_CARRY && p->code[i].guard >= 0) || li->nv == LOOP_VARS) goto never;
        unsigned hi = NO_HI;
        if (k == STEP_CARRY) {
            /* its carry's .X, further on, the upper half's last write */
            unsigned c = SASS_SB_P + p->code[i].o[1].reg;
            uint32_t j = i + 1;
            while (j <= tail && !reads(&p->code[j], c)) j++;
            if (j > tail || affine(&p->code[j]) != STEP_UPPER || p->code[j].o[0].kind != SO_R || p->code[j].guard >= 0)
                goto never;
            hi = p->code[j].o[0].reg;
            if (hi >= SASS_SB_UR || !HAS(head, hi) || last_def(p, li, hi) != j) goto never;
        } else if (k == STEP_WIDE && p->code[i].o[0].reg == v && HAS(head, v + 1) && last_def(p, li, v + 1) == i) {
            hi = v + 1;                                  /* IMAD.WIDE's pair */
        } else if (k == STEP_UPPER || (k == STEP_WIDE && p->code[i].o[0].reg != v)) {
            goto never;                                  /* an upper half alone carries */
        }
        taken[v] = 1;
        if (hi != NO_HI) taken[hi] = 1;
        li->hi[li->nv] = (uint16_t)hi;
        li->v[li->nv++] = (uint16_t)v;
    }
    return li;
never:
    free(li);
    return NEVER;
}

static const sloop_info *info_of(sctx *x, uint32_t pc)
{
    if (pc >= x->prog->ncode) return NULL;
    if (!x->loop_info[pc]) x->loop_info[pc] = (sloop_info *)build(x, pc);
    return x->loop_info[pc] == NEVER ? NULL : x->loop_info[pc];
}

/* ---- the arithmetic of a jump ---- */

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Variable J of LI on lane L now. */
static uint64_t var_value(const swarp *w, const sloop_info *li, uint32_t j, int l)
{
    uint64_t v = w->r[li->v[j]][l];
    if (li->hi[j] != NO_HI) v |= (uint64_t)w->r[li->hi[j]][l] << 32;
    return v;
}

/* The ISETP comparison SUB (sass_ops_int.c's C_*) as loop_flips takes it,
 * or -1 (always true or false: it never changes). */
static int cmp_of(unsigned sub)
{
    switch (sub) {
    case 1: return LOOP_LT;
    case 2: return LOOP_EQ;
    case 3: return LOOP_LE;
    case 4: return LOOP_GT;
    case 5: return LOOP_NE;
    case 6: return LOOP_GE;
    default: return -1;
    }
}

/* How many iterations warp W may jump now (0: none), its variables' steps
 * into D and its memory instructions' into MD. */
static int64_t plan(const sctx *x, const sloop *lp, const sloop_info *li, uint64_t (*d)[32], int64_t (*md)[32])
{
    unsigned n = lp->iters;
    unsigned a = (n - 2) % 3, b = (n - 1) % 3, c = n % 3;
    const sloop_iter *A = &lp->rec[a], *B = &lp->rec[b], *C = &lp->rec[c];
    if (A->sig != B->sig || B->sig != C->sig || A->n != C->n || A->n != lp->ntr || A->nmem != C->nmem ||
        B->nmem != C->nmem || A->nset != C->nset || B->nset != C->nset)
        return 0;
    uint32_t mask = lp->mask;
    int64_t t = LOOP_FAR;
    /* the live-in variables: the same step twice, and in range that long */
    for (uint32_t j = 0; j < li->nv; j++) {
        unsigned bits = li->hi[j] != NO_HI ? 64 : 32;
        uint64_t mk = loop_mask_of(bits);
        for (uint32_t mm = mask; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t d1 = (lp->snap[b][j][l] - lp->snap[a][j][l]) & mk, d2 = (lp->snap[c][j][l] - lp->snap[b][j][l]) & mk;
            if (d1 != d2) return 0;
            d[j][l] = d2;
            if (bits == 32) {
                /* a 32-bit variable that wraps (as unsigned or as signed) stops being a step of an address */
                __int128 dv = loop_value_of(d2, 32, 1);
                t = min64(t, loop_flips(LOOP_GE, 32, 0, loop_value_of(lp->snap[c][j][l], 32, 0), dv, 0, 0));
                t = min64(t, loop_flips(LOOP_GE, 32, 1, loop_value_of(lp->snap[c][j][l], 32, 1), dv, -((__int128)1 << 31), 0));
            }
        }
    }
    /* the addresses: the same whole number of lines twice */
    for (uint32_t e = 0; e < C->nmem; e++) {
        if (A->mem_m[e] != C->mem_m[e] || B->mem_m[e] != C->mem_m[e]) return 0;
        for (uint32_t mm = C->mem_m[e]; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            int64_t d1 = (int64_t)(B->addr[e][l] - A->addr[e][l]), d2 = (int64_t)(C->addr[e][l] - B->addr[e][l]);
            if (d1 != d2 || d2 % LOOP_LINE) return 0;
            md[e][l] = d2;
        }
    }
    /* the ISETPs: how long each keeps its result */
    for (uint32_t e = 0; e < C->nset; e++) {
        if (A->set_pc[e] != C->set_pc[e] || B->set_pc[e] != C->set_pc[e] || A->set_m[e] != C->set_m[e]) return 0;
        const sinst *in = &x->prog->code[C->set_pc[e]];
        int cmp = cmp_of(in->sub), sgn = (in->flags & SF_SIGNED) != 0;
        unsigned bits = li->setp[C->set_pc[e] - li->head] == SETP_EX ? 64 : 32;
        uint64_t mk = loop_mask_of(bits);
        if (cmp < 0) continue;
        for (uint32_t mm = C->set_m[e]; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t da1 = (B->a[e][l] - A->a[e][l]) & mk, da2 = (C->a[e][l] - B->a[e][l]) & mk;
            uint64_t db1 = (B->b[e][l] - A->b[e][l]) & mk, db2 = (C->b[e][l] - B->b[e][l]) & mk;
            if (da1 != da2 || db1 != db2) return 0;
            t = min64(t, loop_flips(cmp, bits, sgn, loop_value_of(C->a[e][l], bits, sgn), loop_value_of(da2, bits, 1),
                                    loop_value_of(C->b[e][l], bits, sgn), loop_value_of(db2, bits, 1)));
        }
    }
    if (t >= LOOP_FAR || t <= LOOP_MARGIN + LOOP_MIN_JUMP) return 0;    /* no exit in sight: run it */
    /* a jump at a time keeps the scoreboard's cycles within their 40 bits */
    return t - LOOP_MARGIN < LOOP_MOST ? t - LOOP_MARGIN : LOOP_MOST;
}

/* Move warp W on by K iterations of the last one. */
static void jump(sctx *x, swarp *w, sloop *lp, const sloop_info *li, int64_t k, uint64_t (*d)[32], int64_t (*md)[32])
{
    const sprog *p = x->prog;
    uint64_t uk = (uint64_t)k;
    for (uint32_t j = 0; j < li->nv; j++)
        for (uint32_t mm = lp->mask; mm; mm &= mm - 1) {
            int l = __builtin_ctz(mm);
            uint64_t v = var_value(w, li, j, l) + uk * d[j][l];
            w->r[li->v[j]][l] = (uint32_t)v;
            if (li->hi[j] != NO_HI) w->r[li->hi[j]][l] = (uint32_t)(v >> 32);
        }
    /* the counts of the iterations skipped: the last one's, K times */
    const sloop_iter *C = &lp->rec[lp->iters % 3];
    uint32_t e_mem = 0;
    for (uint32_t e = 0; e < lp->ntr; e++) {
        const sloop_ent *t = &lp->tr[e];
        const sinst *in = &p->code[t->pc];
        unsigned lanes = (unsigned)__builtin_popcount(t->mask);
        x->icount[2 * t->pc] += uk;
        x->icount[2 * t->pc + 1] += uk * lanes;
        x->exec.inst_executed += uk;
        x->exec.thread_inst_executed += uk * lanes;
        if (x->sb_on) {
            w->sb_issued += uk;
            if (in->pipe < COALSIM_PIPES) w->sb_pipe[in->pipe] += uk;
        }
        if (in->kind != SK_MEM) continue;
        uint32_t me = e_mem++;
        if (in->cs_space < 0) continue;
        x->exec.inst_mem[in->cs_space][in->cs_op] += uk;
        if (!t->m) x->exec.mem_inactive += uk;
        uint64_t *sk = &x->loop_skip[LOOP_COUNTS * (size_t)t->pc];
        for (int c = 0; c < LOOP_WRITTEN; c++) sk[c] += uk * t->c[c];
        if (in->cs_op == COALSIM_ST && me < C->nmem) {
            int moves = 0;
            for (uint32_t mm = C->mem_m[me]; mm && !moves; mm &= mm - 1) moves = md[me][__builtin_ctz(mm)] != 0;
            if (moves) sk[LOOP_WRITTEN] += uk * t->c[LOOP_SECTORS];
        }
        /* as a sample's windows count them (grid.c's tally) */
        x->loop_fig[0] += (double)k * (double)t->c[LOOP_REQUESTS];
        if (coalsim_space_has_sectors((coalsim_space)in->cs_space)) x->loop_fig[1] += (double)k * (double)t->c[LOOP_SECTORS];
        else if (in->cs_space == COALSIM_SHARED) x->loop_fig[2] += (double)k * (double)t->c[LOOP_WAVEFRONTS];
    }
    w->clock += uk * lp->ntr;
    x->loop_jumps++;
    x->loop_iters += uk;
    x->loop_insts += uk * lp->ntr;
    if (!x->sb_on) return;
    /* the warp's time: on by the iterations' mean (cycles and loads on the path apart) */
    unsigned a = (lp->iters - 2) % 3, c = lp->iters % 3;
    if (lp->t[c] < lp->t[a]) return;
    uint64_t cyc = ((lp->t[c] >> LOADS_BITS) - (lp->t[a] >> LOADS_BITS)) / 2;
    uint64_t loads = ((lp->t[c] & LOADS_MASK) - (lp->t[a] & LOADS_MASK)) / 2;
    uint64_t by = (uk * cyc << LOADS_BITS) + uk * loads;
    w->sb_t += by;
    for (unsigned i = 0; i < SASS_SB_SLOTS; i++) w->sb_ready[i] += by;
}

/* ---- the warp's side ---- */

int sass_loop_backedge(sctx *x, swarp *w, uint32_t pc)
{
    const sloop_info *li = info_of(x, pc);
    if (!li) return 0;
    sloop *lp = w->loop;
    if (!lp && !(lp = w->loop = calloc(1, sizeof *lp))) return sass_fail(x, &x->prog->code[pc], "out of memory");
    uint32_t mask = w->stack[w->sp - 1].mask;
    if (!lp->valid || lp->tail != pc || lp->sp != w->sp || lp->mask != mask) {
        lp->valid = 1, lp->tail = pc, lp->sp = w->sp, lp->mask = mask;
        lp->iters = lp->wait = lp->fails = 0;
    } else if (lp->bad || (lp->iters && !w->loop_rec)) {
        lp->iters = 0;
    }
    w->loop_rec = 0;
    if (lp->wait) {
        lp->wait--;
        lp->iters = 0;
        return 0;
    }
    lp->iters++;
    unsigned s = lp->iters % 3;
    for (uint32_t j = 0; j < li->nv; j++)
        for (int l = 0; l < 32; l++) lp->snap[s][j][l] = var_value(w, li, j, l);
    lp->t[s] = w->sb_t;
    if (lp->iters >= LOOP_WARM) {
        uint64_t d[LOOP_VARS][32];
        int64_t md[LOOP_MEMS][32];
        int64_t k = plan(x, lp, li, d, md);
        if (k > 0) {
            jump(x, w, lp, li, k, d, md);
            lp->iters = 0;
            return 0;
        }
        /* not yet (or not here): try again after a while, less often each time */
        lp->wait = loop_back_off(&lp->fails);
        lp->iters = 0;
        return 0;
    }
    /* record the next iteration */
    w->loop_rec = 1, lp->bad = 0, lp->ntr = 0;
    lp->cur = (lp->iters + 1) % 3;
    sloop_iter *it = &lp->rec[lp->cur];
    it->sig = 0x9E3779B97F4A7C15ull, it->n = it->nmem = it->nset = 0;
    return 0;
}

void sass_loop_note_slow(sctx *x, swarp *w, uint32_t pc, uint32_t mask, uint32_t m)
{
    sloop *lp = w->loop;
    const sloop_info *li = pc < x->prog->ncode ? x->loop_info[lp->tail] : NULL;
    if (!li || li == NEVER || pc < li->head || pc > li->tail || lp->ntr == LOOP_TRACE) {
        lp->bad = 1;
        w->loop_rec = 0;
        return;
    }
    sloop_iter *it = &lp->rec[lp->cur];
    lp->tr[lp->ntr++] = (sloop_ent){.pc = pc, .mask = mask, .m = m};
    it->n++;
    it->sig = (it->sig ^ ((uint64_t)pc << 32 | m)) * 0x100000001B3ull ^ mask;
    const sinst *in = &x->prog->code[pc];
    if (in->kind == SK_MEM) {
        if (it->nmem == LOOP_MEMS) {
            lp->bad = 1;
            w->loop_rec = 0;
            return;
        }
        const sopnd *o = mem_operand(in);
        it->mem_m[it->nmem] = m;
        for (uint32_t mm = m; o && mm; mm &= mm - 1) it->addr[it->nmem][__builtin_ctz(mm)] = sass_lane_addr(w, o, __builtin_ctz(mm));
        it->nmem++;
    } else if (li->setp[pc - li->head] == SETP_LOW) {
        uint32_t ba[32], bb[32];
        memcpy(lp->low_a, sass_src(x, w, &in->o[2], ba), sizeof lp->low_a);
        memcpy(lp->low_b, sass_src(x, w, &in->o[3], bb), sizeof lp->low_b);
    } else if (li->setp[pc - li->head]) {
        if (it->nset == LOOP_SETPS) {
            lp->bad = 1;
            w->loop_rec = 0;
            return;
        }
        uint32_t ba[32], bb[32];
        const uint32_t *A = sass_src(x, w, &in->o[2], ba), *B = sass_src(x, w, &in->o[3], bb);
        int ex = li->setp[pc - li->head] == SETP_EX;
        it->set_pc[it->nset] = pc, it->set_m[it->nset] = m;
        for (int l = 0; l < 32; l++) {
            it->a[it->nset][l] = ex ? (uint64_t)A[l] << 32 | lp->low_a[l] : A[l];
            it->b[it->nset][l] = ex ? (uint64_t)B[l] << 32 | lp->low_b[l] : B[l];
        }
        it->nset++;
    }
}

void sass_loop_request(sctx *x, const swarp *w, const coalsim_request *r)
{
    sloop *lp = w->loop;
    if (!lp->ntr || !x->arch) return;
    coalsim_result res;              /* what the iterations a jump skips will count */
    coalsim_model(x->arch, r, &res);
    loop_count_request(lp->tr[lp->ntr - 1].c, &res);
}

void sass_loop_block(swarp *w)
{
    w->loop_rec = 0;
    if (!w->loop) return;
    w->loop->valid = 0;
    w->loop->iters = 0;
}

void sass_loop_free(sctx *x)
{
    for (size_t i = 0; x->loop_info && x->prog && i <= x->prog->ncode; i++)
        if (x->loop_info[i] != NEVER) free(x->loop_info[i]);
    free(x->loop_info);
    free(x->loop_skip);
    x->loop_info = NULL, x->loop_skip = NULL;
    for (unsigned k = 0; k < x->nwarps && x->warps; k++) {
        free(x->warps[k].loop);
        x->warps[k].loop = NULL;
    }
    x->loop_on = 0;
}

int sass_loop_setup(sctx *x)
{
    x->loop_info = calloc(x->prog->ncode + 1, sizeof *x->loop_info);
    x->loop_skip = calloc(LOOP_COUNTS * ((size_t)x->prog->ncode + 1), sizeof *x->loop_skip);
    if (!x->loop_info || !x->loop_skip) return -1;
    x->loop_on = 1;
    return 0;
}
