/* cli_wait_free.c: --wait-free: waiting for room before the job starts. */
#include "cli.h"

#include <stdio.h>

#include "stagetop/prerun.h"
#include "stagetop/units.h"

int cli_wait_free(const st_platform *plat, double pct, double timeout_s, double interval)
{
    st_prerun *pr;
    st_error e;
    int said = 0;
    if (st_prerun_open(&pr, plat, &e) != ST_OK) {
        cli_say("%s", e.msg);
        return CLI_EXIT_WATCH;
    }
    double start = st_now(), step = interval < 0.5 ? 0.5 : interval, said_at = 0;
    int rc = CLI_EXIT_NOROOM;
    for (;;) {
        double level;
        if (cli_signal) {
            rc = 128 + cli_signal;
            break;
        }
        if (st_prerun_level(pr, &level, &e) != ST_OK) {
            fprintf(stderr, "stagetop: --wait-free: the memory level is not readable here\n");
            rc = CLI_EXIT_WATCH;
            break;
        }
        if (level >= pct) {
            if (said)
                fprintf(stderr, "stagetop: memory level %.1f%% >= %.1f%%: starting\n", level, pct);
            rc = 0;
            break;
        }
        double waited = st_now() - start;
        if (waited >= timeout_s) {
            char d[16];
            fprintf(stderr, "stagetop: no room to start: memory level %.1f%% stayed under %.1f%% for %s\n",
                    level, pct, st_format_duration(waited, d, sizeof d));
            break;
        }
        if (!said || waited - said_at >= 30) { /* why, now and every 30 s */
            fprintf(stderr, "stagetop: waiting to start: memory level %.1f%% < %.1f%% (--wait-free)\n",
                    level, pct);
            said_at = waited;
        }
        said = 1;
        cli_nap_until(st_now() + step);
    }
    st_prerun_close(pr);
    return rc;
}
