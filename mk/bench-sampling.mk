# mk/bench-sampling.mk: the sampling benchmark (bench/sampling.sh, run by `make bench`).
ifeq ($(PLATFORM),linux)
$(B)/bench/sampling_bench: bench/sampling_bench.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/sampling_bench

.PHONY: bench-sampling
bench-sampling: $(B)/bench/sampling_bench $(B)/workloads/holdmem
	@sh bench/sampling.sh $(B)
endif
