/* A tensor map: what the Tensor Memory Accelerator (TMA) is told about a
 * tensor in global memory, made on the host by cuTensorMapEncodeTiled and
 * handed to a kernel as a 128-byte CUtensorMap (a __grid_constant__
 * parameter, or in global or constant memory); cp.async.bulk.tensor names
 * it.  NVIDIA does not document the 128 bytes, so coalsim keeps its own
 * encoding in them: the driver (sim/driver) writes it, the interpreters
 * read it, `--args NAME=tmap:...` makes it.
 *
 *   global tensor (dims[0] innermost, strides in bytes)   box at coords c
 *   ┌──────────────────────────────┐                      ┌──────┐ box[0] x box[1] x ...
 *   │      ┌──────┐                │   cp.async.bulk.     │      │ dense in shared memory,
 *   │      │ box  │                │ ─ tensor ──────────► │      │ innermost first, then each
 *   │      └──────┘                │   (zeros outside     └──────┘ 16-byte chunk moved by the
 *   └──────────────────────────────┘    the tensor)                swizzle (address bits 7.. XOR 4..)
 *
 * The rules are cuTensorMapEncodeTiled's (CUDA driver API reference) and the
 * PTX ISA's ("Tensor copy", "Tensor-map"): ranks 1-5, a 16-byte aligned
 * base, strides multiples of 16 bytes, boxes of 1-256 elements a dimension
 * whose inner dimension is a multiple of 16 bytes and, when swizzled, at
 * most the swizzle's span (32, 64 or 128 bytes). */
#ifndef COALSIM_TMAP_H
#define COALSIM_TMAP_H

#include <stddef.h>
#include <stdint.h>

#define TMAP_BYTES 128
#define TMAP_MAX_RANK 5

/* CUtensorMapDataType's values, as cuda.h numbers them */
typedef enum {
    TMAP_U8 = 0, TMAP_U16 = 1, TMAP_U32 = 2, TMAP_S32 = 3, TMAP_U64 = 4, TMAP_S64 = 5, TMAP_F16 = 6, TMAP_F32 = 7,
    TMAP_F64 = 8, TMAP_BF16 = 9, TMAP_F32_FTZ = 10, TMAP_TF32 = 11, TMAP_TF32_FTZ = 12, TMAP_TYPES
} tmap_type;

/* CUtensorMapSwizzle: none, 32, 64, 128 bytes */
typedef enum { TMAP_SWIZZLE_NONE = 0, TMAP_SWIZZLE_32B = 1, TMAP_SWIZZLE_64B = 2, TMAP_SWIZZLE_128B = 3 } tmap_swizzle;

typedef struct tmap {
    tmap_type type;
    unsigned rank;                   /* 1..5 */
    uint64_t base;                   /* global address */
    uint64_t dims[TMAP_MAX_RANK];    /* elements, innermost first */
    uint64_t strides[TMAP_MAX_RANK]; /* bytes; strides[0] is the element size */
    unsigned box[TMAP_MAX_RANK];     /* elements a box spans, 1..256 */
    unsigned estride[TMAP_MAX_RANK]; /* traversal strides, 1..8 */
    tmap_swizzle swizzle;
    unsigned interleave;             /* CUtensorMapInterleave: only 0 (none) is supported */
    unsigned oob_nan;                /* CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA */
} tmap;

/* Bytes of one element of TYPE (0 for an unknown type). */
unsigned tmap_type_bytes(tmap_type type);

/* Check T as cuTensorMapEncodeTiled does.  NULL if it is valid, else a
 * static sentence saying what is wrong. */
const char *tmap_check(const tmap *t);

/* The 128 bytes of T (checked first: NULL, or tmap_check's sentence). */
const char *tmap_encode(const tmap *t, unsigned char out[TMAP_BYTES]);
/* T from 128 bytes tmap_encode wrote: 0, or -1 if they are not a tensor
 * map coalsim made. */
int tmap_decode(const unsigned char in[TMAP_BYTES], tmap *t);

/* Elements of the box along dimension D (the box divided by the traversal
 * stride, rounded up), and the bytes one box moves. */
unsigned tmap_box_elems(const tmap *t, unsigned d);
uint64_t tmap_box_bytes(const tmap *t);

/* The shared-memory address the swizzle puts the byte at address A in:
 * its 16-byte chunk index (bits 4..) XORed with bits 7.. (1, 2 or 3 bits
 * for 32, 64, 128 bytes), as CuTe's Swizzle<1|2|3,4,3> on the address. */
static inline uint32_t tmap_swizzle_addr(tmap_swizzle s, uint32_t a)
{
    unsigned bits = (unsigned)s;     /* 32B: 1, 64B: 2, 128B: 3 */
    if (!bits) return a;
    uint32_t mask = (1u << bits) - 1;
    return a ^ (((a >> 7) & mask) << 4);
}

/* Parse "BUFADDR-less" text of --args' tmap: TYPE:DIMS:STRIDES:BOX[:SWIZZLE]
 * (dims, strides and box as AxBxC, innermost first; strides of dims 1.. in
 * bytes, or '-' for dense; SWIZZLE none|32|64|128) into T (base left 0).
 * NULL, or a static sentence saying what is wrong. */
const char *tmap_parse(const char *text, tmap *t);

#endif
