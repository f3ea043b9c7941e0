/* cgroup_limit.h: the memory limit that binds a job and whether the
 * kernel's OOM killer ended a member (platform module; Linux cgroup v2,
 * docs/metrics.md "cgroup").  Parsers fed from memory, and the words the
 * screen and the closing summary use; reading the files is the backend's.
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

#endif
