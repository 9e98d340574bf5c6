/* coalsim run (run.h).  The program runs in a child process with coalsim's
 * CUDA driver (build/driver/libcuda.so.1, installed as
 * PREFIX/lib/coalsim/libcuda.so.1) first on its LD_LIBRARY_PATH; the
 * driver learns what to report from COALSIM_RUN_* variables and writes each
 * launch's report into a fresh directory as the launch ends, so that a
 * program that crashes still leaves the reports of the launches before.
 * Once the program has ended, the reports are written out in launch order,
 * with what the driver could not do. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/kernel/readfile.h"
#include "run.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1 };

/* The folder holding coalsim's libcuda.so.1 into DIR: $COALSIM_DRIVER_DIR,
 * else beside the command (driver/, the build tree) or ../lib/coalsim (an
 * install).  0, or -1 with the places looked at in DIR. */
static int driver_dir(char *dir, size_t cap)
{
    const char *env = getenv("COALSIM_DRIVER_DIR");
    char self[4096], tried[3][4200], path[4300 + 16];
    int n = 0;
    if (env && *env) snprintf(tried[n++], sizeof tried[0], "%s", env);
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) *slash = '\0';
        snprintf(tried[n++], sizeof tried[0], "%s/driver", self);
        snprintf(tried[n++], sizeof tried[0], "%s/../lib/coalsim", self);
    }
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%.4199s/libcuda.so.1", tried[i]);
        if (access(path, R_OK) == 0) {
            snprintf(dir, cap, "%.4199s", tried[i]);
            return 0;
        }
    }
    int w = snprintf(dir, cap, "no libcuda.so.1 of coalsim's in");
    for (int i = 0; i < n && w < (int)cap; i++) w += snprintf(dir + w, cap - (size_t)w, " %s", tried[i]);
    return -1;
}

/* PROG as execvp would find it, into PATH: 0, or -1 if it names no
 * executable file. */
static int find_program(const char *prog, char *path, size_t cap)
{
    struct stat st;
    if (strchr(prog, '/')) {
        snprintf(path, cap, "%s", prog);
        return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0 ? 0 : -1;
    }
    const char *p = getenv("PATH");
    if (!p) p = "/usr/bin:/bin";
    while (*p) {
        size_t n = strcspn(p, ":");
        snprintf(path, cap, "%.*s/%s", (int)n, p, prog);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0) return 0;
        p += n + (p[n] == ':');
    }
    return -1;
}

/* The program's process while it runs: a SIGTERM or SIGHUP sent to coalsim
 * goes on to it (the one piece of global state here: a signal handler has
 * nowhere else to look). */
static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
    if (child_pid > 0) kill((pid_t)child_pid, sig);
}

/* 1 if PATH is an ELF executable linked fully statically (no program
 * interpreter): it cannot load a driver library, coalsim's or NVIDIA's. */
static int fully_static(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    unsigned char eh[64], ph[56];
    int stat_elf = 0;
    if (fread(eh, 1, sizeof eh, fp) == sizeof eh && !memcmp(eh, "\177ELF", 4) && eh[4] == 2 && eh[5] == 1) {
        uint64_t phoff = 0;
        uint16_t phentsize = (uint16_t)(eh[54] | eh[55] << 8), phnum = (uint16_t)(eh[56] | eh[57] << 8);
        for (int i = 7; i >= 0; i--) phoff = phoff << 8 | eh[32 + i];
        stat_elf = phnum > 0 && phentsize >= 4;
        for (unsigned i = 0; stat_elf && i < phnum; i++) {
            if (fseek(fp, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) != 0 || fread(ph, 1, 4, fp) != 4) {
                stat_elf = 0;
                break;
            }
            if ((ph[0] | ph[1] << 8 | ph[2] << 16 | (uint32_t)ph[3] << 24) == 3) stat_elf = 0;   /* PT_INTERP */
        }
    }
    fclose(fp);
    return stat_elf;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* DIR's files whose names start with PREFIX, sorted; N of them (NULL if none or out of memory). */
static char **listing(const char *dir, const char *prefix, size_t *n)
{
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp) return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) break;
            names = nn;
        }
        if (!(names[*n] = strdup(e->d_name))) break;
        (*n)++;
    }
    closedir(dp);
    if (*n) qsort(names, *n, sizeof *names, by_name);
    return names;
}

/* The contents of DIR/NAME (NUL-terminated, malloc'd), or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (n + got + 1 > cap) {
            cap = 2 * (n + got + 1);
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + n, chunk, got);
        n += got;
    }
    fclose(fp);
    if (!buf && !(buf = calloc(1, 1))) return NULL;
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(out, "\\%c", *s);
        else if (*s == '\n') fputs("\\n", out);
        else if ((unsigned char)*s < 0x20) fprintf(out, "\\u%04x", *s);
        else fputc(*s, out);
    }
    fputc('"', out);
}

static void remove_dir(const char *dir)
{
    size_t n;
    char **names = listing(dir, "", &n);
    for (size_t i = 0; i < n; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (strcmp(names[i], ".") && strcmp(names[i], "..")) unlink(path);
        free(names[i]);
    }
    free(names);
    rmdir(dir);
}

/* The reports in DIR to OUT.  *FAILED set if a launch could not be run by
 * coalsim.  0, or -1 if OUT cannot be written. */
static int collect(const run_opts *o, const char *dir, const char *prog, FILE *out, int *failed)
{
    size_t n;
    char **names = listing(dir, "launch-", &n);
    int first = 1;
    if (o->fmt == COALSIM_JSON) fputs("{\"launches\": [", out);
    if (o->fmt == COALSIM_CSV) coalsim_report_csv_header(out, o->hier);
    for (size_t i = 0; i < n; i++) {
        const char *dot = strrchr(names[i], '.');
        char *text = slurp(dir, names[i], NULL);
        if (!text || !dot) {
            free(text);
            continue;
        }
        int fault = !strcmp(dot, ".fault"), err = !strcmp(dot, ".err");
        if (fault || err) {
            text[strcspn(text, "\n")] = '\0';
            fprintf(stderr, "coalsim: %s\n", text);
            *failed |= err;
            if (o->fmt == COALSIM_JSON) {
                fprintf(out, "%s\n{\"launch\": %lu, \"%s\": ", first ? "" : ",", strtoul(names[i] + 7, NULL, 10),
                        fault ? "fault" : "error");
                json_string(out, text);
                fputs("}", out);
                first = 0;
            } else if (o->fmt == COALSIM_TEXT) {
                fprintf(out, "%s== %s\n", first ? "" : "\n", text);
                first = 0;
            }
        } else if (o->fmt == COALSIM_JSON) {
            size_t len = strlen(text);
            while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
            fprintf(out, "%s\n%s", first ? "" : ",", text);
            first = 0;
        } else {
            if (o->fmt == COALSIM_TEXT && !first) fputc('\n', out);
            fputs(text, out);
            first = 0;
        }
        free(text);
    }
    if (o->fmt == COALSIM_JSON) fputs(first ? "]}\n" : "\n]}\n", out);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    if (!n) fprintf(stderr, "coalsim: %s made no CUDA kernel launch\n", prog);
    /* what the driver could not do */
    char *calls = slurp(dir, "unsupported", NULL);
    for (char *line = calls, *nl; line && *line; line = nl + 1) {
        if (!(nl = strchr(line, '\n'))) break;
        *nl = '\0';
        int seen = 0;
        for (char *p = calls; p < line && !seen; p += strlen(p) + 1) seen = !strcmp(p, line);
        if (!seen)
            fprintf(stderr, "coalsim: %s called %s, which coalsim's driver does not implement (it answered "
                            "CUDA_ERROR_NOT_SUPPORTED)\n", prog, line);
    }
    free(calls);
    char *mods = slurp(dir, "modules", NULL);
    if (mods && *mods) fprintf(stderr, "coalsim: %s: a module coalsim cannot load: %s", prog, mods);
    free(mods);
    return ferror(out) ? -1 : 0;
}

int run_program(const run_opts *o, char **argv)
{
    char drvdir[13000], prog[4096];
    if (driver_dir(drvdir, sizeof drvdir) != 0) {
        fprintf(stderr, "coalsim: %s (build it with make; or set COALSIM_DRIVER_DIR)\n", drvdir);
        return EXIT_FAIL;
    }
    if (find_program(argv[0], prog, sizeof prog) != 0) {
        fprintf(stderr, "coalsim: %s: %s\n", argv[0],
                strchr(argv[0], '/') ? "no such executable file" : "no such program on PATH");
        return EXIT_FAIL;
    }
    if (fully_static(prog)) {
        fprintf(stderr, "coalsim: %s is linked fully statically, so it cannot load a CUDA driver (coalsim's "
                        "libcuda.so.1): build it as nvcc does by default (the CUDA runtime static, the C library "
                        "shared) or with -cudart shared\n", argv[0]);
        return EXIT_FAIL;
    }
    if (o->sass_listing) {
        /* a listing that does not parse is the user's error, said once here, not at each module */
        size_t n;
        char err[1024], *t = kfile_read(o->sass_listing, &n);
        if (!t) {
            fprintf(stderr, "coalsim: %s: cannot read: %s\n", o->sass_listing, strerror(errno));
            return EXIT_FAIL;
        }
        coalsim_kernel *k = coalsim_kernel_load_sass(t, n, o->sass_listing, err, sizeof err);
        free(t);
        if (!k) {
            fprintf(stderr, "coalsim: %s\n", err);
            return EXIT_FAIL;
        }
        coalsim_kernel_free(k);
    }
    FILE *out = stdout;
    if (o->log_file && !(out = fopen(o->log_file, "w"))) {
        fprintf(stderr, "coalsim: %s: cannot write: %s\n", o->log_file, strerror(errno));
        return EXIT_FAIL;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/coalsim-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "coalsim: cannot make a folder for the reports in %s: %s\n", tmp && *tmp ? tmp : "/tmp",
                strerror(errno));
        if (out != stdout) fclose(out);
        return EXIT_FAIL;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "coalsim: cannot start %s: %s\n", argv[0], strerror(errno));
        remove_dir(dir);
        if (out != stdout) fclose(out);
        return EXIT_FAIL;
    }
    if (pid == 0) {
        const char *old = getenv("LD_LIBRARY_PATH");
        size_t n = strlen(drvdir) + (old ? strlen(old) : 0) + 2;
        char *lp = malloc(n);
        if (!lp) _exit(127);
        snprintf(lp, n, "%s%s%s", drvdir, old && *old ? ":" : "", old && *old ? old : "");
        char num[32];
        setenv("LD_LIBRARY_PATH", lp, 1);
        setenv("COALSIM_RUN_DIR", dir, 1);
        setenv("COALSIM_RUN_FORMAT", o->fmt == COALSIM_JSON ? "json" : o->fmt == COALSIM_CSV ? "csv" : "text", 1);
        setenv("COALSIM_RUN_HIER", o->hier ? "1" : "0", 1);
        setenv("COALSIM_RUN_SOURCE", o->source ? "1" : "0", 1);
        setenv("COALSIM_RUN_PER_REQUEST", o->per_request ? "1" : "0", 1);
        setenv("COALSIM_RUN_PICTURE", o->picture ? "1" : "0", 1);
        if (o->html) setenv("COALSIM_RUN_HTML", o->html, 1);
        /* paths the driver opens are made absolute: the program may change its folder */
        char abs[8192], cwd[4096];
        if (o->profile) setenv("COALSIM_RUN_PROFILE", realpath(o->profile, abs) ? abs : o->profile, 1);
        if (o->sass_listing) setenv("COALSIM_RUN_SASS", realpath(o->sass_listing, abs) ? abs : o->sass_listing, 1);
        if (o->html && o->html[0] != '/' && getcwd(cwd, sizeof cwd)) {
            snprintf(abs, sizeof abs, "%s/%s", cwd, o->html);
            setenv("COALSIM_RUN_HTML", abs, 1);
        }
        snprintf(num, sizeof num, "%ld", o->threads);
        setenv("COALSIM_RUN_THREADS", num, 1);
        if (o->kernel_name) setenv("COALSIM_RUN_KERNEL", o->kernel_name, 1);
        if (o->skip) setenv("COALSIM_RUN_SKIP", o->skip, 1);
        if (o->count) setenv("COALSIM_RUN_COUNT", o->count, 1);
        if (o->sample) setenv("COALSIM_RUN_SAMPLE", o->sample, 1);
        execv(prog, argv);
        fprintf(stderr, "coalsim: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    /* the terminal's ^C goes to both; coalsim waits for the program and
     * still writes what finished; a SIGTERM or SIGHUP for coalsim is passed
     * on to the program */
    struct sigaction ign = {.sa_handler = SIG_IGN}, fwd = {.sa_handler = forward}, old_int, old_quit, old_term, old_hup;
    child_pid = pid;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    sigaction(SIGTERM, &fwd, &old_term);
    sigaction(SIGHUP, &fwd, &old_hup);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    int failed = 0, rc;
    if (collect(o, dir, argv[0], out, &failed) != 0 || fflush(out) != 0) {
        fprintf(stderr, "coalsim: %s: cannot write the report\n", o->log_file ? o->log_file : "stdout");
        failed = 1;
    }
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "coalsim: %s: cannot write the report\n", o->log_file);
        failed = 1;
    }
    remove_dir(dir);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        fprintf(stderr, "coalsim: %s was ended by signal %d (%s); the launches that finished are reported\n", argv[0],
                sig, strsignal(sig));
        return 128 + sig;
    }
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
    return failed ? EXIT_FAIL : rc;
}
