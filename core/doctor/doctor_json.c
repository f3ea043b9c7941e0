/* doctor_json.c: the verdict of one check and the doctor's report as JSON
 * (docs/doctor.md, "JSON"), written with the trace module's writer: bytes
 * as integers, percentages as numbers of percent, states as 1/2/4. */
#include "stagetop/doctor.h"
#include "stagetop/json.h"
#include "stagetop/version.h"

void st_doctor_judge(st_doctor_check *c)
{
    uint64_t lo, hi;
    if (!c->has_value || !c->has_ref) {
        c->ok = ST_DOC_NOT_CHECKED;
        return;
    }
    lo = hi = c->value;
    if (c->has_after) {
        lo = c->after < lo ? c->after : lo;
        hi = c->after > hi ? c->after : hi;
    }
    if (c->rule == ST_DOC_AT_LEAST)
        c->ok = hi + c->tol >= c->ref ? ST_DOC_AGREES : ST_DOC_MISMATCH;
    else
        c->ok = c->ref + c->tol >= lo && c->ref <= hi + c->tol ? ST_DOC_AGREES : ST_DOC_MISMATCH;
}

/* A value in the check's unit. */
static void value(st_jw *w, const st_doctor_check *c, uint64_t v)
{
    if (c->unit == ST_DOC_PERCENT_C)
        st_jw_centi(w, (uint32_t)(v > 0xffffffffu ? 0xffffffffu : v));
    else if (c->unit == ST_DOC_STATE)
        st_jw_u64(w, v / 100);
    else if (c->unit == ST_DOC_RATIO && v == ST_DOC_UNSET)
        st_jw_lit(w, "null");
    else
        st_jw_u64(w, v);
}

static void key(st_jw *w, int *n, const char *k)
{
    if ((*n)++)
        st_jw_char(w, ',');
    st_jw_str(w, k);
    st_jw_char(w, ':');
}

static void boolean(st_jw *w, int v)
{
    if (v)
        st_jw_lit(w, "true");
    else
        st_jw_lit(w, "false");
}

static void facts(st_jw *w, const st_doctor_report *r)
{
    const st_doctor_facts *f = &r->facts;
    int n = 0, m = 0;
    st_jw_char(w, '{');
    key(w, &n, "os");
    st_jw_str(w, f->os);
    key(w, &n, "os_release");
    st_jw_str(w, f->os_release);
    key(w, &n, "backend");
    st_jw_str(w, r->platform);
    key(w, &n, "footprint_metric");
    st_jw_str(w, r->footprint_metric);
    key(w, &n, "peak_metric");
    st_jw_str(w, r->peak_metric);
    key(w, &n, "rusage_flavor");
    st_jw_str(w, f->rusage_flavor);
    key(w, &n, "kernel_peak");
    boolean(w, f->kernel_peak);
    key(w, &n, "nvml");
    st_jw_char(w, '{');
    key(w, &m, "found");
    boolean(w, f->nvml_found);
    key(w, &m, "detail");
    st_jw_str(w, f->nvml_detail);
    key(w, &m, "version");
    if (f->nvml_version[0])
        st_jw_str(w, f->nvml_version);
    else
        st_jw_lit(w, "null");
    key(w, &m, "devices");
    st_jw_char(w, '[');
    for (size_t i = 0; i < f->ngpu && i < ST_DOC_MAX_GPUS; i++) {
        if (i)
            st_jw_char(w, ',');
        st_jw_str(w, f->gpu_names[i]);
    }
    st_jw_lit(w, "]}");
    key(w, &n, "psi");
    if (f->psi < 0)
        st_jw_lit(w, "null");
    else
        boolean(w, f->psi);
    key(w, &n, "other_users_readable");
    boolean(w, f->others_readable);
    key(w, &n, "other_users_detail");
    st_jw_str(w, f->others_detail);
    key(w, &n, "root");
    boolean(w, f->is_root);
    key(w, &n, "fd_limit");
    if (f->fd_soft == UINT64_MAX)
        st_jw_lit(w, "null");
    else
        st_jw_u64(w, f->fd_soft);
    key(w, &n, "fd_limit_hard");
    if (f->fd_hard == UINT64_MAX)
        st_jw_lit(w, "null");
    else
        st_jw_u64(w, f->fd_hard);
    key(w, &n, "us_per_sample");
    st_jw_fixed3(w, f->us_per_sample);
    key(w, &n, "samples_timed");
    st_jw_i64(w, f->samples_timed);
    st_jw_char(w, '}');
}

static void check(st_jw *w, const st_doctor_check *c)
{
    static const char *const units[] = {"bytes", "percent", "state", "ms", "count", "ratio_milli"};
    int n = 0;
    st_jw_char(w, '{');
    key(w, &n, "lane");
    st_jw_str(w, c->lane);
    key(w, &n, "unit");
    st_jw_str(w, units[(size_t)c->unit < sizeof units / sizeof *units ? c->unit : 0]);
    key(w, &n, "stagetop");
    if (c->has_value)
        value(w, c, c->value);
    else
        st_jw_lit(w, "null");
    key(w, &n, "stagetop_after");
    if (c->has_after)
        value(w, c, c->after);
    else
        st_jw_lit(w, "null");
    key(w, &n, "reference");
    if (c->has_ref)
        value(w, c, c->ref);
    else
        st_jw_lit(w, "null");
    key(w, &n, "source");
    st_jw_str(w, c->source);
    key(w, &n, "tolerance");
    value(w, c, c->tol);
    key(w, &n, "rule");
    st_jw_str(w, c->rule == ST_DOC_AT_LEAST ? "at_least" : "within");
    key(w, &n, "ok");
    if (c->ok == ST_DOC_NOT_CHECKED)
        st_jw_lit(w, "null");
    else
        boolean(w, c->ok == ST_DOC_AGREES);
    key(w, &n, "note");
    st_jw_str(w, c->note);
    st_jw_char(w, '}');
}

/* What the MPS cap means (null: not a Mac process that uses Metal). */
static void mps(st_jw *w, const st_mps_advice *a)
{
    static const char *const kinds[] = {"none", "swap", "under", "no_limit", "refused", "unknown"};
    int n = 0;
    if (a->kind == ST_MPS_NONE || a->kind < 0 || a->kind > ST_MPS_UNKNOWN) {
        st_jw_lit(w, "null");
        return;
    }
    st_jw_char(w, '{');
    key(w, &n, "kind");
    st_jw_str(w, kinds[a->kind]);
    key(w, &n, "cap");
    if (a->kind == ST_MPS_SWAP || a->kind == ST_MPS_UNDER)
        st_jw_u64(w, a->cap);
    else
        st_jw_lit(w, "null");
    key(w, &n, "line");
    st_jw_str(w, a->line);
    st_jw_char(w, '}');
}

void st_doctor_json(st_jw *w, const st_doctor_report *r)
{
    int n = 0;
    st_jw_char(w, '{');
    key(w, &n, "platform");
    st_jw_str(w, r->platform);
    key(w, &n, "version");
    st_jw_str(w, st_version());
    key(w, &n, "pid");
    st_jw_i64(w, r->pid);
    key(w, &n, "own_child");
    boolean(w, r->own_child);
    if (r->own_child) {
        key(w, &n, "child_bytes");
        st_jw_u64(w, r->child_bytes);
    }
    key(w, &n, "facts");
    facts(w, r);
    key(w, &n, "checks");
    st_jw_char(w, '[');
    for (size_t i = 0; i < r->n; i++) {
        if (i)
            st_jw_char(w, ',');
        check(w, &r->checks[i]);
    }
    st_jw_char(w, ']');
    key(w, &n, "mps");
    mps(w, &r->mps);
    key(w, &n, "ok");
    boolean(w, r->ok);
    st_jw_lit(w, "}\n");
}

int st_doctor_json_write(int fd, const st_doctor_report *r)
{
    st_jw w;
    st_jw_init(&w, fd);
    st_doctor_json(&w, r);
    int rc = st_jw_flush(&w);
    st_jw_free(&w);
    return rc;
}
