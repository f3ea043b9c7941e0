/* tmpdir.h: a cmocka setup/teardown pair that gives each test a fresh
 * directory under /tmp (*state is its path) and removes it afterwards. */
#ifndef STAGETOP_TESTS_TMPDIR_H
#define STAGETOP_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int setup_dir(void **state)
{
    char *d = strdup("/tmp/st-test-XXXXXX");
    if (!d || !mkdtemp(d)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int teardown_dir(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", (char *)*state);
    (void)system(cmd);
    free(*state);
    return 0;
}

#endif
