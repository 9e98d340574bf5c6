/* A float's bits and back, as both interpreters (PTX and SASS) keep every
 * register as raw bits: memcpy, no aliasing, no conversion. */
#ifndef COALSIM_FBITS_H
#define COALSIM_FBITS_H

#include <stdint.h>
#include <string.h>

static inline float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#endif
