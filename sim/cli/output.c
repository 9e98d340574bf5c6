/* Checking that the command's output reached stdout (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

void output_guard(void)
{
    if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return;
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != STDOUT_FILENO) {
        dup2(fd, STDOUT_FILENO);
        close(fd);          /* fd 0 if stdin was closed too: closed again */
    }
}

int output_finish(int status)
{
    int lost = ferror(stdout), err = 0;
    /* a write that failed earlier lost its bytes; glibc's fflush then
     * succeeds, so the error flag is what tells */
    if (fflush(stdout) != 0) lost = 1, err = errno;
    if (fclose(stdout) != 0 && !lost) lost = 1, err = errno;
    if (!lost || status != 0) return status;
    if (err) fprintf(stderr, "coalsim: cannot write to stdout: %s\n", strerror(err));
    else fprintf(stderr, "coalsim: cannot write to stdout\n");
    return 1;
}
