# ncgrind: one non-recursive makefile. `make V=1` shows the commands.
#
#   make            build ./ncgrind
#   make run        install what is missing, build, open the bundled example
#   make check      install what is missing, build, run the whole test suite
#   make asan       the suite against an ASan+UBSan build
#   make valgrind   a subset of the suite under memcheck
#   make monkey SEED=N RUNS=M   random keys on the fixtures and ../shared/corpus/real
#                   (make monkey-tmux: the same on the real terminal in tmux)
#   make bench      one table of timings and memory, 100 MiB to 5 GiB and real
#                   profiles (needs ../shared; BENCH_MAX_SIZE=1G: no 5 GiB)
#   make bench-shapes  call views and trees on generated huge shapes
#   make check-corpus  compare with Valgrind's tools on ../shared/corpus
#   make fuzz FUZZ_SECONDS=N   libFuzzer on the reader, the view-models and the
#                   reports for N seconds (needs clang; built in build-fuzz/)
#   make fuzz-inputs FUZZ_SECONDS=N   the same on event formulas and the
#                   gzip, xz and zstd streams; make fuzz-ci: both, briefly (CI)
#   make screenshots   the README's pictures (doc/screens/*.svg) again, from
#                   ncgrind in tmux (SHOTS="table diff": only those)
#   make install PREFIX=/usr/local   the program, its manual, the bash and zsh
#                   completions (make uninstall removes them)
#   make deb        the Debian package, in build-deb/ (slow: it runs the suite;
#                   DEB_BUILD_OPTIONS=nocheck does not)
CC ?= cc
# make install: where (DESTDIR is honoured, for packages). zsh's completion
# goes to site-functions, which is on every zsh's $fpath under /usr/local
# (Debian's too, where /usr/local/share/zsh/vendor-completions is not);
# debian/rules names Debian's own place for packages, vendor-completions.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
DOCDIR ?= $(PREFIX)/share/doc/ncgrind
SHARED ?= ../shared

WARN = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wwrite-strings -Wno-format-nonliteral -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread -Iinclude -D_FILE_OFFSET_BITS=64 -MMD -MP
LDLIBS ?=

# Debian packages the build and the tests need (ncursesw and libedit for the
# browser and its prompt, bats for the suite, tmux for the terminal tests,
# python3 for the tests that read JSON, valgrind for the tests that count
# instructions, clang and its libFuzzer for make fuzz and CI's make fuzz-ci:
# Debian's libFuzzer is libclang-rt-NN-dev, which clang only recommends;
# libclang-rt-dev is the default clang's).
DEB_PKGS = gcc make libncurses-dev libedit-dev zlib1g-dev liblzma-dev libzstd-dev libiberty-dev \
	   pkg-config bats tmux python3 clang-format gzip xz-utils zstd valgrind clang \
	   libclang-rt-dev
# Of those, the ones only the tests need (debian/control's Build-Depends marks
# them <!nocheck>), and the ones every Debian build has (build-essential, or
# Essential: yes), which Build-Depends leaves out (test/install.bats holds
# debian/control to these lists).
DEB_TEST_PKGS = bats tmux python3 clang-format gzip xz-utils zstd valgrind clang libclang-rt-dev
DEB_IMPLIED_PKGS = gcc make gzip
# DEPS_INSTALL=no: make deps only checks, and fails naming what is missing
# (debian/rules: in a package build the dependencies are dpkg's business)
DEPS_INSTALL ?= yes

ifeq ($(V),1)
Q =
else
Q = @
endif

# The layers, one folder each (make check-layers checks what each includes):
# core (the reader, the index, the batch reports of functions and calls), model
# (view-models: plain data, no curses), report (the batch forms of the call
# views and the source), ui (the terminal, the prompt, the screens).
CORE_SRC = $(sort $(wildcard src/core/*.c))
MODEL_SRC = $(sort $(wildcard src/model/*.c))
REPORT_SRC = $(sort $(wildcard src/report/*.c))
UI_SRC = $(sort $(wildcard src/ui/*.c))
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
EDIT_LIBS := $(shell pkg-config --libs libedit 2>/dev/null || echo -ledit) -lutil
# the core reads gzip, xz and zstd profiles, and demangles names with libiberty
CORE_LIBS := $(shell pkg-config --libs zlib liblzma libzstd 2>/dev/null || echo -lz -llzma -lzstd) \
	-liberty
BUILD ?= build
OUT ?= .
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/%.o)
MODEL_OBJ = $(MODEL_SRC:src/%.c=$(BUILD)/%.o)
REPORT_OBJ = $(REPORT_SRC:src/%.c=$(BUILD)/%.o)
UI_OBJ = $(UI_SRC:src/%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/main.o
PROBE_OBJ = $(BUILD)/probe.o
NCGRIND = $(OUT)/ncgrind
PROBE = $(if $(filter .,$(OUT)),test/tools/probe,$(OUT)/probe)
# the trees' property test: the core and the tree view-model, no curses
TREECHECK_OBJ = $(CORE_OBJ) $(BUILD)/model/calltree.o $(BUILD)/model/treewalk.o $(BUILD)/model/filter.o \
		$(BUILD)/model/flame.o \
		$(BUILD)/treecheck.o
TREECHECK = $(if $(filter .,$(OUT)),test/tools/treecheck,$(OUT)/treecheck)
# the names' shortening, alone: the core and two model files, no curses
SHORTEN_OBJ = $(CORE_OBJ) $(BUILD)/model/shorten.o $(BUILD)/model/grid.o $(BUILD)/shorten.o
SHORTEN = $(if $(filter .,$(OUT)),test/tools/shorten,$(OUT)/shorten)

all: $(NCGRIND)

# (the program's libraries: its instrumented build, below, links the same)
NCGRIND_LIBS = $(CURSES_LIBS) $(EDIT_LIBS) $(CORE_LIBS) $(LDLIBS)

$(NCGRIND): $(CORE_OBJ) $(MODEL_OBJ) $(REPORT_OBJ) $(UI_OBJ) $(MAIN_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(NCGRIND_LIBS)

$(PROBE): $(CORE_OBJ) $(PROBE_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CORE_LIBS) $(LDLIBS)

$(TREECHECK): $(TREECHECK_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CORE_LIBS) $(LDLIBS)

$(SHORTEN): $(SHORTEN_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CORE_LIBS) $(LDLIBS)

# Profile-guided optimisation (PGO=1), the default for the default build
# with gcc; PGO=0 builds once. The objects are built twice: first
# instrumented, in $(PGO_DIR), and that program reads three profiles that
# test/tools/train.c writes in the shapes Callgrind writes; then the objects
# of $(BUILD) are built with the counts it left (-fprofile-use), so that the
# compiler lays the line machine out by how its branches went: a profile is
# read in 7-12% less time (make bench). The training's profiles are the same
# bytes every time, and the counters of addresses and timings are off
# (PGO_CFLAGS), so that its counts are too, but for a few files whose counts
# move with the threads' timing (parse.c, parse_chunks.c, memwatch.c, util.c):
# an object is built again only when its own counts changed (the training
# copies each .gcda beside its object only where it differs).
# -fprofile-partial-training: code the training never ran (the
# browser) is optimised as without PGO, not for size; -fprofile-correction:
# gcc's warning of a function that ran with no counts of its own (inlined in
# the training's build) is no error. doc/HACKING.md says more.
# (gcc 11 or later: -dumpdir and -dumpbase name the counts, below)
PGO_GCC := $(shell $(CC) -v 2>&1 | sed -n 's/^gcc version \([0-9]*\).*/\1/p')
PGO_DEFAULT := $(if $(filter build,$(BUILD)),$(shell [ "0$(PGO_GCC)" -ge 11 ] && echo 1 || echo 0),0)
PGO ?= $(PGO_DEFAULT)
PGO_DIR = $(BUILD)/pgo
PGO_STAMP = $(PGO_DIR)/trained
PGO_TRAIN_SIZE ?= 16000000
PGO_CFLAGS = -fno-profile-values -fno-profile-reorder-functions
PGO_RUNS = "1 functions" "2 functions" "1 calls"
PGO_OBJ = $(patsubst $(BUILD)/%,$(PGO_DIR)/%,$(CORE_OBJ) $(MODEL_OBJ) $(REPORT_OBJ) $(UI_OBJ) $(MAIN_OBJ))
PGO_COUNTS = $(abspath $(PGO_DIR))/counts
PGO_USE = $(abspath $(PGO_DIR))/use

# An object of the program: with PGO, from the counts beside it (a
# prerequisite, so that new counts build it again) and the flags to use them.
PGO_USE_CFLAGS = $(if $(filter 1,$(PGO)),-fprofile-use $(PGO_CFLAGS) -fprofile-partial-training \
	-fprofile-correction -Wno-missing-profile -fprofile-dir=$(PGO_USE))
$(BUILD)/%.o: src/%.c $(if $(filter 1,$(PGO)),$(BUILD)/%.gcda)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(PGO_USE_CFLAGS) -c -o $@ $<

ifeq ($(PGO),1)
# (made by the training, where they differ from the last one's; kept)
$(BUILD)/%.gcda: $(PGO_STAMP) ;
.PRECIOUS: $(BUILD)/%.gcda

$(PGO_DIR)/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (instrumented)")
	$(Q)$(CC) $(ALL_CFLAGS) -fprofile-generate $(PGO_CFLAGS) -fprofile-update=atomic \
		-fprofile-dir=$(PGO_COUNTS) -dumpdir $(dir $(BUILD)/$*) -dumpbase $(notdir $*) \
		-MF $(@:.o=.d) -c -o $@ $<

$(PGO_DIR)/ncgrind: $(PGO_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -fprofile-generate -o $@ $^ $(NCGRIND_LIBS)

$(PGO_DIR)/train: test/tools/train.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# The training: each profile's reports at one job, in a home of its own (no
# config, no kept index); then each object's counts beside the object that
# the build makes from the same source, if they changed.
$(PGO_STAMP): $(PGO_DIR)/ncgrind $(PGO_DIR)/train
	@$(if $(Q),echo "  TRAIN   $(PGO_DIR)/ncgrind")
	$(Q)rm -rf $(PGO_COUNTS); mkdir -p $(PGO_DIR)/home $(PGO_USE); \
	for kind in sim dumps line; do \
		$(PGO_DIR)/train $$kind $(PGO_TRAIN_SIZE) >$(PGO_DIR)/$$kind.callgrind || exit 1; \
		for run in $(PGO_RUNS); do \
			set -- $$run; \
			HOME=$(PGO_DIR)/home XDG_CONFIG_HOME=$(PGO_DIR)/home XDG_CACHE_HOME=$(PGO_DIR)/home \
			$(PGO_DIR)/ncgrind --no-cache --jobs=$$1 --dump=$$2 --format=tsv \
				$(PGO_DIR)/$$kind.callgrind >/dev/null || exit 1; \
		done; \
		rm -f $(PGO_DIR)/$$kind.callgrind; \
	done; \
	for o in $(PGO_OBJ); do \
		b=$(BUILD)/$${o#$(PGO_DIR)/}; b=$${b%.o}; \
		g=$$(echo $(abspath .)/$$b | tr / '#').gcda; \
		[ -f $(PGO_COUNTS)/$$g ] || { echo "ncgrind: no training counts for $$b" >&2; exit 1; }; \
		cp $(PGO_COUNTS)/$$g $(PGO_USE)/$$g || exit 1; \
		mkdir -p $$(dirname $$b); cmp -s $(PGO_COUNTS)/$$g $$b.gcda || cp $(PGO_COUNTS)/$$g $$b.gcda || exit 1; \
	done
	$(Q)touch $@
endif

$(BUILD)/probe.o: test/tools/probe.c
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/shorten.o: test/tools/shorten.c
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/treecheck.o: test/tools/treecheck.c
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(UI_OBJ) $(patsubst $(BUILD)/%,$(PGO_DIR)/%,$(UI_OBJ)): \
	ALL_CFLAGS += $(filter-out -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=%,$(CURSES_CFLAGS))

-include $(CORE_OBJ:.o=.d) $(MODEL_OBJ:.o=.d) $(REPORT_OBJ:.o=.d) $(UI_OBJ:.o=.d) \
	$(MAIN_OBJ:.o=.d) $(PROBE_OBJ:.o=.d) \
	$(BUILD)/treecheck.d $(BUILD)/shorten.d $(if $(filter 1,$(PGO)),$(PGO_OBJ:.o=.d) $(PGO_DIR)/train.d)

# Install the Debian packages that are missing (as root, or through sudo).
deps:
	@missing=; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$(DEPS_INSTALL)" = no ]; then echo "ncgrind: missing packages:$$missing"; exit 1; fi; \
	if ! command -v apt-get >/dev/null; then \
		echo "ncgrind: please install:$$missing (no apt-get here)"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=; \
	elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "ncgrind: please install as root:$$missing"; exit 1; fi; \
	echo "ncgrind: installing$$missing"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null

run: deps $(NCGRIND)
	$(NCGRIND) test/fixtures/example.callgrind

# The suite; the last line is "N passed, N failed" (CI reads it).
check: deps $(NCGRIND) $(PROBE) $(TREECHECK) $(SHORTEN) check-layers fmt-check
	@NCGRIND=$(abspath $(NCGRIND)) PROBE=$(abspath $(PROBE)) TREECHECK=$(abspath $(TREECHECK)) \
		SHORTEN=$(abspath $(SHORTEN)) \
		SHARED_DIR=$(abspath $(SHARED)) \
		test/tools/run-suite test

# (monkey.bats runs seeds of its own under ASan, 4 runs a profile: with make
# check's 5, nine different scripts a profile. It ran check's 5 seeds again
# and 3 more, 195 s, an eighth of CI's time.)
# GCC's "undefined" leaves out
# float-cast-overflow: a cost of 2^64 as a double cast to uint64_t is undefined.
# (NCGRIND_PLAIN: the plain build, for the tests that count instructions under valgrind)
ASAN_MAKE = $(MAKE) BUILD=build-asan OUT=build-asan \
	CFLAGS="-O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	LDFLAGS="-fsanitize=address,undefined,float-cast-overflow"
asan: $(NCGRIND)
	NCGRIND_PLAIN=$(abspath $(NCGRIND)) \
	LSAN_OPTIONS=suppressions=$(abspath test/tools/lsan.supp):print_suppressions=0 \
	MONKEY_RUNS=$${MONKEY_RUNS:-4} MONKEY_SEED=$${MONKEY_SEED:-100001} \
	MONKEY_TIMEOUT=$${MONKEY_TIMEOUT:-30} \
	$(ASAN_MAKE) check

# What make check and make asan run, built by themselves: .ci/run builds
# them first on every core (make -j), before their suite.
programs: $(NCGRIND) $(PROBE) $(TREECHECK) $(SHORTEN)
asan-programs:
	$(ASAN_MAKE) programs

valgrind: $(NCGRIND) $(PROBE)
	@VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
		NCGRIND=$(abspath $(NCGRIND)) PROBE=$(abspath $(PROBE)) test/tools/run-suite test/spec.bats test/malformed.bats

# Random keys and commands (test/tools/monkey): RUNS runs from seed SEED over every
# profile of test/fixtures and $(SHARED)/corpus/real; the failing scripts go to
# MONKEY_OUT (default: a new directory under /tmp). MONKEY_FLAGS adds options, e.g.
# "--keys 80 --mem 2048", or "--ncgrind build-asan/ncgrind" (built by make asan).
SEED ?= 1
RUNS ?= 500
MONKEY_PROFILES = $$(find test/fixtures $(wildcard $(SHARED)/corpus/real) -type f \( -name '*.callgrind' \
	-o -name '*.cachegrind' -o -name 'cachegrind.out.*' -o -name 'callgrind.out.*' \) ! -name '*.txt' | LC_ALL=C sort)
MONKEY = test/tools/monkey -q --ncgrind $(NCGRIND) --seed $(SEED) --runs $(RUNS) \
	$(if $(MONKEY_OUT),--out $(MONKEY_OUT))
monkey: $(NCGRIND)
	$(MONKEY) -j 2 $(MONKEY_FLAGS) $(MONKEY_PROFILES)

monkey-tmux: $(NCGRIND)
	$(MONKEY) --tmux $(MONKEY_FLAGS) $(MONKEY_PROFILES)

# One table (test/bench/bench.sh; its header lists the BENCH_* settings): the
# full index at --jobs=1 and --jobs=N beside a floor, the first table, memory
# and thread CPU on generated 100M/1G/5G, big real and corpus profiles. Slow the
# first time (it makes and keeps the profiles in /tmp/ncgrind-bench); not in check.
bench: $(NCGRIND)
	SHARED_DIR=$(SHARED) test/bench/bench.sh $(NCGRIND)

# The call-graph shapes of huge profiles (30,000 callees, 1,000,000 callers, a
# 100,000-deep chain, a 100,000-member cycle, hide over it), made by the script.
bench-shapes: $(NCGRIND)
	test/bench/shapes.sh $(NCGRIND)

check-corpus: $(NCGRIND) $(PROBE) $(TREECHECK) $(SHORTEN)
	SHARED_DIR=$(abspath $(SHARED)) NCGRIND=$(abspath $(NCGRIND)) \
		SHORTEN=$(abspath $(SHORTEN)) bats test/names.bats
	$(SHARED)/tools/corpus-check --ncgrind $(NCGRIND)
	$(TREECHECK) $(filter-out %.empty.callgrind,$(wildcard $(SHARED)/corpus/real/*.callgrind))
	test/tools/call-costs-check $(NCGRIND) $(filter-out %.empty.callgrind,$(wildcard $(SHARED)/corpus/real/*.callgrind))
	test/tools/call-costs-check --screens 40 $(NCGRIND) $(wildcard $(SHARED)/corpus/real/recur-*.callgrind)
	test/tools/tree-sums $(NCGRIND) $(filter-out %.empty.callgrind,$(wildcard $(SHARED)/corpus/real/*.callgrind))
	@for f in $$(find $(SHARED)/corpus -type f \( -name '*.callgrind' -o -name '*.cachegrind' \
		-o -name 'cachegrind.out.*' \) ! -name '*.txt' ! -path '*/malformed/*' ! -name '*.empty.*'); do \
		$(PROBE) check $$f >/dev/null || { echo "probe check failed: $$f"; exit 1; }; \
		NCGRIND_CHUNK_SIZE=1 $(PROBE) check $$f >/dev/null || { echo "probe check (chunked) failed: $$f"; exit 1; }; \
	done; echo "probe check: every corpus profile re-read block by block agrees with its index (one pass and chunks)"
	test/tools/jobs-compare $(NCGRIND) $$(find $(SHARED)/corpus -type f \( -name '*.callgrind' -o -name '*.cachegrind' \
		-o -name 'cachegrind.out.*' \) ! -name '*.txt')
	test/tools/parts-compare $(NCGRIND) $(SHARED)/corpus

# libFuzzer, two targets, one core each (no -jobs), built in build-fuzz/:
#   make fuzz         test/fuzz/fuzz_profile.c: each input is a profile, read,
#                     re-read block by block against its index, then through the
#                     view-models and every batch report (no curses: the core,
#                     the model and the report layers);
#   make fuzz-inputs  test/fuzz/fuzz_inputs.c: event lines and --event formulas
#                     over a fixed profile, and gzip, xz and zstd streams
#                     (decompress.c), each input small;
# for FUZZ_SECONDS each, from a corpus that grows run after run
# (build-fuzz/corpus, build-fuzz/corpus-inputs), seeded by test/fuzz/seed from
# the fixtures and $(SHARED)/corpus. What libFuzzer finds goes to
# build-fuzz/crash-*, leak-*, timeout-*, oom-*; a reproducer runs with
# `build-fuzz/fuzz-ncgrind FILE` or `build-fuzz/fuzz-inputs FILE`
# (fuzz_profile: NCG_FUZZ_KNOWN=0 steps around the known problems, see its
# header). FUZZ_ARGS adds options (e.g. -seed=1, -only_ascii=1).
#   make fuzz-ci      what CI runs after the suites (.ci/run): both targets for
#                     FUZZ_CI_SECONDS each, from a fresh copy of the fixtures and
#                     $(SHARED)/corpus/hostile; fails when libFuzzer stops early,
#                     finds something, executes too few inputs or covers too few
#                     edges (test/fuzz/ci-run says how it checks).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 16384
FUZZ_INPUTS_MAX_LEN ?= 8192
FUZZ_CI_SECONDS ?= 30
FUZZ_BUILD = build-fuzz
FUZZ_BIN = $(FUZZ_BUILD)/fuzz-ncgrind
FUZZ_INPUTS_BIN = $(FUZZ_BUILD)/fuzz-inputs
FUZZ_SAN = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = $(filter-out -Werror,$(WARN)) -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
	-Iinclude -D_FILE_OFFSET_BITS=64 -MMD -MP
FUZZ_LIB_OBJ = $(patsubst src/%.c,$(FUZZ_BUILD)/%.o,$(CORE_SRC) $(MODEL_SRC) $(REPORT_SRC))
FUZZ_OBJ = $(FUZZ_LIB_OBJ) $(FUZZ_BUILD)/fuzz_profile.o $(FUZZ_BUILD)/fuzz_inputs.o
FUZZ_RUN = ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1}
# the options of every run: a slow input or a large one is a finding too
FUZZ_OPTS = -rss_limit_mb=2048 -timeout=10 -artifact_prefix=$(FUZZ_BUILD)/
FUZZ_PROFILE_OPTS = -max_len=$(FUZZ_MAX_LEN) -dict=test/fuzz/callgrind.dict
FUZZ_INPUTS_OPTS = -max_len=$(FUZZ_INPUTS_MAX_LEN) -dict=test/fuzz/inputs.dict

fuzz-clang:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs clang with libFuzzer:" \
		"make deps (or FUZZ_CC=clang-NN)"; exit 1; }

fuzz: fuzz-clang
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@test/fuzz/seed profile $(FUZZ_BUILD)/corpus test/fixtures $(wildcard $(SHARED)/corpus)
	$(FUZZ_RUN) $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_OPTS) $(FUZZ_PROFILE_OPTS) \
		-print_final_stats=1 $(FUZZ_ARGS) $(FUZZ_BUILD)/corpus

fuzz-inputs: fuzz-clang
	@$(MAKE) --no-print-directory $(FUZZ_INPUTS_BIN)
	@test/fuzz/seed inputs $(FUZZ_BUILD)/corpus-inputs test/fixtures $(wildcard $(SHARED)/corpus)
	$(FUZZ_RUN) $(FUZZ_INPUTS_BIN) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_OPTS) $(FUZZ_INPUTS_OPTS) \
		-print_final_stats=1 $(FUZZ_ARGS) $(FUZZ_BUILD)/corpus-inputs

# The seeds are small (no 16 KiB cut of a 3 MB profile to replay): the
# fixtures and the hostile files. MIN_COV is about half what each target
# covers with its seeds alone (clang 14).
fuzz-ci: fuzz-clang
	@$(MAKE) --no-print-directory $(FUZZ_BIN) $(FUZZ_INPUTS_BIN)
	@rm -rf $(FUZZ_BUILD)/ci-seeds $(FUZZ_BUILD)/ci-seeds-inputs
	@test/fuzz/seed profile $(FUZZ_BUILD)/ci-seeds test/fixtures $(wildcard $(SHARED)/corpus/hostile)
	@test/fuzz/seed inputs $(FUZZ_BUILD)/ci-seeds-inputs test/fixtures $(wildcard $(SHARED)/corpus/hostile)
	@rc=0; \
	test/fuzz/ci-run profile $(FUZZ_BIN) $(FUZZ_CI_SECONDS) 2000 $(FUZZ_BUILD)/ci-seeds \
		$(FUZZ_OPTS) $(FUZZ_PROFILE_OPTS) || rc=1; \
	test/fuzz/ci-run inputs $(FUZZ_INPUTS_BIN) $(FUZZ_CI_SECONDS) 900 $(FUZZ_BUILD)/ci-seeds-inputs \
		$(FUZZ_OPTS) $(FUZZ_INPUTS_OPTS) || rc=1; \
	exit $$rc

$(FUZZ_BIN): $(FUZZ_LIB_OBJ) $(FUZZ_BUILD)/fuzz_profile.o
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ $(CORE_LIBS)

$(FUZZ_INPUTS_BIN): $(FUZZ_LIB_OBJ) $(FUZZ_BUILD)/fuzz_inputs.o
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ $(CORE_LIBS)

$(FUZZ_BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# The harnesses keep -Werror (a change of the API they call must break their
# build, not leave a call with too few arguments behind); the sources under
# clang's warnings do not, gcc's -Werror build holds them.
$(FUZZ_BUILD)/fuzz_%.o: test/fuzz/fuzz_%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -c -o $@ $<

-include $(FUZZ_OBJ:.o=.d)

# The README's pictures, taken again when the screens change: ncgrind in a
# private tmux server, each screen captured in colour once it has settled and
# turned into SVG (test/tools/screenshots, test/tools/ansi2svg). Not in check;
# commit the SVGs it changes.
screenshots: $(NCGRIND)
	test/tools/screenshots --ncgrind $(NCGRIND) $(SHOTS)

# The core (map, parse, index, profile) never includes curses or libedit.
check-layers:
	@test/tools/check-layers

# make install: the program, its manual pages (each in its section's folder),
# the bash and zsh completions (contrib/completion: they ask the program for
# its options at each Tab), and the example configuration when there is one;
# make uninstall removes exactly those, and the documentation folder if it is
# left empty. INSTALL_BIN: the binary to install (make's by default).
INSTALL_BIN ?= $(NCGRIND)
MAN_PAGES = $(wildcard doc/*.[1-9])
EXAMPLE_CONFIG = $(wildcard doc/ncgrind-config.example)
man_dest = $(MANDIR)/man$(patsubst .%,%,$(suffix $(1)))/$(notdir $(1))

install: $(INSTALL_BIN)
	install -D -m 755 $(INSTALL_BIN) "$(DESTDIR)$(BINDIR)/ncgrind"
	$(foreach m,$(MAN_PAGES),install -D -m 644 $(m) "$(DESTDIR)$(call man_dest,$(m))" &&) true
	install -D -m 644 contrib/completion/ncgrind.bash "$(DESTDIR)$(BASHCOMPDIR)/ncgrind"
	install -D -m 644 contrib/completion/_ncgrind "$(DESTDIR)$(ZSHCOMPDIR)/_ncgrind"
	$(if $(EXAMPLE_CONFIG),install -D -m 644 $(EXAMPLE_CONFIG) "$(DESTDIR)$(DOCDIR)/examples/config")

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/ncgrind" $(foreach m,$(MAN_PAGES),"$(DESTDIR)$(call man_dest,$(m))") \
		"$(DESTDIR)$(BASHCOMPDIR)/ncgrind" "$(DESTDIR)$(ZSHCOMPDIR)/_ncgrind" \
		$(if $(EXAMPLE_CONFIG),"$(DESTDIR)$(DOCDIR)/examples/config")
	@for d in "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)"; do \
		[ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d"; done

# make deb: the Debian package (debian/), by dpkg-buildpackage -us -uc -b in a
# copy of the tree under build-deb/ (the files git tracks or would, as they
# are now), so that the tree keeps none of dpkg's outputs; the .deb, .changes
# and .buildinfo land in build-deb/, then lintian (when installed) checks
# them and fails on an error. DEB_BUILD_OPTIONS=nocheck leaves out the suite.
# Slow (the suite runs in dh_auto_test): not in make check.
deb:
	@command -v dpkg-buildpackage >/dev/null || { echo "make deb needs dpkg-dev and" \
		"debhelper: apt-get install dpkg-dev debhelper (lintian to check it)"; exit 1; }
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make deb copies the files" \
		"git knows: run dpkg-buildpackage -us -uc -b here instead"; exit 1; }
	rm -rf build-deb
	mkdir -p build-deb/ncgrind
	git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - --ignore-failed-read -cf - | tar -xf - -C build-deb/ncgrind
	cd build-deb/ncgrind && dpkg-buildpackage -us -uc -b
	rm -rf build-deb/ncgrind
	@ls build-deb/*.deb
	@if command -v lintian >/dev/null; then lintian build-deb/*.changes; \
	else echo "make deb: lintian is not installed, the package is not checked"; fi

# The house style is .clang-format's: make fmt applies it, make fmt-check (in make
# check, so in CI) fails on a file that does not follow it.
FMT_FILES = src/*.c src/*/*.c src/*/*.h include/ncgrind/*/*.h test/tools/*.c test/bench/*.c \
	test/fuzz/*.c
fmt:
	clang-format -i $(FMT_FILES)

fmt-check:
	@clang-format --dry-run --Werror $(FMT_FILES) && echo "fmt-check: the sources follow .clang-format"

clean:
	rm -rf build build-asan build-fuzz ncgrind test/tools/probe test/tools/treecheck test/tools/shorten \
		build-deb debian/ncgrind debian/.debhelper debian/tmp debian/files \
		debian/*.substvars debian/*.debhelper.log debian/debhelper-build-stamp

.PHONY: all deps run check asan programs asan-programs valgrind fuzz fuzz-inputs fuzz-ci fuzz-clang monkey monkey-tmux bench bench-shapes check-corpus check-layers screenshots install uninstall deb fmt fmt-check clean
