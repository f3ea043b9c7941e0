/* test_darwin_vm.c: the metal and tree_compressed lanes over the REAL macOS
 * backend (core/platform/darwin_vm.c) and tree code and the scripted XNU of
 * fake_taskinfo.c (task_name_for_pid, TASK_VM_INFO): summed over the
 * tree's members only, a refused name port (said once, the lanes left
 * out), an exiting member's missing port (no refusal), a kernel whose TASK_VM_INFO predates the graphics ledgers (rev3),
 * every port given back.  Expected values are computed here from the
 * script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "darwin_check.h"
#include "fake_taskinfo.h"
#include <mach/mach.h> /* the shim's: TASK_VM_INFO_REV*_COUNT */
#include "stagetop/tree.h"

/* Every process of the machine gets numbers: the members' sum must leave
 * 200, 201 and 300 (not members) out. */
static void script_vm(void)
{
    script_machine();
    fake_taskinfo_reset();
    static const int32_t all[] = {1, 50, 100, 101, 102, 103, 104, 200, 201, 300};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int64_t p = all[i];
        fake_taskinfo_set(all[i], (uint64_t)p * 3 * MIB + 4096, p * MIB, p * 64 * 1024);
    }
}

static uint64_t members_metal(void)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < N_MEMBERS; i++)
        sum += (uint64_t)MEMBERS[i] * MIB + (uint64_t)MEMBERS[i] * 64 * 1024;
    return sum;
}

static uint64_t members_compressed(void)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < N_MEMBERS; i++)
        sum += (uint64_t)MEMBERS[i] * 3 * MIB + 4096;
    return sum;
}

static void sample_tree(st_backend *b, st_sample *s)
{
    st_tree t;
    memset(s, 0, sizeof *s);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 10.0, s, NULL), ST_OK);
    assert_int_equal(t.n_members, N_MEMBERS);
    st_tree_free(&t);
}

static void lanes_summed_over_the_tree(void **state)
{
    st_backend *b = NULL;
    st_sample s;
    st_proc_mem m;
    (void)state;
    script_vm();
    assert_int_equal(P->open(&b, NULL), ST_OK);
    assert_int_equal(P->read_proc(b, id_of(101), &m, NULL), ST_OK);
    assert_true((m.valid & (ST_PM_METAL | ST_PM_COMPRESSED)) == (ST_PM_METAL | ST_PM_COMPRESSED));
    assert_true(m.metal == 101 * MIB + 101 * 64 * 1024);
    assert_true(m.compressed == 101 * 3 * MIB + 4096);
    sample_tree(b, &s);
    assert_true(st_sample_has(&s, ST_F_METAL | ST_F_TREE_COMPRESSED));
    assert_true(s.metal == members_metal());
    assert_true(s.tree_compressed == members_compressed());
    assert_int_equal(fake_taskinfo_knobs_get()->ports_held, 0); /* each port given back */
    assert_string_equal(P->lanes_note(b), "");
    /* a member that exited (a zombie until reaped) has no task port
     * (kern_proc.c:5633) and no memory: 104 leaves the sums, nothing is said */
    assert_int_equal(fake_darwin_exit(104), 0);
    st_tree t;
    memset(&s, 0, sizeof s);
    assert_int_equal(st_tree_init(&t, P, b, 100, 0, NULL), ST_OK);
    assert_int_equal(st_tree_sample(&t, 10.0, &s, NULL), ST_OK);
    st_tree_free(&t);
    assert_true(s.metal == members_metal() - (104 * MIB + 104 * 64 * 1024));
    assert_true(s.tree_compressed == members_compressed() - (104 * 3 * MIB + 4096));
    assert_string_equal(P->lanes_note(b), "");
    P->close(b);
    fake_darwin_free();
}

/* The MAC policy refuses the name port: both lanes absent, the note said
 * once, and no more ports asked for. */
static void refused_port_leaves_the_lanes_out(void **state)
{
    st_backend *b = NULL;
    st_sample s;
    fake_taskinfo_knobs *k;
    (void)state;
    script_vm();
    k = fake_taskinfo_knobs_get();
    k->name_refused = 1;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    sample_tree(b, &s);
    assert_false(s.valid & ST_F_METAL);
    assert_false(s.valid & ST_F_TREE_COMPRESSED);
    assert_int_equal(s.metal, 0);
    assert_int_equal(s.tree_compressed, 0);
    assert_true(s.valid & ST_F_FOOTPRINT); /* the rest is read as before */
    const char *note = P->lanes_note(b);
    assert_non_null(strstr(note, "refused the task name port"));
    assert_non_null(strstr(note, "no metal or tree_compressed lane"));
    unsigned asked = k->name_calls;
    assert_int_equal(asked, 1); /* the first member's refusal is enough */
    k->name_refused = 0; /* no flapping lanes: off for the run */
    sample_tree(b, &s);
    assert_false(s.valid & (ST_F_METAL | ST_F_TREE_COMPRESSED));
    assert_int_equal(k->name_calls, asked);
    P->close(b);
    fake_darwin_free();
}

/* A member in the middle of its exit (P_WEXIT, not yet a zombie) has no
 * port either: it is left out of the sums, the lanes stay, nothing is said. */
static void exiting_member_is_no_refusal(void **state)
{
    st_backend *b = NULL;
    st_sample s;
    (void)state;
    script_vm();
    fake_darwin_find(103)->exiting = 1;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    sample_tree(b, &s);
    assert_true(st_sample_has(&s, ST_F_METAL | ST_F_TREE_COMPRESSED));
    assert_true(s.metal == members_metal() - (103 * MIB + 103 * 64 * 1024));
    assert_true(s.tree_compressed == members_compressed() - (103 * 3 * MIB + 4096));
    assert_string_equal(P->lanes_note(b), "");
    fake_darwin_find(103)->exiting = 0; /* it was another's turn: all of it again */
    sample_tree(b, &s);
    assert_true(s.metal == members_metal());
    P->close(b);
    fake_darwin_free();
}

/* A kernel whose TASK_VM_INFO ends at rev2 (no ledgers): the compressed
 * bytes (rev0) but no Metal number; rev3 is enough for both. */
static void old_revision_has_no_metal(void **state)
{
    st_backend *b = NULL;
    st_sample s;
    (void)state;
    script_vm();
    fake_taskinfo_knobs_get()->kernel_count = TASK_VM_INFO_REV2_COUNT;
    assert_int_equal(P->open(&b, NULL), ST_OK);
    sample_tree(b, &s);
    assert_false(s.valid & ST_F_METAL);
    assert_true(st_sample_has(&s, ST_F_TREE_COMPRESSED));
    assert_true(s.tree_compressed == members_compressed());
    assert_string_equal(P->lanes_note(b), "");
    fake_taskinfo_knobs_get()->kernel_count = TASK_VM_INFO_REV3_COUNT;
    sample_tree(b, &s);
    assert_true(st_sample_has(&s, ST_F_METAL | ST_F_TREE_COMPRESSED));
    assert_true(s.metal == members_metal());
    P->close(b);
    fake_darwin_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lanes_summed_over_the_tree),
        cmocka_unit_test(refused_port_leaves_the_lanes_out),
        cmocka_unit_test(exiting_member_is_no_refusal),
        cmocka_unit_test(old_revision_has_no_metal),
    };
    return cmocka_run_group_tests_name("darwin backend (shim): metal, tree_compressed", tests, NULL, NULL);
}
