# SPDX-License-Identifier: MIT
# The rv64gc decoder's tests (tests/rvdecode/).  decode.c is portable C,
# so they are host programs, built with HOSTCC into $(BUILD) whatever ARCH
# is: `make check` and `make check ARCH=riscv64` both run them.

RVDECODE_PROGS := $(BUILD)/tests/rvdecode/table $(BUILD)/tests/rvdecode/objdump-check

$(BUILD)/tests/rvdecode/%: tests/rvdecode/%.c arch/riscv64/decode.c \
		arch/riscv64/decode.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Wextra $(WERROR) -Iarch/riscv64 \
		-o $@ $< arch/riscv64/decode.c

CHECK_DEPS += $(RVDECODE_PROGS)
