/* test_prerun: the pre-run questions (core/run/prerun.c) against REAL
 * processes: the trees offered by `stagetop` with no target (wrapper chains
 * collapse, stagetop's ancestors and pid 1 never offered) and the memory
 * level --wait-free waits for.  tests/workloads/holdmem holds random bytes
 * and says when it is ready (no sleeps). */
#define _GNU_SOURCE
#include "realproc.h"
#include "stagetop/prerun.h"

static const st_target *offered(const st_prerun *p, int32_t pid)
{
    for (size_t i = 0; i < st_prerun_n_targets(p); i++)
        if (st_prerun_target(p, i)->id.pid == pid)
            return st_prerun_target(p, i);
    return NULL;
}

/* A small root over one child holding 96 MiB: the root is a wrapper (its
 * tree is the child's, 97 % and more) and is shown as that child. */
static void wrapper_collapses_to_the_child(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "1", "--children", "1", "--child-mib", "96", NULL};
    wl *w = wl_start(c, args);
    pid_t kids[1];
    assert_int_equal(wl_ready(w, kids, 1, NULL), 1);
    st_prerun *p;
    st_error e;
    assert_int_equal(st_prerun_open(&p, P, &e), ST_OK);
    assert_int_equal(st_prerun_list_targets(p, &e), ST_OK);
    const st_target *kid = offered(p, kids[0]);
    assert_non_null(kid);
    assert_true(kid->own >= 96 * MIB);
    assert_true(kid->tree >= 96 * MIB);
    assert_int_equal(kid->procs, 1);
    assert_int_equal(kid->ppid, w->pid);
    assert_null(offered(p, w->pid)); /* the wrapper */
    /* largest tree first */
    for (size_t i = 1; i < st_prerun_n_targets(p); i++)
        assert_true(st_prerun_target(p, i - 1)->tree >= st_prerun_target(p, i)->tree);
    char cmd[256];
    assert_int_equal(st_prerun_command(p, kid->id, cmd, sizeof cmd, &e), ST_OK);
    assert_non_null(strstr(cmd, "holdmem"));
    st_prerun_close(p);
}

/* Never offered: pid 1, this process (stagetop's place) and its ancestors,
 * though this process's tree holds the 64 MiB of its child. */
static void self_ancestors_and_init_are_not_offered(void **state)
{
    ctx *c = *state;
    static const char *const args[] = {"--mib", "64", NULL};
    wl *w = wl_start(c, args);
    assert_int_equal(wl_ready(w, NULL, 0, NULL), 0);
    st_prerun *p;
    st_error e;
    assert_int_equal(st_prerun_open(&p, P, &e), ST_OK);
    assert_int_equal(st_prerun_list_targets(p, &e), ST_OK);
    assert_non_null(offered(p, w->pid));
    assert_null(offered(p, (int32_t)getpid()));
    assert_null(offered(p, 1));
    for (int32_t pp = (int32_t)getppid(); pp > 1;) {
        assert_null(offered(p, pp));
        char path[64], line[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pp);
        FILE *f = fopen(path, "r");
        if (!f || !fgets(line, sizeof line, f)) {
            if (f)
                fclose(f);
            break;
        }
        fclose(f);
        const char *rp = strrchr(line, ')');
        int ppid = 0;
        assert_non_null(rp);
        assert_int_equal(sscanf(rp + 2, "%*c %d", &ppid), 1);
        pp = ppid;
    }
    st_prerun_close(p);
}

/* The level --wait-free compares: MemAvailable / MemTotal, read here too. */
static void level_is_the_systems(void **state)
{
    (void)state;
    st_prerun *p;
    st_error e;
    double pct = -1;
    assert_int_equal(st_prerun_open(&p, P, &e), ST_OK);
    assert_int_equal(st_prerun_level(p, &pct, &e), ST_OK);
    unsigned long long total = 0, avail = 0;
    char line[256];
    FILE *f = fopen("/proc/meminfo", "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "MemTotal: %llu", &total);
        sscanf(line, "MemAvailable: %llu", &avail);
    }
    fclose(f);
    assert_true(total > 0);
    double want = 100.0 * (double)avail / (double)total;
    assert_true(pct > want - 5.0 && pct < want + 5.0);
    st_prerun_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        RP_TEST(wrapper_collapses_to_the_child),
        RP_TEST(self_ancestors_and_init_are_not_offered),
        cmocka_unit_test(level_is_the_systems),
    };
    return RP_RUN(tests);
}
