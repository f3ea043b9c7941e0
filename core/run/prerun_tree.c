/* prerun_tree.c: `doctor -p`'s check of the tree the screen sums (prerun.h):
 * the tree's footprint, as the watched tree reads it, against the sum of
 * each member's own reference reading: on Linux its proportional share,
 * counted once (core/doctor/doctor_share.c), elsewhere the member's
 * footprint reference (core/doctor/doctor_ref.c). */
#include "stagetop/prerun.h"

#include <stdio.h>
#include <string.h>

#include "stagetop/doctor.h"
#include "stagetop/tree.h"

int st_prerun_tree_check(const st_platform *plat, int32_t pid, st_doctor_check *c, uint32_t *procs,
                         uint64_t *per_proc, st_error *err)
{
    int pss = plat->doctor_refs == ST_DOCTOR_REFS_PROC;
    uint64_t sum_pss = 0;
    st_backend *b;
    st_tree t;
    st_sample s1, s2;
    memset(c, 0, sizeof *c);
    memset(&s1, 0, sizeof s1);
    memset(&s2, 0, sizeof s2);
    *procs = 0;
    *per_proc = 0;
    if (plat->open(&b, err) != ST_OK)
        return -1;
    if (st_tree_init(&t, plat, b, pid, 0, err) != ST_OK) {
        plat->close(b);
        return -1;
    }
    if (st_tree_sample(&t, 0, &s1, err) != ST_OK) {
        st_tree_free(&t);
        plat->close(b);
        return -1;
    }
    *procs = s1.procs;
    snprintf(c->lane, sizeof c->lane, "footprint");
    c->unit = ST_DOC_BYTES;
    c->rule = ST_DOC_WITHIN;
    c->value = s1.footprint;
    c->has_value = 1;
    int refs = 1;
    for (size_t i = 0; i < t.n_members; i++) {
        st_doctor_check m;
        if (t.members[i].valid & ST_PM_FOOTPRINT)
            *per_proc += t.members[i].footprint; /* status: a shared page in each */
        if (pss) {
            uint64_t v;
            if (!(t.members[i].valid & ST_PM_FOOTPRINT) ||
                ((t.members[i].valid & ST_PM_STATE) && t.members[i].state == 'Z'))
                continue; /* nothing counted in the tree either: a zombie, a refused member */
            st_error e;
            if (st_doctor_pss_reference(t.members[i].id.pid, &v, &e) == ST_OK) {
                sum_pss += v;
            } else if (e.code != ST_ESRCH) { /* a member that exits is not counted */
                refs = 0;
                snprintf(c->note, sizeof c->note, "no reference: %s", e.msg);
            }
            continue;
        }
        memset(&m, 0, sizeof m);
        snprintf(m.lane, sizeof m.lane, "footprint");
        m.unit = ST_DOC_BYTES;
        st_doctor_reference(plat, t.members[i].id.pid, &m);
        if (!m.has_ref) {
            refs = 0;
            continue;
        }
        c->ref += m.ref;
        c->tol += m.tol;
    }
    c->has_ref = refs;
    if (st_tree_sample(&t, 1, &s2, NULL) == ST_OK) {
        c->after = s2.footprint;
        c->has_after = 1;
    }
    c->ok = ST_DOC_NOT_CHECKED;
    if (refs && pss)
        st_doctor_share_judge(c, sum_pss);
    else if (refs)
        st_doctor_judge(c);
    st_tree_free(&t);
    plat->close(b);
    return refs;
}
