# mk/bench-frame.mk: the frame-time benchmark (bench/tui.sh runs it).
$(B)/bench/tui_frame: bench/tui_frame.c $(TUI_OBJ) $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CURSES_CFLAGS) -Itui -o $@ $^ $(CURSES_LIBS) $(LIBS) $(LDFLAGS)

EXTRA_BENCH_BIN += $(B)/bench/tui_frame
