/* main.c: the command's first word -> its front end (tui/cmd_NAME.c);
 * otherwise the watch command line (tui/cli_args.c) -> tui/cmd_watch.c.
 * The only place that exits; the screen and headless loops return here,
 * the terminal and the job restored. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stagetop/version.h"

#ifndef ST_GIT_NOTE /* what a git build is beyond VERSION (Makefile); "" for a release */
#define ST_GIT_NOTE ""
#endif

int main(int argc, char **argv)
{
    cli_args a;
    if (argc >= 2 && strcmp(argv[1], "replay") == 0)
        return cli_replay(argc, argv);
    if (argc >= 2 && (strcmp(argv[1], "mark") == 0 || strcmp(argv[1], "stage") == 0))
        return cli_mark(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "summary") == 0)
        return cli_summary_cmd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "plot") == 0)
        return cli_plot_cmd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "diff") == 0)
        return cli_diff(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "report") == 0)
        return cli_report(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "doctor") == 0)
        return cli_doctor(argc, argv);
    char version_text[160];
    snprintf(version_text, sizeof version_text, "%s%s%s%s", st_version(),
             *ST_GIT_NOTE ? " (" : "", ST_GIT_NOTE, *ST_GIT_NOTE ? ")" : "");
    int rc = cli_parse_args(argc, argv, &a, version_text);
    if (rc == 0)
        rc = cli_preflight(&a);
    if (rc != 0)
        return rc;
    if (cli_signals_install() != 0) {
        fprintf(stderr, "stagetop: cannot set up signal handling: %s\n", strerror(errno));
        return CLI_EXIT_WATCH;
    }
    return cli_watch(&a);
}
