/* view_stages.c: the stage table (key `s`), drawn over the lanes, live and in
 * replay: per stage the time, peak footprint, swap growth, min level and
 * loads, the same numbers as `stagetop summary` (core/model/summary.c). */
#include <stdio.h>
#include <string.h>

#include "sanitize.h"
#include "stagetop/units.h"
#include "viewdraw.h"

enum { ST_TABLE_W = 86, ST_NAME_W = 24 };

/* "+1.2 GiB", "-512 MiB", "0 B" */
static void signed_bytes(int64_t v, char *buf, size_t len)
{
    char b[24];
    uint64_t mag = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
    st_format_bytes(mag, b, sizeof b);
    snprintf(buf, len, "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", b);
}

/* One table row of stage i into out (safe text). */
void tui_stage_row(const st_summary *s, size_t i, int ascii, char *out, size_t len)
{
    st_stage_row st;
    char name[ST_NAME_W * 4 + 8], t[32], p[32] = "-", sw[40] = "-", lv[16] = "-", ld[48] = "-";
    st_summary_stage(s, i, &st);
    tui_sanitize(st.stage, strnlen(st.stage, sizeof st.stage), ascii, ST_NAME_W, name, sizeof name);
    st_format_duration(st.seconds_ms > 0 ? (double)st.seconds_ms / 1000.0 : 0.0, t, sizeof t);
    if (st.has_peak)
        st_format_bytes(st.peak_footprint, p, sizeof p);
    if (st.has_swap)
        signed_bytes(st.swap_growth, sw, sizeof sw);
    if (st.has_level)
        snprintf(lv, sizeof lv, "%.1f%%", st.min_level_c / 100.0);
    if (st.loads_count) {
        char b[32];
        snprintf(ld, sizeof ld, "%llu (%s)", (unsigned long long)st.loads_count,
                 st_format_bytes(st.loads_bytes, b, sizeof b));
    }
    int pad = ST_NAME_W - tui_text_width(name);
    snprintf(out, len, "%s%*s %9s %11s %11s %8s  %s", name, pad > 0 ? pad : 0, "", t, p, sw, lv, ld);
}

void tui_stage_table_draw(const tui_view *v, const st_summary *s, int y0)
{
    int w = ST_TABLE_W < COLS - 2 ? ST_TABLE_W : COLS - 2;
    int bottom = v->L.status.y; /* keep the status line */
    if (y0 < 0)
        y0 = 0;
    int room = bottom - y0; /* rows for the box */
    if (w < 20 || room < 4)
        return;
    int n = (int)s->n_stages, rows = n > 0 ? n : 1;
    int h = rows + 4 < room ? rows + 4 : room; /* title, header, rows, two borders */
    int shown = h - 4, first = n - shown > 0 ? n - shown : 0; /* the latest stages */
    int x0 = (COLS - w) / 2;
    tui_frame_box(v, y0, x0, h, w);
    char line[256];
    if (first > 0)
        snprintf(line, sizeof line, "stages (%d, the last %d shown; s closes)", n, shown);
    else
        snprintf(line, sizeof line, "stages (%d; s closes)", n);
    tui_put(y0 + 1, x0 + 2, w - 4, line, A_BOLD);
    snprintf(line, sizeof line, "%-*s %9s %11s %11s %8s  %s", ST_NAME_W, "stage", "time", "peak",
             "swap +/-", "min lvl", "loads");
    tui_put(y0 + 2, x0 + 2, w - 4, line, tui_attr(v, TUI_PAIR_DIM) | A_UNDERLINE);
    if (n == 0)
        tui_put(y0 + 3, x0 + 2, w - 4, "no stages yet (no samples)", A_NORMAL);
    for (int i = 0; i < shown && first + i < n; i++) {
        tui_stage_row(s, (size_t)(first + i), v->ascii, line, sizeof line);
        tui_put(y0 + 3 + i, x0 + 2, w - 4, line, A_NORMAL);
    }
}
