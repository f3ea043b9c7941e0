/* view_lanes.c: the lanes the table puts on the screen (stagetop/lanes.h:
 * footprint, swap, memory level, GPU): label, sparkline or graph, and the
 * shared time axis and event row under them. */
#include "sanitize.h"
#include "spark.h"
#include "viewdraw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/lanes.h"
#include "stagetop/units.h"

/* One piece of a lane's label in three lengths: on its own row of a tall
 * label ("peak 2.00 GiB"), inline ("peak 2.00 GiB"), short ("pk 2.00G"). */
typedef struct item {
    char row[64], inl[64], sh[64];
    attr_t a;
} item;

typedef struct lane {
    int id;          /* enum st_lane_id */
    unsigned field;
    int agg;
    int pair;
    int fitted;      /* 1: scaled to the values in view, bounds labelled (percent) */
    item it[7];
    int n;
} lane;

static item *add(lane *l, attr_t a, const char *row, const char *inl, const char *sh)
{
    item *it = &l->it[l->n++];
    snprintf(it->row, sizeof it->row, "%s", row);
    snprintf(it->inl, sizeof it->inl, "%s", inl);
    snprintf(it->sh, sizeof it->sh, "%s", sh);
    it->a = a;
    return it;
}


static uint32_t interval_ms(const st_run_view *rv)
{
    long iv = lround(rv->interval * 1000.0);
    return iv < 1 ? 1 : (uint32_t)iv;
}

/* The samples up to t_ms (a frozen live view draws none after its moment). */
static st_samples_view samples_upto(st_samples_view sv, uint32_t t_ms)
{
    while (sv.b_len > 0 && sv.b[sv.b_len - 1].t_ms > t_ms)
        sv.b_len--;
    if (sv.b_len == 0)
        while (sv.a_len > 0 && sv.a[sv.a_len - 1].t_ms > t_ms)
            sv.a_len--;
    return sv;
}

/* Columns c0 .. c0+n-1 of a lane from the samples sv, reusing the finished
 * ones (before column done) of the last frame. */
static const double *lane_columns(tui_view *v, int li, const st_run_view *rv, const lane *l,
                                  int64_t c0, int n, int64_t newest, st_samples_view sv)
{
    tui_lane_cache *c = &v->lanes[li];
    if (c->cap < n) {
        double *p = realloc(c->v, (size_t)n * sizeof *p);
        if (!p)
            return NULL;
        c->v = p;
        c->cap = n;
        c->n = 0;
    }
    int reuse = 0;
    if (c->n > 0 && c->per_col == v->per_col && c->col0 <= c0 && c0 < c->final_end &&
        c->ring_total <= rv->samples_total) {
        int64_t end = c0 + n < c->final_end ? c0 + n : c->final_end;
        if (end > c->col0 + c->n)
            end = c->col0 + c->n;
        if (end > c0) {
            reuse = (int)(end - c0);
            memmove(c->v, c->v + (c0 - c->col0), (size_t)reuse * sizeof *c->v);
        }
    }
    int j = reuse;
    int64_t from = c0 + reuse;
    for (; j < n && from < 0; j++, from++)
        c->v[j] = NAN;
    if (j < n)
        tui_bucket(sv, l->field, l->agg, interval_ms(rv), v->per_col,
                   (uint64_t)from, n - j, c->v + j);
    c->col0 = c0;
    c->n = n;
    c->per_col = v->per_col;
    c->final_end = newest;
    c->ring_total = rv->samples_total;
    return c->v;
}

/* v (raw, hundredths for a centi lane) in lane t's unit: the long form
 * ("2.00 GiB", "45.5%") and the short one ("2.00G", "46%"). */
static void unit_text(const st_lane *t, uint64_t raw, char *big, size_t blen, char *small, size_t slen)
{
    double x = st_lane_centi(t) ? raw / 100.0 : (double)raw;
    switch (t->unit) {
    case ST_LU_BYTES:
        st_format_bytes(raw, big, blen);
        tui_short_bytes(raw, small, slen);
        break;
    case ST_LU_PERCENT:
        snprintf(big, blen, "%.1f%%", x);
        snprintf(small, slen, "%.0f%%", x);
        break;
    case ST_LU_PRESSURE:
        snprintf(big, blen, "%.2f", x);
        snprintf(small, slen, "%.1f", x);
        break;
    case ST_LU_CPU:
        snprintf(big, blen, "%.1f%%", x);
        snprintf(small, slen, "%.0f%%", x);
        break;
    case ST_LU_SECONDS:
        snprintf(big, blen, "%.1fs", x);
        snprintf(small, slen, "%.0fs", x);
        break;
    case ST_LU_PER_S:
        snprintf(big, blen, x < 1000 ? "%.1f/s" : "%.0f/s", x);
        snprintf(small, slen, x < 10000 ? "%.0f/s" : "%.0fk/s", x < 10000 ? x : x / 1000);
        break;
    default:
        snprintf(big, blen, "%llu", (unsigned long long)raw);
        snprintf(small, slen, "%llu", (unsigned long long)raw);
        break;
    }
}

/* One value as an item: "<rowname><long>", "<inname><long>",
 * "<shname><short>". */
static void value_item(lane *l, attr_t a, const char *rowname, const char *inname,
                       const char *shname, uint64_t raw)
{
    char big[32], small[32], row[64], inl[64], sh[64];
    unit_text(&st_lanes[l->id], raw, big, sizeof big, small, sizeof small);
    snprintf(row, sizeof row, "%s%s", rowname, big);
    snprintf(inl, sizeof inl, "%s%s", inname, big);
    snprintf(sh, sizeof sh, "%s%s", shname, small);
    add(l, a, row, inl, sh);
}

static void bytes_item(lane *l, attr_t a, const char *rowname, const char *inname,
                       const char *shname, uint64_t b)
{
    char big[32], small[32], row[64], inl[64], sh[64];
    st_format_bytes(b, big, sizeof big);
    tui_short_bytes(b, small, sizeof small);
    snprintf(row, sizeof row, "%s%s", rowname, big);
    snprintf(inl, sizeof inl, "%s%s", inname, big);
    snprintf(sh, sizeof sh, "%s%s", shname, small);
    add(l, a, row, inl, sh);
}

/* The swap lane after its name: the system's swap grows for everyone, so
 * it shows growth since start, rate and the guard's budget, not a peak. */
static void swap_items(const tui_view *v, const st_run_view *rv, lane *l)
{
    if ((rv->sys.valid & ST_SYS_SWAPTOTAL) && rv->sys.swap_total == 0 && rv->last->swap_used == 0) {
        /* one row then (view.c): "swap used: none (no swap)", short
         * "swap used: no swap" */
        snprintf(l->it[0].inl, sizeof l->it[0].inl, "swap used:");
        snprintf(l->it[0].sh, sizeof l->it[0].sh, "swap used:");
        add(l, A_NORMAL, "none (no swap)", "none (no swap)", "no swap");
        return;
    }
    uint64_t now_b = rv->last->swap_used, base = rv->sys_start.swap_used;
    double rate = rv->swap_rate;
    int growing = rate > 1024.0 * 1024.0;
    int64_t growth = (int64_t)(now_b - base);
    attr_t ga = growing ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD
              : growth > 64 * 1024 * 1024 ? tui_attr(v, TUI_PAIR_WARN) : A_NORMAL;
    bytes_item(l, A_BOLD, "now  ", "", "", now_b);
    char big[32], small[32], row[64], inl[64], sh[64];
    st_format_bytes((uint64_t)(growth < 0 ? -growth : growth), big, sizeof big);
    tui_short_bytes((uint64_t)(growth < 0 ? -growth : growth), small, sizeof small);
    char sign = growth < 0 ? '-' : '+';
    snprintf(row, sizeof row, "%c%s since start", sign, big);
    snprintf(inl, sizeof inl, "%c%s", sign, big);
    snprintf(sh, sizeof sh, "%c%s", sign, small);
    add(l, ga, row, inl, sh);
    if (fabs(rate) >= 1024) {
        st_format_bytes((uint64_t)fabs(rate), big, sizeof big);
        tui_short_bytes((uint64_t)fabs(rate), small, sizeof small);
        sign = rate < 0 ? '-' : '+';
        snprintf(row, sizeof row, "%c%s/s", sign, big);
        snprintf(sh, sizeof sh, "%c%s/s", sign, small);
        add(l, ga, row, row, sh);
    }
    if (rv->guard_active && rv->guard_opts.has_swap_budget) {
        double eta = rv->budget_eta_s;
        if (eta >= 0) {
            st_format_duration(eta, big, sizeof big);
            snprintf(row, sizeof row, "budget in %s", big);
            snprintf(sh, sizeof sh, "eta %s", big);
            add(l, tui_attr(v, eta < 60 ? TUI_PAIR_BAD : TUI_PAIR_WARN) | A_BOLD, row, row, sh);
        } else {
            st_format_bytes(rv->guard_opts.swap_budget, big, sizeof big);
            tui_short_bytes(rv->guard_opts.swap_budget, small, sizeof small);
            snprintf(row, sizeof row, "budget +%s", big);
            snprintf(sh, sizeof sh, "bud +%s", small);
            add(l, A_NORMAL, row, row, sh);
        }
    }
}

/* The level lane's room under the cgroup memory limit that binds the job
 * (docs/screen.md): "limit 512M: 84.0M free" (a label is 14 to 26 columns),
 * "lim 84.0M free" where that does not fit; warned under a fifth, a tenth. */
static void limit_item(const tui_view *v, const st_run_view *rv, lane *l)
{
    char lim[16], room[16], lim_l[16], row[64], sh[64];
    tui_short_bytes(rv->limit.limit, lim, sizeof lim);
    st_format_bytes(rv->limit.limit, lim_l, sizeof lim_l);
    if (!st_sample_has(rv->last, ST_F_LIMIT_FREE)) {
        snprintf(row, sizeof row, "limit %s", lim_l);
        snprintf(sh, sizeof sh, "lim %s", lim);
        add(l, A_NORMAL, row, row, sh);
        return;
    }
    uint64_t free_b = rv->last->limit_free;
    tui_short_bytes(free_b, room, sizeof room);
    snprintf(row, sizeof row, "limit %s: %s free", lim, room);
    snprintf(sh, sizeof sh, "lim %s free", room);
    attr_t a = free_b < rv->limit.limit / 10 ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD
             : free_b < rv->limit.limit / 5 ? tui_attr(v, TUI_PAIR_WARN) | A_BOLD : A_NORMAL;
    add(l, a, row, row, sh);
}

/* One lane's label items from its table row: its name, "now" and the value
 * of its summary rule over the run (peak, min); then what a lane adds of its
 * own (the footprint's kernel peak, the level's warning colours and the
 * pressure, the swap's growth and budget). */
static void build_lane(const tui_view *v, const st_run_view *rv, int id, lane *l)
{
    const st_lane *t = &st_lanes[id];
    const st_lane_stats *ls = &rv->summary->lanes;
    l->id = id;
    l->field = st_lane_bit(id);
    l->agg = t->rule == ST_LR_MIN ? TUI_AGG_MIN : TUI_AGG_MAX;
    /* a level: scaled to what is in view, bounds labelled (97 % -> 92 % seen) */
    l->fitted = t->unit == ST_LU_PERCENT && t->rule == ST_LR_MIN;
    l->pair = TUI_PAIR_LANE + id;
    add(l, tui_attr(v, l->pair) | A_BOLD, t->label, t->label_inline, t->label_short);
    if (!rv->last || !st_sample_has(rv->last, l->field)) {
        add(l, A_NORMAL, t->absent, t->absent_short, t->absent_short);
        return;
    }
    if (t->rule == ST_LR_GROWTH) {
        swap_items(v, rv, l);
        return;
    }
    value_item(l, A_BOLD, "now  ", "", "", st_lane_raw(t, rv->last));
    if (ls->has & l->field) {
        if (t->rule == ST_LR_PEAK || t->rule == ST_LR_RATE)
            value_item(l, A_NORMAL, "peak ", "peak ", "pk ", ls->max[id]);
        else if (t->rule == ST_LR_MIN)
            value_item(l, A_NORMAL, "min  ", "min ", "min ", ls->min[id]);
    }
    if (id == ST_LANE_FOOTPRINT && rv->has_kernel_peak && rv->kernel_peak > rv->summary->peak_footprint) {
        /* one name everywhere (report, diff, replay, summary): the platform's
         * source (VmHWM, lifetime_max_phys_footprint) is docs/metrics.md's */
        bytes_item(l, tui_attr(v, TUI_PAIR_DIM), "kernel peak ", "kernel peak ", "kpk ",
                   rv->kernel_peak);
    }
    if (id == ST_LANE_LEVEL) { /* low is the news */
        double pct = rv->last->level_c / 100.0;
        l->it[1].a = pct < 10 ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD
                   : pct < 20 ? tui_attr(v, TUI_PAIR_WARN) | A_BOLD : A_BOLD;
        if (pct < 20)
            l->pair = pct < 10 ? TUI_PAIR_BAD : TUI_PAIR_WARN;
        if (l->n > 2 && ls->min[id] < 1000)
            l->it[2].a = tui_attr(v, TUI_PAIR_BAD);
        if (rv->limit.has_limit) /* the cgroup's limit binds before the host's memory */
            limit_item(v, rv, l);
        if (st_sample_has(rv->last, ST_F_PRESSURE)) {
            char row[64], sh[64];
            /* PSI "some avg10": the share of the last 10 s that some task waited on memory */
            snprintf(row, sizeof row, "pressure %.2f%%", rv->last->pressure_c / 100.0);
            snprintf(sh, sizeof sh, "pr %.1f%%", rv->last->pressure_c / 100.0);
            add(l, tui_attr(v, TUI_PAIR_DIM), row, row, sh);
        }
    }
}

int tui_lanes_shown(const tui_view *v, const st_run_view *rv, int ids[TUI_MAX_LANES])
{
    int all[ST_LANE_COUNT], n = 0;
    size_t k = st_lanes_order(ST_LO_SCREEN, all);
    if (v && v->lane_set) { /* chosen: the screen's order, then the table's */
        for (size_t i = 0; i < k && n < TUI_MAX_LANES; i++)
            if (v->lane_set & st_lane_bit(all[i]))
                ids[n++] = all[i];
        for (int id = 0; id < ST_LANE_COUNT && n < TUI_MAX_LANES; id++)
            if ((v->lane_set & st_lane_bit(id)) && !st_lanes[id].screen_rank)
                ids[n++] = id;
        return n;
    }
    for (size_t i = 0; i < k && n < TUI_MAX_LANES; i++) {
        const st_lane *t = &st_lanes[all[i]];
        int read = rv->summary && (rv->summary->lanes.has & st_lane_bit(t->id));
        if (t->id == ST_LANE_GPU && rv->has_gpu_lane)
            read = 1; /* a GPU reader is open: its lane waits for a reading */
        if (t->screen_always || read)
            ids[n++] = t->id;
    }
    return n;
}

unsigned tui_lanes_mask(const tui_view *v, const st_run_view *rv)
{
    int ids[TUI_MAX_LANES];
    unsigned mask = 0;
    int n = tui_lanes_shown(v, rv, ids);
    for (int i = 0; i < n; i++)
        mask |= st_lane_bit(ids[i]);
    return mask;
}

void tui_lanes_toggle_activity(tui_view *v, const st_run_view *rv)
{
    unsigned act = ST_F_CPU | ST_F_PAGEINS, mask = tui_lanes_mask(v, rv);
    mask = (mask & act) == act ? mask & ~act : mask | act;
    v->lane_set = mask ? mask : st_lane_bit(ST_LANE_FOOTPRINT);
    for (int i = 0; i < TUI_MAX_LANES; i++) /* the slots hold other lanes now */
        v->lanes[i].n = 0;
}

int tui_lanes_parse(const char *list, unsigned *mask, char *bad, size_t badlen)
{
    const char *p = list;
    *mask = 0;
    while (*p) {
        char name[ST_LANE_KEY_MAX];
        size_t n = strcspn(p, ",");
        const st_lane *l = NULL;
        if (n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            l = st_lane_by_key(strcmp(name, "swap") == 0 ? "swap_used" : name);
        }
        if (!l) {
            snprintf(bad, badlen, "%.*s", (int)(n < 64 ? n : 64), p);
            return -1;
        }
        *mask |= st_lane_bit(l->id);
        p += n;
        if (*p == ',')
            p++;
    }
    if (!*mask) {
        snprintf(bad, badlen, "(empty)");
        return -1;
    }
    return 0;
}

/* Draw a row of sparkline levels or graph cells straight into curses'
 * cells (no per-character UTF-8 decoding), and only when the row differs
 * from what the screen row already shows. */
static void draw_cells(tui_view *v, int y, int x, const unsigned char *lv, int n, int graph,
                       int pair, cchar_t *cells)
{
    static const char asc_spark[] = " .:-=+*#%@", asc_graph[] = " ..--==##";
    short cp = (short)(v->color ? pair : 0);
    unsigned char *seen = v->row_ok && y < v->row_rows && n <= v->row_cols
                        ? v->row_cells + (size_t)y * (size_t)v->row_cols : NULL;
    if (seen && v->row_ok[y] && v->row_pair[y] == cp && memcmp(seen, lv, (size_t)n) == 0)
        return;
    cchar_t g[10];
    for (int i = 0; i < 10; i++) {
        wchar_t wc[2] = {L' ', 0};
        if (v->ascii)
            wc[0] = (wchar_t)(graph ? asc_graph[i > 8 ? 8 : i] : asc_spark[i]);
        else if (i > 0)
            wc[0] = (wchar_t)(0x2580 + (i > 8 ? 8 : i)); /* U+2581 .. U+2588 */
        setcchar(&g[i], wc, A_NORMAL, cp, NULL);
    }
    for (int j = 0; j < n; j++)
        cells[j] = g[lv[j] > 9 ? 9 : lv[j]];
    mvadd_wchnstr(y, x, cells, n);
    if (seen) {
        memcpy(seen, lv, (size_t)n);
        v->row_pair[y] = cp;
        v->row_ok[y] = 1;
    }
}

/* Draw items side by side in one row of w columns: the longest form that
 * fits, dropping trailing items before shortening. */
static void draw_inline(const lane *l, int y, int x, int w)
{
    for (int form = 0; form < 2; form++)
        for (int k = l->n; k >= 2 || (form == 1 && k >= 1); k--) {
            int total = -1;
            for (int i = 0; i < k; i++)
                total += 1 + tui_text_width(form ? l->it[i].sh : l->it[i].inl);
            if (total > w && !(form == 1 && k == 1))
                continue;
            int cx = x;
            for (int i = 0; i < k && cx < x + w; i++) {
                cx += tui_put(y, cx, x + w - cx, form ? l->it[i].sh : l->it[i].inl, l->it[i].a);
                cx++;
            }
            return;
        }
}

static void draw_rows(const lane *l, const tui_box *b)
{
    for (int i = 0; i < l->n && i < b->h; i++) {
        const char *s = tui_text_width(l->it[i].row) <= b->w ? l->it[i].row : l->it[i].sh;
        tui_put(b->y + i, b->x, b->w, s, l->it[i].a);
    }
}

/* A percent lane scaled to what is in view, so 97 % -> 92 % is seen: the
 * bounds are the smallest and largest values, widened by a point and to at
 * least 2 points, within 0 .. 100; a label says them ("scale 91-98%"). */
static void fit_percent(const tui_view *v, lane *l, const double *col, int w, double *lo, double *hi)
{
    double mn = 101, mx = -1;
    for (int j = 0; j < w; j++)
        if (!isnan(col[j])) {
            if (col[j] < mn)
                mn = col[j];
            if (col[j] > mx)
                mx = col[j];
        }
    if (mx < 0)
        return;
    double a = floor(mn - 1), b = ceil(mx + 1);
    if (b - a < 2)
        b = a + 2;
    *lo = a < 0 ? 0 : a;
    *hi = b > 100 ? 100 : b;
    if (*hi - *lo < 2)
        *lo = *hi - 2;
    char row[64], sh[64];
    snprintf(row, sizeof row, "scale %.0f-%.0f%%", *lo, *hi);
    snprintf(sh, sizeof sh, "%.0f-%.0f%%", *lo, *hi);
    if (l->n < 7)
        add(l, tui_attr(v, TUI_PAIR_DIM), row, row, sh);
}

void tui_lanes_draw(tui_view *v, const st_run_view *rv, double now)
{
    (void)now;
    const tui_layout *L = &v->L;
    lane lanes[TUI_MAX_LANES];
    int ids[TUI_MAX_LANES];
    int n = tui_lanes_shown(v, rv, ids);
    if (n > L->n_lanes)
        n = L->n_lanes;
    memset(lanes, 0, sizeof lanes);
    for (int i = 0; i < n; i++)
        build_lane(v, rv, ids[i], &lanes[i]);
    int w = L->plot[0].w;
    int64_t newest = tui_newest_col(v, rv);
    int64_t end = v->frozen ? v->frozen_end : newest;
    int64_t c0 = end - (w - 1);
    st_samples_view sv = rv->samples;
    int64_t done = newest; /* columns before it are full: kept between frames */
    if (v->frozen && v->has_frozen_t) { /* live and frozen: nothing after its moment, */
        sv = samples_upto(sv, v->frozen_t_ms); /* even in a column not yet full */
        int64_t fc = tui_frozen_col(v, rv);
        done = fc < done ? fc : done;
    }
    size_t blen = (size_t)w * 3 * 8 + 64; /* text rows: 3 bytes a cell */
    char *buf = malloc(blen);
    unsigned char *lv = malloc((size_t)w);
    cchar_t *cells = malloc((size_t)w * sizeof *cells);
    int *heights = malloc((size_t)w * sizeof *heights);
    if (!buf || !lv || !cells || !heights) {
        free(buf);
        free(lv);
        free(cells);
        free(heights);
        return;
    }
    uint64_t cap_bytes = 0; /* the MPS cap, looked up once a frame (0: none) */
    if (L->graph)
        tui_cap_bytes(rv, &cap_bytes);
    for (int i = 0; i < n; i++) {
        lane *l = &lanes[i];
        const double *col = rv->last ? lane_columns(v, i, rv, l, c0, w, done, sv) : NULL;
        double hi = 100, lo = 0;
        int has_data = 0, cap = TUI_CAP_NONE, cap_row = 0;
        if (l->fitted && col)
            fit_percent(v, l, col, w, &lo, &hi);
        else if (!l->fitted) { /* swap: growth over what was in use at the start */
            double base = l->id == ST_LANE_SWAP ? (double)rv->sys_start.swap_used : 0;
            tui_scale_over_base(col, w, base, &lo, &hi, &has_data);
            if (base > 0 && L->graph && l->n < 6) {
                char big[32], row[64];
                st_format_bytes((uint64_t)base, big, sizeof big);
                snprintf(row, sizeof row, "base %s", big);
                add(l, tui_attr(v, TUI_PAIR_DIM), row, row, row);
            }
        }
        if (L->graph) {
            if (has_data && l->n < 6) {
                char big[32], small[32], row[64];
                const st_lane *t = &st_lanes[l->id];
                uint64_t top = (uint64_t)hi;
                unit_text(t, st_lane_centi(t) ? top * 100 : top, big, sizeof big, small,
                          sizeof small);
                snprintf(row, sizeof row, "top  %s", big);
                add(l, tui_attr(v, TUI_PAIR_DIM), row, row, row);
            }
            char ct[64], cs[64]; /* the MPS cap: a line, or a word when off scale */
            cap = tui_cap_place_at(cap_bytes, l->id, lo, hi, L->plot[i].h, &cap_row, ct, sizeof ct, cs,
                                   sizeof cs);
            if (cap != TUI_CAP_NONE && l->n < 7)
                add(l, tui_attr(v, TUI_PAIR_WARN), ct, ct, cs);
            if (L->label[i].h > 1)
                draw_rows(l, &L->label[i]);
            else /* a lane of one row (swap on a system without swap) */
                draw_inline(l, L->label[i].y, L->label[i].x, L->label[i].w);
        } else {
            draw_inline(l, L->label[i].y, L->label[i].x, L->label[i].w);
        }
        if (!col) { /* nothing to draw yet: blank the plot */
            for (int r = 0; r < L->plot[i].h; r++) {
                mvhline(L->plot[i].y + r, L->plot[i].x, ' ', w);
                if (v->row_ok && L->plot[i].y + r < v->row_rows)
                    v->row_ok[L->plot[i].y + r] = 0;
            }
            continue;
        }
        if (L->graph)
            tui_graph_heights(col, w, lo, hi, L->plot[i].h, heights);
        for (int r = 0; r < L->plot[i].h; r++) {
            if (L->graph)
                tui_graph_cells(heights, w, L->plot[i].h, r, lv);
            else
                tui_spark_levels(col, w, lo, hi, v->ascii, lv);
            draw_cells(v, L->plot[i].y + r, L->plot[i].x, lv, w, L->graph, l->pair, cells);
            if (cap == TUI_CAP_LINE && r == cap_row)
                tui_cap_line(v, L->plot[i].y + r, L->plot[i].x, heights, w, L->plot[i].h, r);
        }
    }
    double col_s = v->per_col * rv->interval;
    if (L->axis.h) {
        char span[32], text[96], ago[32];
        st_format_duration(col_s * w, span, sizeof span);
        if (v->frozen) {
            st_format_duration((double)(newest - end) * col_s, ago, sizeof ago);
            snprintf(text, sizeof text, "FROZEN %s, -%s", span, ago);
        } else {
            snprintf(text, sizeof text, "%s %s", v->fit ? "whole run" : "last", span);
        }
        if (v->per_col > 1)
            snprintf(text + strlen(text), sizeof text - strlen(text), " (%u/col)", v->per_col);
        tui_put(L->window.y, L->window.x, L->window.w, text,
                v->frozen ? tui_attr(v, TUI_PAIR_WARN) | A_BOLD : tui_attr(v, TUI_PAIR_DIM));
        tui_axis_row(v, rv, end, w, buf, blen); /* seconds ago, or the clock (key T) */
        tui_put(L->axis.y, L->axis.x, L->axis.w, buf, tui_attr(v, TUI_PAIR_DIM));
    }
    if (L->events.h) {
        int off = c0 < 0 ? (int)-c0 : 0;
        if (off < w) {
            tui_events_row(rv->events, rv->n_events, interval_ms(rv), v->per_col,
                           (uint64_t)(c0 + off), w - off, v->ascii, buf, blen);
            tui_put(L->events.y, L->events.x + off, L->events.w - off, buf, A_BOLD);
        }
        const char *stage = tui_current_stage(rv);
        char safe[200], text[220];
        if (stage) {
            tui_sanitize(stage, strnlen(stage, 64), v->ascii, -1, safe, sizeof safe);
            snprintf(text, sizeof text, "stage %s", safe);
        } else {
            snprintf(text, sizeof text, "events");
        }
        tui_put(L->events_label.y, L->events_label.x, L->events_label.w, text, A_NORMAL);
    }
    free(buf);
    free(lv);
    free(cells);
    free(heights);
}
