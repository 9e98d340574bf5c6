/* Kernel sketches inside the library (language: docs/sketch-format.md).
 *
 *   text ──lexer──► parser ──► statements + expression trees ──compiler──► vector code
 *   (sketch_lex.c)  (sketch_parse.c, sketch_expr.c)            (sketch_code.c)
 *
 *   vector code ──runner──► raw requests ──grouped as a trace reader would──► coalsim_sink
 *                (sketch_run.c: a warp at a time, each operation for all 32 lanes)
 *
 * The expression trees stay beside the code: sk_eval evaluates one lane the
 * way the language defines it (C's order, short-circuits, the first error).
 * The runner uses it only to name the exact error once the vector code has
 * seen that some lane fails. */
#ifndef COALSIM_SKETCH_H
#define COALSIM_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"

#define SK_W 32                /* lanes of a sketch warp */
#define SK_MAXVARS 64
#define SK_MAXARRAYS 32
#define SK_MAXSTMT 512
#define SK_MAXDIMS 4
#define SK_MAXNODES 65536      /* expression nodes a sketch may have */
#define SK_MAXNAME 32          /* identifiers are cut to 31 bytes */
#define SK_MAXTRIPS 1000000ul  /* a loop's trips in one warp */

/* ---- expression trees ---- */

enum { E_NUM, E_VAR, E_BUILTIN, E_UN, E_BIN, E_COND };
/* two-character operators; one-character ones are their own character */
enum { T_SHL = 300, T_SHR, T_LE, T_GE, T_EQ, T_NE, T_AND, T_OR };
/* E_BUILTIN's index: threadIdx .x .y .z, blockIdx, blockDim, gridDim */
enum { B_TID = 0, B_BID = 3, B_BDIM = 6, B_GDIM = 9, B_COUNT = 12 };

typedef struct sk_expr {
    int kind, op;                 /* op: the operator of E_UN / E_BIN */
    int64_t num;
    int var;                      /* E_VAR: variable; E_BUILTIN: 0..11 */
    struct sk_expr *a, *b, *c;
    int line, col;
} sk_expr;

/* ---- vector code (sketch_code.c, run by sketch_vm.c) ---- */

enum {                          /* operations */
    OP_NEG, OP_NOT, OP_LNOT,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_SHL, OP_SHR,
    OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE, OP_AND, OP_XOR, OP_OR,
    OP_LAND, OP_LOR, OP_SEL,
    OP_DIVP2, OP_MODP2, OP_MULP2,   /* by 1 << c: shifts */
    OP_MPUSH_NZ, OP_MPUSH_Z, OP_MPOP,
};

/* One operation on slots (32-lane vectors of the worker, see sk_slots):
 * d = a OP b; SEL: d = a ? b : c; DIVP2, MODP2, MULP2: by 1 << c; MPUSH: mask slot
 * c keeps the mask, narrowed by a, and b is its MPOP (where to go when no
 * lane is left); MPOP: the mask back from slot c. */
typedef struct {
    uint32_t op, d, a, b, c;
} sk_op;

/* An expression's code: ops [first, end) of the sketch's code, value in SLOT. */
typedef struct {
    uint32_t first, end, slot;
} sk_code;

/* ---- the program ---- */

typedef struct {
    char name[SK_MAXNAME];
    coalsim_space space;          /* global or shared */
    unsigned size;
    int ndims;
    int64_t dims[SK_MAXDIMS];
    uint64_t base;
    int check_shared;             /* the array reaches past 4 GiB: check each address */
} sk_array;

enum { S_ASSIGN, S_ACCESS, S_IF, S_FOR, S_RETURN, S_SYNC };

typedef struct {
    int kind, line, col;
    int var;                      /* S_ASSIGN; S_FOR: the loop variable */
    sk_expr *e;                   /* S_ASSIGN value, S_IF / S_FOR condition */
    sk_expr *init, *step;         /* S_FOR; STEP is the variable's next value: */
    sk_expr step_var, step_op;    /* V OP EXPR (not from the pool) */
    int arr;                      /* S_ACCESS */
    coalsim_op op;
    int nidx;
    sk_expr *idx[SK_MAXDIMS];
    int idxcol[SK_MAXDIMS];       /* where each index expression starts */
    char label[COALSIM_MAX_LABEL + 1];
    const char *ulabel;           /* the first statement's label that reads the same */
    int body, body_end;           /* S_IF / S_FOR: statements [body, body_end) */
    int else_start;               /* S_IF: else part [else_start, body_end), or -1 */
    sk_code c_e, c_init, c_step, c_idx[SK_MAXDIMS];   /* compiled */
} sk_stmt;

struct coalsim_sketch {
    char *name;
    char vars[SK_MAXVARS][SK_MAXNAME];
    int nvars;
    int is_param[SK_MAXVARS];
    unsigned char reset[SK_MAXVARS];   /* set to 0 at each warp's start: it may be read before it is written */
    int64_t param[SK_MAXVARS];    /* a param's value */
    sk_array arr[SK_MAXARRAYS];
    int narr;
    sk_stmt st[SK_MAXSTMT];
    int nst;
    int64_t grid[3], block[3];
    uint64_t blocks;              /* grid[0] * grid[1] * grid[2] */
    unsigned threads, warps;      /* of a block */
    sk_expr *pool;
    size_t npool;
    /* compiled */
    sk_op *code;
    size_t ncode, capcode;
    int64_t (*konst)[SK_W];       /* constants, broadcast */
    uint32_t nkonst, capkonst;
    uint32_t ntemps, nmasks;      /* temporaries and mask slots a worker needs */
    uint32_t nuni;                /* slots of values the same in every lane of a block */
    sk_code prologue;             /* computes them, at each block's start */
    int64_t (*tid)[3][SK_W];      /* threadIdx of each lane of each warp */
};

/* Slots the code names: variables, then threadIdx.xyz and blockIdx.xyz,
 * then constants, then temporaries, then the block's uniform values. */
#define SK_SLOT_TID(sk) ((uint32_t)(sk)->nvars)
#define SK_SLOT_BID(sk) ((uint32_t)(sk)->nvars + 3)
#define SK_SLOT_KONST(sk) ((uint32_t)(sk)->nvars + 6)
#define SK_SLOT_TEMP(sk) ((uint32_t)(sk)->nvars + 6 + (sk)->nkonst)
#define SK_SLOT_UNI(sk) (SK_SLOT_TEMP(sk) + (sk)->ntemps)

/* ---- errors: "NAME:LINE[:COL]: what is wrong", the first one kept ---- */

typedef struct {
    const char *name;
    char *buf;
    size_t cap;
    int failed;
} sk_err;

/* Line 0: "NAME: ..." (out of memory); col 0: no column. */
int sk_fail(sk_err *er, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- the lexer and parser (sketch_lex.c, sketch_expr.c, sketch_parse.c) ---- */

typedef struct {
    coalsim_sketch *sk;
    sk_err *er;
    const char *p, *line_start;
    int line;
    int64_t val[SK_MAXVARS][SK_W];   /* what sk_eval sees while parsing: params set, the rest 0 */
} sk_parser;

int sk_col(const sk_parser *s);
void sk_skip_ws(sk_parser *s);
int sk_ident(sk_parser *s, char *buf, size_t cap);
int sk_peek_op(sk_parser *s, int *len);
int sk_line_end(sk_parser *s);
int sk_find_var(const coalsim_sketch *sk, const char *name);
int sk_add_var(sk_parser *s, const char *name);
sk_expr *sk_node(sk_parser *s, int kind);

sk_expr *sk_parse_expr(sk_parser *s);
/* Parse TEXT into S->sk (statements, arrays, launch, bases).  0 or -1. */
int sk_parse_program(sk_parser *s, const char *text, const char *const *sets);

/* ---- one lane, the language's definition (sketch_expr.c) ---- */

typedef struct {
    const coalsim_sketch *sk;     /* grid and block */
    int64_t (*val)[SK_W];         /* variables */
    int64_t bid[3];
    unsigned tid0;                /* thread of lane 0 */
} sk_view;

/* E for LANE into *out: 0, or -1 after sk_fail (division by zero, a shift
 * outside 0..63). */
int sk_eval(const sk_view *v, const sk_expr *e, int lane, int64_t *out, sk_err *er);

/* ---- compiler (sketch_code.c) and vector machine (sketch_vm.c) ---- */

/* Compile every statement's expressions.  0, or -1 after sk_fail. */
int sk_compile(coalsim_sketch *sk, sk_err *er);

typedef struct {
    int64_t **slot;               /* every slot's 32 lanes */
    uint32_t *mask;               /* mask slots */
} sk_slots;

/* Run C's code for the lanes in MASK.  0, or -1 if some lane in MASK hits an
 * error (which one sk_eval says). */
int sk_vm(const coalsim_sketch *sk, const sk_slots *s, const sk_code *c, uint32_t mask);

/* The lanes where X is non-zero. */
static inline uint32_t sk_nonzero(const int64_t *x)
{
    uint32_t m = 0;
    for (int l = 0; l < SK_W; l++) m |= (uint32_t)(x[l] != 0) << l;
    return m;
}

/* ---- the runner (sketch_run.c) ---- */

/* A thread's state for running blocks.  Requests are grouped as a reader of
 * the trace would group its records with WARP_SIZE lanes (0: one request
 * per access and 32-lane warp, as executed); MAX_RECORDS (0: none) bounds
 * the records this worker makes. */
typedef struct sk_worker sk_worker;
sk_worker *sk_worker_new(const coalsim_sketch *sk, unsigned warp_size, uint64_t max_records);
void sk_worker_free(sk_worker *w);
/* Number the following requests' records from line FIRST on. */
void sk_worker_lines(sk_worker *w, uint64_t first);
/* Run block B into SINK.  0, or -1 with the error in ERR (left empty when
 * the sink stopped it). */
int sk_run_block(sk_worker *w, uint64_t b, coalsim_sink sink, char *err, size_t cap);
/* Records made so far. */
uint64_t sk_worker_records(const sk_worker *w);

#endif
