/* mps_advice.c: PyTorch's MPS cap in words (include/stagetop/mps_advice.h).
 *
 * The rules are PyTorch's, read in pytorch/pytorch at commit 57ba412974d8,
 * aten/src/ATen/mps/MPSAllocator.mm: init_allocator() (lines 28-38) reads
 * PYTORCH_MPS_HIGH_WATERMARK_RATIO with strtod, else 1.7, then the low
 * ratio, else 1.4 with unified memory (default_low_watermark_ratio_unified
 * in MPSAllocator.h; 1.0 discrete, not a Mac of today); setHighWatermarkRatio()
 * (line 83) refuses a high ratio outside 0.0..default_high_watermark_upper_bound
 * (2.0, MPSAllocator.h) and sets the cap to ratio x max_device_size()
 * (recommendedMaxWorkingSetSize), none for 0.0; setLowWatermarkRatio()
 * (line 97) refuses a low ratio outside 0.0..high (0.0..2.0 when high is
 * 0.0): "invalid low watermark ratio 1.4" when only a high ratio under 1.4
 * is set.  The cap limits one process's MPS allocations. */
#include "stagetop/mps_advice.h"
#include "stagetop/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A ratio's text as a number: 1 and *v, or 0 when it is not one. */
static int ratio_of(const char *s, double *v)
{
    char *end = NULL;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    return end && !*end && isfinite(*v);
}

/* The ratio's text for a line: printable ASCII only ('?' for the rest:
 * a trace is untrusted), at most 20 bytes. */
static const char *shown(const char *s, char *buf, size_t len)
{
    size_t i = 0;
    for (; s[i] && i + 1 < len && i < 20; i++)
        buf[i] = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' ? s[i] : '?';
    buf[i] = '\0';
    return buf;
}

static const char *gib(double bytes, char *buf, size_t len)
{
    char d[32];
    st_format_decimal(bytes / 1073741824.0, 2, 0, d, sizeof d);
    snprintf(buf, len, "%s GiB", d);
    return buf;
}

static const char *num(double v, char *buf, size_t len)
{
    return st_format_decimal(v, 2, 1, buf, len);
}

int st_mps_advise(const st_mps_in *in, st_mps_advice *out)
{
    char a[32], b[48], c[48], d[48];
    memset(out, 0, sizeof *out);
    out->word = "";
    if (!in->uses_metal)
        return out->kind = ST_MPS_NONE;
    out->high = ST_MPS_HIGH_DEFAULT;
    out->low = ST_MPS_LOW_DEFAULT;
    if (in->high && !ratio_of(in->high, &out->high)) {
        snprintf(out->line, sizeof out->line, "PYTORCH_MPS_HIGH_WATERMARK_RATIO \"%.20s\" is not a "
                 "number: PyTorch may refuse it or read it as 0.0 (no limit)", shown(in->high, b, sizeof b));
        out->word = "mps ratio?";
        return out->kind = ST_MPS_REFUSED;
    }
    if (in->low && !ratio_of(in->low, &out->low)) {
        snprintf(out->line, sizeof out->line, "PYTORCH_MPS_LOW_WATERMARK_RATIO \"%.20s\" is not a "
                 "number: PyTorch may refuse it or read it as 0.0", shown(in->low, b, sizeof b));
        out->word = "mps ratio?";
        return out->kind = ST_MPS_REFUSED;
    }
    if (out->high < 0 || out->high > ST_MPS_HIGH_MAX) {
        snprintf(out->line, sizeof out->line, "PyTorch will refuse it: high %s is outside 0.0 to "
                 "2.0 (\"invalid high watermark ratio\")", num(out->high, a, sizeof a));
        out->word = "mps refused";
        return out->kind = ST_MPS_REFUSED;
    }
    double limit = out->high == 0.0 ? ST_MPS_HIGH_MAX : out->high;
    if (out->low < 0 || out->low > limit) {
        if (out->low < 0)
            snprintf(out->line, sizeof out->line, "PyTorch will refuse it: low %s is below 0.0",
                     num(out->low, a, sizeof a));
        else if (out->high == 0.0)
            snprintf(out->line, sizeof out->line, "PyTorch will refuse it: low %s > 2.0, its bound "
                     "with high 0.0", num(out->low, a, sizeof a));
        else
            snprintf(out->line, sizeof out->line, "PyTorch will refuse it: low %s > high %s%s",
                     num(out->low, a, sizeof a), num(limit, b, sizeof b),
                     in->low ? "" : "; set both");
        out->word = "mps refused";
        return out->kind = ST_MPS_REFUSED;
    }
    if (out->high == 0.0) {
        snprintf(out->line, sizeof out->line, "no MPS limit (high 0.0): PyTorch never refuses an "
                 "MPS allocation; a job that does not fit swaps");
        out->word = "mps no limit";
        return out->kind = ST_MPS_NO_LIMIT;
    }
    if (!in->has_recommended) {
        snprintf(out->line, sizeof out->line, "MPS cap %s x the recommended working set, which "
                 "was not read", num(out->high, a, sizeof a));
        out->word = "mps cap ?";
        return out->kind = ST_MPS_UNKNOWN;
    }
    double cap = out->high * (double)in->recommended;
    out->cap = cap >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)cap;
    int n = snprintf(out->line, sizeof out->line, "MPS cap %s per process (%s x %s)",
                     gib(cap, c, sizeof c), num(out->high, a, sizeof a),
                     gib((double)in->recommended, b, sizeof b));
    size_t off = n > 0 && (size_t)n < sizeof out->line ? (size_t)n : sizeof out->line - 1;
    if (in->mem_total && cap > (double)in->mem_total) {
        snprintf(out->line + off, sizeof out->line - off, " above the RAM (%s): expect swap "
                 "before PyTorch's out-of-memory error", gib((double)in->mem_total, d, sizeof d));
        out->word = "mps>ram";
        return out->kind = ST_MPS_SWAP;
    }
    if (in->mem_total)
        snprintf(out->line + off, sizeof out->line - off, " under the RAM (%s): PyTorch's "
                 "out-of-memory error comes before swap", gib((double)in->mem_total, d, sizeof d));
    out->word = "mps capped";
    return out->kind = ST_MPS_UNDER;
}
