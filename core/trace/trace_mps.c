/* trace_mps.c: the MPS cap's verdict of a trace (include/stagetop/trace.h,
 * st_trace_mps): the start record's MPS keys (docs/trace-format.md, written
 * by core/run/monitor_mps.c on a Mac) and the machine's RAM (meta
 * mem_total), worded by core/model/mps_advice.c.  A trace is read the same
 * on any platform: `stagetop report` of a Mac trace on Linux says the same.
 *
 * A job uses Metal when one of its MPS ratios is set, or when the trace has
 * a Metal lane (a lane keyed "metal", the members' graphics footprint) whose
 * peak is above zero. */
#include "stagetop/trace.h"
#include "stagetop/lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int st_trace_mps(const st_trace_meta *m, const st_summary *s, st_mps_advice *out)
{
    st_meta_iter it;
    st_meta_item item;
    char high[sizeof ((st_meta_item *)0)->str], low[sizeof ((st_meta_item *)0)->str];
    int has_high = 0, has_low = 0;
    st_mps_in in;
    memset(&in, 0, sizeof in);
    st_meta_iter_init(&it, m);
    while (st_meta_iter_next(&it, &item, sizeof high)) {
        if (!strcmp(item.key, "mps_recommended_max") && item.type == ST_META_NUM) {
            char n[32];
            char *end = NULL;
            snprintf(n, sizeof n, "%.*s", (int)(item.num_len < 31 ? item.num_len : 31), item.num);
            unsigned long long v = strtoull(n, &end, 10);
            if (end && !*end && v)
                in.has_recommended = 1, in.recommended = (uint64_t)v;
        } else if (!strcmp(item.key, "mps_high_watermark_ratio") && item.type == ST_META_STR) {
            snprintf(high, sizeof high, "%s", item.str);
            has_high = 1;
        } else if (!strcmp(item.key, "mps_low_watermark_ratio") && item.type == ST_META_STR) {
            snprintf(low, sizeof low, "%s", item.str);
            has_low = 1;
        }
    }
    in.high = has_high ? high : NULL;
    in.low = has_low ? low : NULL;
    in.mem_total = m->mem_total;
    in.uses_metal = has_high || has_low;
    const st_lane *metal = st_lane_by_key("metal");
    if (metal && s && (s->lanes.has & st_lane_bit(metal->id)) && s->lanes.max[metal->id] > 0)
        in.uses_metal = 1;
    return st_mps_advise(&in, out);
}
