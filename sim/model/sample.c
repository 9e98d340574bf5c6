/* Sampled launches: which windows of blocks run, and what the whole launch's
 * figures and their errors are from them (see coalsim.h). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coalsim.h"

static const char *const fig_names[COALSIM_SAMPLE_FIGS] = {"requests", "sectors", "wavefronts", "instructions"};

const char *coalsim_sample_fig_name(coalsim_sample_fig f) { return f < COALSIM_SAMPLE_FIGS ? fig_names[f] : "?"; }

int coalsim_sample_parse(const char *s, coalsim_sample_cfg *c)
{
    memset(c, 0, sizeof *c);
    if (!s) return -1;
    if (!strcmp(s, "auto")) return c->mode = COALSIM_SAMPLE_AUTO, 0;
    if (!strcmp(s, "off")) return c->mode = COALSIM_SAMPLE_OFF, 0;
    if (!*s || s[strspn(s, "0123456789")] || strlen(s) > 15) return -1;
    c->mode = COALSIM_SAMPLE_BLOCKS;
    c->blocks = strtoull(s, NULL, 10);
    return c->blocks ? 0 : -1;
}

#define SM_THREADS 2048u     /* threads a Hopper SM holds */
#define SM_BLOCKS 32u        /* blocks a Hopper SM holds */
#define DEFAULT_SMS 132u     /* an H100's SMs, without a cache model's count */

uint64_t coalsim_sample_window(uint64_t blocks, unsigned threads, unsigned sms)
{
    unsigned per_sm = threads ? SM_THREADS / threads : 1;
    if (per_sm < 1) per_sm = 1;
    if (per_sm > SM_BLOCKS) per_sm = SM_BLOCKS;
    uint64_t w = (uint64_t)(sms ? sms : DEFAULT_SMS) * per_sm;
    if (w > blocks) w = blocks;
    return w ? w : 1;
}

size_t coalsim_sample_pick(uint64_t nwin, uint64_t m, uint64_t *pick)
{
    if (nwin == 0) return 0;
    if (m > nwin) m = nwin;
    if (m < 2) m = nwin < 2 ? nwin : 2;
    size_t n = 0;
    for (uint64_t j = 0; j < m; j++) {
        /* round(j (nwin - 1) / (m - 1)), in integers */
        uint64_t k = (uint64_t)(((__uint128_t)2 * j * (nwin - 1) + (m - 1)) / (2 * (m - 1)));
        if (n && pick[n - 1] >= k) continue;       /* cannot happen for m <= nwin; kept safe */
        pick[n++] = k;
    }
    return n;
}

/* Student's t, 97.5th percentile, DF degrees of freedom: the interval of a
 * mean whose spread is itself estimated from few windows. */
static double t975(size_t df)
{
    static const double t[30] = {12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13,
                                 2.12, 2.11, 2.10, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04};
    if (df >= 1 && df <= 30) return t[df - 1];
    return df <= 60 ? 2.02 : df <= 120 ? 2.0 : 1.96;
}

/* The ratio estimator of a cluster sample: the launch's total is
 * blocks x (sum y_i / sum n_i); its variance, the windows taken as a simple
 * random sample of the launch's NWIN windows (systematic sampling of a
 * smooth or repetitive grid does at least as well), is
 *   NWIN^2 (1 - m / NWIN) / m  x  sum (y_i - R n_i)^2 / (m - 1),
 * and the interval is Student's t with m - 1 degrees of freedom. */
void coalsim_sample_estimate(coalsim_sample *s, size_t m, const double (*fig)[COALSIM_SAMPLE_FIGS],
                             const uint64_t *nblk)
{
    double nsum = 0;
    for (size_t i = 0; i < m; i++) nsum += (double)nblk[i];
    s->factor = nsum > 0 ? (double)s->blocks / nsum : 1;
    for (int f = 0; f < COALSIM_SAMPLE_FIGS; f++) {
        double ysum = 0;
        for (size_t i = 0; i < m; i++) ysum += fig[i][f];
        double r = nsum > 0 ? ysum / nsum : 0;
        s->estimate[f] = r * (double)s->blocks;
        if (!s->sampled) {
            s->error[f] = 0;
            continue;
        }
        if (m < 2) {
            s->error[f] = -1;
            continue;
        }
        double ss = 0;
        for (size_t i = 0; i < m; i++) {
            double d = fig[i][f] - r * (double)nblk[i];
            ss += d * d;
        }
        double nw = (double)s->windows, fpc = 1.0 - (double)m / nw;
        if (fpc < 0) fpc = 0;
        double var = nw * nw * fpc / (double)m * ss / (double)(m - 1);
        /* windows of unequal length (the launch's last) make d_i nonzero by
         * rounding alone; below a part in 1e12 it is exact agreement */
        double half = t975(m - 1) * sqrt(var);
        s->error[f] = s->estimate[f] > 0 ? half / s->estimate[f] : 0;
        if (s->error[f] < 1e-12) s->error[f] = 0;
    }
}
