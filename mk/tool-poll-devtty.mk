# tests/e2e/tui_nopoll.sh preloads this on Linux: poll(2) answering POLLNVAL
# for /dev/tty as XNU's does (tests/tools/poll_devtty.c cites where).  A Mac
# needs none: its own kernel answers so.
ifeq ($(PLATFORM),linux)
POLL_DEVTTY := $(B)/tools/poll_devtty.so
EXTRA_TEST_BIN += $(POLL_DEVTTY)
$(POLL_DEVTTY): tests/tools/poll_devtty.c
	@mkdir -p $(dir $@)
	$(QCC) -std=c11 -Wall -Wextra -O2 -fPIC -shared -o $@ $< -ldl
endif
