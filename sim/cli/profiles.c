/* Device profiles by name: `--profile h100` and `--profile h200` find the
 * profile the measurements made (gpu/profiles/NAME.txt in the source tree,
 * PREFIX/share/coalsim/profiles/NAME.txt once installed), so a user need
 * not know where it lives; anything else is a file's path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiles.h"

int profile_path_of(const char *name, char *path, size_t cap, char *tried, size_t tcap)
{
    int plain = *name && strlen(name) < 32;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-')) plain = 0;
    struct stat st;
    if (!plain || (stat(name, &st) == 0 && S_ISREG(st.st_mode))) {
        snprintf(path, cap, "%s", name);     /* a file */
        return 0;
    }
    /* a name: $COALSIM_PROFILE_DIR, beside the command (the build tree's
     * ../gpu/profiles), the install's ../share/coalsim/profiles */
    char dirs[3][4200];
    int n = 0;
    const char *env = getenv("COALSIM_PROFILE_DIR");
    if (env && *env) snprintf(dirs[n++], sizeof dirs[0], "%.4000s", env);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) *slash = '\0';
        snprintf(dirs[n++], sizeof dirs[0], "%.4000s/../gpu/profiles", self);
        snprintf(dirs[n++], sizeof dirs[0], "%.4000s/../share/coalsim/profiles", self);
    }
    int w = snprintf(tried, tcap, "no profile '%s' in", name);
    for (int i = 0; i < n; i++) {
        snprintf(path, cap, "%.4100s/%s.txt", dirs[i], name);
        if (access(path, R_OK) == 0) return 0;
        if (w < (int)tcap) w += snprintf(tried + w, tcap - (size_t)w, " %s", dirs[i]);
    }
    if (w < (int)tcap) snprintf(tried + w, tcap - (size_t)w, " (profiles: h100, h200, or a file's path)");
    return -1;
}
