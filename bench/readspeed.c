/* Reader throughput alone: read a trace (text or binary) through
 * libcoalsim's reader without modelling it, RUNS times; print the median
 * seconds and records/s.  usage: readspeed TRACE [RUNS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "coalsim.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    double t[64];
    uint64_t records = 0;
    if (runs < 1 || runs > 64) return 2;
    for (int i = 0; i < runs; i++) {
        FILE *fp = fopen(argv[1], "rb");
        if (!fp) return perror(argv[1]), 1;
        coalsim_reader *rd = coalsim_reader_new(fp, argv[1], 32);
        coalsim_request r;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int rc;
        while ((rc = coalsim_reader_next(rd, &r)) == 1) {}
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (rc < 0) return fprintf(stderr, "%s\n", coalsim_reader_error(rd)), 1;
        records = coalsim_reader_records(rd);
        coalsim_reader_free(rd);
        fclose(fp);
        t[i] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp);
    double med = t[runs / 2];
    printf("%-22s median %7.3f s  %8.1f M records/s  (reader only, %llu records)\n", argv[1], med,
           (double)records / med / 1e6, (unsigned long long)records);
    return 0;
}
