# schedscope: one plain Makefile. `make`, `make run`, `make test`, `make bench`.
# SPDX-License-Identifier: GPL-2.0

PREFIX    ?= /usr/local
BINDIR     = $(PREFIX)/bin
DATADIR    = $(PREFIX)/share/schedscope
MANDIR     = $(PREFIX)/share/man
INCLUDEDIR = $(PREFIX)/include

CC        ?= cc
CSTD       = -std=gnu11
WARN       = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT       ?= -O2 -g
CPPFLAGS  += -I. -D_GNU_SOURCE -DSCHEDSCOPE_DATADIR='"$(DATADIR)"' -DSCHEDSCOPE_INCLUDEDIR='"$(INCLUDEDIR)"'
CFLAGS    += $(CSTD) $(WARN) $(OPT)
JANSSON    = $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
LDLIBS    += $(JANSSON) -lm
# `make V=1` shows the full commands
Q          = $(if $(V),,@)

# Debian packages the build and the tests need (see `make deps`).
DEB_PKGS   = build-essential pkg-config libncurses-dev libtermkey-dev libreadline-dev \
             libcmocka-dev libjansson-dev tmux clang clang-format python3 rt-app xz-utils parallel
PKG_LIBS   = ncursesw termkey cmocka jansson
# Node.js and npm, for the trace consumers below; Debian's unless node is already there
# (a nodejs package of another origin ships its own npm).
NODE_PKGS  = nodejs npm

B          = build
# The layers, lowest first: each folder is one library and may include only
# from itself and the folders before it (tests/check-layers.sh enforces it).
LAYERS     = sched src/base src/format src/analysis src/plot src/trace src/import ui
lib_of     = $(1)/lib$(notdir $(2)).a
layer_src  = $(wildcard $(1)/*.c)
PROG_SRC   = $(wildcard src/*.c)
UNIT_SRC   = $(wildcard tests/unit/test_*.c)
UNIT_FIXTURE = tests/unit/fixture.c
BENCH_UTIL = tests/bench/bench_util.c
BENCH_SRC  = $(filter-out $(BENCH_UTIL),$(wildcard tests/bench/*.c))

# the kfuncs an ext policy plug-in binds to, exported by every program that can load one
EXT_EXPORTS = -Wl,--dynamic-list=sched/ext.dynlist
EXT_SRC    = $(wildcard ext/*.c)
EXT_SOS    = $(patsubst ext/%.c,$(B)/ext/%.so,$(EXT_SRC))
TEST_EXT_SOS = $(patsubst tests/ext/%.c,$(B)/tests/ext/%.so,$(wildcard tests/ext/*.c))
EXT_HEADERS = $(B)/include/schedscope/ext.h $(B)/include/schedscope/types.h

UI_CFLAGS  = $(shell pkg-config --cflags ncursesw termkey 2>/dev/null)
UI_LIBS    = $(shell pkg-config --libs ncursesw termkey 2>/dev/null) -lreadline
CMOCKA     = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

all: schedscope

reverse    = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
objs = $(patsubst %.c,$(1)/%.o,$(2))

# The built-in demo scenario, compiled in so `schedscope` needs no data files.
$(B)/gen/demo_scenario.c: scenarios/demo.scn
	@mkdir -p $(dir $@)
	@{ echo '/* generated from scenarios/demo.scn */'; echo 'const char demo_scenario_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

# Keep what pattern rules build along the way (the unit tests' objects, the
# installed headers); a bare .SECONDARY: made every target intermediate, so
# ./schedscope counted as up to date with build/ gone.
.SECONDARY: $(EXT_HEADERS) $(foreach t,$(B) $(B)/asan,$(call objs,$(t),$(UNIT_SRC) $(UNIT_FIXTURE)))

.PHONY: npm-deps
.PHONY: all run test check-deps deps bench fuzz install clean unit scenarios asan-test fuzz-smoke ui-e2e \
	ext-examples format-check clang-build validate sweep-screenshot truth fidelity replay costs

# ---- the normal build (in build/) and a sanitizer build (in build/asan/) ----

# $(1): the tree, $(2): extra flags, $(3): the compiler
define BUILD_TREE
$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$@"
	$$(Q)$(3) $$(CPPFLAGS) $$(CFLAGS) $(2) $$(UI_CFLAGS) -MMD -MP -c $$< -o $$@

$(1)/gen/%.o: $(B)/gen/%.c
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$@"
	$$(Q)$(3) $$(CPPFLAGS) $$(CFLAGS) $(2) -MMD -MP -c $$< -o $$@

$(foreach l,$(LAYERS),
$(call lib_of,$(1),$(l)): $$(call objs,$(1),$$(call layer_src,$(l)))
	$$(Q)$$(AR) rcs $$@ $$^
)
$(1)/LIBS = $(foreach l,$(call reverse,$(LAYERS)),$(call lib_of,$(1),$(l)))

$(1)/schedscope: $$(call objs,$(1),$$(PROG_SRC)) $(1)/gen/demo_scenario.o $$($(1)/LIBS) sched/ext.dynlist
	@echo "  LINK    $$@"
	$$(Q)$(3) $$(CFLAGS) $(2) $$(EXT_EXPORTS) -o $$@ $$(filter-out %.dynlist,$$^) $$(UI_LIBS) $$(LDLIBS)

$(1)/tests/unit/%: $(1)/tests/unit/%.o $$(call objs,$(1),$$(UNIT_FIXTURE)) $$($(1)/LIBS) sched/ext.dynlist
	@echo "  LINK    $$@"
	$$(Q)$(3) $$(CFLAGS) $(2) $$(EXT_EXPORTS) -o $$@ $$(filter-out %.dynlist,$$^) $$(CMOCKA) $$(UI_LIBS) $$(LDLIBS)
endef

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The engine's hot paths call across its files (timers, PELT, the classes):
# with gcc its objects also carry link-time code, which the program and the
# benchmarks are linked from; the unit tests link their ordinary code.
# The engine is built at -O3: the mixed load runs 4.7 % fewer instructions.
ENGINE_LTO ?= $(if $(findstring clang,$(CC)),,-flto=auto -ffat-lto-objects)
ENGINE_OPT ?= -O3
$(B)/sched/%.o: CFLAGS += $(ENGINE_LTO) $(ENGINE_OPT)
$(B)/schedscope: private CFLAGS += $(if $(ENGINE_LTO),-flto=auto)
# the sanitizer build also checks the engine's invariants on every run (sched/invariants.c)
$(eval $(call BUILD_TREE,$(B),,$(CC)))
$(eval $(call BUILD_TREE,$(B)/asan,$(SAN) -DSCHEDSCOPE_CHECK_INVARIANTS,$(CC)))

schedscope: $(B)/schedscope
	@cp $< $@

# ---- ext policies: the installed header, and the examples built as a user would ----

$(B)/include/schedscope/%.h: sched/api/%.h
	@mkdir -p $(dir $@)
	@cp $< $@

# built as a user builds a policy (`schedscope ext build`, which also checks it loads)
$(B)/ext/%.so: ext/%.c $(EXT_HEADERS) $(B)/schedscope
	@mkdir -p $(dir $@)
	@echo "  EXT     $@"
	$(Q)$(B)/schedscope ext build $< -o $@ -Werror $(if $(V),,2>$@.log || { cat $@.log; rm -f $@; exit 1; })

ext-examples: $(EXT_SOS) $(TEST_EXT_SOS)

# policies for the tests: compiled as above but not checked, since some must be refused at load
$(B)/tests/ext/%.so: tests/ext/%.c $(wildcard tests/ext/*.c) $(EXT_HEADERS) $(B)/schedscope
	@mkdir -p $(dir $@)
	@echo "  EXT     $@"
	$(Q)$(CC) $$($(B)/schedscope ext cflags) -Werror -o $@ $<

# The data folder is compiled in: rebuild what uses it when PREFIX changes.
$(B)/datadir.stamp: FORCE
	@mkdir -p $(B); echo '$(DATADIR) $(INCLUDEDIR)' | cmp -s - $@ || echo '$(DATADIR) $(INCLUDEDIR)' > $@
$(foreach t,$(B) $(B)/asan,$(foreach o,src/format/topology_file src/format/ext_policy src/cmd_ext,$(t)/$(o).o)): \
	$(B)/datadir.stamp
FORCE:

UNIT_BINS      = $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRC))
ASAN_UNIT_BINS = $(patsubst tests/unit/%.c,$(B)/asan/tests/unit/%,$(UNIT_SRC))

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- dependencies ----

# tools the tests run, besides the libraries pkg-config knows
DEP_TOOLS  = pkg-config cc clang tmux python3 node npm xz parallel

check-deps:
	@missing=; for t in $(DEP_TOOLS); do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
	for p in $(PKG_LIBS); do pkg-config --exists $$p 2>/dev/null || missing="$$missing $$p"; done; \
	[ -f /usr/include/readline/readline.h ] || missing="$$missing readline"; \
	if [ -n "$$missing" ]; then echo "schedscope needs$$missing to build and test:"; \
		$(MAKE) --no-print-directory deps; fi

# The one list of Debian packages: .ci/run and the README point here.
deps:
	@pkgs="$(DEB_PKGS)"; command -v npm >/dev/null || pkgs="$$pkgs $(NODE_PKGS)"; \
	echo "installing Debian packages: $$pkgs"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$pkgs
	@$(MAKE) --no-print-directory npm-deps

# The real consumers the trace exports are tested with (tests/perfetto/package.json, every
# version pinned by its package-lock.json), installed from npm into the build tree.
NPM_DIR      = $(B)/npm
TRACE_ENGINE = $(NPM_DIR)/node_modules/@paulirish/trace_engine
$(TRACE_ENGINE)/analyze-trace.mjs: tests/perfetto/package.json tests/perfetto/package-lock.json
	@echo "  NPM     $(NPM_DIR): $$(sed -n 's/.*"\(@[^"]*\)": "\([^"]*\)".*/\1@\2/p' tests/perfetto/package.json)"
	@mkdir -p $(NPM_DIR)
	@cp tests/perfetto/package.json tests/perfetto/package-lock.json $(NPM_DIR)/
	$(Q)cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@
npm-deps: $(TRACE_ENGINE)/analyze-trace.mjs

# ---- running ----

run: check-deps
	@$(MAKE) --no-print-directory schedscope
	./schedscope

# ---- tests ----

test: check-deps
	@rm -f $(B)/test-results
	@tests/check-layers.sh
	@$(MAKE) --no-print-directory schedscope $(UNIT_BINS) ext-examples
	@tests/run-unit.sh $(UNIT_BINS)
	@tests/run-scenarios.sh ./schedscope
	@tests/run-import.sh ./schedscope
	@tests/run-import-rtapp.sh ./schedscope
	@tests/run-recordings.sh ./schedscope
	@tests/run-determinism.sh ./schedscope
	@tests/ui/e2e.sh ./schedscope
	@tests/ui/nav.sh ./schedscope
	@$(MAKE) --no-print-directory npm-deps
	@tests/run-perfetto-check.sh ./schedscope $(TRACE_ENGINE)
	@tests/run-sweep.sh ./schedscope
	@tests/run-compare.sh ./schedscope
	@tests/run-hostile.sh ./schedscope
	@tests/run-install.sh
	@tests/run-kernel.sh
	@RESULTS=$${RESULTS:-build/test-results} python3 tests/kernel/fidelity.py ./schedscope
	@$(MAKE) --no-print-directory asan-test
	@$(MAKE) --no-print-directory fuzz-smoke
	@tests/summary.sh

ui-e2e: schedscope
	@tests/ui/e2e.sh ./schedscope
	@tests/ui/nav.sh ./schedscope

asan-test:
	@$(MAKE) --no-print-directory $(B)/asan/schedscope $(ASAN_UNIT_BINS) ext-examples
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/run-unit.sh $(ASAN_UNIT_BINS)
	@ASAN_OPTIONS=detect_leaks=1 tests/run-scenarios.sh $(B)/asan/schedscope
	@ASAN_OPTIONS=detect_leaks=1 tests/run-sweep.sh $(B)/asan/schedscope quick
	@ASAN_OPTIONS=detect_leaks=1 tests/run-compare.sh $(B)/asan/schedscope
	@ASAN_OPTIONS=detect_leaks=1 tests/run-hostile.sh $(B)/asan/schedscope
	@tests/run-cross-build.sh ./schedscope $(B)/asan/schedscope

# ---- the other compiler, and the formatting of changed lines (CI runs both) ----

# Everything, warnings as errors, with clang too.
clang-build:
	@$(MAKE) --no-print-directory B=$(B)/clang CC=clang $(B)/clang/schedscope \
		$(patsubst tests/unit/%.c,$(B)/clang/tests/unit/%,$(UNIT_SRC))

# Lines added or changed since the formatting rules were adopted (or last
# changed) must follow .clang-format; `git clang-format $(FORMAT_BASE)` fixes them.
FORMAT_BASE ?= $(shell git log -1 --format=%H -- .clang-format 2>/dev/null)
format-check:
	@out=$$(git clang-format --quiet --diff --extensions c,h $(FORMAT_BASE) -- sched src ui tests 2>&1); \
	if [ -n "$$out" ] && [ "$$out" != "no modified files to format" ]; then \
		printf '%s\n' "$$out"; echo "format-check: lines above differ from .clang-format"; exit 1; \
	else echo "format-check: changed lines follow .clang-format"; fi

# ---- the validation matrix (not part of `make test`) ----

# Ground truth from the Linux this runs on (root, cgroup v1 cpu controller):
# tests/kernel/README.md. The results are committed; `make fidelity` compares
# the simulation of the same experiments with them, needs no root, and is
# part of `make test`.
$(B)/kernel/worker: tests/kernel/worker.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -o $@ $<

truth: $(B)/kernel/worker $(B)/kernel/costs
	@echo "truth: load before: $$(cat /proc/loadavg)"
	python3 tests/kernel/truth.py $(B)/kernel/worker \
		tests/kernel/results/linux-$$(uname -r | cut -d. -f1-2).json $(NAMES)

# One experiment on the real kernel and in the simulation, with the machine's
# other tasks replayed beside it (root): make replay NAME=periodic-two
replay: schedscope $(B)/kernel/worker
	python3 tests/kernel/replay.py ./schedscope $(B)/kernel/worker $(NAME)

fidelity: schedscope
	@python3 tests/kernel/fidelity.py ./schedscope

$(B)/kernel/costs: tests/kernel/costs.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -o $@ $<

# As root, on a quiet machine: RUNS runs of costs.c, each cost's median and spread
RUNS ?= 7
# The results file is replaced only when every run succeeded.
costs: $(B)/kernel/costs
	hz=$$(python3 -c 'import sys; sys.path.insert(0, "tests/kernel"); import truth; print(truth.config_hz())'); \
	out=tests/kernel/results/costs-linux-$$(uname -r | cut -d. -f1-2).txt; \
	for i in $$(seq $(RUNS)); do $(B)/kernel/costs $$hz || exit 1; done > $(B)/kernel/costs.runs; \
	python3 tests/kernel/costs_summary.py < $(B)/kernel/costs.runs > $$out.new || { rm -f $$out.new; exit 1; }; \
	mv $$out.new $$out && cat $$out

# Every shipped scenario's expects on every shipped topology and on each modelled
# release of its scheduler class, in parallel: the pass/fail matrix. Failures
# away from a scenario's own machine are information (exit 0); errors are not.
validate: schedscope
	@mkdir -p $(B)
	@nice -n 19 ./schedscope sweep scenarios/*.scn --topology all --kernel all --matrix \
		--out $(B)/validate.json --out $(B)/validate.csv; rc=$$?; \
	echo "validate: every cell in $(B)/validate.csv; schedscope sweep merge $(B)/validate.json shows the table"; \
	[ $$rc -le 1 ]

# A sweep's chart drawn by a browser: Chromium takes a screenshot of the SVG.
sweep-screenshot: schedscope
	@tests/sweep-screenshot.sh ./schedscope $(B)/sweep-chart

# ---- fuzzing (clang's libFuzzer) ----

FUZZ_SRC   = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS  = $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))
FUZZ_TIME ?= 20

# the libraries built by clang with the fuzzer's instrumentation; each target links them all
FUZZ_SAN   = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -O1
$(eval $(call BUILD_TREE,$(B)/fuzz,$(FUZZ_SAN),clang))
$(B)/fuzz/%: tests/fuzz/%.c $($(B)/fuzz/LIBS)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	$(Q)clang $(CSTD) $(CPPFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $< $($(B)/fuzz/LIBS) -o $@ $(UI_LIBS) $(LDLIBS)

fuzz-smoke: $(FUZZ_BINS)
	@tests/run-fuzz.sh $(FUZZ_TIME) $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@tests/run-fuzz.sh 600 $(FUZZ_BINS)

# ---- benchmarks ----

BENCH_BINS = $(patsubst tests/bench/%.c,$(B)/bench/%,$(BENCH_SRC))
$(BENCH_BINS): private CFLAGS += $(if $(ENGINE_LTO),-flto=auto)
$(B)/bench/%: tests/bench/%.c $(BENCH_UTIL) $(BENCH_UTIL:.c=.h) $($(B)/LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXT_EXPORTS) -o $@ $(filter-out %.h,$^) $(UI_LIBS) $(LDLIBS)

bench: schedscope $(BENCH_BINS) ext-examples
	@for b in $(BENCH_BINS); do $$b || exit 1; done

# ---- install ----

install: schedscope ext-examples
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/topologies $(DESTDIR)$(DATADIR)/scenarios \
		$(DESTDIR)$(DATADIR)/ext $(DESTDIR)$(INCLUDEDIR)/schedscope \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 schedscope $(DESTDIR)$(BINDIR)/
	install -m 644 topologies/*.topo $(DESTDIR)$(DATADIR)/topologies/
	install -m 644 scenarios/*.scn $(DESTDIR)$(DATADIR)/scenarios/
	install -m 644 ext/*.c $(EXT_SOS) $(DESTDIR)$(DATADIR)/ext/
	install -m 644 $(EXT_HEADERS) $(DESTDIR)$(INCLUDEDIR)/schedscope/
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf $(B) schedscope
