/* guard.h: the budget policy (pure: samples in, decisions out).
 *
 *  --swap-budget SIZE   act when system swap used grows more than SIZE above
 *                       its value when the job started (the base);
 *  --kill-free PCT      act when the level stays under PCT for two samples
 *                       in a row;
 *  --on-budget          pause (default with a screen) or kill (headless).
 * A guard trips once; st_guard_rearm() lets it trip again (after the user
 * resumed a paused job, for example). */
#ifndef STAGETOP_GUARD_H
#define STAGETOP_GUARD_H

#include <stdint.h>
#include "stagetop/sample.h"

enum st_guard_action { ST_GUARD_PAUSE, ST_GUARD_KILL };

enum st_guard_reason { ST_GUARD_NONE, ST_GUARD_SWAP, ST_GUARD_LEVEL };

typedef struct st_guard_opts {
    uint64_t swap_budget;   /* bytes of swap growth allowed */
    int has_swap_budget;
    uint16_t kill_free_c;   /* level threshold, hundredths of a percent */
    int has_kill_free;
    int action;             /* enum st_guard_action */
} st_guard_opts;

typedef struct st_guard {
    st_guard_opts o;
    uint64_t swap_base; int has_base;  /* swap used when the job started */
    int low_count;                     /* consecutive samples under kill_free */
    int tripped;
    /* the job's share of the swap growth since the base: its own
     * swap (tree_swap) at the base, its compressed memory (tree_compressed,
     * macOS) at the base, and the page-ins since then */
    uint64_t tree_swap_base, last_tree_swap; int has_tree_swap_base, has_last_tree_swap;
    uint64_t tree_cmp_base, last_tree_cmp; int has_tree_cmp_base, has_last_tree_cmp;
    double pageins_since; int has_pageins; uint32_t share_t_ms; int has_share_t;
    uint64_t page_size;      /* bytes of a page-in (st_guard_init: 4096; the caller sets it) */
    int base_at_resume;      /* the base was set when the job was resumed (the caller
                                says so): a swap verdict counts since the resume */
} st_guard;

/* What the OS says of the job's own share of a swap budget crossing. */
enum st_guard_share {
    ST_SHARE_NONE,      /* nothing known */
    ST_SHARE_TREE_SWAP, /* share: growth of the tree's own swap (Linux VmSwap) over the window */
    ST_SHARE_PAGEINS,   /* share: bytes the tree paged in over the window (macOS without
                           tree_compressed) */
    ST_SHARE_TREE_COMPRESSED /* share: growth of the tree's compressed memory (macOS
                           tree_compressed, at its uncompressed size) over the window:
                           not a share of the swap */
};

typedef struct st_guard_verdict {
    int reason;        /* enum st_guard_reason */
    int action;        /* enum st_guard_action */
    int64_t value;     /* swap growth (bytes) or level (hundredths) that crossed */
    int64_t limit;     /* the budget (bytes) or threshold (hundredths) */
    int share_kind;    /* enum st_guard_share (swap crossings only) */
    int64_t share;     /* bytes, as share_kind says */
    int since_resume;  /* swap: value is the growth since the job was last resumed
                          (the base then), not since it started */
} st_guard_verdict;

/* Is any limit set? */
int st_guard_active(const st_guard_opts *o);
void st_guard_init(st_guard *g, const st_guard_opts *o);
/* Set the swap base explicitly (else the first sample's swap_used is it).
 * A shrinking swap never lowers the base by itself. */
void st_guard_set_base(st_guard *g, uint64_t swap_used);
/* Feed one sample; returns 1 and fills *v when a limit is crossed now (only
 * once until rearmed), else 0.  Samples without the needed field are
 * ignored for that limit. */
int st_guard_check(st_guard *g, const st_sample *s, st_guard_verdict *v);
/* Allow tripping again; the level count restarts.  The base does not move
 * (a swap still over budget trips again at the next sample): call
 * st_guard_set_base with the current swap to grant a fresh budget. */
void st_guard_rearm(st_guard *g);

#endif
