/* The initial contents of a launch's buffers, as the --args FILL grammar of
 * gpu/outside/launches.list defines them (README.md there).  One definition,
 * shared by the GPU launcher (launch.cu) and coalsim, so that both start a
 * kernel from the same bytes.  C99/C11 and C++ alike; everything is static
 * inline.
 *
 *   buffer bytes:  | word 0 | word 1 | ... | word i: bytes 4i..4i+3, little-endian
 *   zero           word i = 0
 *   iota:STEP      word i = (uint32_t)(i * STEP)           STEP an int64, default 1
 *   iotaf:STEP     word i = (float)i * STEP, as float32    STEP a float, default 1
 *   random:SEED    word i = float32 in [0, 1): (float)(h >> 40) * 2^-24
 *   randint:SEED:N word i = (uint32_t)(h % N)
 *   randomh:SEED   word i = two IEEE halves in [0, 1), multiples of 1/1024 (exact):
 *                  low half (h >> 40) % 1024 / 1024, high half (h >> 50) % 1024 / 1024
 *   randombf:SEED  the same as bfloat16 halves, multiples of 1/128: (h >> 40) % 128, (h >> 50) % 128
 *   randomd:SEED   words 2j, 2j+1 = the double (h_j >> 11) * 2^-53 in [0, 1), low word first,
 *                  h_j = mix(mix(SEED) ^ j)
 *   file:PATH      the file's bytes from offset 0, zero after its end
 *   with h = mix(mix(SEED) ^ i), mix = SplitMix64's finaliser (below).
 * A final partial word (a size not a multiple of 4) takes the low bytes of
 * its word.  file: is left to the caller (it needs I/O); every other fill is
 * here. */
#ifndef COALSIM_FILL_H
#define COALSIM_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum coalsim_fill_kind {
    COALSIM_FILL_ZERO,
    COALSIM_FILL_IOTA,
    COALSIM_FILL_IOTAF,
    COALSIM_FILL_RANDOM,
    COALSIM_FILL_RANDINT,
    COALSIM_FILL_FILE,
    COALSIM_FILL_RANDOMH,
    COALSIM_FILL_RANDOMBF,
    COALSIM_FILL_RANDOMD
};

struct coalsim_fill {
    enum coalsim_fill_kind kind;
    int64_t step;      /* iota */
    float stepf;       /* iotaf */
    uint64_t seed;     /* random, randint */
    uint64_t n;        /* randint, >= 1 */
};

/* SplitMix64's output function (Steele, Lea and Flood 2014), the mixing step
 * of every random fill. */
static inline uint64_t coalsim_fill_mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* K / 1024 (K < 1024) as an IEEE half's bits: exact. */
static inline uint32_t coalsim_fill_half(uint32_t k)
{
    int e = 9;
    if (!k) return 0;
    while (!(k >> e)) e--;
    return (uint32_t)(e + 5) << 10 | ((k << (10 - e)) & 0x3ffu);
}

/* K / 128 (K < 128) as a bfloat16's bits (a float32's high half): exact. */
static inline uint32_t coalsim_fill_bf16(uint32_t k)
{
    float v = (float)k / 128.0f;
    uint32_t w;
    memcpy(&w, &v, 4);
    return w >> 16;
}

/* Word i of the fills of 16- and 64-bit values (randomh, randombf, randomd). */
static inline uint32_t coalsim_fill_word_wide(enum coalsim_fill_kind kind, uint64_t seed, uint64_t i)
{
    uint64_t h = coalsim_fill_mix(coalsim_fill_mix(seed) ^ (kind == COALSIM_FILL_RANDOMD ? i / 2 : i)), bits;
    double d;
    switch (kind) {
    case COALSIM_FILL_RANDOMH:
        return coalsim_fill_half((uint32_t)(h >> 40) & 0x3ffu) | coalsim_fill_half((uint32_t)(h >> 50) & 0x3ffu) << 16;
    case COALSIM_FILL_RANDOMBF:
        return coalsim_fill_bf16((uint32_t)(h >> 40) & 0x7fu) | coalsim_fill_bf16((uint32_t)(h >> 50) & 0x7fu) << 16;
    case COALSIM_FILL_RANDOMD:
        d = (double)(h >> 11) * (1.0 / 9007199254740992.0);
        memcpy(&bits, &d, 8);
        return (uint32_t)(i % 2 ? bits >> 32 : bits);
    default:
        return 0;
    }
}

/* Returns 32-bit word i of the fill f (f->kind must not be COALSIM_FILL_FILE;
 * for it this returns 0). */
static inline uint32_t coalsim_fill_word(const struct coalsim_fill *f, uint64_t i)
{
    uint64_t h;
    float v;
    uint32_t w;
    switch (f->kind) {
    case COALSIM_FILL_IOTA:
        return (uint32_t)(i * (uint64_t)f->step);
    case COALSIM_FILL_IOTAF:
        v = (float)i * f->stepf;
        memcpy(&w, &v, 4);
        return w;
    case COALSIM_FILL_RANDOM:
        h = coalsim_fill_mix(coalsim_fill_mix(f->seed) ^ i);
        v = (float)(h >> 40) * (1.0f / 16777216.0f);
        memcpy(&w, &v, 4);
        return w;
    case COALSIM_FILL_RANDINT:
        h = coalsim_fill_mix(coalsim_fill_mix(f->seed) ^ i);
        return (uint32_t)(h % f->n);
    case COALSIM_FILL_RANDOMH:
    case COALSIM_FILL_RANDOMBF:
    case COALSIM_FILL_RANDOMD:
        return coalsim_fill_word_wide(f->kind, f->seed, i);
    default:
        return 0;
    }
}

/* Writes bytes [begin, end) of the buffer that f fills, into dst (which holds
 * exactly those end - begin bytes); begin must be a multiple of 4.  Splitting
 * a buffer into such ranges lets callers fill it in parallel. */
static inline void coalsim_fill_range(const struct coalsim_fill *f, unsigned char *dst, uint64_t begin, uint64_t end)
{
    uint64_t at, i;
    uint32_t w;
    unsigned char b[4];
    if (f->kind == COALSIM_FILL_ZERO || f->kind == COALSIM_FILL_FILE) {
        memset(dst, 0, (size_t)(end - begin));
        return;
    }
    for (at = begin; at < end; at += 4) {
        i = at / 4;
        w = coalsim_fill_word(f, i);
        b[0] = (unsigned char)w;
        b[1] = (unsigned char)(w >> 8);
        b[2] = (unsigned char)(w >> 16);
        b[3] = (unsigned char)(w >> 24);
        memcpy(dst + (at - begin), b, end - at < 4 ? (size_t)(end - at) : 4);
    }
}

#endif
