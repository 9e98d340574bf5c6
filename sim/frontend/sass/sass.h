/* The SASS front end's inner parts: a listing (cuobjdump -sass or nvdisasm)
 * parsed into functions of instructions, each decoded to a handler with its
 * operands, and the interpreter's state.
 *
 *   listing ─► sass_parse ─► sass_func (raw text a line) ─► sass_decode ─► sinst[]
 *                                                                │
 *   blocks of warps, a SIMT stack a call frame (sass_exec) ◄─────┘
 *                  └─► warp requests ─► coalsim_sink
 *
 * What the hardware counts is what this counts: every instruction a warp
 * issues is executed, a predicated-off one too (smsp__inst_executed). */
#ifndef COALSIM_SASS_H
#define COALSIM_SASS_H

/* Lane arrays are written for the lanes of a mask and read for the same
 * lanes; newer GCCs cannot see that and warn that the others may be unset. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"
#include "frontend/asyncgroups.h"
#include "frontend/caswords.h"
#include "frontend/cluster.h"
#include "frontend/kernel/kmem.h"
#include "frontend/smport.h"

#define SASS_RZ 255u        /* R255 reads 0, writes vanish */
#define SASS_URZ 63u
#define SASS_PT 7u          /* P7 / UP7 read true */
#define SASS_MAX_OPS 8

/* Address windows.  A generic address whose upper 32 bits are SR_SWINHI's is
 * shared (its low 32 bits the shared address); one in [GEN_LOCAL, GEN_LOCAL +
 * LOCAL_TOP) is local (c[0x0][0x20] holds GEN_LOCAL); any other is global.
 * The stack (R1) starts at LOCAL_TOP (c[0x0][0x28]) and grows down; a warp
 * keeps at most LOCAL_MAX bytes of it a lane. */
#define SASS_GEN_SHARED 0x100000000000ull
#define SASS_GEN_LOCAL 0x200000000000ull
/* constant bank 0 seen as generic memory (read-only): c[0x0][0x198] holds
 * the generic address of the parameters (SASS_GEN_CBANK0 + 0x210 on sm_90),
 * which a __grid_constant__ tensor map's address is taken from (+ 0x70 for
 * a CUtensorMap that the 128-byte alignment puts at 0x280) */
#define SASS_GEN_CBANK0 0x400000000000ull
#define SASS_LOCAL_TOP 0x1000000ull
#define SASS_LOCAL_MAX 0x100000ull
/* A cluster's CTAs, at most (the H100's non-portable size).  A shared
 * address names its CTA by rank in bits 24 and up (ULEA UR, SR_CgaCtaId,
 * off, 0x18; mapa is a PRMT of the rank into them); those bits are the
 * rank itself, 0 for a block of no cluster. */
#define SASS_MAX_CLUSTER 16
#define SASS_CL_SHIFT 24

/* ---- operands ---- */
typedef enum {
    SO_NONE, SO_R, SO_UR, SO_P, SO_UP, SO_IMM, SO_CBANK, SO_MEM, SO_SREG, SO_BAR, SO_TARGET, SO_PR,
    SO_GDESC,                  /* gdesc[URn]: HGMMA's descriptors in URn..URn+3 (tnsp: 1 A, 2 B MN-major) */
    SO_GSB                     /* gsb0: the warpgroup MMAs' scoreboard group */
} sokind;

typedef struct sopnd {
    uint8_t kind;
    uint8_t neg, abs, not_;    /* '-', '|..|', '!' / '~' */
    uint8_t half;              /* HFMA2 half selects: 0 none, 1 H0_H0, 2 H1_H1, 3 F32 */
    uint8_t wide;              /* R2.64 in an address */
    uint8_t scale;             /* [R2.X4]: the register times 4 (sm_80), 0: 1 */
    uint16_t reg;              /* R, UR, P, UP number; SREG id */
    uint64_t imm;              /* IMM bits (float immediates as f32, or f64 for D ops); TARGET address */
    int isfloat;               /* the immediate was written as a float */
    int hex;                   /* ... or in hex (raw bits for a float operation) */
    double fval;
    /* CBANK c[bank][reg+off]; MEM [reg(.64)+ureg+off] */
    uint16_t bank, ureg;
    int64_t off;
    uint16_t desc;             /* desc[URn] (ignored: a memory descriptor) */
    uint8_t tnsp;              /* SO_GDESC: 1 A, 2 B transposed (MN-major) */
    char *label;               /* SO_TARGET written as `(name): resolved by the parser, then freed */
} sopnd;

/* One line of a listing. */
typedef struct sraw {
    uint64_t addr;             /* the instruction's address */
    unsigned line;             /* line in the listing */
    unsigned src_file, src_line;   /* nvdisasm -g: "//## File ..., line N" before it (file index), 0: none */
    int guard;                 /* -1 none; else P0..P7 (UP: 8 + n) */
    int guard_neg;
    char op[64];               /* the opcode with its modifiers ("IMAD.WIDE.U32") */
    sopnd ops[SASS_MAX_OPS];
    unsigned nops;
    char text[160];            /* the instruction as written, for messages */
} sraw;

typedef struct sass_func {
    char *name;                /* mangled */
    sraw *insts;
    unsigned ninsts, cap;
    unsigned regs;             /* .sectioninfo @"SHI_REGISTERS=N" (nvdisasm without -c), 0: not listed */
} sass_func;

/* A constant bank's bytes as nvdisasm (without -c) prints its sections:
 * .nv.constantN.FUNC (a kernel's: bank 2 holds ptxas's literals on sm_80)
 * or .nv.constantN (the module's: bank 3 its __constant__ data). */
typedef struct sass_csec {
    char *func;                /* NULL: the module's */
    unsigned bank;
    unsigned char *data;
    size_t size, cap;
    /* ".dword SYMBOL": the address of a symbol the driver fills in (bank 4:
     * __device__ variables, runtime functions) at OFF */
    struct {
        size_t off;
        char *sym;
    } *relocs;
    unsigned nrelocs;
} sass_csec;

typedef struct sass_listing {
    char *name;                /* the file, for messages */
    sass_csec *csecs;
    unsigned ncsecs;
    /* .nv.shared.FUNC sections: a kernel's static shared bytes */
    struct {
        char *func;
        uint64_t bytes;
    } *shared;
    unsigned nshared;
    char arch[16];             /* "sm_90" */
    sass_func *funcs;
    unsigned nfuncs, capfuncs;
    char **files;              /* source files named by nvdisasm -g */
    unsigned nfiles;
} sass_listing;

/* Parse a listing (cuobjdump -sass, nvdisasm, with or without -g).  NULL
 * with "NAME:LINE: why" in ERR. */
sass_listing *sass_parse(const char *text, size_t len, const char *name, char *err, size_t cap);
void sass_listing_free(sass_listing *l);

/* ---- decoded code ---- */

struct sctx;
struct swarp;
struct sinst;
typedef int (*sop_fn)(struct sctx *x, struct swarp *w, const struct sinst *in, uint32_t m);

/* Scoreboard slots (sass_sched.c): R0..R254, UR0..UR62, P0..P6, UP0..UP6. */
#define SASS_SB_UR 256u
#define SASS_SB_P 320u
#define SASS_SB_UP 328u
#define SASS_SB_SLOTS 336u
#define SASS_SB_SRCS 16
#define SASS_SB_DSTS 8

/* SK_WAIT: an instruction that may have to wait for other warps (an
 * mbarrier's phase, a warpgroup meeting at HGMMA): its handler runs before
 * the warp issues it and returns 1 when it must wait (the warp sleeps,
 * nothing counted, and runs it again after the others have moved) */
typedef enum { SK_OP, SK_MEM, SK_BRA, SK_BRADIV, SK_CALL, SK_RET, SK_EXIT, SK_BAR, SK_NOP, SK_WAIT, SK_UNSUPPORTED } skind;

typedef struct sinst {
    skind kind;
    sop_fn fn;
    uint8_t nops;
    uint8_t width;             /* memory: bytes a lane; others: op-specific */
    uint8_t sub, sub2, sub3;   /* op-specific selectors */
    uint16_t rrun;             /* registers its first R operand's run covers (HGMMA's D), 0: up to 4 */
    uint8_t flags;
    int8_t guard;              /* -1, P0..P7, 8 + UP0..UP7 */
    uint8_t guard_neg;
    int8_t cs_space, cs_op;    /* memory: counted as (coalsim space, op), -1 none */
    uint32_t target;           /* branches and calls: instruction index */
    uint32_t reconv;           /* branches: the immediate post-dominator's index */
    sopnd o[SASS_MAX_OPS];
    const char *label;         /* memory: the access label */
    uint32_t label_id;
    uint32_t line;             /* listing line */
    uint16_t src_file;         /* 1 + index into the listing's files, 0: none */
    uint32_t src_line;
    const char *text;
    const char *why;           /* SK_UNSUPPORTED: why, or NULL (an unknown opcode) */
    uint64_t addr;
    /* the time model's view (sass_sched.c): its pipe, its latency class, the
     * scoreboard slots it reads and writes */
    uint8_t pipe, pipe_known;
    uint8_t async;             /* SASS_ASYNC_*: an LDGSTS, LDGDEPBAR or DEPBAR.LE (sass_sched.c's groups) */
    int8_t lat;
    uint8_t sb_nsrc, sb_ndst;
    uint16_t sb_src[SASS_SB_SRCS], sb_dst[SASS_SB_DSTS];
} sinst;

/* in->async: LDGSTS (a copy), LDGDEPBAR (commit), DEPBAR.LE SB0 (wait); HGMMA (its gsb0 commits) and
 * WARPGROUP.DEPBAR.LE gsb0 (wait) */
enum { SASS_ASYNC_NONE, SASS_ASYNC_COPY, SASS_ASYNC_COMMIT, SASS_ASYNC_WAIT, SASS_ASYNC_GMMA, SASS_ASYNC_GMMA_COMMIT,
       SASS_ASYNC_GMMA_WAIT };
#define SF_SIGNED 1
#define SF_X 2                 /* .X: carry in */
#define SF_HI 4
#define SF_FTZ 8
#define SF_SAT 16
#define SF_L2_ONLY 32              /* a global load L1 does not serve: .STRONG.GPU, .STRONG.SYS, .MMIO (coalsim_request.l2_only) */

typedef struct sprog {
    const sass_listing *lst;
    int entry;                 /* function index of the kernel */
    sinst *code;               /* the kernel's instructions (callees are in the same function body) */
    uint32_t ncode;
    char **labels;
    unsigned nlabels, caplabels;
    /* constant banks: bank 0 (launch: ntid, nctaid, parameters from 0x210),
     * bank 3 (__constant__ variables), bank 4 (addresses of __device__ variables) */
    unsigned char *bank[8];
    uint32_t bank_size[8];
    uint32_t param_base;       /* where parameters start in bank 0 (0x210 on sm_90) */
    uint64_t smem_reserved;    /* the system's shared bytes before the variables */
    int ext_vprintf, ext_assert;   /* the PTX declares vprintf, __assertfail (what a CALL.ABS calls) */
    const char **b4sym;        /* bank 4, slot (8 bytes) by slot: the symbol whose address it holds, or NULL */
    unsigned nregs;            /* registers R0..R(nregs-1) cover every one the code names (a block clears only those) */
    unsigned nb4sym;
} sprog;

/* Bank 4 words a listing does not resolve: 0xdead0000_OFFSET (a variable's
 * address: using it is an error naming the slot) and 0xdeaf0000_SLOT (a
 * runtime function, for CALL.ABS). */
#define SASS_B4_POISON 0xdead0000u
#define SASS_B4_FUNC 0xdeaf0000u

/* Decode function FI of L for running.  0, or -1 with "FILE:LINE: why". */
int sass_prog_build(sprog *p, const sass_listing *l, int fi, char *err, size_t cap);
void sass_prog_free(sprog *p);
int sass_cfg_reconv(sprog *p);

/* ---- execution ---- */

#define SASS_MAX_DEPTH 64

typedef struct sstack_entry {
    uint32_t pc, rpc, mask;
    uint32_t parent;           /* 1: its lanes diverged; its pc is where they rejoin, not where they arrived */
} sstack_entry;

typedef struct scall {
    uint32_t ret_pc;           /* where RET returns */
    uint32_t mask;             /* lanes that called */
    uint32_t sp;               /* the SIMT stack depth at the call */
} scall;

typedef enum { SW_RUN, SW_BAR, SW_WAIT, SW_DONE } swstate;

typedef struct swarp {
    uint32_t r[256][32];       /* R0..R254, RZ */
    uint32_t ur[64];           /* UR0..UR62, URZ */
    uint32_t p[8];             /* lane masks of P0..P6, PT */
    uint8_t up[8];             /* UP0..UP6, UPT */
    unsigned cta;              /* its CTA's rank in the cluster (SR_CgaCtaId) */
    uint64_t cl_arrived;       /* UCGABAR_ARV: 1 + the cluster barrier's phase it arrived in; 0: none pending */
    int bar_counted;           /* at a barrier with a thread count: 1 + its id (0: none, or __syncthreads) */
    sstack_entry *stack;
    uint32_t sp, cap;
    /* BSYNCs that groups of lanes issued on arriving apart: the lanes counted
     * so far at each (the rejoined warp issues it only for lanes not counted) */
    struct {
        uint32_t pc, lanes;
    } arrived[16];
    unsigned narrived;
    scall calls[SASS_MAX_DEPTH];
    unsigned depth;
    uint32_t alive, exited;
    swstate state;
    unsigned index;
    uint64_t clock;
    uint8_t *local;            /* lane-major local memory */
    uint64_t local_cap;
    /* the critical path (sass_sched.c), times packed as cycle << 24 | loads */
    uint64_t sb_ready[SASS_SB_SLOTS];   /* when each slot's value is ready */
    uint64_t sb_t;             /* the earliest the next instruction may issue */
    uint64_t sb_issued;        /* instructions issued since the last barrier */
    uint64_t sb_pipe[COALSIM_PIPES];   /* and on each pipe */
    async_groups sb_async;     /* LDGSTS groups (LDGDEPBAR closes one; DEPBAR.LE SB0, N waits) */
    async_groups sb_gmma;      /* HGMMA groups (gsb0 closes one; WARPGROUP.DEPBAR.LE gsb0, N waits) */
    tma_rounds sb_tma;         /* its tensor copies' rounds (asyncgroups.h) */
    uint8_t gmma_done;         /* its warpgroup's HGMMA was computed by the group's last warp to arrive */
    /* loops sampled inside blocks (sass_loop.c) */
    struct sloop *loop;        /* the loop it is in, made at its first back edge */
    uint8_t loop_rec;          /* recording the iteration it runs */
    /* shared float adds' compare-and-store loops (ATOMS.CAST.SPIN; caswords.h) */
    uint32_t cas_open;         /* lanes whose last pass failed: they are in an add */
    uint32_t cas_extra;        /* passes of that add that other warps' stores make fail */
    double cas_frac;           /* and the expected part of a pass carried to its next add */
} swarp;

/* A CTA of the cluster a worker runs (a block of no cluster: cta[0]). */
typedef struct scta {
    uint64_t block_id;
    unsigned bx, by, bz;
    uint8_t *smem;
    uint64_t tma_loads;        /* its tensor loads so far */
} scta;

typedef struct sctx {
    const sprog *prog;
    kmem *mem;
    kmem_tlb tlb;
    coalsim_sink sink;
    unsigned grid[3], block[3];
    /* the CTA whose warp runs (sass_select_cta): its block, its shared memory */
    uint64_t block_id;
    unsigned bx, by, bz;
    uint8_t *smem;
    uint64_t smem_bytes;       /* the reserved bytes, the variables and the dynamic ones */
    /* clusters: NCTA CTAs of CDIM run together, the grid's units are clusters */
    unsigned ncta, cdim[3], cur;
    int explicit_cluster;
    scta cta[SASS_MAX_CLUSTER];
    cluster_bar cl;                        /* the cluster barrier (UCGABAR; frontend/cluster.h) */
    unsigned bar_arrived[SASS_MAX_CLUSTER][16];   /* barriers with a thread count: warps arrived, by CTA and id */
    uint64_t local_bytes;      /* a thread's local memory (the stack: c[0x0][0x28]) */
    coalsim_exec exec;
    const coalsim_arch *arch;  /* the analysis's, for requests modelled here (cp.async) */
    uint64_t *icount;          /* per instruction: warp issues, then lanes (2 a slot) */
    /* the critical path (sass_sched.c): kept only with a profile */
    int sb_on;
    int interleave;             /* a warp yields after each memory instruction (the requests' order is reported) */
    double sb_stagger;          /* cycles between the starts of a SM's blocks (the profile's block_ns) */
    sm_port sb_smport;          /* the SM's port from L2 (smport.h) */
    cas_words cas;              /* shared float adds: which warps meet on which words (caswords.h) */
    double sb_pipe_rate[COALSIM_PIPES];   /* the profile's warp-instructions a SM's pipe does a cycle */
    uint64_t sb_lat[COALSIM_LATS];         /* packed */
    uint64_t sb_load_lat, sb_bar_lat;      /* packed; a load adds one to the count */
    uint64_t sb_bar;                       /* when the block's last barrier opened */
    uint64_t sb_now;                       /* when the instruction running issued */
    double sb_smem_wf;                     /* the shared wavefronts it asked for (sass_sched_smem) */
    /* Hopper's asynchronous path (sass_ops_async.c): when each mbarrier
     * (by shared offset) last had something in, a tensor copies' round
     * (packed cycles) of sb_tma_window bytes, a wgmma cycle in SM cycles */
    mbar_times sb_mbar;
    uint64_t sb_tma_round, sb_tma_window;
    double sb_gmma_cycles;
    struct tma_merge *tma_merge;           /* boxes read by CTAs of a merge domain at once (tmamerge.h) */
    swarp *warps;
    unsigned nwarps;
    /* loops sampled inside blocks (sass_loop.c), when loop_on */
    int loop_on;
    struct sloop_info **loop_info;         /* by back edge: the loop, made at first use */
    uint64_t *loop_skip;                   /* by instruction, LOOP_COUNTS each (loopjump.h): what the requests of
                                            * the iterations jumped over add */
    double loop_fig[3];                    /* and their requests, sectors and wavefronts */
    uint64_t loop_jumps, loop_iters, loop_insts;   /* jumps, the warp iterations and instructions they skipped */
    uint64_t loop_seen;                    /* requests made (all of them) */
    char err[512];
} sctx;

/* Run cluster B (block B where X->ncta is 1) to its end.  0, or -1 with X->err. */
int sass_run_block(sctx *x, uint64_t b);
/* Make the CTA of rank R the one running (its block, its shared memory). */
void sass_select_cta(sctx *x, unsigned r);
/* The threads of the cluster that have not exited. */
uint64_t sass_cluster_live(const sctx *x);

/* ---- loops sampled inside blocks (sass_loop.c) ----
 * Setup: the worker may jump over iterations from now on.  0, or -1 if
 * memory runs out.  The interpreter calls sass_loop_backedge at each
 * backward branch the whole warp takes (instruction PC): where the loop and
 * the warp's last iterations allow, the warp jumps (0, or -1 with X->err);
 * sass_loop_note for each instruction a recording warp issues (lanes MASK,
 * M of them on) before it runs, sass_loop_request for each request it
 * makes; sass_loop_block when a warp starts a block. */
int sass_loop_setup(sctx *x);
void sass_loop_free(sctx *x);
int sass_loop_backedge(sctx *x, swarp *w, uint32_t pc);
void sass_loop_note_slow(sctx *x, swarp *w, uint32_t pc, uint32_t mask, uint32_t m);
static inline void sass_loop_note(sctx *x, swarp *w, uint32_t pc, uint32_t mask, uint32_t m)
{
    if (w->loop_rec) sass_loop_note_slow(x, w, pc, mask, m);
}
void sass_loop_request(sctx *x, const swarp *w, const coalsim_request *r);
void sass_loop_block(swarp *w);

/* ---- the time model's view (sass_pipe.c, sass_sched.c) ---- */

#define SASS_LAT_NONE (-1)     /* no result to wait for */
#define SASS_LAT_LOAD (-2)     /* a global or local load: counted apart on the path */

/* The pipe and the latency class (coalsim_lat or SASS_LAT_*) of the opcode
 * OP ("IMAD.MOV.U32": modifiers may matter).  1, or 0 for an opcode the
 * table does not know (then ALU and ALU latency). */
int sass_pipe_of(const char *op, unsigned *pipe, int *lat);
/* Set IN's pipe, latency class and scoreboard slots from its line RI. */
void sass_sched_decode(const sraw *ri, sinst *in);
/* Turn the critical path on (P: the profile's latencies; NULL: off; SMS,
 * L1_BYTES: the GPU's, and HELD: the blocks a SM holds at once, for the
 * SM's port and pipes, smport.h).  0, or -1 if memory runs out. */
int sass_sched_setup(sctx *x, const coalsim_profile *p, unsigned sms, uint64_t l1_bytes, unsigned held);
/* A block starts: every warp's scoreboard clear. */
void sass_sched_block_start(sctx *x, unsigned nwarps);
/* Warp W issues IN with lanes M executing it (0: none, and its results are
 * not written). */
void sass_sched_issue(sctx *x, swarp *w, const sinst *in, uint32_t m);
/* Hand an LDSM's or STSM's request R to the sink (0, or the sink's
 * error); with smport.h's calendars (the SM's pipes), its
 * wavefronts add to the instruction's, and sass_sched_smem makes IN's
 * destinations ready when the SM's shared data pipe has served them (LDS
 * and STS do not queue so). */
int sass_sched_shared(sctx *x, const coalsim_request *r);
void sass_sched_smem(sctx *x, swarp *w, const sinst *in);
/* The block's warps all arrived at a barrier: it opens. */
void sass_sched_barrier(sctx *x, unsigned nwarps);
/* The block is done: its path into x->exec. */
void sass_sched_block_end(sctx *x, unsigned nwarps);

/* ---- a launch (sass_launch.c) ---- */

/* What the launch and the kernel's PTX give the SASS: the launch, the
 * parameters' bytes (the PTX's layout, the ABI's), the __constant__ data,
 * the shared bytes. */
typedef struct sass_launch_info {
    kmem *mem;
    unsigned grid[3], block[3];
    uint64_t blocks;
    const unsigned char *params;
    uint64_t param_bytes;
    /* each parameter's offset in PARAMS, bytes and alignment (NPARAMS of
     * them; 0: PARAMS go to the bank as they are).  The bank aligns a
     * parameter in its own addresses (sm_90's start at 0x210, so a 128-byte
     * aligned CUtensorMap goes to 0x280, not 0x210) */
    unsigned nparams;
    const uint32_t *param_off, *param_size, *param_align;
    const unsigned char *const_bank;
    uint64_t const_bytes;
    int no_module;             /* no PTX: __constant__ data unknown (reading it is an error) */
    uint64_t static_smem;      /* the reserved bytes and the variables */
    uint64_t smem_slack;       /* bytes more, for a layout ptxas packs otherwise */
    uint64_t dynamic_shared;
    int ext_vprintf, ext_assert;
    /* the address of a module variable by name, or 0 (bank 4's symbols) */
    uint64_t (*symbol)(void *ctx, const char *name);
    void *symbol_ctx;
    unsigned threads;          /* workers */
    unsigned regs;             /* registers a thread (coalsim_launch's), 0: not known; the listing's win */
    const char *regs_from;
    uint64_t user_smem;        /* a block's shared bytes, static and dynamic, as the PTX gives them */
    coalsim_progress_fn progress;
    void *progress_ctx;
    coalsim_sample_cfg sample;     /* which blocks run */
    unsigned sms;                  /* the GPU's SMs (a sample's window) */
    unsigned cluster[3];           /* CTAs a cluster (0s: no clusters); the grid a multiple of it (the caller checks) */
    int explicit_cluster;          /* the launch or the kernel asked for clusters (%is_explicit_cluster) */
} sass_launch_info;

/* A PTX module of empty entries, one a function of L, with the parameters
 * its mangled name gives (malloc'd, *LEN bytes); a parameter it does not
 * give is named __coalsim_unknown_N.  NULL with why in ERR. */
char *sass_stub_ptx(const sass_listing *l, size_t *len, char *err, size_t cap);
/* The function named MANGLED in L, or -1. */
int sass_find_func(const sass_listing *l, const char *mangled);
/* Run the launch of KERNEL (mangled) into AN (made from CFG), and set what
 * executed (every instruction's count too) on AN.  0, or -1 with why in ERR. */
int sass_launch(const sass_listing *l, const char *kernel, const sass_launch_info *li, coalsim_analysis *an,
                const coalsim_analysis_cfg *cfg, char *err, size_t cap);
void sass_ctx_free(sctx *x);
int sass_fail(sctx *x, const sinst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Operand access (sass_exec.c): the values of source operand O for all 32
 * lanes, into OUT (a register's row is returned as it is, without copying). */
const uint32_t *sass_src(const sctx *x, const swarp *w, const sopnd *o, uint32_t *out);
/* The predicate O (with '!') as a lane mask. */
uint32_t sass_pred(const swarp *w, const sopnd *o);
void sass_set_pred(swarp *w, unsigned p, uint32_t value, uint32_t m);

/* The decoders (ops files): NAME is the base opcode ("IMAD"); decode fills IN. */
typedef struct sop_entry {
    const char *name;
    int (*decode)(sprog *p, const sraw *ri, sinst *in, char *err, size_t cap);
} sop_entry;

extern const sop_entry sass_ops_int[], sass_ops_float[], sass_ops_mem[], sass_ops_misc[], sass_ops_matrix[],
    sass_ops_async[];
/* What warp W, asleep at the SK_WAIT instruction IN, waits for, into BUF
 * (sass_ops_async.c). */
void sass_wait_describe(sctx *x, swarp *w, const sinst *in, char *buf, size_t cap);
/* Global memory [A, A + SIZE) of lane L: *P.  0, or -1 with the GPU's
 * error (outside every buffer) in X.  (sass_ops_mem.c) */
int sass_global_at(sctx *x, swarp *w, const sinst *in, uint64_t a, unsigned size, int l, unsigned char **p);
/* Hand request R of warp W's memory instruction IN to the sink (its block,
 * warp and label filled in).  0, or -1 with the error in X. */
int sass_put(sctx *x, const swarp *w, const sinst *in, coalsim_request *r);
/* Lane L's SIZE bytes at the address operand O in shared memory (SHARED)
 * or global memory: *P the bytes, *REPORT the address a request reports.
 * 0, or -1 with the GPU's error (misaligned, outside) in X.  (sass_ops_mem.c) */
/* Lane L's global address by the memory operand O. */
uint64_t sass_lane_addr(const struct swarp *w, const sopnd *o, int l);
int sass_locate(struct sctx *x, struct swarp *w, const struct sinst *in, int shared, const sopnd *o, unsigned size, int l,
                unsigned char **p, uint64_t *report);

int sass_has_mod(const sraw *ri, const char *mod);
/* Every modifier of RI known for its BASE opcode (sass_mods.c)?  0, or -1
 * naming the one that is not in ERR. */
int sass_check_mods(const sprog *p, const sraw *ri, const char *base, char *err, size_t cap);
int sass_dec_fail(const sprog *p, const sraw *ri, char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define LANES_S(m, ...)                                                                      \
    do {                                                                                     \
        uint32_t m_ = (m);                                                                   \
        if (m_ == 0xffffffffu) {                                                             \
            for (int l = 0; l < 32; l++) { __VA_ARGS__; }                                    \
        } else {                                                                             \
            for (; m_; m_ &= m_ - 1) {                                                       \
                int l = __builtin_ctz(m_);                                                   \
                __VA_ARGS__;                                                                 \
            }                                                                                \
        }                                                                                    \
    } while (0)

/* The destination register row (RZ: a scratch row). */
#define DST(w, reg) ((reg) == SASS_RZ ? (w)->r[SASS_RZ] : (w)->r[(reg)])

#endif
