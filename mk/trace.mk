# mk/trace.mk: the trace module's extra targets (included by the Makefile).
#   $(B)/tools/trace-summary   `stagetop summary` without the TUI (tests)
#   $(B)/bench/trace-bench     import/export of a 1,000,000-sample trace
#   $(B)/bench/cjson-tree      the same document through cJSON's tree (the peer)
#   make fuzz                  libFuzzer over the importer (FUZZ_SECONDS, default 600)
#   make fuzz-build            only build it: fuzz-out/fuzz_import

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
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 1
FUZZ_DIR     := fuzz-out
FUZZ_SRC     := core/trace/json_read.c core/trace/json_write.c core/model/events.c core/utf8.c core/model/summary.c core/model/lanes.c core/error.c \
                core/trace/trace_export.c core/trace/trace_record.c core/trace/trace_import.c core/trace/trace_load.c core/trace/trace_stream.c \
                core/trace/trace_parse.c core/trace/trace_meta.c core/atomic_file.c
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

