/* cmd_diff.c: `stagetop diff [--json] [--fail-peak PCT] [--fail-time PCT] A B`
 * (docs/report.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/units.h"

int cli_diff(int argc, char **argv)
{
    static const char *const use =
        "usage: stagetop diff [--json] [--fail-peak PCT] [--fail-time PCT] A B";
    const char *in[2] = {NULL, NULL};
    int n = 0, json = 0, gate = 0, time_gate = 0;
    double pct = 0, time_pct = 0;
    st_error e;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--fail-peak") == 0 && i + 1 < argc) {
            if (st_parse_double(argv[++i], -100, 1e9, &pct, &e) != ST_OK)
                return cli_bad_usage("--fail-peak: %s", e.msg);
            gate = 1;
        } else if (strcmp(argv[i], "--fail-time") == 0 && i + 1 < argc) {
            if (st_parse_double(argv[++i], -100, 1e9, &time_pct, &e) != ST_OK)
                return cli_bad_usage("--fail-time: %s", e.msg);
            time_gate = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\n", use);
            return CLI_EXIT_OK;
        } else if (n < 2 && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            in[n++] = argv[i];
        } else {
            return cli_bad_usage("%s", use);
        }
    }
    if (n != 2 || (strcmp(in[0], "-") == 0 && strcmp(in[1], "-") == 0))
        return cli_bad_usage("%s", use);
    st_trace a, b;
    if (cli_load_summary(in[0], &a) != 0) {
        st_trace_free(&a);
        return CLI_EXIT_USAGE;
    }
    if (cli_load_summary(in[1], &b) != 0) {
        st_trace_free(&a);
        st_trace_free(&b);
        return CLI_EXIT_USAGE;
    }
    st_diff d;
    int rc = CLI_EXIT_OK;
    if (st_diff_compute(&a, &b, &d, &e) != ST_OK) {
        cli_say("diff: %s", e.msg);
        rc = CLI_EXIT_USAGE;
    } else {
        char *text = json ? st_diff_json(&d) : st_diff_text(&d, in[0], in[1]);
        if (!text || printf(json ? "%s\n" : "%s", text) < 0 || fflush(stdout) != 0) {
            fprintf(stderr, "stagetop: cannot write the comparison\n");
            rc = CLI_EXIT_USAGE;
        } else if (gate && st_diff_peak_exceeds(&d, pct)) {
            if (d.has_peak_pct)
                fprintf(stderr, "stagetop: B's peak footprint is %+.2f%% against A's: over the "
                                "limit of %g%% (--fail-peak)\n", d.peak_pct, pct);
            else
                fprintf(stderr, "stagetop: A's peak footprint is 0 and B's is not: over the "
                                "limit (--fail-peak)\n");
            rc = CLI_EXIT_WATCH;
        }
        if (rc != CLI_EXIT_USAGE && time_gate && st_diff_time_exceeds(&d, time_pct)) {
            if (d.has_duration_pct)
                fprintf(stderr, "stagetop: B's duration is %+.2f%% against A's: over the "
                                "limit of %g%% (--fail-time)\n", d.duration_pct, time_pct);
            else
                fprintf(stderr, "stagetop: A's duration is 0 and B's is not: over the "
                                "limit (--fail-time)\n");
            rc = CLI_EXIT_WATCH;
        }
        free(text);
        st_diff_free(&d);
    }
    st_trace_free(&a);
    st_trace_free(&b);
    return rc;
}
