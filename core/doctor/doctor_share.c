/* doctor_share.c: `doctor -p`'s check that the tree the screen sums counts
 * each page once (doctor.h; docs/doctor.md, "The tree, counted once").
 *
 * The reference is the kernel's proportional set size of each member, a
 * page mapped by k processes counted 1/k in each: Pss_Anon + Pss_Shmem +
 * SwapPss of /proc/PID/smaps_rollup, read with doctor's own file reader
 * and parser (doctor_parse.c), not the backend's (core/platform/
 * linux_share.c).  Summed over the members it is the tree's memory counted
 * once; a tree sum well above it counts a shared page in every process
 * that maps it (the status sum: RssAnon + RssShmem + VmSwap). */
#include "stagetop/doctor.h"
#include "stagetop/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024ull * 1024ull)
#define ROLLUP_CAP 8192 /* smaps_rollup is about 1 KiB */

int st_doctor_pss_reference(int32_t pid, uint64_t *pss, st_error *err)
{
    char path[64], text[ROLLUP_CAP];
    size_t len;
    st_doctor_smaps sm;
    int rc;
    *pss = 0;
    snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", (long)pid);
    if ((rc = st_doctor_read_file(path, text, sizeof text, &len, err)) != ST_OK)
        return err && (err->sys_errno == ENOENT || err->sys_errno == ESRCH)
             ? st_error_set(err, ST_ESRCH, err->sys_errno, "process %ld has exited", (long)pid) : rc;
    if ((rc = st_doctor_parse_smaps_rollup(text, len, &sm, err)) != ST_OK)
        return rc;
    if (!(sm.valid & ST_DOC_SM_PSS_ANON) || !(sm.valid & ST_DOC_SM_PSS_SHMEM))
        return st_error_set(err, ST_ENOTSUP, 0, "%s has no Pss_Anon and Pss_Shmem (a kernel before 5.8)",
                            path);
    *pss = sm.pss_anon + sm.pss_shmem + sm.swap_pss;
    return ST_OK;
}

void st_doctor_share_judge(st_doctor_check *c, uint64_t sum_pss)
{
    char a[32], b[32], d[32];
    uint64_t lo = c->value;
    c->rule = ST_DOC_WITHIN;
    c->has_ref = 1;
    c->ref = sum_pss;
    c->tol = sum_pss / 100 * ST_DOC_SHARE_PCT + MIB;
    snprintf(c->source, sizeof c->source,
             "sum over the members of /proc/PID/smaps_rollup Pss_Anon + Pss_Shmem + SwapPss");
    c->note[0] = '\0';
    st_doctor_judge(c);
    if (c->has_after && c->after < lo)
        lo = c->after;
    if (c->ok == ST_DOC_MISMATCH && lo > sum_pss + c->tol)
        snprintf(c->note, sizeof c->note,
                 "the tree sum %s is %s above the sum of PSS %s: it counts shared memory more than once",
                 st_format_bytes(c->value, a, sizeof a), st_format_bytes(lo - sum_pss, d, sizeof d),
                 st_format_bytes(sum_pss, b, sizeof b));
    else if (c->ok == ST_DOC_MISMATCH)
        snprintf(c->note, sizeof c->note,
                 "the tree sum %s is below the sum of PSS %s: a carried correction went stale, or a member "
                 "was not counted", st_format_bytes(c->value, a, sizeof a),
                 st_format_bytes(sum_pss, b, sizeof b));
}
