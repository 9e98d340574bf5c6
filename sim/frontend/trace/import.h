/* Traces recorded by other tools (NVBit's mem_trace: nvbit.c; Accel-Sim's
 * tracer: accelsim.c), read by the trace reader (trace.c) a line at a time:
 * the reader finds the lines and numbers them, an importer turns each line
 * into at most one warp request.  The reader picks the importer from the
 * file's first bytes (import_find). */
#ifndef COALSIM_IMPORT_H
#define COALSIM_IMPORT_H

#include <stddef.h>

#include "coalsim.h"

/* Longest line an importer is given (a C++ kernel's name can be long). */
#define IMPORT_MAXLINE (64 * 1024)

typedef struct import_format {
    const char *name;           /* in messages: "NVBit mem_trace output" */
    coalsim_trace_kind kind;
    /* 1 if HEAD[0..n), a file's first bytes (cut anywhere), is this format */
    int (*sniff)(const char *head, size_t n);
    void *(*open)(void);        /* the importer's state; NULL if memory runs out */
    void (*close)(void *st);
    /* One line S[0..n) (no newline, not terminated).  1: a request in *OUT,
     * its label owned by ST until the next call; 0: no request (a header, a
     * comment, an instruction that is no memory access coalsim models); -1:
     * bad input, the sentence in ERR (the reader adds FILE:LINE). */
    int (*line)(void *st, const char *s, size_t n, coalsim_request *out, char *err, size_t cap);
    /* At the end of the input: 0, or -1 with why (a file cut short). */
    int (*end)(void *st, char *err, size_t cap);
} import_format;

extern const import_format import_nvbit, import_accelsim;

/* The format whose sniff says yes to HEAD[0..n), or NULL (a coalsim trace). */
const import_format *import_find(const char *head, size_t n);

/* Line I of HEAD[0..n) (from 0): 1 with *line and *len set, or 0 if HEAD
 * has fewer complete lines (a last line cut by the end of HEAD does not
 * count unless HEAD is the whole file, which the sniffers cannot know). */
int import_head_line(const char *head, size_t n, unsigned i, const char **line, size_t *len);

/* Split S[0..n) at spaces and tabs: up to MAX fields into F/FL; returns how
 * many there are (possibly more than MAX). */
int import_fields(const char *s, size_t n, const char **f, size_t *fl, int max);

/* Parse an unsigned number: decimal, or hex (HEX: digits only, or after 0x;
 * HEX == 2: 0x required).  0, or -1 if not one or it does not fit in 64 bits. */
int import_u64(const char *s, size_t n, int hex, uint64_t *v);

#endif
