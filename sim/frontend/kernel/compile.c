/* Compiling a .cu file to PTX: nvcc when it is found (PATH, $CUDA_HOME/bin,
 * /usr/local/cuda/bin), otherwise Debian's clang, which compiles CUDA device
 * code with no NVIDIA toolkit given the declarations -nocudainc leaves out
 * (cuda_prelude.c).  The compiler runs with an argument vector, never
 * through a shell.  Results are cached by the source's content, the
 * options and the compiler, and checked against the files it included. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coalsim.h"
#include "frontend/kernel/readfile.h"
#include "frontend/kernel/compile.h"
#include "frontend/kernel/proc.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

static int mkdirs(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    return mkdir(buf, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static void cache_dir_of(const coalsim_compile *c, char *out, size_t cap)
{
    out[0] = '\0';
    if (c && c->cache_dir) {
        snprintf(out, cap, "%s", c->cache_dir);
        return;
    }
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && *x) snprintf(out, cap, "%s/coalsim", x);
    else if (h && *h) snprintf(out, cap, "%s/.cache/coalsim", h);
}

/* The dependency file's paths (make syntax, as nvcc and clang write it) are
 * checked by size and modification time: "PATH SIZE MTIME" lines. */
static int write_deps(const char *depfile, const char *out)
{
    size_t len;
    char *d = kfile_read(depfile, &len);
    if (!d) return -1;
    FILE *fp = fopen(out, "w");
    if (!fp) {
        free(d);
        return -1;
    }
    char *p = strchr(d, ':');
    p = p ? p + 1 : d;
    while (*p) {
        while (*p == ' ' || *p == '\\' || *p == '\n' || *p == '\r' || *p == '\t') p++;
        if (!*p) break;
        char path[4096];
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\n' && *p != '\t' && !(p[0] == '\\' && (p[1] == '\n' || p[1] == '\r'))) {
            if (p[0] == '\\' && p[1] == ' ') p++;
            if (n < sizeof path - 1) path[n++] = *p;
            p++;
        }
        path[n] = '\0';
        struct stat sb;
        if (n && stat(path, &sb) == 0) fprintf(fp, "%lld %lld %s\n", (long long)sb.st_size, (long long)sb.st_mtime, path);
    }
    free(d);
    return fclose(fp) == 0 ? 0 : -1;
}

static int deps_fresh(const char *depsfile)
{
    FILE *fp = fopen(depsfile, "r");
    if (!fp) return 0;
    char line[4200];
    int fresh = 1;
    while (fresh && fgets(line, sizeof line, fp)) {
        long long size, mtime;
        int off = 0;
        if (sscanf(line, "%lld %lld %n", &size, &mtime, &off) < 2 || !off) {
            fresh = 0;
            break;
        }
        char *path = line + off;
        path[strcspn(path, "\n")] = '\0';
        struct stat sb;
        if (stat(path, &sb) != 0 || (long long)sb.st_size != size || (long long)sb.st_mtime != mtime) fresh = 0;
    }
    fclose(fp);
    return fresh;
}

char *coalsim_compile_cu(const char *path, const coalsim_compile *c, size_t *len, char *err, size_t cap)
{
    size_t srclen;
    char *src = kfile_read(path, &srclen);
    if (!src) {
        snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    const char *arch = c && c->arch ? c->arch : "sm_90";
    const char *want = c ? c->compiler : NULL;
    static const char *const cuda_dirs[] = {"/usr/local/cuda/bin", NULL};
    char compiler[4096] = "", cuda_home[4096];
    const char *extra[3] = {NULL, "/usr/local/cuda/bin", NULL};
    const char *ch = getenv("CUDA_HOME");
    if (ch && *ch) {
        snprintf(cuda_home, sizeof cuda_home, "%s/bin", ch);
        extra[0] = cuda_home;
    } else {
        extra[0] = cuda_dirs[0];
        extra[1] = NULL;
    }
    int use_clang = 0;
    if (!want || !strcmp(want, "nvcc")) {
        if (proc_find("nvcc", extra, compiler, sizeof compiler) != 0) compiler[0] = '\0';
    }
    if (!compiler[0] && (!want || !strcmp(want, "clang"))) {
        if (proc_find("clang", NULL, compiler, sizeof compiler) == 0) use_clang = 1;
        else compiler[0] = '\0';
    }
    if (!compiler[0]) {
        free(src);
        snprintf(err, cap, "%s: no CUDA compiler found: install the CUDA toolkit (nvcc; PATH, $CUDA_HOME/bin or "
                           "/usr/local/cuda/bin) or Debian's clang, or give coalsim the .ptx",
                 path);
        return NULL;
    }
    /* the cache key: compiler, options, source */
    uint64_t h = 1469598103934665603ull;
    struct stat csb;
    if (stat(compiler, &csb) == 0) {
        h = fnv(h, &csb.st_mtime, sizeof csb.st_mtime);
        h = fnv(h, &csb.st_size, sizeof csb.st_size);
    }
    h = fnv(h, compiler, strlen(compiler) + 1);
    h = fnv(h, arch, strlen(arch) + 1);
    h = fnv(h, COALSIM_VERSION, sizeof COALSIM_VERSION);
    for (const char *const *d = c && c->defines ? c->defines : NULL; d && *d; d++) h = fnv(h, *d, strlen(*d) + 1);
    h = fnv(h, "|", 1);
    for (const char *const *d = c && c->includes ? c->includes : NULL; d && *d; d++) h = fnv(h, *d, strlen(*d) + 1);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) h = fnv(h, cwd, strlen(cwd) + 1);     /* relative includes */
    h = fnv(h, path, strlen(path) + 1);
    h = fnv(h, src, srclen);
    free(src);
    char dir[4096], ptxf[4300], depsf[4300], tmpf[4300], depf[4300];
    cache_dir_of(c, dir, sizeof dir);
    int cached = dir[0] && mkdirs(dir) == 0;
    if (!cached) {
        char tdir[] = "/tmp/coalsim-XXXXXX";
        if (!mkdtemp(tdir)) {
            snprintf(err, cap, "%s: cannot make a temporary folder: %s", path, strerror(errno));
            return NULL;
        }
        snprintf(dir, sizeof dir, "%s", tdir);
    }
    snprintf(ptxf, sizeof ptxf, "%s/%016llx.ptx", dir, (unsigned long long)h);
    snprintf(depsf, sizeof depsf, "%s/%016llx.deps", dir, (unsigned long long)h);
    if (cached && access(ptxf, R_OK) == 0 && deps_fresh(depsf)) {
        char *ptx = kfile_read(ptxf, len);
        if (ptx) return ptx;
    }
    snprintf(tmpf, sizeof tmpf, "%s/%016llx.%ld.tmp", dir, (unsigned long long)h, (long)getpid());
    snprintf(depf, sizeof depf, "%s/%016llx.%ld.d", dir, (unsigned long long)h, (long)getpid());
    char prelude[4300] = "";
    if (use_clang && coalsim_cuda_prelude_write(dir, prelude, sizeof prelude) != 0) {
        snprintf(err, cap, "%s: cannot write clang's CUDA prelude into %s", path, dir);
        return NULL;
    }
    /* argv */
    char *argv[128];
    char archopt[64], defs[32][300], incs[32][4200];
    int n = 0;
    argv[n++] = compiler;
    if (!use_clang) {
        snprintf(archopt, sizeof archopt, "-arch=%s", arch);
        argv[n++] = "-ptx";
        argv[n++] = "-lineinfo";
        argv[n++] = "-O3";
        argv[n++] = archopt;
    } else {
        /* clang 14 knows sm_80 at most well: the PTX of sm_80 runs the same here */
        int sm = atoi(arch + 3);
        snprintf(archopt, sizeof archopt, "--cuda-gpu-arch=sm_%d", sm > 80 || sm < 50 ? 80 : sm);
        static char *const fixed[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-Xclang",
                                      "-target-feature", "-Xclang", "+ptx70", "-gline-tables-only", "-O3", "-S",
                                      "-Wno-unknown-cuda-version", "-include", NULL};
        argv[n++] = archopt;
        for (int k = 0; fixed[k]; k++) argv[n++] = fixed[k];
        argv[n++] = prelude;
    }
    int nd = 0;
    for (const char *const *d = c && c->defines ? c->defines : NULL; d && *d && nd < 32; d++, nd++) {
        snprintf(defs[nd], sizeof defs[nd], "-D%s", *d);
        argv[n++] = defs[nd];
    }
    int ni = 0;
    for (const char *const *d = c && c->includes ? c->includes : NULL; d && *d && ni < 32; d++, ni++) {
        snprintf(incs[ni], sizeof incs[ni], "-I%s", *d);
        argv[n++] = incs[ni];
    }
    argv[n++] = "-MD";
    argv[n++] = "-MF";
    argv[n++] = depf;
    argv[n++] = "-o";
    argv[n++] = tmpf;
    argv[n++] = (char *)path;
    argv[n] = NULL;
    char out[16384];
    int st = proc_run(argv, NULL, out, sizeof out);
    if (st != 0) {
        char cmd[2048];
        int k = 0;
        for (int i = 0; argv[i] && k < (int)sizeof cmd - 2; i++) k += snprintf(cmd + k, sizeof cmd - (size_t)k, "%s%s", i ? " " : "", argv[i]);
        snprintf(err, cap, "%s: compiling failed (%s %d):\n  %s\n%s", path, st < 0 ? "could not start" : "exit status",
                 st, cmd, out);
        unlink(tmpf);
        unlink(depf);
        if (!cached) rmdir(dir);
        return NULL;
    }
    char *ptx = kfile_read(tmpf, len);
    if (!ptx) snprintf(err, cap, "%s: the compiler wrote no PTX", path);
    if (cached && ptx && write_deps(depf, depsf) == 0) rename(tmpf, ptxf);
    unlink(tmpf);
    unlink(depf);
    if (!cached) {
        if (prelude[0]) unlink(prelude);
        rmdir(dir);
    }
    return ptx;
}

/* ---- ptxas -v: what the kernel's machine code uses ---- */

/* The numbers ptxas -v prints for the entry compiled (its "Used N
 * registers, ... M bytes smem" and "S bytes stack frame, A bytes spill
 * stores, B bytes spill loads" lines) from OUT into R.  0, or -1 if the
 * register line is not there. */
static int parse_ptxas(const char *out, coalsim_resources *r)
{
    memset(r, 0, sizeof *r);
    const char *u = strstr(out, "Used ");
    if (!u || sscanf(u, "Used %u registers", &r->regs) != 1) return -1;
    const char *eol = strchr(u, '\n');
    const char *sm = strstr(u, " bytes smem");
    if (sm && (!eol || sm < eol)) {
        const char *b = sm;
        while (b > u && b[-1] >= '0' && b[-1] <= '9') b--;
        r->smem_static = strtoull(b, NULL, 10);
    }
    const char *st = strstr(out, "bytes stack frame");
    if (st) {
        const char *b = st - 1;
        while (b > out && b[-1] >= '0' && b[-1] <= '9') b--;
        unsigned long long frame = 0, sst = 0, sld = 0;
        sscanf(b, "%llu bytes stack frame, %llu bytes spill stores, %llu bytes spill loads", &frame, &sst, &sld);
        r->stack_bytes = frame, r->spill_store_bytes = sst, r->spill_load_bytes = sld;
    }
    return 0;
}

int coalsim_ptxas_resources(const char *ptx, size_t len, const char *entry, const char *arch, const char *cache_dir,
                            coalsim_resources *out, char *err, size_t cap)
{
    char ptxas[4096];
    if (proc_find_cuda("ptxas", ptxas, sizeof ptxas) != 0) return 1;
    if (!arch) arch = "sm_90";
    uint64_t h = 1469598103934665603ull;
    struct stat psb;
    if (stat(ptxas, &psb) == 0) {
        h = fnv(h, &psb.st_mtime, sizeof psb.st_mtime);
        h = fnv(h, &psb.st_size, sizeof psb.st_size);
    }
    h = fnv(h, ptxas, strlen(ptxas) + 1);
    h = fnv(h, arch, strlen(arch) + 1);
    h = fnv(h, entry, strlen(entry) + 1);
    h = fnv(h, ptx, len);
    coalsim_compile c = {.cache_dir = cache_dir};
    char dir[4096], resf[4300], ptxf[4300], cmdout[16384];
    cache_dir_of(&c, dir, sizeof dir);
    int cached = dir[0] && mkdirs(dir) == 0;
    if (!cached) {
        char tdir[] = "/tmp/coalsim-XXXXXX";
        if (!mkdtemp(tdir)) {
            snprintf(err, cap, "ptxas: cannot make a temporary folder: %s", strerror(errno));
            return -1;
        }
        snprintf(dir, sizeof dir, "%s", tdir);
    }
    snprintf(resf, sizeof resf, "%s/%016llx.res", dir, (unsigned long long)h);
    if (cached) {
        size_t n;
        char *txt = kfile_read(resf, &n);
        if (txt) {
            int ok = parse_ptxas(txt, out) == 0;
            free(txt);
            if (ok) return 0;
        }
    }
    /* the PTX into a file ptxas can read, then ptxas -v on the one entry */
    snprintf(ptxf, sizeof ptxf, "%s/%016llx.%ld.ptx", dir, (unsigned long long)h, (long)getpid());
    FILE *fp = fopen(ptxf, "wb");
    if (!fp || fwrite(ptx, 1, len, fp) != len) {
        if (fp) fclose(fp);
        unlink(ptxf);
        snprintf(err, cap, "ptxas: cannot write %s", ptxf);
        if (!cached) rmdir(dir);
        return -1;
    }
    fclose(fp);
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    char *argv[] = {ptxas, archopt, "-v", "--warn-on-spills", "-e", (char *)entry, "-o", "/dev/null", ptxf, NULL};
    int st = proc_run(argv, NULL, cmdout, sizeof cmdout);
    unlink(ptxf);
    if (!cached) rmdir(dir);
    if (st != 0 || parse_ptxas(cmdout, out) != 0) {
        snprintf(err, cap, "ptxas -v on %s's PTX failed (%s %d):\n%s", entry, st < 0 ? "could not start" : "exit status",
                 st, cmdout);
        return -1;
    }
    if (cached) {
        FILE *rf = fopen(resf, "w");
        if (rf) {
            fputs(cmdout, rf);
            fclose(rf);
        }
    }
    return 0;
}
