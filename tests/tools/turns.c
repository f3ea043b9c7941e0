/* turns PID: how many times PID has been switched out so far, for the shell
 * tests' wait_turns (tests/lib/common.sh): a screen whose loop sleeps in
 * poll() is switched out each time round.  Prints nothing and exits 1 when
 * PID is gone.
 *   Linux: voluntary_ctxt_switches of /proc/PID/status.
 *   macOS: pti_csw of proc_pidinfo(PID, PROC_PIDTASKINFO) ("number of
 *   context switches", XNU bsd/sys/proc_info.h struct proc_taskinfo; it
 *   counts involuntary switches too, so a wait can end a little early on a
 *   busy Mac, never late).  A test tool, not part of stagetop. */
#if defined(__APPLE__)
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE
#endif
#include <libproc.h>
#include <sys/proc_info.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long pid = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
    if (pid <= 0) {
        fprintf(stderr, "usage: turns PID\n");
        return 2;
    }
#if defined(__APPLE__)
    struct proc_taskinfo ti;
    if (proc_pidinfo((int)pid, PROC_PIDTASKINFO, 0, &ti, (int)sizeof ti) != (int)sizeof ti)
        return 1;
    printf("%d\n", ti.pti_csw);
    return 0;
#else
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0) {
            fclose(f);
            printf("%lu\n", strtoul(line + 24, NULL, 10));
            return 0;
        }
    fclose(f);
    return 1;
#endif
}
