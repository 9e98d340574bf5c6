/* What the time model needs of the PTX the interpreter executes
 * (coalsim_exec's time fields):
 *
 *   decode:  each instruction gets a class: the SASS it usually becomes
 *            (per pipe, in quarters of an instruction) and its latency
 *            class; and its scoreboard operands (register slots and
 *            predicates it reads and writes).
 *   execute: a scoreboard a warp: every register slot and predicate holds
 *            the cycle its value is ready; an instruction issues when its
 *            operands are ready, and its results are ready its latency
 *            later.  Within a basic block the instructions issue one a
 *            cycle in order but a stalled one does not hold back the ones
 *            after it that do not need its result: ptxas schedules a basic
 *            block (it moves a load above the use of an earlier load, as
 *            in reduce6's loop), not across blocks (reduce6<false>'s second
 *            load sits behind a branch and waits: 391 us against 207 on
 *            the H100).  A block starts when the one before has issued all
 *            of its instructions.  ptxas moves loads up freely but keeps
 *            the rest roughly in order (registers are few): an instruction
 *            other than a load (or its 64-bit address arithmetic) issues no earlier than the one PTX_WINDOW
 *            before it (integrateBodies' unrolled bodies do not overlap:
 *            65 cycles a body on the H100, about the chain of one).  Loads
 *            move up only so far: any instruction issues no earlier than
 *            every one PTX_HOIST or more before it (col_sum's 16 unrolled
 *            loads: ptxas puts 14 above the first FADD and 2 after it, so
 *            a batch takes two round trips, 418 us predicted against 388
 *            measured, 244 when all 16 moved up).  A load issues no earlier
 *            than an earlier store to the same space, which may have written
 *            what it reads (the CUDA samples' copy is LDG, STG, LDG, STG;
 *            reduceGmem's warp steps each load what the step before stored),
 *            unless it reads read-only data (ld.global.nc).  And ptxas
 *            takes what a block reads from earlier blocks as ready when the
 *            block starts: a block that uses a value an earlier block's load
 *            has not yet brought starts when it comes (exposed_uses).  A global
 *            or local load's latency is COALSIM_PATH_LOAD_CYCLES, and the
 *            loads on the path are counted apart (the time model puts the
 *            latency of the level that served them in).  Times are packed
 *            as cycle << 24 | loads, so the latest operand brings its load
 *            count with it in one comparison.
 *   a block: barriers wait for the block's last warp and for the busiest
 *            sub-partition (warp w issues on w % 4, one instruction a
 *            cycle); the block's path is its last warp's or its busiest
 *            sub-partition's, whichever is later.
 *
 * The SASS of each class comes from the listings of the outside suite and
 * of harness sm (gpu/results/h100/outside/sass/, gpu/results/h200/
 * sm_sass.txt): for example rem.u32 by a register is I2F, MUFU.RCP, F2I,
 * five IMADs and nine ALU instructions in reduce0; div.rn.f32 five FFMAs,
 * MUFU.RCP, FCHK, moves and a branch around the slow path. */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

#define LOADS_BITS 24
#define CYC(c) ((uint64_t)(c) << LOADS_BITS)
#define LOADS_MASK PTX_SB_LOADS_MASK
_Static_assert(PTX_SB_LOADS_MASK == (1ull << LOADS_BITS) - 1, "ptx.h's PTX_SB_LOADS_MASK is not LOADS_BITS wide");

/* Quarters of a SASS instruction a class puts on each pipe, and its latency
 * class (-1: none, ready at once; -2: a load, counted apart). */
typedef struct {
    const char *name;
    uint8_t q[COALSIM_PIPES];
    int8_t lat;
} sclass;

#define Q(fma, alu, heavy, fp64, xu, conv, lsu, cbu) {4 * (fma), 4 * (alu), 4 * (heavy), 4 * (fp64), 4 * (xu), 4 * (conv), 4 * (lsu), 4 * (cbu), 0}

enum {
    SC_FREE = 0, SC_PARAM, SC_MOV, SC_SREG, SC_INT, SC_INT64, SC_IMAD, SC_IMUL64, SC_IDIV, SC_IDIV_IMM, SC_IDIV64,
    SC_BITS, SC_CVT_INT, SC_CONV, SC_FP32, SC_FP32_ALU, SC_FP32_NEG, SC_FDIV, SC_MUFU, SC_MUFU2, SC_FP64, SC_FP64_ALU,
    SC_FP64_DIV, SC_HALF, SC_HALF_MUL, SC_HALF_ADD, SC_HALF1, SC_HALF1_MUL, SC_HALF1_ADD, SC_LD_GLOBAL, SC_LD_SHARED, SC_LD_CONST, SC_ST, SC_ATOM_GLOBAL, SC_ATOM_SHARED, SC_SHFL,
    SC_VOTE, SC_BRANCH, SC_BAR, SC_CONTROL, SC_FENCE, SC_LD_JOINED,
    SC_MMA, SC_MMA_1688, SC_DMMA, SC_LDSM, SC_LDGSTS, SC_DEPBAR, SC_MOVM, SC_WMMA_MMA, SC_WMMA_TF32, SC_WMMA_LD_G,
    SC_WMMA_LD_S, SC_WMMA_ST, SC_GMMA, SC_GMMA_SYNC, SC_COUNT
};

_Static_assert(SC_COUNT <= PTX_SCLASSES, "ptx.h's PTX_SCLASSES is too small");

static const sclass classes[SC_COUNT] = {
    /*                          fma   alu  heavy  fp64  xu   conv  lsu  cbu */
    [SC_FREE] = {"free", Q(0, 0, 0, 0, 0, 0, 0, 0), -1},                 /* cvta, nops: no SASS */
    [SC_PARAM] = {"param", {0, 1, 0, 0, 0, 0, 0, 0, 0}, -1},             /* ld.param: a constant-bank operand, now and then a ULDC */
    [SC_MOV] = {"mov", {0, 1, 0, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_ALU},    /* most moves vanish in register allocation */
    [SC_SREG] = {"sreg", Q(0, 1, 0, 0, 0, 0, 0, 0), COALSIM_LAT_ALU},    /* S2R of %tid, %ctaid */
    [SC_INT] = {"int", Q(0, 1, 0, 0, 0, 0, 0, 0), COALSIM_LAT_ALU},
    [SC_INT64] = {"int64", Q(0, 2, 0, 0, 0, 0, 0, 0), COALSIM_LAT_ALU},
    [SC_IMAD] = {"imad", Q(0, 0, 1, 0, 0, 0, 0, 0), COALSIM_LAT_IMAD},
    [SC_IMUL64] = {"imul64", Q(0, 0, 3, 0, 0, 0, 0, 0), COALSIM_LAT_IMAD},
    [SC_IDIV] = {"idiv", Q(0, 9, 5, 0, 1, 2, 0, 0), COALSIM_LAT_IDIV},
    [SC_IDIV_IMM] = {"idiv_imm", Q(0, 2, 1, 0, 0, 0, 0, 0), COALSIM_LAT_IMAD},
    [SC_IDIV64] = {"idiv64", Q(0, 40, 20, 0, 1, 2, 0, 4), COALSIM_LAT_IDIV},
    [SC_BITS] = {"bits", Q(0, 0, 0, 0, 1, 0, 0, 0), COALSIM_LAT_MUFU},  /* POPC, FLO, BREV */
    [SC_CVT_INT] = {"cvt_int", {0, 2, 0, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_ALU},   /* widening is free, narrowing a PRMT or LOP */
    [SC_CONV] = {"conv", Q(0, 0, 0, 0, 0, 1, 0, 0), COALSIM_LAT_CONV},
    [SC_FP32] = {"fp32", Q(1, 0, 0, 0, 0, 0, 0, 0), COALSIM_LAT_FMA},
    [SC_FP32_ALU] = {"fp32_alu", Q(0, 1, 0, 0, 0, 0, 0, 0), COALSIM_LAT_ALU},   /* FMNMX, FSETP, FSEL */
    [SC_FP32_NEG] = {"fp32_neg", {2, 0, 0, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_FMA}, /* neg, abs: often an operand modifier */
    [SC_FDIV] = {"fdiv", Q(5, 6, 0, 0, 1, 0, 0, 2), COALSIM_LAT_FDIV},
    [SC_MUFU] = {"mufu", Q(0, 0, 0, 0, 1, 0, 0, 0), COALSIM_LAT_MUFU},
    [SC_MUFU2] = {"mufu2", Q(1, 0, 0, 0, 1, 0, 0, 0), COALSIM_LAT_MUFU},        /* sin, cos, lg2 and ex2 without ftz: an FMUL too */
    [SC_FP64] = {"fp64", Q(0, 0, 0, 1, 0, 0, 0, 0), COALSIM_LAT_FP64},
    [SC_FP64_ALU] = {"fp64_alu", Q(0, 0, 0, 1, 0, 0, 0, 0), COALSIM_LAT_FP64},  /* DSETP, DMNMX */
    [SC_FP64_DIV] = {"fp64_div", Q(0, 6, 0, 8, 1, 0, 0, 2), COALSIM_LAT_FDIV},
    /* HFMA2, HADD2, HMUL2 (and their scalar forms): the fmaheavy half of the
     * FMA pipe, at IMAD's rate (gpu/probes/half_pipe.cu: ncu counts each
     * HFMA2 once in fmaheavy, a stream of them reaches FFMA's rate only where
     * ptxas sends every other one through the tensor pipe as HFMA2.MMA, which
     * it did not in the public CUDA-core HGEMMs) */
    [SC_HALF] = {"half", Q(0, 0, 1, 0, 0, 0, 0, 0), COALSIM_LAT_HALF},
    /* a mul (add, sub) without a rounding modifier, which ptxas may contract
     * into an HFMA2 with the add that reads it (ptx_sched_fix makes such a
     * mul free): LeetCUDA's hgemm_t_8x8_sliced_k_f16x4 has 512 mul.f16 and
     * 512 add.f16 a k tile, 256 HFMA2 */
    [SC_HALF_MUL] = {"half_mul", Q(0, 0, 1, 0, 0, 0, 0, 0), COALSIM_LAT_HALF},
    [SC_HALF_ADD] = {"half_add", Q(0, 0, 1, 0, 0, 0, 0, 0), COALSIM_LAT_HALF},
    /* a scalar f16/bf16 add, mul or fma: ptxas pairs two into one HFMA2 (LeetCUDA's
     * hgemm_t_8x8 kernels: 512 fma.rn.f16 a k tile, 256 HFMA2); two issue as one */
    [SC_HALF1] = {"half1", {0, 0, 2, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_HALF},
    [SC_HALF1_MUL] = {"half1_mul", {0, 0, 2, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_HALF},
    [SC_HALF1_ADD] = {"half1_add", {0, 0, 2, 0, 0, 0, 0, 0, 0}, COALSIM_LAT_HALF},
    [SC_LD_GLOBAL] = {"ld_global", Q(0, 0, 0, 0, 0, 0, 1, 0), -2},            /* global, local and generic loads */
    [SC_LD_SHARED] = {"ld_shared", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SMEM},
    [SC_LD_CONST] = {"ld_const", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SMEM},
    [SC_ST] = {"st", Q(0, 0, 0, 0, 0, 0, 1, 0), -1},
    [SC_ATOM_GLOBAL] = {"atom_global", Q(0, 0, 0, 0, 0, 0, 1, 0), -2},
    [SC_ATOM_SHARED] = {"atom_shared", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SMEM},
    [SC_SHFL] = {"shfl", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SHFL},
    [SC_VOTE] = {"vote", Q(0, 1, 0, 0, 0, 0, 0, 0), COALSIM_LAT_ALU},
    [SC_BRANCH] = {"branch", Q(0, 0, 0, 0, 0, 0, 0, 1), -1},
    [SC_BAR] = {"bar", Q(0, 0, 0, 0, 0, 0, 0, 1), -1},
    [SC_CONTROL] = {"control", Q(0, 0, 0, 0, 0, 0, 0, 1), -1},            /* call, ret, exit */
    [SC_FENCE] = {"fence", Q(0, 0, 0, 0, 0, 0, 1, 0), -1},
    [SC_LD_JOINED] = {"ld_joined", Q(0, 0, 0, 0, 0, 0, 0, 0), COALSIM_LAT_SMEM},   /* part of its leader's LDS.128 */
    /* the tensor pipe in quarters of an HMMA.16816, the profile's pipe_tensor
     * (gpu/probes/matrix.cu --rates on the H100, a SM a ns: HMMA.16816 1.175,
     * HMMA.1688 1.760 (2/3 of the time: 3 quarters), IMMA.16832 1.194,
     * HMMA.1688.TF32 1.183, DMMA.884 0.502 (2.34 times: 9 quarters)) */
    [SC_MMA] = {"mma", {0, 0, 0, 0, 0, 0, 0, 0, 4, 0}, COALSIM_LAT_MMA},
    /* wgmma.mma_async: an HGMMA, one HMMA on the class's count (its handler adds the rest of its
     * N/2 cycles); fence, commit_group, wait_group: WARPGROUP.ARRIVE, nothing, WARPGROUP.DEPBAR */
    [SC_GMMA] = {"gmma", {0, 0, 0, 0, 0, 0, 0, 0, 4, 0}, COALSIM_LAT_MMA},
    [SC_GMMA_SYNC] = {"gmma_sync", Q(0, 0, 0, 0, 0, 0, 0, 0), -1},
    [SC_MMA_1688] = {"mma_1688", {0, 0, 0, 0, 0, 0, 0, 0, 3, 0}, COALSIM_LAT_MMA},
    [SC_DMMA] = {"dmma", {0, 0, 0, 0, 0, 0, 0, 0, 9, 0}, COALSIM_LAT_MMA},
    [SC_LDSM] = {"ldsm", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SMEM},            /* LDSM: its wavefronts go as LDS.128's */
    [SC_LDGSTS] = {"ldgsts", Q(0, 0, 0, 0, 0, 0, 1, 0), -1},                      /* its copy arrives with its group */
    [SC_DEPBAR] = {"depbar", Q(0, 0, 0, 0, 0, 0, 0, 1), -1},                      /* LDGDEPBAR, DEPBAR.LE */
    [SC_MOVM] = {"movm", Q(0, 0, 0, 0, 0, 0, 1, 0), COALSIM_LAT_SHFL},            /* MOVM: a warp-wide exchange */
    /* wmma (ptx_ops_wmma.c): an mma is two HMMA.16816 (or IMMA), tf32's four
     * HMMA.1684 (taken as half an HMMA.1688 each: not measured); a fragment's
     * load or store four LSU instructions (an LDSM where it is one: SC_LDSM) */
    [SC_WMMA_MMA] = {"wmma_mma", {0, 0, 0, 0, 0, 0, 0, 0, 8, 0}, COALSIM_LAT_MMA},
    [SC_WMMA_TF32] = {"wmma_tf32", {0, 0, 0, 0, 0, 0, 0, 0, 8, 0}, COALSIM_LAT_MMA},
    [SC_WMMA_LD_G] = {"wmma_ld_global", Q(0, 0, 0, 0, 0, 0, 4, 0), -2},
    [SC_WMMA_LD_S] = {"wmma_ld_shared", Q(0, 0, 0, 0, 0, 0, 4, 0), COALSIM_LAT_SMEM},
    [SC_WMMA_ST] = {"wmma_st", Q(0, 0, 0, 0, 0, 0, 4, 0), -1},
};

static int is(const raw_inst *ri, const char *op) { return !strcmp(ri->opcode, op); }

/* The space modifier of a memory instruction, or SP_GENERIC. */
static pspace mem_space(const raw_inst *ri)
{
    static const char *const names[] = {"global", "shared", "local", "const", "param"};
    static const pspace sp[] = {SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM};
    for (unsigned k = 0; k < ri->nmods; k++)
        for (unsigned i = 0; i < 5; i++)
            if (!strncmp(ri->mods[k], names[i], strlen(names[i]))) return sp[i];
    return SP_GENERIC;
}

/* An operand that is an immediate (a division by a constant is a multiply). */
static int imm(const raw_inst *ri, unsigned k)
{
    return k < ri->nops && (ri->ops[k].kind == RO_IMM || ri->ops[k].kind == RO_FIMM || ri->ops[k].kind == RO_FLOAT);
}

/* Whether RI names its rounding (.rn, .rz, .rm, .rp): PTX lets the
 * compiler contract a mul and an add that do not into an fma. */
static int rounded(const raw_inst *ri)
{
    return ptx_has_mod(ri, "rn") || ptx_has_mod(ri, "rz") || ptx_has_mod(ri, "rm") || ptx_has_mod(ri, "rp");
}

static int sclass_of(const raw_inst *ri, const pinst *in)
{
    ptype t = ptx_mod_type(ri, 0);
    int wide = ptype_bytes(t) == 8, fp = ptype_float(t);
    int half = t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2, scalar_half = t == PT_F16 || t == PT_BF16;
    switch (in->kind) {
    case K_BRA: return SC_BRANCH;
    case K_BAR: return SC_BAR;
    case K_CALL: case K_RET: case K_EXIT: case K_TRAP: return SC_CONTROL;
    case K_NOP: return is(ri, "membar") || is(ri, "fence") ? SC_FENCE : SC_FREE;
    default: break;
    }
    if (is(ri, "ld") || is(ri, "ldu")) {
        pspace sp = mem_space(ri);
        if (sp == SP_PARAM) return SC_PARAM;
        if (sp == SP_SHARED) return SC_LD_SHARED;
        if (sp == SP_CONST) return SC_LD_CONST;
        return SC_LD_GLOBAL;
    }
    if (is(ri, "st")) return mem_space(ri) == SP_PARAM ? SC_PARAM : SC_ST;
    if (is(ri, "atom") || is(ri, "red")) {
        if (mem_space(ri) == SP_SHARED) return SC_ATOM_SHARED;
        return is(ri, "red") ? SC_ST : SC_ATOM_GLOBAL;
    }
    if (is(ri, "cvta") || is(ri, "isspacep")) return SC_FREE;
    if (is(ri, "wmma")) {
        int sh = ptx_has_mod(ri, "shared"), gl = ptx_has_mod(ri, "global"), ab = ptx_has_mod(ri, "a") || ptx_has_mod(ri, "b");
        if (ptx_has_mod(ri, "mma"))
            return ptx_has_mod(ri, "f64") ? SC_DMMA : ptx_has_mod(ri, "tf32") ? SC_WMMA_TF32 : SC_WMMA_MMA;
        if (ptx_has_mod(ri, "store")) return SC_WMMA_ST;
        if (ptx_has_mod(ri, "f64")) return sh || (!gl && ab) ? SC_LD_SHARED : SC_LD_GLOBAL;
        if (sh && ab && !ptx_has_mod(ri, "m16n16k8")) return SC_LDSM;
        /* a generic A or B: taken as shared (the CUDA samples' tiles), C as global */
        return sh || (!gl && ab) ? SC_WMMA_LD_S : SC_WMMA_LD_G;
    }
    if (is(ri, "ldmatrix")) return SC_LDSM;
    if (is(ri, "stmatrix")) return SC_ST;
    if (is(ri, "movmatrix")) return SC_MOVM;
    if (is(ri, "mma")) return ptx_has_mod(ri, "f64") ? SC_DMMA : ptx_has_mod(ri, "m16n8k8") && !ptx_has_mod(ri, "tf32") ? SC_MMA_1688 : SC_MMA;
    /* Hopper's asynchronous path: a bulk copy issues as a store, an
     * mbarrier operation as a shared atomic (SYNCS), a warpgroup MMA as an
     * HMMA that holds its sub-partition's tensor pipe N/2 cycles, its
     * wait_group as a DEPBAR (ptx_sched_gmma); the rest issue nothing of note */
    if (is(ri, "cp") && ptx_has_mod(ri, "bulk"))
        return ptx_has_mod(ri, "commit_group") || ptx_has_mod(ri, "wait_group") ? SC_FREE : SC_ST;
    if (is(ri, "cp") && ptx_has_mod(ri, "mbarrier")) return SC_ATOM_SHARED;
    if (is(ri, "mbarrier")) return SC_ATOM_SHARED;
    if (is(ri, "wgmma")) return ptx_has_mod(ri, "mma_async") ? SC_GMMA : SC_GMMA_SYNC;
    if (is(ri, "setmaxnreg")) return SC_FREE;
    if (is(ri, "cp") && ptx_has_mod(ri, "async"))
        return ptx_has_mod(ri, "commit_group") || ptx_has_mod(ri, "wait_group") || ptx_has_mod(ri, "wait_all") ? SC_DEPBAR : SC_LDGSTS;
    if (is(ri, "shfl") || is(ri, "match") || is(ri, "redux")) return SC_SHFL;
    if (is(ri, "vote") || is(ri, "activemask") || is(ri, "elect")) return SC_VOTE;
    if (is(ri, "mov")) {
        if (ri->nops > 1 && ri->ops[1].kind == RO_REG && ri->ops[1].name && ri->ops[1].name[0] == '%' &&
            (!strncmp(ri->ops[1].name, "%tid", 4) || !strncmp(ri->ops[1].name, "%ctaid", 6) ||
             !strncmp(ri->ops[1].name, "%ntid", 5) || !strncmp(ri->ops[1].name, "%nctaid", 7) ||
             !strncmp(ri->ops[1].name, "%laneid", 7) || !strncmp(ri->ops[1].name, "%warpid", 7) ||
             !strncmp(ri->ops[1].name, "%clock", 6) || !strncmp(ri->ops[1].name, "%smid", 5)))
            return SC_SREG;
        return SC_MOV;
    }
    if (is(ri, "cvt")) {
        ptype d = ptx_mod_type(ri, 0), s = ptx_mod_type(ri, 1);
        if (!ptype_float(d) && !ptype_float(s)) return SC_CVT_INT;
        return SC_CONV;
    }
    if (is(ri, "div") || is(ri, "rem")) {
        if (fp) {
            if (t == PT_F64) return SC_FP64_DIV;
            return ptx_has_mod(ri, "approx") ? SC_MUFU2 : SC_FDIV;
        }
        if (imm(ri, 2)) return SC_IDIV_IMM;
        return wide ? SC_IDIV64 : SC_IDIV;
    }
    if (is(ri, "sqrt") || is(ri, "rcp")) {
        if (t == PT_F64) return ptx_has_mod(ri, "approx") ? SC_MUFU : SC_FP64_DIV;
        return ptx_has_mod(ri, "approx") ? SC_MUFU : SC_FDIV;
    }
    if (is(ri, "rsqrt") || is(ri, "tanh")) return SC_MUFU;
    if (is(ri, "ex2") || is(ri, "lg2")) return ptx_has_mod(ri, "ftz") && !half ? SC_MUFU : SC_MUFU2;
    if (is(ri, "sin") || is(ri, "cos")) return SC_MUFU2;
    if (is(ri, "popc") || is(ri, "clz") || is(ri, "brev") || is(ri, "bfind")) return SC_BITS;
    if (is(ri, "mul") || is(ri, "mad") || is(ri, "mul24") || is(ri, "mad24") || is(ri, "madc") || is(ri, "fma")) {
        if (half && is(ri, "mul") && !rounded(ri)) return scalar_half ? SC_HALF1_MUL : SC_HALF_MUL;
        if (half) return scalar_half ? SC_HALF1 : SC_HALF;
        if (t == PT_F64) return SC_FP64;
        if (fp) return SC_FP32;
        if (wide && !ptx_has_mod(ri, "wide")) return SC_IMUL64;
        return SC_IMAD;
    }
    if (is(ri, "add") || is(ri, "sub") || is(ri, "addc") || is(ri, "subc")) {
        if (half && !rounded(ri)) return scalar_half ? SC_HALF1_ADD : SC_HALF_ADD;
        if (half) return scalar_half ? SC_HALF1 : SC_HALF;
        if (t == PT_F64) return SC_FP64;
        if (fp) return SC_FP32;
        return wide ? SC_INT64 : SC_INT;
    }
    if (is(ri, "neg") || is(ri, "abs")) {
        if (t == PT_F64) return SC_FP64;
        if (half) return SC_HALF;
        return fp ? SC_FP32_NEG : wide ? SC_INT64 : SC_INT;
    }
    if (is(ri, "min") || is(ri, "max") || is(ri, "setp") || is(ri, "set") || is(ri, "selp") || is(ri, "copysign") ||
        is(ri, "testp")) {
        ptype u = is(ri, "setp") || is(ri, "set") ? ptx_mod_type(ri, ptx_mod_type(ri, 1) != PT_NONE ? 1 : 0) : t;
        if (u == PT_F64) return SC_FP64_ALU;
        if (ptype_float(u)) return SC_FP32_ALU;
        return ptype_bytes(u) == 8 && !is(ri, "setp") ? SC_INT64 : SC_INT;
    }
    if (is(ri, "and") || is(ri, "or") || is(ri, "xor") || is(ri, "not") || is(ri, "shl") || is(ri, "shr") ||
        is(ri, "cnot"))
        return wide ? SC_INT64 : SC_INT;
    return SC_INT;                /* bfe, bfi, prmt, sad, and the rest: one ALU instruction */
}

/* Scoreboard index of register NAME (a slot) or predicate (tagged; ptx_sched_fix
 * turns it into nslots + index); -1 if NAME is no register. */
static int sb_index(pfunc *f, const char *name, uint32_t *out)
{
    uint32_t v;
    int pred;
    if (!name || ptx_dec_reg(f, name, &v, &pred) != 0) return -1;
    *out = pred ? v | PTX_SB_PRED : v;
    return 0;
}

static void add_src(pinst *in, uint32_t v)
{
    for (unsigned k = 0; k < in->sb_nsrc; k++)
        if (in->sb_src[k] == v) return;
    if (in->sb_nsrc < PTX_SB_SRCS) in->sb_src[in->sb_nsrc++] = v;
}

static void add_dst(pinst *in, uint32_t v)
{
    if (in->sb_ndst < PTX_SB_DSTS) in->sb_dst[in->sb_ndst++] = v;
}

/* Operand K's registers as sources (DST 0) or destinations. */
static void operand(pfunc *f, const raw_inst *ri, unsigned k, pinst *in, int dst)
{
    const raw_operand *o = &ri->ops[k];
    uint32_t v;
    void (*add)(pinst *, uint32_t) = dst ? add_dst : add_src;
    switch (o->kind) {
    case RO_REG:
        if (sb_index(f, o->name, &v) == 0) add(in, v);
        if (o->name2 && sb_index(f, o->name2, &v) == 0) add(in, v);
        break;
    case RO_ADDR:
        if (sb_index(f, o->name, &v) == 0) add_src(in, v);
        break;
    case RO_VEC:
        for (unsigned i = 0; i < o->nvec; i++)
            if (sb_index(f, o->vec[i], &v) == 0) add(in, v);
        break;
    default: break;
    }
}

/* A vector result's registers, spread over it (PTX_SB_DSTS of them). */
static void mma_dsts(pfunc *f, const raw_operand *d, pinst *in)
{
    uint32_t v;
    if (d->kind != RO_VEC) return;
    for (unsigned k = 0; k < PTX_SB_DSTS && k < d->nvec; k++) {
        unsigned i = d->nvec <= PTX_SB_DSTS ? k : k * (d->nvec - 1) / (PTX_SB_DSTS - 1);
        if (d->vec[i] && sb_index(f, d->vec[i], &v) == 0) add_dst(in, v);
    }
}

/* An mma's registers: its accumulator C (operand 3) first, as the chain
 * of mmas into one accumulator is what a GEMM's inner loop waits on, then
 * A and B; of each vector its first and last register (a vector's members
 * come from one load or mma, ready together); D's spread over its vector. */
static void mma_operands(pfunc *f, const raw_inst *ri, pinst *in)
{
    static const unsigned order[3] = {3, 1, 2};
    uint32_t v;
    for (unsigned i = 0; i < 3 && order[i] < ri->nops; i++) {
        const raw_operand *o = &ri->ops[order[i]];
        if (o->kind != RO_VEC || !o->nvec) continue;
        if (sb_index(f, o->vec[0], &v) == 0) add_src(in, v);
        if (sb_index(f, o->vec[o->nvec - 1], &v) == 0) add_src(in, v);
    }
    mma_dsts(f, &ri->ops[0], in);
}

#define SB_WIDE_MUL 1      /* mul.wide, mad.wide: an IMAD.WIDE */
#define SB_ADD64 2         /* add.s64/u64: fused into the IMAD.WIDE that made its operand */
#define SB_DST64 4         /* its results are 64-bit (two registers each) */
/* SB_LEADER (ptx.h): the first instruction of a basic block */

void ptx_sched_decode(pfunc *f, const raw_inst *ri, pinst *in)
{
    in->sb_cls = (uint8_t)sclass_of(ri, in);
    in->sb_nsrc = in->sb_ndst = 0;
    in->sb_flags = 0;
    if ((is(ri, "mul") || is(ri, "mad")) && ptx_has_mod(ri, "wide")) in->sb_flags |= SB_WIDE_MUL;
    if (is(ri, "add") && in->sb_cls == SC_INT64) in->sb_flags |= SB_ADD64;
    if (is(ri, "setp") && (imm(ri, 1) || imm(ri, 2))) in->sb_flags |= SB_CMP_IMM;
    if (in->sb_cls == SC_LD_GLOBAL || in->sb_cls == SC_LD_SHARED || in->sb_cls == SC_LD_CONST) in->sb_flags |= SB_LOAD;
    /* a load moves up with the 64-bit address arithmetic that feeds it
     * (add.s64, shl.b64, mul.wide: in PTX they make addresses): col_sum's
     * SASS has its 16 LDGs, each with its IADD.64 or IMAD.WIDE, above the
     * FADDs; kept behind the window, the adds waiting for the first loads
     * held back the next loads' addresses, 4 loads a round trip, not 16 */
    if (in->sb_cls == SC_INT64 || (in->sb_flags & SB_WIDE_MUL)) in->sb_flags |= SB_LOAD;
    /* memory a load may share with an earlier store: ptxas keeps the two
     * in order unless the load is of read-only data (ld.global.nc, __ldg).
     * The CUDA samples' copy is LDG, STG, LDG, STG; reduceGmem's warp
     * steps each load what the step before stored */
    if (in->sb_cls == SC_ST || in->sb_cls == SC_ATOM_GLOBAL || in->sb_cls == SC_ATOM_SHARED ||
        in->sb_cls == SC_LD_GLOBAL || in->sb_cls == SC_LD_SHARED) {
        pspace sp = mem_space(ri);
        int global = sp != SP_SHARED, shared = sp == SP_SHARED || sp == SP_GENERIC;
        int writes = in->sb_cls == SC_ST || in->sb_cls == SC_ATOM_GLOBAL || in->sb_cls == SC_ATOM_SHARED;
        int reads = in->sb_cls != SC_ST && !ptx_has_mod(ri, "nc") && !is(ri, "ldu");
        if (writes) in->sb_flags |= (global ? SB_ST_GLOBAL : 0) | (shared ? SB_ST_SHARED : 0);
        if (reads) in->sb_flags |= (global ? SB_LD_GLOBAL : 0) | (shared ? SB_LD_SHARED : 0);
    }
    ptype dt = ptx_mod_type(ri, 0);
    if (ptype_bytes(dt) == 8 || (ptype_bytes(dt) == 4 && ptx_has_mod(ri, "wide"))) in->sb_flags |= SB_DST64;
    if (in->sb_cls == SC_LDSM) in->sb_flags |= SB_LOAD | SB_LD_SHARED;
    if (is(ri, "stmatrix")) in->sb_flags |= SB_ST_SHARED;
    if (in->sb_cls == SC_LDGSTS) in->sb_flags |= SB_ASYNC | SB_LD_GLOBAL | SB_ST_SHARED;
    /* what a lane brings in through the SM's port (ptx_sched_port): a
     * global load's bytes, a cp.async's copy size (nvec) */
    in->sb_lane_bytes = 0;
    if (in->sb_cls == SC_LDGSTS) {
        in->sb_lane_bytes = in->nvec;
        if (ptx_has_mod(ri, "cg")) in->sb_flags |= SB_L1_BYPASS;
    } else if (in->sb_cls == SC_LD_GLOBAL && (is(ri, "ld") || is(ri, "ldu")) &&
               (mem_space(ri) == SP_GLOBAL || mem_space(ri) == SP_GENERIC)) {
        in->sb_lane_bytes = (uint8_t)(ptype_bytes(in->type) * (in->nvec ? in->nvec : 1));
        if (ptx_load_l2_only(ri)) in->sb_flags |= SB_L1_BYPASS;
    }
    if (in->sb_cls == SC_DEPBAR) {
        if (!ptx_has_mod(ri, "wait_group")) in->sb_flags |= SB_ASYNC_COMMIT;
        if (!ptx_has_mod(ri, "commit_group")) in->sb_flags |= SB_ASYNC_WAIT;
    }
    uint32_t v;
    if (ri->guard && sb_index(f, ri->guard, &v) == 0) add_src(in, v);
    if (is(ri, "wmma") && (in->sb_cls == SC_LDSM || in->sb_cls == SC_WMMA_LD_S || in->sb_cls == SC_WMMA_LD_G ||
                           in->sb_cls == SC_LD_SHARED || in->sb_cls == SC_LD_GLOBAL)) {
        in->sb_flags |= SB_LOAD | (in->sb_cls == SC_WMMA_LD_G || in->sb_cls == SC_LD_GLOBAL ? SB_LD_GLOBAL : SB_LD_SHARED);
        for (unsigned k = 1; k < ri->nops; k++) operand(f, ri, k, in, 0);
        mma_dsts(f, &ri->ops[0], in);
        return;
    }
    if (in->sb_cls == SC_WMMA_ST) in->sb_flags |= ptx_has_mod(ri, "shared") ? SB_ST_SHARED : SB_ST_GLOBAL | SB_ST_SHARED;
    if (in->sb_cls == SC_MMA || in->sb_cls == SC_MMA_1688 || in->sb_cls == SC_DMMA || in->sb_cls == SC_WMMA_MMA ||
        in->sb_cls == SC_WMMA_TF32 || in->sb_cls == SC_GMMA) {
        mma_operands(f, ri, in);
        return;
    }
    /* no result: stores, reductions, control; everything else writes operand 0 */
    int writes = !(is(ri, "st") || is(ri, "red") || in->kind == K_BRA || in->kind == K_BAR || in->kind == K_CALL ||
                   in->kind == K_RET || in->kind == K_EXIT || in->kind == K_TRAP || in->kind == K_NOP);
    for (unsigned k = 0; k < ri->nops; k++) operand(f, ri, k, in, writes && k == 0);
}

#define IFCONV_MAX 10      /* instructions a predicated branch skips, at most */
#define UNROLL_BODY 20     /* a loop ptxas unrolls: instructions, at most */
#define UNROLL PTX_UNROLL  /* and how many times (ptx.h) */

static int is_control(const pinst *in)
{
    return in->kind == K_BRA || in->kind == K_CALL || in->kind == K_RET || in->kind == K_EXIT || in->kind == K_BAR ||
           in->kind == K_TRAP;
}

/* An if/else ptxas predicates, both sides (s3d_hybrid's "bound ? global
 * load : shared load" is @P LDS beside @!P LDG in its SASS): the branch at
 * I over the else side [I+1, J) to the then side [J+1, END), the else side
 * closed by J, an unconditional branch to END; no control on either side,
 * IFCONV_MAX instructions in all. */
static void ifconv_diamond(pfunc *f, uint32_t i)
{
    pinst *in = &f->code[i];
    uint32_t j = in->target - 1, n = f->ncode;
    if (j <= i || j >= n) return;
    pinst *join = &f->code[j];
    if (join->kind != K_BRA || join->guard >= 0 || join->target <= in->target || join->target > n) return;
    if ((j - i - 1) + (join->target - in->target) > IFCONV_MAX) return;
    for (uint32_t k = i + 1; k < join->target; k++)
        if (k != j && is_control(&f->code[k])) return;
    in->sb_flags |= SB_IFCONV;
    join->sb_flags |= SB_IFCONV;
}

/* The loop [FIRST, LAST] (LAST its backward branch) is counted: its branch's
 * predicate comes from a setp in the loop that compares with a constant. */
static int counted(const pfunc *f, uint32_t first, uint32_t last)
{
    uint32_t pred = f->nslots + (uint32_t)f->code[last].guard;
    for (uint32_t k = last; k-- > first;) {
        const pinst *in = &f->code[k];
        for (unsigned d = 0; d < in->sb_ndst; d++)
            if (in->sb_dst[d] == pred) return (in->sb_flags & SB_CMP_IMM) != 0;
    }
    return 0;
}

/* ptxas joins scalar shared loads of one basic block from [R+o], [R+o+s],
 * ... (s the size, o a multiple of 16) into one LDS.64 or LDS.128: sgemm's
 * As[row * 32 + k] for k = 0..31 becomes eight LDS.128 (the H100 executed
 * 41.9 M LDS where the PTX has 67.1 M ld.shared).  Halves join four at a
 * time from o a multiple of 8, into an LDS.64: LeetCUDA's HGEMMs load
 * 128 ld.shared.u16 a k tile, interleaved from two rows, and their SASS
 * has 32 LDS.64 (hgemm_t_8x8_sliced_k_f16x4; sliced_k: 32 consecutive
 * halves are 8 LDS.64, 32 a row apart 32 LDS.U16).  The first of a group
 * keeps its class and leads SB_GROUP loads; the others cost nothing. */
static void join_shared_loads(pfunc *f)
{
    enum { OPEN = 16 };           /* groups open at once: sgemm interleaves As's and Bs's loads */
    struct {
        uint32_t lead, base, count, size;
        int64_t next;
    } g[OPEN];
    unsigned ng = 0;
    for (uint32_t i = 0; i <= f->ncode; i++) {
        const pinst *in = i < f->ncode ? &f->code[i] : NULL;
        /* every group ends at a block's end or a store to shared memory */
        if (!in || (in->sb_flags & SB_LEADER) || in->sb_cls == SC_ST || in->sb_cls == SC_ATOM_SHARED) {
            for (unsigned k = 0; k < ng; k++) f->code[g[k].lead].sb_group = (uint8_t)g[k].count;
            ng = 0;
            if (!in) break;
        }
        unsigned bytes = in->sb_cls == SC_LD_SHARED && in->nvec == 1 && in->addr_slot != UINT32_MAX
                       ? ptype_bytes((ptype)in->type) : 0;
        int ld = bytes == 2 || bytes == 4 || bytes == 8;
        unsigned size = ld ? bytes : 0, most = size == 2 ? 8 : 16, k = 0;
        while (ld && k < ng && !(g[k].base == in->addr_slot && g[k].next == in->off && g[k].size == size &&
                                 (g[k].count + 1) * size <= most))
            k++;
        if (ld && k < ng) {
            f->code[i].sb_cls = SC_LD_JOINED;
            g[k].count++;
            g[k].next += size;
            if (size == 2 && g[k].count * size == most) {      /* a full LDS.64 of halves: closed */
                f->code[g[k].lead].sb_group = (uint8_t)g[k].count;
                memmove(g + k, g + k + 1, (ng - k - 1) * sizeof g[0]);
                ng--;
            }
        } else if (ld && in->off % most == 0) {
            if (ng == OPEN) {               /* the oldest group is done */
                f->code[g[0].lead].sb_group = (uint8_t)g[0].count;
                memmove(g, g + 1, (OPEN - 1) * sizeof g[0]);
                ng--;
            }
            g[ng].lead = i, g[ng].base = in->addr_slot, g[ng].count = 1, g[ng].size = size;
            g[ng].next = in->off + size;
            ng++;
        }
        /* a new value of a group's base register ends that group */
        for (unsigned d = 0; d < in->sb_ndst; d++)
            for (unsigned j = 0; j < ng; j++)
                if (g[j].base == in->sb_dst[d]) {
                    f->code[g[j].lead].sb_group = (uint8_t)g[j].count;
                    memmove(g + j, g + j + 1, (ng - j - 1) * sizeof g[0]);
                    ng--, j--;
                }
    }
}

/* Address arithmetic as ptxas writes it: a 64-bit add of the only use of
 * a wide multiply's product is the IMAD.WIDE's own addend (mul.wide.s32
 * %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2 is one IMAD.WIDE): the add costs
 * nothing.  Counted over the function: a register with one definition and
 * one use. */
static void fuse_wide(pfunc *f)
{
    uint32_t n = f->nslots;
    int32_t *def = malloc((size_t)n * sizeof *def);
    uint32_t *uses = calloc(n, sizeof *uses);
    if (!def || !uses) {
        free(def), free(uses);
        return;                   /* only the estimate is less good */
    }
    for (uint32_t s = 0; s < n; s++) def[s] = -1;
    for (uint32_t i = 0; i < f->ncode; i++) {
        const pinst *in = &f->code[i];
        for (unsigned k = 0; k < in->sb_nsrc; k++)
            if (in->sb_src[k] < n) uses[in->sb_src[k]]++;
        for (unsigned k = 0; k < in->sb_ndst; k++)
            if (in->sb_dst[k] < n) def[in->sb_dst[k]] = def[in->sb_dst[k]] == -1 ? (int32_t)i : -2;
    }
    /* a product used only by 64-bit adds: each add is an IMAD.WIDE of its
     * own (ptxas repeats the multiply: grid-stride saxpy's x[i] and y[i]),
     * the multiply itself goes */
    uint32_t *adds = calloc(n, sizeof *adds);
    if (!adds) {
        free(def), free(uses);
        return;
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        const pinst *in = &f->code[i];
        if (!(in->sb_flags & SB_ADD64)) continue;
        for (unsigned k = 0; k < in->sb_nsrc; k++)
            if (in->sb_src[k] < n && def[in->sb_src[k]] >= 0 && (f->code[def[in->sb_src[k]]].sb_flags & SB_WIDE_MUL))
                adds[in->sb_src[k]]++;
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        pinst *in = &f->code[i];
        if (!(in->sb_flags & SB_ADD64)) continue;
        for (unsigned k = 0; k < in->sb_nsrc; k++) {
            uint32_t s = in->sb_src[k];
            if (s < n && def[s] >= 0 && (f->code[def[s]].sb_flags & SB_WIDE_MUL) && adds[s] == uses[s]) {
                in->sb_cls = uses[s] == 1 ? SC_FREE : SC_IMAD;
                if (uses[s] > 1) f->code[def[s]].sb_cls = SC_FREE;
                break;
            }
        }
    }
    free(adds);
    free(def);
    free(uses);
}

/* A half mul without a rounding modifier whose result the next reader in
 * its basic block adds (also without one) is contracted with that add into
 * one HFMA2 by ptxas: the mul issues nothing. */
static void contract_half_muls(pfunc *f)
{
    for (uint32_t i = 0; i < f->ncode; i++) {
        pinst *mul = &f->code[i];
        if ((mul->sb_cls != SC_HALF_MUL && mul->sb_cls != SC_HALF1_MUL) || mul->sb_ndst != 1) continue;
        unsigned add = mul->sb_cls == SC_HALF_MUL ? SC_HALF_ADD : SC_HALF1_ADD;
        uint32_t d = mul->sb_dst[0];
        for (uint32_t k = i + 1; k < f->ncode && !(f->code[k].sb_flags & SB_LEADER); k++) {
            const pinst *in = &f->code[k];
            int reads = 0, writes = 0;
            for (unsigned j = 0; j < in->sb_nsrc; j++) reads |= in->sb_src[j] == d;
            for (unsigned j = 0; j < in->sb_ndst; j++) writes |= in->sb_dst[j] == d;
            if (reads) {
                if (in->sb_cls == add) mul->sb_cls = SC_FREE;
                break;
            }
            if (writes) break;
        }
    }
}

/* Each block's upward-exposed slots: those it reads before it writes
 * them, listed in f->sb_uses from its leader's sb_uses (sb_nuses of them).
 * ptxas schedules a block as if these were ready when it starts: a use of
 * one that a load of an earlier block has not yet brought goes near the
 * top, and in-order issue holds the rest of the block behind it
 * (s3d_hybrid's FADD of the plane above, placed before the LDG of the
 * halo beside it, waits for that plane's load). */
static int exposed_uses(pfunc *f)
{
    uint32_t n = f->ncode, slots = f->nslots + f->npreds, cap = 0, len = 0;
    uint32_t *written = calloc(slots ? slots : 1, sizeof *written), *listed = calloc(slots ? slots : 1, sizeof *listed);
    uint32_t *uses = NULL;
    int rc = written && listed ? 0 : -1;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        pinst *lead = &f->code[i];
        if (!(lead->sb_flags & SB_LEADER)) continue;
        uint32_t stamp = i + 1;
        lead->sb_uses = len;
        for (uint32_t k = i; k < n && (k == i || !(f->code[k].sb_flags & SB_LEADER)) && rc == 0; k++) {
            const pinst *in = &f->code[k];
            for (unsigned j = 0; j < in->sb_nsrc; j++) {
                uint32_t v = in->sb_src[j];
                if (v >= slots || written[v] == stamp || listed[v] == stamp) continue;
                listed[v] = stamp;
                if (len == cap) {
                    uint32_t *u = realloc(uses, (cap = cap ? 2 * cap : 64) * sizeof *u);
                    if (!u) {
                        rc = -1;
                        break;
                    }
                    uses = u;
                }
                uses[len++] = v;
            }
            for (unsigned j = 0; j < in->sb_ndst; j++)
                if (in->sb_dst[j] < slots) written[in->sb_dst[j]] = stamp;
        }
        lead->sb_nuses = len - lead->sb_uses;
    }
    free(written);
    free(listed);
    if (rc != 0) {
        free(uses);
        return -1;
    }
    f->sb_uses = uses;
    return 0;
}

int ptx_sched_fix(pfunc *f)
{
    for (uint32_t i = 0; i < f->ncode; i++) {
        pinst *in = &f->code[i];
        for (unsigned k = 0; k < in->sb_nsrc; k++)
            if (in->sb_src[k] & PTX_SB_PRED) in->sb_src[k] = f->nslots + (in->sb_src[k] & ~PTX_SB_PRED);
        for (unsigned k = 0; k < in->sb_ndst; k++)
            if (in->sb_dst[k] & PTX_SB_PRED) in->sb_dst[k] = f->nslots + (in->sb_dst[k] & ~PTX_SB_PRED);
    }
    fuse_wide(f);
    /* basic blocks: ptxas schedules within them, so the scoreboard lets an
     * instruction issue as soon as its operands are ready inside one.  Two
     * of ptxas's own transformations join blocks:
     *   - a branch over at most IFCONV_MAX instructions with no control
     *     among them becomes predication (reduce6's bounds-checked second
     *     load is a predicated LDG in its SASS, beside the first;
     *     reduce1's step (9 PTX instructions: two shared loads, an add, a
     *     store) and prescan's up-sweep step (10) are 7 predicated SASS
     *     instructions every warp issues; prescan's down-sweep step (12:
     *     three loads and two stores) stays a branch), and so does a short
     *     if/else, both sides (ifconv_diamond);
     *   - a small counted loop (one block of at most UNROLL_BODY
     *     instructions closed by a compare with a constant) is unrolled
     *     UNROLL times (col_sum's PTX loop of 4 loads is 16 LDGs in its
     *     SASS; sgemm_naive's 41 instructions and reduce6<false>'s loop
     *     against a register are not unrolled). */
    uint32_t n = f->ncode;
    for (uint32_t i = 0; i < n; i++) {
        pinst *in = &f->code[i];
        if (in->kind != K_BRA || in->target >= n) continue;
        int ctl = 0;
        if (in->target > i) {
            for (uint32_t k = i + 1; k < in->target && !ctl; k++) ctl = is_control(&f->code[k]);
            if (in->guard >= 0 && !ctl && in->target - i - 1 <= IFCONV_MAX) in->sb_flags |= SB_IFCONV;
            else if (in->guard >= 0) ifconv_diamond(f, i);
        } else if (in->guard >= 0 && i - in->target + 1 <= UNROLL_BODY) {
            for (uint32_t k = in->target; k < i && !ctl; k++) ctl = is_control(&f->code[k]);
            if (!ctl && counted(f, in->target, i)) in->sb_flags |= SB_UNROLL;
        }
    }
    if (n) f->code[0].sb_flags |= SB_LEADER;
    for (uint32_t i = 0; i < n; i++) {
        const pinst *in = &f->code[i];
        if (in->kind == K_BRA && (in->sb_flags & SB_IFCONV)) continue;
        if (is_control(in) && i + 1 < n) f->code[i + 1].sb_flags |= SB_LEADER;
        if (in->kind == K_BRA && in->target < n) f->code[in->target].sb_flags |= SB_LEADER;
    }
    join_shared_loads(f);
    contract_half_muls(f);
    return exposed_uses(f);
}

void ptx_sched_skipped(pctx *x, pwarp *w, const pfunc *f, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to && i < f->ncode; i++) {
        unsigned c = f->code[i].sb_cls;
        /* a memory instruction of the predicated block, issued with no lane on */
        if (f->code[i].kind == K_MEM && f->code[i].cs_space >= 0) x->exec.mem_inactive++;
        x->sb_count[c]++;
        w->sb_quarters += x->sb_quarters[c];
        for (int p = 0; p < COALSIM_PIPES; p++) w->sb_pq[p] += x->sb_pipe_q[c][p];
        w->sb_t += ptx_sched_issue(x, w, c);
    }
}

void ptx_sched_joined(pctx *x, const pinst *in, const coalsim_request *r)
{
    unsigned g = in->sb_group, bytes = g * r->size <= 8 ? 8 : 16;
    for (uint32_t m = r->active; m; m &= m - 1)
        if (r->addr[__builtin_ctz(m)] % bytes) return;       /* not aligned: ptxas could not join them */
    coalsim_request v = *r;
    coalsim_result one, joined;
    v.size = bytes;
    coalsim_smem(&x->sb_arch, r, &one);
    coalsim_smem(&x->sb_arch, &v, &joined);
    /* the group's loads are alike (the same rows, lane by lane) */
    x->sb_smem_joined = joined.wavefronts;
    double saved = (double)g * one.wavefronts - joined.wavefronts;
    if (saved > 0) x->exec.smem_wavefronts_saved += saved;
}

int ptx_sched_setup(pctx *x, const coalsim_profile *p, unsigned sms, uint64_t l1_bytes, unsigned held)
{
    x->sb_on = p != NULL;
    x->sb_smem_wf = 0;
    x->sb_smem_joined = -1;
    x->sb_stagger = p ? p->block_ns * p->sm_clock_mhz * 1e-3 : 0;
    uint64_t blocks = (uint64_t)x->grid[0] * x->grid[1] * x->grid[2];
    if (sm_port_init(&x->sb_smport, p, sms, blocks, l1_bytes, held) != 0) return -1;
    for (int i = 0; i < COALSIM_PIPES; i++) x->sb_pipe_rate[i] = p ? p->pipe_per_cycle[i] : 0;
    coalsim_arch_preset("hopper", &x->sb_arch);
    memset(x->sb_count, 0, sizeof x->sb_count);
    for (int c = 0; c < SC_COUNT; c++) {
        const sclass *k = &classes[c];
        unsigned quarters = 0;
        for (int i = 0; i < COALSIM_PIPES; i++) quarters += k->q[i];
        x->sb_quarters[c] = quarters;
        memcpy(x->sb_pipe_q[c], k->q, sizeof x->sb_pipe_q[c]);
        /* the warp issues the class's SASS one a cycle (what is mostly
         * free, a move or a parameter, costs none); a tensor instruction
         * issues in one and keeps the tensor pipe busy longer */
        unsigned issue = (quarters - k->q[COALSIM_PIPE_TENSOR] + 2) / 4 + (k->q[COALSIM_PIPE_TENSOR] > 0);
        x->sb_issue[c] = CYC(issue);
        double lat = k->lat == -2 ? COALSIM_PATH_LOAD_CYCLES : k->lat >= 0 ? coalsim_lat_cycles(p, (coalsim_lat)k->lat) : issue;
        x->sb_lat[c] = CYC((uint64_t)(lat + 0.5)) + (k->lat == -2);
    }
    x->sb_bar_lat = CYC((uint64_t)(coalsim_lat_cycles(p, COALSIM_LAT_BAR) + 0.5));
    x->sb_pair_cls = SC_HALF1;     /* with SC_HALF1_MUL and SC_HALF1_ADD after it */
    x->sb_tma_round = 0, x->sb_tma_window = 0, x->sb_gmma_cycles = 1;
    if (p && p->sm_clock_mhz > 0) {
        if (p->tma_round_ns > 0 && p->tma_round_bytes >= 1) {
            x->sb_tma_round = CYC((uint64_t)(p->tma_round_ns * p->sm_clock_mhz * 1e-3 + 0.5));
            x->sb_tma_window = (uint64_t)p->tma_round_bytes;
        }
        if (p->tensor_clock_mhz > 0 && p->tensor_clock_mhz < p->sm_clock_mhz)
            x->sb_gmma_cycles = p->sm_clock_mhz / p->tensor_clock_mhz;
    }
    return 0;
}

/* The later of A and the busiest sub-partition's issue since the barrier
 * at BASE (the warps' quarters since then). */
static uint64_t with_issue(pctx *x, unsigned nwarps, uint64_t a, uint64_t base)
{
    uint64_t q[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < nwarps; k++) q[k % 4] += x->warps[k].sb_quarters;
    uint64_t m = q[0] > q[1] ? q[0] : q[1];
    uint64_t m2 = q[2] > q[3] ? q[2] : q[3];
    m = m > m2 ? m : m2;
    /* the block's stretch on the SM's schedulers, or its busiest pipe if slower */
    double all = (double)(q[0] + q[1] + q[2] + q[3]) / 4;
    for (int i = 0; i < COALSIM_PIPES; i++) {
        double pq = 0;
        for (unsigned k = 0; k < nwarps; k++) pq += (double)x->warps[k].sb_pq[i];
        if (x->sb_pipe_rate[i] > 0 && 4 * (pq / 4) / x->sb_pipe_rate[i] > all) all = 4 * (pq / 4) / x->sb_pipe_rate[i];
    }
    coalsim_exec_phase(&x->exec, (double)((m + 3) / 4), all,
                       (double)(a >> LOADS_BITS) - (double)(base >> LOADS_BITS), x->sb_stagger);
    /* issue-bound since the barrier: the loads on the path are the ones
     * before it (this part of the path goes through no load) */
    uint64_t t = base + CYC((m + 3) / 4);
    return (t >> LOADS_BITS) > (a >> LOADS_BITS) ? t : a;
}

/* The warp's time: its basic block's last issue or its cursor. */
static uint64_t warp_time(const pwarp *w) { return w->sb_t > w->sb_end ? w->sb_t : w->sb_end; }

void ptx_sched_barrier(pctx *x, unsigned nwarps)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < nwarps; k++)
        if (x->warps[k].state != W_DONE && warp_time(&x->warps[k]) > t) t = warp_time(&x->warps[k]);
    t = with_issue(x, nwarps, t, x->sb_bar) + x->sb_bar_lat;
    x->sb_bar = t;
    for (unsigned k = 0; k < nwarps; k++) {
        x->warps[k].sb_quarters = 0;
        memset(x->warps[k].sb_pq, 0, sizeof x->warps[k].sb_pq);
        if (x->warps[k].state != W_DONE) x->warps[k].sb_t = x->warps[k].sb_end = t;
    }
}

void ptx_sched_block_end(pctx *x, unsigned nwarps)
{
    uint64_t t = 0;
    for (unsigned k = 0; k < nwarps; k++)
        if (warp_time(&x->warps[k]) > t) t = warp_time(&x->warps[k]);
    t = with_issue(x, nwarps, t, x->sb_bar);
    double loads = (double)(t & LOADS_MASK);
    x->exec.path_cycles += (double)(t >> LOADS_BITS) - loads * COALSIM_PATH_LOAD_CYCLES;
    x->exec.path_loads += loads;
    x->exec.path_blocks++;
    coalsim_exec_path_max(&x->exec, (double)(t >> LOADS_BITS) - loads * COALSIM_PATH_LOAD_CYCLES, loads);
}

uint64_t ptx_sched_load_ready(const pctx *x)
{
    return x->sb_on ? x->sb_now + x->sb_lat[SC_LD_GLOBAL] : 0;
}

/* When the BYTES of a tensor copy warp W issues now are in.  A producer's
 * copies move tma_round_bytes a round of tma_round_ns (gpu/probes/
 * tma_pipe.cu); copies issued while earlier ones are still on their way
 * join their rounds, and a copy is in when the round that holds its last
 * byte ends, whatever its mbarrier (on the H100 two 8 or 16 KB boxes are
 * in 535-588 ns, a 16 and a 32 KB one in 1090, a stage of 80 KB in
 * 1420-1520: 32 KB a round of about 500 ns).  Without the keys: a global
 * load's latency after it issues. */
uint64_t ptx_sched_tma_ready(pctx *x, pwarp *w, uint64_t bytes)
{
    if (!x->sb_on) return 0;
    if (!x->sb_tma_round) return ptx_sched_load_ready(x);
    return tma_rounds_ready(&w->sb_tma, x->sb_now, bytes, x->sb_tma_round, x->sb_tma_window);
}

void ptx_sched_finish(pctx *x)
{
    for (int c = 0; c < SC_COUNT; c++) {
        for (int i = 0; i < COALSIM_PIPES; i++) x->exec.pipe_inst[i] += (double)x->sb_count[c] * classes[c].q[i] / 4.0;
        x->sb_count[c] = 0;
    }
}

/* ---- registers, when ptxas cannot say ---- */

unsigned ptx_sched_regs(const pfunc *f)
{
    /* live registers (the function's own slots, not constants or special
     * registers) after each instruction, backwards to a fixed point; the
     * most live at once, 64-bit values counting two, is the estimate */
    uint32_t n = f->const_first, words = (n + 63) / 64, ni = f->ncode;
    if (!n || !ni) return 0;
    uint64_t *in = calloc((size_t)ni * words, sizeof *in), *out = calloc(words, sizeof *out);
    uint8_t *wide = calloc(n, 1);
    if (!in || !out || !wide) {
        free(in), free(out), free(wide);
        return 0;
    }
    for (uint32_t i = 0; i < ni; i++)
        for (unsigned k = 0; k < f->code[i].sb_ndst; k++)
            if (f->code[i].sb_dst[k] < n && (f->code[i].sb_flags & SB_DST64)) wide[f->code[i].sb_dst[k]] = 1;
    unsigned best = 0;
    for (int changed = 1, round = 0; changed && round < 1000; round++) {
        changed = 0;
        for (uint32_t i = ni; i-- > 0;) {
            const pinst *p = &f->code[i];
            memset(out, 0, words * sizeof *out);
            int falls = !((p->kind == K_BRA || p->kind == K_EXIT || p->kind == K_RET) && p->guard < 0);
            if (falls && i + 1 < ni)
                for (uint32_t w = 0; w < words; w++) out[w] |= in[(size_t)(i + 1) * words + w];
            if (p->kind == K_BRA && p->target < ni)
                for (uint32_t w = 0; w < words; w++) out[w] |= in[(size_t)p->target * words + w];
            unsigned live = 0;
            for (uint32_t r = 0; r < n; r++)
                if (out[r / 64] >> (r % 64) & 1) live += 1u + wide[r];
            for (unsigned k = 0; k < p->sb_ndst; k++)
                if (p->sb_dst[k] < n && !(out[p->sb_dst[k] / 64] >> (p->sb_dst[k] % 64) & 1)) live += 1u + wide[p->sb_dst[k]];
            if (live > best) best = live;
            for (unsigned k = 0; k < p->sb_ndst; k++)
                if (p->sb_dst[k] < n) out[p->sb_dst[k] / 64] &= ~(1ull << (p->sb_dst[k] % 64));
            for (unsigned k = 0; k < p->sb_nsrc; k++)
                if (p->sb_src[k] < n) out[p->sb_src[k] / 64] |= 1ull << (p->sb_src[k] % 64);
            uint64_t *cur = &in[(size_t)i * words];
            if (memcmp(cur, out, words * sizeof *out)) {
                memcpy(cur, out, words * sizeof *out);
                changed = 1;
            }
        }
    }
    free(in), free(out), free(wide);
    return best;
}

uint64_t ptx_sched_port(pctx *x, pwarp *w, const pinst *in, uint32_t m, uint64_t t)
{
    uint64_t ready = t + x->sb_lat[SC_LD_GLOBAL];
    if (!in->sb_lane_bytes || !x->sb_smport.rate || !m) return ready;
    uint64_t a[32];
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        int l = __builtin_ctz(mm);
        a[l] = ptx_lane_addr(w, in, l, in->sb_cls == SC_LDGSTS);   /* cp.async: the source */
    }
    unsigned bytes = sm_port_bytes(&x->sb_smport, a, m, in->sb_lane_bytes, (in->sb_flags & SB_L1_BYPASS) != 0);
    uint64_t c = t >> LOADS_BITS;
    return ready + CYC(sm_port_through(&x->sb_smport, c, bytes) - c);
}

uint64_t ptx_sched_tensor(pctx *x, pwarp *w, const pinst *in, uint64_t t, uint64_t ready)
{
    unsigned c = in->sb_cls, q = x->sb_pipe_q[c][COALSIM_PIPE_TENSOR];
    if (!q || !x->sb_smport.tensor[0].room) {
        if (c == SC_GMMA) async_copy(&w->sb_gmma, ready);   /* no calendars: its latency */
        return ready;
    }
    /* a wgmma holds its warp's sub-partition pipe N/2 cycles at the tensor
     * clock (ptx_ops_wgmma.c), as many HMMAs as the pipe does in them; its
     * group is done when its last one is (wgmma.wait_group) */
    double units = c == SC_GMMA ? in->imm / 8.0 * x->sb_pipe_rate[COALSIM_PIPE_TENSOR] * x->sb_gmma_cycles : q / 4.0;
    uint64_t r = sm_port_tensor(&x->sb_smport, 4 * w->cta + w->index % 4, t >> LOADS_BITS, units);
    uint64_t v = CYC(r) + (t & LOADS_MASK);
    if (v < ready) v = ready;
    if (c == SC_GMMA) async_copy(&w->sb_gmma, v);
    return v;
}

void ptx_sched_gmma(pwarp *w, const pinst *in, uint64_t *t)
{
    if (in->sb_cls != SC_GMMA_SYNC) return;
    if (in->sub == WGMMA_COMMIT) async_commit(&w->sb_gmma);
    else if (in->sub == WGMMA_WAIT) {
        uint64_t ready = async_wait(&w->sb_gmma, in->imm);
        if (ready > *t) *t = ready;
    }
}

int ptx_sched_queued(const pinst *in)
{
    /* stmatrix issues as a store (SC_ST): its request says what it is */
    return in->sb_cls == SC_LDSM || in->sb_cls == SC_WMMA_LD_S || in->sb_cls == SC_WMMA_ST || in->cs_op == COALSIM_STSM;
}

void ptx_sched_smem(pctx *x, pwarp *w, uint64_t *sb, const pinst *in)
{
    double wf = x->sb_smem_wf, joined = x->sb_smem_joined;
    x->sb_smem_wf = 0;
    x->sb_smem_joined = -1;
    uint64_t t = x->sb_now, v;
    if (in->sb_cls == SC_LD_JOINED) {
        v = w->sb_lds_ready;       /* part of its leader's LDS */
    } else {
        uint64_t r = sm_port_smem(&x->sb_smport, t >> LOADS_BITS, in->sb_group > 1 && joined >= 0 ? joined : wf);
        if (!r) return;
        v = CYC(r) + (t & LOADS_MASK);
        if (in->sb_group > 1) w->sb_lds_ready = v;
    }
    for (unsigned k = 0; k < in->sb_ndst; k++)
        if (v > sb[in->sb_dst[k]]) sb[in->sb_dst[k]] = v;
}

void ptx_sched_async(pctx *x, pwarp *w, const pinst *in, uint32_t m, uint64_t *t)
{
    /* a copy arrives when its load would (one more load on the path) */
    if (in->sb_flags & SB_ASYNC) async_copy(&w->sb_async, ptx_sched_port(x, w, in, m, *t));
    if (in->sb_flags & SB_ASYNC_COMMIT) async_commit(&w->sb_async);
    if (in->sb_flags & SB_ASYNC_WAIT) {
        /* wait_group N (wait_all commits first: N = 0) */
        uint64_t ready = async_wait(&w->sb_async, (in->sb_flags & SB_ASYNC_COMMIT) ? 0 : in->imm);
        if (ready > *t) *t = ready;
    }
}

int ptx_sched_lane_source(const pinst *in, int params_uniform)
{
    switch (in->sb_cls) {
    case SC_SHFL: case SC_VOTE: case SC_ATOM_GLOBAL: case SC_ATOM_SHARED: case SC_LDSM: case SC_MMA: case SC_MMA_1688:
    case SC_DMMA: case SC_WMMA_MMA: case SC_WMMA_TF32: case SC_WMMA_LD_G: case SC_WMMA_LD_S: case SC_GMMA: case SC_MOVM:
        return 1;
    case SC_PARAM: return !params_uniform;
    default:
        /* thread-local memory (or a generic address, which may be); an
         * operand list too long for the scoreboard; a call's results */
        return (in->kind == K_MEM && (in->space == SP_LOCAL || in->space == SP_GENERIC)) || in->nxs > 0 || in->sb_nsrc >= PTX_SB_SRCS ||
               in->kind == K_CALL;
    }
}
