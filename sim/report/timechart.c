/* The predicted time as a picture: one bar a term of the time model, all on
 * one scale, against the total (launch + the largest term).  It reads as a
 * roofline does: the longest bar is the roof the kernel runs under, and the
 * others say how far each resource is from bounding it.  A kernel run with
 * the SM's keys in its profile has the instruction terms (exectime.c); a
 * trace or sketch has the memory terms only (timing.c). */
#include <string.h>

#include "timechart.h"

typedef struct {
    const char *name;   /* as the text report says it */
    const char *bound;  /* the bound this term names (coalsim_time.bound) */
    double us;
    const char *what;   /* the tooltip */
} term;

static size_t terms_of(const coalsim_time *tm, term *t)
{
    size_t n = 0;
    if (tm->exec_modelled) {
        t[n++] = (term){"issue", "issue", tm->issue_us, "the busiest SM's warp instructions at its issue rate"};
        t[n++] = (term){"pipe", "pipe", tm->pipe_us, "the busiest pipe's instructions at its rate"};
        t[n++] = (term){"L1/shared", "L1/shared", tm->smem_us, "shared wavefronts and L1 lines at the data pipe's rates"};
        t[n++] = (term){"paths/latency", "latency", tm->path_us,
                        "the blocks' critical paths, each load on them at the launch's mean load latency, wave after wave"};
        t[n++] = (term){"block starts", "launch/tail", tm->dispatch_us, "the busiest SM's blocks started one after another"};
        t[n++] = (term){"DRAM", "DRAM", tm->dram_us, "this launch's DRAM reads and writes at the device's rates"};
        t[n++] = (term){"L2", "L2", tm->l2_us, "L2 sectors at the device's rate"};
        t[n++] = (term){"atomics", "atomics", tm->atomic_us, "the busiest L2 atomic unit's requests, one after another"};
    } else {
        t[n++] = (term){"L1", "L1", tm->l1_us, "the busiest SM's L1 data pipe"};
        t[n++] = (term){"latency", "latency", tm->latency_us, "the busiest SM's blocks, round trip after round trip"};
        t[n++] = (term){"DRAM", "DRAM", tm->dram_us, "DRAM reads and writes at the device's rates"};
        t[n++] = (term){"L2", "L2", tm->l2_us, "L2 sectors at the device's rate"};
    }
    t[n++] = (term){"launch", "", tm->launch_us, "what a launch adds among back-to-back launches"};
    return n;
}

void timechart_html(FILE *out, const coalsim_time *tm)
{
    if (!tm) return;
    term t[12];
    size_t n = terms_of(tm, t);
    const char *bound = tm->bound ? tm->bound : "";
    /* the bound's bar: the first term that names it (launch/tail: the launch
     * itself when the launch outlasts every term) */
    size_t hot = n;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].bound, bound) && (hot == n || t[i].us > t[hot].us)) hot = i;
    if (!strcmp(bound, "launch/tail") && hot < n && t[hot].us < tm->launch_us) hot = n - 1;
    double scale = tm->total_us;
    for (size_t i = 0; i < n; i++)
        if (t[i].us > scale) scale = t[i].us;
    if (scale <= 0) scale = 1;
    const unsigned left = 130, width = 640, h = 24, right = 150;
    unsigned height = (unsigned)(n + 1) * h + 40;
    fprintf(out, "<h2>Predicted time</h2>\n<p>%.1f us, %s-bound: the launch (%.1f us) plus the largest term; "
                 "every bar on one scale, the bound in red</p>\n",
            tm->total_us, bound, tm->launch_us);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" font-family=\"sans-serif\" "
                 "font-size=\"12\" class=\"timechart\">\n",
            left + width + right, height);
    for (size_t i = 0; i <= n; i++) {
        unsigned y = 10 + (unsigned)i * h;
        int total = i == n;
        double us = total ? tm->total_us : t[i].us;
        double w = us / scale * width;
        const char *fill = total ? "#555" : i == hot ? "#d62728" : "#7aa6d6";
        fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\"%s>%s</text>\n", left - 8, y + 15,
                total || i == hot ? " font-weight=\"bold\"" : "", total ? "total" : t[i].name);
        if (total && tm->launch_us > 0) {
            /* the total as the launch and the bound's term, one after the other */
            double wl = tm->launch_us / scale * width;
            fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%.1f\" height=\"%u\" fill=\"#999\"><title>launch %.1f us"
                         "</title></rect>\n",
                    left, y + 2, wl, h - 6, tm->launch_us);
            fprintf(out, "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%u\" fill=\"%s\"><title>total %.1f us"
                         "</title></rect>\n",
                    left + wl, y + 2, w > wl ? w - wl : 0, h - 6, fill, us);
        } else {
            fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%.1f\" height=\"%u\" fill=\"%s\"><title>", left, y + 2, w, h - 6,
                    fill);
            fprintf(out, "%s: %.2f us, %s</title></rect>\n", t[i].name, us, t[i].what);
        }
        fprintf(out, "<text x=\"%.1f\" y=\"%u\">%.1f us%s%s</text>\n", left + w + 6, y + 15, us,
                !total && !strcmp(t[i].name, "pipe") && tm->pipe ? " " : "",
                !total && !strcmp(t[i].name, "pipe") && tm->pipe ? tm->pipe : "");
    }
    /* the roof: the bound's term, where the total's own part ends */
    double roof = (tm->total_us - tm->launch_us) / scale * width;
    if (roof > 0)
        fprintf(out, "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%u\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>\n",
                left + roof, left + roof, 10 + (unsigned)n * h);
    fprintf(out, "</svg>\n");
}
