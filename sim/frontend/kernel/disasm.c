/* SASS from the CUDA toolkit: a cubin disassembled by nvdisasm (-g: the
 * code with its source lines, and the constant banks' sections), a fatbin, object or executable by cuobjdump
 * -sass, and PTX assembled by ptxas first.  The programs run with argument
 * vectors, never through a shell; their files live in a temporary folder
 * removed afterwards. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coalsim.h"
#include "frontend/kernel/readfile.h"
#include "frontend/kernel/proc.h"

#define HOWTO                                                                                                   \
    "coalsim reads SASS listings; on a machine with the CUDA toolkit make one with\n"                           \
    "  nvcc -cubin -arch=sm_90 -O3 -lineinfo FILE.cu -o FILE.cubin && nvdisasm -g FILE.cubin > FILE.sass\n"    \
    "and run coalsim FILE.sass --ptx FILE.cu (the module gives the parameters and __constant__ data)"

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

static void command_of(char *const *argv, char *cmd, size_t cap)
{
    size_t k = 0;
    cmd[0] = '\0';
    for (int i = 0; argv[i] && k + 2 < cap; i++) k += (size_t)snprintf(cmd + k, cap - k, "%s%s", i ? " " : "", argv[i]);
}

/* Disassemble PATH into the file OUTF: nvdisasm for a cubin when there is
 * one, cuobjdump otherwise.  0, or -1 with why in ERR. */
static int disassemble_to(const char *path, const char *outf, char *err, size_t cap)
{
    char nvdisasm[4096], cuobjdump[4096], out[8192];
    int have_nvd = proc_find_cuda("nvdisasm", nvdisasm, sizeof nvdisasm) == 0;
    int have_cuo = proc_find_cuda("cuobjdump", cuobjdump, sizeof cuobjdump) == 0;
    if (!have_nvd && !have_cuo) {
        snprintf(err, cap,
                 "%s: no SASS disassembler found (nvdisasm or cuobjdump: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin; "
                 "the CUDA toolkit has both).\n" HOWTO,
                 path);
        return -1;
    }
    char *argv[8];
    int n = 0;
    if (have_nvd && ends_with(path, ".cubin")) {
        /* without -c: the constant sections too (bank 2's literals, bank 3) */
        argv[n++] = nvdisasm, argv[n++] = "-g";
    } else if (have_cuo) {
        argv[n++] = cuobjdump, argv[n++] = "-sass";
    } else {
        snprintf(err, cap, "%s: only cuobjdump reads fatbins, objects and executables, and it is not found "
                           "(nvdisasm is: give it the .cubin)", path);
        return -1;
    }
    argv[n++] = (char *)path;
    argv[n] = NULL;
    int st = proc_run(argv, outf, out, sizeof out);
    if (st != 0) {
        char cmd[4400];
        command_of(argv, cmd, sizeof cmd);
        snprintf(err, cap, "%s: disassembling failed (%s %d):\n  %s\n%s", path, st < 0 ? "could not start" : "exit status",
                 st, cmd, out);
        return -1;
    }
    return 0;
}

char *coalsim_disassemble(const char *path, size_t *len, char *err, size_t cap)
{
    if (access(path, R_OK) != 0) {
        snprintf(err, cap, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    char dir[] = "/tmp/coalsim-sass-XXXXXX", outf[64];
    if (!mkdtemp(dir)) {
        snprintf(err, cap, "%s: cannot make a temporary folder: %s", path, strerror(errno));
        return NULL;
    }
    snprintf(outf, sizeof outf, "%s/listing.sass", dir);
    char *text = NULL;
    if (disassemble_to(path, outf, err, cap) == 0 && !(text = kfile_read(outf, len)))
        snprintf(err, cap, "%s: the disassembler wrote nothing readable", path);
    unlink(outf);
    rmdir(dir);
    return text;
}

char *coalsim_compile_sass(const char *ptx, size_t ptxlen, const char *name, const char *arch, size_t *len, char *err,
                           size_t cap)
{
    char ptxas[4096], probe[4096];
    if (proc_find_cuda("ptxas", ptxas, sizeof ptxas) != 0) {
        snprintf(err, cap, "%s: --sass needs ptxas to assemble the PTX (the CUDA toolkit: PATH, $CUDA_HOME/bin, "
                           "/usr/local/cuda/bin).\n" HOWTO, name);
        return NULL;
    }
    if (proc_find_cuda("nvdisasm", probe, sizeof probe) != 0 && proc_find_cuda("cuobjdump", probe, sizeof probe) != 0) {
        snprintf(err, cap, "%s: --sass needs a SASS disassembler (nvdisasm or cuobjdump), and neither is on PATH, "
                           "in $CUDA_HOME/bin or /usr/local/cuda/bin.\n" HOWTO, name);
        return NULL;
    }
    char dir[] = "/tmp/coalsim-sass-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(err, cap, "%s: cannot make a temporary folder: %s", name, strerror(errno));
        return NULL;
    }
    char ptxf[64], cubinf[64], sassf[64], archopt[64], out[16384];
    snprintf(ptxf, sizeof ptxf, "%s/module.ptx", dir);
    snprintf(cubinf, sizeof cubinf, "%s/module.cubin", dir);
    snprintf(sassf, sizeof sassf, "%s/module.sass", dir);
    snprintf(archopt, sizeof archopt, "-arch=%s", arch ? arch : "sm_90");
    char *text = NULL;
    FILE *fp = fopen(ptxf, "wb");
    if (!fp || fwrite(ptx, 1, ptxlen, fp) != ptxlen || fclose(fp) != 0) {
        if (fp) fclose(fp);
        snprintf(err, cap, "%s: cannot write %s", name, ptxf);
        goto done;
    }
    char *argv[] = {ptxas, archopt, "-O3", "-lineinfo", "-o", cubinf, ptxf, NULL};
    int st = proc_run(argv, NULL, out, sizeof out);
    if (st != 0) {
        char cmd[4400];
        command_of(argv, cmd, sizeof cmd);
        snprintf(err, cap, "%s: ptxas failed (%s %d):\n  %s\n%s", name, st < 0 ? "could not start" : "exit status", st, cmd,
                 out);
        goto done;
    }
    if (disassemble_to(cubinf, sassf, err, cap) != 0) goto done;
    if (!(text = kfile_read(sassf, len))) snprintf(err, cap, "%s: the disassembler wrote nothing readable", name);
done:
    unlink(ptxf);
    unlink(cubinf);
    unlink(sassf);
    rmdir(dir);
    return text;
}
