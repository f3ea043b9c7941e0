/* Shim of macOS <libproc.h> for building core/platform/platform_darwin.c on Linux
 * (tests/darwin/fake_darwin.c implements these functions over a scripted
 * process table).  Only what the backend uses is declared. */
#ifndef STAGETOP_SHIM_LIBPROC_H
#define STAGETOP_SHIM_LIBPROC_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/proc_info.h>

/* 0, or -1 with errno ESRCH / EPERM / EINVAL (unknown flavor).  buffer
 * really points at a struct rusage_info_vN (the header's odd type). */
int proc_pid_rusage(int pid, int flavor, rusage_info_t *buffer);
/* Length of the path written, 0 on error (errno set). */
int proc_pidpath(int pid, void *buffer, uint32_t buffersize);

/* Test build only (nothing like this is in the real <libproc.h>): the
 * backend's kill() goes to the fake, which records it instead of sending a
 * signal.  <signal.h> is included above so that its own declaration of
 * kill is not rewritten by this macro. */
int st_fake_kill(pid_t pid, int sig);
#define kill(pid, sig) st_fake_kill((pid), (sig))

#endif
