/* SASS memory opcodes, as NVBit names them ("LDG.E.64.SYS", "STS.U8",
 * "ATOMG.E.ADD.STRONG.GPU", "LDSM.16.M88.4"): what a warp request of each
 * does.  Shared by the importers of other tools' traces (nvbit.c,
 * accelsim.c). */
#ifndef COALSIM_SASSOP_H
#define COALSIM_SASSOP_H

#include <stddef.h>
#include <stdint.h>

#include "coalsim.h"

typedef struct sassop {
    coalsim_op op;
    coalsim_space space;
    unsigned size;      /* bytes a lane, from the modifiers; 0: they do not say */
    uint32_t lanes;     /* the lanes that give an address (LDSM.x1: 0-7) */
    int fp;             /* a floating-point type among the modifiers (F32, F64, F16x2, ...) */
    int l2_only;        /* a load L1 does not serve: .STRONG with .GPU or .SYS, or .MMIO (coalsim_request.l2_only) */
} sassop;

/* Decode the opcode OPC[0..n) (base and modifiers).  0, or -1 if it is not a
 * memory access coalsim models (LDGSTS, texture, surface, constant loads,
 * anything not a memory instruction). */
int sassop_decode(const char *opc, size_t n, sassop *out);

/* 1 if OPC[0..n) looks like a SASS opcode: letters, digits, '.' and '_',
 * starting with a letter, at most 64 bytes. */
int sassop_word(const char *opc, size_t n);

#endif
