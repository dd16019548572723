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

CHECK_DEPS += $(PORT_PROGS)
endif
