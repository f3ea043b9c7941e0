# mk/tool-plot-svg.mk: a small driver of the SVG plot (core/plot_*.c) for
# tests/e2e/plot_render.sh when ./stagetop has no `plot` command, and the
# whole-trace reference of tests/e2e/plot_stream.sh (--stream: the streamed read).  (Its unit
# test, tests/unit/test_plot.c, links like every other: mk/unit.mk.)

PLOT_DRIVER := $(B)/tools/plot-svg
EXTRA_TEST_BIN += $(PLOT_DRIVER)

$(PLOT_DRIVER): tests/tools/plot_svg.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)
