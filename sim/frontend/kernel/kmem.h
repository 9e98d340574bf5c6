/* A kernel's global memory: named buffers placed as cudaMalloc places them,
 * held in 4 KiB pages made on first touch and filled then from the buffer's
 * fill rule, so memory grows with the pages a kernel touches, not with its
 * buffers' sizes.  Shared by every worker thread: page creation takes a lock,
 * each worker keeps a small cache of pages it found (kmem_tlb). */
#ifndef COALSIM_KMEM_H
#define COALSIM_KMEM_H

#include <stddef.h>
#include <stdint.h>

#define KMEM_PAGE 4096u
#define KMEM_BASE 0x7f0000000000ull        /* the first buffer */
#define KMEM_VAR_BASE 0x7e0000000000ull    /* the module's .global variables */
#define KMEM_UNSIZED (4ull << 30)          /* a buffer with no size spans this much */
#define KMEM_GAP (2ull << 20)              /* buffers start on 2 MiB boundaries */

typedef enum { KF_ZERO, KF_IOTA, KF_IOTAF, KF_RANDOM, KF_RANDINT, KF_FILE, KF_BYTES, KF_RANDOMH, KF_RANDOMBF, KF_RANDOMD } kfill_kind;

typedef struct kfill {
    kfill_kind kind;
    uint64_t seed, n;          /* random/randint */
    double step;               /* iota/iotaf */
    unsigned char *bytes;      /* file/bytes: the contents (owned) */
    uint64_t nbytes;
} kfill;

typedef struct kbuf {
    char *name;
    uint64_t base, size;       /* size: the bytes it spans (KMEM_UNSIZED when none was given) */
    int sized;
    kfill fill;
    unsigned char *host;       /* memory of the calling process at the same address (managed memory), or NULL */
} kbuf;

/* The pages: a three-level radix tree over 48-bit addresses (like an MMU's
 * page tables), 4096 entries a level, read without a lock; a new table or
 * page is installed with a compare-and-swap, so workers that make the same
 * page at once agree on one. */
#define KMEM_LEVEL_BITS 12
#define KMEM_ADDR_BITS 48

typedef struct kmem {
    kbuf *bufs;
    size_t nbufs, capbufs;
    uint64_t next_base, next_var;
    void **root;               /* level 1 -> level 2 -> level 3 -> pages */
    uint64_t held;             /* bytes of pages and tables made so far (atomic) */
} kmem;

#define KMEM_TLB 256
typedef struct kmem_tlb {
    uint64_t tag[KMEM_TLB];    /* page number + 1 */
    unsigned char *page[KMEM_TLB];
    uint64_t lo[KMEM_TLB], hi[KMEM_TLB];   /* the addresses of the page its buffer covers */
} kmem_tlb;

/* The most bytes M's buffers can take (their sizes; an unsized one counts
 * KMEM_UNSIZED). */
uint64_t kmem_footprint(const kmem *m);
/* The bytes of pages and tables the kmem at M has made so far (M a const
 * kmem *: grid_sampling's held callback). */
uint64_t kmem_held(const void *m);

/* The word the fill rule F puts at 32-bit word index I of its buffer. */
uint32_t kfill_word(const kfill *f, uint64_t i);
/* Parse FILL ("zero", "iota[:STEP]", "iotaf[:STEP]", "random:SEED",
 * "randint:SEED:N", "file:PATH").  0, or -1 with why in ERR. */
int kfill_parse(const char *s, kfill *f, char *err, size_t cap);

int kmem_init(kmem *m);
void kmem_free(kmem *m);
/* Add a buffer (SIZE 0: unsized); F is taken over.  Its base, or 0 if memory runs out. */
uint64_t kmem_add(kmem *m, const char *name, uint64_t size, kfill *f);
/* Add a buffer of SIZE bytes whose bytes are the calling process's own
 * memory at HOST (mapped there, at the buffer's address): a kernel and the
 * process see one memory.  Its base, or 0. */
uint64_t kmem_add_host(kmem *m, const char *name, uint64_t size, unsigned char *host);
/* Where the next buffer of SIZE bytes would start. */
uint64_t kmem_next_base(const kmem *m, uint64_t size);
/* Add a module variable of SIZE bytes with INIT (NULL: zero). */
uint64_t kmem_add_var(kmem *m, const char *name, uint64_t size, unsigned align, const unsigned char *init);
/* The buffer holding [addr, addr + n), or NULL. */
const kbuf *kmem_find(const kmem *m, uint64_t addr, uint64_t n);
const kbuf *kmem_buffer(const kmem *m, const char *name);
/* The page holding ADDR, made and filled if new; NULL if ADDR is in no
 * buffer or memory ran out (*oom set then).  With T, the page is kept in
 * T's cache with the addresses [lo, hi) of the page that ADDR's buffer
 * covers. */
unsigned char *kmem_page(kmem *m, kmem_tlb *t, uint64_t addr, int *oom);
/* Copy N bytes at ADDR into DST (pages not made yet read as their fill). */
int kmem_read(kmem *m, uint64_t addr, void *dst, size_t n);
/* Copy N bytes from SRC to ADDR.  0, or -1 if the range leaves the buffers. */
int kmem_write(kmem *m, uint64_t addr, const void *src, size_t n);
/* Remove the buffer that starts at BASE, its pages freed (no kernel may be
 * running).  0, or -1 if no buffer starts there. */
int kmem_release(kmem *m, uint64_t base);

/* coalsim_memory (memory.c): a kmem that outlives launches. */
struct coalsim_memory {
    kmem m;
    uint64_t allocs;           /* allocations made, for their names */
};

#endif
