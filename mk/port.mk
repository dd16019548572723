# SPDX-License-Identifier: MIT
# The portable test programs for cross builds (tests/port): behaviour
# programs without x86 assembly, and the arch's register test.
ifneq ($(ARCH),x86_64)
# signals is left out: under qemu-riscv64 a timer signal that lands while
# a trapped site is being served sometimes ends the program with SIGTRAP
# (open bug, see the RISC-V section of README).
PORT_BEHAVE := close-all fork-spawn nullfault sigaltstack threads vfork
# aarch64 serves signals that land in a trapped site (15 runs of each of
# -c, -f and -m int3 -f passed under qemu-aarch64 7.2).
ifeq ($(ARCH),aarch64)
PORT_BEHAVE += signals
endif
PORT_PROGS := $(PORT_BEHAVE:%=$(BUILD)/tests/port/behave-%) $(BUILD)/tests/port/regs

$(BUILD)/tests/port/behave-%: tests/behave/%.c tests/lib/util.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/port/regs: tests/port/regs.c tests/port/regs-$(ARCH).S | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $^

CHECK_DEPS += $(PORT_PROGS)
endif

# aarch64's word classifier runs on the host against a table and objdump.
ifeq ($(ARCH),aarch64)
$(BUILD)/tests/port/decode-aarch64: tests/port/decode-aarch64.c \
		arch/aarch64/decode.c arch/aarch64/decode.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Iarch/aarch64 -o $@ $< arch/aarch64/decode.c

CHECK_DEPS += $(BUILD)/tests/port/decode-aarch64
endif
