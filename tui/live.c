/* live.c: the live screen's loop: one select() on the keyboard and the signal
 * pipe whose timeout is the sooner of the next sample's deadline and the
 * next frame.  Sampling follows st_monitor_deadline(); frames come at most
 * every redraw_s seconds (and once a second for the clock), so sampling at
 * 10 ms does not draw 100 frames a second. */
#include "tui.h"
#include "outputs.h"
#include "sanitize.h"
#include "view.h"
#include "viewdraw.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stagetop/clock.h"

typedef struct live {
    st_monitor *m;
    const tui_opts *o;
    tui_view v;
    int quit, keep_paused, dirty;
    int quit_after_kill; /* q while killing: quit once the job is gone */
} live;

/* What the screen reads of the run: a fresh view (run_view.h). */
static void view_of(const live *s, double now, st_run_view *rv)
{
    st_monitor_view(s->m, now, rv);
}

static void do_pause(live *s, double now)
{
    st_monitor *m = s->m;
    st_run_view rv;
    st_error e;
    st_error_clear(&e);
    view_of(s, now, &rv);
    if (rv.job_state == ST_JOB_EXITED) {
        tui_view_message(&s->v, now, 1, "the job has exited");
        return;
    }
    if (rv.job_state == ST_JOB_KILLING) {
        tui_view_message(&s->v, now, 1, "the job is being killed");
        return;
    }
    int resume = rv.job_state == ST_JOB_PAUSED;
    int rc = resume ? st_monitor_resume(m, now, &e) : st_monitor_pause(m, now, &e);
    view_of(s, now, &rv);
    if (rc != ST_OK)
        tui_view_message(&s->v, now, 1, "%s failed: %s", resume ? "resume" : "pause", e.msg);
    else if (rv.refused)
        tui_view_message(&s->v, now, 1, "%s %d process(es); %d refused (%s)",
                         resume ? "resumed" : "paused", rv.signalled, rv.refused, rv.refusal);
    else
        tui_view_message(&s->v, now, 0, "%s %d process(es)%s", resume ? "resumed" : "paused",
                         rv.signalled, resume ? "" : " (SIGSTOP); p resumes");
}

static void do_kill(live *s, double now)
{
    st_error e;
    st_run_view rv;
    st_error_clear(&e);
    int rc = st_monitor_kill(s->m, now, &e);
    view_of(s, now, &rv);
    if (rc != ST_OK)
        tui_view_message(&s->v, now, 1, "kill failed: %s", e.msg);
    else if (rv.refused)
        tui_view_message(&s->v, now, 1, "SIGTERM sent to %d process(es); %d refused (%s)",
                         rv.signalled, rv.refused, rv.refusal);
    else
        tui_view_message(&s->v, now, 0, "SIGTERM sent to %d process(es); SIGKILL after %gs",
                         rv.signalled, rv.grace_s);
}

static void do_export(live *s, double now)
{
    char path[1024];
    st_error e;
    st_error_clear(&e);
    st_monitor_export_path(s->m, s->o->export_dir, path, sizeof path);
    if (st_monitor_export(s->m, path, &e) != ST_OK)
        tui_view_message(&s->v, now, 1, "export failed: %s", e.msg);
    else
        tui_view_message(&s->v, now, 0, "exported %s", path);
}

/* A mark with the label typed at the prompt (none when empty). */
static void do_mark(live *s, double now)
{
    st_error e;
    st_error_clear(&e);
    if (st_monitor_mark(s->m, s->v.input_len ? s->v.input : NULL, now, &e) != ST_OK)
        tui_view_message(&s->v, now, 1, "mark failed: %s", e.msg);
    else
        tui_view_message(&s->v, now, 0, "mark added%s%s", s->v.input_len ? ": " : "", s->v.input);
}

static void on_key(live *s, int ch, double now)
{
    tui_view *v = &s->v;
    st_monitor *m = s->m;
    st_run_view rv;
    view_of(s, now, &rv);
    s->dirty = 1;
    if (ch == KEY_RESIZE) {
        tui_view_resize(v, &rv);
        return;
    }
    if (ch == 12) { /* Ctrl-L */
        clearok(curscr, TRUE);
        return;
    }
    if (v->prompt == TUI_PROMPT_MARK) {
        if (tui_is_enter(ch)) {
            v->prompt = TUI_PROMPT_NONE;
            do_mark(s, now);
        } else if (ch == 27) {
            v->prompt = TUI_PROMPT_NONE;
            tui_view_message(v, now, 0, "no mark");
        } else {
            tui_view_input_key(v, ch);
        }
        return;
    }
    if (tui_list_prompt_key(v, &rv, ch, now)) /* the filter's and the search's prompts */
        return;
    if (v->prompt == TUI_PROMPT_KILL) {
        v->prompt = TUI_PROMPT_NONE;
        if (ch == 'y' || ch == 'Y')
            do_kill(s, now);
        else
            tui_view_message(v, now, 0, "not killed");
        return;
    }
    if (v->prompt == TUI_PROMPT_WIDE) {
        v->prompt = TUI_PROMPT_NONE;
        int allow = ch == 'y' || ch == 'Y';
        st_monitor_allow_signals(m, allow);
        tui_view_message(v, now, 0, !allow ? "still read-only" :
                         "signals allowed: p pauses, k kills, the guard acts");
        return;
    }
    if (v->prompt == TUI_PROMPT_QUIT) {
        if (ch == 'y' || ch == 'Y' || ch == 'n' || ch == 'N') {
            s->keep_paused = ch == 'n' || ch == 'N';
            s->quit = 1;
        } else if (ch == 'c' || ch == 'C' || ch == 27 || ch == 'q') {
            v->prompt = TUI_PROMPT_NONE;
        }
        return;
    }
    if (v->prompt == TUI_PROMPT_QUIT_LAUNCHED) {
        v->prompt = TUI_PROMPT_NONE;
        if (ch == 'k' || ch == 'K') { /* kill, then quit once it is gone */
            do_kill(s, now);
            s->quit_after_kill = 1;
        } else if (ch == 'l' || ch == 'L') {
            s->quit = 1; /* a job paused by stagetop is still resumed at exit */
        }
        return;
    }
    if (v->help) {
        v->help = 0;
        return;
    }
    if (tui_details_key(v, &rv, ch, now)) /* Enter: the selected process's details */
        return;
    /* p and k act on the whole job, whatever row is selected; P sorts */
    if (rv.watch_only && rv.watch_only[0] && (ch == 'p' || ch == 'k' || ch == 'K')) {
        tui_view_message(v, now, 1, "not %s: watched read-only: %s", ch == 'k' || ch == 'K' ?
                         "killing" : "pausing", rv.watch_only); /* nothing lifts it */
        return;
    }
    if (rv.read_only && (ch == 'p' || ch == 'k' || ch == 'K') &&
        rv.job_state != ST_JOB_EXITED) {
        v->prompt = TUI_PROMPT_WIDE; /* confirm first; the key is pressed again after */
        return;
    }
    if (v->log) { /* the job's output is open: scroll keys are its own */
        switch (ch) {
        case KEY_UP: v->log_scroll++; return;
        case KEY_DOWN: v->log_scroll -= v->log_scroll > 0; return;
        case KEY_PPAGE: v->log_scroll += 10; return;
        case KEY_NPAGE: v->log_scroll = v->log_scroll > 10 ? v->log_scroll - 10 : 0; return;
        case KEY_END: v->log_scroll = 0; return;
        default: break;
        }
    }
    if (tui_list_key(v, &rv, ch, now)) /* select, sort, tree, filter, search */
        return;
    switch (ch) {
    case 'o': case 'O':
        v->log = !v->log;
        v->log_scroll = 0;
        break;
    case 'p': do_pause(s, now); break;
    case 'k': case 'K':
        if (rv.job_state == ST_JOB_EXITED)
            tui_view_message(v, now, 1, "the job has exited");
        else
            v->prompt = TUI_PROMPT_KILL;
        break;
    case 'e': case 'E': do_export(s, now); break;
    case 'm': /* asks for a label: Enter adds the mark (M sorts by footprint) */
        v->prompt = TUI_PROMPT_MARK;
        v->input_len = 0;
        v->input[0] = '\0';
        break;
    case ' ': tui_view_freeze(v, &rv); break;
    case '+': case '=': tui_view_zoom(v, 1); break;
    case '-': case '_': tui_view_zoom(v, -1); break;
    case 'f': case 'F': /* the whole run, as replay's f; it keeps fitting as the run grows */
        v->fit = 1;
        tui_view_fit(v, &rv);
        break;
    case 'T': v->clock_axis = !v->clock_axis; break;
    case KEY_LEFT: tui_view_pan(v, &rv, -1); break;
    case KEY_RIGHT: tui_view_pan(v, &rv, 1); break;
    case 's': case 'S': v->stages = !v->stages; break;
    case 'l': case 'L':
        tui_lanes_toggle_activity(v, &rv);
        tui_view_resize(v, &rv);
        break;
    case '?': case 'h': case 'H': case KEY_F(1): v->help = 1; break;
    case 'q': case 'Q':
        if (rv.paused_by_us && rv.job_state == ST_JOB_PAUSED) {
            v->prompt = TUI_PROMPT_QUIT;
        } else if (rv.job_launched && (rv.job_state == ST_JOB_RUNNING || rv.job_state == ST_JOB_STOPPED)) {
            v->prompt = TUI_PROMPT_QUIT_LAUNCHED;
        } else if (rv.job_state == ST_JOB_KILLING && !s->quit_after_kill) {
            /* leaving now would skip the SIGKILL that follows the grace */
            s->quit_after_kill = 1;
            tui_view_message(v, now, 0, "quitting once the job is gone (q again: quit now)");
        } else {
            s->quit = 1;
        }
        break;
    default: s->dirty = 0; break;
    }
}

int tui_live(st_monitor *m, const tui_opts *o, int *keep_paused, st_error *err)
{
    SCREEN *scr = NULL;
    live s;
    *keep_paused = 0;
    int rc = tui_term_start(o, &scr, err);
    if (rc != ST_OK)
        return rc;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.o = o;
    WINDOW *keys_in = tui_term_keys();
    tui_view_init(&s.v, o);
    int empty = 0; /* ready keys with none read: tui_term_gone */
    s.v.mon = m;
    tui_view_colors(&s.v);
    st_run_view rv;
    view_of(&s, st_now(), &rv);
    tui_view_resize(&s.v, &rv);
    if (o->job_log && *o->job_log) /* where the job's output goes, said first */
        tui_view_message(&s.v, st_now(), 0, "the job's output goes to %s (o shows it)", o->job_log);
    if (rv.env_follow && rv.env_follow[0]) { /* -p: its environment's stage files */
        char safe[4 * 600 + 8];
        tui_sanitize(rv.env_follow, strlen(rv.env_follow), s.v.ascii, -1, safe, sizeof safe);
        tui_view_message(&s.v, st_now(), 0, "%s", safe);
    }
    if (rv.samples_total == 0) /* starting the screen is not a missed deadline */
        st_monitor_start(m, st_now());
    double redraw = o->redraw_s > 0 ? o->redraw_s : 0.1;
    double last_frame = -1e9;
    size_t drawn_events = 0, drawn_members = (size_t)-1;
    s.dirty = 1;
    while (!s.quit && !(o->got_signal && *o->got_signal)) {
        double now = st_now();
        if (now >= st_monitor_deadline(m)) {
            st_error e;
            st_error_clear(&e);
            if (st_monitor_step(m, now, &e) != ST_OK)
                tui_view_message(&s.v, now, 1, "sampling: %s", e.msg);
            else if (o->outs && tui_outputs_after_sample(o->outs, m, now))
                tui_view_message(&s.v, now, 1, "%s", o->outs->error);
            view_of(&s, now, &rv);
            if (!s.v.has_wall0 && rv.samples_total > 0 && rv.job_state != ST_JOB_EXITED)
                tui_view_wall0(&s.v, st_wall_now() - rv.uptime_s); /* the clock axis (T) */
            tui_crash_job(&rv);
            s.dirty = 1;
            if (rv.n_members != drawn_members) { /* the list may need rows */
                drawn_members = rv.n_members;
                tui_view_resize(&s.v, &rv);
            }
        }
        view_of(&s, now, &rv);
        if (s.quit_after_kill && rv.job_state != ST_JOB_KILLING)
            break;
        if (rv.n_events != drawn_events) {
            drawn_events = rv.n_events;
            s.dirty = 1;
        }
        double next_frame = last_frame + (s.dirty ? redraw : 1.0);
        now = st_now();
        if (now >= next_frame) {
            if (tui_term_drawable()) {
                view_of(&s, now, &rv);
                tui_view_draw(&s.v, &rv, now);
                doupdate();
            }
            last_frame = now;
            s.dirty = 0;
            next_frame = now + 1.0;
        }
        double wake = st_monitor_deadline(m);
        if (next_frame < wake)
            wake = next_frame;
        double left = wake - st_now();
        int ms = left <= 0 ? 0 : left > 1.0 ? 1000 : (int)ceil(left * 1000.0);
        int fds[2] = {STDIN_FILENO, o->wake_fd}, ready[2];
        int r = tui_term_wait(fds, ready, 2, ms); /* never poll(): viewdraw.h */
        if (r < 0 && errno != EINTR)
            break;
        int resized = tui_term_sync_size();
        if (r < 0 || resized || ready[0]) {
            int ch, keys = 0;
            while ((ch = wgetch(keys_in)) != ERR && keys++ < 64)
                on_key(&s, ch, st_now());
            view_of(&s, st_now(), &rv);
            tui_crash_job(&rv); /* p or k may have changed what a crash must undo */
            if (s.dirty)
                last_frame = -1e9; /* answer a key at once */
            if (tui_term_gone(&empty, ready[0], keys)) {
                if (o->got_signal && !*o->got_signal)
                    *o->got_signal = SIGHUP; /* the terminal went away: a hangup */
                break;
            }
        }
    }
    tui_term_end(scr);
    tui_view_free(&s.v);
    *keep_paused = s.keep_paused;
    return ST_OK;
}
