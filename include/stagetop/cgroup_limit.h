/* cgroup_limit.h: the memory limit that binds a job and whether the
 * kernel's OOM killer ended a member (platform module; Linux cgroup v2 and
 * v1, docs/metrics.md "The limit that binds").  Parsers fed from memory, the
 * words the screen and the closing summary use, and the walk over a cgroup
 * tree whose mount points the caller gives (the Linux backend finds them,
 * core/platform/linux_limit.c; a unit test points them at a tree it made).
 *
 * A job's cgroup and every cgroup above it may have a memory.max; the one
 * with the least room left (memory.max - memory.current) binds.  A member
 * that died of SIGKILL while memory.events' oom_kill of its cgroup rose was
 * ended by the OOM killer. */
#ifndef STAGETOP_CGROUP_LIMIT_H
#define STAGETOP_CGROUP_LIMIT_H

#include <stddef.h>
#include <stdint.h>

/* memory.max's text ("max\n" or a byte count): 1 and *bytes for a limit,
 * 0 for "max" (none), -1 for anything else (nothing is guessed). */
int st_cg_parse_max(const char *buf, size_t len, uint64_t *bytes);

/* The value of key in a flat keyed file such as memory.events ("oom 0\n
 * oom_kill 2\n"): 1 and *out, 0 when key is not there, -1 when its line is
 * malformed. */
int st_cg_parse_key(const char *buf, size_t len, const char *key, uint64_t *out);

/* One level of a job's cgroup path, from its own (0) up. */
typedef struct st_cg_level {
    const char *path;   /* as /proc/PID/cgroup names it ("/user.slice/...") */
    int has_max;        /* memory.max is a number here */
    uint64_t max;       /* memory.max, bytes */
    uint64_t current;   /* memory.current, bytes */
} st_cg_level;

/* The level that binds (the least memory.max - memory.current, 0 when
 * over; the lower level on a tie): its index and *room, or -1 when no level
 * has a limit. */
int st_cg_binding(const st_cg_level *lv, size_t n, uint64_t *room);

/* The level lane's words for it: "limit 8.00 GiB (/slurm/job_42): 1.20 GiB
 * left" (the long form) into buf; "" when idx < 0. */
void st_cg_headroom_text(const st_cg_level *lv, size_t n, char *buf, size_t len);

/* Was a member that died of signal sig ended by the OOM killer?  1 when
 * sig is SIGKILL and oom_kill rose (before < after), else 0. */
int st_cg_oom_killed(int sig, uint64_t oom_kill_before, uint64_t oom_kill_after);

/* The closing summary's and the trace's words for a member's end:
 * "killed by the kernel's OOM killer (memory.events oom_kill 0 -> 1)" or
 * "killed (SIGKILL)" / "ended by signal N". */
void st_cg_end_text(int sig, uint64_t oom_kill_before, uint64_t oom_kill_after, char *buf,
                    size_t len);

/* ---- the walk: the job's cgroup up to its mount's root ---- */

#define ST_CG_PATH 512
#define ST_CG_OOM_FILES 2 /* the binding level's counter and the job's own */

/* Where the memory controller's hierarchy is mounted: cgroup2's, and
 * cgroup v1's memory hierarchy, each its mount point and the hierarchy's
 * path that the mount shows (mountinfo's field 4: "/" unless the mount shows
 * a subtree); "" where there is none. */
typedef struct st_cg_mounts {
    char v2[256], v2_root[256];
    char v1[256], v1_root[256];
} st_cg_mounts;

/* The mounts that a /proc/self/mountinfo text names (the first of each:
 * fstype "cgroup2"; fstype "cgroup" with "memory" among its options). */
void st_cg_parse_mounts(const char *buf, size_t len, st_cg_mounts *m);

/* The limit that binds one job, found by st_cg_walk and read again cheaply:
 * one read of the binding level's usage per sample (st_cg_read_usage), its
 * and the job's own OOM-kill counters when asked (st_cg_oom_kills). */
typedef struct st_cg_watch {
    st_cg_mounts mounts;         /* the caller's (the backend fills them once) */
    int has_mounts;
    int walked;                  /* the job's cgroup was found */
    int version;                 /* of the hierarchy walked: 2 or 1 (memory) */
    char job_cgroup[ST_CG_PATH]; /* the job's cgroup as /proc/PID/cgroup names it */
    int has_limit;               /* a level has a limit: the fields below hold */
    uint64_t limit;              /* the binding level's memory.max / memory.limit_in_bytes */
    uint64_t usage;              /* its latest memory.current / memory.usage_in_bytes */
    char cgroup[ST_CG_PATH];     /* the binding level as /proc/PID/cgroup names it */
    const char *limit_file;      /* "memory.max", "memory.limit_in_bytes" */
    int levels;                  /* levels walked (the job's own to the mount's root) */
    int usage_fd;                /* the binding level's usage file (-1: none) */
    int stale;                   /* a read failed: walk again */
    int oom_fd[ST_CG_OOM_FILES]; /* memory.events / memory.oom_control, -1: none */
    uint64_t oom_base[ST_CG_OOM_FILES]; /* their oom_kill when opened */
    uint64_t oom_before;         /* kills counted in files that a later walk closed */
    char text[1024];             /* /proc/PID/cgroup as last walked */
    size_t text_len;
} st_cg_watch;

void st_cg_watch_init(st_cg_watch *w);
void st_cg_watch_free(st_cg_watch *w); /* closes its files */

/* Walk the cgroup that text (a /proc/PID/cgroup, "0::/a/b" and
 * "4:memory:/a/b" lines) names for the memory controller, under
 * w->mounts, up to the mount's root: at each level the limit (v2
 * memory.max, v1 memory.limit_in_bytes, the "unlimited" value of v1,
 * 2^62 and above, is none) and the usage; the level with the least room
 * binds (st_cg_binding).  v1 is walked when its memory hierarchy is mounted
 * and text names it, else v2.  The OOM-kill counters already seen are
 * kept (oom_before).  1: the job's cgroup was found (w->walked; has_limit
 * says whether a level has a limit), 0: not. */
int st_cg_walk(st_cg_watch *w, const char *text, size_t len);

/* The memory controller's path in a /proc/PID/cgroup text of len bytes:
 * v1's ("N:...memory...:PATH") when want_v1, else v2's ("0::PATH"), into
 * out (NUL-terminated): 1, or 0 when there is none or it does not fit. */
int st_cg_path_of(const char *buf, size_t len, int want_v1, char *out, size_t size);

/* One read of the binding level's usage: 1 and w->usage (the room is
 * st_cg_room), 0 when there is no limit or the read failed (w->stale). */
int st_cg_read_usage(st_cg_watch *w);
/* The room left under the binding limit at the last read: limit - usage,
 * 0 when over. */
uint64_t st_cg_room(const st_cg_watch *w);

/* How many times the OOM killer has killed in the binding cgroup or the
 * job's own since the first walk (v2 memory.events' oom_kill, counted up
 * the tree; v1 memory.oom_control's oom_kill, 4.13 and later, counted where
 * the victim was): reads the counters (one read each). */
uint64_t st_cg_oom_kills(st_cg_watch *w);

#endif
