/* Trace files: a file's bytes as a reader wants them, decompressed when
 * they are gzip, and a whole file read into an analysis.
 *
 * gzip is decoded here with inflate() rather than zlib's gzread(), which
 * ignores anything after the last gzip member without a word ("trailing
 * garbage" to gzip(1)): a trace with data after its compressed part is
 * reported, since that data was never read.  Members one after the other
 * (cat a.gz b.gz) are one stream, as gzip(1) reads them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef COALSIM_ZLIB
#include <zlib.h>
#endif

#include "coalsim.h"

#define INBUF (256 * 1024)

struct coalsim_file {
    int fd;
    int gzip;                   /* the bytes start with gzip's magic 1f 8b */
    int eof;                    /* read() said the end */
    size_t ipos, ilen;          /* plain: bytes read while sniffing, in in[ipos..ilen) */
#ifdef COALSIM_ZLIB
    z_stream zs;
    int member_done;            /* the last member ended: what follows is a member or garbage */
    const char *why;            /* an error met after some output was handed back */
#endif
    unsigned char in[INBUF];
};

/* read(), again when a signal interrupts it. */
static long read_fd(int fd, void *buf, size_t cap)
{
    ssize_t n;
    do n = read(fd, buf, cap > INT_MAX ? INT_MAX : cap);
    while (n < 0 && errno == EINTR);
    return (long)n;
}

coalsim_file *coalsim_file_fdopen(int fd, const char *name, char *err, size_t cap)
{
    coalsim_file *f = malloc(sizeof *f);
    if (!f) {
        snprintf(err, cap, "%s: out of memory", name);
        close(fd);
        return NULL;
    }
    memset(f, 0, offsetof(coalsim_file, in));
    f->fd = fd;
    /* the first two bytes say gzip or not (a pipe may give them one by one) */
    while (f->ilen < 2) {
        long n = read_fd(fd, f->in + f->ilen, INBUF - f->ilen);
        if (n < 0) {
            snprintf(err, cap, "%s: cannot read: %s", name, strerror(errno));
            coalsim_file_close(f);
            return NULL;
        }
        if (n == 0) {
            f->eof = 1;
            break;
        }
        f->ilen += (size_t)n;
    }
    f->gzip = f->ilen >= 2 && f->in[0] == 0x1f && f->in[1] == 0x8b;
    if (!f->gzip) return f;
#ifdef COALSIM_ZLIB
    if (inflateInit2(&f->zs, 15 + 16) != Z_OK) {      /* 16: gzip wrapper */
        snprintf(err, cap, "%s: out of memory", name);
        f->gzip = 0;
        coalsim_file_close(f);
        return NULL;
    }
    f->zs.next_in = f->in;
    f->zs.avail_in = (uInt)f->ilen;
    return f;
#else
    snprintf(err, cap, "%s: gzip input, but this coalsim was built without zlib", name);
    f->gzip = 0;
    coalsim_file_close(f);
    return NULL;
#endif
}

coalsim_file *coalsim_file_open(const char *path, char *err, size_t cap)
{
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(err, cap, "%s: is a directory, not a trace", path);
        close(fd);
        return NULL;
    }
    return coalsim_file_fdopen(fd, path, err, cap);
}

void coalsim_file_close(coalsim_file *f)
{
    if (!f) return;
#ifdef COALSIM_ZLIB
    if (f->gzip) inflateEnd(&f->zs);
#endif
    close(f->fd);
    free(f);
}

#ifdef COALSIM_ZLIB
/* Decompress into buf: a gzip member after another, until the input ends. */
static long gz_read(coalsim_file *f, char *buf, size_t cap, const char **why)
{
    z_stream *zs = &f->zs;
    if (cap > UINT_MAX) cap = UINT_MAX;
    zs->next_out = (unsigned char *)buf;
    zs->avail_out = (uInt)cap;
    while (zs->avail_out > 0 && !f->why) {
        /* a member after a member needs its first two bytes to be told from garbage */
        if (zs->avail_in < (f->member_done ? 2u : 1u) && !f->eof) {
            memmove(f->in, zs->next_in, zs->avail_in);
            long n = read_fd(f->fd, f->in + zs->avail_in, INBUF - zs->avail_in);
            if (n < 0) {
                if (zs->avail_out < cap) break;   /* hand out what we have first */
                return -1;                        /* strerror(errno) */
            }
            if (n == 0) f->eof = 1;
            zs->next_in = f->in;
            zs->avail_in += (uInt)n;
            continue;
        }
        if (f->member_done) {
            if (zs->avail_in == 0) break;         /* the end, after a whole member */
            if (zs->avail_in < 2 || zs->next_in[0] != 0x1f || zs->next_in[1] != 0x8b) {
                f->why = "data after the end of the gzip stream (trailing garbage)";
                break;
            }
            inflateReset(zs);
            f->member_done = 0;
        }
        if (zs->avail_in == 0) {                  /* input ended inside a member */
            f->why = "gzip stream is truncated";
            break;
        }
        int rc = inflate(zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) f->member_done = 1;
        else if (rc == Z_MEM_ERROR) f->why = "out of memory";
        else if (rc != Z_OK && rc != Z_BUF_ERROR) f->why = zs->msg ? zs->msg : "gzip data is corrupt";
    }
    long got = (long)(cap - zs->avail_out);
    if (got == 0 && f->why) {
        *why = f->why;
        return -1;
    }
    return got;
}
#endif

long coalsim_file_read(void *ctx, char *buf, size_t cap, const char **why)
{
    coalsim_file *f = ctx;
#ifdef COALSIM_ZLIB
    if (f->gzip) return gz_read(f, buf, cap, why);
#endif
    (void)why;
    if (f->ipos < f->ilen) {
        size_t n = f->ilen - f->ipos < cap ? f->ilen - f->ipos : cap;
        memcpy(buf, f->in + f->ipos, n);
        f->ipos += n;
        return (long)n;
    }
    if (f->eof) return 0;
    return read_fd(f->fd, buf, cap);
}

int coalsim_analysis_read_file(coalsim_analysis *an, const char *path, unsigned warp_size, char *err, size_t cap)
{
    coalsim_file *f = coalsim_file_open(path, err, cap);
    if (!f) return -1;
    coalsim_reader *rd = coalsim_reader_new_fn(coalsim_file_read, f, path, warp_size);
    if (!rd) {
        snprintf(err, cap, "%s: out of memory", path);
        coalsim_file_close(f);
        return -1;
    }
    int rc = coalsim_reader_drain(rd, coalsim_analysis_sink(an));
    if (rc < 0) snprintf(err, cap, "%s", coalsim_reader_error(rd));
    else if (rc > 0) snprintf(err, cap, "%s:%lu: %s", path, coalsim_reader_line(rd), coalsim_analysis_error(an));
    coalsim_reader_free(rd);
    coalsim_file_close(f);
    return rc == 0 ? 0 : -1;
}
