# mk/tool-peak-probe.mk: $(B)/tools/peak-probe, a launched job's kernel peaks without
# the TUI (tests/tools/peak_probe.c; docs/metrics.md).
PEAK_PROBE := $(B)/tools/peak-probe
EXTRA_TEST_BIN += $(PEAK_PROBE)

$(PEAK_PROBE): tests/tools/peak_probe.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)
