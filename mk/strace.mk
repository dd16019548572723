# SPDX-License-Identifier: MIT
# The golden corpus (tests/strace): small programs whose traces are
# compared with strace's.

STRACE_CORPUS := $(patsubst tests/strace/%.c,$(BUILD)/tests/strace/%,\
	$(wildcard tests/strace/*.c))

$(BUILD)/tests/strace/%: tests/strace/%.c tests/strace/corpus.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(STRACE_CORPUS)
endif

