/* What the command writes to stdout reaching it: a full disk, a closed
 * stdout or a closed pipe is an error, not a silent success. */
#ifndef COALSIM_OUTPUT_H
#define COALSIM_OUTPUT_H

/* Call first thing: if stdout is closed, hold its descriptor open
 * read-only on /dev/null, so that writes to stdout fail (and are reported)
 * instead of landing in a file the command opens later. */
void output_guard(void);

/* Flush and close stdout.  If the command succeeded (STATUS 0) but what it
 * wrote to stdout was lost, print "coalsim: cannot write to stdout: why"
 * and return 1; else STATUS (a command that failed has said why). */
int output_finish(int status);

#endif
