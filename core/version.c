/* version.c: the one place the build's version reaches the code
 * (version.h).  The Makefile always defines ST_VERSION from the file
 * VERSION; a build without it is an error, not a made-up number. */
#include "stagetop/version.h"

#ifndef ST_VERSION
#error "ST_VERSION is defined by the Makefile from the file VERSION"
#endif

const char *st_version(void)
{
    return ST_VERSION;
}
