/* The predicted time drawn (timechart.c). */
#ifndef COALSIM_TIMECHART_H
#define COALSIM_TIMECHART_H

#include <stdio.h>

#include "coalsim.h"

/* HTML: a heading and a roofline-style SVG bar chart of TM's terms against
 * its total, the term that bounds it highlighted.  Nothing when TM is NULL. */
void timechart_html(FILE *out, const coalsim_time *tm);

#endif
