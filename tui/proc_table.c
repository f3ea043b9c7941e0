/* proc_table.c: the process list's order, tree, filter, selection and
 * scroll (proc_table.h).  Curses-free. */
#include "proc_table.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/grow.h"

static const char *const titles[TUI_COL_COUNT] = {"PID", "FOOTPRINT", "RSS", "SWAP", "GPU",
                                                  "S", "CPU%", "PGIN/s", "COMMAND"};
static const char *const names[TUI_COL_COUNT] = {"pid", "footprint", "rss", "swap", "gpu",
                                                 "state", "cpu", "pageins", "command"};

const char *tui_col_title(int col)
{
    return col >= 0 && col < TUI_COL_COUNT ? titles[col] : "";
}

const char *tui_col_name(int col)
{
    return col >= 0 && col < TUI_COL_COUNT ? names[col] : "";
}

int tui_col_parse(const char *name)
{
    for (int i = 0; i < TUI_COL_COUNT; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

void tui_ptab_init(tui_ptab *t)
{
    memset(t, 0, sizeof *t);
    t->sort = TUI_COL_FOOTPRINT;
    t->top = 1;
}

void tui_ptab_free(tui_ptab *t)
{
    free(t->rows);
    free(t->tmp);
    free(t->keys);
    free(t->in);
    memset(t, 0, sizeof *t);
}

double tui_pt_shown_bytes(uint64_t b)
{
    double v = (double)b, scale = 1;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        scale *= 1024.0;
        u++;
    }
    if (u == 0)
        return v;
    double q = v < 10 ? 100 : v < 100 ? 10 : 1;
    return round(v * q) / q * scale;
}

const char *tui_pt_short_cmd(const char *cmd)
{
    const char *end = strchr(cmd, ' '), *s = cmd;
    if (!end)
        end = cmd + strlen(cmd);
    for (const char *p = cmd; p < end; p++)
        if (*p == '/' && p + 1 < end)
            s = p + 1;
    return s;
}

int tui_pt_named(const st_proc_mem *p, const char *cmd)
{
    if (!(p->valid & ST_PM_COMM) || !p->comm[0] || !cmd[0] || cmd[0] == '?')
        return 0;
    const char *s = tui_pt_short_cmd(cmd), *end = strchr(s, ' ');
    size_t n = end ? (size_t)(end - s) : strlen(s), c = strnlen(p->comm, sizeof p->comm);
    /* the kernel keeps the first 15 bytes of the program's name */
    if (n > sizeof p->comm - 1)
        n = sizeof p->comm - 1;
    return !(n == c && memcmp(s, p->comm, n) == 0);
}

static int has_text(const char *hay, size_t hn, const char *needle)
{
    size_t nn = strlen(needle);
    if (nn == 0)
        return 1;
    for (size_t i = 0; i + nn <= hn; i++) {
        size_t k = 0;
        while (k < nn && tolower((unsigned char)hay[i + k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == nn)
            return 1;
    }
    return 0;
}

int tui_pt_matches(const tui_pt_member *x, const char *text)
{
    char pid[16];
    int n = snprintf(pid, sizeof pid, "%ld", (long)x->p->id.pid);
    return has_text(x->cmd, strlen(x->cmd), text) ||
           ((x->p->valid & ST_PM_COMM) && has_text(x->p->comm, strnlen(x->p->comm, sizeof x->p->comm), text)) ||
           has_text(pid, (size_t)n, text);
}

/* ---- ordering ---- */

struct pt_key {
    double k;          /* the shown value, signed so that ascending is the order */
    const char *s;     /* command column: the short command */
    const char *name;  /* siblings' numbering: the name when it is shown ("" not) */
    int dir;           /* command column: 1 ascending, -1 descending */
    int32_t pid, ppid;
    uint64_t start;
    uint32_t m;
};
typedef struct pt_key pt_key;

static int by_key(const void *a, const void *b)
{
    const pt_key *x = a, *y = b;
    if (x->s && y->s) {
        int c = strcmp(x->s, y->s);
        if (c)
            return c * x->dir;
    } else if (x->k != y->k) {
        return x->k < y->k ? -1 : 1;
    }
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_pid(const void *a, const void *b)
{
    const pt_key *x = a, *y = b;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* siblings showing the same command, in start order */
static int by_sibling(const void *a, const void *b)
{
    const pt_key *x = a, *y = b;
    if (x->ppid != y->ppid)
        return x->ppid < y->ppid ? -1 : 1;
    int c = strcmp(x->s, y->s);
    if (!c)
        c = strncmp(x->name, y->name, 16);
    if (c)
        return c;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static double key_of(const tui_pt_member *x, int col)
{
    const st_proc_mem *p = x->p;
    switch (col) {
    case TUI_COL_PID: return p->id.pid;
    case TUI_COL_FOOTPRINT: return p->valid & ST_PM_FOOTPRINT ? -tui_pt_shown_bytes(p->footprint) : 1;
    case TUI_COL_RSS: return p->valid & ST_PM_RSS ? -tui_pt_shown_bytes(p->rss) : 1;
    case TUI_COL_SWAP: return p->valid & ST_PM_SWAP ? -tui_pt_shown_bytes(p->swap) : 1;
    case TUI_COL_GPU: return x->has_gpu ? -tui_pt_shown_bytes(x->gpu) : 1;
    case TUI_COL_STATE: return p->valid & ST_PM_STATE ? (double)(unsigned char)p->state : 1e9;
    case TUI_COL_CPU: return p->valid & ST_PM_RATES ? -round(p->cpu_c / 10.0) : 1;
    case TUI_COL_PAGEINS: return p->valid & ST_PM_RATES ? -round(p->pageins_c / 100.0) : 1;
    default: return 0;
    }
}

/* What one member's place in the order is made of (tui_ptab_order keeps
 * the rows while every member's is the same). */
struct pt_input {
    double k;            /* the sorted column's shown value (0 for the root) */
    const char *cmd;
    st_proc_id id;
    int32_t ppid;
    uint32_t cmd_ver;
    uint16_t valid;      /* its ST_PM_COMM bit */
    char comm[16];
};

/* Record m[0..n)'s inputs; 1 when they are those of the last ordering. */
static int same_inputs(tui_ptab *t, const tui_pt_member *m, size_t n, int32_t root_pid, int *oom)
{
    *oom = st_grow(&t->in, &t->cap_in, n + 1, sizeof *t->in, 64) != 0;
    if (*oom)
        return 0;
    int same = t->in_ok && t->n_in == n && t->in_sort == t->sort && t->in_invert == t->invert &&
               t->in_tree == t->tree && t->in_root == root_pid && strcmp(t->in_filter, t->filter) == 0;
    for (size_t i = 0; i < n; i++) {
        struct pt_input x;
        memset(&x, 0, sizeof x); /* padding too: compared whole */
        x.id = m[i].p->id;
        x.k = x.id.pid == root_pid ? 0 : key_of(&m[i], t->sort);
        x.cmd = m[i].cmd;
        x.ppid = m[i].p->ppid;
        x.cmd_ver = m[i].cmd_ver;
        x.valid = m[i].p->valid & ST_PM_COMM;
        if (x.valid)
            memcpy(x.comm, m[i].p->comm, sizeof x.comm);
        if (same && memcmp(&t->in[i], &x, sizeof x) != 0)
            same = 0;
        t->in[i] = x;
    }
    t->n_in = n;
    t->in_sort = t->sort;
    t->in_invert = t->invert;
    t->in_tree = t->tree;
    t->in_root = root_pid;
    snprintf(t->in_filter, sizeof t->in_filter, "%s", t->filter);
    t->in_ok = 1;
    return same;
}

/* The selected process's row again (after the rows were made or kept). */
static void find_selection(tui_ptab *t, const tui_pt_member *m)
{
    size_t found = (size_t)-1;
    for (size_t i = 0; t->sel.pid && i < t->n_rows; i++) {
        const st_proc_mem *p = m[t->rows[i].m].p;
        if (p->id.pid == t->sel.pid && p->id.start == t->sel.start) {
            found = i;
            break;
        }
    }
    if (found == (size_t)-1)
        found = t->sel.pid == 0 ? 0 : t->sel_row < t->n_rows ? t->sel_row : t->n_rows ? t->n_rows - 1 : 0;
    t->sel_row = found;
    if (found < t->n_rows)
        t->sel = m[t->rows[found].m].p->id;
}

static int push_row(tui_ptab *t, uint32_t m, uint16_t depth, uint8_t orphan, uint32_t last,
                    const uint8_t *named, const uint16_t *dup)
{
    if (st_grow(&t->rows, &t->cap_rows, t->n_rows + 1, sizeof *t->rows, 64) != 0)
        return -1;
    tui_pt_row *r = &t->rows[t->n_rows++];
    r->m = m;
    r->depth = depth;
    r->orphan = orphan;
    r->named = named[m];
    r->dup = dup[m];
    r->last = last;
    return 0;
}

/* The parent of key i (index into keys sorted by pid, bykeys), or -1. */
static long parent_of(const pt_key *bypid, size_t n, int32_t ppid)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (bypid[mid].pid < ppid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && bypid[lo].pid == ppid ? (long)bypid[lo].m : -1;
}

int tui_ptab_order(tui_ptab *t, const tui_pt_member *m, size_t n, int32_t root_pid)
{
    int oom;
    if (same_inputs(t, m, n, root_pid, &oom)) {
        find_selection(t, m);
        return 0;
    }
    if (oom)
        t->in_ok = 0;
    t->reorders++;
    /* scratch: keys (2n: sorted, by pid), and 5n words: parent, first
     * child, next sibling, dup, named/visited/stack */
    if (st_grow(&t->keys, &t->cap_keys, 2 * n + 1, sizeof(pt_key), 64) != 0 ||
        st_grow(&t->tmp, &t->cap_tmp, 6 * n + 1, sizeof *t->tmp, 64) != 0)
        return -1;
    pt_key *keys = t->keys, *bypid = keys + n;
    uint32_t *parent = t->tmp, *child = parent + n, *next = child + n, *stack = next + n;
    uint16_t *dup = (uint16_t *)(stack + n);
    uint8_t *named = (uint8_t *)(stack + 2 * n), *seen = named + n;
    long root = -1;
    for (size_t i = 0; i < n; i++) {
        pt_key *k = &keys[i];
        k->k = key_of(&m[i], t->sort);
        if (t->invert)
            k->k = -k->k;
        k->s = t->sort == TUI_COL_COMMAND ? tui_pt_short_cmd(m[i].cmd) : NULL;
        k->dir = t->invert ? -1 : 1;
        k->pid = m[i].p->id.pid;
        k->ppid = m[i].p->ppid;
        k->start = m[i].p->id.start;
        k->m = (uint32_t)i;
        named[i] = (uint8_t)tui_pt_named(m[i].p, m[i].cmd);
        k->name = named[i] ? m[i].p->comm : "";
        dup[i] = 0;
        seen[i] = 0;
        if (k->pid == root_pid)
            root = (long)i;
    }
    /* siblings showing the same command (and name, where shown): numbered
     * in start order */
    memcpy(bypid, keys, n * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        bypid[i].s = tui_pt_short_cmd(m[i].cmd);
    qsort(bypid, n, sizeof *bypid, by_sibling);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && bypid[j].ppid == bypid[i].ppid && strcmp(bypid[j].s, bypid[i].s) == 0 &&
               strncmp(bypid[j].name, bypid[i].name, 16) == 0)
            j++;
        if (j - i > 1)
            for (size_t k = i; k < j; k++)
                dup[bypid[k].m] = (uint16_t)(k - i + 1 < 65535 ? k - i + 1 : 65535);
        i = j;
    }
    qsort(keys, n, sizeof *keys, by_key);
    memcpy(bypid, keys, n * sizeof *keys);
    qsort(bypid, n, sizeof *bypid, by_pid);

    t->n_rows = 0;
    t->n_members = n;
    int rc = 0;
    if (root >= 0)
        rc |= push_row(t, (uint32_t)root, 0, 0, 1, named, dup);
    if (!t->tree) {
        for (size_t i = 0; i < n && rc == 0; i++)
            if ((long)keys[i].m != root && (!t->filter[0] || tui_pt_matches(&m[keys[i].m], t->filter)))
                rc |= push_row(t, keys[i].m, 1, 0, 0, named, dup);
    } else {
        /* children lists in the sort's order (built backwards) */
        const uint32_t NONE = UINT32_MAX;
        for (size_t i = 0; i < n; i++)
            child[i] = next[i] = NONE;
        for (size_t i = n; i-- > 0;) {
            uint32_t x = keys[i].m;
            if ((long)x == root)
                continue;
            long p = parent_of(bypid, n, m[x].p->ppid);
            int orphan = p < 0 || p == (long)x;
            if (orphan)
                p = root; /* re-parented: under the root (or at the top without one) */
            parent[x] = orphan ? NONE - 1 : (uint32_t)p;
            if (p >= 0) {
                next[x] = child[p];
                child[p] = x;
            }
        }
        /* depth first from the root, then whatever it did not reach */
        size_t sp = 0;
        for (size_t pass = 0; pass <= n && rc == 0; pass++) {
            uint32_t start;
            if (pass == 0) {
                if (root < 0)
                    continue;
                start = child[root];
                seen[root] = 1;
            } else {
                size_t i = pass - 1;
                uint32_t x = keys[i].m;
                if (seen[x] || (long)x == root || parent[x] != NONE - 1)
                    continue; /* tops only: a member under a parent is reached through it */
                start = x;
                next[x] = NONE; /* a top-level member alone */
            }
            sp = 0;
            if (start != NONE)
                stack[sp++] = start;
            /* the stack holds the next member to show at each depth */
            while (sp > 0 && rc == 0) {
                uint32_t x = stack[sp - 1];
                if (x == NONE) {
                    sp--;
                    continue;
                }
                stack[sp - 1] = next[x];
                if (seen[x])
                    continue;
                seen[x] = 1;
                uint16_t d = (uint16_t)(pass == 0 ? sp : sp - 1);
                uint32_t last = 0;
                for (size_t k = 0; k < sp && k < 32; k++)
                    if (stack[k] == NONE)
                        last |= 1u << (pass == 0 ? k + 1 : k);
                if (!t->filter[0] || tui_pt_matches(&m[x], t->filter))
                    rc |= push_row(t, x, d, parent[x] == NONE - 1 && root >= 0, last, named, dup);
                if (child[x] != NONE && sp < n)
                    stack[sp++] = child[x];
            }
        }
    }
    for (size_t i = 0; i < n && rc == 0; i++) /* none is left out (a loop cannot be) */
        if (!seen[keys[i].m] && t->tree && (long)keys[i].m != root &&
            (!t->filter[0] || tui_pt_matches(&m[keys[i].m], t->filter)))
            rc |= push_row(t, keys[i].m, 0, 0, 0, named, dup);
    if (rc)
        t->in_ok = 0; /* rows left out: made again next time */
    find_selection(t, m);
    return rc ? -1 : 0;
}

/* ---- selection, search, scroll ---- */

static void select_row(tui_ptab *t, size_t r, const st_proc_id *id)
{
    t->sel_row = r;
    if (id)
        t->sel = *id;
}

void tui_ptab_move(tui_ptab *t, long delta)
{
    if (!t->n_rows)
        return;
    long r = (long)t->sel_row + delta;
    r = r < 0 ? 0 : r >= (long)t->n_rows ? (long)t->n_rows - 1 : r;
    t->sel_row = (size_t)r;
    t->sel.pid = -1; /* found by row until the next ordering names it */
}

void tui_ptab_home(tui_ptab *t)
{
    tui_ptab_move(t, -(long)t->n_rows);
}

void tui_ptab_end(tui_ptab *t)
{
    tui_ptab_move(t, (long)t->n_rows);
}

int tui_ptab_search(tui_ptab *t, const tui_pt_member *m, const char *text)
{
    if (!text[0] || !t->n_rows)
        return 0;
    for (size_t k = 0; k < t->n_rows; k++) {
        size_t r = (t->sel_row + k) % t->n_rows;
        if (tui_pt_matches(&m[t->rows[r].m], text)) {
            select_row(t, r, &m[t->rows[r].m].p->id);
            return 1;
        }
    }
    return 0;
}

void tui_ptab_scroll(tui_ptab *t, int slots, int pinned)
{
    size_t first = pinned ? 1 : 0;
    size_t room = slots > (int)first ? (size_t)slots - first : 1;
    if (t->top < first)
        t->top = first;
    if (t->sel_row < first) { /* the pinned root: the list from its start */
        t->top = first;
    } else {
        if (t->sel_row < t->top)
            t->top = t->sel_row;
        else if (t->sel_row >= t->top + room)
            t->top = t->sel_row - room + 1;
    }
    size_t most = t->n_rows > first + room ? t->n_rows - room : first;
    if (t->top > most)
        t->top = most;
}

void tui_pt_branch(const tui_pt_row *r, int ascii, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    if (r->depth == 0 || len == 0)
        return;
    int d = r->depth > 12 ? 12 : r->depth; /* deeper trees: the last 12 levels' glyphs */
    int from = r->depth - d + 1;
    for (int k = from; k <= r->depth; k++) {
        int is_last = k < 32 && (r->last >> k) & 1;
        const char *g = k < r->depth ? (is_last ? "   " : ascii ? "|  " : "\xe2\x94\x82  ")
                                     : is_last ? (ascii ? "`- " : "\xe2\x94\x94\xe2\x94\x80 ")
                                               : (ascii ? "|- " : "\xe2\x94\x9c\xe2\x94\x80 ");
        size_t gl = strlen(g);
        if (o + gl + 1 > len)
            break;
        memcpy(out + o, g, gl);
        o += gl;
        out[o] = '\0';
    }
}
