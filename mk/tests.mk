# SPDX-License-Identifier: MIT
# Test programs live under $(BUILD)/tests/.  Behaviour tests are plain C
# (with inline asm) built for the target; `make check` builds them first.

BEHAVE_SRCS := $(wildcard tests/behave/*.c)
BEHAVE_PROGS := $(BEHAVE_SRCS:tests/behave/%.c=$(BUILD)/tests/behave/%)

$(BUILD)/tests/behave/%: tests/behave/%.c tests/lib/util.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(BEHAVE_PROGS)
endif
