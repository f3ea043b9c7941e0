/* doctor_parse_mac.c: the parsers of doctor's references for the Mac's
 * `metal` and `tree_compressed` lanes (include/stagetop/doctor.h;
 * docs/doctor.md, "The Mac's GPU and MPS numbers").  Pure functions on
 * memory, tested on captured real outputs (tests/fixtures/macos/README.md).
 *
 *  - `footprint -p PID`: the category table ("Dirty Clean Reclaimable
 *    Regions Category", each size "N UNIT").  footprint names a category
 *    after the memory's VM tag ("IOAccelerator") or, for memory the task
 *    owns but has not mapped, "Owned physical footprint (unmapped)", and
 *    adds in parentheses what reads as the name of the VM ledger tag the
 *    memory is charged to: XNU's tags are none, default, network, media,
 *    graphics and neural (xnu-11417.101.15 osfmk/mach/vm_statistics.h:
 *    600-605), and "(graphics)" would be VM_LEDGER_TAG_GRAPHICS (:604), the
 *    ledger the backend reads as ledger_tag_graphics_footprint.  footprint
 *    is not open source: this is read from its output.  The Dirty of the
 *    "(graphics)" rows, summed, is that memory; the TOTAL row's Dirty is the
 *    phys_footprint of "Auxiliary data" (both 2177 MB in the capture), so
 *    Dirty counts the compressed part as the ledger does.  The category
 *    names are from captures, not from Apple's documentation: unverified
 *    until a Mac confirms the row matches the ledger.
 *  - `vmmap --summary PID`: the region-type table's header names its
 *    columns ("VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE ..."); its TOTAL
 *    row's SWAPPED SIZE is the process's memory in the compressor (or
 *    swapped out from it), at its uncompressed size.  The MALLOC ZONE table
 *    below has TOTAL rows of its own: only the first TOTAL after the
 *    region-type header is read.  vmmap of macOS 10.12 prints no SWAPPED
 *    column (a capture in the same source): an error, not 0. */
#include "stagetop/doctor.h"
#include "doctor_internal.h"

#include <string.h>

static const char GRAPHICS[] = "(graphics)";

int st_doctor_parse_footprint_graphics(const char *text, size_t len, uint64_t *bytes, uint64_t *res,
                                       int *rows, st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *line, *tok[8];
    size_t n, tl[8];
    int in_table = 0, dashes = 0;
    uint64_t sum = 0, rsum = 0;
    *rows = 0;
    while (next_line(&it, &line, &n)) {
        if (!in_table) {
            in_table = find(line, n, "Dirty") && find(line, n, "Category");
            continue;
        }
        size_t k = split_ws(line, n, tok, tl, 8);
        if (k == 0)
            break; /* the blank line after TOTAL */
        if (tok[0][0] == '-') {
            if (++dashes == 2)
                break; /* the line above TOTAL: the categories are done */
            continue;
        }
        if (k < 8)
            return st_error_set(err, ST_EPARSE, 0, "footprint: a category row of %zu fields", k);
        /* Dirty is tok[0] tok[1] ("358 MB"); the category starts at tok[7] */
        const char *cat = tok[7], *cend = line + n;
        while (cend > cat && (cend[-1] == ' ' || cend[-1] == '\t' || cend[-1] == '\r'))
            cend--;
        size_t g = sizeof GRAPHICS - 1;
        if ((size_t)(cend - cat) < g || memcmp(cend - g, GRAPHICS, g) != 0)
            continue;
        uint64_t v, r;
        if (st_doctor_parse_size(tok[0], (size_t)(tok[1] + tl[1] - tok[0]), &v, &r, err) != ST_OK)
            return err ? err->code : ST_EPARSE;
        sum += v;
        rsum += r;
        (*rows)++;
    }
    if (!in_table || dashes == 0)
        return st_error_set(err, ST_EPARSE, 0, "footprint printed no category table "
                            "(Dirty ... Category)");
    *bytes = sum;
    *res = rsum;
    return ST_OK;
}

int st_doctor_parse_vmmap_swapped(const char *text, size_t len, uint64_t *bytes, uint64_t *res,
                                  st_error *err)
{
    line_it it = {text, text + len, 0};
    const char *line, *prev = NULL, *tok[12];
    size_t n, prev_n = 0, tl[12];
    long col = -1;
    while (next_line(&it, &line, &n)) {
        size_t k = split_ws(line, n, tok, tl, 12);
        if (col < 0) {
            if (k >= 2 && tl[0] == 6 && memcmp(tok[0], "REGION", 6) == 0 && tl[1] == 4 &&
                memcmp(tok[1], "TYPE", 4) == 0) {
                /* the column names are on the line above "REGION TYPE" */
                size_t pk = prev ? split_ws(prev, prev_n, tok, tl, 12) : 0;
                for (size_t i = 0; i < pk; i++)
                    if (tl[i] == 7 && memcmp(tok[i], "SWAPPED", 7) == 0)
                        col = (long)i;
                if (col < 0)
                    return st_error_set(err, ST_EPARSE, 0, "vmmap printed no SWAPPED column "
                                        "(macOS before 10.13?)");
            }
            prev = line;
            prev_n = n;
            continue;
        }
        if (k >= 1 && tl[0] == 5 && memcmp(tok[0], "TOTAL", 5) == 0) {
            if ((size_t)col + 1 >= k)
                return st_error_set(err, ST_EPARSE, 0, "vmmap: the TOTAL row has no SWAPPED SIZE");
            return st_doctor_parse_size(tok[col + 1], tl[col + 1], bytes, res, err);
        }
    }
    return st_error_set(err, ST_EPARSE, 0, col < 0 ? "vmmap printed no region-type table "
                        "(REGION TYPE)" : "vmmap: the region-type table has no TOTAL row");
}
