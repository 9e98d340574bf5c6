/* Analysing one large text trace on several threads (see parallel.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parallel.h"

#define WINDOW (1 << 20)
#define MAX_SCAN ((off_t)64 << 20)     /* look this far past a target for a cut */
#define MAX_THREADS 64

typedef struct {
    int fd;
    off_t start, end, pos;     /* this part: [start, end) */
} part_src;

static long read_part(void *ctx, char *buf, size_t cap, const char **why)
{
    part_src *p = ctx;
    (void)why;
    if (p->pos >= p->end) return 0;
    if ((off_t)cap > p->end - p->pos) cap = (size_t)(p->end - p->pos);
    ssize_t n = pread(p->fd, buf, cap, p->pos);
    if (n < 0) return -1;
    p->pos += n;
    return (long)n;
}

/* The block index of a record line, or -1 if the line is blank, a comment,
 * or not a record this function can read (then it is no cut point). */
static int line_block(const char *s, size_t n, uint64_t *block)
{
    size_t i = 0;
    for (int field = 0; field < 5; field++) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f')) i++;
        if (i == n || s[i] == '#') return -1;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\v' && s[i] != '\f' && s[i] != '#')
            i++;
        if (field == 4) {
            uint64_t x = 0;
            if (i - start == 0 || i - start > 19) return -1;
            for (size_t k = start; k < i; k++) {
                if (s[k] < '0' || s[k] > '9') return -1;
                x = x * 10 + (uint64_t)(s[k] - '0');
            }
            *block = x;
            return 0;
        }
    }
    return -1;
}

/* The first offset at or after TARGET where a record line's block differs
 * from the record line before it, or -1. */
static off_t find_cut(int fd, off_t size, off_t target, char *win)
{
    off_t pos = target;
    int have_prev = 0, first_line = target > 0;   /* skip the partial line we start in */
    uint64_t prev = 0;
    while (pos < size && pos < target + MAX_SCAN) {
        ssize_t n = pread(fd, win, WINDOW, pos);
        if (n <= 0) return -1;
        char *s = win, *end = win + n;
        for (;;) {
            char *nl = memchr(s, '\n', (size_t)(end - s));
            if (!nl) break;                        /* finish the line in the next window */
            if (first_line) {
                first_line = 0;
            } else {
                uint64_t b;
                if (line_block(s, (size_t)(nl - s), &b) == 0) {
                    if (have_prev && b != prev) return pos + (s - win);
                    prev = b;
                    have_prev = 1;
                }
            }
            s = nl + 1;
        }
        if (s == win) return -1;                   /* a line longer than the window */
        pos += s - win;
    }
    return -1;
}

typedef struct {
    part_src src;
    const coalsim_arch *arch;
    const char *path;
    unsigned long lines;        /* newlines in this part */
    unsigned long base;         /* lines before this part */
    coalsim_analysis *an;
    int rc;                     /* 0 ok, -1 error in msg */
    char msg[600];
} part;

/* Round 1: count this part's lines, so that every part can number its own. */
static void *count_part(void *arg)
{
    part *p = arg;
    char *win = malloc(WINDOW);
    for (off_t pos = p->src.start; win && pos < p->src.end;) {
        size_t want = (size_t)(p->src.end - pos < WINDOW ? p->src.end - pos : WINDOW);
        ssize_t n = pread(p->src.fd, win, want, pos);
        if (n <= 0) break;                         /* round 2 reports read errors */
        for (char *s = win, *e = win + n; (s = memchr(s, '\n', (size_t)(e - s))); s++) p->lines++;
        pos += n;
    }
    free(win);
    return NULL;
}

/* Round 2: read and model the part. */
static void *parse_part(void *arg)
{
    part *p = arg;
    coalsim_reader *rd = coalsim_reader_new_fn(read_part, &p->src, p->path, p->arch->warp_size);
    coalsim_analysis_cfg cfg = {.arch = *p->arch};
    p->an = coalsim_analysis_new(&cfg);
    p->rc = -1;
    if (!rd || !p->an) {
        snprintf(p->msg, sizeof p->msg, "%s: out of memory", p->path);
        coalsim_reader_free(rd);
        return NULL;
    }
    coalsim_reader_set_line(rd, p->base);
    int rc = coalsim_reader_drain(rd, coalsim_analysis_sink(p->an));
    if (rc < 0) snprintf(p->msg, sizeof p->msg, "%s", coalsim_reader_error(rd));
    else if (rc > 0) snprintf(p->msg, sizeof p->msg, "%s:%lu: %s", p->path, coalsim_reader_line(rd) + p->base,
                              coalsim_analysis_error(p->an));
    else p->rc = 0;
    coalsim_reader_free(rd);
    return NULL;
}

/* Run FN on every part, each on its own thread where one can be started and
 * in this thread otherwise; return when all are done. */
static void run_all(part *parts, unsigned n, void *(*fn)(void *))
{
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS];
    for (unsigned k = 0; k < n; k++) {
        started[k] = pthread_create(&tid[k], NULL, fn, &parts[k]) == 0;
        if (!started[k]) fn(&parts[k]);
    }
    for (unsigned k = 0; k < n; k++)
        if (started[k]) pthread_join(tid[k], NULL);
}

int parallel_analyse(const char *path, const coalsim_arch *a, unsigned threads, coalsim_analysis **out)
{
    if (threads < 2 || strcmp(path, "-") == 0) return 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 1;                         /* the one-pass path reports it */
    struct stat sb;
    char magic[8];
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || pread(fd, magic, 8, 0) != 8 ||
        (magic[0] == 0x1f && (unsigned char)magic[1] == 0x8b) || memcmp(magic, "COALSIMB", 8) == 0) {
        close(fd);
        return 1;
    }
    off_t cuts[MAX_THREADS + 1];
    unsigned nparts = 0;
    char *win = malloc(WINDOW);
    ssize_t head = win ? pread(fd, win, COALSIM_SNIFF_BYTES, 0) : -1;
    if (head < 0 || coalsim_trace_sniff(win, (size_t)head) != COALSIM_TRACE_TEXT) {   /* NVBit, Accel-Sim: one pass */
        free(win);
        close(fd);
        return 1;
    }
    cuts[nparts++] = 0;
    for (unsigned k = 1; k < threads; k++) {
        off_t c = find_cut(fd, sb.st_size, sb.st_size / threads * k, win);
        if (c > cuts[nparts - 1]) cuts[nparts++] = c;
    }
    free(win);
    cuts[nparts] = sb.st_size;
    part *parts = nparts > 1 ? calloc(nparts, sizeof *parts) : NULL;
    if (!parts) {
        close(fd);
        return 1;
    }
    for (unsigned k = 0; k < nparts; k++)
        parts[k] = (part){.src = {fd, cuts[k], cuts[k + 1], cuts[k]}, .arch = a, .path = path};
    run_all(parts, nparts, count_part);
    for (unsigned k = 1; k < nparts; k++) parts[k].base = parts[k - 1].base + parts[k - 1].lines;
    run_all(parts, nparts, parse_part);

    /* the first error in file order is the one a single pass reports */
    int status = 0;
    coalsim_analysis *an = NULL;
    for (unsigned k = 0; k < nparts && status == 0; k++)
        if (parts[k].rc != 0) {
            fprintf(stderr, "coalsim: %s\n", parts[k].msg);
            status = -1;
        }
    if (status == 0) {
        coalsim_analysis_cfg cfg = {.arch = *a};
        an = coalsim_analysis_new(&cfg);
        for (unsigned k = 0; an && k < nparts; k++)
            if (coalsim_analysis_merge(an, parts[k].an) != 0) {
                coalsim_analysis_free(an);
                an = NULL;
            }
        if (!an) {
            fprintf(stderr, "coalsim: %s: out of memory\n", path);
            status = -1;
        }
    }
    for (unsigned k = 0; k < nparts; k++) coalsim_analysis_free(parts[k].an);
    free(parts);
    close(fd);
    *out = an;
    return status;
}
