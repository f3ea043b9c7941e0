/* Shim of macOS <sys/proc_info.h>: only what core/platform/platform_darwin.c uses. */
#ifndef STAGETOP_SHIM_SYS_PROC_INFO_H
#define STAGETOP_SHIM_SYS_PROC_INFO_H

/* 4 * MAXPATHLEN (MAXPATHLEN is 1024 on macOS). */
#define PROC_PIDPATHINFO_MAXSIZE 4096

#endif
