/* version.h: the one version of this build (the file VERSION, through the
 * Makefile's ST_VERSION), for every output that names it. */
#ifndef STAGETOP_VERSION_H
#define STAGETOP_VERSION_H

/* "0.4.0": the plain release number that traces, plots, metrics and doctor
 * write.  --version adds what a git build is (tui/main.c). */
const char *st_version(void);

#endif
