/* view_cap.c: PyTorch's MPS cap on the screen (docs/screen.md, "The MPS
 * cap"; issue 27 item 2): a Mac job's cap (high ratio x the recommended
 * working set, core/model/mps_advice.c through st_trace_mps) as a line
 * across the footprint lane and the metal lane when it is within their
 * graph's range, else a word in the lane's label; and the cap beside a
 * Metal-using member's own Metal memory in the details box.  The cap limits
 * one process's MPS allocations: the line on the tree's lanes is where one
 * process of the tree would be refused. */
#include "viewdraw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stagetop/lanes.h"
#include "stagetop/mps_advice.h"
#include "stagetop/trace.h"
#include "stagetop/units.h"

int tui_cap_bytes(const st_run_view *rv, uint64_t *cap)
{
    st_mps_advice mps;
    if (!rv || !rv->meta)
        return 0;
    int k = st_trace_mps(rv->meta, rv->summary, &mps);
    if ((k != ST_MPS_SWAP && k != ST_MPS_UNDER) || mps.cap == 0)
        return 0;
    *cap = mps.cap;
    return 1;
}

int tui_cap_place(const st_run_view *rv, int lane_id, double lo, double hi, int rows, int *row,
                  char *text, size_t tlen, char *sh, size_t slen)
{
    uint64_t cap = 0; /* (left 0 when there is none) */
    tui_cap_bytes(rv, &cap);
    return tui_cap_place_at(cap, lane_id, lo, hi, rows, row, text, tlen, sh, slen);
}

int tui_cap_place_at(uint64_t cap, int lane_id, double lo, double hi, int rows, int *row,
                     char *text, size_t tlen, char *sh, size_t slen)
{
    char big[32], small[32];
    if ((lane_id != ST_LANE_FOOTPRINT && lane_id != ST_LANE_METAL) || rows < 1 || cap == 0)
        return TUI_CAP_NONE;
    st_format_bytes(cap, big, sizeof big);
    tui_short_bytes(cap, small, sizeof small);
    double c = (double)cap;
    if (c > hi) { /* above what the graph shows: said, not drawn */
        snprintf(text, tlen, "cap %s, off scale", big);
        snprintf(sh, slen, "cap %s off", small);
        return TUI_CAP_OFF_SCALE;
    }
    if (c < lo || !(hi > lo))
        return TUI_CAP_NONE;
    /* the row whose cells hold the cap's height, as tui_graph_heights puts a
     * value (eighths 1 .. 8 x rows, rounded up), rows counted from the top */
    int n = 8 * rows;
    int e = (int)ceil((c - lo) / (hi - lo) * n - 1e-9);
    e = e < 1 ? 1 : e > n ? n : e;
    *row = rows - 1 - (e - 1) / 8;
    snprintf(text, tlen, "MPS cap %s", big);
    snprintf(sh, slen, "cap %s", small);
    return TUI_CAP_LINE;
}

void tui_cap_line(tui_view *v, int y, int x, const int *heights, int w, int rows, int r)
{
    int base = 8 * (rows - 1 - r); /* eighths under the row, as tui_graph_cells */
    short cp = (short)(v->color ? TUI_PAIR_WARN : 0);
    cchar_t line;
    wchar_t wc[2] = {v->ascii ? L'-' : (wchar_t)0x2500, 0}; /* U+2500 BOX DRAWINGS LIGHT HORIZONTAL */
    setcchar(&line, wc, v->color ? A_NORMAL : A_BOLD, cp, NULL);
    for (int j = 0; j < w; j++)
        if (heights[j] <= base) /* an empty cell of the row: the line shows */
            mvadd_wchnstr(y, x + j, &line, 1); /* the wide call view_lanes.c makes */
    if (v->row_ok && y < v->row_rows) /* the row holds more than the graph now */
        v->row_ok[y] = 0;
}

int tui_cap_member(const st_run_view *rv, const st_proc_mem *p, char *buf, size_t len)
{
    uint64_t cap;
    char m[32], c[32];
    if (!(p->valid & ST_PM_METAL) || p->metal == 0)
        return 0;
    st_format_bytes(p->metal, m, sizeof m);
    if (!tui_cap_bytes(rv, &cap)) {
        snprintf(buf, len, "Metal %s", m);
        return 1;
    }
    snprintf(buf, len, "Metal %s   MPS cap %s (this process: %.0f %% of it)", m,
             st_format_bytes(cap, c, sizeof c), 100.0 * (double)p->metal / (double)cap);
    return 1;
}
