/* cmd_replay.c: `stagetop replay [--ascii] [--export-dir DIR] FILE|-`. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"

int cli_replay(int argc, char **argv)
{
    static const char *const use = "usage: stagetop replay [--ascii] [--export-dir DIR] FILE|-";
    const char *path = NULL, *dir = ".";
    int ascii = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--ascii") == 0) {
            ascii = 1;
        } else if (strcmp(argv[i], "--export-dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("%s\n  FILE: a stagetop JSON or JSONL trace, or a stageload trace\n"
                   "  -: follow a JSONL stream on stdin (keys from the terminal), e.g.\n"
                   "     ssh mac stagetop --headless --jsonl -p PID | stagetop replay -\n"
                   "keys: left/right move  Home/End start/end  +/- zoom  f fit  space hold/follow\n"
                   "      T clock time axis  e export  ? help  q quit\n", use);
            return CLI_EXIT_OK;
        } else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            path = argv[i];
        } else {
            return cli_bad_usage("%s", use);
        }
    }
    if (!path)
        return cli_bad_usage("%s", use);
    if (strcmp(path, "-") == 0 && fcntl(STDIN_FILENO, F_GETFD) < 0) { /* before pipe() takes fd 0 */
        fprintf(stderr, "stagetop: stdin is closed: pipe a JSONL stream into 'stagetop replay -'\n");
        return CLI_EXIT_WATCH;
    }
    if (cli_signals_install() != 0) {
        fprintf(stderr, "stagetop: cannot set up signal handling: %s\n", strerror(errno));
        return CLI_EXIT_WATCH;
    }
    tui_opts to;
    st_error e;
    cli_screen_opts(&to, ascii, dir);
    st_error_clear(&e);
    if (tui_replay(path, &to, &e) != ST_OK) {
        cli_say("%s: %s", strcmp(path, "-") == 0 ? "stdin" : path, e.msg);
        return CLI_EXIT_WATCH;
    }
    return cli_signal ? 128 + cli_signal : CLI_EXIT_OK;
}
