# mk/faults.mk: the fault suite's programs (tests/faults/, docs/reliability.md).
#   $(B)/faults/soak   N samples through backend -> monitor -> ring -> record
#                      -> export on a scripted backend (tests/faults/soak.test.sh
#                      runs 1,000,000 in `make check`; bench/soak.sh 10,000,000)
SOAK := $(B)/faults/soak
EXTRA_TEST_BIN  += $(SOAK)
EXTRA_BENCH_BIN += $(SOAK)

$(SOAK): tests/faults/soak.c $(B)/tests/fakeplat.o $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -o $@ $^ $(LIBS) $(LDFLAGS)
