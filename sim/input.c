/* Opening a trace for the command (see input.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

#ifdef COALSIM_ZLIB
#include <limits.h>
#include <unistd.h>
#include <zlib.h>

/* gzip input (zlib passes plain data through unchanged, so stdin needs no
 * sniffing).  Errors come back as zlib's own sentence. */
static long read_gz(void *ctx, char *buf, size_t cap, const char **why)
{
    gzFile gz = ctx;
    int n = gzread(gz, buf, cap > INT_MAX ? INT_MAX : (unsigned)cap), err = Z_OK;
    const char *msg = gzerror(gz, &err);
    if (strncmp(msg, "<fd:", 4) == 0 && strstr(msg, ">: ")) msg = strstr(msg, ">: ") + 3;  /* our name says where */
    /* a truncated stream ends with Z_BUF_ERROR instead of an error return */
    if (n < 0 || (n == 0 && err != Z_OK)) {
        *why = err == Z_BUF_ERROR ? "gzip stream is truncated" : msg;
        return -1;
    }
    return n;
}
#endif

#define SKETCH_MAX_BYTES (1 << 20)
#define SKETCH_MAX_RECORDS 50000000ull

int input_sketch(const char *path, const char *const *sets, FILE *out)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "coalsim: %s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    char *text = malloc(SKETCH_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, SKETCH_MAX_BYTES + 1, fp) : 0;
    fclose(fp);
    if (!text) {
        fprintf(stderr, "coalsim: %s: out of memory\n", path);
        return -1;
    }
    if (n > SKETCH_MAX_BYTES || memchr(text, '\0', n)) {
        fprintf(stderr, "coalsim: %s: %s\n", path, n > SKETCH_MAX_BYTES ? "sketch larger than 1 MiB" : "NUL byte in the sketch");
        free(text);
        return -1;
    }
    text[n] = '\0';
    char err[600];
    int rc = coalsim_sketch(text, path, sets, out, SKETCH_MAX_RECORDS, err, sizeof err);
    free(text);
    if (rc != 0) fprintf(stderr, "coalsim: %s\n", err);
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
        size_t len = 0;
        FILE *m = open_memstream(&in->mem, &len);
        if (!m) {
            fprintf(stderr, "coalsim: %s: out of memory\n", path);
            return -1;
        }
        int rc = input_sketch(path, sets, m);
        fclose(m);
        if (rc != 0) {
            input_close(in);
            return -1;
        }
        in->fp = fmemopen(in->mem, len ? len : 1, "r");
        in->rd = in->fp ? coalsim_reader_new(in->fp, in->name, warp_size) : NULL;
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
#ifdef COALSIM_ZLIB
    if (gzip || in->fp == stdin) {
        gzFile gz = gzdopen(dup(fileno(in->fp)), "rb");
        if (!gz) {
            fprintf(stderr, "coalsim: %s: cannot open: out of memory\n", in->name);
            input_close(in);
            return -1;
        }
        gzbuffer(gz, 256 * 1024);
        in->gz = gz;
        in->rd = coalsim_reader_new_fn(read_gz, gz, in->name, warp_size);
    } else {
        in->rd = coalsim_reader_new(in->fp, in->name, warp_size);
    }
#else
    if (gzip) {
        fprintf(stderr, "coalsim: %s: gzip input, but this coalsim was built without zlib\n", in->name);
        input_close(in);
        return -1;
    }
    in->rd = coalsim_reader_new(in->fp, in->name, warp_size);
#endif
    if (!in->rd) {
        fprintf(stderr, "coalsim: %s: out of memory\n", in->name);
        input_close(in);
        return -1;
    }
    return 0;
}

void input_close(input *in)
{
    coalsim_reader_free(in->rd);
    in->rd = NULL;
#ifdef COALSIM_ZLIB
    if (in->gz) gzclose(in->gz);
    in->gz = NULL;
#endif
    if (in->fp && in->fp != stdin) fclose(in->fp);
    in->fp = NULL;
    free(in->mem);
    in->mem = NULL;
}
