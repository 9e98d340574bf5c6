/* coalsim command line: options, reading traces, printing reports.  The only
 * file that talks to the user. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coalsim.h"

#include "advise.h"
#include "commands.h"
#include "input.h"
#include "kernelcmd.h"
#include "output.h"
#include "parallel.h"
#include "profiles.h"
#include "run.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef enum {
    O_HELP, O_VERSION, O_ARCH, O_WARP, O_SECTOR, O_LINE, O_BANKS, O_BWIDTH, O_BMODE, O_JSON, O_CSV, O_PERREQ, O_THREADS,
    O_PICTURE, O_HTML, O_SET, O_HIER, O_PROFILE, O_MLP, O_KERNEL, O_GRID, O_BLOCK, O_CLUSTER, O_ARGS, O_DYNSMEM, O_DEFINE,
    O_INCLUDE, O_COMPILER, O_DUMP, O_SASS, O_PTX, O_SOURCE, O_REGS, O_KNAME, O_LSKIP, O_LCOUNT, O_LOGFILE, O_L2, O_SAMPLE,
    O_SASSLIST
} opt_id;

/* One table drives parsing and --help. */
static const struct option_def {
    opt_id id;
    const char *name;
    const char *arg;      /* NULL: takes no value */
    const char *help;
} options[] = {
    {O_ARCH, "--arch", "NAME", "architecture preset (default hopper) or sm_XX: see below"},
    {O_WARP, "--warp-size", "N", "lanes per warp, 1-32 (default 32)"},
    {O_SECTOR, "--sector", "BYTES", "global-memory sector size (default 32)"},
    {O_LINE, "--line", "BYTES", "cache line size for lines/req (default 128)"},
    {O_BANKS, "--banks", "N", "shared-memory banks (default 32)"},
    {O_BWIDTH, "--bank-width", "4|8", "bytes per bank row"},
    {O_BMODE, "--bank-mode", "32|64", "bank addressing for 8-byte banks (Kepler's 32/64-bit mode)"},
    {O_JSON, "--json", NULL, "one JSON object per trace on stdout"},
    {O_CSV, "--csv", NULL, "CSV, one row per access"},
    {O_PERREQ, "--per-request", NULL, "also one line per warp request (text and JSON)"},
    {O_THREADS, "--threads", "N", "threads for a sketch or a large text file (default: all cores; text from 32 MiB)"},
    {O_PICTURE, "--picture", NULL, "draw every request: lanes on sector bytes, lanes on banks per wavefront"},
    {O_HTML, "--html", "FILE", "also write a self-contained HTML report with SVG pictures, the time's terms with --profile (one trace; run: FILE-N for launch N)"},
    {O_SET, "--set", "NAME=VALUE", "override a kernel sketch's param (TRACE ending in .sketch)"},
    {O_HIER, "--hier", NULL, "also run global accesses through L1/L2/DRAM, approximately (hopper)"},
    {O_PROFILE, "--profile", "NAME|FILE", "with --hier, the device profile the time is predicted from: h100, h200 or a file (default with --hier: h100)"},
    {O_SAMPLE, "--sample", "auto|off|N", "kernel or sketch: run a sample of its blocks (about N) and of their loops, extrapolate, state each figure's error (auto: large launches; run: off)"},
    {O_L2, "--l2", "cold|warm", "kernel with --hier: L2 at its start, cold (default: as ncu times it) or warm (2nd of 2 launches back to back)"},
    {O_MLP, "--mlp", "N", "with --profile, loads a warp has in flight before it waits, 1-64 (default 16)"},
    {O_KERNEL, "--kernel", "NAME", "kernel: which one (plain, demangled as in sgemm<32>, or mangled)"},
    {O_GRID, "--grid", "X[,Y[,Z]]", "kernel: blocks in the grid"},
    {O_BLOCK, "--block", "X[,Y[,Z]]", "kernel: threads in a block"},
    {O_CLUSTER, "--cluster", "X[,Y[,Z]]", "kernel: CTAs a thread-block cluster (default: the kernel's __cluster_dims__, or none)"},
    {O_ARGS, "--args", "LIST", "kernel: one value a parameter: numbers, buffers NAME[:SIZE][=FILL] (FILL: zero, iota, iotaf, random:S, randint:S:N, randomh:S, randombf:S, randomd:S, file:P), tensor maps BUFFER@TYPE:DIMS:BOX[:SWIZZLE[:STRIDES]] (f16:1024x512:64x64:128)"},
    {O_DYNSMEM, "--dynamic-shared", "BYTES", "kernel: dynamic shared memory a block (K: KiB)"},
    {O_DUMP, "--dump", "DIR", "kernel: write each sized buffer after the run to DIR/NAME.bin"},
    {O_SOURCE, "--source", NULL, "kernel: every instruction under its source line, with its counts (text, JSON)"},
    {O_SASS, "--sass", NULL, "FILE.cu/.ptx: run its SASS (ptxas, then nvdisasm or cuobjdump), not its PTX"},
    {O_PTX, "--ptx", "FILE", "FILE.sass/.cubin: the module it came from (.cu or .ptx): parameters, constants"},
    {O_REGS, "--regs", "N", "kernel with --profile: registers a thread for occupancy (default: ptxas -v's)"},
    {O_DEFINE, "--define", "NAME[=VALUE]", "FILE.cu: a macro for the compiler (repeatable)"},
    {O_INCLUDE, "--include", "DIR", "FILE.cu: a folder of headers (repeatable)"},
    {O_COMPILER, "--compiler", "nvcc|clang", "FILE.cu: the compiler (default nvcc when found, else clang)"},
    {O_KNAME, "--kernel-name", "NAME", "run (-k): report the launches of kernel NAME only (plain, demangled or mangled; regex:RE)"},
    {O_LSKIP, "--launch-skip", "N", "run (-s): skip the first N launches the report would show"},
    {O_LCOUNT, "--launch-count", "N", "run (-c): report N launches at most"},
    {O_LOGFILE, "--log-file", "FILE", "run: the report into FILE, not stdout"},
    {O_SASSLIST, "--sass-listing", "FILE", "run: the program's SASS as the GPU has it (cuobjdump -sass): the kernels it lists run from it, the others from their PTX"},
    {O_HELP, "-h, --help", NULL, "show this help and exit"},
    {O_VERSION, "--version", NULL, "show the version and exit"},
};
#define NOPT (sizeof options / sizeof options[0])

static const char usage_line[] = "usage: coalsim [options] TRACE...   (coalsim --help for more)\n";

static void help(void)
{
    printf("coalsim %s: is this GPU access pattern coalesced, and does this shared tile conflict?\n\n", COALSIM_VERSION);
    printf("usage: coalsim [options] TRACE...\n"
           "       coalsim convert [--warp-size N] IN OUT   (text <-> binary, coalsim convert --help)\n"
           "       coalsim advise [options]   (padding and swizzle advice, coalsim advise --help)\n"
           "       coalsim sketch FILE.sketch [--set NAME=VALUE]...   (a kernel sketch's trace)\n"
           "       coalsim FILE.cu|FILE.ptx [--sass] --grid X[,Y[,Z]] --block X[,Y[,Z]] --args LIST [options]\n"
           "       coalsim FILE.sass|FILE.cubin [--ptx FILE.cu|FILE.ptx] --grid ... --block ... --args ... [options]\n"
           "       coalsim trace [options] FILE   (the requests of a kernel, sketch or trace as a v1 trace)\n"
           "       coalsim run [options] [--] PROGRAM [ARGS...]   (every launch of a CUDA program, no GPU)\n\n"
           "Reads per-thread address traces (text format v1, docs/trace-format.md, plain or\n"
           "gzip; binary, docs/binary-format.md; NVBit mem_trace output; Accel-Sim traces;\n"
           "'-' is stdin) and reports, per access (label, op, space, size), the 32-byte\n"
           "sectors and the degree of coalescing of global requests and the wavefronts and\n"
           "bank conflicts of shared requests, as Nsight Compute counts them.\n\n"
           "A kernel (.cu, PTX or SASS) runs on coalsim's interpreter with its values\n"
           "computed: CUDA cores; tensor cores (mma.sync, ldmatrix, stmatrix, movmatrix,\n"
           "wmma m16n16k16, m32n8k16, m8n32k16, m16n16k8 and m8n8k4, with the H100's\n"
           "fragment layouts); cp.async; Hopper's wgmma, TMA, mbarriers and clusters\n"
           "(docs/kernels.md).\n\noptions:\n");
    for (size_t i = 0; i < NOPT; i++) {
        char lhs[40];
        snprintf(lhs, sizeof lhs, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        printf("  %-22s %s\n", lhs, options[i].help);
    }
    printf("\narchitectures:");
    for (const char *const *n = coalsim_arch_names(); *n; n++) printf(" %s", *n);
    printf("\n  fermi: 4-byte banks, CC 2.x rules; kepler: 8-byte banks, 64-bit mode;\n"
           "  kepler32: 8-byte banks, 32-bit mode; maxwell..hopper: 4-byte banks\n"
           "  (volta..hopper with the 8/16-byte rules measured on an H100).\n"
           "\nexit status: 0 ok, 1 bad input (message names FILE:LINE) or output that cannot be\n"
           "written, 2 usage error\n");
}

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "coalsim: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n%s", usage_line);
    return EXIT_USAGE;
}

/* Parse a positive decimal number for an option; -1 if it is not one. */
static long number(const char *s)
{
    char *end;
    if (!s || !*s || *s < '0' || *s > '9') return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || v <= 0 || v > 1 << 20) return -1;
    return v;
}

typedef struct {
    coalsim_arch arch;
    coalsim_format fmt;
    int per_request;
    int picture, colour;    /* --picture; ANSI colour (stdout is a terminal) */
    const char *html;       /* --html FILE */
    const char **sets;      /* --set NAME=VALUE, NULL-terminated */
    long threads;           /* 0: choose by file size */
    int hier;               /* --hier */
    int source;             /* --source */
    const coalsim_profile *profile;   /* --profile FILE, read */
    long mlp;               /* --mlp */
    kernel_opts kernel;     /* FILE.cu / FILE.ptx */
    int trace_out;          /* coalsim trace: the requests as a v1 trace, no report */
    int run;                /* coalsim run PROGRAM */
    run_opts ro;            /* its options */
} config;

#define HTML_REQUESTS 64    /* requests drawn one by one in the HTML report */

typedef struct {
    coalsim_request req[HTML_REQUESTS];
    coalsim_result res[HTML_REQUESTS];
    char label[HTML_REQUESTS][COALSIM_MAX_LABEL + 1];
    size_t n;
} kept;

/* A sketch or a kernel spreads its blocks over threads itself: its file is
 * not split. */
static int runs_itself(const char *path)
{
    if (kernel_path(path)) return 1;
    size_t n = strlen(path);
    return n >= 7 && !strcmp(path + n - 7, ".sketch");
}

static unsigned all_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 16 ? 16 : (unsigned)cores;
}

/* Threads to split the text file PATH across: --threads, else every core
 * for a file of 32 MiB or more; 1 when requests must stay in order. */
static unsigned threads_for(const config *cf, const char *path)
{
    struct stat sb;
    if (cf->per_request || cf->html || cf->hier) return 1;   /* requests in order */
    if (cf->threads) return (unsigned)cf->threads;
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || sb.st_size < (32 << 20)) return 1;
    return all_cores();
}

/* What the per-request callback needs: the options and where to write. */
typedef struct {
    const config *cf;
    FILE *out;        /* text per-request lines */
    FILE *jreq;       /* JSON per-request objects, or NULL */
    kept *keep;       /* the first requests for the HTML report, or NULL */
    uint64_t n;
} each_ctx;

static int each_request(void *ctx, const coalsim_request *r, const coalsim_result *res, const coalsim_hier_counts *d)
{
    each_ctx *e = ctx;
    const config *cf = e->cf;
    if (cf->trace_out) {
        /* cp.async and bulk copies are no trace op (a cp.async's request needs its shared destinations too):
         * their records are written as comments, which the reader skips */
        const char *not_op = r->op >= COALSIM_LDGSTS ? "# " : "";
        for (uint32_t m = r->active; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            fprintf(e->out, "%s%s %s %u %s %llu %llu 0x%llx\n", not_op, coalsim_op_name(r->op), coalsim_space_name(r->space),
                    r->size, r->label, (unsigned long long)r->block,
                    (unsigned long long)(r->warp * cf->arch.warp_size + l), (unsigned long long)r->addr[l]);
        }
        return ferror(e->out) ? -1 : 0;
    }
    if (e->keep && e->keep->n < HTML_REQUESTS) {
        size_t k = e->keep->n++;
        e->keep->req[k] = *r;
        e->keep->res[k] = *res;
        snprintf(e->keep->label[k], sizeof e->keep->label[k], "%s", r->label);
        e->keep->req[k].label = e->keep->label[k];
    }
    if (cf->per_request && cf->fmt == COALSIM_TEXT) {
        fputs("  ", e->out);
        coalsim_report_request(e->out, &cf->arch, r, res);
        if (d) coalsim_report_request_hier(e->out, r, d);
        if (cf->picture) coalsim_picture_text(e->out, &cf->arch, r, res, cf->colour);
    } else if (e->jreq) {
        coalsim_report_request_json(e->jreq, r, res, d, e->n == 0);
    }
    e->n++;
    return 0;
}

/* Analyse one trace; report goes to out.  0, or EXIT_INPUT after printing why. */
static int run(const config *cf, const char *path, FILE *out)
{
    coalsim_analysis *pan = NULL;
    int prc = runs_itself(path) ? 1 : parallel_analyse(path, &cf->arch, threads_for(cf, path), &pan);
    if (prc < 0) return EXIT_INPUT;
    if (prc == 0) {
        int bad = coalsim_analysis_report(out, cf->fmt, path, pan, NULL) != 0;
        coalsim_analysis_free(pan);
        if (bad) fprintf(stderr, "coalsim: %s: cannot write the report\n", path);
        return bad ? EXIT_INPUT : EXIT_OK;
    }
    input in;
    int kern = kernel_path(path);
    memset(&in, 0, sizeof in);
    if (!kern && input_open(&in, path, cf->arch.warp_size, cf->sets) != 0) return EXIT_INPUT;
    const char *name = kern ? path : in.name;
    int status = EXIT_OK;
    char *jbuf = NULL;
    size_t jlen = 0;
    each_ctx ec = {.cf = cf, .out = out};
    coalsim_analysis *an = NULL;
    coalsim_hier_cfg hcfg;
    coalsim_sm_limits lim;
    coalsim_analysis_cfg acfg = {.arch = cf->arch, .mlp = (unsigned)cf->mlp, .each_ctx = &ec, .source = cf->source};
    if (cf->per_request || cf->html || cf->trace_out) acfg.each = each_request;
    if (cf->hier) {
        coalsim_hier_preset("hopper", &hcfg);
        /* a profile of another Hopper part says its L2's size (the H200's 60 MiB) */
        if (cf->profile && cf->profile->l2_bytes) hcfg.l2_bytes = cf->profile->l2_bytes;
        if (cf->profile) hcfg.l2_home_mask = cf->profile->l2_home_mask;
        acfg.hier = &hcfg;
    }
    /* a kernel's time says which L2 it started with */
    if (kern && cf->hier) acfg.l2 = cf->kernel.warm ? COALSIM_L2_WARM : COALSIM_L2_COLD;
    if (cf->profile) {
        coalsim_sm_limits_preset("hopper", &lim);
        acfg.profile = cf->profile;
        acfg.limits = &lim;
    }
    /* JSON per-request entries are collected apart and put into the report
     * object as its "requests" key once the trace has been read. */
    if (cf->per_request && cf->fmt == COALSIM_JSON && !(ec.jreq = open_memstream(&jbuf, &jlen))) goto oom;
    if (cf->html && !(ec.keep = calloc(1, sizeof *ec.keep))) goto oom;
    if (!(an = coalsim_analysis_new(&acfg))) goto oom;
    if (cf->per_request && cf->fmt == COALSIM_TEXT) fprintf(out, "Requests of %s\n", name);
    if (cf->trace_out)
        fprintf(out, "# coalsim trace of %s: every request the kernel made, every active lane, in block order\n",
                name);
    if (kern) {
        if (kernel_run(path, &cf->kernel, an, &acfg, (unsigned)cf->threads) != 0 || coalsim_analysis_finish(an) != 0) {
            if (coalsim_analysis_error(an)[0]) fprintf(stderr, "coalsim: %s: %s\n", name, coalsim_analysis_error(an));
            status = EXIT_INPUT;
            goto done;
        }
        goto report;
    }
    /* a sketch's blocks on every core (its requests reach the analysis in
     * order where that matters); a trace read on a thread of its own */
    if (input_analyse(&in, an, &acfg, cf->threads ? (unsigned)cf->threads : all_cores(), &cf->kernel.sample) != 0) {
        status = EXIT_INPUT;
        goto done;
    }
    if (coalsim_analysis_finish(an) != 0) {
        if (in.rd) fprintf(stderr, "coalsim: %s:%lu: %s\n", name, coalsim_reader_line(in.rd), coalsim_analysis_error(an));
        else fprintf(stderr, "coalsim: %s: %s\n", name, coalsim_analysis_error(an));
        status = EXIT_INPUT;
        goto done;
    }
report:
    if (cf->trace_out) goto done;
    if (cf->per_request && cf->fmt == COALSIM_TEXT) fprintf(out, "\n");
    if (ec.jreq) {
        fclose(ec.jreq);
        ec.jreq = NULL;
    }
    if (coalsim_analysis_report(out, cf->fmt, name, an,
                                cf->per_request && cf->fmt == COALSIM_JSON ? (jbuf ? jbuf : "") : NULL) != 0) {
        fprintf(stderr, "coalsim: %s: cannot write the report\n", name);
        status = EXIT_INPUT;
    }
    if (cf->html && status == EXIT_OK) {
        FILE *h = fopen(cf->html, "w");
        coalsim_report_extra hx = {.exec = coalsim_analysis_exec(an), .time = coalsim_analysis_time(an),
                                   .sample = coalsim_analysis_sample(an)};
        if (!h || coalsim_report_html_ext(h, name, &cf->arch, coalsim_analysis_stats(an), ec.keep->req, ec.keep->res,
                                          ec.keep->n, &hx) != 0 ||
            fclose(h) != 0) {
            fprintf(stderr, "coalsim: %s: cannot write the HTML report\n", cf->html);
            status = EXIT_INPUT;
        }
    }
    goto done;
oom:
    fprintf(stderr, "coalsim: %s: out of memory\n", name);
    status = EXIT_INPUT;
done:
    if (ec.jreq) fclose(ec.jreq);
    free(jbuf);
    coalsim_analysis_free(an);
    free(ec.keep);
    if (!kern) input_close(&in);
    return status;
}

static int command(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);      /* a closed stdout is a write error, not a kill */
    if (argc > 1 && strcmp(argv[1], "convert") == 0) return convert_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "advise") == 0) return advise_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sketch") == 0) return sketch_main(argc - 1, argv + 1);
    config cf = {.fmt = COALSIM_TEXT};
    /* coalsim trace FILE.cu ...: the kernel's requests as a trace */
    if (argc > 1 && strcmp(argv[1], "trace") == 0) {
        cf.trace_out = 1;
        argc--, argv++;
    } else if (argc > 1 && strcmp(argv[1], "run") == 0) {
        cf.run = 1;
        argc--, argv++;
    }
    int prog = 0;           /* coalsim run: where the program's command line starts */
    const char *arch_name = "hopper";
    long warp = 0, sector = 0, line = 0, banks = 0, bwidth = 0, bmode = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0, only_files = 0, nsets = 0;
    const char *profile_path = NULL;
    coalsim_profile profile;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    const char **defines = calloc((size_t)argc + 1, sizeof *defines);
    const char **includes = calloc((size_t)argc + 1, sizeof *includes);
    int ndefines = 0, nincludes = 0, l2_given = 0;
    cf.sets = sets;
    cf.kernel.defines = defines;
    cf.kernel.includes = includes;
    if (!files || !sets || !defines || !includes) {
        fprintf(stderr, "coalsim: out of memory\n");
        return EXIT_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cf.run && (only_files || a[0] != '-')) {
            prog = i;       /* the program and its arguments: coalsim's options end */
            break;
        }
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            files[nfiles++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = 1;
            continue;
        }
        /* ncu's short names */
        if (cf.run && (!strcmp(a, "-k") || !strcmp(a, "-s") || !strcmp(a, "-c")))
            a = a[1] == 'k' ? "--kernel-name" : a[1] == 's' ? "--launch-skip" : "--launch-count";
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            help();
            free(files);
            free(sets), free(defines), free(includes);
            return EXIT_OK;
        }
        if (strcmp(a, "--version") == 0) {
            printf("coalsim %s\n", COALSIM_VERSION);
            free(files);
            free(sets), free(defines), free(includes);
            return EXIT_OK;
        }
        /* --name=value or --name value */
        char name[32];
        const char *val = NULL, *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name) nl = sizeof name - 1;
        memcpy(name, a, nl);
        name[nl] = '\0';
        const struct option_def *o = NULL;
        for (size_t k = 0; k < NOPT; k++)
            if (strcmp(options[k].name, name) == 0) o = &options[k];
        if (!o) {
            free(files);
            free(sets), free(defines), free(includes);
            return usage_error("unknown option '%s'", a);
        }
        if (o->arg) {
            val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!val) {
                free(files);
                free(sets), free(defines), free(includes);
                return usage_error("option %s needs a value", o->name);
            }
        } else if (eq) {
            free(files);
            free(sets), free(defines), free(includes);
            return usage_error("option %s takes no value", o->name);
        }
        long *dst = NULL;
        switch (o->id) {
        case O_ARCH: arch_name = val; break;
        case O_WARP: dst = &warp; break;
        case O_SECTOR: dst = &sector; break;
        case O_LINE: dst = &line; break;
        case O_BANKS: dst = &banks; break;
        case O_BWIDTH: dst = &bwidth; break;
        case O_BMODE: dst = &bmode; break;
        case O_JSON: cf.fmt = COALSIM_JSON; break;
        case O_CSV: cf.fmt = COALSIM_CSV; break;
        case O_PERREQ: cf.per_request = 1; break;
        case O_THREADS: dst = &cf.threads; break;
        case O_PICTURE: cf.picture = cf.per_request = 1; break;
        case O_HTML: cf.html = val; break;
        case O_HIER: cf.hier = 1; break;
        case O_PROFILE: profile_path = val; break;
        case O_MLP: dst = &cf.mlp; break;
        case O_KERNEL: cf.kernel.kernel = val; break;
        case O_DUMP: cf.kernel.dump = val; break;
        case O_SASS: cf.kernel.sass = 1; break;
        case O_SOURCE: cf.source = 1; break;
        case O_PTX: cf.kernel.ptx = val; break;
        case O_REGS: {
            long r = number(val);
            if (r < 1 || r > 255) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--regs takes 1 to 255 registers a thread, not '%s'", val);
            }
            cf.kernel.regs = (unsigned)r;
            break;
        }
        case O_ARGS: cf.kernel.args = val; break;
        case O_KNAME: cf.ro.kernel_name = val; break;
        case O_SASSLIST: cf.ro.sass_listing = val; break;
        case O_LSKIP:
        case O_LCOUNT:
            if (val[strspn(val, "0123456789")] || !*val || strlen(val) > 9) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error(o->id == O_LSKIP ? "--launch-skip takes a number of launches, not '%s'"
                                                    : "--launch-count takes a number of launches, not '%s'", val);
            }
            *(o->id == O_LSKIP ? &cf.ro.skip : &cf.ro.count) = val;
            break;
        case O_LOGFILE: cf.ro.log_file = val; break;
        case O_SAMPLE:
            if (coalsim_sample_parse(val, &cf.kernel.sample) != 0) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--sample takes auto, off or a number of blocks, not '%s'", val);
            }
            cf.ro.sample = val;
            break;
        case O_L2:
            if (strcmp(val, "cold") && strcmp(val, "warm")) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--l2 takes cold or warm, not '%s'", val);
            }
            cf.kernel.warm = !strcmp(val, "warm");
            l2_given = 1;
            break;
        case O_DEFINE: defines[ndefines++] = val; break;
        case O_INCLUDE: includes[nincludes++] = val; break;
        case O_COMPILER:
            if (strcmp(val, "nvcc") && strcmp(val, "clang")) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--compiler takes nvcc or clang, not '%s'", val);
            }
            cf.kernel.compiler = val;
            break;
        case O_CLUSTER:
            if (kernel_dims(val, cf.kernel.cluster) != 0) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--cluster takes X[,Y[,Z]] of positive numbers, not '%s'", val);
            }
            break;
        case O_GRID:
        case O_BLOCK:
            if (kernel_dims(val, o->id == O_GRID ? cf.kernel.grid : cf.kernel.block) != 0) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error(o->id == O_GRID ? "--grid takes X[,Y[,Z]] of positive numbers, not '%s'"
                                                   : "--block takes X[,Y[,Z]] of positive numbers, not '%s'", val);
            }
            *(o->id == O_GRID ? &cf.kernel.have_grid : &cf.kernel.have_block) = 1;
            break;
        case O_DYNSMEM: {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 0);
            if (*end == 'K' || *end == 'k') v <<= 10, end++;
            if (*val < '0' || *val > '9' || *end || errno || v > (1ull << 20)) {
                free(files), free(sets), free(defines), free(includes);
                return usage_error("--dynamic-shared takes a number of bytes, not '%s'", val);
            }
            cf.kernel.dynamic_shared = v;
            break;
        }
        case O_SET:
            if (!strchr(val, '=')) {
                free(files);
                free(sets), free(defines), free(includes);
                return usage_error("--set needs NAME=VALUE, not '%s'", val);
            }
            sets[nsets++] = val;
            break;
        default: break;
        }
        if (dst && (*dst = number(val)) < 0) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s needs a positive number, not '%.40s'", o->name, val);
            free(files);
            free(sets), free(defines), free(includes);
            return usage_error("%s", msg);
        }
    }
    /* --arch sm_XX: compile for it, model it with its family's preset */
    cf.kernel.sm = kernel_sm_of_preset(arch_name);
    if (!strncmp(arch_name, "sm_", 3)) {
        cf.kernel.sm = arch_name;
        if (!(arch_name = kernel_preset_of_sm(arch_name))) {
            free(files), free(sets), free(defines), free(includes);
            return usage_error("%s", "--arch sm_XX needs sm_50 or newer");
        }
    }
    if (coalsim_arch_preset(arch_name, &cf.arch) != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown architecture '%.40s' (try: fermi kepler kepler32 maxwell pascal volta "
                                  "turing ampere ada hopper)", arch_name);
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", msg);
    }
    if (warp) cf.arch.warp_size = (unsigned)warp;
    if (sector) cf.arch.sector_bytes = (unsigned)sector;
    if (line) cf.arch.line_bytes = (unsigned)line;
    else if (cf.arch.line_bytes < cf.arch.sector_bytes) cf.arch.line_bytes = cf.arch.sector_bytes;
    if (banks) cf.arch.banks = (unsigned)banks;
    if (bwidth) {
        cf.arch.bank_width = (unsigned)bwidth;
        if (!bmode && bwidth == 4) cf.arch.bank_mode = 32;
    }
    if (bmode) cf.arch.bank_mode = (unsigned)bmode;
    const char *bad = coalsim_arch_check(&cf.arch);
    if (bad) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", bad);
    }
    if (cf.picture && cf.fmt != COALSIM_TEXT) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", "--picture draws in the text report, not with --json or --csv");
    }
    if (cf.hier && strcmp(cf.arch.name, "hopper") != 0) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", "--hier works with the hopper preset only (the H100's caches)");
    }
    if (cf.mlp > 64 || (cf.mlp && !profile_path)) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", cf.mlp > 64 ? "--mlp needs 1 to 64" : "--mlp needs --profile");
    }
    if (!cf.mlp) cf.mlp = 16;
    /* --profile h100|h200|FILE; --hier (the hopper preset's caches) without one: the H100's */
    char profile_file[4400], tried[4400];
    int default_profile = 0;
    if (profile_path && profile_path_of(profile_path, profile_file, sizeof profile_file, tried, sizeof tried) != 0) {
        fprintf(stderr, "coalsim: --profile %s: %s\n", profile_path, tried);
        free(files);
        free(sets), free(defines), free(includes);
        return EXIT_INPUT;
    }
    if (profile_path) profile_path = profile_file;
    else if (cf.hier && profile_path_of("h100", profile_file, sizeof profile_file, tried, sizeof tried) == 0)
        profile_path = profile_file, default_profile = 1;
    if (profile_path) {
        char err[400];
        FILE *pf = fopen(profile_path, "r");
        if (!cf.hier) {
            if (pf) fclose(pf);
            free(files);
            free(sets), free(defines), free(includes);
            return usage_error("%s", "--profile needs --hier");
        }
        if (!pf) {
            fprintf(stderr, "coalsim: %s: cannot open: %s\n", profile_path, strerror(errno));
            free(files);
            free(sets), free(defines), free(includes);
            return EXIT_INPUT;
        }
        int unread = coalsim_profile_read(pf, profile_path, &profile, err, sizeof err);
        fclose(pf);
        if (unread) {
            fprintf(stderr, "coalsim: %s\n", err);
            free(files);
            free(sets), free(defines), free(includes);
            return EXIT_INPUT;
        }
        if (default_profile) snprintf(profile.default_name, sizeof profile.default_name, "h100");
        cf.profile = &profile;
    }
    if (cf.html && nfiles > 1) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", "--html takes one trace");
    }
    cf.colour = isatty(fileno(stdout)) && !getenv("NO_COLOR");
    if (cf.per_request && cf.fmt == COALSIM_CSV) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", "--per-request works with text and --json output, not --csv");
    }
    if (!cf.run && (cf.ro.kernel_name || cf.ro.skip || cf.ro.count || cf.ro.log_file || cf.ro.sass_listing)) {
        free(files), free(sets), free(defines), free(includes);
        return usage_error("%s", "--kernel-name, --launch-skip, --launch-count, --log-file and --sass-listing go with coalsim run");
    }
    if (cf.run) {
        const char *bad_run = NULL;
        if (!prog) bad_run = "coalsim run needs a program: coalsim run [options] [--] PROGRAM [ARGS...]";
        else if (cf.kernel.have_grid || cf.kernel.have_block || cf.kernel.cluster[0] || cf.kernel.args || cf.kernel.kernel || ndefines ||
                 nincludes || cf.kernel.dynamic_shared || cf.kernel.compiler || cf.kernel.dump || cf.kernel.sass ||
                 cf.kernel.ptx || cf.kernel.regs || nsets)
            bad_run = "coalsim run takes the launches from the program: --kernel, --grid, --block, --args and the "
                      "other kernel-file options do not apply (--kernel-name/-k selects launches)";
        else if (cf.trace_out)
            bad_run = "coalsim trace takes one kernel, trace or sketch, not coalsim run";
        else if (strcmp(cf.arch.name, "hopper") != 0)
            bad_run = "coalsim run models an H100 or H200 (the hopper preset)";
        else if (cf.mlp != 16)
            bad_run = "coalsim run does not take --mlp";
        else if (l2_given)
            bad_run = "coalsim run carries each launch's L2 to the next: --l2 does not apply";
        if (bad_run) {
            free(files), free(sets), free(defines), free(includes);
            return usage_error("%s", bad_run);
        }
        cf.ro.fmt = cf.fmt;
        cf.ro.hier = cf.hier;
        cf.ro.source = cf.source;
        cf.ro.per_request = cf.per_request;
        cf.ro.picture = cf.picture;
        cf.ro.html = cf.html;
        cf.ro.profile = profile_path;
        cf.ro.threads = cf.threads;
        free(files), free(sets), free(defines), free(includes);
        return run_program(&cf.ro, argv + prog);
    }
    int nkernels = 0, nmodules = 0, nlistings = 0;
    for (int i = 0; i < nfiles; i++) {
        int kk = kernel_kind(files[i]);
        nkernels += kk != KK_NONE;
        nmodules += kk == KK_CU || kk == KK_PTX;
        nlistings += kk == KK_LISTING || kk == KK_BINARY;
    }
    for (int i = 0; i < nfiles; i++) {
        char berr[1024];
        if (kernel_kind(files[i]) == KK_BINARY && coalsim_binary_check(files[i], berr, sizeof berr) != 0) {
            fprintf(stderr, "coalsim: %s\n", berr);
            free(files), free(sets), free(defines), free(includes);
            return EXIT_INPUT;
        }
    }
    const char *kerr = NULL;
    if (nkernels && (!cf.kernel.have_grid || !cf.kernel.have_block))
        kerr = "a kernel file (.cu, .ptx, .sass, .cubin) needs --grid and --block (and --args for its parameters)";
    else if (!nkernels && (cf.kernel.have_grid || cf.kernel.have_block || cf.kernel.cluster[0] || cf.kernel.args || cf.kernel.kernel ||
                           ndefines || nincludes || cf.kernel.dynamic_shared || cf.kernel.compiler || cf.kernel.dump ||
                           cf.kernel.sass || cf.kernel.ptx || cf.kernel.regs))
        kerr = "--kernel, --grid, --block, --cluster, --args, --dynamic-shared, --dump, --sass, --ptx, --regs, --define, --include "
               "and --compiler apply to kernel files (.cu, .ptx, .sass, .cubin)";
    else if (l2_given && (nkernels != nfiles || !cf.hier))
        kerr = "--l2 goes with --hier and kernel files (.cu, .ptx, .sass, .cubin)";
    else if (cf.kernel.sass && nlistings)
        kerr = "--sass goes with .cu and .ptx files (a listing or binary is SASS already)";
    else if (cf.kernel.ptx && (nmodules || nlistings != 1))
        kerr = "--ptx gives the module of one SASS listing or binary";
    else if (cf.trace_out && cf.ro.sample && strcmp(cf.ro.sample, "off") != 0)
        kerr = "coalsim trace writes every request of every block: --sample does not apply";
    /* a trace is every request; a dump is the kernel's output: neither samples unasked */
    if (cf.trace_out || (cf.kernel.dump && !cf.ro.sample)) cf.kernel.sample.mode = COALSIM_SAMPLE_OFF;
    if (kerr) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", kerr);
    }
    if (nfiles == 0) {
        free(files);
        free(sets), free(defines), free(includes);
        return usage_error("%s", "no trace given");
    }

    /* Reports are built in memory and printed only if every trace was read
     * without error: bad input never leaves a partial report on stdout. */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) {
        fprintf(stderr, "coalsim: out of memory\n");
        free(files);
        free(sets), free(defines), free(includes);
        return EXIT_INPUT;
    }
    int status = EXIT_OK;
    if (cf.fmt == COALSIM_CSV) coalsim_report_csv_header(out, cf.hier);
    for (int i = 0; i < nfiles && status == EXIT_OK; i++) {
        if (i && cf.fmt == COALSIM_TEXT) fputc('\n', out);
        status = run(&cf, files[i], out);
    }
    fclose(out);
    if (status == EXIT_OK && fwrite(buf, 1, len, stdout) != len) {
        fprintf(stderr, "coalsim: cannot write to stdout: %s\n", strerror(errno));
        status = EXIT_INPUT;
    }
    free(buf);
    free(files);
    free(sets), free(defines), free(includes);
    return status;
}

int main(int argc, char **argv)
{
    output_guard();
    return output_finish(command(argc, argv));
}
