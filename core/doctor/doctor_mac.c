/* doctor_mac.c: `stagetop doctor`'s checks of the Mac numbers of issue 27
 * (docs/doctor.md, "The Mac's GPU and MPS numbers"), each against a tool
 * of the system that shares no code with the backend:
 *
 *  - gpu system (a lane: its reference is doctor_ref.c's dw_gpu_system, this
 *    file's parser):
 *    `ioreg -r -d 1 -w 0 -c IOAccelerator`, the sum of each service's
 *    "In use system memory"=N (the backend reads the same keys through
 *    IOKit, core/platform/darwin_gpu.c).  ioreg prints a dictionary as
 *    {"key"=value,...} on one line (-w 0: never clipped); the key is not
 *    Apple's documented API and the format is from other projects' tests
 *    and Scalene's parser, not from a capture of our own: unverified until
 *    a Mac confirms it.  "In use system memory (driver)" is another key.
 *  - wired limit: `sysctl -n iogpu.wired_limit_mb` x 2^20 against the
 *    backend's mps_device (sysctlbyname, core/platform/darwin_mps.c).
 *  - mps high, mps low: PYTORCH_MPS_{HIGH,LOW}_WATERMARK_RATIO as the
 *    process was launched, the backend's environ_var (KERN_PROCARGS2)
 *    against `ps -E -ww -o command= -p PID`: Apple's ps (adv_cmds-237
 *    ps/print.c getproclline, lines 256-282) joins the arguments and then
 *    the environment strings with spaces, the environment only for the
 *    process's own real user or root (:260); ps.1 (:123-125) "Display the
 *    environment as well.  This does not reflect changes in the
 *    environment after process launch."  The last " NAME=" of the line is
 *    the variable (the environment comes after the arguments).
 *
 * Then what the MPS cap means for the process (r->mps), worded by
 * core/model/mps_advice.c as everywhere else a Mac job's memory is shown.
 *
 * Elsewhere than on a Mac the three rows are there, not checked, saying
 * why (macOS only); nothing is read or faked, and r->mps says nothing. */
#include "stagetop/doctor.h"
#include "doctor_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)
#define OUTCAP 65536

static const char IN_USE[] = "\"In use system memory\"=";

int st_doctor_parse_ioreg_in_use(const char *text, size_t len, uint64_t *bytes, int *services,
                                 st_error *err)
{
    size_t kl = sizeof IN_USE - 1;
    uint64_t sum = 0;
    int n = 0;
    for (size_t i = 0; i + kl <= len; i++) {
        if (memcmp(text + i, IN_USE, kl) != 0)
            continue;
        size_t j = i + kl;
        uint64_t v = 0;
        if (j >= len || text[j] < '0' || text[j] > '9')
            return st_error_set(err, ST_EPARSE, 0, "ioreg: \"In use system memory\" is not a number");
        size_t used = scan_uint(text + j, text + len, &v);
        if (!used)
            return st_error_set(err, ST_EPARSE, 0, "ioreg: \"In use system memory\" is too large");
        sum += v;
        n++;
        i = j + used - 1;
    }
    if (n == 0)
        return st_error_set(err, ST_EPARSE, 0, "ioreg printed no \"In use system memory\" "
                            "(no IOAccelerator with PerformanceStatistics)");
    *bytes = sum;
    *services = n;
    return ST_OK;
}

int st_doctor_parse_ps_env(const char *text, size_t len, const char *name, char *buf, size_t blen,
                           int *found, st_error *err)
{
    char key[80];
    int kl = snprintf(key, sizeof key, " %s=", name);
    const char *hit = NULL;
    const char *nl = memchr(text, '\n', len);
    size_t line = nl ? (size_t)(nl - text) : len;
    if (kl <= 1 || (size_t)kl >= sizeof key)
        return st_error_set(err, ST_EINVAL, 0, "ps -E: a variable name of %zu bytes", strlen(name));
    if (line == 0)
        return st_error_set(err, ST_EPARSE, 0, "ps -E printed nothing (the process is gone?)");
    for (size_t i = 0; i + (size_t)kl <= line; i++)
        if (memcmp(text + i, key, (size_t)kl) == 0)
            hit = text + i + kl;
    *found = hit != NULL;
    buf[0] = '\0';
    if (hit) {
        const char *end = text + line, *sp = memchr(hit, ' ', (size_t)(end - hit));
        size_t n = (size_t)((sp ? sp : end) - hit);
        snprintf(buf, blen, "%.*s", (int)n, hit);
    }
    return ST_OK;
}

/* ---- the checks ---------------------------------------------------------------- */

static int run(const char *const argv[], char *out, size_t *len, st_error *e)
{
    return st_doctor_run_tool(argv, 20.0, out, OUTCAP, len, e);
}

static st_doctor_check *next(st_doctor_report *r, const char *lane, int unit)
{
    if (r->n >= ST_DOC_MAX_CHECKS)
        return NULL;
    st_doctor_check *c = &r->checks[r->n++];
    memset(c, 0, sizeof *c);
    snprintf(c->lane, sizeof c->lane, "%s", lane);
    c->unit = unit;
    c->rule = ST_DOC_WITHIN;
    c->ok = ST_DOC_NOT_CHECKED;
    return c;
}

static void wired_check(const st_mps_device *d, st_doctor_check *c)
{
    char out[OUTCAP];
    size_t len = 0;
    uint64_t mb = 0;
    st_error e;
    const char *argv[] = {"sysctl", "-n", "iogpu.wired_limit_mb", NULL};
    c->has_value = 1;
    c->value = d->has_wired_limit ? d->wired_limit : 0; /* 0: the default, no limit set */
    snprintf(c->source, sizeof c->source, "sysctl -n iogpu.wired_limit_mb (x 2^20; 0: the default)");
    if (run(argv, out, &len, &e) != ST_OK || st_doctor_parse_uint(out, len, &mb, &e) != ST_OK) {
        snprintf(c->note, sizeof c->note, "no reference: %.160s (an Intel Mac, or macOS before 14, "
                 "has no iogpu.wired_limit_mb)", e.msg);
        return;
    }
    c->has_ref = 1;
    c->ref = mb * MIB;
    c->tol = 0;
}

/* A ratio as doctor keeps it: thousandths, ST_DOC_UNSET when unset;
 * 0 when it is not a number (the value is then said in the note). */
static uint64_t milli(const char *s, int set, int *bad)
{
    char *end = NULL;
    if (!set)
        return ST_DOC_UNSET;
    double v = strtod(s, &end);
    if (!*s || !end || *end || !(v >= 0) || v > 1e6) {
        *bad = 1;
        return 0;
    }
    return (uint64_t)(v * 1000.0 + 0.5);
}

/* The ratio var of the process as launched against ps -E; mine (64
 * bytes) gets the backend's text ("" when unset or unread). */
static void ratio_check(const st_platform *plat, st_backend *b, st_proc_id id, const char *var,
                        st_doctor_check *c, char *mine)
{
    char out[OUTCAP], ref[64], pid[24];
    size_t len = 0;
    int found = 0, bad = 0;
    st_error e;
    const char *argv[] = {"ps", "-E", "-ww", "-o", "command=", "-p", pid, NULL};
    snprintf(pid, sizeof pid, "%ld", (long)id.pid);
    snprintf(c->source, sizeof c->source, "ps -E -ww -o command= -p PID: %s= (as launched)", var);
    if (!plat->environ_var) {
        snprintf(c->note, sizeof c->note, "the backend reads no launch environment here");
        return;
    }
    st_error_clear(&e);
    int rc = plat->environ_var(b, id, var, mine, 64, &e);
    if (rc != ST_OK) {
        mine[0] = '\0';
        snprintf(c->note, sizeof c->note, "the backend could not read the launch environment: %.200s", e.msg);
        return;
    }
    c->has_value = 1;
    c->value = milli(mine, mine[0] != '\0', &bad);
    if (run(argv, out, &len, &e) != ST_OK ||
        st_doctor_parse_ps_env(out, len, var, ref, sizeof ref, &found, &e) != ST_OK) {
        snprintf(c->note, sizeof c->note, "no reference: %.250s", e.msg);
        return;
    }
    c->has_ref = 1;
    c->ref = milli(ref, found, &bad);
    c->tol = 0;
    if (bad)
        snprintf(c->note, sizeof c->note, "not a number: stagetop read '%.63s', ps -E '%.63s' "
                 "(PyTorch refuses it)", mine, ref);
    else if (!found && c->value == ST_DOC_UNSET)
        snprintf(c->note, sizeof c->note, "unset as launched: PyTorch's default (one set in "
                 "os.environ after the start is not seen)");
}

/* What the MPS cap means for the process (core/model/mps_advice.c, as the
 * screen, the summaries and report say it): it uses Metal when a ratio is
 * set as launched or its metal row read above zero. */
static void mps_verdict(const st_platform *plat, st_backend *b, const st_mps_device *d,
                        const char *high, const char *low, st_doctor_report *r)
{
    st_mps_in in;
    st_sys_mem sm;
    memset(&in, 0, sizeof in);
    in.high = high[0] ? high : NULL;
    in.low = low[0] ? low : NULL;
    in.uses_metal = in.high || in.low;
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->checks[i].lane, "metal") && r->checks[i].has_value && r->checks[i].value > 0)
            in.uses_metal = 1;
    in.has_recommended = d->has_recommended;
    in.recommended = d->recommended_max;
    if (plat->read_system && plat->read_system(b, &sm, NULL) == ST_OK && (sm.valid & ST_SYS_MEMTOTAL))
        in.mem_total = sm.mem_total;
    st_mps_advise(&in, &r->mps);
}

void st_doctor_mac_checks(const st_platform *plat, st_backend *b, st_proc_id id, st_doctor_report *r)
{
    static const char *const lanes[] = {"wired limit", "mps high", "mps low"};
    static const char *const vars[] = {NULL, "PYTORCH_MPS_HIGH_WATERMARK_RATIO",
                                       "PYTORCH_MPS_LOW_WATERMARK_RATIO"};
    char ratio[3][64] = {"", "", ""};
    st_mps_device d;
    int mac = plat->doctor_refs == ST_DOCTOR_REFS_MACOS;
    memset(&d, 0, sizeof d);
    memset(&r->mps, 0, sizeof r->mps);
    r->mps.word = "";
    if (mac && plat->mps_device)
        plat->mps_device(&d);
    for (size_t i = 0; i < 3; i++) {
        st_doctor_check *c = next(r, lanes[i], i ? ST_DOC_RATIO : ST_DOC_BYTES);
        if (!c)
            break;
        if (!mac || (!i && !plat->mps_device)) {
            mac_only(c, i ? vars[i] : "iogpu.wired_limit_mb", plat);
            continue;
        }
        if (!i)
            wired_check(&d, c);
        else
            ratio_check(plat, b, id, vars[i], c, ratio[i]);
    }
    if (mac)
        mps_verdict(plat, b, &d, ratio[1], ratio[2], r);
}
