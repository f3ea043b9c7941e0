/* test_doctor_share.c: doctor -p's counted-once check (core/doctor/
 * doctor_share.c; docs/doctor.md, "The tree, counted once").
 *
 * Real processes: the test fills 32 MiB with random bytes and forks 3
 * children that keep them (copy-on-write, untouched).  doctor's own PSS
 * reference summed over the 4 counts the 32 MiB once; the sum of the
 * processes' status (RssAnon + RssShmem + VmSwap, read here by the test's
 * own parser) counts it in each.  Fed that per-process sum, the comparison
 * must flag it, with both numbers; fed the PSS sum, it agrees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stagetop/doctor.h"
#include "sizes.h"

#define KIDS 3
#define HELD (32 * MIB)

/* RssAnon + RssShmem + VmSwap of /proc/PID/status, bytes (the test's own
 * reading, not the backend's). */
static uint64_t status_sum(pid_t pid)
{
    char path[64], line[256];
    uint64_t sum = 0;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "RssAnon: %llu kB", &kb) == 1 || sscanf(line, "RssShmem: %llu kB", &kb) == 1 ||
            sscanf(line, "VmSwap: %llu kB", &kb) == 1)
            sum += kb * KIB;
    }
    fclose(f);
    return sum;
}

static void fill_random(unsigned char *p, size_t n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    assert_non_null(f);
    assert_int_equal(fread(p, 1, n, f), n);
    fclose(f);
}

static void forked_tree_flagged(void **state)
{
    pid_t pids[KIDS + 1];
    int life[2], ready[2];
    unsigned char *held = malloc(HELD);
    uint64_t per_proc = 0, pss = 0;
    st_doctor_check c;
    (void)state;
    assert_non_null(held);
    fill_random(held, HELD);
    assert_int_equal(pipe(life), 0);
    assert_int_equal(pipe(ready), 0);
    pids[0] = getpid();
    for (int k = 1; k <= KIDS; k++) {
        pid_t p = fork();
        assert_true(p >= 0);
        if (p == 0) { /* keep the pages, shared, until the test closes life */
            char ch;
            close(life[1]);
            if (write(ready[1], "r", 1) != 1)
                _exit(1);
            while (read(life[0], &ch, 1) < 0)
                ;
            _exit(held[0] == 0x5a ? 3 : 0);
        }
        pids[k] = p;
    }
    close(life[0]);
    close(ready[1]);
    for (int k = 0; k < KIDS; k++) { /* a condition, not a sleep: each child said so */
        char ch;
        assert_int_equal(read(ready[0], &ch, 1), 1);
    }
    for (int k = 0; k <= KIDS; k++) {
        uint64_t v;
        st_error e;
        per_proc += status_sum(pids[k]);
        assert_int_equal(st_doctor_pss_reference(pids[k], &v, &e), ST_OK);
        pss += v;
    }
    close(life[1]);
    for (int k = 1; k <= KIDS; k++)
        assert_int_equal(waitpid(pids[k], NULL, 0), pids[k]);
    close(ready[0]);
    free(held);
    /* the held bytes once (and a few MiB of the test and its children) */
    assert_true(pss >= HELD);
    assert_true(pss < HELD + 16 * MIB);
    /* in each process's own sum: about 4 times */
    assert_true(per_proc >= (KIDS + 1) * HELD);

    memset(&c, 0, sizeof c); /* a tree that sums status: shared pages per process */
    c.has_value = 1;
    c.value = per_proc;
    st_doctor_share_judge(&c, pss);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    assert_int_equal(c.ref, pss);
    assert_non_null(strstr(c.note, "counts shared memory more than once"));
    print_message("    flagged: %s\n", c.note);

    memset(&c, 0, sizeof c); /* a tree that counts each page once */
    c.has_value = 1;
    c.value = pss;
    st_doctor_share_judge(&c, pss);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    assert_string_equal(c.note, "");
}

/* The bound: 2 % of the PSS sum + 1 MiB, above and below. */
static void tolerance_edges(void **state)
{
    st_doctor_check c;
    uint64_t sum = 100 * MIB, tol = sum / 100 * ST_DOC_SHARE_PCT + MIB;
    (void)state;
    memset(&c, 0, sizeof c);
    c.has_value = 1;
    c.value = sum + tol;
    st_doctor_share_judge(&c, sum);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    assert_int_equal(c.tol, tol);
    c.value = sum + tol + 1;
    st_doctor_share_judge(&c, sum);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    assert_non_null(strstr(c.note, "more than once"));
    c.has_after = 1; /* the second reading brackets the reference: agrees */
    c.after = sum;
    st_doctor_share_judge(&c, sum);
    assert_int_equal(c.ok, ST_DOC_AGREES);
    c.has_after = 0;
    c.value = sum - tol - 1; /* below: a stale correction, not counted twice */
    st_doctor_share_judge(&c, sum);
    assert_int_equal(c.ok, ST_DOC_MISMATCH);
    assert_null(strstr(c.note, "more than once"));
    assert_non_null(strstr(c.note, "below"));
}

/* A pid that is gone is ST_ESRCH (a member that exits is not a failure). */
static void gone_member(void **state)
{
    pid_t p = fork();
    uint64_t v;
    st_error e;
    (void)state;
    assert_true(p >= 0);
    if (p == 0)
        _exit(0);
    assert_int_equal(waitpid(p, NULL, 0), p);
    assert_int_equal(st_doctor_pss_reference(p, &v, &e), ST_ESRCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forked_tree_flagged),
        cmocka_unit_test(tolerance_edges),
        cmocka_unit_test(gone_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
