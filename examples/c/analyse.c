/* A trace's accesses and totals through libcoalsim: the smallest program
 * on the library.  Build it against an installed coalsim with
 *
 *     cc analyse.c $(pkg-config --cflags --libs coalsim) -o analyse
 *
 * usage: analyse TRACE [ARCH]   (any trace coalsim reads: text, gzip,
 * binary, NVBit's mem_trace output, Accel-Sim's traces) */
#include <coalsim.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char err[600];
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: analyse TRACE [ARCH]\n");
        return 2;
    }
    coalsim_analysis *an = coalsim_analysis_new_preset(argc > 2 ? argv[2] : "hopper", 32, 0, err, sizeof err);
    if (!an) {
        fprintf(stderr, "analyse: %s\n", err);
        return 2;
    }
    if (coalsim_analysis_read_file(an, argv[1], 32, err, sizeof err) != 0) {
        fprintf(stderr, "analyse: %s\n", err);
        coalsim_analysis_free(an);
        return 1;
    }
    coalsim_analysis_finish(an);
    const coalsim_stats *st = coalsim_analysis_stats(an);
    unsigned long long requests = 0, sectors = 0, ideal_sectors = 0, wavefronts = 0, ideal_wavefronts = 0;
    for (size_t i = 0; i < coalsim_stats_count(st); i++) {
        const coalsim_access *ac = coalsim_stats_get(st, i);
        int sect = coalsim_space_has_sectors(ac->space);
        unsigned long long n = sect ? ac->sectors : ac->wavefronts, ideal = sect ? ac->ideal_sectors : ac->ideal_wavefronts;
        printf("%-16s %-4s %-6s %2u bytes  %6llu requests  %7llu %s (ideal %llu)\n", ac->label,
               coalsim_op_name(ac->op), coalsim_space_name(ac->space), ac->size, (unsigned long long)ac->requests, n,
               sect ? "sectors" : "wavefronts", ideal);
        requests += ac->requests;
        if (sect) sectors += n, ideal_sectors += ideal;
        else wavefronts += n, ideal_wavefronts += ideal;
    }
    printf("total: %zu accesses, %llu requests, %llu sectors (ideal %llu), %llu wavefronts (ideal %llu)\n",
           coalsim_stats_count(st), requests, sectors, ideal_sectors, wavefronts, ideal_wavefronts);
    coalsim_analysis_free(an);
    return 0;
}
