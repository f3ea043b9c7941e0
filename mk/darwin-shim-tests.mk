# mk/darwin-shim-tests.mk: the macOS backend's unit tests on a non-Mac.
#
# core/platform/platform_darwin.c is built against the shim of the macOS API in
# tests/darwin/shim (first on the include path, so <libproc.h>,
# <sys/sysctl.h>, <sys/proc_info.h> and <sys/resource.h> resolve there; the
# last one #include_next's the system's) and the scripted kernel in
# tests/darwin/fake_darwin.c.  On a Mac the real API is there: the Makefile
# builds core/platform/platform_darwin.c into libstagetop.a itself and these tests
# are not built.

ifneq ($(UNAME),Darwin)
# The backend: its table and processes, its system reads and units, its
# KERN_PROCARGS2 reads (and the environment parser they share with Linux).
# Its Metal probe (darwin_mps.c) loads the fake Metal of fake_metal.c
# (tests/darwin/shim/dlfcn.h), linked with it; its TASK_VM_INFO lanes
# (darwin_vm.c) run over tests/darwin/fake_taskinfo.c; its IOAccelerator
# reading (darwin_gpu.c) loads the fake IOKit of fake_iokit.c.
DARWIN_BACKEND := core/platform/platform_darwin.c core/platform/darwin_sys.c core/platform/darwin_args.c \
                  core/platform/env_block.c core/platform/darwin_mps.c tests/darwin/fake_metal.c \
                  core/platform/darwin_vm.c tests/darwin/fake_taskinfo.c \
                  core/platform/darwin_gpu.c tests/darwin/fake_iokit.c
DARWIN_SHIM_SRC := tests/darwin/fake_darwin.c $(DARWIN_BACKEND) core/error.c core/platform/proc_vec.c
DARWIN_SHIM_HDR := $(wildcard tests/darwin/*.h tests/darwin/shim/*.h tests/darwin/shim/sys/*.h \
                              tests/darwin/shim/mach/*.h) core/platform/darwin_internal.h \
                   include/stagetop/platform.h include/stagetop/error.h include/stagetop/sample.h \
                   include/stagetop/env_block.h

# test_darwin: processes, trees, signals and refusals; test_darwin_sys: the
# system's numbers, command lines, the process list; test_darwin_env: a
# process's environment (environ_var); test_darwin_mps: the MPS cap's
# machine numbers (the Metal probe, iogpu.wired_limit_mb).
$(B)/tests/test_darwin $(B)/tests/test_darwin_sys $(B)/tests/test_darwin_env \
$(B)/tests/test_darwin_mps: $(B)/tests/%: tests/darwin/%.c \
                        $(DARWIN_SHIM_SRC) $(DARWIN_SHIM_HDR)
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(filter %.c,$^) $(LDFLAGS) $(CMOCKA_LIBS)

# The zombie peak (platform zombie_peak through core/run/peak.c).
DARWIN_PEAK_SRC := tests/darwin/test_darwin_peak.c tests/darwin/fake_darwin.c \
                   $(DARWIN_BACKEND) core/run/peak.c core/run/tree_rates.c $(MODEL_SRC) $(BASE_SRC) \
                   core/platform/proc_vec.c
$(B)/tests/test_darwin_peak: $(DARWIN_PEAK_SRC) $(DARWIN_SHIM_HDR) include/stagetop/peak.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(DARWIN_PEAK_SRC) $(LDFLAGS) $(CMOCKA_LIBS) -lm

# jobctl's ancestor rule: identify_parent walked up by core/run/ancestry.c.
DARWIN_ANC_SRC := tests/darwin/test_darwin_ancestry.c tests/darwin/fake_darwin.c \
                  $(DARWIN_BACKEND) core/run/ancestry.c core/error.c core/platform/proc_vec.c
$(B)/tests/test_darwin_ancestry: $(DARWIN_ANC_SRC) $(DARWIN_SHIM_HDR) include/stagetop/ancestry.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(DARWIN_ANC_SRC) $(LDFLAGS) $(CMOCKA_LIBS)

# The watched tree (core/run/tree.c) over XNU's exit and re-parenting.
DARWIN_TREE_SRC := tests/darwin/test_darwin_tree.c tests/darwin/fake_darwin.c \
                   $(DARWIN_BACKEND) core/run/tree.c core/run/tree_rates.c core/run/tree_share.c core/clock.c core/model/lanes.c core/error.c core/platform/proc_vec.c
$(B)/tests/test_darwin_tree: $(DARWIN_TREE_SRC) $(DARWIN_SHIM_HDR) include/stagetop/tree.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(DARWIN_TREE_SRC) $(LDFLAGS) $(CMOCKA_LIBS) -lm

# The cpu, pageins and compressed lanes: the backend's units and the
# tree's rates (core/run/tree_rates.c) over the scripted time bases.
DARWIN_LANES_SRC := tests/darwin/test_darwin_lanes.c tests/darwin/fake_darwin.c \
                    $(DARWIN_BACKEND) core/run/tree.c core/run/tree_rates.c core/run/tree_share.c core/clock.c core/model/lanes.c core/error.c core/platform/proc_vec.c
$(B)/tests/test_darwin_lanes: $(DARWIN_LANES_SRC) $(DARWIN_SHIM_HDR) include/stagetop/tree.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(DARWIN_LANES_SRC) $(LDFLAGS) $(CMOCKA_LIBS) -lm

# The metal and tree_compressed lanes: TASK_VM_INFO (core/platform/darwin_vm.c)
# over tests/darwin/fake_taskinfo.c, summed by the tree.
# The gpu_system lane: IOAccelerator's PerformanceStatistics (core/platform/
# darwin_gpu.c) over tests/darwin/fake_iokit.c, copied into a sample by the table.
$(B)/tests/test_darwin_vm $(B)/tests/test_darwin_gpu: $(B)/tests/%: tests/darwin/%.c tests/darwin/fake_darwin.c \
                           $(DARWIN_BACKEND) core/run/tree.c core/run/tree_rates.c core/run/tree_share.c \
                           core/clock.c core/model/lanes.c core/error.c core/platform/proc_vec.c \
                           $(DARWIN_SHIM_HDR) include/stagetop/tree.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(filter %.c,$^) $(LDFLAGS) $(CMOCKA_LIBS) -lm

# doctor's Mac rows (core/doctor/doctor_mac.c) on the backend: its runner,
# parsers and verdict with it, the tools stand-ins on PATH.
DARWIN_DOCTOR_SRC := tests/darwin/test_darwin_doctor.c $(DARWIN_SHIM_SRC) core/doctor/doctor_mac.c \
                     core/doctor/doctor_parse_mac.c core/model/mps_advice.c core/units.c \
                     core/doctor/doctor_run.c core/doctor/doctor_parse.c core/doctor/doctor_json.c \
                     core/doctor/doctor_ref.c core/clock.c core/trace/json_write.c core/version.c core/utf8.c
$(B)/tests/test_darwin_doctor: $(DARWIN_DOCTOR_SRC) $(DARWIN_SHIM_HDR) include/stagetop/doctor.h
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) \
	    -o $@ $(DARWIN_DOCTOR_SRC) $(LDFLAGS) $(CMOCKA_LIBS) -lm

# --record-sync on macOS: core/fd_sync.c with F_FULLFSYNC and the test's
# fcntl/fsync recorders, linked before the core archive (whose own
# fd_sync.o is then not taken).
$(B)/tests/test_darwin_sync: tests/darwin/test_darwin_sync.c core/fd_sync.c include/stagetop/fd_sync.h \
                             $(B)/libstagetop.a
	@mkdir -p $(dir $@) $(B)/darwin
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) -DF_FULLFSYNC=51 -Dfcntl=st_fake_fcntl \
	    -Dfsync=st_fake_fsync -c -o $(B)/darwin/fd_sync_fake.o core/fd_sync.c
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) -o $@ tests/darwin/test_darwin_sync.c \
	    $(B)/darwin/fd_sync_fake.o $(B)/libstagetop.a $(LDFLAGS) $(CMOCKA_LIBS) $(LIBS)

# The cost of one discovery (KERN_PROC_ALL snapshot + walk) on the fake.
$(B)/bench/darwin_walk: tests/darwin/bench_darwin_walk.c tests/darwin/fake_darwin.c \
                        $(DARWIN_BACKEND) core/error.c core/platform/proc_vec.c $(DARWIN_SHIM_HDR)
	@mkdir -p $(dir $@)
	$(QCC) -Itests/darwin/shim -Itests/darwin $(CPPFLAGS) $(CFLAGS) \
	    -o $@ $(filter %.c,$^) $(LDFLAGS)

EXTRA_TEST_BIN += $(B)/tests/test_darwin $(B)/tests/test_darwin_sys $(B)/tests/test_darwin_env \
                  $(B)/tests/test_darwin_mps \
                  $(B)/tests/test_darwin_peak \
                  $(B)/tests/test_darwin_ancestry $(B)/tests/test_darwin_tree $(B)/tests/test_darwin_lanes \
                  $(B)/tests/test_darwin_vm $(B)/tests/test_darwin_gpu \
                  $(B)/tests/test_darwin_doctor $(B)/tests/test_darwin_sync
EXTRA_BENCH_BIN += $(B)/bench/darwin_walk
endif

# The shell tests' `turns PID` (tests/lib/common.sh wait_turns) on Linux and
# macOS alike (tests/tools/turns.c); built on every platform.
TURNS_TOOL := $(B)/tools/turns
EXTRA_TEST_BIN += $(TURNS_TOOL)
$(TURNS_TOOL): tests/tools/turns.c
	@mkdir -p $(dir $@)
	$(QCC) $(filter-out $(SAN_FLAGS),$(CFLAGS)) -o $@ $< $(filter-out $(SAN_FLAGS),$(LDFLAGS))
