/* Which pipe of the SM executes a SASS opcode, and the latency class of its
 * result: what the time model counts (coalsim_exec's pipe_inst) and what the
 * SASS critical path waits for (sass_sched.c).
 *
 * Where the choices come from:
 *   - Nsight Compute's pipe descriptions (Kernel Profiling Guide, "Pipelines"):
 *     fma (FP32 arithmetic, integer multiply), fmaheavy (IMAD), alu (integer
 *     and logic, FP32 compares and min/max), fp64, xu (transcendentals,
 *     conversions of the older GPUs, POPC/FLO/BREV), lsu, cbu (branches and
 *     convergence barriers), adu (constant loads, block-level barriers),
 *     uniform (the uniform datapath), tensor.
 *   - What ncu counted for the outside suite's launches
 *     (gpu/results/h100/outside/counters.txt: sm__inst_executed_pipe_*), which
 *     tests/check_sass.c's sgemm_naive claim pins for one kernel.
 *   - Harness sm's throughputs (gpu/results/h200/sm2.txt): thr_iadd 3.77 a
 *     cycle when pipe_alu is 1.96 means ptxas puts half of the integer adds
 *     on the FMA pipe as IMAD.IADD; so IMAD.MOV, IMAD.SHL and IMAD.IADD (a
 *     multiply by 1 or a power of two) count on COALSIM_PIPE_FMA (fmalite
 *     takes them), real multiplies (IMAD, IMAD.WIDE, IMAD.HI) on FMAHEAVY at
 *     thr_imad 1.97.  The PTX side (ptx_sched.c) has no IMAD.MOV to place: its
 *     moves and adds are ALU and its multiplies FMAHEAVY, as here.
 *   - Latencies by the classes ptx_sched.c gives the same operations (its
 *     SC_* table), so both front ends wait the same for the same work. */
#include <string.h>

#include "sass.h"

typedef struct {
    const char *name;          /* base opcode */
    uint8_t pipe;
    int8_t lat;                /* coalsim_lat, SASS_LAT_NONE, SASS_LAT_LOAD */
} pipe_entry;

enum { FMA = COALSIM_PIPE_FMA, ALU = COALSIM_PIPE_ALU, HEAVY = COALSIM_PIPE_FMAHEAVY, FP64 = COALSIM_PIPE_FP64,
       XU = COALSIM_PIPE_XU, CONV = COALSIM_PIPE_CONV, LSU = COALSIM_PIPE_LSU, CBU = COALSIM_PIPE_CBU,
       TENSOR = COALSIM_PIPE_TENSOR, UNI = COALSIM_PIPE_UNIFORM };

#define NONE SASS_LAT_NONE
#define LOAD SASS_LAT_LOAD

static const pipe_entry table[] = {
    /* FP32 arithmetic */
    {"FFMA", FMA, COALSIM_LAT_FMA}, {"FADD", FMA, COALSIM_LAT_FMA}, {"FMUL", FMA, COALSIM_LAT_FMA},
    {"FSWZADD", FMA, COALSIM_LAT_FMA},
    /* half pairs: fmaheavy (HFMA2.MMA, ptxas's other half of a stream of them,
     * the fmalite side: sass_pipe_of; gpu/probes/half_pipe.cu) */
    {"HFMA2", HEAVY, COALSIM_LAT_HALF}, {"HADD2", HEAVY, COALSIM_LAT_HALF}, {"HMUL2", HEAVY, COALSIM_LAT_HALF},
    /* integer, logic, compares, selects, moves; FP32 compares and min/max
     * (ptx_sched.c's SC_FP32_ALU) */
    {"IADD3", ALU, COALSIM_LAT_ALU}, {"LOP3", ALU, COALSIM_LAT_ALU}, {"PLOP3", ALU, COALSIM_LAT_ALU},
    {"SHF", ALU, COALSIM_LAT_ALU}, {"LEA", ALU, COALSIM_LAT_ALU}, {"ISETP", ALU, COALSIM_LAT_ALU},
    {"SEL", ALU, COALSIM_LAT_ALU}, {"IMNMX", ALU, COALSIM_LAT_ALU}, {"VIMNMX", ALU, COALSIM_LAT_ALU},
    {"IABS", ALU, COALSIM_LAT_ALU}, {"BMSK", ALU, COALSIM_LAT_ALU}, {"SGXT", ALU, COALSIM_LAT_ALU},
    {"PRMT", ALU, COALSIM_LAT_ALU}, {"MOV", ALU, COALSIM_LAT_ALU}, {"P2R", ALU, COALSIM_LAT_ALU},
    {"R2P", ALU, COALSIM_LAT_ALU}, {"FSETP", ALU, COALSIM_LAT_ALU}, {"FSEL", ALU, COALSIM_LAT_ALU},
    {"FMNMX", ALU, COALSIM_LAT_ALU}, {"HMNMX2", ALU, COALSIM_LAT_ALU}, {"FCHK", ALU, COALSIM_LAT_ALU},
    {"VOTE", ALU, COALSIM_LAT_ALU},
    {"LEPC", ALU, COALSIM_LAT_ALU},
    /* CS2R (zeroing a pair, reading the clock): ALU.  S2R: not ncu's
     * pipe_alu (sgemm_naive's 3 S2Rs a warp are exactly what pipe_alu lacks
     * of the ALU opcodes, 1536 for 512 warps): with LDC below; it waits ALU
     * latency, as ptx_sched.c's SC_SREG */
    {"S2R", CBU, COALSIM_LAT_ALU}, {"CS2R", ALU, COALSIM_LAT_ALU},
    /* VIADD (sm_90) is IMAD.IADD's encoding family (opcode 0x836 beside
     * 0x824) and takes its pipe: a guess, not measured */
    {"VIADD", FMA, COALSIM_LAT_IMAD}, {"VIADDMNMX", ALU, COALSIM_LAT_ALU},
    /* integer multiplies (IMAD.MOV/SHL/IADD: sass_pipe_of moves them to FMA) */
    {"IMAD", HEAVY, COALSIM_LAT_IMAD}, {"IMUL", HEAVY, COALSIM_LAT_IMAD},
    /* FP64 */
    {"DFMA", FP64, COALSIM_LAT_FP64}, {"DADD", FP64, COALSIM_LAT_FP64}, {"DMUL", FP64, COALSIM_LAT_FP64},
    {"DSETP", FP64, COALSIM_LAT_FP64}, {"DMNMX", FP64, COALSIM_LAT_FP64},
    /* transcendentals and bit counts (ptx_sched.c's SC_MUFU, SC_BITS) */
    {"MUFU", XU, COALSIM_LAT_MUFU}, {"POPC", XU, COALSIM_LAT_MUFU}, {"FLO", XU, COALSIM_LAT_MUFU},
    {"BREV", XU, COALSIM_LAT_MUFU},
    /* conversions */
    {"I2F", CONV, COALSIM_LAT_CONV}, {"F2I", CONV, COALSIM_LAT_CONV}, {"F2F", CONV, COALSIM_LAT_CONV},
    {"I2FP", CONV, COALSIM_LAT_CONV}, {"F2FP", CONV, COALSIM_LAT_CONV}, {"FRND", CONV, COALSIM_LAT_CONV},
    /* memory: global, local and generic loads are the path's counted loads;
     * shared loads and atomics wait lat_lds; stores and reductions give no
     * result */
    {"LDG", LSU, LOAD}, {"LDL", LSU, LOAD}, {"LD", LSU, LOAD}, {"ATOMG", LSU, LOAD}, {"ATOM", LSU, LOAD},
    {"LDS", LSU, COALSIM_LAT_SMEM}, {"ATOMS", LSU, COALSIM_LAT_SMEM}, {"LDSM", LSU, COALSIM_LAT_SMEM},
    {"STG", LSU, NONE}, {"STS", LSU, NONE}, {"STL", LSU, NONE}, {"ST", LSU, NONE}, {"REDG", LSU, NONE},
    {"RED", LSU, NONE},
    /* shuffles and warp-wide matches and reductions (ptx_sched.c's SC_SHFL) */
    {"SHFL", LSU, COALSIM_LAT_SHFL}, {"MOVM", LSU, COALSIM_LAT_SHFL}, {"MATCH", LSU, COALSIM_LAT_SHFL}, {"REDUX", LSU, COALSIM_LAT_SHFL},
    /* fences and cache control (ptx_sched.c's SC_FENCE) */
    {"MEMBAR", LSU, NONE}, {"FENCE", LSU, NONE}, {"ERRBAR", LSU, NONE}, {"CCTL", LSU, NONE},
    {"CCTLL", LSU, NONE},
    /* LDC: ncu's adu serves constant loads and block-level barriers; coalsim
     * has no adu pipe (no rate in a profile) and counts them with the
     * barriers on CBU, out of the LSU's rate (sgemm_naive runs several LDCs a warp
     * and ncu's pipe_lsu is its LDGs and STGs and 2 a warp); they wait what
     * ptx_sched.c's ld.const waits */
    {"LDC", CBU, COALSIM_LAT_SMEM},
    /* control: branches, calls, convergence barriers, block barriers, exit;
     * NOP and the rest that issue and do nothing go here too */
    {"BRA", CBU, NONE}, {"BRX", CBU, NONE}, {"JMP", CBU, NONE}, {"CALL", CBU, NONE}, {"RET", CBU, NONE},
    {"EXIT", CBU, NONE}, {"BAR", CBU, NONE}, {"BSSY", CBU, NONE}, {"BSYNC", CBU, NONE},
    {"WARPSYNC", CBU, NONE}, {"ENDCOLLECTIVE", CBU, NONE}, {"YIELD", CBU, NONE}, {"NANOSLEEP", CBU, NONE},
    {"DEPBAR", CBU, NONE}, {"NOP", CBU, NONE}, {"BPT", CBU, NONE}, {"KILL", CBU, NONE},
    /* matrix instructions (sass_ops_matrix.c; latencies from gpu/probes/matrix.cu --rates) and asynchronous
     * copies: an LDGSTS's copy arrives with its group (sass_sched.c), LDGDEPBAR closes the group */
    {"HMMA", TENSOR, COALSIM_LAT_MMA}, {"HGMMA", TENSOR, COALSIM_LAT_MMA}, {"IMMA", TENSOR, COALSIM_LAT_MMA},
    {"DMMA", TENSOR, COALSIM_LAT_MMA}, {"STSM", LSU, NONE}, {"LDGSTS", LSU, NONE}, {"LDGDEPBAR", CBU, NONE},
    /* the uniform datapath: one value for the warp, its own pipe */
    {"UIADD3", UNI, COALSIM_LAT_ALU}, {"UIMAD", UNI, COALSIM_LAT_ALU}, {"ULEA", UNI, COALSIM_LAT_ALU},
    {"USHF", UNI, COALSIM_LAT_ALU}, {"ULOP3", UNI, COALSIM_LAT_ALU}, {"UPLOP3", UNI, COALSIM_LAT_ALU},
    {"UISETP", UNI, COALSIM_LAT_ALU}, {"USEL", UNI, COALSIM_LAT_ALU}, {"UIMNMX", UNI, COALSIM_LAT_ALU},
    {"UMOV", UNI, COALSIM_LAT_ALU}, {"S2UR", UNI, COALSIM_LAT_ALU}, {"R2UR", UNI, COALSIM_LAT_ALU},
    {"ULDC", UNI, COALSIM_LAT_ALU}, {"UFLO", UNI, COALSIM_LAT_ALU}, {"UPOPC", UNI, COALSIM_LAT_ALU},
    {"UBREV", UNI, COALSIM_LAT_ALU}, {"UBMSK", UNI, COALSIM_LAT_ALU}, {"USGXT", UNI, COALSIM_LAT_ALU},
    {"UPRMT", UNI, COALSIM_LAT_ALU}, {"VOTEU", UNI, COALSIM_LAT_ALU},
};

int sass_pipe_of(const char *op, unsigned *pipe, int *lat)
{
    char base[64];
    size_t n = strcspn(op, ".");
    if (n >= sizeof base) n = sizeof base - 1;
    memcpy(base, op, n);
    base[n] = '\0';
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, base)) continue;
        *pipe = table[i].pipe;
        *lat = table[i].lat;
        /* HFMA2.MMA: the FMA pipe's lite side, beside the plain HFMA2s on its heavy one */
        if (!strcmp(base, "HFMA2") && !strncmp(op + n, ".MMA", 4)) *pipe = COALSIM_PIPE_FMA;
        /* a multiply by 1 or a power of two: the FMA pipe (see above) */
        if (!strcmp(base, "IMAD") && (!strncmp(op + n, ".MOV", 4) || !strncmp(op + n, ".SHL", 4) ||
                                      !strncmp(op + n, ".IADD", 5)))
            *pipe = COALSIM_PIPE_FMA;
        return 1;
    }
    *pipe = COALSIM_PIPE_ALU;
    *lat = COALSIM_LAT_ALU;
    return 0;
}
