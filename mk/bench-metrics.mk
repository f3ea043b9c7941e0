# mk/bench-metrics.mk: the --metrics benchmark (bench/metrics.sh).
$(B)/bench/metrics_bench: bench/metrics_bench.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/metrics_bench
