# SPDX-License-Identifier: MIT
#
# The syscall, errno and signal tables.  syscalls/*.csv are the single
# source; syscalls/gen.awk turns them into C for $(ARCH) at build time
# (POSIX awk, LC_ALL=C so that its string order is the C byte order the
# binary searches rely on).  The object is hot-path code: freestanding,
# no libc.

TABLE_CSV := syscalls/syscalls.csv syscalls/errno.csv syscalls/signals.csv
TABLE_GEN = LC_ALL=C $(AWK) -v arch=$(ARCH) -v compat=$(COMPAT_ARCH) \
	-f syscalls/gen.awk

$(BUILD)/gen/syscalls.h: syscalls/gen.awk $(TABLE_CSV) | $(BUILD)/.dir
	$(TABLE_GEN) -v out=h $(TABLE_CSV) >$@.tmp
	@mv $@.tmp $@

$(BUILD)/gen/syscalls.c: syscalls/gen.awk $(TABLE_CSV) | $(BUILD)/.dir
	$(TABLE_GEN) -v out=c $(TABLE_CSV) >$@.tmp
	@mv $@.tmp $@

GEN_HEADERS += $(BUILD)/gen/syscalls.h
TABLE_OBJS := $(BUILD)/gen/syscalls.o

$(BUILD)/gen/syscalls.o: EXTRA_CFLAGS = $(CFLAGS_HOT)
$(BUILD)/gen/syscalls.o: $(BUILD)/gen/syscalls.c $(BUILD)/gen/syscalls.h \
		include/sysgate.h
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@

everything: $(TABLE_OBJS)

# Unit test of the generated lookups (tests/tables), run under $(RUN).
TABLE_TEST := $(BUILD)/tests/tables/table-test
$(TABLE_TEST): $(BUILD)/tests/tables/table-test.o $(TABLE_OBJS)
	$(CC) $(CFLAGS_COMMON) -o $@ $^

# Makes every call once under strace, to compare class memberships.
STRACE_HARNESS := $(BUILD)/tests/tables/strace-harness
$(STRACE_HARNESS): $(BUILD)/tests/tables/strace-harness.o $(TABLE_OBJS)
	$(CC) $(CFLAGS_COMMON) -o $@ $^

CHECK_DEPS += $(TABLE_TEST) $(STRACE_HARNESS)
