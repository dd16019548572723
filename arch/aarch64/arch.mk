# SPDX-License-Identifier: MIT
# aarch64: the hot path must not touch FP/SIMD registers (a hooked call
# saves them only for hooks that ask).
CFLAGS_HOT += -mgeneral-regs-only
ARCH_OBJS += $(BUILD)/arch/aarch64/entry.o $(BUILD)/arch/aarch64/process_arch.o \
	$(BUILD)/arch/aarch64/decode.o $(BUILD)/arch/aarch64/nofault.o
$(BUILD)/arch/aarch64/process_arch.o $(BUILD)/arch/aarch64/decode.o: \
	EXTRA_CFLAGS = $(CFLAGS_HOT)
ARCH_HOOK_CFLAGS := -mgeneral-regs-only
