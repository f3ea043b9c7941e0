/* logbox.c: the job's output (key o), drawn over the lanes: the tail of
 * the launched job's log, read again at each frame (its last 64 KiB), each
 * line's control characters made visible (tui_sanitize); Up/Down and
 * PgUp/PgDn scroll back, End goes back to the tail, o closes. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sanitize.h"
#include "viewdraw.h"

enum { LOG_TAIL_BYTES = 65536, LOG_MAX_LINES = 2048 };

/* The last bytes of path into buf (NUL-terminated); their length, or -1. */
static long read_tail(const char *path, char *buf, size_t cap, int *cut)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    *cut = 0;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    off_t from = st.st_size > (off_t)(cap - 1) ? st.st_size - (off_t)(cap - 1) : 0;
    ssize_t n = pread(fd, buf, cap - 1, from);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    *cut = from > 0;
    return (long)n;
}

void tui_log_box_draw(const tui_view *v, const char *path, int scroll, int y0)
{
    static char buf[LOG_TAIL_BYTES];
    const char *starts[LOG_MAX_LINES];
    size_t lens[LOG_MAX_LINES];
    int w = COLS - 2, bottom = v->L.status.y;
    if (y0 < 0)
        y0 = 0;
    int h = bottom - y0;
    if (w < 20 || h < 4)
        return;
    int x0 = 1;
    tui_frame_box(v, y0, x0, h, w);
    char line[1024], title[600];
    int cut = 0;
    long n = path && *path ? read_tail(path, buf, sizeof buf, &cut) : -1;
    int nl = 0;
    if (n > 0) {
        size_t i = 0, len = (size_t)n;
        if (cut) { /* the first line was cut: start after it */
            char *p = memchr(buf, '\n', len);
            i = p ? (size_t)(p - buf) + 1 : len;
        }
        while (i < len) {
            char *p = memchr(buf + i, '\n', len - i);
            size_t e = p ? (size_t)(p - buf) : len;
            if (nl == LOG_MAX_LINES) { /* keep the latest */
                memmove(starts, starts + 1, sizeof starts[0] * (LOG_MAX_LINES - 1));
                memmove(lens, lens + 1, sizeof lens[0] * (LOG_MAX_LINES - 1));
                nl--;
            }
            starts[nl] = buf + i;
            lens[nl++] = e - i;
            i = e + 1;
        }
    }
    int rows = h - 3; /* borders and title */
    int max_scroll = nl > rows ? nl - rows : 0;
    if (scroll > max_scroll)
        scroll = max_scroll;
    char safe_path[512];
    tui_sanitize(path ? path : "", path ? strlen(path) : 0, v->ascii, w - 40, safe_path, sizeof safe_path);
    snprintf(title, sizeof title, "job output: %s (%d lines%s; o closes)", safe_path, nl,
             scroll ? ", scrolled back: End" : "");
    tui_put(y0 + 1, x0 + 2, w - 4, title, A_BOLD);
    if (n < 0)
        tui_put(y0 + 2, x0 + 2, w - 4, "no log to show (the job was not started by stagetop)", A_NORMAL);
    else if (nl == 0)
        tui_put(y0 + 2, x0 + 2, w - 4, "nothing written yet", A_NORMAL);
    int first = nl - rows - scroll;
    if (first < 0)
        first = 0;
    for (int r = 0; r < rows && first + r < nl; r++) {
        tui_sanitize(starts[first + r], lens[first + r], v->ascii, w - 4, line, sizeof line);
        tui_put(y0 + 2 + r, x0 + 2, w - 4, line, A_NORMAL);
    }
}
