/* Running toolkit programs (see proc.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/kernel/proc.h"

static int is_exec(const char *p) { return access(p, X_OK) == 0; }

/* The full path of PROG found in $PATH (or the extra directories), into OUT. */
int proc_find(const char *prog, const char *const *extra, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    char buf[4096];
    if (path) {
        snprintf(buf, sizeof buf, "%s", path);
        for (char *s = buf, *c; s; s = c ? c + 1 : NULL) {
            c = strchr(s, ':');
            if (c) *c = '\0';
            if (snprintf(out, cap, "%s/%s", *s ? s : ".", prog) >= (int)cap) continue;
            if (is_exec(out)) return 0;
        }
    }
    for (; extra && *extra; extra++) {
        if (snprintf(out, cap, "%s/%s", *extra, prog) >= (int)cap) continue;
        if (is_exec(out)) return 0;
    }
    return -1;
}

int proc_find_cuda(const char *prog, char *out, size_t cap)
{
    char home[4096];
    const char *extra[3] = {NULL, NULL, NULL};
    int n = 0;
    const char *ch = getenv("CUDA_HOME");
    if (ch && *ch) {
        snprintf(home, sizeof home, "%s/bin", ch);
        extra[n++] = home;
    }
    extra[n++] = "/usr/local/cuda/bin";
    return proc_find(prog, extra, out, cap);
}

int proc_run(char *const *argv, const char *stdout_path, char *out, size_t cap)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        if (stdout_path) {
            int o = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (o < 0) _exit(126);
            dup2(o, 1);
            close(o);
        } else {
            dup2(fd[1], 1);
        }
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    char buf[4096];
    for (ssize_t got; (got = read(fd[0], buf, sizeof buf)) != 0;) {
        if (got < 0) {
            if (errno == EINTR) continue;
            break;
        }
        size_t k = (size_t)got < cap - 1 - n ? (size_t)got : cap - 1 - n;
        memcpy(out + n, buf, k);
        n += k;
    }
    out[n] = '\0';
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

