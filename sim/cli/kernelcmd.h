/* The command's side of the kernel front end: a .cu or .ptx file, its
 * launch options, compiled, loaded and run into an analysis (kernelcmd.c). */
#ifndef COALSIM_KERNELCMD_H
#define COALSIM_KERNELCMD_H

#include "coalsim.h"

typedef struct kernel_opts {
    const char *kernel;            /* --kernel */
    unsigned grid[3], block[3];    /* --grid, --block */
    int have_grid, have_block;
    unsigned cluster[3];           /* --cluster (0s: none given) */
    uint64_t dynamic_shared;       /* --dynamic-shared */
    const char *args;              /* --args */
    const char **defines;          /* --define, NULL-terminated */
    const char **includes;         /* --include */
    const char *sm;                /* sm_XX to compile for */
    const char *compiler;          /* --compiler nvcc|clang, or NULL */
    const char *dump;              /* --dump DIR: each sized buffer after the run into DIR/NAME.bin */
    int sass;                      /* --sass: a .cu/.ptx module through ptxas and a disassembler, its SASS run */
    const char *ptx;               /* --ptx FILE: the module (.cu or .ptx) of a listing or binary */
    unsigned regs;                 /* --regs: registers a thread for the time model (0: ask ptxas) */
    int warm;                      /* --l2 warm: the launch as the second of two back to back (needs --hier) */
    coalsim_sample_cfg sample;     /* --sample */
} kernel_opts;

enum {
    KK_NONE = COALSIM_KERNEL_NONE,
    KK_CU = COALSIM_KERNEL_CU,
    KK_PTX = COALSIM_KERNEL_PTX,
    KK_LISTING = COALSIM_KERNEL_LISTING,
    KK_BINARY = COALSIM_KERNEL_BINARY
};
/* What kind of kernel file PATH is: .cu, .ptx, a SASS listing (.sass, .nvdisasm), a
 * binary (.cubin, .fatbin, or any ELF file), or none (a trace). */
int kernel_kind(const char *path);
/* 1 if PATH names a kernel file of any kind. */
int kernel_path(const char *path);
/* Parse "X[,Y[,Z]]" into D (missing ones 1).  0, or -1. */
int kernel_dims(const char *s, unsigned d[3]);
/* The sm_XX a preset name compiles for ("hopper" -> "sm_90a": wgmma and setmaxnreg need it), or NULL. */
const char *kernel_sm_of_preset(const char *preset);
/* The preset of an sm_XX ("sm_86" -> "ampere"), or NULL. */
const char *kernel_preset_of_sm(const char *sm);
/* Compile or read PATH and run its launch into AN (made from CFG) on THREADS
 * workers (0: every core).  With KO->warm (CFG with a hierarchy), the launch
 * runs first into an analysis of its own (CFG, L2 cold, no per-request
 * callback), finished, and AN inherits that one's L2: AN is the second of two
 * identical launches back to back.  0, or -1 after printing "coalsim: ..." on
 * stderr. */
int kernel_run(const char *path, const kernel_opts *ko, coalsim_analysis *an, const coalsim_analysis_cfg *cfg,
               unsigned threads);

#endif
