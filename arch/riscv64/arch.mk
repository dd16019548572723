# SPDX-License-Identifier: MIT
# rv64gc: the hot path is plain integer code (gcc has no general-regs-only
# switch here; nothing in it uses floating point).
ARCH_OBJS += $(BUILD)/arch/riscv64/entry.o $(BUILD)/arch/riscv64/process_arch.o \
	$(BUILD)/arch/riscv64/decode.o $(BUILD)/arch/riscv64/nofault.o
$(BUILD)/arch/riscv64/process_arch.o $(BUILD)/arch/riscv64/decode.o: \
	EXTRA_CFLAGS = $(CFLAGS_HOT)
ARCH_HOOK_CFLAGS :=
