# tui: pure helpers' objects for tests that do not need the monitor, and the
# frame-time benchmark.
TUI_PURE_OBJ := $(B)/tui/spark.o $(B)/tui/layout.o $(B)/tui/sanitize.o
