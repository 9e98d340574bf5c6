/* Bits set in a lane mask.  __builtin_popcount becomes a library call
 * unless the build targets a CPU with POPCNT; this is a few instructions
 * anywhere, and the models count lanes for every request. */
#ifndef COALSIM_POPCOUNT_H
#define COALSIM_POPCOUNT_H

#include <stdint.h>

static inline unsigned popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

#endif
