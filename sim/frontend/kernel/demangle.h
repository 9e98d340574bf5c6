/* Demangling kernel names (demangle.c). */
#ifndef COALSIM_DEMANGLE_H
#define COALSIM_DEMANGLE_H

#include <stddef.h>

/* MANGLED demangled into OUT.  0, or -1 (OUT then holds MANGLED as it is). */
int coalsim_demangle(const char *mangled, char *out, size_t cap);
/* The part of a demangled name before its template arguments or parameters. */
void coalsim_demangled_base(const char *demangled, char *out, size_t cap);

#endif
