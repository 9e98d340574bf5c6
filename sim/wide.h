/* Hot lane loops built twice on x86-64, for AVX2 and for the baseline
 * x86-64, the one for this CPU picked when the program loads (GCC's
 * target_clones; elsewhere, and in sanitizer builds, built once). */
#ifndef COALSIM_WIDE_H
#define COALSIM_WIDE_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define COALSIM_WIDE __attribute__((target_clones("avx2", "default")))
/* GCC 12 takes a cloned function's address for a local's */
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#else
#define COALSIM_WIDE
#endif

#endif
