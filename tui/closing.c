/* closing.c: the end of a watched run: the closing summary on stderr (as
 * /usr/bin/time -v gives one process's), the tail of a failed job's log,
 * the empty log removed, and --report / --plot written from the run. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sanitize.h"
#include "stagetop/lanes.h"
#include "stagetop/plot.h"
#include "stagetop/limits.h"
#include "stagetop/sb.h"
#include "stagetop/stage_table.h"
#include "stagetop/units.h"
#include "stagetop/utf8.h"

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    default: return "";
    }
}

/* One line's text made safe for the terminal: every character the one
 * classifier calls unsafe (utf8.h's st_utf8_unsafe: C0, DEL, C1, bidi
 * controls, separators) and every byte that is not valid UTF-8 (a raw C1
 * byte 0x80-0x9f among them) becomes '?'; a tab a space. */
static void put_safe(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    while (p < e) {
        uint32_t cp = 0;
        int len = st_utf8_decode(p, (size_t)(e - p), &cp);
        if (len == 0) {
            fputc('?', f);
            p++;
            continue;
        }
        if (cp == '\t')
            fputc(' ', f);
        else if (st_utf8_unsafe(cp))
            fputc('?', f);
        else
            fwrite(p, 1, (size_t)len, f);
        p += len;
    }
}

void cli_log_tail(FILE *f, const char *path, int lines)
{
    if (!path || !*path || lines <= 0)
        return;
    /* The job can put anything at its log's name: a FIFO (a blocking open
     * or read would hang the end of the run before the record's end is
     * written), a device.  Opened without blocking; a regular file only. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fputs("  | (not a regular file: not read)\n", f);
        close(fd);
        return;
    }
    FILE *in = fdopen(fd, "rb");
    if (!in) {
        close(fd);
        return;
    }
    char buf[8192];
    long size = (fseek(in, 0, SEEK_END) == 0) ? ftell(in) : -1;
    long from = size > (long)sizeof buf - 1 ? size - ((long)sizeof buf - 1) : 0;
    size_t n = 0;
    if (size > 0 && fseek(in, from, SEEK_SET) == 0)
        n = fread(buf, 1, sizeof buf - 1, in);
    fclose(in);
    while (n > 0 && buf[n - 1] == '\n')
        n--;
    if (n == 0)
        return;
    size_t start = n;
    int seen = 0;
    while (start > 0 && seen < lines)
        if (buf[--start] == '\n' && ++seen == lines)
            start++;
    if (from > 0 && seen < lines) { /* the first line was cut: skip it */
        char *nl = memchr(buf, '\n', n);
        start = nl ? (size_t)(nl - buf) + 1 : 0;
    }
    while (start < n) {
        char *nl = memchr(buf + start, '\n', n - start);
        size_t end = nl ? (size_t)(nl - buf) : n;
        fputs("  | ", f);
        put_safe(f, buf + start, end - start > 300 ? 300 : end - start);
        fputc('\n', f);
        start = end + 1;
    }
}

int cli_log_drop_empty(char *path, int chosen)
{
    struct stat st;
    if (chosen || !path || !*path || lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0)
        return 0;
    if (unlink(path) != 0)
        return 0;
    path[0] = '\0';
    return 1;
}

#define CLI_CLOSING_STAGES 20 /* stage table lines in the closing summary, header and "more" line in */

static void row(FILE *f, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(FILE *f, const char *name, const char *fmt, ...)
{
    va_list ap;
    fprintf(f, "  %-16s", name);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

/* Text of a cgroup's making (its path) made safe for the terminal. */
static const char *clean(const char *in, char *out, size_t size)
{
    tui_sanitize(in, strlen(in), 0, 200, out, size); /* the one sanitiser */
    return out;
}

/* The memory limit that bound the job (docs/metrics.md, "The limit that
 * binds"): its bytes, where, and the least room the run saw. */
static void limit_row(FILE *f, const st_run_view *rv, char *safe, size_t size)
{
    const st_trace_limit *l = &rv->limit;
    const st_summary *s = rv->summary;
    char a[32], b[32];
    if (!l->has_cgroup)
        return;
    if (!l->has_limit) {
        row(f, "memory limit", "none (no memory limit on cgroup %s or above it)",
            clean(l->cgroup, safe, size));
        return;
    }
    st_format_bytes(l->limit, a, sizeof a);
    if (s && (s->lanes.has & ST_F_LIMIT_FREE))
        row(f, "memory limit", "%s (%s of %s); least room %s", a, l->limit_file,
            clean(l->limit_cgroup, safe, size),
            st_format_bytes(s->lanes.min[ST_LANE_LIMIT_FREE], b, sizeof b));
    else
        row(f, "memory limit", "%s (%s of %s)", a, l->limit_file, clean(l->limit_cgroup, safe, size));
}

void cli_closing_summary(FILE *f, const st_run_view *rv, const cli_closing *c)
{
    const st_summary *s = rv->summary;
    char a[32], b[32], d[32];
    fprintf(f, "stagetop: run summary (pid %ld)\n", (long)rv->job_pid);
    char text[400]; /* a cgroup path or the OOM note, cleaned */
    if (rv->job_launched && rv->job_state == ST_JOB_EXITED && rv->exit_code >= 0) {
        if (rv->exit_code > 128 && *sig_name(rv->exit_code - 128) && rv->oom_root)
            row(f, "job", "exit status %d (signal %d, %s): %s", rv->exit_code, rv->exit_code - 128,
                sig_name(rv->exit_code - 128), clean(rv->oom_note, text, sizeof text));
        else if (rv->exit_code > 128 && *sig_name(rv->exit_code - 128))
            row(f, "job", "exit status %d (signal %d, %s)", rv->exit_code, rv->exit_code - 128,
                sig_name(rv->exit_code - 128));
        else
            row(f, "job", "exit status %d", rv->exit_code);
    } else if (rv->job_state == ST_JOB_EXITED) {
        row(f, "job", "ended (its last process exited)");
    } else {
        row(f, "job", "still %s when stagetop ended%s%s", rv->job_state == ST_JOB_PAUSED ? "paused"
            : "running", c->signo ? " by " : "", c->signo ? sig_name(c->signo) : "");
    }
    if (rv->oom_note && rv->oom_note[0] && !rv->oom_root)
        row(f, "OOM killer", "%s", clean(rv->oom_note, text, sizeof text));
    limit_row(f, rv, text, sizeof text);
    if (!s || s->n_samples == 0) {
        row(f, "samples", "none");
    } else {
        row(f, "duration", "%s (%zu samples)",
            st_format_duration((s->last_t_ms - s->first_t_ms) / 1000.0, a, sizeof a), s->n_samples);
        if (s->has_kernel_peak)
            row(f, "peak footprint", "%s (%s %s, %s)",
                st_format_bytes(s->peak_footprint, a, sizeof a),
                strcmp(s->kernel_peak_source, "cgroup") == 0
                    ? "the tree's kernel peak, page cache in, swap out:" /* memory.peak */
                    : "largest process's peak",
                st_format_bytes(s->kernel_peak, b, sizeof b),
                s->kernel_peak_source[0] ? s->kernel_peak_source : "source unknown");
        else
            row(f, "peak footprint", "%s", st_format_bytes(s->peak_footprint, a, sizeof a));
        uint64_t procs = (s->lanes.has & ST_F_PROCS) ? s->lanes.max[ST_LANE_PROCS] : 0;
        if (st_lanes_shared_per_process(rv->footprint_metric, procs)) /* docs/metrics.md */
            row(f, "definition", "%s, " ST_FOOTPRINT_SHARED_NOTE " (up to %llu processes)",
                rv->footprint_metric, (unsigned long long)procs);
        if (s->lanes.has & ST_F_FOOTPRINT_AGE) /* the proportional corrections' age */
            row(f, "footprint age", "at most %.2fs (the oldest correction the footprint carried)",
                s->lanes.max[ST_LANE_FOOTPRINT_AGE] / 100.0);
        if (s->has_swap && rv->sys_start.swap_total == 0 && !(rv->sys.valid & ST_SYS_SWAPTOTAL && rv->sys.swap_total))
            row(f, "swap", "none configured");
        else if (s->has_swap)
            row(f, "swap", "%s -> peak %s; swap growth %s%s (end - start)",
                st_format_bytes(s->swap_start, a, sizeof a), st_format_bytes(s->swap_peak, b, sizeof b),
                s->swap_end >= s->swap_start ? "+" : "-",
                st_format_bytes(s->swap_end >= s->swap_start ? s->swap_end - s->swap_start
                                                              : s->swap_start - s->swap_end, d, sizeof d));
        if (s->has_level)
            row(f, "min level", "%.1f%%", s->min_level_c / 100.0);
        st_mps_advice mps; /* a Mac job that used Metal: what its MPS cap means */
        if (rv->meta && st_trace_mps(rv->meta, s, &mps) != ST_MPS_NONE)
            row(f, "mps", "%s", mps.line);
        if (s->n_pauses) /* the guard's and the user's (docs/trace-format.md, "pauses") */
            row(f, "paused", "%llu time%s, %s in all (%llu by the guard)%s",
                (unsigned long long)s->n_pauses, s->n_pauses == 1 ? "" : "s",
                st_format_duration(st_summary_paused_ms(s) / 1000.0, a, sizeof a),
                (unsigned long long)s->n_guard_pauses, s->paused ? "; still paused at the end" : "");
        /* The one stage table (stage_table.h), repeated stages grouped, in
         * 80 columns; a stage flood gives thousands of windows: the first
         * ones, then how many more (the record lists them all). */
        st_stage_table_opts o = {.width = 80, .indent = 2, .max_lines = CLI_CLOSING_STAGES - 1,
                                 .more_hint = "(stagetop summary --text of the record lists them)"};
        st_sb w;
        st_error e;
        st_sb_init(&w);
        if (!s->n_stage_events) /* a row as the others (the table would say "no stages") */
            row(f, "stages", "none (no stage events: `stagetop stage NAME` marks one)");
        else if (st_stage_table(s, &w, &o, &e) == ST_OK && !w.oom)
            fputs(w.buf ? w.buf : "", f);
        else
            row(f, "stages", "(out of memory)");
        st_sb_free(&w);
        if (rv->stages_folded)
            row(f, "", "%llu stage events past the %d kept are one window, \"%s\" (the record has them all)",
                (unsigned long long)rv->stages_folded, ST_KEEP_STAGES, ST_LATER_STAGES);
    }
    if (c->job_where && *c->job_where)
        row(f, "ran in", "%s", c->job_where);
    if (c->record)
        row(f, "record", "%s", c->record);
    if (c->job_log && *c->job_log)
        row(f, "job log", "%s", c->job_log);
    if (c->report)
        row(f, "report", "%s", c->report);
    if (c->plot)
        row(f, "plot", "%s", c->plot);
}

int cli_end_from_record(st_monitor *m, const cli_args *a)
{
    st_run_view v;
    const char *rec = a->mon.record_path;
    size_t rl = rec ? strlen(rec) : 0;
    if ((!a->report_path && !a->plot_path) || !rec || (rl > 5 && strcmp(rec + rl - 5, ".json") == 0))
        return 0;
    st_monitor_view(m, st_now(), &v);
    return !st_run_view_find(&v, ST_WARN_RECORD);
}

int cli_end_outputs_record(const cli_args *a)
{
    int rc = 0;
    const char *rec = a->mon.record_path;
    if (a->report_path && cli_report_one(rec, rec, a->report_path) != 0)
        rc = CLI_EXIT_WATCH;
    if (a->plot_path && cli_plot(rec, a->plot_path) != 0)
        rc = CLI_EXIT_WATCH;
    return rc;
}

int cli_end_outputs(st_monitor *m, const cli_args *a)
{
    if (!a->report_path && !a->plot_path)
        return 0;
    /* The whole run (st_monitor_whole_run): its numbers as the record's
     * reading, exact; its chart from the run's series, decimated per
     * column once the run has more samples than the series has columns. */
    st_trace t;
    st_error e;
    uint64_t stand_for = 0;
    if (st_monitor_whole_run(m, &t, &stand_for, &e) != ST_OK) {
        fprintf(stderr, "stagetop: --report/--plot: %s\n", e.msg);
        return CLI_EXIT_WATCH;
    }
    st_plot_opts po;
    st_plot_opts_init(&po);
    po.samples = (size_t)stand_for;
    st_run_view rv;
    st_monitor_view(m, st_now(), &rv);
    const char *label = a->mon.record_path ? a->mon.record_path
                      : rv.meta ? rv.meta->command : "the run";
    int rc = 0;
    if (a->report_path && cli_report_trace(&t, label, a->report_path, &po) != 0)
        rc = CLI_EXIT_WATCH;
    if (a->plot_path && cli_plot_trace(&t, a->plot_path, &po) != 0)
        rc = CLI_EXIT_WATCH;
    st_trace_free(&t);
    return rc;
}
