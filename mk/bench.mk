# mk/bench.mk: benchmark programs that link the core.
$(B)/bench/monitor_rss: bench/monitor_rss.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/monitor_rss
