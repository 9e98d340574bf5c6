/* Opening a trace for the command (see input.h). */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

#define SKETCH_MAX_BYTES (1 << 20)
#define SKETCH_MAX_RECORDS 10000000000ull   /* a runaway guard: sketches stream */

/* Read a sketch file into a string (caller frees), or NULL after printing why. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "coalsim: %s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    char *text = malloc(SKETCH_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, SKETCH_MAX_BYTES + 1, fp) : 0;
    fclose(fp);
    if (!text) {
        fprintf(stderr, "coalsim: %s: out of memory\n", path);
        return NULL;
    }
    if (n > SKETCH_MAX_BYTES || memchr(text, '\0', n)) {
        fprintf(stderr, "coalsim: %s: %s\n", path, n > SKETCH_MAX_BYTES ? "sketch larger than 1 MiB" : "NUL byte in the sketch");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

int input_sketch(const char *path, const char *const *sets, FILE *out)
{
    char *text = slurp(path), err[600];
    if (!text) return -1;
    int rc = coalsim_sketch(text, path, sets, out, SKETCH_MAX_RECORDS, err, sizeof err);
    free(text);
    if (rc != 0) fprintf(stderr, "coalsim: %s\n", err);
    return rc;
}

/* A sketch runs on its own thread into a pipe that the reader reads, so a
 * sketch of any size streams in constant memory. */
typedef struct {
    char *text;
    const char *path;
    const char *const *sets;
    FILE *w;
    pthread_t tid;
    int rc;
    char err[600];
} sketch_job;

static void *sketch_thread(void *arg)
{
    sketch_job *j = arg;
    j->rc = coalsim_sketch(j->text, j->path, j->sets, j->w, SKETCH_MAX_RECORDS, j->err, sizeof j->err);
    fclose(j->w);
    return NULL;
}

int input_finish(input *in)
{
    sketch_job *j = in->job;
    if (!j) return 0;
    if (in->fp) fclose(in->fp), in->fp = NULL;   /* a writer blocked on a full pipe now fails */
    pthread_join(j->tid, NULL);
    int rc = j->rc;
    if (rc != 0) fprintf(stderr, "coalsim: %s\n", j->err);
    free(j->text);
    free(j);
    in->job = NULL;
    return rc;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

int input_open(input *in, const char *path, unsigned warp_size, const char *const *sets)
{
    memset(in, 0, sizeof *in);
    in->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (ends_with(path, ".sketch")) {
        int fd[2];
        sketch_job *j = calloc(1, sizeof *j);
        if (!j || !(j->text = slurp(path))) {
            free(j);
            return -1;
        }
        if (pipe(fd) != 0 || !(j->w = fdopen(fd[1], "w")) || !(in->fp = fdopen(fd[0], "r"))) {
            fprintf(stderr, "coalsim: %s: cannot run the sketch: %s\n", path, strerror(errno));
            free(j->text);
            free(j);
            return -1;
        }
        j->path = path;
        j->sets = sets;
        if (pthread_create(&j->tid, NULL, sketch_thread, j) != 0) {
            fprintf(stderr, "coalsim: %s: cannot start the sketch\n", path);
            fclose(j->w);
            free(j->text);
            free(j);
            input_close(in);
            return -1;
        }
        in->job = j;
        in->rd = coalsim_reader_new(in->fp, in->name, warp_size);
        if (!in->rd) {
            fprintf(stderr, "coalsim: %s: out of memory\n", path);
            input_close(in);
            return -1;
        }
        return 0;
    }
    in->fp = stdin;
    int gzip = 0;
    if (strcmp(path, "-") != 0) {
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "coalsim: %s: is a directory, not a trace\n", path);
            return -1;
        }
        in->fp = fopen(path, "rb");
        if (!in->fp) {
            fprintf(stderr, "coalsim: %s: cannot open: %s\n", path, strerror(errno));
            return -1;
        }
        int c0 = getc(in->fp), c1 = getc(in->fp);   /* gzip magic bytes 1f 8b */
        gzip = c0 == 0x1f && c1 == 0x8b;
        rewind(in->fp);
    }
    if (gzip || in->fp == stdin) {
        /* gzip, or stdin, which may be gzip: the library's file decodes it */
        char err[600];
        int fd = dup(fileno(in->fp));
        coalsim_file *f = fd < 0 ? NULL : coalsim_file_fdopen(fd, in->name, err, sizeof err);
        if (!f) {
            if (fd < 0) snprintf(err, sizeof err, "%s: cannot open: %s", in->name, strerror(errno));
            fprintf(stderr, "coalsim: %s\n", err);
            input_close(in);
            return -1;
        }
        in->gz = f;
        in->rd = coalsim_reader_new_fn(coalsim_file_read, f, in->name, warp_size);
    } else {
        in->rd = coalsim_reader_new(in->fp, in->name, warp_size);
    }
    if (!in->rd) {
        fprintf(stderr, "coalsim: %s: out of memory\n", in->name);
        input_close(in);
        return -1;
    }
    return 0;
}

void input_close(input *in)
{
    if (in->job) {
        /* an error elsewhere stopped the reading: quietly stop the sketch */
        sketch_job *j = in->job;
        if (in->fp) fclose(in->fp), in->fp = NULL;
        pthread_join(j->tid, NULL);
        free(j->text);
        free(j);
        in->job = NULL;
    }
    coalsim_reader_free(in->rd);
    in->rd = NULL;
    coalsim_file_close(in->gz);
    in->gz = NULL;
    if (in->fp && in->fp != stdin) fclose(in->fp);
    in->fp = NULL;
}
