/* metrics_labels.c: the labels of the --metrics file: escaping a value,
 * checking and adding the user's --metrics-label, stagetop_run_info's own
 * (include/stagetop/metrics.h; docs/metrics-export.md). */
#include "stagetop/metrics.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stagetop/utf8.h"
#include "stagetop/version.h"

size_t st_metrics_escape_label(const char *in, size_t max_chars, char *out, size_t outlen)
{
    const unsigned char *s = (const unsigned char *)(in ? in : ""), *e = s + strlen((const char *)s);
    size_t o = 0, chars = 0;
    if (outlen == 0)
        return 0;
    while (s < e) {
        char tmp[4];
        uint32_t cp = 0;
        const char *unit = tmp;
        size_t ulen = 1, step = st_utf8_seq(s, e);
        if (chars == max_chars) {
            if (o + 4 <= outlen) {
                memcpy(out + o, "...", 3);
                o += 3;
            }
            break;
        }
        if (step == 0) {
            tmp[0] = '?';
            step = 1;
        } else if (*s == '\\' || *s == '"') {
            tmp[0] = '\\';
            tmp[1] = (char)*s;
            ulen = 2;
        } else if (*s == '\n') {
            unit = "\\n";
            ulen = 2;
        } else if (st_utf8_decode(s, step, &cp) && st_utf8_unsafe(cp)) {
            tmp[0] = '?'; /* utf8.h: controls, bidi controls, separators */
        } else {
            unit = (const char *)s;
            ulen = step;
        }
        if (o + ulen + 1 > outlen)
            break;
        memcpy(out + o, unit, ulen);
        o += ulen;
        s += step;
        chars++;
    }
    out[o] = '\0';
    return o;
}

/* Label names stagetop writes itself, and the target labels Prometheus
 * sets at scrape time (a scraped "job" would become "exported_job"). */
static const char *const taken[] = {"pid", "command", "version", "platform", "state", "stage",
                                    "source", "job", "instance"};

static int name_ok(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

int st_metrics_label_check(const char *nv, st_error *err)
{
    const char *eq = nv ? strchr(nv, '=') : NULL;
    if (!eq)
        return st_error_set(err, ST_EINVAL, EINVAL, "'%.80s' is not name=value", nv ? nv : "");
    size_t n = (size_t)(eq - nv);
    if (!name_ok(nv, n))
        return st_error_set(err, ST_EINVAL, EINVAL,
                            "label name '%.*s' is not [a-zA-Z_][a-zA-Z0-9_]*", (int)(n > 80 ? 80 : n), nv);
    if (n >= 2 && nv[0] == '_' && nv[1] == '_')
        return st_error_set(err, ST_EINVAL, EINVAL,
                            "label name '%.*s': names starting with __ are reserved by Prometheus",
                            (int)(n > 80 ? 80 : n), nv);
    if (n >= ST_METRICS_LABEL_NAME_MAX)
        return st_error_set(err, ST_EINVAL, EINVAL, "label name '%.40s...' is longer than %d bytes",
                            nv, ST_METRICS_LABEL_NAME_MAX - 1);
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
        if (strlen(taken[i]) == n && memcmp(taken[i], nv, n) == 0)
            return st_error_set(err, ST_EINVAL, EINVAL, "label name '%s' is %s", taken[i],
                                i < 7 ? "one stagetop writes itself"
                                      : "a target label Prometheus sets when it scrapes");
    if (!eq[1])
        return st_error_set(err, ST_EINVAL, EINVAL,
                            "label '%.*s' has an empty value (the same as no label in Prometheus)",
                            (int)n, nv);
    return ST_OK;
}

int st_metrics_add_label(st_metrics *mx, const char *nv, st_error *err)
{
    char val[ST_METRICS_LABEL_VALUE_CHARS * 4 + 8];
    int rc = st_metrics_label_check(nv, err);
    if (rc != ST_OK)
        return rc;
    size_t n = (size_t)(strchr(nv, '=') - nv);
    for (size_t i = 0; i < mx->n_labels; i++)
        if (strlen(mx->names[i]) == n && memcmp(mx->names[i], nv, n) == 0)
            return st_error_set(err, ST_EINVAL, EINVAL, "label '%s' given twice", mx->names[i]);
    if (mx->n_labels == ST_METRICS_MAX_LABELS)
        return st_error_set(err, ST_EINVAL, EINVAL, "more than %d labels", ST_METRICS_MAX_LABELS);
    st_metrics_escape_label(nv + n + 1, ST_METRICS_LABEL_VALUE_CHARS, val, sizeof val);
    size_t used = strlen(mx->labels);
    int k = snprintf(mx->labels + used, sizeof mx->labels - used, "%s%.*s=\"%s\"", used ? "," : "",
                     (int)n, nv, val);
    if (k < 0 || (size_t)k >= sizeof mx->labels - used) {
        mx->labels[used] = '\0';
        return st_error_set(err, ST_EINVAL, EINVAL, "the labels are too long (%zu bytes at most)",
                            sizeof mx->labels - 1);
    }
    memcpy(mx->names[mx->n_labels], nv, n);
    mx->names[mx->n_labels][n] = '\0';
    mx->n_labels++;
    return ST_OK;
}

void st_metrics_set_run(st_metrics *mx, int32_t pid, const char *command, const char *platform)
{
    char cmd[ST_METRICS_CMD_CHARS * 4 + 8], plat[80];
    st_metrics_escape_label(command, ST_METRICS_CMD_CHARS, cmd, sizeof cmd);
    st_metrics_escape_label(platform, 16, plat, sizeof plat);
    snprintf(mx->info, sizeof mx->info, "pid=\"%ld\",command=\"%s\",version=\"%s\"%s%s%s",
             (long)pid, cmd, st_version(), *plat ? ",platform=\"" : "", plat, *plat ? "\"" : "");
}

void st_metrics_set_labels(st_metrics *mx, int32_t pid, const char *command)
{
    st_metrics_set_run(mx, pid, command, "");
}
