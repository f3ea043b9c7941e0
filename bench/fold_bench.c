/* fold_bench.c: the peer of bench/fold.sh, `diff` and `summary --text` as
 * they were before they folded their input (tui/say.c, cli_load_summary):
 * every sample of each record loaded (st_trace_load_file), then the same
 * core calls and the same bytes on stdout as the product's.
 *   fold-bench diff [--json] A B     st_diff_text / st_diff_json
 *   fold-bench text FILE             st_report_summary_text, 80 columns
 * Exit 0, or 1 when a file cannot be read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/diff.h"
#include "stagetop/report.h"
#include "stagetop/sb.h"
#include "stagetop/trace.h"

static int load(const char *path, st_trace *t)
{
    st_error e;
    st_trace_init(t);
    int rc = st_trace_load_file(path, t, &e);
    if (rc != ST_OK)
        fprintf(stderr, "fold-bench: %s: %s\n", path, e.msg);
    return rc == ST_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int json = argc > 2 && strcmp(argv[2], "--json") == 0;
    st_trace a, b;
    char *text = NULL;
    if (strcmp(mode, "text") == 0 && argc == 3) {
        if (load(argv[2], &a) != 0)
            return 1;
        st_sb w;
        st_sb_init(&w);
        st_report_summary_text(&a, &w, 80);
        text = st_sb_take(&w);
        st_trace_free(&a);
    } else if (strcmp(mode, "diff") == 0 && argc == 4 + json) {
        st_diff d;
        st_error e;
        if (load(argv[2 + json], &a) != 0)
            return 1;
        if (load(argv[3 + json], &b) != 0)
            return 1;
        if (st_diff_compute(&a, &b, &d, &e) != ST_OK) {
            fprintf(stderr, "fold-bench: %s\n", e.msg);
            return 1;
        }
        text = json ? st_diff_json(&d) : st_diff_text(&d, argv[2 + json], argv[3 + json]);
        st_diff_free(&d);
        st_trace_free(&a);
        st_trace_free(&b);
    } else {
        fprintf(stderr, "usage: fold-bench diff [--json] A B | text FILE\n");
        return 2;
    }
    if (!text || printf(json ? "%s\n" : "%s", text) < 0 || fflush(stdout) != 0)
        return 1;
    free(text);
    return 0;
}
