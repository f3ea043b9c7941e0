# mk/trace-tools-fuzz.mk: the trace module's extra targets (included by the Makefile).
#   $(B)/tools/trace-summary   `stagetop summary` without the TUI (tests)
#   $(B)/bench/trace-bench     import/export of a 1,000,000-sample trace
#   $(B)/bench/cjson-tree      the same document through cJSON's tree (the peer)
#   make fuzz                  libFuzzer over the importer (FUZZ_SECONDS, default 600)
#   make fuzz-build            only build it: fuzz-out/fuzz_import
#   $(B)/tests/fuzz_import_standalone  the same target with the plain compiler
#                              and tests/fuzz/standalone.c for a main (make tests)

TRACE_TOOL  := $(B)/tools/trace-summary
TRACE_BENCH := $(B)/bench/trace-bench
EXTRA_TEST_BIN  += $(TRACE_TOOL)
EXTRA_BENCH_BIN += $(TRACE_BENCH)

$(TRACE_TOOL): tests/tools/trace_summary.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

$(TRACE_BENCH): bench/trace_bench.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

# The codec against cJSON's tree on the same document (bench/trace.sh).
CJSON_BENCH := $(B)/bench/cjson-tree
EXTRA_BENCH_BIN += $(CJSON_BENCH)
$(CJSON_BENCH): bench/cjson_tree.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_JSON_CFLAGS) -o $@ $^ $(TEST_JSON_LIBS) $(LIBS) $(LDFLAGS)

# The fuzzer builds the trace sources itself with clang (the rest of the
# core is not needed and may not build with -fsanitize=fuzzer).
FUZZ_CC      ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 1
FUZZ_DIR     := fuzz-out
FUZZ_SRC     := $(wildcard core/trace/*.c) $(MODEL_SRC) $(BASE_SRC)
FUZZ_CORPUS  := $(FUZZ_DIR)/corpus

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_DIR)/fuzz_import

$(FUZZ_DIR)/fuzz_import: tests/fuzz/fuzz_import.c $(FUZZ_SRC) include/stagetop/*.h core/trace/trace_internal.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -std=c11 -Iinclude $(PLAT_CPPFLAGS) -DST_VERSION=\"$(VERSION)\" \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -o $@ tests/fuzz/fuzz_import.c $(FUZZ_SRC) -lm

# Seeds: the stageload fixtures, our good and bad traces, the crashers.
fuzz: $(FUZZ_DIR)/fuzz_import
	@mkdir -p $(FUZZ_CORPUS) $(FUZZ_DIR)/artifacts
	@for f in $(wildcard tests/fixtures/stageload/*.jsonl) \
	          $(wildcard tests/fixtures/traces/*); do \
	    [ -f "$$f" ] && cp "$$f" $(FUZZ_CORPUS)/seed-$$(basename "$$f"); done; true
	$(FUZZ_DIR)/fuzz_import -max_total_time=$(FUZZ_SECONDS) $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) \
	    -max_len=65536 -timeout=10 -rss_limit_mb=2048 -dict=tests/fuzz/trace.dict \
	    -artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_CORPUS)

# The fuzz target linked by the plain compiler, with a main that feeds it
# files (tests/fuzz/standalone.c): built by `make tests`, so FUZZ_SRC cannot
# rot unseen; tests/make/fuzz_build.test.sh runs it over the seeds and builds
# the libFuzzer binary too.
FUZZ_STANDALONE := $(B)/tests/fuzz_import_standalone
EXTRA_TEST_BIN  += $(FUZZ_STANDALONE)
$(FUZZ_STANDALONE): tests/fuzz/fuzz_import.c tests/fuzz/standalone.c $(FUZZ_SRC:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lm $(LDFLAGS)
