# ncgrind: one non-recursive makefile. `make V=1` shows the commands.
CC ?= cc
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1

WARN = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wwrite-strings -Wno-format-nonliteral -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(WARN) $(CFLAGS) -Iinclude -D_FILE_OFFSET_BITS=64 -MMD -MP
LDLIBS ?=

ifeq ($(V),1)
Q =
else
Q = @
endif

CORE_SRC = src/util.c src/diag.c src/map.c src/names.c src/lex.c src/parse.c \
           src/profile.c src/graph.c src/events.c src/report.c
BUILD ?= build
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/main.o
PROBE_OBJ = $(BUILD)/probe.o

all: ncgrind

ncgrind: $(CORE_OBJ) $(MAIN_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

test/tools/probe: $(CORE_OBJ) $(PROBE_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/probe.o: test/tools/probe.c
	@mkdir -p $(BUILD)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

-include $(CORE_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(PROBE_OBJ:.o=.d)

clean:
	rm -rf build build-asan ncgrind test/tools/probe

.PHONY: all clean
