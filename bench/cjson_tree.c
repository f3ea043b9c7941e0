/* cjson_tree.c: why the product keeps its streaming codec rather than
 * cJSON's tree (docs/trace-format.md, "Why not cJSON").  One process per
 * reading, so each peak RSS (VmHWM) is that parser's alone:
 *   cjson-tree cjson FILE   cJSON_Parse of the whole document, then a walk
 *                           of "samples" (what an importer would do)
 *   cjson-tree codec FILE   st_trace_load_file (the product's reader)
 * prints "wall CPU hwm_kib samples". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cJSON.h>

#include "../tests/selfstat.h"
#include "stagetop/trace.h"

static long via_cjson(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    buf[n] = '\0';
    cJSON *doc = cJSON_ParseWithLength(buf, (size_t)n);
    free(buf);
    if (!doc)
        return -1;
    long count = 0;
    const cJSON *s, *samples = cJSON_GetObjectItemCaseSensitive(doc, "samples");
    cJSON_ArrayForEach(s, samples) {
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(s, "footprint");
        if (cJSON_IsNumber(fp))
            count++;
    }
    cJSON_Delete(doc);
    return count;
}

static long via_codec(const char *path)
{
    st_trace t;
    st_error e;
    if (st_trace_load_file(path, &t, &e) != ST_OK) {
        fprintf(stderr, "%s: %s\n", path, e.msg);
        return -1;
    }
    long n = (long)t.n_samples;
    st_trace_free(&t);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "cjson") != 0 && strcmp(argv[1], "codec") != 0)) {
        fprintf(stderr, "usage: cjson-tree cjson|codec FILE\n");
        return 2;
    }
    double w0 = selfstat_clock(CLOCK_MONOTONIC), c0 = selfstat_cpu();
    long n = argv[1][1] == 'j' ? via_cjson(argv[2]) : via_codec(argv[2]);
    double w1 = selfstat_clock(CLOCK_MONOTONIC), c1 = selfstat_cpu();
    if (n < 0) {
        fprintf(stderr, "cjson-tree: %s: cannot read %s\n", argv[1], argv[2]);
        return 1;
    }
    printf("%.3f %.3f %ld %ld\n", w1 - w0, c1 - c0, selfstat_kib("VmHWM"), n);
    return 0;
}
