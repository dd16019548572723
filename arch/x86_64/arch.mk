# SPDX-License-Identifier: MIT
# x86-64: the hot path must not touch SSE/AVX registers.
CFLAGS_HOT += -mgeneral-regs-only
ARCH_OBJS += $(BUILD)/arch/x86_64/entry.o
ARCH_HOOK_CFLAGS := -mgeneral-regs-only
