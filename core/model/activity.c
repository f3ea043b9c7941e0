/* activity.c: the activity lanes of a run or a stage (CPU seconds and mean,
 * page-ins and their peak rate, the tree's swap and compressed peaks), read
 * off the summary's lane statistics and worded once for `report`, `diff`
 * and the screen (summary.h, st_activity). */
#include "stagetop/summary.h"
#include "stagetop/units.h"

#include <stdio.h>

void st_activity_of(st_activity *a, const st_lane_stats *ls)
{
    a->has = ls->has & (ST_F_CPU | ST_F_PAGEINS | ST_F_TREE_SWAP | ST_F_COMPRESSED);
    a->cpu_s = ls->integral[ST_LANE_CPU];
    a->pageins = ls->integral[ST_LANE_PAGEINS];
    a->peak_cpu_c = (a->has & ST_F_CPU) ? (uint32_t)ls->max[ST_LANE_CPU] : 0;
    a->peak_pageins_c = (a->has & ST_F_PAGEINS) ? (uint32_t)ls->max[ST_LANE_PAGEINS] : 0;
    a->peak_tree_swap = (a->has & ST_F_TREE_SWAP) ? ls->max[ST_LANE_TREE_SWAP] : 0;
    a->peak_compressed = (a->has & ST_F_COMPRESSED) ? ls->max[ST_LANE_COMPRESSED] : 0;
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
