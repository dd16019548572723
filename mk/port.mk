# SPDX-License-Identifier: MIT
# The portable test programs for cross builds (tests/port): behaviour
# programs without x86 assembly, and the arch's register test.
ifneq ($(ARCH),x86_64)
PORT_BEHAVE := close-all fork-spawn nullfault signals sigaltstack threads vfork
PORT_PROGS := $(PORT_BEHAVE:%=$(BUILD)/tests/port/behave-%) $(BUILD)/tests/port/regs

$(BUILD)/tests/port/behave-%: tests/behave/%.c tests/lib/util.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/port/regs: tests/port/regs.c tests/port/regs-$(ARCH).S | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $^

# Thread creation every portable way, and a hook that counts thread_start
# callbacks, loaded after libsysgate.so (--hook) or before it (preloaded,
# with libsysgate.so.1 as its DT_NEEDED dependency).
$(BUILD)/tests/port/clones: tests/port/clones.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/libsysgate.so.1: $(BUILD)/libsysgate.so
	ln -sf libsysgate.so $@

$(BUILD)/tests/port/starts-needs.so: tests/hooks/starts.c include/sysgate.h \
		$(BUILD)/libsysgate.so.1
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -shared -o $@ $< \
		-L$(BUILD) -l:libsysgate.so.1 -Wl,-rpath,'$$ORIGIN/../..'

# A library with its own getppid site, dlopen'ed near or far from libc.
$(BUILD)/tests/port/far: tests/port/far.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $< -ldl

$(BUILD)/tests/port/farsite.so: tests/port/farsite-$(ARCH).S | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -o $@ $<

# A SIGPROF handler that unwinds, as a profiler does (gcc for rv64 writes
# no unwind tables unless asked).
$(BUILD)/tests/port/sigunwind: tests/port/sigunwind.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fasynchronous-unwind-tables -o $@ $<

# rv64: a function entered through a pointer right after padding.
ifeq ($(ARCH),riscv64)
$(BUILD)/tests/port/funcentry: tests/port/funcentry.c \
		tests/port/funcentry-riscv64.S | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $^
PORT_PROGS += $(BUILD)/tests/port/funcentry
endif

PORT_PROGS += $(BUILD)/tests/port/far $(BUILD)/tests/port/farsite.so
PORT_PROGS += $(BUILD)/tests/port/clones $(BUILD)/tests/hooks/starts.so \
	$(BUILD)/tests/port/starts-needs.so $(BUILD)/tests/hooks/exitret.so
PORT_PROGS += $(BUILD)/tests/cli/unwind-prog $(BUILD)/tests/hooks/unwind.so \
	$(BUILD)/tests/port/sigunwind
CHECK_DEPS += $(PORT_PROGS)
endif

# Instructions per hooked call under qemu (bench/port/insns.sh).
ifneq ($(ARCH),x86_64)
$(BUILD)/bench/port/loop: bench/port/loop.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $<

bench-insns: everything $(BUILD)/bench/port/loop
	@BUILD=$(BUILD) ARCH=$(ARCH) RUN="$(RUN)" bash bench/port/insns.sh

.PHONY: bench-insns
endif

