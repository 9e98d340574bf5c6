/*
 * coalsim: an analytic model of how a GPU serves one warp's memory request.
 *
 *   global memory                              shared memory
 *   -------------                              -------------
 *   lane address ──► 32-byte sector            lane address ──► bank (addr / bank word) % 32
 *   distinct sectors of the active lanes       lanes split into phases (half/quarter warps
 *     = sectors moved for the request            for 8/16-byte accesses, full warp when
 *   requested bytes / (sectors * 32)             an 8/16-byte load pairs lanes n, n^1 or n^2)
 *     = degree of coalescing                   per phase: max over banks of the distinct
 *   (ncu: l1tex__t_sectors_pipe_lsu_mem_          bank rows touched = wavefronts
 *    global_op_{ld,st}.sum)                     (ncu: l1tex__data_pipe_lsu_wavefronts_
 *                                                 mem_shared_op_{ld,st}.sum)
 *
 * The rules for the modern presets were measured on an H100 with single-
 * instruction probes (gpu/probes/, data in gpu/probes/h100-sm90.txt); fermi and
 * kepler follow the CUDA C Programming Guide, compute capability 2.x and 3.x.
 *
 * Library functions never print and never exit.  Functions that can fail
 * return a negative status and leave a message where the caller can read it
 * (coalsim_reader_error, coalsim_stats_error).
 */
#ifndef COALSIM_H
#define COALSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COALSIM_VERSION "0.1.0"
#define COALSIM_MAX_WARP 32      /* lanes per warp request, at most */
#define COALSIM_MAX_LABEL 255    /* bytes in a trace label, at most */

/* What a request does.  ATOM: an atomic that returns the old value; RED: a
 * reduction that returns nothing (ncu counts both apart from ld and st).
 * The matrix and asynchronous-copy instructions (measured on the H100:
 * gpu/probes/matrix.cu, data in gpu/probes/h100-matrix.txt):
 *   LDSM, STSM  ldmatrix / stmatrix (shared, 16 bytes a lane): lane l gives
 *               row l % 8 of 8x8 matrix l / 8, so a request has 8, 16 or
 *               32 lanes (.x1, .x2, .x4); each matrix is a phase of its own
 *               and costs its worst bank's distinct words (no pairing),
 *               like an LDS.128 quarter warp.  ncu counts their wavefronts
 *               in ..._mem_shared_op_ld / _op_st, LDSM in
 *               smsp__inst_executed_op_ldsm and neither in op_shared_ld/st.
 *   LDGSTS      cp.async.ca (global side: 4, 8 or 16 bytes a lane): the
 *               sectors a load of the same lanes moves, through L1.  ncu
 *               counts it in ..._global_op_ld and in
 *               ..._global_op_ldgsts_cache_access; its instruction in
 *               smsp__inst_executed_op_ldgsts, not op_global_ld.  Its
 *               shared side is a request of its own (space shared, op
 *               LDGSTS, the destinations): see coalsim_ldgsts.
 *   LDGSTS_BYPASS  cp.async.cg (16 bytes, L1 bypassed): each 8-lane phase
 *               moves the larger of its distinct global sectors and the
 *               distinct 32-byte pieces of shared memory it writes
 *               (coalsim_ldgsts; coalsim_model, which has no destinations,
 *               counts the sectors alone).  In ..._global_op_ld, not in
 *               _cache_access; its shared writes take no LSU wavefronts.
 *   BULK_LD     a bulk copy into shared memory by the Tensor Memory
 *               Accelerator (cp.async.bulk.tensor, cp.async.bulk: Hopper),
 *               16 bytes a lane, the copy's global side cut into requests
 *               of up to 32 pieces; it bypasses L1 and the LSU (no
 *               l1tex__t_*_pipe_lsu counter), and moves the distinct
 *               sectors its pieces touch.
 *   BULK_ST     the same out of shared memory into global memory (TMA
 *               stores, cp.async.bulk.global.shared::cta). */
typedef enum {
    COALSIM_LD = 0, COALSIM_ST = 1, COALSIM_ATOM = 2, COALSIM_RED = 3,
    COALSIM_LDSM = 4, COALSIM_STSM = 5, COALSIM_LDGSTS = 6, COALSIM_LDGSTS_BYPASS = 7,
    COALSIM_BULK_LD = 8, COALSIM_BULK_ST = 9,
    COALSIM_OPS
} coalsim_op;
/* 1 if OP reads memory into the SM (ld, ldsm, both cp.async kinds): the
 * cache model's loads.  0 for stores, atomics and reductions. */
int coalsim_op_reads(coalsim_op op);
/* Where.  LOCAL: a thread's own memory, addresses as the hardware lays it out
 * (word w of lane l at base + (w * 32 + l) * 4: local memory is interleaved
 * so a warp's same word coalesces); CONST: the constant cache, which serves
 * one address a pass. */
typedef enum { COALSIM_GLOBAL = 0, COALSIM_SHARED = 1, COALSIM_LOCAL = 2, COALSIM_CONST = 3, COALSIM_SPACES } coalsim_space;

/* ---- architecture (arch.c) ------------------------------------------- */

/* How an 8- or 16-byte shared access is split into phases. */
typedef enum {
    COALSIM_SPLIT_HW = 0,   /* half/quarter warps; loads that pair lanes n,n^1 or n,n^2
                               get twice the lanes per phase (measured, sm_90) */
    COALSIM_SPLIT_PLAIN,    /* half/quarter warps, no pairing (unmeasured archs) */
    COALSIM_SPLIT_FERMI     /* CC 2.x: 16-byte accesses pay one extra way per half */
} coalsim_split;

typedef struct coalsim_arch {
    char name[16];
    unsigned warp_size;     /* lanes per warp, 1..32 */
    unsigned sector_bytes;  /* global transfer unit, power of two */
    unsigned line_bytes;    /* cache line, power of two, >= sector_bytes */
    unsigned banks;         /* shared-memory banks, power of two */
    unsigned bank_width;    /* bytes a bank delivers per row: 4 or 8 */
    unsigned bank_mode;     /* address bits per bank step: 32 or 64 */
    coalsim_split split;
} coalsim_arch;

/* Fill *out with the preset NAME.  Returns 0, or -1 if NAME is unknown. */
int coalsim_arch_preset(const char *name, coalsim_arch *out);

/* The preset names, NULL-terminated, in the order --help lists them. */
const char *const *coalsim_arch_names(void);

/* Check an architecture after knobs were changed.  Returns NULL if it is
 * usable, else a static sentence saying what is wrong. */
const char *coalsim_arch_check(const coalsim_arch *a);

/* ---- one warp request and the model (gmem.c, smem.c, model.c) ---------- */

typedef struct coalsim_request {
    coalsim_op op;
    coalsim_space space;
    unsigned size;                        /* bytes per lane: 1, 2, 4, 8, 16 */
    uint64_t block;
    uint64_t warp;
    uint32_t active;                      /* bit l set: lane l has an address */
    uint64_t addr[COALSIM_MAX_WARP];
    const char *label;                    /* owned by whoever made the request */
    unsigned long line;                   /* trace line of its first record, or 0 */
    uint32_t label_id;                    /* 0, or a number the producer gives each distinct label
                                             (a fast key: equal ids must mean equal labels) */
    unsigned char atomic_float;           /* 1: an atomic or reduction on floating-point data (L2 takes its
                                             lanes at atomic_same_ns, an integer's at atomic_int_ns); 2: a
                                             shared compare-and-store pass of a float add's loop
                                             (ATOMS.CAST.SPIN: its own shared cost); 0 else */
    unsigned char l2_only;                /* 1: a global load that L1 neither serves nor keeps (ld.volatile, .cg, .cv,
                                             .relaxed or .acquire at .cluster, .gpu or .sys scope, .mmio; SASS
                                             LDG/LD .STRONG.GPU, .STRONG.SYS, .MMIO): it reads L2, and ncu counts it
                                             among L1's load requests and sectors all the same; 0 else */
} coalsim_request;

typedef struct coalsim_result {
    unsigned active_threads;
    unsigned requested_bytes;   /* distinct bytes the active lanes touch */
    /* global */
    unsigned sectors;           /* distinct sectors touched */
    unsigned ideal_sectors;     /* ceil(requested_bytes / sector_bytes) */
    unsigned lines;             /* distinct cache lines touched */
    /* shared */
    unsigned wavefronts;        /* passes through the banks */
    unsigned ideal_wavefronts;  /* the same request with no bank conflicts */
    unsigned phases;            /* how many groups of lanes were served apart */
    unsigned max_ways;          /* worst bank conflict degree in any phase */
    unsigned worst_bank;        /* the bank that caused max_ways */
} coalsim_result;

/* Model one request: the one place that sends it to the model of its space
 * (route.c): global and local to gmem, shared to smem, constant to cmem.
 * r->size must be 1, 2, 4, 8 or 16 and every active lane's address aligned to
 * it (every front end guarantees both).  Never fails. */
void coalsim_model(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out);
/* 1 if R is PREV moved whole by a multiple of the largest unit the models
 * group addresses by (a cache line, a row of the banks): the same op, space,
 * size and lanes, every lane's address the same distance further.  Then
 * coalsim_model gives R what it gave PREV (sectors and lines move with the
 * lines, bank rows with the rows), so a producer may reuse that result. */
int coalsim_model_repeats(const coalsim_arch *a, const coalsim_request *prev, const coalsim_request *r);
void coalsim_gmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out);
void coalsim_smem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out);
/* The constant cache serves one distinct address a pass: wavefronts = the
 * distinct addresses of the active lanes, ideal 1 (a broadcast). */
void coalsim_cmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out);
/* A cp.async (ldgsts.c): the active lanes of SRC (op LDGSTS or
 * LDGSTS_BYPASS, space global, the source addresses, size 4, 8 or 16) copy
 * into shared memory at DST[l].  *G gets the global side (sectors, as the
 * op's comment above says) and *S the shared side of an LDGSTS (.ca),
 * measured on the H100: the lanes whose sources share a 128-byte line are
 * written in passes of their own, each line costing its lanes' worst bank's
 * distinct words, or, if more, the most lanes that read the same bytes (a
 * warp copying one word to 32 places takes 32); ideal: the bytes / 128.  For
 * LDGSTS_BYPASS *S is all zero: ncu counts no LSU wavefronts for it.  Never
 * fails. */
void coalsim_ldgsts(const coalsim_arch *a, const coalsim_request *src, const uint64_t *dst, coalsim_result *g,
                    coalsim_result *s);

/* ---- shared tiles: padding and swizzle (tile.c) ------------------------- */

/* A ROWS x COLS tile of ELEM-byte elements, rows padded by PAD elements, or
 * (SWIZZLE > 0, COLS a power of two) with column c of row r stored at
 * c ^ (r * SWIZZLE % COLS), or (CUTE_B > 0) laid out unpadded and then
 * permuted by CuTe's Swizzle<CUTE_B, CUTE_M, CUTE_S> on element offsets:
 * o ^ ((o >> CUTE_S) & ((2^CUTE_B - 1) << CUTE_M)) (bits S+M.. XORed into
 * bits M..: Swizzle<3,3,3> permutes the 16-byte chunks of 64-half rows by
 * the row's low 3 bits).  THREADS threads (0 = one per element) walk it in
 * order, thread idx touching element (idx / COLS, idx % COLS), or with
 * BY_COLUMN (idx % ROWS, idx / ROWS): the seed's column-major read.  With
 * LDMATRIX (16-bit elements, ROWS and COLS multiples of 16) the op is
 * ignored: every warp reads one 16x16 block with ldmatrix.x4 (lane l the
 * row l % 8 + 8 (l / 8 % 2) of the block, columns 8 (l / 16)..: an mma A
 * operand, or B stored n-major), blocks in row order; with LDMATRIX_STORE
 * every thread writes one 16-byte chunk in row order instead (a cp.async or
 * STS.128 filling the tile). */
typedef struct coalsim_tile {
    unsigned rows, cols, elem, pad, swizzle;
    int by_column;
    coalsim_op op;
    uint64_t threads;
    unsigned cute_b, cute_m, cute_s;
    int walk;                       /* COALSIM_WALK_THREADS (0), _LDMATRIX, _CHUNKS */
} coalsim_tile;
enum { COALSIM_WALK_THREADS = 0, COALSIM_WALK_LDMATRIX, COALSIM_WALK_CHUNKS };

typedef struct coalsim_tile_result {
    uint64_t requests, wavefronts, ideal_wavefronts;
    unsigned max_ways;
    uint64_t bytes;                 /* shared memory the layout takes */
} coalsim_tile_result;

/* Model every warp's access to the tile.  0, or -1 if the tile is not
 * well-formed (zero size, bad element size, swizzle of a non-power-of-two,
 * an ldmatrix walk of a tile that is not of 16-bit elements in 16x16
 * blocks, rows not 16-byte aligned, a CuTe swizzle that leaves the tile). */
int coalsim_tile_cost(const coalsim_arch *a, const coalsim_tile *t, coalsim_tile_result *out);

/* One sentence naming the cause of RES for a learner ("misaligned by 4 bytes:
 * 5 sectors instead of 4", "32-way conflict on bank 0: ... pad the row by one
 * element") into buf (always terminated).  Never fails. (explain.c) */
void coalsim_explain(const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res, char *buf, size_t cap);

/* ---- trace format v1 reader (trace.c) --------------------------------- */

typedef struct coalsim_reader coalsim_reader;

/* Where a reader's bytes come from: fill buf with up to cap bytes; return the
 * count, 0 at the end, or -1 on error, setting *why to a static sentence (or
 * leaving it NULL to have strerror(errno) used), and -1 again if called
 * again after an error. */
typedef long (*coalsim_read_fn)(void *ctx, char *buf, size_t cap, const char **why);

/* Read a v1 text trace from fp, naming it NAME in messages.  warp_size groups
 * THREAD into warps.  Returns NULL only if memory runs out. */
coalsim_reader *coalsim_reader_new(FILE *fp, const char *name, unsigned warp_size);
/* The same, reading through READ(CTX, ...): a gzip stream, a memory block. */
coalsim_reader *coalsim_reader_new_fn(coalsim_read_fn read, void *ctx, const char *name, unsigned warp_size);
void coalsim_reader_free(coalsim_reader *rd);

/* Next warp request into *out (its label stays valid until the next call).
 * Returns 1 for a request, 0 at the end of the trace, -1 on bad input or a
 * read error: then coalsim_reader_error says "NAME:LINE: what is wrong". */
int coalsim_reader_next(coalsim_reader *rd, coalsim_request *out);
const char *coalsim_reader_error(const coalsim_reader *rd);
/* Use only the general line parser, never the fast path for lines that repeat
 * the current request's prefix.  Slower; the results are the same (a test
 * compares the two on random traces). */
void coalsim_reader_simple(coalsim_reader *rd);
/* Number lines from BASE + 1 on: for a reader that starts in the middle of a
 * text trace (one part of a trace split across threads).  Call it before the
 * first read; the input is then taken as text. */
void coalsim_reader_set_line(coalsim_reader *rd, unsigned long base);
/* Lines read so far (text), counted from the base. */
unsigned long coalsim_reader_line(const coalsim_reader *rd);
/* 1 once the reader has seen that its input is a binary trace.  Then request
 * lines are request numbers and messages name byte offsets. */
int coalsim_reader_is_binary(const coalsim_reader *rd);
/* Records read so far. */
uint64_t coalsim_reader_records(const coalsim_reader *rd);

/* ---- trace files: plain or gzip (file.c) -------------------------------- */

typedef struct coalsim_file coalsim_file;

/* Open the file PATH to read a trace from: its bytes as they are, or
 * decompressed if they begin with gzip's magic (zlib builds).  NULL with
 * "PATH: why" in err (cannot open, a directory, gzip without zlib). */
coalsim_file *coalsim_file_open(const char *path, char *err, size_t cap);
/* The same on the open descriptor FD (a pipe or stdin too), named NAME in
 * messages.  FD belongs to the file from now on, even when NULL is returned. */
coalsim_file *coalsim_file_fdopen(int fd, const char *name, char *err, size_t cap);
/* A coalsim_read_fn over the coalsim_file CTX, for coalsim_reader_new_fn.
 * gzip members one after the other are one stream; data after the last one
 * is an error ("data after the end of the gzip stream (trailing garbage)"),
 * as are a truncated or corrupt stream. */
long coalsim_file_read(void *ctx, char *buf, size_t cap, const char **why);
void coalsim_file_close(coalsim_file *f);

/* ---- what a trace is (import.c) ------------------------------------------
 *
 * A reader tells the forms it reads apart by their first bytes: coalsim's
 * binary magic, else NVBit's mem_trace output (a "MEMTRACE:" or "CTA x,y,z"
 * line, or NVBit's banner, in the first 64 lines), else an Accel-Sim trace
 * (a first line "-kernel name = ..."), else text format v1.  The importers
 * of other tools' traces are sim/frontend/trace/nvbit.c and accelsim.c
 * (docs/trace-format.md, "Other formats coalsim reads"). */

typedef enum {
    COALSIM_TRACE_TEXT = 0, COALSIM_TRACE_BINARY, COALSIM_TRACE_GZIP, COALSIM_TRACE_NVBIT, COALSIM_TRACE_ACCELSIM
} coalsim_trace_kind;

#define COALSIM_SNIFF_BYTES 65536    /* the first bytes a reader looks at */

/* The kind of trace whose first bytes are HEAD[0..n) (up to
 * COALSIM_SNIFF_BYTES, or the whole file if shorter), as a reader decides
 * it; GZIP: decompress it first (coalsim_file). */
coalsim_trace_kind coalsim_trace_sniff(const void *head, size_t n);

/* ---- binary trace writer (binwrite.c; format: docs/binary-format.md) ---- */

typedef struct coalsim_bwriter coalsim_bwriter;

/* Write a binary trace of requests grouped with WARP_SIZE lanes to OUT.
 * Returns NULL only if memory runs out. */
coalsim_bwriter *coalsim_bwriter_new(FILE *out, unsigned warp_size);
/* Append one request (as a reader returns it).  0, or -1 if writing failed or
 * memory ran out. */
int coalsim_bwriter_put(coalsim_bwriter *w, const coalsim_request *r);
/* Write the end marker.  0, or -1 if writing failed. */
int coalsim_bwriter_finish(coalsim_bwriter *w);
void coalsim_bwriter_free(coalsim_bwriter *w);

/* ---- memory hierarchy, approximately (hier.c) ---------------------------- */

typedef struct coalsim_hier_cfg {
    unsigned sms;            /* L1s; blocks go to them round-robin */
    uint64_t l1_bytes;       /* per SM */
    unsigned l1_ways;
    uint64_t l2_bytes;
    unsigned l2_ways;
    unsigned fetch;          /* DRAM fetch granularity: 32, 64 or 128 bytes */
    /* 0: L2 is one cache.  Else it is two sides, half of it each, as the
     * H100's and H200's are (gpu/probes/README.md, "What L2 keeps"): a line
     * has a home side, the parity of the address bits of this mask within
     * its 2 MiB page (flipped by the page), a SM reads through its own side,
     * a fill from DRAM goes home with a copy on the reader's side, a hit on
     * the far side is copied to the reader's, a store goes home and drops
     * the far copy; eviction half LRU, half at random */
    uint64_t l2_home_mask;
} coalsim_hier_cfg;

typedef struct coalsim_hier_counts {
    uint64_t l1_sectors, l1_hits;       /* global sectors at L1, and L1 hits among the loads' */
    uint64_t l2_sectors, l2_hits;       /* sectors reaching L2, and L2 hits among the loads' */
    uint64_t dram_read, dram_write;     /* bytes */
    /* DRAM reads by 64-byte unit, by its place among the units of its
     * aligned 256-byte piece fetched close together (within the last
     * COALSIM_PIECE_WINDOW units fetched): the 1st, 2nd, 3rd, 4th or later.
     * A piece read whole counts one of each; a lone 64 bytes only a 1st.
     * (A fetch of 32 bytes counts as one unit.) */
    uint64_t dram_piece_nth[4];
    /* load sectors that hit a line another warp's load of the same step
     * fetched, in blocks on the GPU at once: they wait for that fetch, from
     * DRAM or from L2 */
    uint64_t inflight_dram, inflight_l2;
} coalsim_hier_counts;
#define COALSIM_PIECE_BYTES 256
#define COALSIM_PIECE_WINDOW 256

typedef struct coalsim_hier coalsim_hier;

/* The preset for ARCH (only "hopper" so far).  0, or -1 if there is none. */
int coalsim_hier_preset(const char *arch, coalsim_hier_cfg *cfg);
/* NULL if memory runs out or the configuration is unusable. */
coalsim_hier *coalsim_hier_new(const coalsim_hier_cfg *cfg);
void coalsim_hier_free(coalsim_hier *h);
/* Run one request (in trace order) through the caches, adding to *c. */
void coalsim_hier_request(coalsim_hier *h, const coalsim_request *r, coalsim_hier_counts *c);
/* Dirty bytes still in L2 (written to DRAM only after the kernel). */
uint64_t coalsim_hier_dirty_bytes(const coalsim_hier *h);
/* Start H's L2 as PREV's ended (a launch right after another on the same
 * GPU: its lines, dirty ones included; the L1s start empty, as each kernel's
 * do).  Before any request.  0, or -1 if the two L2s differ in shape. */
int coalsim_hier_inherit_l2(coalsim_hier *h, const coalsim_hier *prev);

/* ---- the time a kernel takes, approximately (timing.c) ------------------ */

/* Where a load is served from, shallowest first. */
typedef enum { COALSIM_LV_SMEM = 0, COALSIM_LV_L1, COALSIM_LV_L2, COALSIM_LV_DRAM, COALSIM_LEVELS } coalsim_level;

#define COALSIM_PROFILE_POINTS 16   /* points of a measured curve (dram_loaded, block_tail) */

/* What a kernel's machine code runs on, and how long a result takes (the
 * instruction terms of the time model; coalsim_exec says how front ends
 * count them). */
typedef enum {
    COALSIM_PIPE_FMA = 0,   /* FP32 and FP16x2 arithmetic (FFMA, FADD, FMUL, HFMA2) */
    COALSIM_PIPE_ALU,       /* integer add, logic, shifts, compares, selects, FP32 min/max and compares, moves */
    COALSIM_PIPE_FMAHEAVY,  /* integer multiplies (IMAD, IMAD.WIDE, IMAD.HI) */
    COALSIM_PIPE_FP64,      /* DFMA, DADD, DMUL, DSETP */
    COALSIM_PIPE_XU,        /* special functions (MUFU), POPC, FLO, BREV */
    COALSIM_PIPE_CONV,      /* conversions between integer and float (I2F, F2I, F2F) */
    COALSIM_PIPE_LSU,       /* memory instructions of every space, shuffles */
    COALSIM_PIPE_CBU,       /* branches, barriers, exit, calls */
    COALSIM_PIPE_TENSOR,    /* matrix instructions (HMMA, HGMMA) */
    COALSIM_PIPE_UNIFORM,   /* the uniform datapath: a warp's scalar instructions (UIADD3, ULDC, S2UR, ...); only
                               SASS counts them (PTX does not know which of its values ptxas makes uniform) */
    COALSIM_PIPES
} coalsim_pipe;

/* The pipe's name as profiles and reports spell it: "fma", "alu", ... */
const char *coalsim_pipe_name(coalsim_pipe p);

/* Dependent-latency classes of the scoreboard: the profile's lat_KEY
 * cycles, KEY the operation harness sm measures for the class. */
typedef enum {
    COALSIM_LAT_FMA = 0,    /* ffma: FP32 arithmetic */
    COALSIM_LAT_ALU,        /* iadd: integer add, logic, compare, select, moves */
    COALSIM_LAT_IMAD,       /* imad: integer multiplies */
    COALSIM_LAT_FP64,       /* dfma */
    COALSIM_LAT_MUFU,       /* ex2: special functions, popc, clz */
    COALSIM_LAT_HALF,       /* hfma2: FP16x2 and BF16x2 */
    COALSIM_LAT_CONV,       /* cvt: conversions */
    COALSIM_LAT_SHFL,       /* shfl: shuffles, votes */
    COALSIM_LAT_IDIV,       /* remu: integer division and remainder */
    COALSIM_LAT_FDIV,       /* divf: IEEE division, reciprocal and square root */
    COALSIM_LAT_SMEM,       /* lds: shared-memory loads and atomics */
    COALSIM_LAT_BAR,        /* bar: a barrier once the last warp arrives */
    COALSIM_LAT_MMA,        /* hmma: a tensor-core mma.sync (HMMA, IMMA, DMMA) */
    COALSIM_LATS
} coalsim_lat;

/* The class's profile key without "lat_": "ffma", "iadd", ... */
const char *coalsim_lat_key(coalsim_lat l);

typedef struct coalsim_profile coalsim_profile;
/* Cycles from an instruction of latency class L to a dependent one: the
 * profile's lat_KEY, or what harness sm measured on an H200 when P is NULL
 * or lacks the key.  Both front ends' critical paths use it. */
double coalsim_lat_cycles(const coalsim_profile *p, coalsim_lat l);

typedef struct coalsim_exec coalsim_exec;   /* what a kernel executed: below */

/* The latency a critical path gives each global or local load before the
 * time model knows where the load was served (see coalsim_exec). */
#define COALSIM_PATH_LOAD_CYCLES 400
#define COALSIM_PHASE_BLOCKS 32     /* blocks in phase on a SM that coalsim_exec.path_phase covers */

/* A device profile (gpu/profiles/NAME.txt, measured by gpu/harness profile). */
typedef struct coalsim_profile {
    double dram_read_gbs, dram_copy_gbs, l2_gbs, l1_gbs, wavefronts_per_ns, launch_us;
    double scatter_load_lines_per_ns, scatter_store_lines_per_ns;   /* 0: as wavefronts_per_ns */
    /* latency term (0: not measured, no latency term): a warp's round trip
     * with 1 and with 16 independent line requests in flight, per level */
    double lat_ns[COALSIM_LEVELS], lat16_ns[COALSIM_LEVELS];
    double block_ns;                                   /* a block's start on its SM */
    /* a 64-byte DRAM read of a 256-byte piece read by 1, 2, 3 such reads
     * together: its time over a stream's (0: 1, as a stream's) */
    double dram_piece[3];
    unsigned loaded_points;                            /* DRAM round trip under load */
    double loaded_gbs[COALSIM_PROFILE_POINTS], loaded_ns[COALSIM_PROFILE_POINTS];
    /* round trips vary: a block of W warps waits for its slowest, on average
     * TAIL(W) times the mean round trip (1 where not measured) */
    unsigned tail_points;
    double tail_warps[COALSIM_PROFILE_POINTS], tail[COALSIM_PROFILE_POINTS];
    /* the SM (harness sm; 0 where not measured: then a kernel's time has no
     * instruction terms, as a trace's) */
    double sm_clock_mhz;                      /* the SM clock under load */
    double issue_per_cycle;                   /* warp-instructions a SM issues a cycle (4 sub-partitions) */
    double pipe_per_cycle[COALSIM_PIPES];     /* pipe_NAME: warp-instructions a SM's pipe completes a cycle */
    double lat_cycles[COALSIM_LATS];          /* lat_KEY: cycles from an instruction to a dependent one */
    double smem_wavefronts_per_cycle;         /* a SM's shared-memory data pipe (conflicts: more wavefronts) */
    double l1_lines_per_cycle;                /* a SM's L1 data pipe: 128-byte lines of global requests */
    double atomic_same_ns;                    /* an atomic's lane on an address every lane uses: ns (L2 serialises them) */
    double atomic_sector_ns;                  /* a global atomic's sector, the device's L2 atomic units together: ns */
    double atomic_int_ns;                     /* an integer atomic's lane on a busy word: ns (0: atomic_same_ns) */
    double atomic_pass_ns;                    /* an atomic request's pass over one 32-byte sector: ns (0: the lane rate) */
    double atomic_pass_f64_ns;                /* the same for a double add (0: atomic_pass_ns) */
    double launch_b2b_us;                     /* a launch among launches back to back (an event between each two) */
    uint64_t l2_bytes;                        /* the device's L2, for the cache model (0: the preset's) */
    uint64_t l2_home_mask;                    /* two L2 sides, homes by these address bits (coalsim_hier_cfg; 0: one L2) */
    /* a profile the user did not name (the default for --hier): its name,
     * which the time's report then says ("" when the user named it) */
    char default_name[32];
    /* Hopper's TMA and tensor cores (0 where not measured: the rules before them) */
    double tma_box_ns;                        /* read, not used: superseded by tma_round_ns (its probe,
                                                 gpu/probes/tma_bw.cu, timed its own form; tma_pipe.cu) */
    double l2_tma_gbs;                        /* L2's read rate for TMA copies, GB/s of sectors */
    double tensor_clock_mhz;                  /* the SM clock while the tensor cores work (wgmma's cycles) */
    double tma_round_ns;                      /* a producer's tile copies from L2 move tma_round_bytes a round,
                                                 each round this long; a copy is in when its round ends
                                                 (gpu/probes/tma_pipe.cu) */
    double tma_round_bytes;                   /* the bytes a round moves (32768 on the H100 and H200) */
} coalsim_profile;

/* Read "KEY = VALUE" lines.  0, or -1 with "NAME:LINE: why" in err. */
int coalsim_profile_read(FILE *fp, const char *name, coalsim_profile *p, char *err, size_t cap);

/* What runs at once on a SM: the occupancy calculator's limits.  A trace
 * has no registers; a kernel's come from ptxas (or --regs). */
typedef struct coalsim_sm_limits {
    unsigned threads, blocks;
    uint64_t smem_bytes;          /* shared memory a SM can give blocks */
    unsigned warps;               /* warps a SM */
    unsigned regs;                /* registers a SM, split evenly over its sub-partitions */
    unsigned reg_unit;            /* a warp's registers are allocated in units of this many */
    unsigned subpartitions;       /* warp schedulers a SM: a warp's registers come from one */
    unsigned smem_reserved;       /* shared memory the system takes from each block */
    unsigned smem_unit;           /* a block's shared memory is allocated in units of this many bytes */
} coalsim_sm_limits;

/* The limits of ARCH's SMs (only "hopper", sm_90, so far).  0, or -1. */
int coalsim_sm_limits_preset(const char *arch, coalsim_sm_limits *lim);

/* How many blocks of a launch a SM holds at once, and what limits it
 * (occupancy.c). */
typedef struct coalsim_occupancy {
    unsigned blocks;              /* resident blocks a SM: the least of the four below */
    unsigned warps;               /* resident warps a SM */
    unsigned by_warps, by_regs, by_smem, by_blocks;
    const char *limit;            /* "warps", "registers", "shared memory" or "blocks" (static) */
} coalsim_occupancy;

/* The occupancy of blocks of THREADS threads with REGS registers a thread
 * (0: not counted) and SMEM bytes of shared memory a block (static and
 * dynamic) under LIM, by the CUDA occupancy calculator's rules: warps a
 * block rounded up; a warp's registers rounded up to the unit and taken
 * from one sub-partition, so a SM holds SUBPARTITIONS x (REGS / SUBPARTITIONS
 * / a warp's) warps; each block's shared memory plus the reserved part
 * rounded up to the unit.  0, or -1 if such a block cannot run at all (too
 * many threads, registers or bytes), with OUT->limit naming why. */
int coalsim_occupancy_of(const coalsim_sm_limits *lim, unsigned threads, unsigned regs, uint64_t smem,
                         coalsim_occupancy *out);

typedef struct coalsim_time {
    double dram_us, l2_us;      /* all traffic at the device's rates */
    double l1_us;               /* the busiest SM's L1 data pipe */
    double latency_us;          /* the busiest SM's blocks, round trip after round trip */
    double total_us;            /* launch + the largest of the four */
    const char *bound;          /* which: "DRAM", "L2", "L1" or "latency" */
    double launch_us;           /* the profile's */
    int latency_modelled;       /* 0: the profile has no latencies, latency_us is 0 */
    double dram_slowdown;       /* DRAM round trips over their unloaded time, at the bandwidth total_us implies */
    double dram_round_trip_ns;  /* that slowed round trip of 16 loads */
    unsigned resident_blocks, block_warps, mlp;
    double block_tail;          /* the slowest of block_warps warps' round trips over the mean (1: not measured) */
    /* what the request stream showed (every input) */
    double l1_lines_sm;         /* the busiest SM's lines of global and local requests (its L1 data pipe) */
    double smem_wavefronts_sm;  /* the busiest SM's shared wavefronts */
    double data_cycles_sm;      /* the busiest SM's L1 data pipe, cycles: shared wavefronts and lines that hit
                                   at the profile's per-cycle rates, scattered lines that miss at the scatter rates */
    uint64_t loads[COALSIM_LEVELS];   /* load requests by the deepest level they reached (no shared) */
    uint64_t trips[COALSIM_LEVELS];   /* warps' round trips by their deepest level (with latencies) */
    uint64_t atomic_hot_ops;    /* global atomics' lane operations on the busiest address */
    int atomic_hot_ops_partial; /* 1: the launch's atomics touched more than 4 Mi addresses, and
                                   atomic_hot_ops is the busiest of the first 4 Mi (a lower bound) */
    double atomic_line_ns;      /* the busiest L2 atomic unit's requests one after another (lines 128, 512 bytes apart share one), ns */
    uint64_t atomic_sectors;    /* global atomics' and reductions' sectors, all SMs (the atomic sector rule) */
    /* the instruction terms: a kernel run with a profile that has the SM's
     * keys (exec_modelled 1); 0 otherwise */
    int exec_modelled;
    double issue_us;            /* the busiest SM's warp instructions at its issue rate */
    double pipe_us;             /* its busiest pipe */
    const char *pipe;           /* that pipe's name */
    double smem_us;             /* its shared wavefronts and L1 lines at the data pipes' rates */
    double path_us;             /* its blocks' critical paths, wave after wave */
    double dispatch_us;         /* its blocks started one after another */
    double dram_b2b_us;         /* DRAM with the previous launch's dirty bytes written back (see set_dirty): reported, not in the time */
    double atomic_us;           /* global atomics through L2: the busiest atomic unit's requests one after another
                                   (atomic_line_ns), or all their sectors at the units' rate, whichever is longer */
    double load_ns;             /* a global load's latency on the paths: the mean over where loads were served,
                                 * or over the loads that missed L1 where a warp issues several a round trip */
    double waves;               /* blocks over what all SMs hold at once */
    unsigned occupancy_blocks, occupancy_warps, regs;
    const char *occupancy_limit, *regs_from;
    /* the analysis's coalsim_l2_start: "cold", "warm", or NULL (unsaid) */
    const char *l2;
    double cold_us;             /* warm: total_us of the launch whose L2 it inherited (the first, cold one); 0 if
                                   that one had no time */
    int l2_unknown;             /* 1: warm or inherited was asked, but the launch before was sampled, so what it
                                   left in L2 is not known: timed cold (l2 "cold") */
    char profile[32];           /* the profile's default_name: "" when the user named the profile */
} coalsim_time;

typedef struct coalsim_timing coalsim_timing;

/* A time model for SMS SMs with LIMITS, at PROFILE's rates and latencies; a
 * warp has up to MLP loads in flight before it waits (1..64).  NULL if
 * memory runs out or an argument is unusable. */
coalsim_timing *coalsim_timing_new(const coalsim_profile *profile, unsigned sms, const coalsim_sm_limits *limits,
                                   unsigned warp_size, unsigned mlp);
void coalsim_timing_free(coalsim_timing *t);
/* One request in trace order, its result and the hierarchy counts it added
 * (global loads: where it was served).  0, or -1 if memory runs out. */
int coalsim_timing_request(coalsim_timing *t, const coalsim_request *r, const coalsim_result *res,
                           const coalsim_hier_counts *d);
/* What the cache model left dirty in L2 at the end (DIRTY bytes) and the
 * L2's size: launched back to back with no flush between, a kernel whose
 * data does not fit in L2 writes the previous launch's dirty bytes back
 * while it runs; the instruction-side model (exectime.c) reports that as
 * dram_b2b_us beside the time, which has only the launch's own traffic. */
void coalsim_timing_set_dirty(coalsim_timing *t, uint64_t dirty, uint64_t l2_bytes);
/* Loop iterations jumped over inside a sample's blocks (plain loads and
 * stores): multiply SM s's load (its L1 data pipe, its blocks' schedule) by
 * SM_F[s] (NULL: F for every SM) and the launch-wide loads by level by F;
 * the atomics and tensor copies stay as they are. */
void coalsim_timing_scale_loads(coalsim_timing *t, const double *sm_f, double f);
/* A sample of the launch's blocks ran: SM s ran RAN[s] of its ALL[s]
 * blocks.  Its loads times ALL / RAN (0 where it ran nothing: it then stays
 * idle, and the others stand for it), its blocks' schedule times the rounds
 * of the blocks it holds at once it would have run over the rounds it ran,
 * the launch-wide counts (loads by level, atomics) times F.  0, or -1 if
 * memory runs out (nothing scaled). */
int coalsim_timing_scale_sample(coalsim_timing *t, const uint64_t *ran, const uint64_t *all, double f);
/* The prediction, given the kernel's hierarchy totals and, for a kernel
 * run, what it executed (EXEC; NULL for a trace: memory terms only).  0, or
 * -1 if memory runs out. */
int coalsim_timing_finish(coalsim_timing *t, const coalsim_hier_counts *total, const coalsim_exec *exec,
                          coalsim_time *out);

/* ---- per-access totals (stats.c) -------------------------------------- */

/* One access: every request with the same label, op, space and size. */
typedef struct coalsim_access {
    char *label;
    coalsim_op op;
    coalsim_space space;
    unsigned size;
    unsigned long first_line;
    uint64_t requests;
    uint64_t active_threads;
    uint64_t requested_bytes;
    uint64_t sectors, ideal_sectors, lines;                  /* global */
    uint64_t wavefronts, ideal_wavefronts;                   /* shared */
    unsigned max_ways, worst_bank;                           /* shared */
    coalsim_request sample;      /* the first request with the most lanes (its label is this one's) */
    coalsim_result sample_result;
    coalsim_hier_counts hier;    /* coalsim_stats_add_hier's sums (zero unless used) */
} coalsim_access;

typedef struct coalsim_stats coalsim_stats;

/* What the iterations of loops jumped over inside a sample's blocks
 * would have added to an access (the one of LABEL, OP and SPACE): the
 * counts coalsim_stats_add sums over their requests, and how many of their
 * sectors are stores to lines of their own. */
typedef struct coalsim_loop_skip {
    const char *label;
    coalsim_op op;
    coalsim_space space;
    uint64_t requests, active_threads, requested_bytes, sectors, ideal_sectors, lines, wavefronts, ideal_wavefronts;
    uint64_t written_sectors;
} coalsim_loop_skip;

coalsim_stats *coalsim_stats_new(void);
void coalsim_stats_free(coalsim_stats *st);
/* Add one modelled request.  Returns 0, or -1 if memory runs out. */
int coalsim_stats_add(coalsim_stats *st, const coalsim_request *r, const coalsim_result *res);
/* Add SRC's accesses into DST as if SRC's requests had come after DST's: new
 * accesses are appended in SRC's order.  0, or -1 if memory runs out. */
int coalsim_stats_merge(coalsim_stats *dst, const coalsim_stats *src);
/* The same, SRC's line numbers taken as LINES later (parts numbered from 0). */
int coalsim_stats_merge_at(coalsim_stats *dst, const coalsim_stats *src, unsigned long lines);
/* Add K's counts to the first access of its label, op and space, multiply
 * the hierarchy counts of every such access by their requests' factor
 * (before and K's over before), their DRAM writes apart where K wrote
 * sectors of its own: those plus WRITE_BYTES (spread by their requests).
 * Returns their requests before, or 0 (none: nothing changed). */
uint64_t coalsim_stats_add_skipped(coalsim_stats *st, const coalsim_loop_skip *k, uint64_t write_bytes);
/* Requests of all accesses. */
uint64_t coalsim_stats_requests(const coalsim_stats *st);
/* Add DELTA, the hierarchy counts of the request added last, to its access. */
void coalsim_stats_add_hier(coalsim_stats *st, const coalsim_hier_counts *delta);
/* The hierarchy counts of all accesses together. */
void coalsim_stats_hier_total(const coalsim_stats *st, coalsim_hier_counts *total);
/* Multiply every count of ST (its hierarchy counts too) by F, rounded: a
 * sample's totals made the launch's (coalsim_analysis_extrapolate). */
void coalsim_stats_scale(coalsim_stats *st, double f);
void coalsim_hier_counts_scale(coalsim_hier_counts *c, double f);
/* Add BYTES of DRAM writes to ST's accesses, in proportion to those they
 * have (none yet: to the sectors their stores wrote). */
void coalsim_stats_add_writes(coalsim_stats *st, uint64_t bytes);
size_t coalsim_stats_count(const coalsim_stats *st);
const coalsim_access *coalsim_stats_get(const coalsim_stats *st, size_t i);

/* Degree of coalescing of a global access: requested / (sectors * sector). */
double coalsim_access_gmem_efficiency(const coalsim_access *ac, const coalsim_arch *a);
/* Bank efficiency of a shared access: ideal wavefronts / wavefronts. */
double coalsim_access_smem_efficiency(const coalsim_access *ac);

/* ---- the request stream ------------------------------------------------
 *
 *   text/binary/gzip traces ─┐
 *   sketches ────────────────┤                      ┌─► models (route.c)
 *   PTX and SASS kernels ────┼─► coalsim_sink ─────►├─► stats, hierarchy, time
 *   NVBit, Accel-Sim ────────┘   (one request       └─► per-request reports
 *                                 at a time)            (coalsim_analysis)
 *
 * Every front end pushes warp requests into a sink; the analysis is the sink
 * the command uses.  A request's label is owned by its producer and needs to
 * stay valid only during the call. */
typedef struct coalsim_sink {
    int (*put)(void *ctx, const coalsim_request *r);   /* 0, or -1 to stop the producer */
    void *ctx;
    /* optional (NULL where the sink has none): the same with coalsim_model's
     * result, for a producer that has it already (coalsim_model_repeats) */
    int (*put_modelled)(void *ctx, const coalsim_request *r, const coalsim_result *res);
} coalsim_sink;

/* Read every request of RD into SINK (trace.c).  0 at the end of the trace; -1 on bad
 * input (coalsim_reader_error says why); 1 if the sink stopped the reading. */
int coalsim_reader_drain(coalsim_reader *rd, coalsim_sink sink);

/* One instruction of the code a kernel ran, with what it executed: the
 * source view (what ncu's Source page shows beside each line). */
typedef struct coalsim_inst {
    const char *text;           /* as written: "LDS.128 R12, [R7+0x20]", "ld.shared.f32 ..." */
    const char *file;           /* its source file, or NULL when the code has no line information */
    unsigned src_line;          /* its source line, 0 when unknown */
    unsigned line;              /* its line in the listing or the PTX */
    uint64_t addr;              /* SASS: its address; PTX: its place in its function */
    const char *label;          /* a memory instruction: the label of its access in the report; else NULL */
    uint64_t executed;          /* warp instructions issued (predicated-off ones too) */
    uint64_t threads;           /* thread instructions: the lanes active when it issued */
} coalsim_inst;

/* What a front end that runs a kernel executed besides its memory requests:
 * the instruction counts Nsight Compute reports, and what the time model
 * (timing.c) needs of the instruction stream.  A trace has none.
 *
 * The time fields, for a front end that fills them (PTX: ptx_sched.c; SASS:
 * sass_pipe.c and sass_sched.c, counting instead of estimating: each
 * opcode's pipe, the registers each instruction really reads and writes):
 *   pipe_inst[P]   machine-code (SASS) warp instructions pipe P executed,
 *                  predicated-off ones too (they issue).  SASS counts them;
 *                  PTX charges each PTX instruction the SASS it usually
 *                  becomes (a 64-bit add two ALU instructions, div.rn.f32
 *                  about fourteen, ld.param none), so fractions occur.
 *   path_*         each block's critical path when it runs alone on a SM:
 *                  every warp issues in order, one instruction a cycle at
 *                  most, an instruction waits for its operands (the
 *                  profile's lat_* cycles after their producers issued),
 *                  barriers wait for the block's last warp, and a SM
 *                  sub-partition issues one instruction a cycle for all the
 *                  block's warps on it (warp w on sub-partition w % 4).  A
 *                  global load's (or cp.async's) bytes wait for and take
 *                  the SM's port from L2 where a SM holds one block at a
 *                  time; matrix fragments' shared requests and MMAs wait
 *                  for the SM's shared data pipe and tensor pipes behind
 *                  the block's other warps' (frontend/smport.h).  A
 *                  global or local load's latency depends on where it is
 *                  served, which the analysis learns only later: the path
 *                  takes it as COALSIM_PATH_LOAD_CYCLES and counts the loads
 *                  on the path apart, so the model can put the right latency
 *                  in.  path_cycles: the sum over blocks of their paths
 *                  without those loads' latency; path_loads: the sum of the
 *                  loads on them; path_blocks: the blocks summed (0: no path
 *                  was kept, no profile).
 *   block_threads, regs, smem_block: the launch, for occupancy (regs 0: not
 *                  known; regs_from says where it came from). */
typedef struct coalsim_exec {
    const char *isa;            /* "PTX" or "SASS": what one instruction is */
    uint64_t blocks, warps_launched;
    uint64_t inst_executed;     /* warp instructions, predicated-off ones too */
    uint64_t thread_inst_executed;
    /* memory instructions executed, also those with no lane active */
    uint64_t inst_mem[COALSIM_SPACES][COALSIM_OPS];
    /* matrix instructions of the tensor pipe (warp instructions, as ncu's
     * sm__inst_executed_pipe_tensor_op_{hmma,imma,dmma}): [0] HMMA (f16,
     * bf16, tf32), [1] IMMA (s8, u8, s4, u4, b1), [2] DMMA (f64) */
    uint64_t inst_mma[3];
    /* Hopper's asynchronous path: warpgroup MMAs (wgmma.mma_async, warp
     * instructions), and the bulk copies the threads issued (TMA tensor
     * copies and cp.async.bulk), with the bytes they moved into shared
     * memory and out of it */
    uint64_t inst_gmma;
    uint64_t gmma_smem_bytes;   /* what they read from shared memory (ncu: sm__sass_data_bytes_mem_shared_op_gmma) */
    uint64_t bulk_copies;
    uint64_t bulk_bytes_in;     /* the boxes' bytes, the zero-filled part too (ncu: l1tex__m_xbar2l1tex_read_bytes_..._op_tma_ld) */
    uint64_t bulk_bytes_out;    /* whole 32-byte sectors of what was written (..._l1tex2xbar_write_bytes_..._op_tma_st) */
    uint64_t bulk_bytes_multicast;  /* of bulk_bytes_in, what multicast copies brought (..._op_tma_ld_dest_multicast) */
    uint64_t bulk_bytes_red;    /* cp.reduce.async.bulk into global memory: whole 32-byte sectors (..._write_bytes_mem_global_op_tma_red;
                                   its instructions are TMA stores, as ncu counts them) */
    uint64_t bulk_bytes_red_dshared;   /* ... into shared memory of the cluster: bytes (..._mem_dshared_op_tma_red) */
    /* accesses to another CTA's shared memory (distributed shared memory,
     * clusters): requests and sectors of loads [0], stores [1], atomics and
     * reductions [2] (ncu: l1tex__t_{requests,sectors}_pipe_lsu_mem_dshared_op_{ld,st,atom}) */
    uint64_t dshared_requests[3], dshared_sectors[3];
    /* every instruction of the code that ran, in code order (NULL: not kept) */
    const coalsim_inst *insts;
    size_t ninsts;
    /* for the time model (see above) */
    double pipe_inst[COALSIM_PIPES];
    double path_cycles, path_loads;
    uint64_t path_blocks;
    /* [R - 1]: what the blocks' paths gain when R blocks run in phase on a
     * SM (started together, as a wave's are), each stretch between barriers
     * taking as long as the R blocks' issue of it where that is longer than
     * its chain (coalsim_exec_phase) */
    double path_phase[COALSIM_PHASE_BLOCKS];
    double smem_wavefronts_saved;   /* shared wavefronts the requests counted that the SASS's vector loads save
                                       (PTX: scalar loads ptxas joins into LDS.64/LDS.128; SASS: 0) */
    uint64_t mem_inactive;      /* memory instructions issued with no lane on (predicated off, or a branch
                                   ptxas predicates): each takes a wavefront of the L1 data pipe all the same */
    unsigned block_threads;     /* threads a block */
    unsigned regs;              /* registers a thread, 0: not known */
    const char *regs_from;      /* "ptxas", "--regs", "estimate", "listing" (SHI_REGISTERS; static), or NULL */
    uint64_t smem_block;        /* shared memory a block, static and dynamic, bytes */
    /* the slowest block's path, as path_cycles and path_loads count them
     * (the one with the most cycles, each load taken as
     * COALSIM_PATH_LOAD_CYCLES): a launch that runs in one wave takes as
     * long as it, whatever the blocks that exit at once */
    double path_max_cycles, path_max_loads;
} coalsim_exec;

/* Add SRC's counts to DST's (two parts of one launch); the launch fields
 * are taken from SRC where DST has none. */
void coalsim_exec_add(coalsim_exec *dst, const coalsim_exec *src);
/* A block's path of CYCLES (without its loads' latency) and LOADS into E's
 * slowest block, if it is slower. */
void coalsim_exec_path_max(coalsim_exec *e, double cycles, double loads);
/* A block's stretch between barriers (or to its end) into E's path_phase:
 * its busiest sub-partition issues for BUSIEST cycles, all its warps for ALL
 * (summed over the four sub-partitions), its longest chain takes LAT cycles.
 * Alone it takes T = max(BUSIEST, LAT).  Of R blocks resident, started
 * STAGGER cycles apart (the SM's block dispatcher), those within T of each
 * other are in the stretch together, n = min(R, 1 + T / STAGGER) of them,
 * and share the SM's four schedulers: it takes max(T, n * ALL / 4). */
void coalsim_exec_phase(coalsim_exec *e, double busiest, double all, double lat, double stagger);

/* ---- the analysis: the stream's consumer (analysis.c) -------------------- */

/* Called with every request once modelled, in stream order, with the
 * hierarchy counts it added (NULL without a hierarchy).  0, or -1 to stop. */
typedef int (*coalsim_each_fn)(void *ctx, const coalsim_request *r, const coalsim_result *res,
                               const coalsim_hier_counts *d);

/* What a launch's L2 holds when it starts (coalsim_analysis_cfg.l2).
 * COLD: nothing of its data and nothing dirty, as Nsight Compute's
 * gpu__time_duration sees a launch (ncu flushes the caches, writing dirty
 * lines back, before each replay); the time has the back-to-back launch
 * cost, and hierarchy.time.dram_b2b_us gives the DRAM term behind an
 * identical launch with no flush between (its dirty lines written back
 * meanwhile when the data does not fit in L2).  WARM: the launch is the second of two
 * identical launches back to back, as a cudaEvent loop times it: the analysis
 * inherits the first's L2 (coalsim_analysis_inherit_l2, dirty lines
 * included), whose write-backs the cache model then counts as they happen,
 * so the time adds no dirty write-back of its own.  INHERITED: the L2 of
 * another launch before it (coalsim run: the program's previous launch),
 * timed as WARM.  UNSAID (0): as COLD for the time, and the report names
 * neither. */
typedef enum { COALSIM_L2_UNSAID = 0, COALSIM_L2_COLD, COALSIM_L2_WARM, COALSIM_L2_INHERITED } coalsim_l2_start;

typedef struct coalsim_analysis_cfg {
    coalsim_arch arch;
    const coalsim_hier_cfg *hier;      /* NULL: no cache model */
    const coalsim_profile *profile;    /* with hier: predict the time */
    const coalsim_sm_limits *limits;   /* with profile */
    unsigned mlp;                      /* with profile: loads in flight a warp (1-64) */
    coalsim_each_fn each;              /* NULL: none */
    void *each_ctx;
    int source;                        /* reports add the source view (a kernel's instructions, --source) */
    coalsim_l2_start l2;               /* what L2 holds at the launch's start, for the time and the report */
} coalsim_analysis_cfg;

typedef struct coalsim_analysis coalsim_analysis;

/* NULL if memory runs out or the configuration is unusable. */
coalsim_analysis *coalsim_analysis_new(const coalsim_analysis_cfg *cfg);
void coalsim_analysis_free(coalsim_analysis *an);
/* Model one request and add it up.  0, or -1 (out of memory, or EACH
 * stopped it): coalsim_analysis_error says which. */
int coalsim_analysis_put(coalsim_analysis *an, const coalsim_request *r);
/* The same for a request already modelled (RES: coalsim_model's result with
 * AN's arch), by a front end that models on threads of its own. */
int coalsim_analysis_put_modelled(coalsim_analysis *an, const coalsim_request *r, const coalsim_result *res);
/* The analysis as a sink for a front end. */
coalsim_sink coalsim_analysis_sink(coalsim_analysis *an);
/* Add SRC's totals to DST's as if its requests had come after DST's (a
 * front end that ran parts of a kernel or a trace apart).  Neither may have
 * a hierarchy.  0, or -1 if memory runs out. */
int coalsim_analysis_merge(coalsim_analysis *dst, const coalsim_analysis *src);
/* The same, SRC's line numbers taken as LINES later (parts numbered from 0). */
int coalsim_analysis_merge_at(coalsim_analysis *dst, const coalsim_analysis *src, unsigned long lines);
/* The instruction counts of the kernel that made the stream (copied, the
 * instructions and their strings too).  0, or -1 if memory runs out. */
int coalsim_analysis_set_exec(coalsim_analysis *an, const coalsim_exec *e);
/* Start AN's L2 with what PREV's held at its end (coalsim_hier_inherit_l2);
 * both made with a hierarchy, AN before any request.  PREV's time, if it was
 * finished with one, becomes AN's cold_us.  A sampled PREV's L2 holds its
 * sample's lines, not the whole launch's: AN then starts cold (its time
 * says "cold").  0, or -1. */
int coalsim_analysis_inherit_l2(coalsim_analysis *an, const coalsim_analysis *prev);
/* After the last request: predict the time (with a profile).  0, or -1. */
int coalsim_analysis_finish(coalsim_analysis *an);
const coalsim_stats *coalsim_analysis_stats(const coalsim_analysis *an);
/* The instruction counts, or NULL if none were set. */
const coalsim_exec *coalsim_analysis_exec(const coalsim_analysis *an);
/* The predicted time, or NULL (no profile, or not finished). */
const coalsim_time *coalsim_analysis_time(const coalsim_analysis *an);
const char *coalsim_analysis_error(const coalsim_analysis *an);

/* ---- sampled launches (sample.c) -----------------------------------------
 *
 * A large launch can run a sample of its blocks: windows of consecutive
 * blocks (a wave of them: what the SMs hold at once, so the caches see the
 * neighbours they would), the first and the last window and others evenly
 * spread between.  Every count is the sample's times blocks / blocks run;
 * each figure's error is estimated from how much the windows differ (a
 * ratio estimator over the windows, 95% two-sided, Student's t).  The first window is a
 * pilot: under AUTO it tells what a block costs, and so how many blocks the
 * budget allows. */
typedef enum { COALSIM_SAMPLE_AUTO = 0, COALSIM_SAMPLE_OFF, COALSIM_SAMPLE_BLOCKS } coalsim_sample_mode;

/* AUTO samples a launch whose whole run would cost more than
 * COALSIM_SAMPLE_BUDGET work units (a warp instruction of a kernel, a
 * request of a sketch; a sketch of COALSIM_SAMPLE_AUTO_WINDOWS windows or
 * fewer runs whole unasked), spending about that budget. */
#define COALSIM_SAMPLE_AUTO_WINDOWS 16
#define COALSIM_SAMPLE_BUDGET 40000000.0
/* ... and, where the launch's buffers are larger than this, whose blocks
 * touch no more than about this many bytes (a kernel's memory is made a
 * 4 KiB page at a time, as blocks touch it; the pilot's blocks tell how
 * many a block touches) */
#define COALSIM_SAMPLE_MEMORY (512.0 * 1024 * 1024)
#define COALSIM_SAMPLE_MIN_WINDOWS 16   /* a sample has this many windows (when the launch has them), shorter
                                           than a wave if need be: their spread gives the error */
#define COALSIM_SAMPLE_FEWEST_WINDOWS 4 /* ... or, when its blocks are so costly that 16 windows of the pilot's
                                           length exceed the budget, at least this many */

typedef struct coalsim_sample_cfg {
    coalsim_sample_mode mode;    /* AUTO (the zero value), OFF: every block, BLOCKS: about BLOCKS blocks */
    uint64_t blocks;
    double budget;               /* AUTO's work units (0: COALSIM_SAMPLE_BUDGET) */
} coalsim_sample_cfg;

/* The figures whose error a sample states. */
typedef enum {
    COALSIM_SF_REQUESTS = 0,     /* warp requests, every space */
    COALSIM_SF_SECTORS,          /* sectors of global, local and constant requests */
    COALSIM_SF_WAVEFRONTS,       /* shared wavefronts */
    COALSIM_SF_INST,             /* warp instructions (a kernel; 0 for a sketch) */
    COALSIM_SAMPLE_FIGS
} coalsim_sample_fig;

/* "auto", "off" or N (about N blocks, N >= 1) into C.  0, or -1. */
int coalsim_sample_parse(const char *s, coalsim_sample_cfg *c);

/* The figure's name in reports: "requests", "sectors", "wavefronts", "instructions". */
const char *coalsim_sample_fig_name(coalsim_sample_fig f);

typedef struct coalsim_sample {
    int sampled;                 /* 0: every block ran (the rest is then unused) */
    uint64_t blocks;             /* the launch's */
    uint64_t run;                /* the blocks that ran */
    uint64_t window;             /* consecutive blocks a window (the last one of the launch may be shorter) */
    uint64_t windows, windows_run;
    double factor;               /* blocks / run: what every count was multiplied by */
    double work_per_block;       /* the pilot window's work a block */
    double estimate[COALSIM_SAMPLE_FIGS];   /* the whole launch's, extrapolated */
    double error[COALSIM_SAMPLE_FIGS];      /* its 95% interval's half-width over the estimate; 0 where the
                                               windows agree exactly; -1 where it cannot be estimated */
    /* loops inside the blocks that ran (the PTX interpreter): warps jumped
     * over iterations whose requests move by whole lines, counted as the
     * last iteration they ran (coalsim_analysis_extrapolate_loops) */
    uint64_t loop_jumps;         /* 0: none */
    uint64_t loop_iters;         /* the warp iterations jumped over */
    double loop_insts;           /* and their warp instructions */
    double loop_factor;          /* requests counted over requests run (all accesses; the time's loads) */
} coalsim_sample;

/* The window of a launch of BLOCKS blocks of THREADS threads on SMS SMs (0:
 * an H100's 132): a wave, as many blocks as the SMs hold by threads (2048 a
 * SM, 32 blocks at most), not more than BLOCKS. */
uint64_t coalsim_sample_window(uint64_t blocks, unsigned threads, unsigned sms);
/* Pick M of NWIN windows (M >= 2): the first, the last, and the others
 * evenly spread between, into PICK in rising order.  The number picked. */
size_t coalsim_sample_pick(uint64_t nwin, uint64_t m, uint64_t *pick);
/* Fill S's estimate and error from the M windows run: FIG[i] the figures of
 * window i, NBLK[i] its blocks; S's blocks, windows and run set. */
void coalsim_sample_estimate(coalsim_sample *s, size_t m, const double (*fig)[COALSIM_SAMPLE_FIGS],
                             const uint64_t *nblk);
/* Multiply what AN added up from a sample by S's factor: its accesses, its
 * instruction counts (blocks and warps launched become the launch's), and
 * its time model's per-SM load, each SM's by what it would have run over
 * what it ran (BLOCKS, the N blocks run; SMS the time model's SMs).  S is
 * kept for the report.  Call it after the last request and after
 * coalsim_analysis_set_exec, before coalsim_analysis_finish.  0, or -1. */
int coalsim_analysis_extrapolate(coalsim_analysis *an, const coalsim_sample *s, const uint64_t *blocks, size_t n);

/* Add SKIP[0..N) to AN's accesses: their counts exactly (a jumped
 * iteration's requests are the last one's moved by whole lines); their
 * hierarchy counts times (seen + skipped) / seen requests, but the DRAM
 * writes: those the run made plus the written sectors L2 cannot keep dirty
 * beside what the run left (the rest count as left dirty: each stored line
 * goes out once); the time model's loads, SM s's by SM_F[s] (its own
 * requests, all over run; NULL: all alike) and the device's by all
 * requests' factor, which goes to *FACTOR.  Call it after the last
 * request, before coalsim_analysis_extrapolate.  0, or -1. */
int coalsim_analysis_extrapolate_loops(coalsim_analysis *an, const coalsim_loop_skip *skip, size_t n, const double *sm_f,
                                       double *factor);
/* The sample AN's counts were extrapolated from, or NULL (every block ran). */
const coalsim_sample *coalsim_analysis_sample(const coalsim_analysis *an);

/* ---- reports (report.c): write to the stream the caller gives ----------- */

typedef enum { COALSIM_TEXT = 0, COALSIM_JSON, COALSIM_CSV } coalsim_format;

/* What a report may add to the accesses: the memory hierarchy (--hier) and
 * the requests one by one (--per-request, JSON). */
typedef struct coalsim_report_extra {
    const coalsim_hier_cfg *hier;   /* NULL: no hierarchy; else the accesses' hier counts are reported */
    uint64_t dirty;                 /* dirty bytes left in L2 after the trace */
    const coalsim_time *time;       /* the prediction, or NULL */
    const char *requests_json;      /* JSON: the request objects, comma-separated, or NULL */
    const coalsim_exec *exec;       /* what the kernel executed, or NULL (a trace) */
    int source;                     /* text and JSON: the source view (exec's instructions), when there is one */
    const coalsim_sample *sample;   /* the counts are a sample's, extrapolated (NULL: every block ran) */
} coalsim_report_extra;

/* Write the report of one trace.  Returns 0, or -1 if writing failed. */
int coalsim_report(FILE *out, coalsim_format fmt, const char *trace_name,
                   const coalsim_arch *a, const coalsim_stats *st);
/* The same with EXTRA (NULL: none).  CSV carries the hierarchy counts per
 * access, not the totals or the time: those are in text and JSON. */
int coalsim_report_ext(FILE *out, coalsim_format fmt, const char *trace_name, const coalsim_arch *a,
                       const coalsim_stats *st, const coalsim_report_extra *extra);
/* The report of everything AN was given (its hierarchy, time and
 * instruction counts included); REQUESTS_JSON as in coalsim_report_extra.
 * 0, or -1 if writing failed. */
int coalsim_analysis_report(FILE *out, coalsim_format fmt, const char *name, const coalsim_analysis *an,
                            const char *requests_json);
/* CSV header line (written once before the rows of all traces); HIER adds
 * the hierarchy columns. */
int coalsim_report_csv_header(FILE *out, int hier);
/* One line for one request (--per-request). */
int coalsim_report_request(FILE *out, const coalsim_arch *a, const coalsim_request *r,
                           const coalsim_result *res);
/* With --hier, the hierarchy counts that request added (one more line). */
int coalsim_report_request_hier(FILE *out, const coalsim_request *r, const coalsim_hier_counts *d);

/* One request as one JSON object, preceded by a comma unless FIRST; with D
 * (not NULL) its hierarchy counts too. */
int coalsim_report_request_json(FILE *out, const coalsim_request *r, const coalsim_result *res,
                                const coalsim_hier_counts *d, int first);

/* ---- kernels: a .cu or .ptx file run on the PTX interpreter -------------
 *   (frontend/kernel/: kernel.c, args.c, compile.c, kmem.c; frontend/ptx/)
 *
 * Every thread of every block runs, with real values in sparse paged memory,
 * and every memory instruction it executes becomes a warp request in the
 * analysis.  Buffers are named in the argument list (docs/kernels.md). */

typedef struct coalsim_kernel coalsim_kernel;

/* Text a kernel printed (device printf): N bytes, not NUL-terminated. */
typedef void (*coalsim_print_fn)(void *ctx, const char *text, size_t n);

/* How far a long run has come: DONE of TOTAL (blocks, bytes). */
typedef void (*coalsim_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct coalsim_launch {
    const char *kernel;        /* plain, demangled (sgemm<32>) or mangled name; NULL: the only kernel */
    unsigned grid[3], block[3];
    unsigned cluster[3];       /* CTAs a cluster (cudaLaunchAttributeClusterDimension); 0s: the kernel's own
                                  __cluster_dims__, or none */
    uint64_t dynamic_shared;   /* bytes */
    unsigned regs;             /* registers a thread for the time model's occupancy (0: not known) */
    const char *regs_from;     /* where REGS came from ("ptxas", "--regs", "estimate"; static), or NULL */
    const char *args;          /* one entry a parameter, comma-separated: numbers and NAME[:SIZE][=FILL] buffers */
    const void *const *param_values;   /* instead of ARGS: each parameter's bytes (cuLaunchKernel's kernelParams) */
    const void *param_buffer;          /* or all of them laid out as the kernel's parameters are (its extra) */
    size_t param_buffer_size;
    coalsim_print_fn print;    /* device printf's output, in block order (the blocks then run on one thread); NULL: dropped */
    void *print_ctx;
    unsigned threads;          /* worker threads (0: every core) */
    coalsim_progress_fn progress;
    void *progress_ctx;
    coalsim_sample_cfg sample; /* which blocks run (the zero value: AUTO; see coalsim_sample) */
    int again;                 /* 1: run in the memory the kernel's last run of the same entry left, with that run's
                                  parameters (ARGS and the other parameter fields are not read): the second of two
                                  back-to-back launches, which reads what the first wrote (an in-place sort finds
                                  its data sorted), as a timing loop on a GPU does */
} coalsim_launch;

/* Load PTX TEXT of LEN bytes (named NAME in messages).  NULL with "NAME:LINE:
 * why" in ERR. */
coalsim_kernel *coalsim_kernel_load_ptx(const char *text, size_t len, const char *name, char *err, size_t cap);
void coalsim_kernel_free(coalsim_kernel *k);
/* Load a SASS listing alone (cuobjdump -sass or nvdisasm output): each
 * kernel's parameters come from its mangled name; __constant__ data and the
 * shared variables' size are unknown (a kernel that reads __constant__ data
 * stops with an error; shared accesses are held to the most a block may
 * have).  NULL with "NAME:LINE: why" in ERR. */
coalsim_kernel *coalsim_kernel_load_sass(const char *text, size_t len, const char *name, char *err, size_t cap);
/* Run K's kernels from their SASS instead: TEXT (LEN bytes, named NAME) is
 * the listing of the same module, as cuobjdump -sass or nvdisasm (-g: with
 * source lines) print it.  The PTX still gives the parameters' layout, the
 * __constant__ data and the shared variables' size.  0, or -1 with
 * "NAME:LINE: why" in ERR. */
int coalsim_kernel_use_sass(coalsim_kernel *k, const char *text, size_t len, const char *name, char *err, size_t cap);
/* The same for a listing that need not have every kernel of K (coalsim run
 * --sass-listing: one listing for a program's modules): a kernel it has runs
 * from its SASS, any other from K's PTX (coalsim_exec.isa says which). */
int coalsim_kernel_use_sass_where_listed(coalsim_kernel *k, const char *text, size_t len, const char *name, char *err,
                                         size_t cap);
/* The mangled name of the entry NAME selects (as coalsim_kernel_run would;
 * NULL: the only one), or NULL with why in ERR. */
const char *coalsim_kernel_entry(const coalsim_kernel *k, const char *name, char *err, size_t cap);
/* The kernels (entries) of K: their mangled names; N of them. */
size_t coalsim_kernel_count(const coalsim_kernel *k);
const char *coalsim_kernel_name(const coalsim_kernel *k, size_t i);
/* Run the launch L into AN (made from CFG).  0, or -1 with why in ERR: a bad
 * launch or argument, an unsupported instruction, an illegal address (with
 * the PTX line, the instruction, the source line, the block and lane). */
int coalsim_kernel_run(coalsim_kernel *k, const coalsim_launch *l, coalsim_analysis *an,
                       const coalsim_analysis_cfg *cfg, char *err, size_t cap);
/* Run L as the second of two launches back to back, as a timing loop on a
 * GPU does (coalsim --l2 warm): first into an analysis of its own, cold and
 * finished, then into AN (made from CFG, its l2 COALSIM_L2_WARM), which
 * starts with the L2 the first left and runs in the memory the first left
 * (coalsim_launch.again).  After a sampled first run, whose L2 and memory
 * hold only its sample's part, AN starts cold in fresh memory and says so.
 * 0, or -1 with why in ERR. */
int coalsim_kernel_run_warm(coalsim_kernel *k, const coalsim_launch *l, coalsim_analysis *an,
                            const coalsim_analysis_cfg *cfg, char *err, size_t cap);
/* N bytes at OFFSET of the last run's buffer NAME into DST.  0, or -1 if
 * there is no such buffer or the range is outside it. */
int coalsim_kernel_read(coalsim_kernel *k, const char *name, uint64_t offset, void *dst, size_t n);
/* The address the last run gave buffer NAME, or 0. */
uint64_t coalsim_kernel_buffer_base(const coalsim_kernel *k, const char *name);
/* The last run's buffers (named in --args, in order): how many, and the
 * name and size in bytes of the I-th (NULL past the last; size 0: unsized). */
size_t coalsim_kernel_buffer_count(const coalsim_kernel *k);
const char *coalsim_kernel_buffer(const coalsim_kernel *k, size_t i, uint64_t *size);

/* ---- memory kept across launches (memory.c): a GPU's global memory as a
 *   program sees it, for coalsim run's driver; launches of any kernel of
 *   any module that use it see what earlier launches and copies left. */
typedef struct coalsim_memory coalsim_memory;
coalsim_memory *coalsim_memory_new(void);
void coalsim_memory_free(coalsim_memory *m);
/* A new zeroed allocation of SIZE bytes (as cudaMalloc places them, 256-byte
 * aligned): its address, or 0 if SIZE is 0 or the address space ran out. */
uint64_t coalsim_memory_alloc(coalsim_memory *m, uint64_t size);
/* The same as managed memory: the allocation is also this process's own
 * memory at that address (mapped there), so the caller reads and writes it
 * directly and the kernels see the same bytes.  0 if SIZE is 0 or the
 * address cannot be mapped. */
uint64_t coalsim_memory_alloc_managed(coalsim_memory *m, uint64_t size);
/* 1 if ADDR is in managed memory (coalsim_memory_alloc_managed). */
int coalsim_memory_is_managed(const coalsim_memory *m, uint64_t addr);
/* Free the allocation at ADDR (unmapped if managed).  0, or -1 if no
 * allocation starts there. */
int coalsim_memory_release(coalsim_memory *m, uint64_t addr);
/* The allocation (or module variable) holding [ADDR, ADDR + N): its base
 * and size.  0, or -1 if none holds the whole range. */
int coalsim_memory_find(const coalsim_memory *m, uint64_t addr, uint64_t n, uint64_t *base, uint64_t *size);
/* Copy N bytes in, out, or within (each range inside one allocation).  0, or
 * -1 if a range is not. */
int coalsim_memory_write(coalsim_memory *m, uint64_t addr, const void *src, size_t n);
int coalsim_memory_read(coalsim_memory *m, uint64_t addr, void *dst, size_t n);
int coalsim_memory_copy(coalsim_memory *m, uint64_t dst, uint64_t src, size_t n);
/* Set N elements of SIZE bytes (1, 2 or 4) at ADDR to VALUE (memset). */
int coalsim_memory_set(coalsim_memory *m, uint64_t addr, uint32_t value, unsigned size, size_t n);
/* Run K's launches in M from now on, not in memory of their own: M keeps
 * what they write, and K's module variables (__device__, __constant__) are
 * placed in M now, initialised.  0, or -1 with why in ERR. */
int coalsim_kernel_use_memory(coalsim_kernel *k, coalsim_memory *m, char *err, size_t cap);
/* The address in the memory of coalsim_kernel_use_memory of K's module
 * variable NAME (a __device__ or __constant__ variable's mangled name), its
 * size in *SIZE; 0 if there is none. */
uint64_t coalsim_kernel_symbol(const coalsim_kernel *k, const char *name, uint64_t *size);

/* What kind of kernel file PATH is, by its name (and an ELF header): */
typedef enum {
    COALSIM_KERNEL_NONE,      /* not a kernel file (a trace) */
    COALSIM_KERNEL_CU,        /* .cu: compiled to PTX */
    COALSIM_KERNEL_PTX,       /* .ptx */
    COALSIM_KERNEL_LISTING,   /* .sass, .nvdisasm: a SASS listing */
    COALSIM_KERNEL_BINARY     /* .cubin, .fatbin, any ELF file: disassembled */
} coalsim_kernel_kind;
coalsim_kernel_kind coalsim_kernel_kind_of(const char *path);
/* A file that starts as an ELF file is a whole one (its headers inside it).
 * 0 (or not an ELF file), or -1 with "PATH: what it is not" in ERR. */
int coalsim_binary_check(const char *path, char *err, size_t cap);

/* How to compile a .cu file to PTX (compile.c). */
typedef struct coalsim_compile {
    const char *arch;                  /* "sm_90" (default) */
    const char *const *defines;        /* NULL-terminated "NAME" or "NAME=VALUE", or NULL */
    const char *const *includes;       /* NULL-terminated directories, or NULL */
    const char *compiler;              /* "nvcc", "clang" or NULL: nvcc if found, else clang */
    const char *cache_dir;             /* NULL: $XDG_CACHE_HOME/coalsim or ~/.cache/coalsim; "" no cache */
} coalsim_compile;

/* Compile PATH to PTX (malloc'd, its length in *LEN), from the cache when
 * neither the file nor what it includes changed.  NULL with why in ERR: the
 * compiler's command line and its errors when it fails. */
char *coalsim_compile_cu(const char *path, const coalsim_compile *c, size_t *len, char *err, size_t cap);
/* The SASS listing of the cubin, fatbin, object or executable PATH, as
 * nvdisasm -c -g (a cubin) or cuobjdump -sass prints it (malloc'd, *LEN
 * bytes).  NULL with why in ERR: with no disassembler, how to make a
 * listing elsewhere. */
char *coalsim_disassemble(const char *path, size_t *len, char *err, size_t cap);
/* PTX (LEN bytes, NAME in messages) assembled by ptxas for ARCH and
 * disassembled: the SASS listing.  NULL with why in ERR. */
char *coalsim_compile_sass(const char *ptx, size_t ptxlen, const char *name, const char *arch, size_t *len, char *err,
                           size_t cap);

/* Where a kernel file's other half comes from (coalsim_kernel_open). */
typedef struct coalsim_kernel_source {
    const char *module;        /* a listing's or binary's module (.cu or .ptx), or NULL */
    int sass;                  /* a .cu or .ptx: run its SASS (ptxas, then a disassembler) */
    coalsim_compile compile;   /* how to compile a .cu (the module too) */
} coalsim_kernel_source;

/* Open the kernel file PATH of any kind (open.c): compiled, read or
 * disassembled as its kind says, with SRC's module and SASS choice (SRC may
 * be NULL).  NULL with why in ERR. */
coalsim_kernel *coalsim_kernel_open(const char *path, const coalsim_kernel_source *src, char *err, size_t cap);
/* "X[,Y[,Z]]" (or "XxY") into D, missing ones 1.  0, or -1. */
int coalsim_parse_dims(const char *s, unsigned d[3]);

/* What ptxas says a kernel's machine code uses (ptxas -v). */
typedef struct coalsim_resources {
    unsigned regs;                  /* registers a thread */
    uint64_t smem_static;           /* static shared memory, bytes */
    uint64_t stack_bytes, spill_store_bytes, spill_load_bytes;
} coalsim_resources;

/* What KERNEL (a name as coalsim_kernel_run takes it; NULL: the only one)
 * of K uses on ARCH ("sm_90" if NULL): ptxas -v on the PTX K was loaded
 * from (kernel.c), once per kernel and arch (cached on disk).  0 with *OUT;
 * 1 if not known here (a listing loaded alone has no module; no ptxas); -1
 * with why in ERR (no such kernel). */
int coalsim_kernel_resources(const coalsim_kernel *k, const char *kernel, const char *arch, coalsim_resources *out,
                             char *err, size_t cap);
/* The PTX K was loaded from (LEN bytes), or NULL (a listing alone). */
const char *coalsim_kernel_module(const coalsim_kernel *k, size_t *len);

/* Run ptxas -v --warn-on-spills for ARCH ("sm_90" if NULL), fork and exec,
 * no shell, on the entry ENTRY (its mangled name) of the PTX of LEN bytes,
 * cached as compiles are (CACHE_DIR as coalsim_compile's).  0; 1 if there
 * is no ptxas (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin); -1 with why in
 * ERR. (compile.c) */
int coalsim_ptxas_resources(const char *ptx, size_t len, const char *entry, const char *arch, const char *cache_dir,
                            coalsim_resources *out, char *err, size_t cap);

/* ---- Nsight Compute's metrics, predicted (metrics.c) --------------------- */

typedef struct coalsim_metric {
    const char *name;       /* ncu's metric name (static) */
    uint64_t value;
} coalsim_metric;

#define COALSIM_MAX_METRICS 96

/* The ncu metrics ST predicts, with EX's instruction counts and hierarchy
 * where present (EX may be NULL), into OUT[0..COALSIM_MAX_METRICS).  Counts
 * only what is known: a trace has no instruction count.  Returns how many. */
size_t coalsim_metrics(const coalsim_stats *st, const coalsim_report_extra *ex, coalsim_metric *out);

/* ---- kernel sketches (sketch*.c; language: docs/sketch-format.md) ------ */

typedef struct coalsim_sketch coalsim_sketch;

/* Compile the sketch TEXT, named NAME in messages, with SETS, NULL-terminated
 * "param=value" overrides (or NULL).  NULL, with "NAME:LINE[:COL]: what is
 * wrong" (or "NAME: out of memory") in ERR (CAP bytes), if it cannot be run. */
coalsim_sketch *coalsim_sketch_compile(const char *text, const char *name, const char *const *sets, char *err,
                                       size_t cap);
void coalsim_sketch_free(coalsim_sketch *sk);
/* The blocks of the sketch's grid. */
uint64_t coalsim_sketch_blocks(const coalsim_sketch *sk);

typedef struct coalsim_sketch_opts {
    unsigned warp_size;            /* requests grouped as a reader of the sketch's trace with this warp size
                                      groups its records (1-32); 0: one request per access and 32-lane warp,
                                      as executed (the records `coalsim sketch` writes, in their order) */
    uint64_t max_records;          /* an error past this many records (0: no limit) */
    unsigned threads;              /* coalsim_sketch_analyse: threads running blocks (0, 1: the caller) */
    coalsim_progress_fn progress;  /* or NULL: blocks done, now and then, on the calling thread */
    void *progress_ctx;
    coalsim_sample_cfg sample;     /* coalsim_sketch_analyse: which blocks run (zero: AUTO) */
} coalsim_sketch_opts;

/* Run every block of SK, in order, on the calling thread, into SINK.  Each
 * request's line is its first record's in the trace `coalsim sketch` writes
 * (line 1 is a comment).  0; -1 with "NAME:LINE[:COL]: what is wrong" in
 * ERR; 1 if the sink stopped it. */
int coalsim_sketch_run(const coalsim_sketch *sk, const coalsim_sketch_opts *o, coalsim_sink sink, char *err,
                       size_t cap);
/* Run SK on O->threads threads into AN, made from CFG: the analysis, and the
 * error, of coalsim_sketch_run into AN.  0, or -1 with the error in ERR. */
int coalsim_sketch_analyse(const coalsim_sketch *sk, const coalsim_sketch_opts *o, coalsim_analysis *an,
                           const coalsim_analysis_cfg *cfg, char *err, size_t cap);

/* ---- text trace writer (textwrite.c; format: docs/trace-format.md) ------ */

/* Write R as v1 records, one line an active lane in lane order, THREAD =
 * R->warp * WARP_SIZE + lane.  0, or -1 if writing failed. */
int coalsim_text_write(FILE *out, const coalsim_request *r, unsigned warp_size);

/* ---- pictures (picture.c) ---------------------------------------------- */

/* One request drawn as text: for global memory each moved sector with the
 * lane that uses each byte ('.' moved but unused); for shared memory each
 * wavefront with the lane each bank serves.  COLOUR adds ANSI colours. */
int coalsim_picture_text(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res,
                         int colour);
/* The same as one SVG element. */
int coalsim_picture_svg(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res);
/* A self-contained HTML report: the access table, each access's fullest
 * request explained and drawn, then REQS[0..NREQ) drawn. */
int coalsim_report_html(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                        const coalsim_request *reqs, const coalsim_result *ress, size_t nreq);
/* The same with what a kernel executed (E may be NULL): its source view,
 * every instruction under its source line with its counts. */
int coalsim_report_html_exec(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                             const coalsim_request *reqs, const coalsim_result *ress, size_t nreq, const coalsim_exec *e);
/* The same with EXTRA (NULL: none): its exec as above and, when it has a
 * predicted time, a bar chart of the time's terms against the total, the
 * bound highlighted.  The other fields of EXTRA are not used. */
int coalsim_report_html_ext(FILE *out, const char *name, const coalsim_arch *a, const coalsim_stats *st,
                            const coalsim_request *reqs, const coalsim_result *ress, size_t nreq,
                            const coalsim_report_extra *extra);

/* ---- by names and plain values: for bindings and small programs --------
 *
 * What python/coalsim calls through ctypes (no struct of this header needs
 * mirroring there), and what examples/c/analyse.c uses. */

/* An analysis of the preset ARCH ("hopper", ...; --arch), with WARP_SIZE
 * lanes (0: 32) and, when HIER, the H100's caches (hopper only).  NULL with
 * why in err (unknown preset, bad warp size, out of memory). */
coalsim_analysis *coalsim_analysis_new_preset(const char *arch, unsigned warp_size, int hier, char *err, size_t cap);
/* Read the trace file PATH into AN: any form a reader reads (text, binary,
 * NVBit, Accel-Sim), plain or gzip; WARP_SIZE as the analysis's.  0, or -1
 * with "PATH:LINE: what is wrong" (or "PATH: why") in err. (file.c) */
int coalsim_analysis_read_file(coalsim_analysis *an, const char *path, unsigned warp_size, char *err, size_t cap);
/* Put one warp request into AN: OP "ld" "st" "atom" "red", SPACE "global"
 * "shared" "local" "const", SIZE bytes a lane, lane l active when bit l of
 * ACTIVE is set (lanes below the analysis's warp size), its address
 * ADDR[l] (ADDR holds 32), LABEL its access's name.  Checked as a trace
 * record is (size, alignment, wrap, the shared window).  0, or -1 with why
 * in err. (lanes.c) */
int coalsim_analysis_put_lanes(coalsim_analysis *an, const char *op, const char *space, unsigned size, uint64_t block,
                               uint64_t warp, uint32_t active, const uint64_t *addr, const char *label, char *err,
                               size_t cap);
/* Run the kernel file PATH (any kind coalsim_kernel_open takes; MODULE the
 * .cu/.ptx of a listing or NULL, SASS 1 to run a .cu/.ptx's SASS) into AN:
 * KERNEL its name (NULL: the only one), GRID and BLOCK "X[,Y[,Z]]",
 * CLUSTER "X[,Y[,Z]]" (NULL or "": the kernel's __cluster_dims__, or
 * none), ARGS as --args, SAMPLE as --sample (NULL: auto), THREADS workers
 * (0: every core).  0, or -1 with why in err. (open.c) */
int coalsim_analysis_run_kernel(coalsim_analysis *an, const char *path, const char *kernel, const char *grid,
                                const char *block, const char *cluster, const char *args, uint64_t dynamic_shared,
                                const char *module, int sass, const char *sample, unsigned threads, char *err,
                                size_t cap);
/* The same, run as the second of two launches back to back
 * (coalsim_kernel_run_warm): AN must have a cache model. */
int coalsim_analysis_run_kernel_warm(coalsim_analysis *an, const char *path, const char *kernel, const char *grid,
                                     const char *block, const char *cluster, const char *args, uint64_t dynamic_shared,
                                     const char *module, int sass, const char *sample, unsigned threads, char *err,
                                     size_t cap);
/* Run the sketch file PATH (SETS: "name=value" overrides, NULL-terminated,
 * or NULL) into AN on THREADS threads (0: every core), SAMPLE as --sample
 * (NULL: auto): the requests the command's `coalsim FILE.sketch` analyses.
 * 0, or -1 with "PATH:LINE[:COL]: why" in ERR. (sketch.c) */
int coalsim_analysis_run_sketch(coalsim_analysis *an, const char *path, const char *const *sets, const char *sample,
                                unsigned threads,
                                char *err, size_t cap);
/* The configuration AN was made from (its hierarchy, callback), as a
 * front end that runs blocks on threads needs it (coalsim_kernel_run). */
void coalsim_analysis_cfg_of(const coalsim_analysis *an, coalsim_analysis_cfg *cfg);
/* The report coalsim_analysis_report writes (after coalsim_analysis_finish),
 * as a string to free with coalsim_free; NULL if memory runs out.
 * (report_string.c) */
char *coalsim_analysis_report_string(const coalsim_analysis *an, coalsim_format fmt, const char *name);
/* Free what the library handed over (coalsim_analysis_report_string). */
void coalsim_free(void *p);

/* "ld", "st", "atom", "red", "ldsm", "stsm", "ldgsts", "ldgsts_cg";
 * "global", "shared", "local", "const". */
const char *coalsim_op_name(coalsim_op op);
const char *coalsim_space_name(coalsim_space sp);
/* 1 if requests to SP move sectors through L1 (global, local), 0 if they
 * are served in wavefronts (shared, const). */
int coalsim_space_has_sectors(coalsim_space sp);

#ifdef __cplusplus
}
#endif

#endif
