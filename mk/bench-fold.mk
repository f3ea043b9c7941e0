# mk/bench-fold.mk: the peer of bench/fold.sh, `diff` and `summary --text`
# with every sample loaded, as before they folded their input.
$(B)/bench/fold-bench: bench/fold_bench.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/fold-bench
