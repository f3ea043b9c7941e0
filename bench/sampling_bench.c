/* sampling_bench: CPU time of one sample of a process tree.
 *
 *   sampling_bench stagetop PID   st_tree_sample + read_system (discovery on
 *                                 every sample, as at the default 0.5 s interval)
 *   sampling_bench capped PID     as stagetop, with at most 16 cached fds
 *                                 (RLIMIT_NOFILE 64): the path past the fd cap
 *   sampling_bench status PID     as stagetop, the footprint the members' plain
 *                                 status sum (no proportional reads)
 *   sampling_bench cgroup PID DIR v1|v2   as stagetop, the footprint one read of
 *                                 DIR's memory.stat (the tree's own cgroup:
 *                                 st_tree_use_cgroup, no proportional reads)
 *   sampling_bench floor PID      the floor: a minimal loop that only opens and
 *                                 reads (one read() each) the same /proc files a
 *                                 sample reads: per member stat, status and the
 *                                 children file of each thread (listing
 *                                 /proc/PID/task when it has several), plus
 *                                 /proc/meminfo and /proc/pressure/memory
 *
 * Prints "<mode> <microseconds per sample> <members>": the median of 5
 * rounds of at least 0.25 s of process CPU time (user + system) each. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include "stagetop/platform.h"
#include "stagetop/tree.h"
#include "../core/platform/linux_cgroup.h"
#include "../tests/selfstat.h"

#define ROUNDS 5
#define ROUND_S 0.25

typedef struct floor_proc {
    char stat[48], status[48], task[48], children[80];
    int threads;
} floor_proc;

typedef struct bench {
    st_backend *b;
    st_tree t;
    double now;
    floor_proc *fp;
    size_t n_fp;
    char buf[65536];
    st_job_group grp;
} bench;

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sample_stagetop(bench *x)
{
    st_sample s = {0};
    st_sys_mem m;
    x->now += 0.5;
    if (st_tree_sample(&x->t, x->now, &s, NULL) != ST_OK)
        return -1;
    if (st_platform_native.read_system(x->b, &m, NULL) != ST_OK)
        return -1;
    return (int)s.procs;
}

static void read_once(bench *x, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, x->buf, sizeof x->buf) < 0)
            x->buf[0] = 0;
        close(fd);
    }
}

static int sample_floor(bench *x)
{
    for (size_t i = 0; i < x->n_fp; i++) {
        floor_proc *p = &x->fp[i];
        read_once(x, p->stat);
        read_once(x, p->status);
        if (p->threads > 1) {
            DIR *d = opendir(p->task);
            struct dirent *de;
            char path[400];
            while (d && (de = readdir(d)) != NULL) {
                if (de->d_name[0] == '.')
                    continue;
                snprintf(path, sizeof path, "%s/%s/children", p->task, de->d_name);
                read_once(x, path);
            }
            if (d)
                closedir(d);
        } else {
            read_once(x, p->children);
        }
    }
    read_once(x, "/proc/meminfo");
    read_once(x, "/proc/pressure/memory");
    return (int)x->n_fp;
}

static int thread_count(int pid)
{
    char path[64], line[256];
    int n = 1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    if ((f = fopen(path, "r")) == NULL)
        return 1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    bench *x = calloc(1, sizeof *x);
    int (*fn)(bench *);
    double per[ROUNDS];
    int members = 0;
    st_sample s = {0};
    int is_cg = x && argc == 5 && !strcmp(argv[1], "cgroup");
    if (!x || (argc != 3 && !is_cg) ||
        (strcmp(argv[1], "stagetop") && strcmp(argv[1], "floor") && strcmp(argv[1], "capped") &&
         strcmp(argv[1], "status") && !is_cg)) {
        fprintf(stderr, "usage: sampling_bench stagetop|capped|status|floor PID\n"
                        "       sampling_bench cgroup PID DIR v1|v2\n");
        return 2;
    }
    if (!strcmp(argv[1], "capped")) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
            rl.rlim_cur = 64; /* the backend caches a quarter: 16 */
            setrlimit(RLIMIT_NOFILE, &rl);
        }
    }
    if (st_platform_native.open(&x->b, NULL) != ST_OK ||
        st_tree_init(&x->t, &st_platform_native, x->b, atoi(argv[2]), 0.0, NULL) != ST_OK ||
        st_tree_sample(&x->t, 0.0, &s, NULL) != ST_OK) {
        fprintf(stderr, "sampling_bench: cannot watch %s\n", argv[2]);
        return 1;
    }
    if (!strcmp(argv[1], "status"))
        x->t.share.split = 0; /* the plain status sum: no proportional reads */
    if (is_cg) { /* the tree's own cgroup, as a launched job's (tree.h) */
        snprintf(x->grp.dir, sizeof x->grp.dir, "%s", argv[3]);
        x->grp.v1 = !strcmp(argv[4], "v1");
        x->grp.fd = x->grp.stat_fd = x->grp.swap_fd = x->grp.procs_rfd = -1;
        x->grp.active = 1;
        if (st_lx_group_open_stats(&x->grp) != 0 || !st_tree_use_cgroup(&x->t, &x->grp)) {
            fprintf(stderr, "sampling_bench: cannot read %s/memory.stat\n", argv[3]);
            return 1;
        }
    }
    if (!strcmp(argv[1], "floor")) { /* the file list, from one discovery */
        x->n_fp = x->t.n_members;
        x->fp = calloc(x->n_fp, sizeof *x->fp);
        for (size_t i = 0; i < x->n_fp; i++) {
            int pid = (int)x->t.members[i].id.pid;
            floor_proc *p = &x->fp[i];
            snprintf(p->stat, sizeof p->stat, "/proc/%d/stat", pid);
            snprintf(p->status, sizeof p->status, "/proc/%d/status", pid);
            snprintf(p->task, sizeof p->task, "/proc/%d/task", pid);
            snprintf(p->children, sizeof p->children, "/proc/%d/task/%d/children", pid, pid);
            p->threads = thread_count(pid);
        }
        st_tree_free(&x->t);
        fn = sample_floor;
    } else {
        fn = sample_stagetop;
    }
    for (int i = 0; i < 20; i++) /* warm up */
        members = fn(x);
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = cpu_s(), t;
        long n = 0;
        do {
            members = fn(x);
            n++;
        } while ((t = cpu_s()) - t0 < ROUND_S);
        per[r] = (t - t0) / (double)n;
    }
    qsort(per, ROUNDS, sizeof per[0], selfstat_cmp_double);
    printf("%s %.1f %d\n", argv[1], per[ROUNDS / 2] * 1e6, members);
    return members > 0 ? 0 : 1;
}
