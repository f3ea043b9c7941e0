/* view_panels.c: the live screen's panels drawn from the run view: the
 * header, the status line (messages, prompts, the first warning of the
 * list), the help and the guard's alert.  The process list is
 * proc_list.c's. */
#include "view.h"
#include "guard_text.h"
#include "sanitize.h"
#include "viewdraw.h"
#include "stagetop/lanes.h"

#include <curses.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stagetop/grow.h"
#include "stagetop/clock.h"
#include "stagetop/stage_table.h"
#include "stagetop/units.h"

/* ---- header ---- */

static const char *state_text(const st_run_view *rv, char *buf, size_t len, int *pair)
{
    switch (rv->job_state) {
    case ST_JOB_PAUSED: *pair = TUI_PAIR_WARN; return "PAUSED";
    case ST_JOB_KILLING: *pair = TUI_PAIR_BAD; return "KILLING";
    case ST_JOB_STOPPED: /* by the terminal or someone else, not by stagetop */
        *pair = TUI_PAIR_BAD;
        snprintf(buf, len, "STOPPED %s", rv->stop_sig == SIGTTIN ? "SIGTTIN" : rv->stop_sig == SIGTTOU ? "SIGTTOU"
                 : rv->stop_sig == SIGTSTP ? "SIGTSTP" : "SIGSTOP");
        return buf;
    case ST_JOB_EXITED:
        *pair = rv->job_launched && rv->exit_code != 0 ? TUI_PAIR_BAD : TUI_PAIR_WARN;
        if (rv->job_launched)
            snprintf(buf, len, "EXITED %d", rv->exit_code);
        else
            snprintf(buf, len, "EXITED");
        return buf;
    default: *pair = TUI_PAIR_GOOD; return "RUNNING";
    }
}

const char *tui_current_stage(const st_run_view *rv)
{
    for (size_t i = rv->n_events; i-- > 0;)
        if (rv->events[i].kind == ST_EV_STAGE)
            return rv->events[i].stage;
    return NULL;
}

void tui_footprint_words(const st_run_view *rv, int ascii, char *buf, size_t size)
{
    char safe[64], age[32] = "";
    const char *m = rv->footprint_metric;
    buf[0] = '\0';
    if (!m || !m[0])
        return;
    tui_sanitize(m, strnlen(m, 32), ascii, 30, safe, sizeof safe); /* a trace's, untrusted */
    if (rv->footprint_carried)
        snprintf(age, sizeof age, " (%.0fs old)", rv->footprint_age_s);
    snprintf(buf, size, "footprint = %s%s%s", safe, age,
             rv->footprint_per_process ? ", " ST_FOOTPRINT_SHARED_NOTE : "");
}

void tui_panel_header(const tui_view *v, const st_run_view *rv)
{
    const tui_box *b = &v->L.header;
    char st[32], line[1200], cmd[700], up[32], stage[256] = "";
    int pair;
    const char *state = state_text(rv, st, sizeof st, &pair);
    tui_sanitize(rv->meta->command, strnlen(rv->meta->command, sizeof rv->meta->command), v->ascii, -1,
                 cmd, sizeof cmd);
    st_format_duration(rv->uptime_s, up, sizeof up);
    const char *cur = tui_current_stage(rv);
    if (cur) {
        char safe[200];
        tui_sanitize(cur, strnlen(cur, 64), v->ascii, 40, safe, sizeof safe);
        snprintf(stage, sizeof stage, "  stage %s", safe);
        const st_summary *sm = rv->summary;
        /* a name that repeats (denoising steps): which repetition this is
         * and the mean time of those that ended (stage_table.h; view.c
         * counts them when a window opens) */
        if (sm && sm == v->rep_of && sm->n_stages &&
            strncmp(sm->stages[sm->n_stages - 1].stage, cur, 64) == 0 && v->rep_nth > 1 && v->rep_done > 0) {
            char mean[32];
            size_t len = strlen(stage);
            snprintf(stage + len, sizeof stage - len, " %s%zu %s/rep", v->ascii ? "x" : "\xC3\x97", v->rep_nth,
                     st_stage_mean_text(v->rep_ms / 1000.0 / (double)v->rep_done, mean, sizeof mean));
        }
    }
    char drop[48] = "";
    uint64_t missed = rv->dropped;
    if (missed)
        snprintf(drop, sizeof drop, "  missed %llu", (unsigned long long)missed);
    char guard[128];
    tui_guard_armed(rv, 1, guard, sizeof guard); /* every armed budget, "(!)" if it cannot act */
    attr_t guard_a = rv->guard_no_swap || rv->guard_level_crossed ? tui_attr(v, TUI_PAIR_WARN) | A_BOLD
                                                                  : A_NORMAL;
    int x = 0;
    char tag[48];
    snprintf(tag, sizeof tag, "[%s]", state);
    x += tui_put(b->y, x, b->w, tag, tui_attr(v, pair) | A_BOLD);
    if (b->h >= 2) {
        snprintf(line, sizeof line, " pid %ld  %s", (long)rv->root_pid, cmd);
        tui_put(b->y, x, b->w - x, line, A_BOLD);
        snprintf(line, sizeof line, "%zu procs  %s %s  every %gs  ", rv->n_members,
                 rv->job_state == ST_JOB_EXITED ? "ran" : "up", up, rv->interval);
        int gx = tui_put(b->y + 1, 0, b->w, line, A_NORMAL);
        if (guard[0])
            gx += tui_put(b->y + 1, gx, b->w - gx, guard, guard_a) + 2;
        char fp[160];
        tui_footprint_words(rv, v->ascii, fp, sizeof fp); /* the definition in force, its age */
        st_mps_advice mps; /* a Mac job that used Metal: its MPS cap in a word */
        st_trace_mps(rv->meta, rv->summary, &mps);
        snprintf(line, sizeof line, "%s%s%s%s%s%s%s", stage[0] ? stage + 2 : "",
                 stage[0] && fp[0] ? "  " : "", fp, drop, v->frozen ? "  [FROZEN]" : "",
                 mps.word[0] ? "  " : "", mps.word);
        tui_put(b->y + 1, gx, b->w - gx, line, A_NORMAL);
    } else {
        snprintf(line, sizeof line, " %ld  %zu procs  %s  %gs  ", (long)rv->root_pid,
                 rv->n_members, up, rv->interval);
        x += tui_put(b->y, x, b->w - x, line, A_NORMAL);
        if (guard[0])
            x += tui_put(b->y, x, b->w - x, guard, guard_a) + 2;
        snprintf(line, sizeof line, "%s%s%s%s", stage[0] ? stage + 2 : "",
                 v->frozen ? (stage[0] ? " [FROZEN]" : "[FROZEN]") : "",
                 stage[0] || v->frozen ? "  " : "", cmd);
        tui_put(b->y, x, b->w - x, line, A_NORMAL);
    }
}

/* ---- status line ---- */

static void own_cpu(tui_view *v, double now)
{
    double cpu = st_cpu_self();
    if (cpu < 0)
        return;
    if (v->wall_mark < 0) {
        v->cpu_mark = cpu;
        v->wall_mark = now;
    } else if (now - v->wall_mark >= 2.0) {
        v->cpu_pct = 100.0 * (cpu - v->cpu_mark) / (now - v->wall_mark);
        v->cpu_mark = cpu;
        v->wall_mark = now;
    }
}

/* A warning from the monitor (guard, record stream, --events, GPU), or else
 * the first budget that cannot act, is shown for ten seconds after it
 * appears or changes; the keys come back after. */
static const char *monitor_warning(tui_view *v, const st_run_view *rv, double now)
{
    const st_run_warning *rw = st_run_view_warning(rv);
    char caveat[200] = "";
    if (!rw) /* else an armed budget that cannot act (no swap; level already under it) */
        tui_guard_caveat(rv, 0, caveat, sizeof caveat);
    const char *w = rw ? rw->e.msg : caveat;
    if (strncmp(w, v->warn, sizeof v->warn - 1) != 0) {
        snprintf(v->warn, sizeof v->warn, "%s", w);
        v->warn_until = now + 10.0;
    }
    return w[0] && now < v->warn_until ? v->warn : NULL; /* v->warn: w may be a local */
}

/* The keys of the status line in w columns beside stagetop's cost (rw
 * columns): the less used keys drop first (zoom, freeze, stages, mark,
 * export, kill, pause), then the cost (*rw = 0); `? help` and `q quit`
 * never drop. */
static void fit_keys(const tui_view *v, const st_run_view *rv, int w, int rw_in, char *out,
                     size_t len, int *rw)
{
    /* a launched job's log is named (o shows its tail); after pause and
     * kill it is the last to drop */
    char logk[96] = "";
    if (v->job_log && *v->job_log) {
        const char *base = strrchr(v->job_log, '/');
        char safe[80];
        base = base && base[1] ? base + 1 : v->job_log;
        tui_sanitize(base, strlen(base), v->ascii, 40, safe, sizeof safe);
        snprintf(logk, sizeof logk, "o log %s", safe);
    }
    const char *items[] = {
        rv->job_state == ST_JOB_PAUSED ? "p resume" : "p pause", "k kill",
        logk[0] ? logk : "e export", logk[0] ? "e export" : "m mark", logk[0] ? "m mark" : "s stages",
        logk[0] ? "s stages" : (v->frozen ? "space unfreeze" : "space freeze"),
        logk[0] ? (v->frozen ? "space unfreeze" : "space freeze") : "+/- zoom",
        logk[0] ? "+/- zoom" : NULL, "? help", "q quit",
    };
    enum { N = sizeof items / sizeof items[0], KEEP = 2 };
    for (int pass = 0; pass < 2; pass++) {
        int right = pass == 0 && rw_in <= w / 2 ? rw_in : 0;
        for (int drop = 0; drop <= N - KEEP; drop++) {
            /* drop the `drop` items just before the kept ones, the last first */
            size_t o = 0;
            out[0] = '\0';
            for (int i = 0; i < N; i++) {
                if ((i >= N - KEEP - drop && i < N - KEEP) || !items[i])
                    continue;
                o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", o ? "  " : "", items[i]);
                if (o >= len)
                    o = len - 1;
            }
            if (tui_text_width(out) <= w - right) {
                *rw = right;
                return;
            }
        }
    }
    *rw = 0;
}

void tui_panel_status(tui_view *v, const st_run_view *rv, double now)
{
    const tui_box *b = &v->L.status;
    char right[96], left[600];
    double us = rv->cpu_per_sample * 1e6;
    const char *warn = monitor_warning(v, rv, now);
    own_cpu(v, now);
    if (us < 1000)
        snprintf(right, sizeof right, " cpu %.1f%%  %.0f%ss/sample", v->cpu_pct, us,
                 v->ascii ? "u" : "µ");
    else
        snprintf(right, sizeof right, " cpu %.1f%%  %.1fms/sample", v->cpu_pct, us / 1000);
    attr_t a = A_NORMAL;
    int prompt = v->prompt != TUI_PROMPT_NONE, keys = 0;
    if (v->prompt == TUI_PROMPT_KILL) {
        /* the members count the root while it lives: it is not one of its own */
        size_t others = rv->n_members - (rv->root_alive && rv->n_members > 0);
        if (!rv->root_alive)
            snprintf(left, sizeof left, "Kill the %zu process%s left of pid %ld's job? [y/n]",
                     others, others == 1 ? "" : "es", (long)rv->root_pid);
        else if (others == 0)
            snprintf(left, sizeof left, "Kill pid %ld? [y/n]", (long)rv->root_pid);
        else
            snprintf(left, sizeof left, "Kill pid %ld and its %zu other process%s? [y/n]",
                     (long)rv->root_pid, others, others == 1 ? "" : "es");
        a = tui_attr(v, TUI_PAIR_BAD) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_QUIT) {
        snprintf(left, sizeof left, "The job is paused. Resume it before quitting? "
                                    "[y]es [n]o, leave it paused [c]ancel");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_WIDE) {
        snprintf(left, sizeof left, "READ-ONLY: this tree is wide (stagetop or most of the "
                 "machine). Let p, k and the guard signal its %zu processes? [y/n]", rv->n_members);
        a = tui_attr(v, TUI_PAIR_BAD) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_QUIT_LAUNCHED) {
        snprintf(left, sizeof left, "stagetop started this job and it still runs: "
                                    "[k]ill it and quit, [l]eave it running, [c]ancel");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_MARK) {
        char safe[200];
        tui_sanitize(v->input, v->input_len, v->ascii, -1, safe, sizeof safe);
        snprintf(left, sizeof left, "mark label (Enter: add, none if empty; Esc: cancel): %s_", safe);
        a = A_BOLD | A_REVERSE;
    } else if (v->prompt == TUI_PROMPT_FILTER || v->prompt == TUI_PROMPT_SEARCH) {
        char safe[200];
        tui_sanitize(v->input, v->input_len, v->ascii, -1, safe, sizeof safe);
        if (v->prompt == TUI_PROMPT_FILTER)
            snprintf(left, sizeof left, "filter by command or pid (Enter: keep, Esc: clear): %s_", safe);
        else
            snprintf(left, sizeof left, "search command or pid (Enter: done, F3: next): %s_%s", safe,
                     v->search_miss ? "  (no match)" : "");
        a = A_BOLD | A_REVERSE;
    } else if (v->msg[0] && now < v->msg_until) {
        snprintf(left, sizeof left, "%s", v->msg);
        a = v->msg_error ? tui_attr(v, TUI_PAIR_BAD) | A_BOLD : A_BOLD;
    } else if (rv->watch_only && rv->watch_only[0]) {
        snprintf(left, sizeof left, "READ-ONLY (%s: no pause, kill or guard)"
                 "  e export  m mark  ? help  q quit", rv->watch_only);
        if (tui_text_width(left) > b->w) /* help and quit never drop */
            snprintf(left, sizeof left, "READ-ONLY (never signalled)  e export  m mark  ? help  q quit");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD;
    } else if (rv->read_only) {
        snprintf(left, sizeof left, "READ-ONLY (a wide tree: nothing is signalled; p or k asks)"
                 "  e export  m mark  ? help  q quit");
        if (tui_text_width(left) > b->w) /* help and quit never drop */
            snprintf(left, sizeof left, "READ-ONLY (p/k ask)  e export  m mark  ? help  q quit");
        a = tui_attr(v, TUI_PAIR_WARN) | A_BOLD;
    } else if (warn) {
        tui_sanitize(warn, strlen(warn), v->ascii, -1, left, sizeof left);
        a = tui_attr(v, TUI_PAIR_WARN);
    } else {
        keys = 1;
    }
    int rw = tui_text_width(right);
    if (keys)
        fit_keys(v, rv, b->w, rw, left, sizeof left, &rw);
    /* a message or warning that does not fit beside the cost hides the cost */
    int show_right = !prompt && rw > 0 && rw <= b->w / 2 &&
                     (keys || tui_text_width(left) + rw <= b->w);
    int lw = b->w - (show_right ? rw : 0);
    if (prompt) {
        attrset(a);
        mvhline(b->y, b->x, ' ', b->w);
    }
    tui_put(b->y, b->x, lw, left, a);
    if (show_right)
        tui_put(b->y, b->x + b->w - rw, rw, right, tui_attr(v, TUI_PAIR_DIM));
}

/* ---- help ---- */

void tui_panel_help(const tui_view *v)
{
    static const char *const lines[] = {
        "stagetop keys",
        "p      pause / resume the whole job (SIGSTOP / SIGCONT)",
        "k      kill the job (asks; SIGTERM, later SIGKILL)",
        "       p and k: the whole job, whatever row is selected",
        "e      export the trace as JSON (path shown below)",
        "m      add a mark (asks for a label; Enter alone: none)",
        "s      stage table   o  the job's output   l  CPU lanes",
        "space  freeze the graphs (left/right move them)",
        "+ -    zoom the time window in / out",
        "f      fit the whole run   T  time axis: clock / ago",
        "up down PgUp PgDn Home End   select a process",
        "< >    sort column   I invert   M footprint   P CPU",
        "t      tree view (children under their parents)",
        "\\      filter   /  search (command or pid)   F3 next",
        "Esc    clear the filter",
        "?      this help   Ctrl-L redraw",
        "q      quit (asks to resume a job that stagetop paused)",
        "markers: S stage L load R release M mark P pause",
        "         C resume K kill X exit B budget",
        "         2-9 + several events in one column",
        "any key closes this help",
    };
    tui_view_help(v, lines, (int)(sizeof lines / sizeof lines[0]));
}

/* ---- the guard's alert: what crossed which limit, and what to do ---- */

void tui_panel_alert(const tui_view *v, const st_run_view *rv)
{
    const st_guard_verdict *g = &rv->verdict;
    char what[96], limit[96], a[32], b[32];
    if (g->reason == ST_GUARD_SWAP) {
        snprintf(what, sizeof what, "swap grew %s since the job %s",
                 st_format_bytes((uint64_t)g->value, a, sizeof a),
                 g->since_resume ? "was resumed" : "started");
        snprintf(limit, sizeof limit, "over the --swap-budget of %s",
                 st_format_bytes((uint64_t)g->limit, b, sizeof b));
    } else {
        snprintf(what, sizeof what, "memory available %.1f%%, two samples in a row",
                 g->value / 100.0);
        snprintf(limit, sizeof limit, "under the --kill-free limit of %.1f%%", g->limit / 100.0);
    }
    char share[96] = ""; /* the job's share, where the OS tells it (docs/guard.md) */
    if (g->reason == ST_GUARD_SWAP && g->share_kind != ST_SHARE_NONE) {
        st_format_bytes((uint64_t)(g->share < 0 ? -g->share : g->share), a, sizeof a);
        snprintf(share, sizeof share, g->share_kind == ST_SHARE_TREE_SWAP
                 ? "%s%s of it is this job's own memory"
                 : g->share_kind == ST_SHARE_TREE_COMPRESSED
                 ? "the job's compressed memory grew %s%s (not a share of the swap)"
                 : "the job paged in %s%s meanwhile",
                 g->share < 0 ? "-" : "", a);
    }
    const char *const lines[] = {
        "BUDGET CROSSED: job paused",
        "",
        what,
        limit,
        share,
        "",
        "Every process of the tree is stopped (SIGSTOP); nothing was lost.",
        "p  resume (the budget then counts from here)",
        "k  kill the job        e  export the trace",
    };
    tui_view_help(v, lines, (int)(sizeof lines / sizeof lines[0]));
}

