/* cmd_summary.c: `stagetop summary [--text] FILE|-`: a trace's summary as
 * JSON, or for a terminal (core's st_report_summary_text, report.h). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "stagetop/report.h"
#include "stagetop/sb.h"

int cli_summary_cmd(int argc, char **argv)
{
    static const char *const use = "usage: stagetop summary [--text] FILE|-";
    if (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0))
        return printf("%s\n", use) < 0 ? CLI_EXIT_WATCH : CLI_EXIT_OK;
    if (argc == 4 && (strcmp(argv[2], "--text") == 0 || strcmp(argv[3], "--text") == 0))
        return cli_summary_text(strcmp(argv[2], "--text") == 0 ? argv[3] : argv[2]);
    if (argc != 3 || strcmp(argv[2], "--text") == 0)
        return cli_bad_usage("%s", use);
    return cli_summary(argv[2]);
}

int cli_summary(const char *path)
{
    st_trace t;
    st_error e;
    st_trace_init(&t);
    /* the summary only: a stagetop record is summed as it is read */
    if (st_trace_summary_file(path, &t, &e) != ST_OK) {
        cli_say("%s: %s", path, e.msg);
        st_trace_free(&t);
        return CLI_EXIT_WATCH;
    }
    cli_say_torn(path, &t);
    char *json = st_summary_to_json(&t.summary, &t.meta);
    int rc = CLI_EXIT_OK;
    if (!json || printf("%s\n", json) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "stagetop: cannot write the summary\n");
        rc = CLI_EXIT_WATCH;
    }
    free(json);
    st_trace_free(&t);
    return rc;
}

int cli_summary_text(const char *path)
{
    st_trace t;
    struct winsize ws;
    int width = 80, rc = CLI_EXIT_OK;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        width = ws.ws_col;
    if (cli_load_summary(path, &t) != 0) {
        st_trace_free(&t);
        return CLI_EXIT_WATCH;
    }
    st_sb w;
    st_sb_init(&w);
    st_report_summary_text(&t, &w, width);
    char *text = st_sb_take(&w);
    if (!text || fputs(text, stdout) < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "stagetop: cannot write the summary\n");
        rc = CLI_EXIT_WATCH;
    }
    free(text);
    st_trace_free(&t);
    return rc;
}
