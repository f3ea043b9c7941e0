/* say.c: stagetop's own lines on stderr (a terminal, often), each made safe
 * by the one sanitiser first (tui/sanitize.c): a message can carry bytes a
 * job or a file chose (a bad event line, a trace's token, a cgroup's or a
 * command's name), and an escape sequence among them (an OSC 52 clipboard
 * write, a title change) must be shown, not obeyed.  Also what every
 * command says of a bad command line (cli_bad_usage) and of a trace it
 * could not read (cli_load_summary: summary --text, diff; plot and report
 * read theirs in core/plot/plot_stream.c and tui/report_read.c). */
#include "cli.h"
#include "sanitize.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cli_say(const char *fmt, ...)
{
    char raw[2048], safe[4 * sizeof raw];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tui_sanitize(raw, strlen(raw), 0, -1, safe, sizeof safe);
    /* A stagetop in the background of a terminal with `stty tostop` would
     * be stopped by SIGTTOU on writing (its guard with it): with SIGTTOU
     * blocked the kernel lets the line through. */
    sigset_t ttou, old;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &old);
    fprintf(stderr, "stagetop: %s\n", safe);
    fflush(stderr);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void cli_say_torn(const char *path, const st_trace *t)
{
    if (t->torn_line)
        cli_say("%s: line %zu is cut (%s): left out, the %zu line(s) before it are read",
                strcmp(path, "-") == 0 ? "stdin" : path, t->torn_line, t->torn_msg, t->torn_line - 1);
    if (t->events.dropped)
        cli_say("%s: %llu events left out (a reader keeps %zu; stages and the exit are all kept): "
                "counts of loads, marks and releases are of the kept ones",
                strcmp(path, "-") == 0 ? "stdin" : path, (unsigned long long)t->events.dropped,
                t->events.max);
}

int cli_bad_usage(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "stagetop: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ntry 'stagetop --help'\n");
    return CLI_EXIT_USAGE;
}

int cli_load_summary(const char *path, st_trace *t)
{
    st_error e;
    /* a stagetop record summed as it is read: the samples let go */
    if (st_trace_summary_file(path, t, &e) != ST_OK) {
        cli_say("%s: %s", strcmp(path, "-") == 0 ? "stdin" : path, e.msg);
        return -1;
    }
    cli_say_torn(path, t);
    return 0;
}
