/* ancestry.c: stagetop's line of ancestors through the platform table
 * (ancestry.h). */
#include "stagetop/ancestry.h"

#include <stddef.h>

void st_ancestry_build(st_ancestry *a, const st_platform *plat, st_backend *b, int32_t self,
                       int32_t parent)
{
    st_backend *own = NULL;
    a->n = 0;
    a->pid[a->n++] = self;
    if (plat && plat->identify_parent && !b && plat->open && plat->open(&own, NULL) == ST_OK)
        b = own;
    int32_t p = parent;
    while (p > 0 && a->n < ST_ANCESTRY_MAX) {
        a->pid[a->n++] = p;
        if (p <= 1 || !plat || !plat->identify_parent || !b)
            break;
        st_proc_ref ref;
        if (plat->identify_parent(b, p, &ref, NULL) != ST_OK)
            break;
        for (int i = 0; i < a->n; i++) /* a loop (a pid reused meanwhile) ends the walk */
            if (a->pid[i] == ref.ppid)
                ref.ppid = 0;
        p = ref.ppid;
    }
    if (own)
        plat->close(own);
}

const char *st_ancestry_why(const st_ancestry *a, int32_t pid)
{
    if (pid <= 1)
        return pid == 1 ? "pid 1 (init)" : "not a process";
    for (int i = 0; i < a->n; i++)
        if (a->pid[i] == pid)
            return i == 0 ? "stagetop itself" : "an ancestor of stagetop";
    return NULL;
}
