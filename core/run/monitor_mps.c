/* monitor_mps.c: the start record's MPS keys (docs/trace-format.md, "The
 * start record"; what they mean: docs/metrics.md "The MPS cap").
 *
 * PyTorch caps one process's MPS allocations at
 * PYTORCH_MPS_HIGH_WATERMARK_RATIO x the Metal device's recommended working
 * set.  The machine's half (the recommended working set, iogpu's wired
 * limit) comes from the backend's mps_device; the job's half from its
 * environment as it was launched: a launched job's own (opts.job_env), or
 * -p's root's through the backend's environ_var (macOS: KERN_PROCARGS2,
 * same user only).  A value the script sets in os.environ after it started
 * is invisible from outside: the record says "as launched". */
#include "monitor_internal.h"
#include "stagetop/json.h"

#include <stdio.h>
#include <string.h>

static const char *const VARS[2][2] = {
    {"PYTORCH_MPS_HIGH_WATERMARK_RATIO", "mps_high_watermark_ratio"},
    {"PYTORCH_MPS_LOW_WATERMARK_RATIO", "mps_low_watermark_ratio"},
};

/* name's value in a launched job's environment: 1 and val, or 0. */
static int env_find(char *const *env, const char *name, char *val, size_t len)
{
    size_t n = strlen(name);
    for (char *const *p = env; *p; p++)
        if (strncmp(*p, name, n) == 0 && (*p)[n] == '=') {
            snprintf(val, len, "%s", *p + n + 1);
            return 1;
        }
    return 0;
}

/* A member's key, a comma first unless it is the object's first. */
static void key(st_jw *w, int *any, const char *k)
{
    if (*any)
        st_jw_char(w, ',');
    *any = 1;
    st_jw_str(w, k);
    st_jw_char(w, ':');
}

int st_monitor_mps_meta(st_monitor *m, st_jw *w, int any)
{
    st_mps_device d;
    if (!m->plat->mps_device)
        return 0; /* no Metal here */
    memset(&d, 0, sizeof d);
    m->plat->mps_device(&d);
    if (d.has_recommended) {
        key(w, &any, "mps_recommended_max");
        st_jw_u64(w, d.recommended_max);
    } else {
        key(w, &any, "mps_recommended_max_absent");
        st_jw_str(w, d.why[0] ? d.why : "not read");
    }
    if (d.has_wired_limit) {
        key(w, &any, "mps_wired_limit");
        st_jw_u64(w, d.wired_limit);
    }
    const char *unread = NULL;
    st_error e;
    for (int i = 0; i < 2 && !unread; i++) {
        char val[64] = "";
        int set = 0;
        if (m->opts.job_env) {
            set = env_find(m->opts.job_env, VARS[i][0], val, sizeof val);
        } else if (!m->plat->environ_var) {
            unread = "this platform reads no process's environment";
        } else {
            st_error_clear(&e);
            if (m->plat->environ_var(m->b, m->tree.root, VARS[i][0], val, sizeof val, &e) != ST_OK)
                unread = e.msg[0] ? e.msg : "not readable";
            set = !unread && val[0];
        }
        if (set) {
            key(w, &any, VARS[i][1]);
            st_jw_str(w, val);
        }
    }
    key(w, &any, "mps_env");
    if (unread) {
        char why[200];
        snprintf(why, sizeof why, "not readable: %.180s", unread);
        st_jw_str(w, why);
    } else {
        st_jw_str(w, "as launched");
    }
    return 1;
}
