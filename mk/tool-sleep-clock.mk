# tests/e2e/sleep_event.sh preloads this on Linux: CLOCK_BOOTTIME ahead of
# CLOCK_MONOTONIC, as after a suspend (tests/tools/sleep_clock.c cites
# clock_gettime(2)).
ifeq ($(PLATFORM),linux)
SLEEP_CLOCK := $(B)/tools/sleep_clock.so
EXTRA_TEST_BIN += $(SLEEP_CLOCK)
$(SLEEP_CLOCK): tests/tools/sleep_clock.c
	@mkdir -p $(dir $@)
	$(QCC) -std=c11 -Wall -Wextra -O2 -fPIC -shared -o $@ $< -ldl
endif
