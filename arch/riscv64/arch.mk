# SPDX-License-Identifier: MIT
# rv64gc: the hot path is plain integer code (gcc has no general-regs-only
# switch here; nothing in it uses floating point).
ARCH_OBJS += $(BUILD)/arch/riscv64/entry.o $(BUILD)/arch/riscv64/process_arch.o \
	$(BUILD)/arch/riscv64/decode.o $(BUILD)/arch/riscv64/nofault.o
$(BUILD)/arch/riscv64/process_arch.o $(BUILD)/arch/riscv64/decode.o: \
	EXTRA_CFLAGS = $(CFLAGS_HOT)
ARCH_HOOK_CFLAGS :=
# gcc for rv64 writes no unwind tables unless asked: without them a hook
# that unwinds (backtrace(), a profiler) stops at sysgate's first frame.
CFLAGS_COMMON += -fasynchronous-unwind-tables
