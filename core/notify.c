/* notify.c: what to notify about, and the bytes that say it
 * (include/stagetop/notify.h; docs/notify.md). */
#include "stagetop/notify.h"

#include <stdio.h>
#include <string.h>

#include "stagetop/jobctl.h"
#include "stagetop/units.h"
#include "stagetop/utf8.h"

void st_notifier_init(st_notifier *n)
{
    memset(n, 0, sizeof *n);
    n->gap_s = ST_NOTIFY_GAP_S;
}

int st_notify_allow(st_notifier *n, int kind, double now)
{
    if (kind < 0 || kind >= ST_NOTIFY_NKINDS)
        return 0;
    if (n->sent[kind] && now - n->last[kind] < n->gap_s) {
        n->held[kind]++;
        return 0;
    }
    n->sent[kind] = 1;
    n->last[kind] = now;
    return 1;
}

size_t st_notify_clean(const char *in, int no_semicolon, char *out, size_t outlen)
{
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t n = strlen((const char *)s), i = 0, o = 0;
    if (outlen == 0)
        return 0;
    while (i < n) {
        uint32_t cp = 0;
        int step = st_utf8_decode(s + i, n - i, &cp);
        const char *unit;
        char one[2] = {0, 0};
        size_t ulen;
        if (step == 0) {
            unit = "?"; ulen = 1; step = 1;
        } else if (cp == '\t' || cp == '\n' || cp == '\r') {
            unit = " "; ulen = 1;
        } else if (st_utf8_unsafe(cp)) { /* utf8.h */
            unit = "?"; ulen = 1;
        } else if (cp == ';' && no_semicolon) {
            unit = ","; ulen = 1;
        } else if (step == 1) {
            one[0] = (char)cp;
            unit = one; ulen = 1;
        } else {
            unit = (const char *)s + i; ulen = (size_t)step;
        }
        if (o + ulen + 1 > outlen)
            break;
        memcpy(out + o, unit, ulen);
        o += ulen;
        i += (size_t)step;
    }
    out[o] = '\0';
    return o;
}

/* ---- the bytes ---- */

typedef struct obuf { char *p; size_t len, cap; int full; } obuf;

static void put(obuf *b, const char *s, size_t n)
{
    if (b->full || b->len + n + 1 > b->cap) {
        b->full = 1;
        return;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void puts_(obuf *b, const char *s) { put(b, s, strlen(s)); }

/* One OSC sequence (text after "ESC ]", ended by ST), plain or for tmux. */
static void put_osc(obuf *b, int tmux, const char *a, const char *c, const char *d)
{
    const char *parts[3] = {a, c, d};
    if (tmux)
        puts_(b, "\033Ptmux;\033\033]"); /* inner ESCs doubled */
    else
        puts_(b, "\033]");
    for (int i = 0; i < 3; i++)
        if (parts[i])
            puts_(b, parts[i]); /* clean text: holds no ESC */
    puts_(b, tmux ? "\033\033\\\033\\" : "\033\\");
}

size_t st_notify_format(const st_notify_msg *msg, int tmux, char *out, size_t outlen)
{
    char title[sizeof msg->title], body[sizeof msg->body];
    obuf b = {out, 0, outlen, 0};
    if (outlen == 0)
        return 0;
    out[0] = '\0';
    st_notify_clean(msg->title, 1, title, sizeof title);
    st_notify_clean(msg->body, 1, body, sizeof body); /* some OSC 777 readers split all ';' */
    puts_(&b, "\a");
    char text[sizeof title + sizeof body + 4];
    snprintf(text, sizeof text, "%s: %s", title, body);
    put_osc(&b, tmux, "9;", text, NULL);
    char head[sizeof title + 16];
    snprintf(head, sizeof head, "777;notify;%s;", title);
    put_osc(&b, tmux, head, body, NULL);
    if (b.full) {
        out[0] = '\0';
        return 0;
    }
    return b.len;
}

/* ---- what to say ---- */

static st_notify_msg *msg_new(st_notifier *n, const st_run_view *v, int kind, double now,
                              st_notify_msg *out, int *k, int max)
{
    if (*k >= max || !st_notify_allow(n, kind, now))
        return NULL;
    st_notify_msg *g = &out[(*k)++];
    char cmd[64];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    st_notify_clean(v->meta ? v->meta->command : "", 1, cmd, sizeof cmd);
    if (cmd[0])
        snprintf(g->title, sizeof g->title, "stagetop: %s", cmd);
    else
        snprintf(g->title, sizeof g->title, "stagetop: pid %ld", (long)v->job_pid);
    return g;
}

static void say_budget(const st_run_view *rv, const st_event *ev, st_notify_msg *g)
{
    char v[32], l[32];
    const char *did = strcmp(ev->note, "kill") == 0 ? "stopping the job" : "job paused";
    if (st_run_view_find(rv, ST_WARN_GUARD) && !rv->guard_tripped)
        did = "but the job could not be stopped";
    if (strcmp(ev->name, "swap") == 0) {
        char share[80] = ""; /* the job's own share, where the OS tells it (docs/guard.md) */
        if ((ev->has & ST_EVF_NBYTES) && rv->verdict.share_kind != ST_SHARE_NONE) {
            char s[32];
            st_format_bytes(ev->nbytes, s, sizeof s);
            snprintf(share, sizeof share, rv->verdict.share_kind == ST_SHARE_TREE_SWAP
                     ? "; %s of it is the job's own"
                     : rv->verdict.share_kind == ST_SHARE_TREE_COMPRESSED
                     ? "; the job's compressed memory grew %s" : "; the job paged in %s", s);
        }
        snprintf(g->body, sizeof g->body, "swap grew %s since the guard was armed, over the budget of %s: %s%s",
                 st_format_bytes(ev->value > 0 ? (uint64_t)ev->value : 0, v, sizeof v),
                 st_format_bytes(ev->limit > 0 ? (uint64_t)ev->limit : 0, l, sizeof l), did, share);
    } else
        snprintf(g->body, sizeof g->body, "memory level %.2f%% under %.2f%%: %s",
                 (double)ev->value / 100.0, (double)ev->limit / 100.0, did);
}

static void say_exit(const st_run_view *v, const st_event *ev, st_notify_msg *g)
{
    char peak[32], how[48];
    if (ev->has & ST_EVF_VALUE)
        snprintf(how, sizeof how, "exit status %lld", (long long)ev->value);
    else
        snprintf(how, sizeof how, "it is gone");
    snprintf(g->body, sizeof g->body, "job %ld ended (%s), peak footprint %s", (long)v->job_pid, how,
             st_format_bytes(v->summary ? v->summary->peak_footprint : 0, peak, sizeof peak));
}

int st_notify_check(st_notifier *n, const st_run_view *v, double now, st_notify_msg *out, int max)
{
    int k = 0;
    const st_guard_opts *go = &v->guard_opts;
    int alive = v->job_state != ST_JOB_EXITED;
    const st_sample *last = v->last;
    st_notify_msg *g;
    char a[32], b[32];

    if (v->guard_active && go->has_kill_free && last && (last->valid & ST_F_LEVEL)) {
        int in = (unsigned)last->level_c <= (unsigned)go->kill_free_c + ST_NOTIFY_LEVEL_BAND_C;
        if (in && !n->in_level_band && alive && (g = msg_new(n, v, ST_NOTIFY_LEVEL, now, out, &k, max)))
            snprintf(g->body, sizeof g->body, "memory level %.2f%%, within 5 points of --kill-free %.2f%%",
                     last->level_c / 100.0, go->kill_free_c / 100.0);
        n->in_level_band = in;
    }
    if (v->guard_active && go->has_swap_budget && v->has_guard_base && last &&
        (last->valid & ST_F_SWAP)) {
        uint64_t base = v->guard_swap_base, now_b = last->swap_used;
        uint64_t grown = now_b > base ? now_b - base : 0;
        int in = (double)grown * 100.0 >= (double)go->swap_budget * ST_NOTIFY_SWAP_PCT;
        if (in && !n->in_swap_band && alive && (g = msg_new(n, v, ST_NOTIFY_SWAP, now, out, &k, max)))
            snprintf(g->body, sizeof g->body, "swap grew %s since the guard was armed, %.0f%% of the budget of %s",
                     st_format_bytes(grown, a, sizeof a),
                     go->swap_budget ? (double)grown * 100.0 / (double)go->swap_budget : 100.0,
                     st_format_bytes(go->swap_budget, b, sizeof b));
        n->in_swap_band = in;
    }
    const st_event *budget = NULL, *exit_ev = NULL;
    for (size_t i = n->events_seen < v->n_events ? n->events_seen : v->n_events;
         i < v->n_events; i++) {
        const st_event *ev = &v->events[i];
        if (ev->kind == ST_EV_BUDGET)
            budget = ev;
        else if (ev->kind == ST_EV_EXIT)
            exit_ev = ev;
    }
    n->events_seen = v->n_events;
    if (budget && (g = msg_new(n, v, ST_NOTIFY_GUARD, now, out, &k, max)))
        say_budget(v, budget, g);
    if (exit_ev && (g = msg_new(n, v, ST_NOTIFY_EXIT, now, out, &k, max)))
        say_exit(v, exit_ev, g);
    return k;
}
