# SPDX-License-Identifier: MIT
# x86-64: the hot path must not touch SSE/AVX registers.
CFLAGS_HOT += -mgeneral-regs-only
ARCH_OBJS += $(BUILD)/arch/x86_64/entry.o $(BUILD)/arch/x86_64/process_arch.o \
	$(BUILD)/arch/x86_64/decode.o $(BUILD)/arch/x86_64/nofault.o
$(BUILD)/arch/x86_64/process_arch.o $(BUILD)/arch/x86_64/decode.o: \
	EXTRA_CFLAGS = $(CFLAGS_HOT)
ARCH_HOOK_CFLAGS := -mgeneral-regs-only
# The kernel also serves i386 calls (int $0x80, 32-bit programs).
COMPAT_ARCH := i386
