/* coalsim convert and coalsim sketch: the commands that turn one form of
 * trace into another. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "input.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* 1..32 from a decimal string, or -1. */
static long warp_arg(const char *s)
{
    char *end;
    if (!s || !*s) return -1;
    long v = strtol(s, &end, 10);
    return *end || v < 1 || v > COALSIM_MAX_WARP ? -1 : v;
}

/* Text to binary, or binary to text: a trace in one format out in the other.
 * Written to OUT ('-' = stdout); a file left half-written by an error is
 * removed. */
static const char convert_usage[] = "usage: coalsim convert [--warp-size N] IN OUT\n";

static int write_text(FILE *out, const coalsim_request *r, unsigned warp)
{
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        fprintf(out, "%s %s %u %s %llu %llu 0x%llx\n", coalsim_op_name(r->op), coalsim_space_name(r->space), r->size,
                r->label, (unsigned long long)r->block, (unsigned long long)(r->warp * warp + l),
                (unsigned long long)r->addr[l]);
    }
    return ferror(out) ? -1 : 0;
}

static int put_binary(void *ctx, const coalsim_request *r) { return coalsim_bwriter_put(ctx, r); }

int convert_main(int argc, char **argv)
{
    long warp = 32;
    const char *paths[2];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\nA text trace (plain or gzip; NVBit's and Accel-Sim's too) becomes a binary one\n"
                   "(docs/binary-format.md), grouped into warp requests of N lanes (default 32); a binary\n"
                   "trace becomes text.  '-' is stdin/stdout.\n",
                   convert_usage);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--warp-size") == 0 || strncmp(argv[i], "--warp-size=", 12) == 0) {
            const char *v = argv[i][11] == '=' ? argv[i] + 12 : (i + 1 < argc ? argv[++i] : NULL);
            if ((warp = warp_arg(v)) < 0) {
                fprintf(stderr, "coalsim: convert: --warp-size needs 1 to 32\n%s", convert_usage);
                return EXIT_USAGE;
            }
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "coalsim: convert: unknown option '%s'\n%s", argv[i], convert_usage);
            return EXIT_USAGE;
        }
        if (n == 2) {
            fprintf(stderr, "coalsim: convert: too many arguments\n%s", convert_usage);
            return EXIT_USAGE;
        }
        paths[n++] = argv[i];
    }
    if (n != 2) {
        fprintf(stderr, "coalsim: convert: needs IN and OUT\n%s", convert_usage);
        return EXIT_USAGE;
    }
    input in;
    if (input_open(&in, paths[0], (unsigned)warp, NULL) != 0) return EXIT_INPUT;
    int to_stdout = strcmp(paths[1], "-") == 0;
    FILE *out = to_stdout ? stdout : fopen(paths[1], "wb");
    if (!out) {
        fprintf(stderr, "coalsim: %s: cannot create: %s\n", paths[1], strerror(errno));
        input_close(&in);
        return EXIT_INPUT;
    }
    coalsim_request r;
    coalsim_bwriter *w = NULL;
    int rc = 0, status = EXIT_OK, first = 1;
    if (in.sketch) {               /* a sketch's requests straight into the binary writer */
        first = 0;
        w = coalsim_bwriter_new(out, (unsigned)warp);
        int k = w ? input_run(&in, (unsigned)warp, (coalsim_sink){put_binary, w, NULL}) : -1;
        if (k != 0) status = EXIT_INPUT;
        if (k > 0 || !w) fprintf(stderr, "coalsim: %s: cannot write\n", to_stdout ? "<stdout>" : paths[1]);
    }
    while (!in.sketch && (rc = coalsim_reader_next(in.rd, &r)) == 1) {
        if (first && !coalsim_reader_is_binary(in.rd)) {
            w = coalsim_bwriter_new(out, (unsigned)warp);
            if (!w) break;
        }
        if (first && coalsim_reader_is_binary(in.rd))
            fprintf(out, "# converted from the binary trace %s by coalsim convert\n", in.name);
        first = 0;
        if (w ? coalsim_bwriter_put(w, &r) != 0 : write_text(out, &r, (unsigned)warp) != 0) {
            fprintf(stderr, "coalsim: %s: cannot write: %s\n", to_stdout ? "<stdout>" : paths[1], strerror(errno));
            status = EXIT_INPUT;
            break;
        }
    }
    if (status == EXIT_OK && rc < 0) {
        fprintf(stderr, "coalsim: %s\n", coalsim_reader_error(in.rd));
        status = EXIT_INPUT;
    } else if (status == EXIT_OK && rc == 1) {
        fprintf(stderr, "coalsim: out of memory\n");
        status = EXIT_INPUT;
    } else if (status == EXIT_OK && first && !coalsim_reader_is_binary(in.rd)) {
        w = coalsim_bwriter_new(out, (unsigned)warp);   /* an empty text trace: an empty binary one */
        if (!w) status = EXIT_INPUT;
    }
    if (status == EXIT_OK && w && coalsim_bwriter_finish(w) != 0) {
        fprintf(stderr, "coalsim: %s: cannot write: %s\n", to_stdout ? "<stdout>" : paths[1], strerror(errno));
        status = EXIT_INPUT;
    }
    coalsim_bwriter_free(w);
    input_close(&in);
    if (!to_stdout && fclose(out) != 0 && status == EXIT_OK) {
        fprintf(stderr, "coalsim: %s: cannot write: %s\n", paths[1], strerror(errno));
        status = EXIT_INPUT;
    }
    /* a half-written file goes; a device (OUT = /dev/full) stays */
    struct stat sb;
    if (status != EXIT_OK && !to_stdout && stat(paths[1], &sb) == 0 && S_ISREG(sb.st_mode)) remove(paths[1]);
    return status;
}

/* coalsim sketch FILE [--set NAME=VALUE]... : the sketch's v1 trace on stdout. */
int sketch_main(int argc, char **argv)
{
    static const char use[] = "usage: coalsim sketch FILE.sketch [--set NAME=VALUE]...\n";
    const char *path = NULL;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0, status = EXIT_OK;
    if (!sets) return EXIT_INPUT;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("%sRuns a kernel sketch (docs/sketch-format.md) and prints its trace (format v1).\n", use);
            free(sets);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc && strchr(argv[i + 1], '=')) {
            sets[nsets++] = argv[++i];
        } else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "coalsim: sketch: unexpected '%s'\n%s", argv[i], use);
            status = EXIT_USAGE;
        } else {
            path = argv[i];
        }
    }
    if (status == EXIT_OK && !path) {
        fprintf(stderr, "coalsim: sketch: no sketch given\n%s", use);
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m || input_sketch(path, sets, m) != 0) status = EXIT_INPUT;
        if (m) fclose(m);
        if (status == EXIT_OK && fwrite(buf, 1, len, stdout) != len) {
            fprintf(stderr, "coalsim: cannot write to stdout: %s\n", strerror(errno));
            status = EXIT_INPUT;
        }
        free(buf);
    }
    free(sets);
    return status;
}

