/* mps_advice.h: what PyTorch's MPS cap means for a Mac job, in one line
 * (core/model/mps_advice.c; docs/metrics.md "The MPS cap").  Pure: the
 * start record's numbers in, the verdict out; every output that shows a
 * Mac job's memory words it through this (summary, report, the screen).
 *
 * PyTorch (aten/src/ATen/mps/MPSAllocator.mm, MPSAllocator.h) caps one
 * process's MPS allocations at high x the device's recommended working set
 * (high 1.7 when unset; 0.0: no limit), refuses a high ratio outside
 * 0.0..2.0 and a low ratio outside 0.0..high (0.0..2.0 when high is 0.0),
 * the low one defaulting to 1.4 on Apple Silicon (unified memory). */
#ifndef STAGETOP_MPS_ADVICE_H
#define STAGETOP_MPS_ADVICE_H

#include <stddef.h>
#include <stdint.h>

/* PyTorch's defaults and bounds (MPSAllocator.h). */
#define ST_MPS_HIGH_DEFAULT 1.7
#define ST_MPS_HIGH_MAX 2.0
#define ST_MPS_LOW_DEFAULT 1.4 /* unified memory (Apple Silicon) */

typedef struct st_mps_in {
    int uses_metal;           /* the job uses Metal: a ratio set, or graphics memory > 0 */
    int has_recommended;      /* recommended is known */
    uint64_t recommended;     /* Metal's recommendedMaxWorkingSetSize, bytes */
    const char *high, *low;   /* the ratios' text as launched; NULL: unset */
    uint64_t mem_total;       /* the machine's RAM, bytes; 0: unknown */
} st_mps_in;

enum st_mps_kind {
    ST_MPS_NONE = 0,    /* not a Metal job: nothing to say */
    ST_MPS_SWAP,        /* the cap is above the RAM */
    ST_MPS_UNDER,       /* the cap is under the RAM (or the RAM is unknown) */
    ST_MPS_NO_LIMIT,    /* high 0.0 */
    ST_MPS_REFUSED,     /* PyTorch refuses the ratios at its first MPS call */
    ST_MPS_UNKNOWN      /* a cap, but the recommended working set was not read */
};

typedef struct st_mps_advice {
    int kind;            /* enum st_mps_kind */
    double high, low;    /* the ratios in effect (defaults when unset) */
    uint64_t cap;        /* bytes (ST_MPS_SWAP, ST_MPS_UNDER) */
    char line[256];      /* the verdict, "" for ST_MPS_NONE */
    const char *word;    /* a short word for a header ("" for ST_MPS_NONE) */
} st_mps_advice;

/* Fill out from in; returns out->kind. */
int st_mps_advise(const st_mps_in *in, st_mps_advice *out);

#endif
