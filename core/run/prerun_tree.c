/* prerun_tree.c: `doctor -p`'s check of the tree the screen sums (prerun.h):
 * the tree's footprint, as the watched tree reads it, against the sum of
 * each member's own reference reading (core/doctor/doctor_ref.c). */
#include "stagetop/prerun.h"

#include <stdio.h>
#include <string.h>

#include "stagetop/doctor.h"
#include "stagetop/tree.h"

int st_prerun_tree_check(const st_platform *plat, int32_t pid, st_doc_check *c, uint32_t *procs,
                         st_error *err)
{
    st_backend *b;
    st_tree t;
    st_sample s1, s2;
    memset(c, 0, sizeof *c);
    memset(&s1, 0, sizeof s1);
    memset(&s2, 0, sizeof s2);
    *procs = 0;
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
        st_doc_check m;
        memset(&m, 0, sizeof m);
        snprintf(m.lane, sizeof m.lane, "footprint");
        m.unit = ST_DOC_BYTES;
        st_doc_reference(plat, t.members[i].id.pid, &m);
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
    if (refs)
        st_doc_judge(c);
    st_tree_free(&t);
    plat->close(b);
    return refs;
}
