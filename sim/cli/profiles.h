/* Device profiles by name (profiles.c). */
#ifndef COALSIM_CLI_PROFILES_H
#define COALSIM_CLI_PROFILES_H

#include <stddef.h>

/* The file of profile NAME into PATH: NAME itself if it is a readable file
 * or not a plain name, else NAME.txt in $COALSIM_PROFILE_DIR, the build
 * tree's gpu/profiles or the install's share/coalsim/profiles.  0, or -1
 * with the places looked in, in TRIED. */
int profile_path_of(const char *name, char *path, size_t cap, char *tried, size_t tcap);

#endif
