# stagetop: a plain GNU Makefile.  `make`, `make run`, `make check`, `make bench`,
# `make install PREFIX=/usr/local DESTDIR=`, `SANITIZE=1` for ASan+UBSan.
# Each part of the project may add rules in mk/*.mk (included before the
# `tests` and `bench` rules, which expand the lists those parts add to).

# The one place the version is written: the file VERSION (the program and
# its outputs read it through st_version(), core/version.c; version.test.sh checks
# the man page and CHANGELOG.md against it, and that nothing else names ST_VERSION).
VERSION := $(shell cat VERSION)
# What a build is beyond VERSION, for --version only: "git abc1234" (with
# "-dirty" for uncommitted changes) when built from a git checkout that is
# not exactly the release tag v$(VERSION); empty for the release and for a
# tarball.  Traces and every other output keep the plain VERSION.
GIT_NOTE := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && { \
    git describe --tags --exact-match --match 'v$(VERSION)' HEAD >/dev/null 2>&1 && \
    git diff --quiet HEAD -- 2>/dev/null || \
    echo "git $$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- 2>/dev/null || echo -dirty)"; })
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
UNAME   := $(shell uname -s)
PKG_CONFIG ?= pkg-config

# A Mac build's flags (also mk/macos-build.mk's, which builds for macOS here).
# Apple's own curses.h (ncurses 5.7 in the SDKs up to macOS 13's, 6.0 from
# 14's) declares the wide-character API (cchar_t, setcchar:
# tui/view_lanes.c) under _XOPEN_SOURCE_EXTENDED: 5.7 ignores
# NCURSES_WIDECHAR, 6.0 and Homebrew's 6.5 take either (docs/macos.md,
# "Curses on a Mac").
DARWIN_CPPFLAGS := -D_DARWIN_C_SOURCE -D_XOPEN_SOURCE_EXTENDED
ifeq ($(UNAME),Darwin)
  PLATFORM := darwin
  PLAT_CPPFLAGS := $(DARWIN_CPPFLAGS)
  # Curses: Homebrew's ncurses keg (6.5, keg-only) when it is installed,
  # else Apple's.  CURSES=keg insists on the keg (an error without one),
  # CURSES=apple takes Apple's with the keg installed (the workflow builds
  # both).  The keg is found by its own pkgconfig directory, never by asking
  # pkg-config whether ncursesw exists: Homebrew's pkgconf answers that for
  # macOS's own curses too (its default path ends in Homebrew/brew's
  # Library/Homebrew/os/mac/pkgconfig/<macOS>, whose ncursesw.pc says
  # -lncurses).  Where: `brew --prefix`'s keg; without brew on the PATH
  # (a shell that never ran `brew shellenv`), Homebrew's two default
  # prefixes (Apple Silicon, Intel); NCURSES_KEG=DIR names one.
  # The keg's path is given in the pkg-config command itself: macOS's
  # /usr/bin/make is GNU make 3.81, and before make 4.4 (NEWS, 4.4:
  # "Previously makefile variables marked as export were not exported to
  # commands started by the $(shell ...) function") an `export` does not
  # reach $(shell ...).  Apple's needs no pkg-config: its curses.h is the
  # SDK's, its library -lncurses (macOS has no libncursesw).
  BREW_PREFIX := $(shell brew --prefix 2>/dev/null)
  NCURSES_KEG_DIRS ?= $(if $(BREW_PREFIX),$(BREW_PREFIX)/opt/ncurses,/opt/homebrew/opt/ncurses /usr/local/opt/ncurses)
  ifeq ($(origin NCURSES_KEG),undefined)
    NCURSES_KEG := $(patsubst %/lib/pkgconfig/ncursesw.pc,%,$(firstword \
                   $(wildcard $(addsuffix /lib/pkgconfig/ncursesw.pc,$(NCURSES_KEG_DIRS)))))
  endif
  ifeq ($(CURSES),apple)
    NCURSES_KEG :=
  else ifneq ($(filter-out keg,$(CURSES)),)
    $(error CURSES=$(CURSES): keg or apple (unset: the keg when it is installed, else Apple's))
  else ifeq ($(CURSES)-$(NCURSES_KEG),keg-)
    $(error CURSES=keg: no Homebrew ncurses keg (lib/pkgconfig/ncursesw.pc) in $(NCURSES_KEG_DIRS): brew install ncurses)
  endif
  ifneq ($(BREW_PREFIX),)
    DARWIN_PC_PATH := $(BREW_PREFIX)/opt/cjson/lib/pkgconfig:$(BREW_PREFIX)/lib/pkgconfig
  endif
  DARWIN_PC_PATH := $(if $(NCURSES_KEG),$(NCURSES_KEG)/lib/pkgconfig$(if $(DARWIN_PC_PATH),:))$(DARWIN_PC_PATH)
  DARWIN_PC_PATH := $(DARWIN_PC_PATH)$(if $(DARWIN_PC_PATH),$(if $(PKG_CONFIG_PATH),:))$(PKG_CONFIG_PATH)
  PKG_CONFIG_ENV := PKG_CONFIG_PATH='$(DARWIN_PC_PATH)'
  NCURSES_PC := $(if $(NCURSES_KEG),ncursesw)
  NCURSES_FALLBACK := $(if $(NCURSES_KEG),-L$(NCURSES_KEG)/lib -lncursesw,-lncurses)
  NCURSES_FALLBACK_CFLAGS := $(if $(NCURSES_KEG),-I$(NCURSES_KEG)/include/ncursesw)
  DL_LIBS :=
else
  PLATFORM := linux
  PLAT_CPPFLAGS := -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
  NCURSES_PC := ncursesw
  NCURSES_FALLBACK := -lncursesw
  DL_LIBS := -ldl
endif

# The unit tests and workloads that need Linux (tests/linux-only.txt, with
# each one's reason; tests/run-tests.sh reads the same list).
LINUX_ONLY := $(shell sed -n 's/^\(tests\/[^[:space:]]*\).*/\1/p' tests/linux-only.txt)
LINUX_ONLY_TESTS := $(patsubst tests/unit/%,%,$(filter tests/unit/%,$(LINUX_ONLY)))
LINUX_ONLY_WORKLOADS := $(patsubst tests/workloads/%,%,$(filter tests/workloads/%,$(LINUX_ONLY)))

B := build
ifeq ($(SANITIZE),1)
  # GCC's -fsanitize=undefined leaves out float-cast-overflow: the fuzzer
  # found one such bug in the trace code, so every file gets it.
  B := build-san
  SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
               -fno-sanitize-recover=undefined,float-cast-overflow
endif

WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wundef
ifeq ($(WERROR),1)
  WARN += -Werror
endif
OPT ?= -O2 -g

# Quiet by default: one line per target; V=1 shows the commands.
ifeq ($(V),1)
  QCC = $(CC)
else
  QCC = @printf '  CC  %s\n' $@; $(CC)
endif

pc_cflags = $(shell $(PKG_CONFIG_ENV) $(PKG_CONFIG) --cflags $(1) 2>/dev/null || echo $(2))
pc_libs   = $(shell $(PKG_CONFIG_ENV) $(PKG_CONFIG) --libs $(1) 2>/dev/null || echo $(2))

# No NCURSES_PC (Apple's curses on a Mac): the fallback, pkg-config not asked.
CURSES_CFLAGS := $(if $(NCURSES_PC),$(call pc_cflags,$(NCURSES_PC),$(NCURSES_FALLBACK_CFLAGS)))
CURSES_LIBS   := $(if $(NCURSES_PC),$(call pc_libs,$(NCURSES_PC),$(NCURSES_FALLBACK)),$(NCURSES_FALLBACK))
CJSON_CFLAGS  := $(call pc_cflags,libcjson)
CJSON_LIBS    := $(call pc_libs,libcjson,-lcjson)
CMOCKA_CFLAGS := $(call pc_cflags,cmocka)
CMOCKA_LIBS   := $(call pc_libs,cmocka,-lcmocka)

CPPFLAGS += -Iinclude $(PLAT_CPPFLAGS) -DST_VERSION=\"$(VERSION)\"
CFLAGS   += $(WARN) $(OPT) $(SAN_FLAGS)
LDFLAGS  += $(SAN_FLAGS)
# The product links ncurses (CURSES_LIBS), libm and, for NVML's dlopen
# where libc lacks it, libdl; no threads.  Tests and tools that start threads
# add -lpthread (TEST_LIBS).
LIBS     := -lm $(DL_LIBS)
TEST_LIBS := $(LIBS) -lpthread
# cJSON is the tests' independent reference parser, never the product's:
# only test and benchmark programs that read JSON with it get these.
TEST_JSON_CFLAGS := $(CJSON_CFLAGS)
TEST_JSON_LIBS   := $(CJSON_LIBS)

# Each platform's own sources: its backend, and its GPU lane (NVML through
# dlopen, or core/platform/gpu_none.c where there is none); the rest of core/ is
# portable.  mk/macos-build.mk builds PLAT_SRC_darwin on a non-Mac.
PLAT_SRC_linux  := core/platform/platform_linux.c core/platform/linux_procs.c core/platform/linux_read.c core/platform/linux_cgroup.c core/platform/linux_share.c \
                   core/platform/linux_limit.c \
                   core/platform/gpu_nvml.c
PLAT_SRC_darwin := core/platform/platform_darwin.c core/platform/darwin_sys.c core/platform/darwin_args.c \
                   core/platform/darwin_mps.c core/platform/darwin_vm.c core/platform/darwin_gpu.c \
                   core/platform/gpu_none.c
PLAT_SRC_ALL    := $(PLAT_SRC_linux) $(PLAT_SRC_darwin)
CORE_SRC := $(filter-out $(PLAT_SRC_ALL),$(wildcard core/*.c core/*/*.c)) $(PLAT_SRC_$(PLATFORM))
TUI_SRC  := $(filter-out tui/main.c,$(wildcard tui/*.c))
# The two floors under every other module (docs/design.md, "Floors";
# tests/lib/layering.rules): rules that build a part of the core from its
# sources (the fuzzer, the macOS shim tests) take these, not file names.
OUTPUTS_SRC := core/metrics.c core/metrics_labels.c core/notify.c
BASE_SRC  := $(filter-out $(OUTPUTS_SRC),$(wildcard core/*.c))
MODEL_SRC := $(wildcard core/model/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o)
TUI_OBJ  := $(TUI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
ifneq ($(PLATFORM),linux)
  # tests/linux-only.txt says why each needs Linux (tests/run-tests.sh
  # reports them as skipped elsewhere).
  UNIT_SRC := $(filter-out $(addprefix tests/unit/,$(LINUX_ONLY_TESTS)),$(UNIT_SRC))
endif
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
WORK_SRC := $(wildcard tests/workloads/*.c)
ifneq ($(PLATFORM),linux)
  WORK_SRC := $(filter-out $(addprefix tests/workloads/,$(LINUX_ONLY_WORKLOADS)),$(WORK_SRC))
endif
WORK_BIN := $(WORK_SRC:tests/workloads/%.c=$(B)/workloads/%)

.PHONY: all deps deps-build run check tests bench install uninstall clean
all: stagetop

# Parts of the project add their own rules and EXTRA_TEST_BIN / EXTRA_BENCH_BIN
# here, before the rules below expand those lists.
-include mk/*.mk

# The binary for this build flavour lives in $(B); ./stagetop is the plain build.
ifeq ($(SANITIZE),1)
stagetop: $(B)/stagetop
else
stagetop: $(B)/stagetop
	cp $< $@
endif

$(B)/stagetop: $(B)/tui/main.o $(TUI_OBJ) $(B)/libstagetop.a
	$(QCC) $(LDFLAGS) -o $@ $^ $(CURSES_LIBS) $(LIBS)

$(B)/libstagetop.a: $(CORE_OBJ)
	@rm -f $@ && ar rcs $@ $^

$(B)/tui/%.o: tui/%.c $(B)/flags
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CURSES_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/%.o: %.c $(B)/flags
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The compiler and its flags are a dependency of what they build: $(B)/flags
# holds them and is rewritten only when they change, and every object and
# workload depends on it (so `make WERROR=1`, `OPT=...` or `CFLAGS=...` after
# a plain `make` rebuilds; what links the core relinks; tests/make/flags.test.sh).
# Only a build that needs it rewrites it (`make fuzz-build` or `make deps`
# with other flags leaves it alone); `make -n` lists every compile (FORCE).
BUILD_FLAGS := $(subst ','\'',$(CC) $(CPPFLAGS) $(CFLAGS) $(CURSES_CFLAGS) $(LDFLAGS) $(CURSES_LIBS) $(LIBS))
.PHONY: FORCE
$(B)/flags: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(BUILD_FLAGS)' | cmp -s - $@ 2>/dev/null || printf '%s\n' '$(BUILD_FLAGS)' >$@

# --version's text: tui/main.o alone gets the git note (beside st_version()),
# and is rebuilt when it changes ($(B)/version-note, rewritten only then).
VERSION_TEXT := $(VERSION)$(if $(GIT_NOTE), ($(GIT_NOTE)))
$(B)/tui/main.o: CPPFLAGS += '-DST_GIT_NOTE="$(GIT_NOTE)"'
$(B)/tui/main.o: $(B)/version-note
$(B)/version-note: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION_TEXT)' | cmp -s - $@ 2>/dev/null || echo '$(VERSION_TEXT)' >$@

# A unit test links the core as an archive (the linker takes only what the
# test uses) and cmocka; mk/unit.mk adds what some tests need besides (test
# helpers, the tui archive, cJSON) in UNIT_CFLAGS, UNIT_LIBS and prerequisites.
$(B)/tests/test_%: tests/unit/test_%.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) $(UNIT_CFLAGS) -Itests -MMD -MP -o $@ \
	    $(filter %.c %.o,$^) $(filter-out $(B)/libstagetop.a,$(filter %.a,$^)) $(B)/libstagetop.a \
	    $(CMOCKA_LIBS) $(UNIT_LIBS) $(TEST_LIBS) $(LDFLAGS)

# Workloads are never sanitized: their memory is what the tests measure, and
# ASan's shadow pages and LeakSanitizer's exit-time tracer process (a second
# member of the tree, tens of MiB) would be counted as the job's own.
$(B)/workloads/%: tests/workloads/%.c $(B)/flags
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(filter-out $(SAN_FLAGS),$(CFLAGS)) -o $@ $< \
	    $(filter-out $(SAN_FLAGS),$(LDFLAGS)) -lpthread -lm

# Missing packages are installed where that is possible (root + apt-get),
# otherwise the exact command to run is printed.
deps:
	@sh scripts/deps.sh

# What the build alone needs (a compiler, pkg-config, ncurses): `make run`
# asks for no test tool (a user who cannot install them still sees the demo).
deps-build:
	@sh scripts/deps.sh build

# The demo runs until you quit: q, then k (kill it and quit), ends it as asked,
# and stagetop then exits 0 (the job's own code only when it ends by itself).
run: deps-build
	@$(MAKE) --no-print-directory stagetop $(WORK_BIN)
	STAGELOAD_TRACE=$(B)/demo-events.jsonl ./stagetop --events $(B)/demo-events.jsonl -- \
	    $(B)/workloads/demo --loop

tests: stagetop $(UNIT_BIN) $(WORK_BIN) $(EXTRA_TEST_BIN)

check: deps
	@$(MAKE) --no-print-directory tests
	@sh tests/run-tests.sh $(B)

bench:
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory stagetop $(WORK_BIN) $(EXTRA_BENCH_BIN)
	@sh bench/run-bench.sh $(B)

# The shell completions (completions/) go where bash-completion, zsh's
# compinit and fish look under PREFIX; Homebrew's formula gives its own
# BASHCOMPDIR (etc/bash_completion.d).  tests/make/install.test.sh.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
install: stagetop
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 stagetop $(DESTDIR)$(PREFIX)/bin/stagetop
	install -m 644 docs/stagetop.1 $(DESTDIR)$(PREFIX)/share/man/man1/stagetop.1
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 644 completions/stagetop.bash $(DESTDIR)$(BASHCOMPDIR)/stagetop
	install -m 644 completions/_stagetop $(DESTDIR)$(ZSHCOMPDIR)/_stagetop
	install -m 644 completions/stagetop.fish $(DESTDIR)$(FISHCOMPDIR)/stagetop.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/stagetop $(DESTDIR)$(PREFIX)/share/man/man1/stagetop.1 \
	    $(DESTDIR)$(BASHCOMPDIR)/stagetop $(DESTDIR)$(ZSHCOMPDIR)/_stagetop \
	    $(DESTDIR)$(FISHCOMPDIR)/stagetop.fish

clean:
	rm -rf build build-san stagetop

-include $(shell find $(B) -name '*.d' 2>/dev/null)
