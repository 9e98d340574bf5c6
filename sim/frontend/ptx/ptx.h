/* The PTX front end's inner parts: the module a .ptx file parses into, the
 * decoded instructions the interpreter runs, and the interpreter's state.
 *
 *   text ─► ptx_lex ─► ptx_parse ─► ptx_module (functions of raw statements)
 *                                        │ ptx_decode (one function and its callees)
 *                                        ▼
 *            pinst[]: opcode, handler, operand slots, branch targets,
 *                     reconvergence points (ptx_cfg), source labels
 *                                        │ ptx_exec: blocks of warps, a SIMT
 *                                        ▼ stack a call frame, barriers
 *                      warp requests ─► coalsim_sink
 *
 * Registers live in slots of 32 lanes x 64 bits: a value of a narrower type
 * sits in the low bits.  Predicates are one 32-bit lane mask each.
 * Immediates and special registers (%tid.x, ...) are slots too, filled when
 * a warp starts, so every operand is a slot and every handler is a loop
 * over lanes. */
#ifndef COALSIM_PTX_H
#define COALSIM_PTX_H

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
#include "wide.h"

/* ---- types ---- */
typedef enum {
    PT_NONE = 0,
    PT_B8, PT_B16, PT_B32, PT_B64, PT_B128,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_F32, PT_F64,
    PT_PRED,
    PT_COUNT
} ptype;

unsigned ptype_bytes(ptype t);      /* 1..16; 0 for none and pred */
int ptype_signed(ptype t);
int ptype_float(ptype t);           /* f16, bf16 (and x2), f32, f64 */
ptype ptype_parse(const char *s);   /* "s32" -> PT_S32, or PT_NONE */
const char *ptype_name(ptype t);

/* ---- the lexer ---- */
typedef enum { TK_EOF, TK_IDENT, TK_DIR, TK_INT, TK_F32, TK_F64, TK_FLOAT, TK_STRING, TK_PUNCT } tkind;

typedef struct token {
    tkind kind;
    const char *s;       /* into the text */
    unsigned len;
    unsigned line;
    int space_before;    /* whitespace (or a comment) before it */
    uint64_t ival;       /* TK_INT value; TK_F32/TK_F64 bits */
    double fval;         /* TK_FLOAT */
} token;

typedef struct ptx_lexer {
    const char *p, *end;
    unsigned line;
    token cur;
    char err[256];
    int failed;
} ptx_lexer;

void ptx_lex_init(ptx_lexer *lx, const char *text, size_t len);
/* Advance: lx->cur becomes the next token (TK_EOF at the end). */
void ptx_lex_advance(ptx_lexer *lx);
int ptx_tok_is(const token *t, const char *s);   /* exactly this text */

/* ---- the module ---- */

/* A raw instruction: the opcode and its dot-modifiers, the operands as the
 * parser split them; decoded later, only in functions that are run. */
#define PTX_MAX_MODS 12
#define PTX_MAX_OPS 8

typedef enum { RO_REG, RO_IMM, RO_FIMM, RO_FLOAT, RO_ADDR, RO_VEC, RO_LIST, RO_SINK } rokind;

/* Names point into the module's string arena. */
typedef struct raw_operand {
    rokind kind;
    int neg;                   /* '!' before a predicate */
    const char *name;          /* register, symbol, label or special register ("%tid.x") */
    const char *name2;         /* "%p1|%p2": the second predicate */
    uint64_t imm;              /* RO_IMM value; RO_FIMM bits (f32 when fimm_bytes is 4) */
    unsigned fimm_bytes;
    double fval;               /* RO_FLOAT: a decimal float literal */
    int64_t off;               /* RO_ADDR: [name+off] or [off] (name NULL) */
    unsigned nvec;             /* RO_VEC / RO_LIST members; RO_ADDR: a tensor's coordinates [tmap, {c0, ...}] */
    const char **vec;          /* NULL member: '_' */
} raw_operand;

/* Statements that are not instructions, kept in order for the decoder's
 * scopes: a '{' or '}' of a nested scope (inline asm, call sequences), and
 * the register and variable declarations in it. */
typedef enum { RP_NONE = 0, RP_OPEN, RP_CLOSE, RP_REGS, RP_VARS } rpseudo;

typedef struct raw_inst {
    rpseudo pseudo;            /* RP_NONE: an instruction or a label */
    unsigned first, count;     /* RP_REGS: f->regs[first..]; RP_VARS: module vars[first..] */
    unsigned line;             /* PTX line */
    unsigned file, src_line;   /* .loc in force: file number, line (0: none) */
    unsigned inl_file, inl_line;   /* the outermost inlined_at, or 0 */
    const char *guard;         /* NULL or the guard predicate */
    int guard_neg;
    const char *label;         /* not NULL: a label, not an instruction */
    char opcode[24];
    char mods[PTX_MAX_MODS][32];    /* mbarrier::complete_tx::bytes */
    unsigned nmods;
    raw_operand ops[PTX_MAX_OPS];
    unsigned nops;
} raw_inst;

typedef enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM, SP_GENERIC, SP_COUNT } pspace;

typedef struct ptx_var {
    const char *name;
    pspace space;
    ptype type;
    unsigned align;
    uint64_t bytes;            /* 0 for an extern array (dynamic shared) */
    int is_extern;
    unsigned char *init;       /* initial bytes or NULL */
    unsigned line;
    int func;                  /* declared in function FUNC (-1: module) */
} ptx_var;

typedef struct ptx_param {
    const char *name;
    ptype type;
    uint64_t bytes;            /* a .b8 array: its size */
    unsigned align;
    int is_array;
} ptx_param;

typedef struct ptx_reg_decl {
    const char *prefix;        /* "%r" for %r<5>, or the full name */
    unsigned count;            /* 0: a single register named prefix */
    ptype type;
} ptx_reg_decl;

typedef struct ptx_func {
    const char *name;
    int is_entry, has_body;
    unsigned line;
    ptx_param *params;         /* the inputs */
    unsigned nparams;
    ptx_param *rets;           /* a .func's return params */
    unsigned nrets;
    ptx_reg_decl *regs;
    unsigned nregs;
    raw_inst *insts;           /* instructions and labels, in order */
    unsigned ninsts, capinsts;
    unsigned maxntid[3], reqntid[3];
    unsigned reqncluster[3];   /* .reqnctapercluster (__cluster_dims__): 0 if none */
} ptx_func;

typedef struct ptx_arena_chunk ptx_arena_chunk;

typedef struct ptx_module {
    char *name;                /* the file, for messages */
    ptx_arena_chunk *arena;    /* strings and operand lists */
    unsigned version_major, version_minor;
    char target[32];
    ptx_var *vars;
    unsigned nvars, capvars;
    ptx_func *funcs;
    unsigned nfuncs, capfuncs;
    char **files;              /* .file N "path": files[N] (NULL where absent) */
    unsigned nfiles;
} ptx_module;

/* Parse TEXT (named NAME).  NULL on error with "NAME:LINE: why" in ERR. */
ptx_module *ptx_parse(const char *text, size_t len, const char *name, char *err, size_t cap);
void ptx_module_free(ptx_module *m);
/* A copy of S in M's string arena (NULL: out of memory). */
const char *ptx_module_str(ptx_module *m, const char *s);
/* Rewrite F's atom/red.shared.add.f32/.f64 into the compare-and-store loop
 * ptxas makes of them, where M's target does (ptx_lower.c).  -1 with
 * "FILE:LINE: why" in ERR. */
int ptx_lower_shared_fadd(ptx_module *m, ptx_func *f, char *err, size_t cap);
int ptx_find_func(const ptx_module *m, const char *name);

#define PTX_SMEM_RESERVED 1024u

/* ---- decoded code ---- */

typedef enum {
    K_OP,          /* a data instruction: call fn */
    K_MEM,         /* a memory instruction (fn too): the warp yields after it */
    K_BRA, K_CALL, K_RET, K_EXIT, K_BAR, K_NOP, K_TRAP, K_UNSUPPORTED,
    K_WAIT         /* a wait (mbarrier.try_wait): fn returns 1 when it must wait, and the warp sleeps */
} pkind;

struct pctx;
struct pwarp;
struct pinst;
typedef int (*pop_fn)(struct pctx *x, struct pwarp *w, const struct pinst *in, uint32_t m);

#define PTX_SB_SRCS 6              /* scoreboard operands an instruction reads, at most */
#define PTX_SB_DSTS 4              /* and writes */
#define PTX_SB_PRED 0x80000000u    /* while decoding: a predicate's index */
#define SB_LEADER 8                /* sb_flags: the first instruction of a basic block */
#define SB_IFCONV 16               /* a branch ptxas turns into predication */
#define SB_UNROLL 32               /* the backward branch of a loop ptxas unrolls */
#define SB_CMP_IMM 64              /* a setp with a constant operand */
#define PTX_UNROLL 4               /* iterations of a small counted loop ptxas joins */
#define PTX_WINDOW 8               /* an instruction other than a load issues after the one this many before it */
#define PTX_SB_LOADS_MASK ((1ull << 24) - 1)   /* scoreboard times are cycle << 24 | loads (ptx_sched.c) */
#define PTX_HOIST 48               /* an instruction issues after every one this many or more before it
                                      (ptxas moves loads up only so far) */
_Static_assert(PTX_WINDOW < PTX_HOIST, "the issue ring (PTX_HOIST) must reach back PTX_WINDOW");
#define SB_LOAD 128                /* sb_flags: a load or 64-bit address arithmetic, which ptxas may move up past any number of others */
#define SB_ST_GLOBAL 256           /* sb_flags: writes global, local or generic memory (a store, reduction, atomic) */
#define SB_ST_SHARED 512           /* writes shared (or generic) memory */
#define SB_LD_GLOBAL 1024          /* reads global, local or generic memory that a store may have written */
#define SB_LD_SHARED 2048          /* reads shared (or generic) memory */
#define SB_ASYNC 4096              /* cp.async: its copy joins the warp's open group */
#define SB_ASYNC_COMMIT 8192       /* cp.async.commit_group (wait_all: commit, then wait for all) */
#define SB_ASYNC_WAIT 16384        /* cp.async.wait_group N (pinst.imm) or wait_all: the warp waits for its older groups */
#define SB_L1_BYPASS 32768         /* a global load that skips L1 (cp.async.cg, ptx_load_l2_only's): its bytes always come through the SM's port */
#define PTX_SCLASSES 56            /* execution classes (ptx_sched.c) */

typedef struct pinst {
    pkind kind;
    pop_fn fn;
    uint8_t type, type2;       /* ptype of the result and, where different, the source */
    uint8_t sub;               /* an op-specific selector (compare, shfl mode, atomic op, ...) */
    uint8_t sub2;              /* setp's boolean combination, rounding mode, ... */
    uint8_t space;             /* pspace of a memory instruction */
    uint8_t nvec;              /* vector members of ld/st (1, 2, 4) */
    uint8_t flags;             /* PF_* */
    int16_t guard;             /* predicate index, or -1 */
    uint8_t guard_neg;
    uint8_t npred_neg;         /* bit k: predicate source k is negated */
    uint32_t d, d2;            /* destination slots (d2: setp's second predicate, shfl's predicate) */
    uint32_t a, b, c, e;       /* source slots (or predicate indices for predicate operands) */
    uint32_t v[4];             /* ld/st vector members (slots) */
    int64_t off;               /* address offset */
    uint32_t addr_slot;        /* address register slot, or UINT32_MAX for [sym+off] / [off] */
    uint64_t addr_base;        /* [sym+off]: the symbol's address in its space */
    int addr_local_sym;        /* the symbol is a .local variable: frame-relative */
    uint32_t target;           /* bra: instruction index; call: callee function index */
    uint32_t reconv;           /* bra: the immediate post-dominator's instruction index */
    int8_t cs_space, cs_op;    /* memory instructions: the coalsim space and op they count as (-1: none) */
    uint32_t line;             /* PTX line */
    const char *label;         /* memory instructions: the access label */
    uint32_t label_id;         /* its number (the request's label_id) */
    const char *text;          /* the opcode with modifiers, for messages */
    uint32_t src_file;         /* 1 + the module's .file index of its source line (the user's, not a header's), 0: none */
    uint32_t src_line;
    uint32_t call_args, call_nargs, call_rets, call_nrets;   /* call: indices into the function's call table */
    pop_fn fn_imm;             /* the handler for a constant second operand, where there is one */
    uint64_t imm;              /* and that constant, when fn is fn_imm */
    /* the time model's scoreboard (ptx_sched.c): the class, and the slots
     * read and written (predicates after the function's register slots) */
    uint8_t sb_cls, sb_nsrc, sb_ndst;
    uint16_t sb_flags;
    uint8_t sb_group;          /* a shared load that leads SB_GROUP loads ptxas joins into one vector load */
    uint8_t sb_lane_bytes;     /* a global load or cp.async: the bytes a lane brings in through the SM's port (0: none) */
    uint8_t agg;               /* a global atomic ptxas sends as one lane's request a warp (ptx_agg.c) */
    uint8_t spin;              /* a pass of a shared float add's compare-and-store loop (ptx_lower.c) */
    uint8_t l2_only;           /* a global load L1 does not serve (coalsim_request.l2_only) */
    uint32_t sb_src[PTX_SB_SRCS], sb_dst[PTX_SB_DSTS];
    uint32_t sb_uses, sb_nuses;  /* a block's leader: the slots the block reads before it writes them (pfunc.sb_uses) */
    /* matrix instructions (ptx_ops_matrix.c): their register operands, in
     * order, at pfunc.xslots[xs..xs + nxs); cp.async: the source address */
    uint32_t xs, nxs;
    uint32_t addr2_slot;       /* as addr_slot, off, addr_base for the second address */
    int64_t off2;
    uint64_t addr2_base;
} pinst;

#define PF_SAT 1
#define PF_FTZ 2
#define PF_VOLATILE 4
#define PF_WIDE 8
#define PF_HI 16
#define PF_UNI 32
#define PF_APPROX 64
#define PF_RED 128

typedef struct pcall_arg {
    uint32_t caller_off;       /* the caller's call-site param (offset in its param area) */
    uint32_t bytes;
} pcall_arg;

/* A decoded function. */
typedef struct pfunc {
    int index;                 /* in the module */
    const ptx_func *src;
    pinst *code;
    uint32_t ncode;
    uint32_t nslots;           /* register slots incl. constants and specials */
    uint32_t npreds;
    uint64_t *consts;          /* constant slots' values: consts[k] for slot const_first + k */
    uint32_t const_first, nconsts;
    uint32_t special_first;    /* special-register slots: specials[k] for slot special_first + k */
    uint8_t *specials;         /* which special register each special slot is (sreg enum) */
    uint32_t nspecials;
    uint32_t param_bytes;      /* per-lane bytes: inputs, returns, call-site params */
    uint32_t *param_off;       /* input k's offset */
    uint32_t *ret_off;         /* return k's offset */
    uint64_t local_bytes;      /* per-lane .local bytes of this frame */
    pcall_arg *calls;          /* call-site argument tables */
    uint32_t ncalls;
    void *dec;                 /* the decoder's scratch state while decoding */
    uint32_t count_base;       /* where its instructions' counts start in a worker's icount */
    uint32_t *sb_uses;         /* the blocks' upward-exposed slots (pinst.sb_uses) */
    uint32_t *xslots;          /* the operand lists of matrix instructions (pinst.xs) */
    uint32_t nxslots, capxslots;
} pfunc;

typedef enum {
    SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
    SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
    SR_CLOCK, SR_CLOCK64, SR_GLOBALTIMER, SR_DYN_SMEM, SR_TOTAL_SMEM,
    SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK, SR_CLUSTER_CTAID_X, SR_CLUSTER_CTAID_Y, SR_CLUSTER_CTAID_Z,
    SR_CLUSTER_NCTAID_X, SR_CLUSTER_NCTAID_Y, SR_CLUSTER_NCTAID_Z, SR_CLUSTERID_X, SR_CLUSTERID_Y, SR_CLUSTERID_Z,
    SR_NCLUSTERID_X, SR_NCLUSTERID_Y, SR_NCLUSTERID_Z, SR_IS_EXPLICIT_CLUSTER,
    SR_COUNT
} sreg;

/* Generic addresses: the windows of the non-global spaces (the rest is
 * global memory). */
#define GEN_SHARED 0x100000000000ull
#define GEN_LOCAL 0x200000000000ull
#define GEN_CONST 0x300000000000ull
#define GEN_PARAM 0x400000000000ull    /* the kernel's parameters (cvta.param: __grid_constant__) */

/* Shared memory of a cluster (.shared::cluster): the CTA of rank R's byte
 * at offset O is (R + 1) << CL_SHIFT | O (mapa makes these); an address
 * below 1 << CL_SHIFT is the executing CTA's own (a .shared::cta address
 * is a .shared::cluster one), as in the PTX ISA's windows. */
#define CL_SHIFT 24
#define CL_OFFSET(a) ((a) & ((1ull << CL_SHIFT) - 1))
#define PTX_MAX_CLUSTER 16
#define GEN_WINDOW 0x010000000000ull

/* The program: the entry and every function it may call, decoded. */
typedef struct ptx_program {
    const ptx_module *mod;
    pfunc **funcs;             /* by module function index; NULL where not decoded */
    int entry;
    uint64_t static_smem;      /* bytes of .shared variables, the reserved ones included */
    uint64_t smem_reserved;    /* the system's shared bytes before the variables (1 KiB from sm_80 on) */
    uint64_t const_bytes;
    unsigned char *const_bank; /* the .const variables, initialised */
    uint64_t *var_addr;        /* each module variable's address in its space */
    char **labels;             /* the access labels (owned) */
    unsigned nlabels, caplabels;
    kmem *mem;                 /* global memory (module .global variables live there too) */
} ptx_program;

/* Decode the entry function ENTRY and its callees.  0, or -1 with "FILE:LINE:
 * why" in ERR.  Module .global variables get addresses in MEM, or keep the
 * ones PLACED gives (by module variable; NULL: place them now), where an
 * earlier launch of the same module left them. */
int ptx_program_build(ptx_program *p, const ptx_module *m, int entry, kmem *mem, const uint64_t *placed, char *err,
                      size_t cap);
void ptx_program_free(ptx_program *p);

/* The handler of a raw instruction, with operand checks: 0, or -1 and ERR. */
int ptx_decode_inst(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap);

/* Reconvergence points of F's branches (the immediate post-dominators). */
int ptx_cfg_reconv(pfunc *f);

/* ---- execution ---- */

#define PTX_MAX_DEPTH 64

typedef struct simt_entry {
    uint32_t pc, rpc, mask;
} simt_entry;

typedef struct pframe {
    const pfunc *fn;
    uint32_t called;           /* lanes that entered this frame */
    uint64_t *regs;            /* nslots * 32 */
    uint32_t *preds;           /* npreds */
    uint8_t *params;           /* param_bytes per lane, lane-major: lane l at params + l * param_bytes */
    uint64_t local_base;       /* this frame's .local variables in the thread's local space */
    simt_entry *stack;
    uint32_t sp, cap;
    uint32_t call_pc;          /* in the caller: the call instruction */
    /* the buffers' sizes: a frame keeps them for the next block's warps */
    size_t regs_cap, preds_cap, params_cap;
    uint64_t *sb;              /* the scoreboard: when each slot and predicate is ready (ptx_sched.c) */
    size_t sb_cap;
} pframe;

/* The flag ptx_lower.c's loop starts with (its first pass: spin_plan asks
 * caswords.h for the passes other warps make fail). */
#define PTX_CAS_FIRST 2

typedef enum { W_RUN, W_BAR, W_DONE, W_WAIT } wstate;   /* W_WAIT: asleep at a K_WAIT instruction */

typedef struct pwarp {
    pframe frames[PTX_MAX_DEPTH];
    unsigned depth;
    uint32_t alive;            /* lanes that exist */
    uint32_t exited;
    uint32_t carry;            /* each lane's CC.CF (add.cc, addc, sub.cc, subc, mad.cc, madc) */
    wstate state;
    unsigned index;            /* warp in its block */
    uint64_t clock;            /* instructions issued */
    uint8_t *local;            /* lane-major local memory: lane l at local + l * local_cap */
    uint64_t local_cap, local_top;
    uint64_t sb_t;             /* scoreboard: the basic block's issue cursor (cycle << 24 | loads) */
    uint64_t sb_end;           /* the latest issue of the basic block so far */
    uint8_t sb_pair;           /* a scalar half operation is waiting for its pair (one HFMA2 for two) */
    uint64_t sb_ring[PTX_HOIST];    /* issue times of the last PTX_HOIST instructions (a ring; sb_head: the oldest) */
    unsigned sb_head;
    uint64_t sb_floor;         /* the latest issue of the instructions before those */
    uint64_t sb_stored[2];     /* the latest issue of a store to global (0) and to shared (1) memory */
    unsigned sb_iter;          /* iterations of unrolled loops taken, to join them in fours */
    int sb_join;               /* the next leader continues the block (an unrolled loop's iteration) */
    uint64_t sb_lds_ready;     /* when the last joined shared load's data is in (ptx_sched_smem) */
    uint64_t sb_quarters;      /* quarters of SASS instructions issued since the last barrier */
    uint64_t sb_pq[COALSIM_PIPES];   /* and each pipe's quarters */
    async_groups sb_async;     /* cp.async groups (scoreboard times) */
    async_groups sb_gmma;      /* wgmma groups: when each one's last wgmma is done */
    int async_open;            /* a cp.async ran since the warp's last branch (ptxas's three dummy LDS come before a run) */
    unsigned cta;              /* its CTA's rank in the cluster (0 without clusters) */
    int bar_counted;           /* W_BAR: at a barrier with a thread count (named: bar.sync id, n), released by its arrivals */
    int gmma_done;             /* its rows of the wgmma it is at were computed by its warpgroup's last warp */
    uint64_t cl_arrived;       /* barrier.cluster: 1 + the phase its arrive joined, 0: none pending */
    tma_rounds sb_tma;         /* its tensor copies' rounds (ptx_sched_tma_ready) */
    struct ploop *loop;        /* the loop it may jump in (ptx_loop.c; made at first use) */
    uint8_t loop_rec;          /* recording the iteration it runs */
    uint32_t cas_extra;        /* passes of the shared float add it is in that other warps make fail */
    double cas_frac;           /* and the expected part of a pass carried to its next add */
} pwarp;

/* A CTA of the cluster the worker runs (one without clusters). */
typedef struct pcta {
    uint64_t block_id;
    unsigned bx, by, bz;
    uint8_t *smem;
    uint64_t tma_loads;        /* tensor loads it issued (tmamerge.h: the same box as another CTA's Nth) */
} pcta;

typedef struct pctx {
    const ptx_program *prog;
    kmem *mem;
    kmem_tlb tlb;
    coalsim_sink sink;
    unsigned grid[3], block[3];
    uint64_t block_id;          /* linear */
    unsigned bx, by, bz;        /* block index */
    uint8_t *smem;              /* this block's shared memory */
    /* clusters: the CTAs running together (block_id .. smem above are the
     * one whose warp runs now, cta[cur]); cdim all 1 without clusters */
    unsigned cdim[3], ncta, cur;
    int explicit_cluster;
    pcta cta[PTX_MAX_CLUSTER];
    cluster_bar cl;             /* barrier.cluster (frontend/cluster.h) */
    unsigned bar_arrived[PTX_MAX_CLUSTER][16];   /* barriers with a thread count: warps arrived, by CTA and id */
    uint32_t remote_lanes;         /* the lanes of the access being made that reach another CTA */
    /* the scoreboard and the mbarriers: when the instruction being run
     * issues (sb_now), when each mbarrier's last arrival or copy is in
     * (sb_mbar, by CTA rank << 32 | shared offset; cleared each block), and
     * when the wait being run may issue (sb_wait_until) */
    uint64_t sb_now, sb_wait_until;
    double sb_smem_wf;          /* the shared wavefronts the instruction running asked for (ptx_sched_smem) */
    double sb_smem_joined;      /* a joined group's wavefronts as one LDS (< 0: not joined) */
    mbar_times sb_mbar;
    uint64_t cluster_id;
    uint64_t smem_bytes;
    const uint8_t *kparams;     /* the kernel's parameter bytes */
    coalsim_print_fn print;     /* device printf's text goes here (NULL: nowhere) */
    void *print_ctx;
    coalsim_exec exec;
    uint64_t *icount;           /* per instruction (pfunc count_base + index): warp issues, then lanes */
    pwarp *warps;               /* kept from block to block (buffers reused) */
    unsigned nwarps;
    char err[512];
    /* the scoreboard (ptx_sched.c), when a time is predicted */
    int sb_on;
    int interleave;             /* a warp yields after each memory instruction (the requests' order is reported) */
    double sb_stagger;          /* cycles between the starts of a SM's blocks (the profile's block_ns) */
    sm_port sb_smport;          /* the SM's port from L2 (smport.h) */
    /* each memory instruction's last request and its model result, reused
     * when the next is the same moved by whole lines (coalsim_model_repeats);
     * by pfunc count_base + index, made on first use; NULL: none kept */
    const coalsim_arch *arch;
    struct ptx_memo **memo;
    size_t nmemo;
    uint64_t sb_count[PTX_SCLASSES];       /* instructions executed by class */
    unsigned sb_quarters[PTX_SCLASSES];    /* SASS quarters a class issues */
    uint8_t sb_pipe_q[PTX_SCLASSES][COALSIM_PIPES];   /* and takes of each pipe */
    double sb_pipe_rate[COALSIM_PIPES];    /* the profile's warp-instructions a SM's pipe does a cycle */
    uint64_t sb_issue[PTX_SCLASSES];       /* cycles (packed) a class keeps the warp issuing */
    unsigned sb_pair_cls;                  /* the first of the three classes of which two issue as one (scalar halves) */
    uint64_t sb_lat[PTX_SCLASSES];         /* its results' latency (packed; a load adds one to the count) */
    uint64_t sb_bar_lat, sb_bar;           /* a barrier's latency; when the block's last barrier opened */
    coalsim_arch sb_arch;                  /* for the wavefronts of joined shared loads */
    uint64_t sb_tma_round;                 /* a tensor copies' round of sb_tma_window bytes (packed cycles; 0: a
                                              global load's latency) */
    uint64_t sb_tma_window;
    double sb_gmma_cycles;                 /* a wgmma's cycles at the tensor clock, in cycles of the SM clock: 1 and up */
    struct tma_merge *tma_merge;           /* which tensor loads share an L2 read (made at the first) */
    /* loops sampled inside blocks (ptx_loop.c), when loop_on */
    int loop_on;
    size_t loop_nfuncs;
    struct ploop_info **loop_info;         /* by count index of a back edge: the loop, made at first use */
    uint64_t **loop_slice;                 /* by function: its slice (what addresses and branches depend on) */
    uint64_t *loop_skip;                   /* by count index, LOOP_COUNTS each (loopjump.h): what the requests of the
                                              iterations jumped over add up to */
    double loop_fig[3];                    /* and their requests, sectors and wavefronts */
    uint64_t loop_jumps, loop_iters, loop_insts;   /* jumps, the warp iterations and instructions they skipped */
    uint64_t loop_seen;                    /* requests made (all of them) */
    cas_words cas;                         /* shared float adds: which warps meet on which words */
} pctx;

/* The time model's side of the interpreter (ptx_sched.c).  Decoding: the
 * class and the scoreboard operands of IN (then, once the function's slots
 * are counted, ptx_sched_fix places the predicates).  Running: setup from
 * the profile's latencies (NULL: no scoreboard), a barrier, a block's end
 * (its path into x->exec), and at the end the class counts into
 * x->exec.pipe_inst. */
void ptx_sched_decode(pfunc *f, const raw_inst *ri, pinst *in);
int ptx_sched_fix(pfunc *f);
/* 1 if IN's result may differ from lane to lane whatever its operands are
 * (shuffles, atomics, matrix fragments, thread-local memory; parameters
 * unless PARAMS_UNIFORM). */
int ptx_sched_lane_source(const pinst *in, int params_uniform);

/* 1 if the load RI must see other SMs' stores, so that L1 does not serve it
 * (coalsim_request.l2_only). */
int ptx_load_l2_only(const raw_inst *ri);

/* 1 if IN, making a request of OP, is an atomic or reduction on
 * floating-point data, 2 if it is a pass of a shared float add's loop
 * (coalsim_request.atomic_float). */
static inline unsigned char ptx_atomic_float(const pinst *in, coalsim_op op)
{
    if (in->spin) return 2;    /* ptx_lower.c's loop */
    return (unsigned char)((op == COALSIM_ATOM || op == COALSIM_RED) && ptype_float((ptype)in->type));
}

/* What ptxas makes of F's global atomics (ptx_agg.c): an atom whose old
 * value is never read becomes a reduction (not exch or cas), and one on an
 * address the same in every lane that ptxas combines within the warp is
 * marked agg.  IS_ENTRY: F is the kernel; SM: the PTX's target (80 for
 * sm_80).  0, or -1 if memory runs out. */
int ptx_agg_atomics(pfunc *f, int is_entry, int sm);
/* SMS, L1_BYTES: the GPU's, and HELD: the blocks a SM holds at once
 * (sm_port_held), for the SM's port and pipes (smport.h).  0, or -1 if
 * memory runs out. */
int ptx_sched_setup(pctx *x, const coalsim_profile *p, unsigned sms, uint64_t l1_bytes, unsigned held);
void ptx_sched_barrier(pctx *x, unsigned nwarps);
void ptx_sched_block_end(pctx *x, unsigned nwarps);
void ptx_sched_finish(pctx *x);
/* The cycles (packed) class C keeps warp W issuing: two of the pairing class
 * (scalar halves, one HFMA2 for two) issue as one. */
static inline uint64_t ptx_sched_issue(const pctx *x, pwarp *w, unsigned c)
{
    if (c - x->sb_pair_cls > 2) return x->sb_issue[c];     /* the pairing classes: three in a row */
    w->sb_pair ^= 1;
    return w->sb_pair ? x->sb_issue[c] : 0;
}

/* A branch ptxas predicates jumped over [FROM, TO) of F for the whole warp:
 * those instructions still issue (predicated off). */
void ptx_sched_skipped(pctx *x, pwarp *w, const pfunc *f, uint32_t from, uint32_t to);
/* A cp.async, commit or wait of IN issuing at *T (SB_ASYNC*): the copy's
 * arrival joins the open group, a commit closes it, a wait moves *T to when
 * the groups it waits for have arrived. */
/* When a global load (or cp.async) issued at T with lanes M is in: a load's
 * latency after T plus the time its bytes wait for and take through the
 * SM's port from L2 (smport.h) */
uint64_t ptx_sched_port(pctx *x, pwarp *w, const pinst *in, uint32_t m, uint64_t t);
/* With smport.h's calendars (the SM's pipes, behind the block's other warps): the ready time
 * READY of class C's result issued at T by W, later where W's
 * sub-partition's tensor pipe is busy. */
uint64_t ptx_sched_tensor(pctx *x, pwarp *w, const pinst *in, uint64_t t, uint64_t ready);
/* wgmma.commit_group closes W's open group of wgmmas; wgmma.wait_group N
 * holds *T (the warp) until every group but the N newest is done */
#define WGMMA_COMMIT 1             /* pinst.sub of wgmma.commit_group */
#define WGMMA_WAIT 2               /* of wgmma.wait_group (pinst.imm: N) */
void ptx_sched_gmma(pwarp *w, const pinst *in, uint64_t *t);
/* The same for IN's shared requests (sb_smem_wf wavefronts, issued at
 * sb_now): its destinations in SB are ready when the SM's shared data pipe
 * has served them.  A group of loads ptxas joins into one LDS (ptx_sched.c)
 * takes the joined request's wavefronts, and its members' data comes with
 * its leader's. */
void ptx_sched_smem(pctx *x, pwarp *w, uint64_t *sb, const pinst *in);
/* Whether IN's shared requests queue so (a matrix fragment's load or store:
 * ldmatrix, stmatrix, wmma.load/store). */
int ptx_sched_queued(const pinst *in);
void ptx_sched_async(pctx *x, pwarp *w, const pinst *in, uint32_t m, uint64_t *t);
/* The scoreboard time a global load issued now would arrive (a TMA copy's
 * bytes on its mbarrier), or 0 without a scoreboard. */
uint64_t ptx_sched_load_ready(const pctx *x);
/* The same for a tensor copy of BYTES warp W issues now: its thread's
 * copies move in rounds (tma_round_ns). */
uint64_t ptx_sched_tma_ready(pctx *x, pwarp *w, uint64_t bytes);
/* The shared request R of IN, which leads a group ptxas joins: what the
 * joined load saves in wavefronts, into x->exec. */
void ptx_sched_joined(pctx *x, const pinst *in, const coalsim_request *r);
/* An estimate of F's registers a thread when ptxas cannot tell: the most
 * values live at once (64-bit ones counting two), from a liveness pass over
 * its instructions; 0 if memory runs out. */
unsigned ptx_sched_regs(const pfunc *f);

/* ---- loops sampled inside blocks (ptx_loop.c) ----
 * Setup: the worker may jump over iterations from now on (NFUNCS: the
 * module's functions; x->nmemo: its instructions).  0, or -1 if memory
 * runs out.  The interpreter calls ptx_loop_backedge at each backward
 * branch the whole warp takes (at instruction PC of its frame): where the
 * loop and the warp's last iterations allow, the warp jumps (0, or -1 with
 * X->err); ptx_loop_note for each instruction a recording warp runs
 * (lanes MASK, M of them on), ptx_loop_request for each request it makes;
 * ptx_loop_block when a warp starts a block. */
int ptx_loop_setup(pctx *x, size_t nfuncs);
void ptx_loop_free(pctx *x);
int ptx_loop_backedge(pctx *x, pwarp *w, uint32_t pc);
void ptx_loop_note_slow(pwarp *w, uint32_t pc, uint32_t mask, uint32_t m);
static inline void ptx_loop_note(pwarp *w, uint32_t pc, uint32_t mask, uint32_t m)
{
    if (w->loop_rec) ptx_loop_note_slow(w, pc, mask, m);
}
void ptx_loop_request(const pwarp *w, const coalsim_request *r, const coalsim_result *res);
void ptx_loop_block(pwarp *w);
/* IN is an integer setp of one result and no boolean operation: its
 * comparison (0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge), width and signedness.
 * 0, or -1 for any other instruction. */
int ptx_setp_int(const pinst *in, int *cmp, unsigned *bits, int *sgn);

/* Free the warps a worker kept (ptx_run_block makes them). */
void ptx_ctx_free(pctx *x);

/* Run block B of the grid in X (with clusters, X->ncta > 1: cluster B,
 * its CTAs' warps taking turns together).  0, or -1 with X->err. */
int ptx_run_block(pctx *x, uint64_t b);
/* Make CTA R of the cluster the executing one (X->block_id, bx.., smem). */
void ptx_select_cta(pctx *x, unsigned r);
/* Threads of the cluster that have not exited. */
uint64_t ptx_cluster_live(const pctx *x);

/* An error at instruction IN: "FILE:LINE (PTX line N: text): what". */
int ptx_fail(pctx *x, const pinst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* *R: the memory request of IN for lanes M at the report addresses A. */
void ptx_request(const pctx *x, const pwarp *w, const pinst *in, coalsim_op op, coalsim_space sp, unsigned size,
                 uint32_t m, const uint64_t *a, coalsim_request *r);
/* Emit the memory request of IN for lanes M at the report addresses A. */
int ptx_emit(pctx *x, const pwarp *w, const pinst *in, coalsim_op op, coalsim_space sp, unsigned size, uint32_t m,
             const uint64_t *a);
/* Hand the request R of IN to the sink (with the model's result, reused
 * where it repeats).  0, or -1 with X->err. */
int ptx_put(pctx *x, const pwarp *w, const pinst *in, const coalsim_request *r);

/* Lane loops: BODY runs with l set to each lane of M. */
/* GCC's "no loop-carried dependence" for the full-warp lane loop (clang
 * vectorises them without being told, and has no such pragma) */
#if defined(__GNUC__) && !defined(__clang__)
#define PTX_IVDEP _Pragma("GCC ivdep")
#else
#define PTX_IVDEP
#endif

#define LANES(m, ...)                                                                        \
    do {                                                                                     \
        uint32_t m_ = (m);                                                                   \
        if (m_ == 0xffffffffu) {                                                             \
            /* lanes are independent: a result slot may be a source slot, but    \
             * lane l reads and writes only element l (no loop-carried dependence) */ \
            PTX_IVDEP for (int l = 0; l < 32; l++) { __VA_ARGS__; }                           \
        } else {                                                                             \
            for (; m_; m_ &= m_ - 1) {                                                       \
                int l = __builtin_ctz(m_);                                                   \
                __VA_ARGS__;                                                                 \
            }                                                                                \
        }                                                                                    \
    } while (0)

#define SLOT(w, s) ((w)->frames[(w)->depth - 1].regs + (size_t)(s) * 32)
#define PRED(w, s) ((w)->frames[(w)->depth - 1].preds[(s)])

/* Handler lookup by mnemonic for the decoder (ops_*.c): each file's table. */
typedef struct pop_entry {
    const char *name;          /* the opcode */
    int (*decode)(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap);
} pop_entry;

extern const pop_entry ptx_ops_int[], ptx_ops_float[], ptx_ops_mem[], ptx_ops_warp[], ptx_ops_matrix[], ptx_ops_wmma[],
    ptx_ops_async[], ptx_ops_wgmma[];

/* The bulk and tensor copies (cp.async.bulk...) and cp.async.mbarrier.arrive,
 * decoded: 0, -1 with ERR, or 1 if RI is another cp instruction.
 * (ptx_ops_async.c) */
int ptx_dec_bulk(ptx_program *p, pfunc *f, const raw_inst *ri, pinst *in, char *err, size_t cap);
/* What warp W, asleep at the mbarrier wait IN, waits for, into BUF (for a
 * deadlock's message).  0, or -1 with X->err. (ptx_ops_async.c) */
int ptx_mbarrier_describe(pctx *x, pwarp *w, const pinst *in, char *buf, size_t cap);

/* Lane L's address of IN (its first address operand; SECOND: the second,
 * cp.async's source), and where its SIZE bytes live in space SP (SP_GENERIC:
 * the window it falls in): *P the bytes, *REPORT the address the request
 * reports, *SPACE the coalsim space.  0, or -1 with the GPU's error in X
 * (misaligned, outside every buffer or the shared memory).  (ptx_ops_mem.c) */
uint64_t ptx_lane_addr(const pwarp *w, const pinst *in, int l, int second);
int ptx_locate(pctx *x, pwarp *w, const pinst *in, int sp, uint64_t a, unsigned size, int l, unsigned char **p,
               uint64_t *report, int *space);
/* Hand R with its model result RES to the sink (put_modelled where the sink
 * has it).  0, or -1 with X->err. */
int ptx_put_result(pctx *x, const coalsim_request *r, const coalsim_result *res);

/* Decoding helpers shared by the ops files (ptx_decode.c). */
int ptx_dec_dst(pfunc *f, const raw_inst *ri, unsigned k, uint32_t *slot, char *err, size_t cap);
int ptx_dec_src(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, ptype t, uint32_t *slot, char *err, size_t cap);
int ptx_dec_pred(pfunc *f, const raw_inst *ri, unsigned k, uint32_t *idx, int *neg, char *err, size_t cap);
int ptx_dec_addr(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, pinst *in, char *err, size_t cap);
/* The slot of register NAME, or the index of predicate NAME (*IS_PRED 1):
 * 0, or -1 if NAME is neither. */
int ptx_dec_reg(pfunc *f, const char *name, uint32_t *v, int *is_pred);
int ptx_has_mod(const raw_inst *ri, const char *mod);
/* IN's operand registers (pfunc.xslots from pinst.xs) in warp W's frame. */
static inline const uint32_t *ptx_xslots(const pwarp *w, const pinst *in)
{
    return w->frames[w->depth - 1].fn->xslots + in->xs;
}
/* 0 if lanes M are all 32 of warp W, else -1 with X->err: a .sync.aligned
 * WHAT instruction ("matrix", "wmma") needs the whole warp. (ptx_ops_matrix.c) */
int ptx_whole_warp(pctx *x, const pwarp *w, const pinst *in, uint32_t m, const char *what);
/* Append operand K's registers (a {vector} or one register; destinations
 * if DST, else sources of type T) to F's xslots; *N gets how many.  0, or
 * -1 with ERR.  (ptx_ops_matrix.c) */
int ptx_dec_xslots(ptx_program *p, pfunc *f, const raw_inst *ri, unsigned k, int dst, ptype t, unsigned *n, char *err,
                   size_t cap);
ptype ptx_mod_type(const raw_inst *ri, unsigned nth);   /* the NTH type modifier (0 = first), or PT_NONE */
int ptx_dec_fail(const ptx_program *p, const raw_inst *ri, char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Atomic and reduction operations (atom's, red's, cp.reduce.async.bulk's). */
enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS };
/* The new value of an atomic OP on OLD of type T with operands B and C
 * (add of f16, bf16, f32, f64 and integers; the others of integers).
 * (ptx_ops_mem.c) */
uint64_t ptx_atomic_new(int op, ptype t, uint64_t old, uint64_t b, uint64_t c);

/* f16 <-> f32, round to nearest even. */
float ptx_half_to_float(uint16_t h);
uint16_t ptx_float_to_half(float f);
float ptx_bf16_to_float(uint16_t h);
uint16_t ptx_float_to_bf16(float f);

#endif
