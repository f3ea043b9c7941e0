/* term.c: the terminal of the screens (live and replay): starting and
 * ending curses, the keys' pad, the one-column rule and the size check
 * (viewdraw.h says why). */
#include "tui.h"
#include "viewdraw.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <unistd.h>

int tui_term_start(const tui_opts *o, SCREEN **scr, st_error *err)
{
    (void)o;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return st_error_set(err, ST_EINVAL, 0,
                            "the live screen needs a terminal (use --headless without one)");
    return tui_term_start_on(stdin, scr, err);
}

/* SIGWINCH only interrupts select(): tui_term_sync_size() then reads the size.
 * Installed before newterm(), which then leaves SIGWINCH alone: ncurses'
 * own handler would let doupdate() resize the screen by itself, after the
 * loop checked tui_term_drawable() (see viewdraw.h). */
static void tui_on_winch(int sig) { (void)sig; }

int tui_term_start_on(FILE *in, SCREEN **scr, st_error *err)
{
    tui_crash_term_save();
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tui_on_winch;
    sa.sa_flags = SA_RESTART; /* for reads and writes; select() returns EINTR anyway */
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGWINCH, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        sigaction(SIGWINCH, &sa, NULL);
    *scr = newterm(NULL, stdout, in);
    if (!*scr) {
        tui_term_end(NULL);
        return st_error_set(err, ST_EINVAL, 0, "cannot start the screen (is TERM set right?)");
    }
    set_term(*scr);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    set_escdelay(25);
    typeahead(-1); /* keys are read by the loop: no input check per update */
    curs_set(0);
    tui_crash_term_on(1);
    return ST_OK;
}

WINDOW *tui_term_keys(void)
{
    WINDOW *in = newpad(1, 1);
    if (!in)
        return stdscr;
    keypad(in, TRUE);
    nodelay(in, TRUE);
    return in;
}

int tui_term_wait(const int *fds, int *ready, int n, int ms)
{
    fd_set rd;
    int top = -1;
    FD_ZERO(&rd);
    for (int i = 0; i < n; i++) {
        ready[i] = 0;
        if (fds[i] < 0)
            continue;
        if (fds[i] >= FD_SETSIZE) {
            errno = EBADF;
            return -1;
        }
        FD_SET(fds[i], &rd);
        if (fds[i] > top)
            top = fds[i];
    }
    struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
    int rc = select(top + 1, &rd, NULL, NULL, ms < 0 ? NULL : &tv);
    for (int i = 0; rc > 0 && i < n; i++)
        ready[i] = fds[i] >= 0 && FD_ISSET(fds[i], &rd);
    return rc;
}

int tui_term_gone(int *empty, int ready, int keys)
{
    if (!ready || keys > 0) {
        *empty = 0;
        return 0;
    }
    return ++*empty >= TUI_TERM_EMPTY_MAX;
}

int tui_term_drawable(void) { return COLS >= 2; }

int tui_term_sync_size(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0 ||
        (ws.ws_row == LINES && ws.ws_col == COLS))
        return 0;
    return resizeterm(ws.ws_row, ws.ws_col) == OK; /* queues KEY_RESIZE */
}

void tui_term_end(SCREEN *scr)
{
    struct sigaction cur;
    if (scr) {
        tui_crash_term_on(0);
        curs_set(1);
        endwin();
        delscreen(scr);
    }
    if (sigaction(SIGWINCH, NULL, &cur) == 0 && cur.sa_handler == tui_on_winch)
        signal(SIGWINCH, SIG_DFL);
}
