# mk/plot.mk: the SVG plot (core/plot_*.c): its unit test and a small driver
# for tests/e2e/plot_render.sh when ./stagetop has no `plot` command.

PLOT_DRIVER := $(B)/tools/plot-svg
EXTRA_TEST_BIN += $(PLOT_DRIVER)

# The plot needs only the core: link its test without the tui objects.
$(B)/tests/test_plot: tests/unit/test_plot.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) -Itests -o $@ $^ $(CMOCKA_LIBS) $(LIBS) $(LDFLAGS)

$(PLOT_DRIVER): tests/tools/plot_svg.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)
