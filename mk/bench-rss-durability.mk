# mk/bench-rss-durability.mk: the monitor's memory (monitor_rss) and the durability
# benchmark (durability-bench), programs that link the core.
$(B)/bench/monitor_rss: bench/monitor_rss.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/monitor_rss

# bench/durability.sh: the summary of many outside-stage loads, the cost
# of --record-sync.
$(B)/bench/durability-bench: bench/durability_bench.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/durability-bench
