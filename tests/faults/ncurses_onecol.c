/* ncurses_onecol.c: ncurses 6.4 alone (no stagetop) reads outside a line when
 * it draws a screen one column wide.  Writing the bottom-right cell of a
 * terminal with auto-margins (am) but no way to turn them off (smam/rmam),
 * such as tmux-256color or screen, it inserts the cell at column - 1 (the
 * insert-character trick of tty_update.c's PutCharLR): one column wide, that
 * is text[-1].  Valgrind then reports the read seen in the flaky fault test:
 * "Invalid read of size 4 ... doupdate_sp ... 24 bytes before a block of
 * size 28 alloc'd ... wresize ... resize_term_sp" (28 bytes: one cchar_t).
 *
 *   cc tests/faults/ncurses_onecol.c -o /tmp/onecol $(pkg-config --cflags --libs ncursesw)
 *   TERM=tmux-256color valgrind -q --error-exitcode=99 /tmp/onecol >/dev/null; echo $?
 *
 * prints 99 with ncurses 6.4 (Debian 12); TERM=xterm (smam/rmam) prints 0.
 * stagetop therefore draws nothing while the terminal is one column wide, and
 * keeps ncurses from resizing by itself (tui/viewdraw.h, docs/reliability.md).
 * Not built by `make`: it demonstrates a library bug and is not a test. */
#include <curses.h>
#include <stdio.h>

int main(void)
{
    SCREEN *s = newterm(NULL, stdout, stdin);
    if (!s)
        return 2;
    set_term(s);
    resizeterm(1, 1);
    mvaddch(0, 0, 'x');
    refresh(); /* the invalid read */
    endwin();
    delscreen(s);
    return 0;
}
