/* activity.c: the activity lanes of a run or a stage (CPU seconds and mean,
 * page-ins and their peak rate, the tree's swap and compressed peaks),
 * kept by the summary and worded once for `report`, `diff` and the screen
 * (summary.h, st_activity). */
#include "stagetop/summary.h"
#include "stagetop/units.h"

#include <stdio.h>

void st_activity_add(st_activity *a, const st_sample *smp, uint32_t dt_ms)
{
    if (!(smp->valid & (ST_F_CPU | ST_F_PAGEINS | ST_F_TREE_SWAP | ST_F_COMPRESSED)))
        return; /* 0.2's samples and stageload's: the summary's hot path (make bench) */
    if (st_sample_has(smp, ST_F_CPU)) {
        a->cpu_s += smp->cpu_c / 10000.0 * (dt_ms / 1000.0);
        if (!(a->has & ST_F_CPU) || smp->cpu_c > a->peak_cpu_c)
            a->peak_cpu_c = smp->cpu_c;
    }
    if (st_sample_has(smp, ST_F_PAGEINS)) {
        a->pageins += smp->pageins_c / 100.0 * (dt_ms / 1000.0);
        if (!(a->has & ST_F_PAGEINS) || smp->pageins_c > a->peak_pageins_c)
            a->peak_pageins_c = smp->pageins_c;
    }
    if (st_sample_has(smp, ST_F_TREE_SWAP) &&
        (!(a->has & ST_F_TREE_SWAP) || smp->tree_swap > a->peak_tree_swap))
        a->peak_tree_swap = smp->tree_swap;
    if (st_sample_has(smp, ST_F_COMPRESSED) &&
        (!(a->has & ST_F_COMPRESSED) || smp->compressed > a->peak_compressed))
        a->peak_compressed = smp->compressed;
    a->has |= smp->valid & (ST_F_CPU | ST_F_PAGEINS | ST_F_TREE_SWAP | ST_F_COMPRESSED);
}

const char *st_activity_cpu(const st_activity *a, double seconds, char *buf, size_t len)
{
    if (!(a->has & ST_F_CPU))
        snprintf(buf, len, "-");
    else if (seconds > 0)
        snprintf(buf, len, "%.1f s, mean %.0f%%", a->cpu_s, a->cpu_s * 100.0 / seconds);
    else
        snprintf(buf, len, "%.1f s", a->cpu_s);
    return buf;
}

const char *st_activity_pageins(const st_activity *a, char *buf, size_t len)
{
    if (!(a->has & ST_F_PAGEINS))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.0f, peak %.0f/s", a->pageins, a->peak_pageins_c / 100.0);
    return buf;
}

const char *st_activity_peak(const st_activity *a, unsigned which, char *buf, size_t len)
{
    if (!(a->has & which))
        snprintf(buf, len, "-");
    else
        st_format_bytes(which == ST_F_TREE_SWAP ? a->peak_tree_swap : a->peak_compressed, buf, len);
    return buf;
}
